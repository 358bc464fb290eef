// Issue 18's administration journey, on a freshly started embedded platform, through the screens:
// the administrator creates an organisation group and puts one of two 应用 in it, creates a role
// without the vulnerability permissions whose data permission is the group's, creates a user with
// that role in the group (picked in the user dialog). That user's first login is forced through the
// password change; then they see the group's 应用 and not the other one, and no 漏洞 menu.
// Screenshots at 1440×900 go to test-results/admin-journey-*.png.
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { call, platformSession } from './platform-session.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/admin-journey-${name}.png`;
const INITIAL = 'Dev#Init2026';
const CHOSEN = 'Dev#Mine2026x';

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('系统管理：分组、角色与用户，新用户只见本组应用且无漏洞菜单', async ({ page }) => {
  test.setTimeout(240_000);
  await firstLogin(page, host.launchUrl);
  const api = await platformSession(page);
  for (const name of ['研发-门户', '销售-CRM']) await call(api, 'POST', '/api/subject/create', { name });
  await api.dispose();

  // ---- a group holding one of the two 应用 ------------------------------------------------------------
  await page.goto(`${host.origin}/#/system/group`);
  await page.getByRole('button', { name: '新建顶级分组' }).first().click();
  const groupDialog = page.getByRole('dialog', { name: '新建顶级分组' });
  await groupDialog.getByLabel(/分组名称/).fill('研发部');
  await groupDialog.getByRole('button', { name: '保存' }).click();
  await expect(groupDialog).toBeHidden();
  const side = page.locator('.cairn-group-side');
  await side.getByRole('button', { name: '查看详情' }).click();
  await page.getByRole('button', { name: '添加应用' }).first().click();
  const pickSubjects = page.getByRole('dialog', { name: '向“研发部”添加应用' });
  await setBox(pickSubjects.getByRole('checkbox', { name: /研发-门户/ }));
  await pickSubjects.getByRole('button', { name: '添加所选（1）' }).click();
  await expect(pickSubjects).toBeHidden();

  // ---- a role without the vulnerability permissions, scoped to its holders' groups ------------------
  await page.goto(`${host.origin}/#/system/user/role`);
  await page.getByRole('button', { name: '新增角色' }).click();
  const roleDialog = page.getByRole('dialog', { name: '新增角色' });
  await roleDialog.getByLabel(/角色名称/).fill('研发成员');
  await roleDialog.getByLabel('权限复制自').selectOption({ label: '普通用户' });
  await roleDialog.getByRole('button', { name: '保存' }).click();
  await expect(roleDialog).toBeHidden();
  await expect(page.locator('.cairn-role-detail h5')).toHaveText('研发成员');
  await page.getByRole('button', { name: '全部展开' }).click();
  await setBox(page.getByRole('checkbox', { name: /^漏洞\s*vul$/ }), false);
  await setBox(page.getByRole('checkbox', { name: /漏洞结果查看/ }), false);
  await page.getByRole('radio', { name: '本组及下级组数据' }).check({ force: true });
  await page.getByRole('button', { name: '保存权限' }).click();
  await expect(page.getByText('若修改角色权限或数据权限，用户需重新登录才可生效').first()).toBeVisible();
  await page.screenshot({ path: shot('1-role') });

  // ---- the user, with that role only ------------------------------------------------------------------
  await page.goto(`${host.origin}/#/system/user/user`);
  await page.getByRole('button', { name: '新增用户' }).first().click();
  const userDialog = page.getByRole('dialog');
  await userDialog.getByLabel(/^用户名/).fill('dev1');
  await userDialog.getByLabel(/^姓名/).fill('研发一号');
  await userDialog.getByLabel(/^初始密码/).fill(INITIAL);
  await setBox(userDialog.getByRole('checkbox', { name: '普通用户' }), false);
  await setBox(userDialog.getByRole('checkbox', { name: '研发成员' }));
  // ---- and a member of the group, chosen in the same dialog
  await userDialog.getByLabel('分组').fill('研发');
  await page.getByRole('option', { name: '研发部' }).click();
  await expect(userDialog.locator('.bp6-tag').filter({ hasText: '研发部' })).toBeVisible();
  await page.screenshot({ path: shot('2-user-group') });
  await userDialog.getByRole('button', { name: /确定|保存/ }).click();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'dev1', exact: true })).toBeVisible();

  await page.getByPlaceholder('搜索用户名或姓名').fill('dev1');
  await page.getByPlaceholder('搜索用户名或姓名').press('Enter');
  await expect(page.getByRole('cell', { name: '研发部', exact: true })).toBeVisible();

  // ---- the user's first login: the password change, then only the group's 应用 -----------------------
  // (The web host's launch link opens one browser only: the administrator signs out in it.)
  const dev = page;
  await page.getByText('系统管理员').first().click();
  await page.getByText('退出登录').click();
  await expect(page).toHaveURL(/#\/login/);
  await dev.getByLabel('用户名').fill('dev1');
  await dev.getByLabel('密码', { exact: true }).fill(INITIAL);
  await dev.getByRole('button', { name: '登录' }).click();
  await expect(dev).toHaveURL(/#\/changePassword/);
  await dev.getByRole('textbox', { name: /^原密码/ }).fill(INITIAL);
  await dev.getByRole('textbox', { name: /^新密码/ }).fill(CHOSEN);
  await dev.getByRole('textbox', { name: /^确认新密码/ }).fill(CHOSEN);
  await dev.getByRole('button', { name: '确认修改' }).click();
  await expect(dev).toHaveURL(/#\/login/);
  await dev.getByLabel('用户名').fill('dev1');
  await dev.getByLabel('密码', { exact: true }).fill(CHOSEN);
  await dev.getByRole('button', { name: '登录' }).click();
  await expect(dev).toHaveURL(/#\/project\/projectList/);
  await expect(dev.getByText('研发-门户').first()).toBeVisible();
  await expect(dev.getByText('销售-CRM')).toHaveCount(0);
  const nav = dev.getByRole('navigation', { name: '主菜单' });
  await expect(nav.getByRole('menuitem').filter({ hasText: /^项目/ }).first()).toBeVisible();
  await expect(nav.getByRole('menuitem').filter({ hasText: /^漏洞/ })).toHaveCount(0);
  await dev.screenshot({ path: shot('3-member-view') });
});
