// 生成特征文件 of a container image end to end in the web host (issue 16 item 5 for images): on
// 新建项目 with 镜像特征文件 (type 32), 生成特征文件 → 选择镜像文件 picks an OCI image tar (the
// browser's file chooser: the web host has no native dialog), the host unpacks the image on this
// machine in its writer process and uploads only the feature file, and the project's overview shows
// the image and its layers (ImagePanel) as for the image itself.
// Screenshots: test-results/feature-file-2-image-written.png, feature-file-3-image-overview.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildImage } from '../support/image-feature.ts';
import { firstLogin } from './admin-login.ts';
import { platformSession } from './platform-session.ts';
import { createSubjectOnScreen, waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

test.use({ actionTimeout: 15_000 });

let host: WebHost;
let work: string;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-image-feature-'));
  host = await startWebHost({ advisories: ['pypi'] });
});
test.afterAll(async () => {
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('镜像特征文件：选择镜像文件，在本机生成特征文件并上传，概览显示镜像与各层', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  page.on('pageerror', (e) => console.log(`页面错误：${e.message}`));
  const { tarball } = await buildImage(join(work, 'image'));
  await firstLogin(page, host.launchUrl);
  const subjectId = await createSubjectOnScreen(page, host.origin, '镜像特征文件应用');

  await page.goto(`${host.origin}/#/project/newProject?subjectId=${subjectId}`);
  await expect(page.getByRole('heading', { name: '新建项目' })).toBeVisible();
  await page.getByLabel('来源类型').selectOption('32');
  await page.getByLabel('项目名称').fill('shop-api-feature');
  const zone = page.getByTestId('upload-drop-zone');
  await expect(zone).toContainText('镜像不离开本机');
  await zone.getByTestId('write-image-feature').click();
  // The web host has no native dialog: 选择镜像文件 opens the browser's file chooser.
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('pick-image-file').click();
  await (await chooser).setFiles(tarball);

  const row = page.getByTestId('upload-item').filter({ hasText: 'api-image.cairn-feature.zip' });
  await expect(row).toContainText('上传完成', { timeout: 120_000 });
  await expect(row.getByTestId('upload-feature-summary')).toHaveText(/^特征文件包含 \d+ 个清单\/锁文件（含许可证文件，共 .+），\d+ 个文件仅上传哈希$/);
  await page.screenshot({ path: 'test-results/feature-file-2-image-written.png', fullPage: true });

  await page.getByRole('button', { name: '保存并发起分析' }).click();
  await expect(page.getByText('任务发起成功！').first()).toBeVisible();
  await expect(page).toHaveURL(/#\/project\/analysis\/details\?projectId=\d+/);
  const projectId = Number(/projectId=(\d+)/.exec(page.url())?.[1]);
  const api = await platformSession(page);
  const run = await waitForRun(api, projectId);
  expect(run.status, run.message).toBe(2);
  await api.dispose();

  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  const panel = page.getByTestId('image-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('shop/api:1.4');
  await expect(panel).toContainText('Debian GNU/Linux 12 (bookworm)');
  await expect(panel).toContainText('linux/amd64');
  await expect(page.getByTestId('image-layer-0')).toContainText('第 1 层');
  await expect(page.getByTestId('image-layer-1').getByText('3', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/feature-file-3-image-overview.png', fullPage: true });
});
