// The server profile manager, reached from the login screen before signing in: the embedded
// platform answers a connection test, a remote profile is validated, added, tested (and fails
// with a reason, as nothing listens there) and removed; "本机" cannot be removed.
import { expect, test } from '@playwright/test';
import { startWebHost, type WebHost } from './web-host.ts';

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('服务器配置：测试本机、添加校验、测试失败原因、删除', async ({ page }) => {
  await page.goto(host.launchUrl);
  await expect(page.getByText(/运行中/).first()).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: '管理服务器配置' }).click();
  await expect(page).toHaveURL(/#\/desktop\/profiles/);
  await expect(page.getByRole('heading', { name: '服务器配置' })).toBeVisible();

  const localRow = page.getByRole('row', { name: /本机/ });
  await localRow.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByText(/连接成功/).first()).toBeVisible();

  // A URL that is not http(s) is refused in Chinese, nothing is added.
  await page.getByRole('button', { name: '添加服务器' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /名称/ }).fill('总部分析平台');
  await dialog.getByRole('textbox', { name: /服务器地址/ }).fill('ftp://sca.example.com');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('请输入以 http:// 或 https:// 开头的地址')).toBeVisible();

  // A valid one is kept; nothing listens on port 9, so its test fails with a reason.
  await dialog.getByRole('textbox', { name: /服务器地址/ }).fill('http://127.0.0.1:9');
  await expect(dialog.getByRole('button', { name: '保存' })).toBeEnabled(); // the click guard
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  const remoteRow = page.getByRole('row', { name: /总部分析平台/ });
  await expect(remoteRow).toBeVisible();
  await remoteRow.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByText(/连接失败：/).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/server-profiles.png', fullPage: true });

  // Removing asks first; "本机" cannot be removed.
  await remoteRow.getByRole('button', { name: '删除' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByRole('row', { name: /总部分析平台/ })).toHaveCount(0);
  await expect(localRow.getByRole('button', { name: '删除' })).toBeDisabled();
});
