// 生成特征文件 end to end in the web host (issue 16 item 5): on 新建项目 with 特征文件（清单与锁文件）,
// the button picks a project folder (the browser's folder chooser: the web host has no native
// dialog), the host writes its feature file on this machine in its writer process and uploads only
// that; the row says what went in (清单/锁文件 and the files only hashed), and the project launched
// from it is analysed with the folder's Go and PyPI components while the platform never holds the
// source file's content. Screenshot: test-results/feature-file-1-written.png.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { call, platformSession } from './platform-session.ts';
import { createSubjectOnScreen, waitForRun } from './project-flows.ts';
import { CORPORA, startWebHost, type WebHost } from './web-host.ts';

test.use({ actionTimeout: 15_000 });

let host: WebHost;
let work: string;
let folder: string;
const SECRET = 'do-not-ship-this-7c1e';

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-feature-'));
  folder = join(work, 'portal');
  for (const eco of ['gomod', 'pip']) cpSync(join(CORPORA, 'trivy', 'repo', eco), join(folder, eco), { recursive: true });
  mkdirSync(join(folder, 'cmd'), { recursive: true });
  writeFileSync(join(folder, 'cmd', 'main.go'), `package main\n\nfunc main() { println("${SECRET}") }\n`);
  host = await startWebHost({ advisories: ['go', 'pypi'] });
});
test.afterAll(async () => {
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('特征文件：选择项目文件夹，在本机生成特征文件并上传，分析得到其组件', async ({ page }) => {
  test.setTimeout(300_000);
  page.on('pageerror', (e) => console.log(`页面错误：${e.message}`));
  await firstLogin(page, host.launchUrl);
  const subjectId = await createSubjectOnScreen(page, host.origin, '特征文件应用');

  await page.goto(`${host.origin}/#/project/newProject?subjectId=${subjectId}`);
  await expect(page.getByRole('heading', { name: '新建项目' })).toBeVisible();
  await page.getByLabel('来源类型').selectOption('9');
  await page.getByLabel('项目名称').fill('portal-feature');
  const zone = page.getByTestId('upload-drop-zone');
  await expect(zone).toContainText('源码不离开本机');
  const button = zone.getByRole('button', { name: '生成特征文件' });
  await expect(button).toBeEnabled();

  // The web host has no native dialog: the button opens the browser's folder chooser.
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(folder);

  const row = page.getByTestId('upload-item').filter({ hasText: 'portal.cairn-feature.zip' });
  await expect(row).toContainText('上传完成', { timeout: 120_000 });
  const summary = row.getByTestId('upload-feature-summary');
  // Of the folder's 8 files, the manifests the extractors read are in, cmd/main.go only hashed.
  await expect(summary).toHaveText(/^特征文件包含 \d+ 个清单\/锁文件（含许可证文件，共 .+），\d+ 个文件仅上传哈希$/);
  const [, included, hashed] = /包含 (\d+) 个.*，(\d+) 个文件仅上传哈希/.exec((await summary.textContent())!)!.map(Number);
  expect(included! + hashed!).toBe(8);
  expect(included).toBeGreaterThanOrEqual(3);
  expect(hashed).toBeGreaterThanOrEqual(1);
  await expect(page.getByText('已上传：portal.cairn-feature.zip')).toBeVisible();
  await page.screenshot({ path: 'test-results/feature-file-1-written.png', fullPage: true });

  await page.getByRole('button', { name: '保存并发起分析' }).click();
  await expect(page.getByText('任务发起成功！').first()).toBeVisible();
  await expect(page).toHaveURL(/#\/project\/analysis\/details\?projectId=\d+/);
  const projectId = Number(/projectId=(\d+)/.exec(page.url())?.[1]);
  const api = await platformSession(page);
  expect((await waitForRun(api, projectId)).status).toBe(2);
  const list = await call<{ content: Array<{ purl: string }> }>(api, 'POST', `/api/component/list/${projectId}?size=500`, {});
  const purls = list.content.map((c) => c.purl);
  expect(purls.some((p) => p.startsWith('pkg:golang/'))).toBe(true);
  expect(purls.some((p) => p.startsWith('pkg:pypi/'))).toBe(true);
  await api.dispose();
});
