// 令牌管理 and 开放接口日志 end to end on a freshly started embedded platform: create a token (the
// client's name check first), see it once with the warning, sign in with it as an API client and
// make calls, find them in the open-API log with filters, switch the token off (its login is then
// refused), rename it and delete it. Screenshots at 1440×900 go to test-results/tokens-*.png.
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/tokens-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('令牌：创建后只显示一次、令牌登录调用、开放接口日志、停用、改名、删除', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);

  await page.goto(`${host.origin}/#/tokenManagement`);
  await expect(page.getByRole('heading', { name: '令牌管理', exact: true })).toBeVisible();
  await expect(page.getByText('还没有个人令牌')).toBeVisible();

  // ---- create: the name rule first, then the token shown once ----------------------------------------
  await page.getByRole('button', { name: '创建令牌' }).first().click();
  const dialog = page.getByRole('dialog', { name: '创建个人令牌' });
  await dialog.getByLabel(/名称/).fill('ci 构建机');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('请输入1-100个字符，不能包含[*?"<>|；《》]及空格')).toBeVisible();
  await dialog.getByLabel(/名称/).fill('ci-构建机');
  await dialog.getByLabel('有效期').selectOption('30');
  await page.screenshot({ path: shot('1-create') });
  await dialog.getByRole('button', { name: '保存' }).click();

  const created = page.getByRole('dialog', { name: '令牌已创建' });
  await expect(created.getByText('关闭后将无法再次查看')).toBeVisible();
  const token = await created.locator('#token-created-value').inputValue();
  expect(token).toMatch(/^[\w-]{43}$/);
  await page.screenshot({ path: shot('2-created') });
  await created.getByRole('button', { name: '我已保存，关闭' }).click();
  await expect(created).toBeHidden();

  const rows = page.locator('table.cairn-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('ci-构建机');
  await expect(rows.first()).toContainText(`…${token.slice(-4)}`);
  await expect(rows.first()).toContainText('从未使用');
  // The token is never on the page again.
  await expect(page.locator('body')).not.toContainText(token);

  // ---- an API client signs in with it and calls -------------------------------------------------------
  const status = await page.evaluate(() => window.desktop!.platform.status({}));
  if (!status.ok || !status.value.url) throw new Error('本机平台地址不可用');
  const api = await playwrightRequest.newContext({ baseURL: status.value.url });
  const login = await (await api.post(`/api/token/login?key=${encodeURIComponent(token)}`)).json();
  expect(login).toMatchObject({ code: 1, data: { username: 'admin' } });
  expect((await (await api.get('/api/user/self')).json()).code).toBe(1);
  expect((await (await api.get('/api/subjectType/querySubjectTypeNameList')).json()).code).toBe(1);
  expect((await api.get('/api/personalToken/queryPersonalTokenList?size=9999')).status()).toBe(400);

  // ---- the open-API log ------------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/system/log/openApi`);
  await expect(page.getByRole('heading', { name: '开放接口日志', exact: true })).toBeVisible();
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText('/api/personalToken/queryPersonalTokenList');
  await expect(rows.first()).toContainText('失败 · 400');
  await expect(rows.nth(2)).toContainText('当前登录用户');
  await expect(rows.last()).toContainText('个人令牌登录');
  await expect(rows.last()).toContainText('ci-构建机');
  await expect(page.getByText(/日志保留最近 180 天/)).toBeVisible();
  await page.screenshot({ path: shot('3-log') });
  await page.getByLabel('结果').selectOption('success');
  await expect(rows).toHaveCount(3);
  await expect(page).toHaveURL(/outcome=success/);
  await page.getByLabel('接口').fill('subjectType');
  await page.getByLabel('接口').press('Enter');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('成功 · 200');

  // ---- switch off: the login is refused -----------------------------------------------------------
  await page.goto(`${host.origin}/#/tokenManagement`);
  await expect(rows.first()).not.toContainText('从未使用');
  await page.getByLabel('停用令牌 ci-构建机').click({ force: true });
  await expect(page.getByText('令牌已停用，由它登录的会话已结束')).toBeVisible();
  await expect(rows.first()).toContainText('已停用');
  const refused = await (await playwrightRequest.newContext({ baseURL: status.value.url })).post(`/api/token/login?key=${encodeURIComponent(token)}`);
  expect(await refused.json()).toMatchObject({ code: 0, message: '令牌已停用' });
  expect((await api.get('/api/user/self')).status()).toBe(401);
  await page.screenshot({ path: shot('4-list') });

  // ---- rename and delete ---------------------------------------------------------------------------
  await page.getByRole('button', { name: '重命名 ci-构建机' }).click();
  const rename = page.getByRole('dialog', { name: '重命名令牌' });
  await rename.getByLabel(/名称/).fill('ci-旧');
  await rename.getByRole('button', { name: '保存' }).click();
  await expect(rename).toBeHidden();
  await expect(rows.first()).toContainText('ci-旧');
  await page.getByRole('button', { name: '删除 ci-旧' }).click();
  await expect(page.getByText('确定删除令牌“ci-旧”吗？')).toBeVisible();
  await page.getByRole('button', { name: '删除', exact: true }).click();
  await expect(page.getByText('还没有个人令牌')).toBeVisible();
  await api.dispose();
});
