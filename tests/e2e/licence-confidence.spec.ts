// Confidence the user can read (issue 15, item 7) on a freshly started web host: a project with a
// vendored full licence text, an Apache-2.0 file header, an SPDX tag and a README's mention of the
// BSD licence. Each place in the licence tab shows its 识别方式 and 可信度; the 识别方式 and 最低可信度
// filters narrow the list and say so; 查看识别依据 expands a row into its numbered monospace lines.
// The 许可证报告 dialog offers the same two filters, and the filtered report is generated.
// Screenshots at 1440×900: test-results/licence-confidence.png (and -full.png), licence-report-dialog.png.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { licenseText } from '../../server/engine/index.ts';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { call, platformSession } from './platform-session.ts';
import { createSubjectOnScreen, newLocalProject, waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/licence-${name}.png`;
const CORPORA = join(process.cwd(), '..', 'shared', 'corpora');

let host: WebHost;
let work: string;
let zipPath: string;
let api: APIRequestContext | null = null;

const APACHE_HEADER = [
  '/*',
  ' * Licensed under the Apache License, Version 2.0 (the "License");',
  ' * you may not use this file except in compliance with the License.',
  ' * You may obtain a copy of the License at',
  ' *',
  ' *     http://www.apache.org/licenses/LICENSE-2.0',
  ' *',
  ' * Unless required by applicable law or agreed to in writing, software',
  ' * distributed under the License is distributed on an "AS IS" BASIS,',
  ' * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.',
  ' * See the License for the specific language governing permissions and',
  ' * limitations under the License.',
  ' */',
  'export const rate = (amount) => amount * 0.06;',
].join('\n');

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-confidence-'));
  // One licence found each way: a vendored full text, a file header, an SPDX tag, a README's mention.
  const conf = join(work, 'src');
  cpSync(join(CORPORA, 'trivy', 'repo', 'npm'), conf, { recursive: true });
  writeFileSync(join(conf, 'package.json'), JSON.stringify({ name: 'tax-web', version: '1.0.0', private: true, dependencies: { jquery: '^3.3.9', react: '^16.8.6', redux: '^4.0.1' } }, null, 2));
  mkdirSync(join(conf, 'vendor', 'isc-lib'), { recursive: true });
  mkdirSync(join(conf, 'src'), { recursive: true });
  writeFileSync(join(conf, 'vendor', 'isc-lib', 'LICENSE'), licenseText('ISC')!);
  writeFileSync(join(conf, 'src', 'rate.js'), APACHE_HEADER);
  writeFileSync(join(conf, 'src', 'index.js'), '// SPDX-License-Identifier: MIT\nexport * from "./rate.js";\n');
  writeFileSync(join(conf, 'README.md'), '# tax-web\n\nThe charting code comes from a project released under the BSD license.\n');
  zipPath = join(work, 'tax-web.zip');
  execFileSync('zip', ['-qr', zipPath, '.'], { cwd: conf });
  host = await startWebHost();
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('许可证：每处识别结果注明识别方式与可信度，可筛选并展开识别依据', async ({ page }) => {
  test.setTimeout(600_000);
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  const subjectId = await createSubjectOnScreen(page, host.origin, '税务系统');
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '0', file: zipPath, name: 'tax-web' });
  expect((await waitForRun(api, projectId)).status).toBe(2);
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=license`);

  const table = page.locator('table.cairn-result-license-table');
  const row = (id: string) => table.locator('tbody > tr').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${id}`) }) });
  // Each place with how it was found and how sure.
  await expect(row('ISC')).toContainText('vendor/isc-lib/LICENSE');
  await expect(row('ISC').locator('.cairn-kind-tag').first()).toHaveText('全文');
  await expect(row('Apache-2.0').locator('.cairn-kind-tag').first()).toHaveText('声明头');
  await expect(row('BSD-3-Clause').locator('.cairn-kind-tag').first()).toHaveText('引用');
  await expect(row('BSD-3-Clause').locator('.cairn-score-tag').first()).toHaveText(/^可信度 \d+$/);
  await expect(row('MIT')).toContainText('SPDX 标签');
  await expect(row('MIT')).toContainText('包元数据声明');
  await expect(row('MIT').locator('.cairn-score-tag').first()).toHaveText('可信度 100');

  // 识别方式: only references, said above the table.
  const kinds = page.getByRole('group', { name: '识别方式' });
  await kinds.getByRole('checkbox', { name: '引用' }).click();
  await expect(page.locator('.cairn-confidence-note')).toHaveText('仅显示识别方式为引用的许可证识别结果。');
  await expect(table.locator('tbody > tr')).toHaveCount(1);
  await expect(table).toContainText('BSD-3-Clause');
  await page.getByRole('button', { name: '重置' }).click();
  await expect(row('ISC')).toBeVisible();

  // 最低可信度 60 (keyboard on the slider: twelve steps of 5): the weak README mention goes.
  const handle = page.getByRole('slider', { name: '最低可信度' });
  await handle.focus();
  for (let i = 0; i < 12; i++) await handle.press('ArrowRight');
  await expect(page.locator('.cairn-min-score-value')).toHaveText('≥ 60');
  await expect(page.locator('.cairn-confidence-note')).toHaveText('仅显示可信度 ≥ 60 的许可证识别结果。');
  await expect(table).not.toContainText('BSD-3-Clause');
  await expect(row('MIT')).toBeVisible();

  // 识别依据: the header's own lines, in monospace with their numbers.
  await row('Apache-2.0').getByRole('button', { name: '查看识别依据' }).click();
  const evidence = table.locator('.cairn-evidence-row .cairn-evidence').first();
  await expect(evidence).toContainText('src/rate.js');
  await expect(evidence.locator('.cairn-evidence-lines li').first()).toContainText('Licensed under the Apache License, Version 2.0');
  expect(await evidence.locator('.cairn-evidence-lines').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
  await row('ISC').getByRole('button', { name: '查看识别依据' }).click();
  await expect(table.locator('.cairn-evidence-row')).toHaveCount(2);
  await page.screenshot({ path: shot('confidence'), fullPage: false });
  await page.screenshot({ path: shot('confidence-full'), fullPage: true });

  // The licence report with the same filters: offered in its dialog, generated.
  await page.getByRole('button', { name: '许可证报告' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('许可证识别结果筛选');
  await dialog.getByRole('group', { name: '识别方式' }).getByRole('checkbox', { name: '全文' }).click();
  await dialog.getByRole('group', { name: '识别方式' }).getByRole('checkbox', { name: '声明头' }).click();
  await setBox(dialog.getByLabel(/^PDF/));
  await page.screenshot({ path: shot('report-dialog') });
  await dialog.getByRole('button', { name: '生成', exact: true }).click();
  await expect(page.getByText(/报告生成提交成功/).first()).toBeVisible();
  await expect
    .poll(async () => (await call<{ content: Array<{ status: number }> }>(api!, 'GET', `/api/license/report/list?page=1&size=10&projectId=${projectId}`)).content.map((r) => r.status), { timeout: 120_000 })
    .toEqual([2]);
});
