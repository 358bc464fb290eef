// Knowledge-base onboarding through the UI on a freshly started web host: a small OSV zip (four
// Go advisories of the OSV corpus) is picked in 导入漏洞数据, goes through the chunked upload,
// is imported as one job whose record reaches 导入成功 with its counts, and its per-file rows are
// shown in the records screen; the 镜像同步 settings open with their defaults. Screenshots at
// 1440×900 go to test-results/kb-import-*.png.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { writeZip } from './knowledge-base.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const CORPUS = path.resolve('../shared/corpora/advisories/go');
const shot = (name: string) => `test-results/kb-import-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
let dir: string;
let zipFile: string;
const ADVISORIES = readdirSync(CORPUS).filter((n) => n.endsWith('.json')).sort().slice(0, 4);

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-kb-'));
  zipFile = path.join(dir, 'go-osv.zip');
  await writeZip(zipFile, ADVISORIES.map((name) => [path.join(CORPUS, name), `go/${name}`] as const));
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('漏洞知识库：通过界面导入 OSV zip，导入记录显示导入成功与逐文件结果；镜像同步设置', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);
  await page.goto(`${host.launchUrl.split('#')[0]}#/system/knowledgeBase/vul`);
  await page.getByRole('button', { name: '导入漏洞数据' }).click();
  const dialog = page.getByRole('dialog', { name: '导入漏洞数据' });
  await expect(dialog.getByText('支持的数据')).toBeVisible();
  await dialog.getByTestId('upload-file-input').setInputFiles(zipFile);
  await expect(dialog.getByTestId('upload-item').getByText(/上传完成/)).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: shot('dialog-uploaded') });

  await dialog.getByRole('button', { name: '开始导入' }).click();
  await expect(dialog.getByTestId('kb-import-status')).toHaveText('导入成功', { timeout: 60_000 });
  await expect(dialog.getByText(`新增 ${ADVISORIES.length}`).first()).toBeVisible();
  await expect(dialog.getByText(/^新增 4，更新 0，未变 0，失败 0$/)).toBeVisible();
  await page.screenshot({ path: shot('dialog-done') });

  await dialog.getByRole('button', { name: '查看导入记录' }).click();
  await expect(page).toHaveURL(/#\/system\/knowledgeBase\/vul\/batch/);
  const row = page.getByRole('row').filter({ hasText: 'go-osv.zip' });
  await expect(row.getByTestId('kb-import-status')).toHaveText('导入成功');
  await row.getByRole('button', { name: /文件明细（4）/ }).click();
  const files = page.getByTestId('kb-import-files');
  for (const name of ADVISORIES) await expect(files.getByText(`go/${name}`)).toBeVisible();
  await expect(files.getByText('已导入')).toHaveCount(ADVISORIES.length);
  await page.screenshot({ path: shot('record-files') });
  await page.keyboard.press('Escape');

  await page.goto(`${host.launchUrl.split('#')[0]}#/system/knowledgeBase/vul`);
  await page.getByRole('button', { name: '镜像同步' }).click();
  const sync = page.getByRole('dialog', { name: '镜像同步设置' });
  await expect(sync.getByText('尚未设置镜像')).toBeVisible();
  await expect(sync.getByRole('checkbox', { name: 'npm' })).toBeChecked();
  await page.screenshot({ path: shot('sync-settings') });
  await sync.getByLabel('镜像地址').fill('ftp://mirror.example.com');
  await sync.getByRole('button', { name: '保存' }).click();
  await expect(sync.getByText('镜像地址只支持 http 或 https')).toBeVisible();
});
