// LDAP集成 end to end against a real OpenLDAP (tests/support/slapd.ts) on a freshly started embedded
// platform: the administrator fills the form for LDAPS with the test CA, tests a directory login
// (the entry shown, then a wrong password told exactly), saves; the login screen then says directory
// accounts may sign in, and a directory user signs in with the directory password (and is offered
// no password change). Screenshots at
// 1440×900 go to test-results/ldap-*.png.
import { expect, test } from '@playwright/test';
import { SLAPD_PEOPLE_DN, SLAPD_READER, startSlapd, type TestSlapd } from '../support/slapd.ts';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/ldap-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
let slapd: TestSlapd;
test.beforeAll(async () => {
  slapd = await startSlapd();
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
  await slapd?.stop();
});

test('LDAP集成：配置 LDAPS、测试登录、目录用户登录', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);
  await page.goto(`${host.origin}/#/system/accountIntegration/ldap`);
  await expect(page.getByRole('heading', { name: 'LDAP集成', exact: true })).toBeVisible();
  await expect(page.getByText('尚未配置目录登录')).toBeVisible();

  await page.getByLabel(/LDAP 地址/).fill(slapd.url);
  await expect(page.getByText(/当前连接未加密/)).toBeVisible();
  await page.getByLabel(/LDAP 地址/).fill(slapd.ldapsUrl);
  await expect(page.getByText(/当前连接未加密/)).toHaveCount(0);
  await page.getByLabel(/CA 证书/).fill(slapd.caPem);
  await page.getByLabel('绑定 DN').fill(SLAPD_READER.dn);
  await page.getByRole('textbox', { name: '绑定密码' }).fill(SLAPD_READER.password);
  await page.getByLabel(/^基础 DN/).fill(SLAPD_PEOPLE_DN);
  await page.screenshot({ path: shot('1-form'), fullPage: true });

  // ---- test login with the unsaved form ---------------------------------------------------------
  await page.getByRole('button', { name: '测试登录' }).click();
  const dialog = page.getByRole('dialog', { name: '测试 LDAP 登录' });
  await dialog.getByLabel(/目录用户名/).fill('alice');
  await dialog.getByLabel(/目录密码/).fill('Alice#Dir1');
  await dialog.getByRole('button', { name: '测试', exact: true }).click();
  await expect(dialog.getByText(/测试登录成功/)).toBeVisible();
  await expect(dialog.getByText('王爱丽')).toBeVisible();
  await expect(dialog.getByText('首次登录时创建（LDAP用户）')).toBeVisible();
  await page.screenshot({ path: shot('2-test-passed') });
  await dialog.getByLabel(/目录密码/).fill('wrong');
  await dialog.getByRole('button', { name: '测试', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('用户“alice”的目录密码错误');
  await dialog.getByRole('button', { name: '关闭' }).click();

  // ---- save: the password is not shown again ----------------------------------------------------
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('保存成功').first()).toBeVisible();
  await expect(page.getByText(/最后修改：系统管理员/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: '绑定密码' })).toHaveValue('');
  await expect(page.getByRole('textbox', { name: '绑定密码' })).toHaveAttribute('placeholder', '已保存，留空则不修改');
  await page.screenshot({ path: shot('3-saved'), fullPage: true });

  // ---- a directory user signs in ----------------------------------------------------------------
  await page.goto(`${host.origin}/#/logout`);
  await expect(page).toHaveURL(/#\/login/);
  await expect(page.getByText('支持使用 LDAP 目录账号登录')).toBeVisible();
  await page.getByLabel('用户名').fill('alice');
  await page.getByLabel('密码', { exact: true }).fill('wrong');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByText('用户名或密码错误')).toBeVisible();
  await page.screenshot({ path: shot('4-login') });
  await page.getByLabel('密码', { exact: true }).fill('Alice#Dir1');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).not.toHaveURL(/#\/(login|changePassword)/);
  await expect(page.getByText('王爱丽').first()).toBeVisible();
  await page.screenshot({ path: shot('5-signed-in') });

  // ---- their password is the directory's: no password change offered --------------------------
  await page.goto(`${host.origin}/#/desktop/personal`);
  await expect(page.getByText(/密码由目录服务管理/)).toBeVisible();
  await expect(page.getByRole('button', { name: '修改密码' })).toHaveCount(0);
  await page.screenshot({ path: shot('6-personal') });
});
