// 安全管控 end to end on a freshly started embedded platform (/system/securityControl): the caller's
// own address, the lock-out guard refusing a rule that would shut the administrator out (in the
// dialog), rules for all users and for a named user, 停用 and delete with confirmation, filters in
// the URL, the password policy with its hint preview, and the session timeout. Screenshots at
// 1440×900 go to test-results/security-control-*.png.
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/security-control-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('安全管控：本机地址、防锁定、IP 规则、密码策略、会话超时', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);

  await page.goto(`${host.origin}/#/system/securityControl`);
  await expect(page.getByRole('heading', { name: '安全管控', exact: true })).toBeVisible();
  const me = page.getByText(/您当前的访问地址：/);
  await expect(me).toBeVisible();
  const ip = (await me.textContent())!.replace('您当前的访问地址：', '').trim();
  expect(ip).toMatch(/^127\.0\.0\.1$|^::1$/);
  await expect(page.getByText('还没有 IP 访问规则')).toBeVisible();

  // ---- the lock-out guard: an allow rule without one's own address is refused in the dialog ------
  const dialog = page.getByRole('dialog', { name: '新增 IP 访问规则' });
  await page.getByRole('button', { name: '新增规则' }).first().click();
  await dialog.getByLabel(/IP 地址或网段/).fill('10.0.0.0/8');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toContainText(`保存后您当前的地址 ${ip} 不在任何允许规则内`);
  await page.screenshot({ path: shot('1-lockout') });
  // A bad range is refused beside the field.
  await dialog.getByLabel(/IP 地址或网段/).fill('10.0.0.5/8');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('网段“10.0.0.5/8”的主机位不为 0，应写作 10.0.0.0/8');
  // Allowing one's own address first.
  await dialog.getByLabel(/IP 地址或网段/).fill(ip);
  await dialog.getByLabel('备注').fill('本机');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('添加成功').first()).toBeVisible();

  // ---- a deny rule for a named user ------------------------------------------------------------------
  await page.getByRole('button', { name: '新增规则' }).first().click();
  await dialog.getByLabel(/IP 地址或网段/).fill('192.168.10.0/24');
  // Blueprint draws the radio's indicator over the input: click its label.
  await dialog.getByText('拒绝', { exact: true }).click();
  await expect(dialog.getByRole('radio', { name: '拒绝' })).toBeChecked();
  await dialog.getByText('指定用户', { exact: true }).click();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('请选择规则适用的用户')).toBeVisible();
  await dialog.getByRole('combobox').selectOption({ label: '系统管理员（admin）' });
  await dialog.getByLabel('备注').fill('访客网络');
  await page.screenshot({ path: shot('2-dialog') });
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();

  const rows = page.locator('table.cairn-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('192.168.10.0/24');
  await expect(rows.first()).toContainText('拒绝');
  await expect(rows.first()).toContainText('系统管理员（admin）');
  await page.screenshot({ path: shot('3-list') });

  // ---- filters in the URL; 停用; delete -------------------------------------------------------------------
  await page.getByLabel('类型').selectOption({ label: '拒绝' });
  await expect(page).toHaveURL(/action=DENY/);
  await expect(rows).toHaveCount(1);
  await page.getByRole('button', { name: '停用 192.168.10.0/24' }).click();
  await expect(rows.first()).toContainText('已停用');
  await page.getByRole('button', { name: '删除 192.168.10.0/24' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功').first()).toBeVisible();
  await expect(page.getByText('没有符合条件的规则')).toBeVisible();
  await page.getByRole('button', { name: '重置' }).first().click();
  await expect(rows).toHaveCount(1);
  // Deleting one's own allow rule is fine once it is the only one (no allow rule is left).
  await page.getByRole('button', { name: `删除 ${ip}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('还没有 IP 访问规则')).toBeVisible();

  // ---- password policy -----------------------------------------------------------------------------------
  await page.getByRole('tab', { name: '密码策略' }).click();
  await expect(page).toHaveURL(/tab=password/);
  const length = page.getByLabel('最小长度');
  await length.fill('10');
  await page.getByText('大写字母', { exact: true }).click();
  await page.getByText('特殊字符', { exact: true }).click();
  await page.getByLabel('密码有效期（天）').fill('90');
  await expect(page.getByText('密码由10位及以上小写字母、数字组成')).toBeVisible();
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存成功').first()).toBeVisible();
  await page.screenshot({ path: shot('4-password') });
  await page.reload();
  await expect(page.getByLabel('最小长度')).toHaveValue('10');
  await expect(page.getByLabel('密码有效期（天）')).toHaveValue('90');

  // ---- session timeout -------------------------------------------------------------------------------------
  await page.getByRole('tab', { name: '会话超时' }).click();
  await expect(page.getByText(/未保存时使用平台启动配置/)).toBeVisible();
  await page.getByLabel('无操作超时（分钟）').fill('30');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存成功').first()).toBeVisible();
  await expect(page.getByText(/已保存 30 分钟/)).toBeVisible();
  await page.screenshot({ path: shot('5-session') });
});
