// Subjects end to end on a freshly started embedded platform: create a subject from the list,
// find it, open its settings (basic setup, a version, a member, notice), transfer it to a second
// user and delete it. The second user is written straight into the platform's SQLite file, as
// there is no user-management screen yet. Screenshots go to test-results/subject-*.png.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROLE } from '../../contract/permissions.ts';
import { hashPassword } from '../../server/auth/password.ts';
import { openDatabase } from '../../server/db/connect.ts';
import { createUser } from '../../server/db/repositories/users.ts';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/subject-${name}.png`;

test.use({ actionTimeout: 15_000 });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

async function addUser(username: string, name: string) {
  const handle = openDatabase({ kind: 'sqlite', file: path.join(host.home, 'platform', 'cairn.db') });
  try {
    await createUser(handle.db, { username, name, passwordHash: await hashPassword('Pass@12345'), roleCodes: [ROLE.ORDINARY_USER], updatedPwd: true });
  } finally {
    await handle.db.destroy();
  }
}

test('应用：新建、查找、设置、版本、成员、转移、删除', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);
  await addUser('zhangwei', '张伟');

  // ---- 项目列表：空列表与新建应用 -------------------------------------------------------------
  await page.goto(`${host.origin}/#/project/projectList?product=1`);
  await expect(page.getByRole('heading', { name: '项目列表' })).toBeVisible();
  await expect(page.getByText('还没有应用')).toBeVisible();
  await page.getByRole('button', { name: '新建应用' }).first().click();
  const dialog = page.getByRole('dialog', { name: '新建应用' });
  await dialog.getByLabel('应用名称').fill('支付 网关');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('请输入1-100个字符，不能包含[*?"<>|；《》]及空格')).toBeVisible();
  await dialog.getByLabel('应用名称').fill('payment-gateway');
  await dialog.getByLabel('应用描述').fill('对外支付网关');
  await dialog.getByLabel('重要程度').selectOption({ label: '非常重要' });
  await page.screenshot({ path: shot('1-create'), fullPage: true });
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('添加成功！')).toBeVisible();
  await expect(dialog).toBeHidden();

  const rows = page.locator('table.cairn-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('payment-gateway');
  await expect(rows.first()).toContainText('非常重要');
  await expect(rows.first()).toContainText('系统管理员');
  await expect(page.getByRole('link', { name: 'payment-gateway' })).toHaveAttribute('href', /#\/project\/taskList\?subjectId=\d+/);

  // A second subject, then search narrows the list.
  await page.getByRole('button', { name: '新建应用' }).click();
  await dialog.getByLabel('应用名称').fill('mobile-app');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(rows).toHaveCount(2);
  // The closing dialog keeps focus until its transition ends: type only once it is gone.
  await expect(dialog).toBeHidden();
  await page.getByRole('textbox', { name: '按应用名称搜索' }).fill('payment');
  await page.getByRole('textbox', { name: '按应用名称搜索' }).press('Enter');
  await expect(page).toHaveURL(/name=payment/);
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: shot('2-list'), fullPage: true });
  await page.getByRole('button', { name: '分组' }).click();
  await expect(page.getByText('全部分组')).toBeVisible();
  await expect(rows).toHaveCount(2);
  await page.screenshot({ path: shot('3-group-view'), fullPage: true });
  await page.getByRole('button', { name: '列表' }).click();

  // ---- 设置：基本设置 -----------------------------------------------------------------------------
  await rows.filter({ hasText: 'payment-gateway' }).getByRole('button', { name: '设置' }).click();
  await expect(page).toHaveURL(/#\/project\/projectSettings\/basicSetup\?subjectId=\d+/);
  await expect(page.getByRole('heading', { name: '应用设置 · payment-gateway' })).toBeVisible();
  await page.getByLabel('应用描述').fill('对外支付网关（2026 版）');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存成功！')).toBeVisible();
  await page.screenshot({ path: shot('4-basic-setup'), fullPage: true });

  // ---- 版本管理 -----------------------------------------------------------------------------------
  await page.getByRole('menuitem', { name: '版本管理' }).click();
  await expect(page).toHaveURL(/projectSettings\/version\?subjectId=/);
  await expect(page.getByText('还没有版本')).toBeVisible();
  await page.getByRole('button', { name: '新建版本' }).click();
  const versionDialog = page.getByRole('dialog', { name: '新建版本' });
  await versionDialog.getByLabel('版本名称').fill('v1.0.0');
  await versionDialog.getByLabel('备注').fill('首个正式版本');
  await versionDialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('添加成功！')).toBeVisible();
  await expect(page.locator('table.cairn-table tbody tr')).toContainText(['v1.0.0']);
  await page.screenshot({ path: shot('5-version'), fullPage: true });

  // ---- 成员管理 -----------------------------------------------------------------------------------
  await page.getByRole('menuitem', { name: '成员管理' }).click();
  await expect(page.locator('table.cairn-table tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: '添加成员' }).click();
  const memberDialog = page.getByRole('dialog', { name: '添加成员' });
  await memberDialog.getByText('张伟（zhangwei）').click();
  await memberDialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('添加成功！')).toBeVisible();
  await expect(page.locator('table.cairn-table tbody tr')).toHaveCount(2);
  await page.screenshot({ path: shot('6-members'), fullPage: true });

  // ---- 通知设置, 缺陷管理: nothing applies them yet, so they say so and cannot be saved -------------
  await page.getByRole('menuitem', { name: '通知设置' }).click();
  await expect(page.getByRole('menuitem', { name: '通知设置' })).toContainText('暂未提供');
  await expect(page.getByTestId('settings-not-applied')).toContainText('本版本还不会发送项目通知');
  await expect(page.getByRole('checkbox', { name: '任务分析完成时' })).toBeDisabled();
  await expect(page.getByRole('button', { name: '保存' })).toBeDisabled();
  await page.screenshot({ path: shot('7-notice'), fullPage: true });

  await page.getByRole('menuitem', { name: '缺陷管理' }).click();
  await expect(page.getByTestId('settings-not-applied')).toContainText('缺陷管理系统');
  await expect(page.getByLabel('系统地址')).toBeDisabled();
  await expect(page.getByRole('button', { name: '保存' })).toBeDisabled();
  await page.screenshot({ path: shot('8-defect'), fullPage: true });

  // ---- 数据转移 -----------------------------------------------------------------------------------
  await page.getByRole('menuitem', { name: '数据转移' }).click();
  await page.getByText('张伟（zhangwei）').click();
  await expect(page.getByRole('radio', { name: '张伟（zhangwei）' })).toBeChecked();
  await page.screenshot({ path: shot('9-transfer'), fullPage: true });
  await page.getByRole('button', { name: '转移应用' }).click();
  await expect(page.getByText('转移成功！')).toBeVisible();

  // ---- 列表：负责人已变，删除 ------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/project/projectList`);
  const payment = rows.filter({ hasText: 'payment-gateway' });
  await expect(payment).toContainText('张伟');
  await payment.getByRole('button', { name: '删除' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('确定删除应用“payment-gateway”吗？');
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功！')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('mobile-app');
  await page.screenshot({ path: shot('10-after-delete'), fullPage: true });
});
