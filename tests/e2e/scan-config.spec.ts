// 扫描配置 end to end on a freshly started embedded platform (/system/systemSettings/scanConfig):
// online resolution off by default and switched on, a Maven repository added (an ftp address
// refused by the form, one with credentials by the platform beside the field), its password shown only as 已设置 and kept on edit, the npm tab empty,
// disable and delete; an 应用's own Maven repository added in its 基本设置. Screenshots at 1440×900 go to test-results/scan-config-*.png.
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { createSubjectOnScreen } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/scan-config-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('扫描配置：在线解析开关、Maven 仓库增改删、密码不回显', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);
  await page.goto(`${host.origin}/#/system/systemSettings/scanConfig`);
  await expect(page.getByRole('heading', { name: '扫描配置', exact: true })).toBeVisible();

  // ---- the switch: off by default, saved on ------------------------------------------------------
  const online = page.getByLabel('分析时在线解析依赖');
  await expect(online).not.toBeChecked();
  await expect(page.getByText(/在线解析已关闭/)).toBeVisible();
  await page.screenshot({ path: shot('1-off') });
  await online.check({ force: true });
  await page.getByRole('button', { name: '保存设置' }).click();
  await expect(page.getByText('保存成功').first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('分析时在线解析依赖')).toBeChecked();

  // ---- add a Maven repository: the platform refuses an ftp address beside the field -----------------
  await expect(page.getByText('还没有Maven 仓库')).toBeVisible();
  await page.getByRole('button', { name: '新增Maven 仓库' }).first().click();
  const dialog = page.getByRole('dialog', { name: '新增Maven 仓库' });
  await dialog.getByLabel(/名称/).fill('内部 Nexus');
  await dialog.getByLabel(/仓库地址/).fill('ftp://nexus.example.com/maven/');
  await dialog.getByLabel('用户名').fill('reader');
  await dialog.getByLabel('密码', { exact: true }).fill('Reader#2024');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('仓库地址只支持 http 或 https')).toBeVisible();
  // Credentials in the address: the platform refuses it beside the field.
  await dialog.getByLabel(/仓库地址/).fill('https://reader:pw@nexus.example.com/repository/maven-public');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('仓库地址不能包含用户名或密码，请填写在用户名和密码中');
  await page.screenshot({ path: shot('2-refused') });
  await dialog.getByLabel(/仓库地址/).fill('https://nexus.example.com/repository/maven-public');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  const rows = page.locator('table.cairn-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('内部 Nexus');
  await expect(rows.first()).toContainText('https://nexus.example.com/repository/maven-public/');
  await expect(rows.first()).toContainText('已设置');
  await expect(rows.first()).toContainText('启用');
  await expect(page.getByText('Reader#2024')).toHaveCount(0);
  await page.screenshot({ path: shot('3-maven') });

  // ---- edit: the password field is empty, saying a password is kept ---------------------------------
  await rows.first().getByRole('button', { name: /^编辑/ }).click();
  const edit = page.getByRole('dialog', { name: '编辑Maven 仓库' });
  await expect(edit.getByLabel('密码', { exact: true })).toHaveValue('');
  await expect(edit.getByLabel('密码', { exact: true })).toHaveAttribute('placeholder', '已设置密码：留空则不修改');
  await edit.getByLabel('备注').fill('公司私服');
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(edit).toBeHidden();
  await expect(rows.first()).toContainText('公司私服');
  await expect(rows.first()).toContainText('已设置');

  // ---- the other tabs have their own lists -----------------------------------------------------------
  await page.getByRole('tab', { name: 'npm 注册表' }).click();
  await expect(page.getByText('还没有npm 注册表')).toBeVisible();
  await page.getByRole('tab', { name: 'Maven 仓库' }).click();

  // ---- disable, then delete ------------------------------------------------------------------------
  await rows.first().getByRole('button', { name: /^停用/ }).click();
  await expect(rows.first()).toContainText('停用');
  await rows.first().getByRole('button', { name: /^删除/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('还没有Maven 仓库')).toBeVisible();

  // ---- an 应用's own Maven repository, in its 基本设置 ----------------------------------------------
  const subjectId = await createSubjectOnScreen(page, host.origin, '商城');
  await page.goto(`${host.origin}/#/project/projectSettings/basicSetup?subjectId=${subjectId}`);
  await expect(page.getByText('本应用没有自己的 Maven 仓库，在线解析只使用系统设置中的仓库。')).toBeVisible();
  await page.getByRole('button', { name: '新增Maven 仓库' }).click();
  const own = page.getByRole('dialog', { name: '新增Maven 仓库' });
  await own.getByLabel(/名称/).fill('商城私服');
  await own.getByLabel(/仓库地址/).fill('https://nexus.shop.example.com/repository/maven/');
  await own.getByRole('button', { name: '保存' }).click();
  await expect(own).toBeHidden();
  await expect(page.locator('table.cairn-table tbody tr').first()).toContainText('商城私服');
  await page.screenshot({ path: shot('4-subject') });
});
