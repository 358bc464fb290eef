// Issue 7's Done-when journey: on a freshly started embedded platform whose knowledge base holds
// the Go and PyPI advisories of ../shared/corpora/advisories, a real project is analysed; every
// report format (Word, Excel, PDF, SPDX, CycloneDX, SWID) and both VEX formats are generated from
// the task details screen, downloaded from 报告管理 into the desktop report library through the
// bridge, checked (a report deleted on the platform keeps its local copy; a truncated copy is
// caught by its checksum and downloaded again), and then, with the platform stopped, opened from
// the login screen in offline review. The PDF's pages are rendered with pdftoppm into
// test-results/ and its text layer must carry the Chinese headings.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { LibraryEntry } from '../../contract/ipc/desktop-contract.ts';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { call, platformSession } from './platform-session.ts';
import { createSubjectOnScreen, dropFile, newLocalProject, waitForRun, zipTrivyRepos } from './project-flows.ts';
import { CORPORA, startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/reports-${name}.png`;
const SBOM = join(CORPORA, 'sbom', 'examples', 'laravel-7.12.0', 'bom.1.4.json');

test.use({ actionTimeout: 15_000 });

let host: WebHost;
let work: string;
let zipPath: string;
let api: APIRequestContext | null = null;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-reports-'));
  zipPath = zipTrivyRepos(join(work, 'payment-gateway.zip'), ['gomod', 'pip', 'npm']);
  host = await startWebHost({ advisories: ['go', 'pypi'] });
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface ReportRow { id: number; name: string; status: number; reportType: number; sha256: string | null }

const libraryEntries = async (page: Page): Promise<LibraryEntry[]> => {
  const r = await page.evaluate(() => window.desktop!.library.list({}));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** Every file under a folder (the library keeps one folder per entry). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
}

/** Share of dark pixels of a page rendered by pdftoppm as grey PGM (not blank when > 0.5 %). */
function inkShare(pdf: string, pageNo: number): number {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', '40', '-f', String(pageNo), '-l', String(pageNo), pdf]);
  // P5 header: magic, width, height, maxval, each followed by whitespace.
  const header = pgm.subarray(0, 40).toString('latin1').match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/);
  if (!header) throw new Error('pdftoppm 未输出 PGM');
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const v of pixels) if (v < 200) dark++;
  return dark / pixels.length;
}

test('报告：生成各格式、下载到报告库、校验、平台停止后离线查看', async ({ page }) => {
  test.setTimeout(900_000);
  page.on('pageerror', (e) => console.log('页面错误', e.message));
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  const subjectId = await createSubjectOnScreen(page, host.origin, '支付网关');
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '0', file: zipPath, name: 'payment-gateway' });
  expect((await waitForRun(api, projectId)).status).toBe(2);

  // ---- generate every format and both VEX formats from the task details ----------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  await page.getByRole('button', { name: '生成报告', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '生成报告' });
  for (const label of ['Word（.docx）', 'Excel（.xlsx）', 'PDF（.pdf）', 'SPDX（.spdx.json）', 'CycloneDX（.CycloneDX.json）', 'SWID（.zip）']) {
    await setBox(dialog.getByLabel(label));
  }
  await page.screenshot({ path: shot('generate-dialog') });
  await dialog.getByRole('button', { name: '生成', exact: true }).click();
  await expect(page.getByText('报告生成提交成功，生成完成之后可在报告管理中下载。').first()).toBeVisible();

  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=bug`);
  await page.getByRole('button', { name: '导出 VEX' }).click();
  const vexDialog = page.getByRole('dialog', { name: '导出 VEX 声明' });
  await setBox(vexDialog.getByLabel('CycloneDX VEX'));
  await setBox(vexDialog.getByLabel('OpenVEX'));
  await vexDialog.getByRole('button', { name: '导出', exact: true }).click();
  await expect(page.getByText(/报告生成提交成功/).first()).toBeVisible();

  // The platform's own answer: all eight files generated.
  let reports: ReportRow[] = [];
  await expect
    .poll(async () => {
      reports = (await call<{ content: ReportRow[] }>(api!, 'GET', `/api/report/list?page=1&size=50&projectId=${projectId}`)).content;
      return reports.length === 6 && reports.every((r) => r.status === 2);
    }, { timeout: 180_000, message: '六种格式的报告未全部生成成功' })
    .toBe(true);
  let vex: ReportRow[] = [];
  await expect
    .poll(async () => {
      vex = (await call<{ content: ReportRow[] }>(api!, 'GET', `/api/vex/report/list?page=1&size=50&projectId=${projectId}`)).content;
      return vex.length === 2 && vex.every((r) => r.status === 2);
    }, { timeout: 120_000 })
    .toBe(true);

  // ---- download each into the library from 报告管理 ----------------------------------------------
  await page.goto(`${host.origin}/#/project/report`);
  await expect(page.getByRole('heading', { name: '报告管理' })).toBeVisible();
  for (const r of reports) {
    const row = page.getByRole('row').filter({ hasText: r.name });
    await row.getByRole('button', { name: '下载' }).click();
  }
  await page.getByRole('tab', { name: 'VEX 报告' }).click();
  for (const r of vex) {
    await page.getByRole('row').filter({ hasText: r.name }).getByRole('button', { name: '下载' }).click();
  }
  await expect.poll(async () => (await libraryEntries(page)).filter((e) => e.state === 'done').length, { timeout: 120_000 }).toBe(8);
  const entries = await libraryEntries(page);
  for (const r of [...reports, ...vex]) {
    const entry = entries.find((e) => e.reportId === r.id)!;
    expect(entry, r.name).toBeTruthy();
    expect(entry.sha256).toBe(r.sha256);
    expect(entry.subjectName).toBe('支付网关');
    expect(entry.projectName).toBe('payment-gateway');
  }
  const files = filesUnder(join(host.home, 'library')).filter((f) => !f.endsWith('entry.json'));
  const pdf = files.find((f) => f.endsWith('.pdf'))!;
  expect(pdf).toBeTruthy();

  // ---- the PDF: pages rendered to PNG, not blank, Chinese headings in the text layer -----------
  execFileSync('pdftoppm', ['-r', '60', '-f', '1', '-l', '4', '-png', pdf, 'test-results/reports-pdf-page']);
  for (const p of [1, 2, 3, 4]) expect(inkShare(pdf, p), `PDF 第 ${p} 页是空白`).toBeGreaterThan(0.005);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString('utf8');
  for (const heading of ['开源软件成分分析报告', '目录', '概述', '组件清单', '漏洞清单', '许可证清单', '许可证冲突', '审计标记与 VEX 声明']) expect(text).toContain(heading);
  expect(text).toContain('payment-gateway');
  expect(text).toMatch(/golang\.org\/x\/(net|text)/);

  // ---- deleting on the platform keeps the local copy --------------------------------------------
  const spdx = reports.find((r) => r.name.endsWith('.spdx.json'))!;
  await page.getByRole('tab', { name: '项目报告' }).click();
  await page.getByRole('row').filter({ hasText: spdx.name }).getByRole('button', { name: '删除' }).click();
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('删除成功！').first()).toBeVisible();
  expect((await call<{ content: ReportRow[] }>(api, 'GET', `/api/report/list?page=1&size=50&projectId=${projectId}`)).content.find((r) => r.id === spdx.id)?.status ?? 3).toBe(3);
  const spdxEntry = (await libraryEntries(page)).find((e) => e.reportId === spdx.id)!;
  expect(spdxEntry.state).toBe('done');

  // ---- the filters live in the URL: a reload keeps the PDF-only list ------------------------------
  const pdfReport = reports.find((r) => r.name.endsWith('.pdf'))!;
  await page.getByRole('combobox', { name: '格式' }).selectOption({ label: 'PDF' });
  await expect(page).toHaveURL(/[?&]type=3\b/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: '格式' })).toHaveValue('3');
  await expect(page.getByRole('row').filter({ hasText: pdfReport.name })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '.docx' })).toHaveCount(0);

  // ---- a truncated copy is caught by its checksum and downloaded again ---------------------------
  const xlsx = files.find((f) => f.endsWith('.xlsx'))!;
  truncateSync(xlsx, Math.floor(statSync(xlsx).size / 2));
  await page.goto(`${host.origin}/#/desktop/library`);
  await expect(page.getByRole('heading', { name: '报告库' })).toBeVisible();
  const xlsxName = xlsx.split('/').at(-1)!;
  const xlsxRow = page.getByRole('row').filter({ hasText: xlsxName });
  await xlsxRow.getByRole('button', { name: '校验' }).click();
  await expect(xlsxRow.getByText('已损坏')).toBeVisible();
  await page.screenshot({ path: shot('library-corrupt'), fullPage: true });
  await xlsxRow.getByRole('button', { name: '重新下载' }).first().click();
  await expect(xlsxRow.getByText('已完成')).toBeVisible({ timeout: 60_000 });
  await xlsxRow.getByRole('button', { name: '校验' }).click();
  await expect(page.getByText('文件完整').first()).toBeVisible();
  await page.screenshot({ path: shot('library'), fullPage: true });

  // ---- platform stopped: from the login screen to offline review ---------------------------------
  const stopped = await page.evaluate(() => window.desktop!.platform.stop({}));
  expect(stopped.ok && stopped.value.state).toBe('stopped');
  // Sign out with the platform gone: the login screen still offers the library.
  await page.goto(`${host.origin}/#/logout`);
  await expect(page).toHaveURL(/#\/login/, { timeout: 30_000 });
  await page.getByText('报告库 · 离线查看').first().click();
  await expect(page.getByRole('heading', { name: '报告库' })).toBeVisible();
  const view = async (suffix: string) => {
    const name = files.find((f) => f.endsWith(suffix))!.split('/').at(-1)!;
    await page.goto(`${host.origin}/#/desktop/library`);
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '查看' }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 30_000 });
  };

  await view('.pdf');
  await expect(page.locator('canvas.cairn-pdf-canvas').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('pdf-page-count')).toContainText(/\/ \d+ 页/);
  await page.screenshot({ path: shot('review-pdf') });

  await view('.CycloneDX.json');
  await expect(page.getByText('CycloneDX 1.6').first()).toBeVisible();
  await expect(page.getByText('golang.org/x/text').first()).toBeVisible();
  await page.getByRole('tab', { name: /漏洞/ }).click();
  await expect(page.getByText('CVE-2021-38561').first()).toBeVisible();
  await page.screenshot({ path: shot('review-cyclonedx') });

  await view('.spdx.json');
  await expect(page.getByText('SPDX 2.3').first()).toBeVisible();
  await expect(page.getByText('golang.org/x/text').first()).toBeVisible();

  await view('.xlsx');
  await page.getByRole('tab', { name: /组件清单/ }).click();
  await page.getByRole('columnheader', { name: /组件名称/ }).click();
  await expect(page.getByText('golang.org/x/text').first()).toBeVisible();
  await page.screenshot({ path: shot('review-excel') });

  await view('.docx');
  await expect(page.getByRole('heading', { name: /组件清单/ }).first()).toBeVisible();
  await page.screenshot({ path: shot('review-word'), fullPage: true });

  await view('.zip');
  await expect(page.getByText('golang.org/x/text').first()).toBeVisible();

  await view('.openvex.json');
  await expect(page.getByText('OpenVEX').first()).toBeVisible();

  // Any SBOM dragged in from disk.
  await page.goto(`${host.origin}/#/desktop/review`);
  await dropFile(page, SBOM, '.cairn-rv-drop');
  await expect(page.getByText('CycloneDX 1.4').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('laravel/framework').first()).toBeVisible();
  await page.screenshot({ path: shot('review-dropped-sbom') });
});
