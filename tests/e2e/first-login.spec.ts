// The first-run story of a new user, end to end: web host + freshly started embedded platform,
// default profile, forced password change with the policy enforced, home redirect, the Chinese
// shell, logout. Screenshots go to test-results/.
import { expect, test } from '@playwright/test';
import { startWebHost, type WebHost } from './web-host.ts';

const INITIAL_PASSWORD = 'Cairn@123';
const NEW_PASSWORD = 'Cairn#2026safe';
const shot = (name: string) => `test-results/first-login-${name}.png`;

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('新用户首次登录：强制改密、按权限跳转首页、中文界面、退出', async ({ page }) => {
  await page.goto(host.launchUrl);

  // The login screen, with the embedded platform "本机" preselected and running.
  await expect(page.getByRole('heading', { name: /登录/ })).toBeVisible();
  const server = page.getByRole('combobox', { name: /服务器/ });
  await expect(server).toHaveValue('local');
  await expect(server.locator('option:checked')).toHaveText('本机');
  await expect(page.getByText(/运行中/).first()).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: shot('1-login'), fullPage: true });

  // A wrong password is refused with the platform's message.
  await page.getByLabel('用户名').fill('admin');
  await page.getByLabel('密码', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByText('用户名或密码错误').first()).toBeVisible();

  // First login with the initial password is forced to change it.
  // The click guard holds the button for 2000 ms after the refused login, then lets it go.
  await expect(page.getByRole('button', { name: '登录' })).toBeEnabled();
  await page.getByLabel('密码', { exact: true }).fill(INITIAL_PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/#\/changePassword/);
  await expect(page.getByText(/密码由8位及以上/).first()).toBeVisible();
  await page.screenshot({ path: shot('2-change-password'), fullPage: true });

  // Trying to leave is refused by the guard.
  await page.goto(`${host.origin}/#/project/projectList`);
  await expect(page).toHaveURL(/#\/changePassword/);

  // A password that breaks the policy is refused with the policy message.
  await page.getByRole('textbox', { name: /^原密码/ }).fill(INITIAL_PASSWORD);
  await page.getByRole('textbox', { name: /^新密码/ }).fill('short');
  await page.getByRole('textbox', { name: /^确认新密码/ }).fill('short');
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByText(/密码由8位及以上.*组成/).first()).toBeVisible();
  await page.screenshot({ path: shot('3-policy-refused'), fullPage: true });

  // A good one is accepted; the platform ends the session and asks for a new login.
  await page.getByRole('textbox', { name: /^新密码/ }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: /^确认新密码/ }).fill(NEW_PASSWORD);
  await expect(page.getByRole('button', { name: '确认修改' })).toBeEnabled(); // the click guard
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByText('修改成功，请用新密码登录').first()).toBeVisible();
  await expect(page).toHaveURL(/#\/login/);

  // Log in again: the administrator holds project:list, so product 1 lands on the project list.
  await page.getByLabel('用户名').fill('admin');
  await page.getByLabel('密码', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/#\/project\/projectList\?product=1/);

  // The Chinese shell: product name, menu groups, the user.
  const nav = page.locator('.bp6-navbar').first();
  await expect(nav.getByText('Cairn')).toBeVisible();
  await expect(page.getByText('项目').first()).toBeVisible();
  await expect(page.getByText('系统管理').first()).toBeVisible();
  await expect(page.getByText('系统管理员').first()).toBeVisible();
  await page.screenshot({ path: shot('4-home'), fullPage: true });

  // Logout returns to the login screen, and the session is really gone.
  await page.getByText('系统管理员').first().click();
  await page.getByText('退出登录').click();
  await expect(page).toHaveURL(/#\/login/);
  await page.goto(`${host.origin}/#/project/projectList`);
  await expect(page).toHaveURL(/#\/login/);
  await page.screenshot({ path: shot('5-logged-out'), fullPage: true });
});
