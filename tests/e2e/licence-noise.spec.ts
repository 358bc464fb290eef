// Licence results without noise on screen (issue 14, item 6), on a freshly started web host: a
// project whose tree holds GPL-3.0 and AGPL-3.0 texts in test fixtures and no licence of its own.
// The licence tab lists the fixtures' licences only under 测试/数据文件中的许可证, with where they
// were found; the conflict tab, without an outbound licence, explains how to set one instead of
// listing every component as 未知 (screenshot at 1440×900); its 前往项目设置 opens the project's
// settings with 出站许可证 focused, and once it is set and the project re-analysed the conflict tab
// judges every component against it and says where it came from. Screenshots: test-results/licence-*.png.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { licenseText } from '../../server/engine/index.ts';
import { firstLogin } from './admin-login.ts';
import { platformSession } from './platform-session.ts';
import { createSubjectOnScreen, newLocalProject, waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/licence-${name}.png`;
const CORPORA = join(process.cwd(), '..', 'shared', 'corpora');

let host: WebHost;
let work: string;
let zipPath: string;
let api: APIRequestContext | null = null;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-licence-'));
  const src = join(work, 'src');
  cpSync(join(CORPORA, 'trivy', 'repo', 'npm'), src, { recursive: true });
  writeFileSync(join(src, 'package.json'), JSON.stringify({ name: 'billing-web', version: '1.0.0', private: true, dependencies: { jquery: '^3.3.9', react: '^16.8.6', redux: '^4.0.1' } }, null, 2));
  mkdirSync(join(src, 'test', 'fixtures', 'licenses'), { recursive: true });
  writeFileSync(join(src, 'test', 'fixtures', 'licenses', 'gpl-3.0.txt'), licenseText('GPL-3.0-only')!);
  writeFileSync(join(src, 'test', 'fixtures', 'licenses', 'agpl-3.0.txt'), licenseText('AGPL-3.0-only')!);
  zipPath = join(work, 'billing-web.zip');
  execFileSync('zip', ['-qr', zipPath, '.'], { cwd: src });
  host = await startWebHost();
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('许可证：测试夹具中的许可证分开列出；未设置出站许可证时说明如何设置', async ({ page }) => {
  test.setTimeout(600_000);
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  const subjectId = await createSubjectOnScreen(page, host.origin, '计费系统');
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '0', file: zipPath, name: 'billing-web' });
  expect((await waitForRun(api, projectId)).status).toBe(2);
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=license`);

  // The project's licences: MIT of its components, not the fixtures' GPL and AGPL.
  const table = page.locator('table.cairn-result-license-table');
  await expect(table).toContainText('MIT');
  await expect(table).not.toContainText('GPL-3.0-only');
  await page.getByRole('radio', { name: /^测试\/数据文件中的许可证 2$/ }).click();
  await expect(table).toContainText('AGPL-3.0-only');
  await expect(table).toContainText('GPL-3.0-only');
  await expect(table).toContainText('测试代码/夹具');
  await expect(table).toContainText('test/fixtures/licenses/gpl-3.0.txt');
  await expect(page.locator('.cairn-license-excluded-note')).toContainText('不参与许可证冲突判断');
  await page.screenshot({ path: shot('excluded'), fullPage: true });

  // No outbound licence anywhere: how to set one, not a list of 未知.
  await page.getByRole('radio', { name: '许可证冲突' }).click();
  const none = page.locator('.cairn-outbound-none');
  await expect(none).toContainText('未设置出站许可证，无法判断许可证冲突');
  await expect(none).toContainText(/此次分析找到 \d+ 个组件/);
  await expect(page.locator('.cairn-sub-panel table')).toHaveCount(0);
  await expect(page.getByText('未知', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: shot('conflict-none') });

  await none.getByRole('button', { name: '前往项目设置' }).click();
  await expect(page).toHaveURL(new RegExp(`#/project/analysis/launch\\?projectId=${projectId}&focus=outboundLicense`));
  const field = page.locator('#pf-outbound');
  await expect(field).toBeFocused();
  await field.fill('MIT');
  await page.getByRole('button', { name: '保存并重新分析' }).click();
  await expect(page).toHaveURL(/#\/project\/analysis\/details\?projectId=\d+/);
  expect((await waitForRun(api, projectId)).status).toBe(2);

  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=license&sub=conflict`);
  const outbound = page.locator('.cairn-outbound');
  await expect(outbound).toContainText('出站许可证：MIT');
  await expect(outbound).toContainText('项目设置中指定');
  await expect(page.locator('.cairn-sub-panel table')).toContainText('兼容');
  await expect(page.locator('.cairn-sub-panel table')).not.toContainText('GPL');
  // Each verdict names who decided it; the callout credits the OSADL matrix (CC-BY-4.0).
  await expect(page.locator('.cairn-sub-panel table')).toContainText('依据：OSADL 兼容性矩阵');
  await expect(outbound).toContainText(/OSADL 许可证兼容性矩阵（\d{4}-\d{2}-\d{2} 版/);
  await page.screenshot({ path: shot('conflict-set') });
});
