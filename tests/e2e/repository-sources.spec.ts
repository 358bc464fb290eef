// 代码仓库源 end to end on a freshly started embedded platform: reached from the project list,
// a Git source added, its address checked (syntax only), edited with the password kept, then
// deleted. Screenshot: test-results/repository-sources.png.
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

test.use({ actionTimeout: 15_000 });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('代码仓库源：新建、校验、编辑、删除', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);
  await page.getByRole('button', { name: '代码仓库源' }).click();
  await expect(page).toHaveURL(/#\/project\/repositorySource/);
  await expect(page.getByRole('heading', { name: '代码仓库源' })).toBeVisible();
  await expect(page.getByText('还没有仓库源')).toBeVisible();

  // ---- add a Git source, checking the address first --------------------------------------------
  await page.getByRole('button', { name: '新建仓库源' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^名称/).fill('主仓库');
  await expect(dialog.getByLabel(/^仓库类型/)).toHaveValue('2');
  await dialog.getByLabel(/^仓库地址/).fill('not a url');
  await dialog.getByRole('button', { name: '校验' }).click();
  await expect(dialog.getByRole('status')).toContainText('Git 仓库地址格式不正确');
  await dialog.getByLabel(/^仓库地址/).fill('https://git.example.com/team/app.git');
  await dialog.getByRole('button', { name: '校验' }).click();
  await expect(dialog.getByRole('status')).toContainText('连通性与凭据将在发起任务时检查');
  await dialog.getByLabel(/^用户名/).fill('ci-bot');
  await dialog.getByLabel(/^密码/).fill('s3cret-token');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('添加成功！')).toBeVisible();
  const row = page.locator('table.cairn-source-table tbody tr').filter({ hasText: '主仓库' });
  await expect(row).toContainText('源码-Git');
  await expect(row).toContainText('https://git.example.com/team/app.git');
  await expect(row).toContainText('ci-bot');
  await expect(row).toContainText('已保存');

  // ---- edit: the password field is empty and keeps the stored one ------------------------------
  await row.getByRole('button', { name: '编辑 主仓库' }).click();
  await expect(dialog.getByLabel(/^密码/)).toHaveValue('');
  await expect(dialog.getByLabel(/^密码/)).toHaveAttribute('placeholder', '已保存密码，留空则保持不变');
  await dialog.getByLabel(/^名称/).fill('主仓库-镜像');
  await dialog.getByLabel(/^仓库地址/).fill('git@git.example.com:team/app.git');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存成功！')).toBeVisible();
  const edited = page.locator('table.cairn-source-table tbody tr').filter({ hasText: '主仓库-镜像' });
  await expect(edited).toContainText('git@git.example.com:team/app.git');
  await expect(edited).toContainText('已保存');
  await page.screenshot({ path: 'test-results/repository-sources.png', fullPage: true });

  // ---- delete, confirmed -------------------------------------------------------------------------
  await edited.getByRole('button', { name: '删除 主仓库-镜像' }).click();
  await expect(page.getByText('确定删除仓库源“主仓库-镜像”吗？')).toBeVisible();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功！')).toBeVisible();
  await expect(page.getByText('还没有仓库源')).toBeVisible();
});
