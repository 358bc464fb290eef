// 项目统计 (/project/statistics) end to end at 1440×900, on real analyses: the knowledge base holds
// the Go and PyPI advisories; 应用 订单中心 analyses trivy's gomod, pip and pom repositories, 应用
// 支付中心 (version v1.0) the pip one alone, and a 二进制检测 应用 the same upload again. The screen's
// tiles show the platform's figures, every chart draws, picking an 应用 narrows them, a chart saves
// as a PNG, and the binary product shows the binary 应用 only. Screenshots go to
// test-results/project-statistics-*.png.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { call, platformSession } from './platform-session.ts';
import { waitForRun } from './project-flows.ts';
import { CORPORA, startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/project-statistics-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
let api: APIRequestContext | null = null;
const work = mkdtempSync(join(tmpdir(), 'cairn-e2e-statistics-'));
test.beforeAll(async () => {
  host = await startWebHost({ advisories: ['go', 'pypi'] });
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  rmSync(work, { recursive: true, force: true });
});

const MIT = `MIT License

Copyright (c) 2024 Example Corp

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
`;

/** A zip of these folders of trivy's test repositories, with an MIT LICENSE at its root. */
function zipOf(name: string, folders: string[]): string {
  const target = join(work, name);
  execFileSync('zip', ['-qr', target, ...folders], { cwd: join(CORPORA, 'trivy', 'repo') });
  writeFileSync(join(work, 'LICENSE'), MIT);
  execFileSync('zip', ['-qj', target, join(work, 'LICENSE')]);
  return target;
}

async function analyse(ctx: APIRequestContext, body: Record<string, unknown>, file: string): Promise<number> {
  const bytes = readFileSync(file);
  const upload = await call<{ uploadId: string }>(ctx, 'POST', '/api/upload', { fileName: 'app.zip', size: bytes.length });
  const put = await ctx.put(`/api/upload/${upload.uploadId}?offset=0`, { data: bytes, headers: { 'content-type': 'application/octet-stream' } });
  expect((await put.json()).code).toBe(1);
  const launched = await call<{ projectId: number }>(ctx, 'POST', '/api/analysis', { ...body, uploadId: upload.uploadId });
  expect((await waitForRun(ctx, launched.projectId)).status).toBe(2);
  return launched.projectId;
}

const tile = (page: Page, label: string) => page.locator('.cairn-stat-tile').filter({ has: page.getByText(label, { exact: true }) }).locator('.cairn-stat-value');
const chart = (page: Page, title: string) => page.locator('.cairn-chart-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

test('项目统计：概览、趋势、排行与分布按所选范围与产品显示，图表可保存为图片', async ({ page }) => {
  test.setTimeout(600_000);
  page.on('pageerror', (e) => console.log('页面错误', e.message));
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  const order = await call<{ id: number }>(api, 'POST', '/api/subject/create', { name: '订单中心', description: '', importance: 3 });
  const pay = await call<{ id: number }>(api, 'POST', '/api/subject/create', { name: '支付中心', description: '', importance: 3 });
  const version = await call<{ id: number }>(api, 'POST', '/api/version/create', { subjectId: pay.id, name: 'v1.0' });
  const release = await call<{ id: number }>(api, 'POST', '/api/binary/subject/create', { name: '订单中心发布包', description: '', importance: 3 });
  const full = zipOf('full.zip', ['gomod', 'pip', 'pom']);
  await analyse(api, { subjectId: order.id, projectName: 'order-src', getCodeType: 0, projectTags: '核心,后端' }, full);
  await analyse(api, { subjectId: pay.id, projectName: 'pay-src', getCodeType: 0, versionId: version.id, projectTags: '后端' }, zipOf('pip.zip', ['pip']));
  await analyse(api, { subjectId: release.id, projectName: 'order-release', getCodeType: 16 }, full);
  const all = await call<{ components: number; vulnerabilities: number; licenses: number; projects: number }>(api, 'POST', '/api/statistic/project/summary', {});
  const ofPay = await call<{ components: number; vulnerabilities: number }>(api, 'POST', '/api/statistic/project/summary', { subjectId: pay.id });
  const binary = await call<{ components: number; vulnerabilities: number }>(api, 'POST', '/api/binary/statistic/project/summary', {});
  expect(all.vulnerabilities).toBeGreaterThan(0);

  // Source product: both 应用, every chart drawn.
  await page.goto(`${host.origin}/#/project/projectList?product=1`);
  await page.goto(`${host.origin}/#/project/statistics`);
  await expect(page.getByRole('heading', { name: '项目统计' }).first()).toBeVisible();
  await expect(tile(page, '项目数')).toHaveText('2');
  await expect(tile(page, '组件数')).toHaveText(all.components.toLocaleString('zh-CN'));
  await expect(tile(page, '漏洞数')).toHaveText(all.vulnerabilities.toLocaleString('zh-CN'));
  await expect(tile(page, '检测次数')).toHaveText('2');
  for (const title of ['检测结果趋势', '检测任务状态趋势', '各版本检测结果', '使用最多的组件', '影响项目最多的漏洞', '组件风险分布', '项目组件数排行', '漏洞等级分布', '项目漏洞数排行', '许可证风险分布', '使用最多的许可证']) {
    await expect(chart(page, title).locator('canvas').first(), title).toBeVisible();
  }
  // A chart's words (its aria-label) carry its figures: the top component is used by both projects.
  await expect(chart(page, '使用最多的组件').getByRole('img')).toHaveAttribute('aria-label', /使用最多的组件：.* 2/);
  const tasks = page.locator('.cairn-panel').filter({ has: page.getByRole('heading', { name: '检测记录' }) });
  await expect(tasks.getByRole('row')).toHaveCount(3);
  await expect(tasks).toContainText('pay-src');
  await expect(tasks).toContainText('v1.0');
  await page.screenshot({ path: shot('1-source'), fullPage: true });
  // The sections below the fold, one screenshot each.
  for (const [i, title] of ['各版本检测结果', '组件风险分布', '漏洞等级分布', '许可证风险分布'].entries()) {
    await chart(page, title).scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`1-source-${i + 1}`) });
  }
  await tasks.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('1-source-5') });

  // A chart saves as a PNG.
  const download = page.waitForEvent('download');
  await chart(page, '漏洞等级分布').getByRole('button', { name: '保存为图片' }).click();
  expect((await download).suggestedFilename()).toMatch(/漏洞等级分布.*\.png$/);

  // One 应用: its figures, its version in the picker, the URL keeps the choice.
  await page.getByRole('combobox', { name: '应用' }).selectOption({ label: '支付中心' });
  await expect(page).toHaveURL(new RegExp(`subjectId=${pay.id}`));
  await expect(tile(page, '项目数')).toHaveText('1');
  await expect(tile(page, '组件数')).toHaveText(ofPay.components.toLocaleString('zh-CN'));
  await expect(tile(page, '漏洞数')).toHaveText(ofPay.vulnerabilities.toLocaleString('zh-CN'));
  await expect(page.getByRole('combobox', { name: '版本' }).locator('option')).toHaveText(['全部版本', 'v1.0']);
  await expect(tasks.getByRole('row')).toHaveCount(2);
  await page.screenshot({ path: shot('2-one-subject'), fullPage: true });

  // A range without analyses.
  await page.getByRole('button', { name: '重置' }).click();
  // The date fields are typed as yyyy-MM-dd or picked from a Chinese calendar, not the browser's own locale.
  await expect(page.getByLabel('开始日期')).toHaveAttribute('placeholder', '年-月-日');
  await page.getByLabel('开始日期').click();
  const calendar = page.locator('.bp6-datepicker');
  await expect(calendar.getByRole('button', { name: '今天' })).toBeVisible();
  await page.screenshot({ path: shot('2-date-picker') });
  await page.getByLabel('开始日期').fill('2020-01-01');
  await page.keyboard.press('Escape');
  await page.getByLabel('结束日期').fill('2020-01-31');
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('开始日期')).toHaveValue('2020-01-01');
  await expect(tile(page, '检测次数')).toHaveText('0');
  await expect(tile(page, '组件数')).toHaveText('0');
  await expect(chart(page, '检测结果趋势')).toContainText('暂无数据');

  // Binary product: the binary 应用 only.
  await page.goto(`${host.origin}/#/project/projectList?product=2`);
  await page.goto(`${host.origin}/#/project/statistics`);
  await expect(tile(page, '项目数')).toHaveText('1');
  await expect(tile(page, '组件数')).toHaveText(binary.components.toLocaleString('zh-CN'));
  await expect(tile(page, '漏洞数')).toHaveText(binary.vulnerabilities.toLocaleString('zh-CN'));
  await expect(tasks).toContainText('order-release');
  await expect(tasks).not.toContainText('pay-src');
  await page.screenshot({ path: shot('3-binary'), fullPage: true });
});
