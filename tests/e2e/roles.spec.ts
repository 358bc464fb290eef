// 角色管理 end to end on a freshly started embedded platform (/system/user/role): the two built-in
// roles, 域管理员 locked, a new role copying 普通用户's permissions, ticking and unticking nodes of
// the permission tree, a change of data permission saved with the re-login message, a duplicate
// name refused beside the field, and delete with confirmation. Screenshots at 1440×900 go to
// test-results/role-*.png.
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/role-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('角色管理：内置角色、新增、勾选权限、数据权限、重名、删除', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);

  await page.goto(`${host.origin}/#/system/user/role`);
  await expect(page.getByRole('heading', { name: '角色管理', exact: true })).toBeVisible();
  const rows = page.locator('table.cairn-role-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('域管理员');
  await expect(rows.nth(1)).toContainText('普通用户');
  // 域管理员 is chosen first: everything ticked, nothing changeable, no delete.
  await expect(page.getByText('域管理员拥有全部权限和全部数据，不能缩小')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /用户列表/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /用户列表/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: '删除' })).toBeDisabled();
  await page.screenshot({ path: shot('1-admin') });

  // ---- a new role starting from 普通用户's permissions ------------------------------------------
  await page.getByRole('button', { name: '新增角色' }).click();
  const dialog = page.getByRole('dialog', { name: '新增角色' });
  await dialog.getByLabel(/角色名称/).fill('审计员');
  await dialog.getByLabel('备注').fill('查看日志与报告');
  await dialog.getByLabel('权限复制自').selectOption({ label: '普通用户' });
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(page.locator('.cairn-role-detail h5')).toHaveText('审计员');
  await expect(page.getByRole('checkbox', { name: /任务列表/ })).toBeChecked();
  // 项目列表 holds some of its codes (not 项目概览): half-checked.
  await expect(page.getByRole('checkbox', { name: /项目列表/ })).not.toBeChecked();

  // Tick 日志 (its two screens come with it), untick 漏洞结果查看, widen the data permission.
  await setBox(page.getByRole('checkbox', { name: /^日志/ }));
  await expect(page.getByRole('checkbox', { name: /操作日志/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /系统日志/ })).toBeChecked();
  await setBox(page.getByRole('checkbox', { name: /漏洞结果查看/ }), false);
  await page.getByRole('radio', { name: '本组及下级组数据' }).check({ force: true });
  await expect(page.getByText('有未保存的修改')).toBeVisible();
  await page.screenshot({ path: shot('2-editing') });
  await page.getByRole('button', { name: '保存权限' }).click();
  await expect(page.getByText('若修改角色权限或数据权限，用户需重新登录才可生效').first()).toBeVisible();
  await expect(rows.nth(2)).toContainText('本组及下级组数据');
  await page.reload();
  await rows.nth(2).click();
  await expect(page.getByRole('checkbox', { name: /操作日志/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /漏洞结果查看/ })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: '本组及下级组数据' })).toBeChecked();
  await page.screenshot({ path: shot('3-saved') });

  // ---- a duplicate name is refused beside the field --------------------------------------------
  await page.getByRole('button', { name: '编辑' }).click();
  const edit = page.getByRole('dialog', { name: '编辑角色' });
  await edit.getByLabel(/角色名称/).fill('普通用户');
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(edit.getByRole('alert')).toHaveText('角色“普通用户”已存在');
  await edit.getByRole('button', { name: '取消' }).click();

  // ---- delete with confirmation ----------------------------------------------------------------
  await page.getByRole('button', { name: '删除' }).click();
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText('确定删除角色“审计员”吗？');
  await alert.getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功').first()).toBeVisible();
  await expect(rows).toHaveCount(2);
});
