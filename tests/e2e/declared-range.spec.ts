// Declared but unpinned dependencies end to end at 1440×900 (issue 17): a source upload whose
// requirements.txt says `flask>=2.0,<3` and whose package.json (no lockfile) says `"lodash":
// "^4.17.0"` lists both as 未知版本 with the range as written, in the component table and in the
// drawer's 声明的版本范围 — never dropped. Screenshots go to test-results/declared-range-*.png.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { call, platformSession } from './platform-session.ts';
import { waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/declared-range-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
const work = mkdtempSync(path.join(tmpdir(), 'cairn-e2e-range-'));
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => {
  await host?.stop();
  rmSync(work, { recursive: true, force: true });
});

test('未固定版本的依赖：列表显示 未知版本（范围），详情显示声明的版本范围', async ({ page }) => {
  test.setTimeout(240_000);
  const src = path.join(work, 'src');
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'requirements.txt'), 'flask>=2.0,<3\nrequests==2.31.0\n');
  writeFileSync(path.join(src, 'package.json'), JSON.stringify({ name: 'web', version: '1.0.0', dependencies: { lodash: '^4.17.0' } }, null, 2));
  const zip = path.join(work, 'src.zip');
  execFileSync('zip', ['-qr', zip, '.'], { cwd: src });

  await firstLogin(page, host.launchUrl);
  const api = await platformSession(page);
  const subject = await call<{ id: number }>(api, 'POST', '/api/subject/create', { name: '网关', description: '', importance: 3 });
  const bytes = readFileSync(zip);
  const upload = await call<{ uploadId: string }>(api, 'POST', '/api/upload', { fileName: 'src.zip', size: bytes.length });
  const put = await api.put(`/api/upload/${upload.uploadId}?offset=0`, { data: bytes, headers: { 'content-type': 'application/octet-stream' } });
  expect((await put.json()).code).toBe(1);
  const launched = await call<{ projectId: number }>(api, 'POST', '/api/analysis', { subjectId: subject.id, projectName: 'gateway', getCodeType: 0, uploadId: upload.uploadId, analysisModes: '1' });
  expect((await waitForRun(api, launched.projectId)).status).toBe(2);

  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${launched.projectId}&tab=component`);
  const table = page.getByTestId('component-table');
  // The version cell holds the range as written (shown truncated in a narrow column, whole in its title).
  await expect(table).toContainText('未知版本（>=2.0,<3）');
  await expect(table).toContainText('未知版本（^4.17.0）');
  await expect(table.getByTitle('声明的版本范围：>=2.0,<3')).toBeVisible();
  await expect(table).toContainText('2.31.0');
  await page.screenshot({ path: shot('1-components'), fullPage: true });

  await table.getByText(/^flask$/).first().click();
  const drawer = page.locator('.cairn-result-drawer');
  await expect(drawer.getByTestId('component-constraint')).toHaveText('>=2.0,<3');
  await expect(drawer).toContainText('requirements.txt');
  await page.screenshot({ path: shot('2-drawer') });
});
