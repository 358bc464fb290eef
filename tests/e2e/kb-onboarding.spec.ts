// Issue 14's Done-when journey, from a freshly started web host with an empty knowledge base:
// the administrator is told the knowledge base is empty; a project of Go and Python code analysed
// now says 漏洞结果不完整 on its overview and in its PDF; the Go and PyPI advisories of
// ../shared/corpora/advisories are imported as one OSV zip through 导入漏洞数据 (chunked upload,
// queued job, progress) and the home page counts them; after 重新分析 the task header, overview,
// 漏洞 tab, task list, home dashboard and PDF text all show the same level counts — and again after a
// custom level is set on a finding. Screenshots at 1440×900: test-results/onboarding-*.png.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { expectEmptyKnowledgeBase, writeZip } from './knowledge-base.ts';
import { call, platformSession } from './platform-session.ts';
import { createSubjectOnScreen, newLocalProject, waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/onboarding-${name}.png`;
const CORPORA = join(process.cwd(), '..', 'shared', 'corpora');
const LEVELS = [[1, '超危'], [2, '高危'], [4, '中危'], [8, '低危'], [16, '未知']] as const;
type Counts = Record<1 | 2 | 4 | 8 | 16, number>;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
let work: string;
let projectZip: string;
let osvZip: string;
let api: APIRequestContext | null = null;

/** A zip of every OSV record (JSON, and YAML as PyPA's advisory database writes them) of the Go and PyPI corpora. */
async function zipAdvisories(target: string) {
  const entries = ['go', 'pypi'].flatMap((eco) => {
    const dir = join(CORPORA, 'advisories', eco);
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => /\.(json|ya?ml)$/.test(n)).map((n) => [join(dir, n), `${eco}/${n}`] as const);
  });
  await writeZip(target, entries);
}

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-onboarding-'));
  projectZip = join(work, 'gateway.zip');
  execFileSync('zip', ['-qr', projectZip, 'gomod', 'pip'], { cwd: join(CORPORA, 'trivy', 'repo') });
  osvZip = join(work, 'osv-go-pypi.zip');
  await zipAdvisories(osvZip);
  host = await startWebHost();
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** 超危 2 … 未知 0 read from a text (a level missing from it counts 0). */
function levelsIn(text: string): Counts {
  const out = {} as Counts;
  for (const [code, label] of LEVELS) out[code] = Number(text.match(new RegExp(`${label}\\s*(\\d+)`))?.[1] ?? 0);
  return out;
}

/** The counts of a level strip (task header, overview): one item per level, data-level on each. */
async function stripCounts(strip: Locator): Promise<Counts> {
  const out = {} as Counts;
  for (const [code] of LEVELS) out[code] = Number(await strip.locator(`[data-level="${code}"] b`).innerText());
  return out;
}

/** The PDF report of the project's latest run, generated from 生成报告 and read back as text. */
async function pdfText(page: Page, projectId: number): Promise<string> {
  const before = (await call<{ content: Array<{ id: number }> }>(api!, 'GET', `/api/report/list?page=1&size=50&projectId=${projectId}`)).content.map((r) => r.id);
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  await page.getByRole('button', { name: '生成报告', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '生成报告' });
  for (const box of await dialog.getByRole('checkbox').all()) if (await box.isChecked()) await setBox(box, false);
  await setBox(dialog.getByLabel('PDF（.pdf）'));
  await dialog.getByRole('button', { name: '生成', exact: true }).click();
  await expect(page.getByText('报告生成提交成功，生成完成之后可在报告管理中下载。').first()).toBeVisible();
  let report: { id: number; status: number } | undefined;
  await expect.poll(async () => {
    const rows = (await call<{ content: Array<{ id: number; status: number; reportType: number }> }>(api!, 'GET', `/api/report/list?page=1&size=50&projectId=${projectId}`)).content;
    report = rows.find((r) => r.reportType === 3 && !before.includes(r.id));
    return report?.status;
  }, { timeout: 180_000, message: 'PDF 报告未生成' }).toBe(2);
  const res = await api!.get(`/api/report/download/${report!.id}`);
  expect(res.ok()).toBe(true);
  const file = join(work, `report-${report!.id}.pdf`);
  writeFileSync(file, await res.body());
  return execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
}

/** Every place that shows the task's vulnerability counts, read from the screens and the PDF. */
async function countsEverywhere(page: Page, projectId: number, projectName: string) {
  const details = `${host.origin}/#/project/analysis/details?projectId=${projectId}`;
  await page.goto(details);
  await expect(page.getByTestId('task-run')).toContainText('分析成功', { timeout: 30_000 });
  const header = await stripCounts(page.getByTestId('task-counts'));
  const overview = await stripCounts(page.locator('.cairn-overview-levels'));
  await page.getByRole('tab', { name: '漏洞', exact: true }).click();
  const segments = page.locator('.cairn-level-segments');
  await expect(segments).toContainText(/超危 \d+/);
  const bugTab = levelsIn(await segments.innerText());
  await page.goto(`${host.origin}/#/project/analysis`);
  const row = page.getByRole('row').filter({ hasText: projectName }).first();
  await expect(row).toBeVisible();
  const titles = await row.locator('.cairn-level-count').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? '').join(' '));
  const taskList = levelsIn(titles);
  await page.goto(`${host.origin}/#/home/result`);
  const chart = page.getByRole('img', { name: /^漏洞等级分布：/ });
  await expect(chart).toBeVisible({ timeout: 30_000 });
  const dashboard = levelsIn((await chart.getAttribute('aria-label')) ?? '');
  const pdf = await pdfText(page, projectId);
  const sentence = pdf.replace(/\s+/g, '').match(/共发现漏洞\d+个（[^）]*）/)?.[0] ?? '';
  expect(sentence, 'PDF 的漏洞清单说明').not.toBe('');
  return { header, overview, bugTab, taskList, dashboard, pdf: levelsIn(sentence), pdfText: pdf };
}

function expectSame(all: Awaited<ReturnType<typeof countsEverywhere>>) {
  const { header, overview, bugTab, taskList, dashboard, pdf } = all;
  const total = Object.values(header).reduce((a, b) => a + b, 0);
  expect(total, '漏洞数').toBeGreaterThan(0);
  expect({ overview, bugTab, taskList, dashboard, pdf }).toEqual({ overview: header, bugTab: header, taskList: header, dashboard: header, pdf: header });
}

test('知识库上手：空库提示、分析结果不完整、界面导入、重新分析后各处等级计数一致（含自定义等级）', async ({ page }) => {
  test.setTimeout(1_200_000);
  page.on('pageerror', (e) => console.log('页面错误', e.message));
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);

  // ---- the administrator sees an empty knowledge base ----------------------------------------------
  const card = await expectEmptyKnowledgeBase(page, host.origin, shot('home-empty'));

  // ---- a project analysed before the import: incomplete, in words, on screen and in the PDF -------
  const subjectId = await createSubjectOnScreen(page, host.origin, '网关');
  const projectName = 'go-python-gateway';
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '0', file: projectZip, name: projectName });
  expect((await waitForRun(api, projectId)).status).toBe(2);
  await page.reload();
  await expect(page.getByTestId('task-run')).toContainText('分析成功', { timeout: 30_000 });
  await expect(page.getByTestId('task-coverage')).toContainText('漏洞结果不完整');
  await expect(page.getByTestId('coverage-incomplete')).toContainText('不完整');
  await page.screenshot({ path: shot('overview-incomplete') });
  const before = await pdfText(page, projectId);
  expect(before).toContain('漏洞结果不完整');
  await page.goto(`${host.origin}/#/project/analysis`);
  await expect(page.getByRole('row').filter({ hasText: projectName }).getByTestId('coverage-incomplete-tag')).toHaveText('不完整');

  // ---- OSV advisories imported through the UI -----------------------------------------------------
  await page.goto(`${host.origin}/#/system/knowledgeBase/vul`);
  await page.getByRole('button', { name: '导入漏洞数据' }).click();
  const dialog = page.getByRole('dialog', { name: '导入漏洞数据' });
  await dialog.getByTestId('upload-file-input').setInputFiles(osvZip);
  await expect(dialog.getByTestId('upload-item').getByText(/上传完成/)).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: '开始导入' }).click();
  await expect(dialog.getByTestId('kb-import-progress')).toBeVisible();
  await expect(dialog.getByTestId('kb-import-status')).toHaveText('导入成功', { timeout: 180_000 });
  await expect(dialog.getByTestId('kb-import-progress')).toContainText('100%');
  await page.screenshot({ path: shot('import-done') });
  await page.keyboard.press('Escape');
  const status = await call<{ total: number; ecosystems: Array<{ ecosystem: string; count: number }> }>(api, 'GET', '/api/vulnerability/system/kb/status');
  expect(status.ecosystems.map((e) => e.ecosystem).sort()).toEqual(['golang', 'pypi']);
  await page.goto(`${host.origin}/#/home/result`);
  await expect(card.getByTestId('kb-total')).toHaveText(status.total.toLocaleString('zh-CN'));
  await expect(card.getByTestId('kb-empty-callout')).toHaveCount(0);
  await page.screenshot({ path: shot('home-counts') });

  // ---- re-analysed: complete, and the same counts everywhere -------------------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  await page.getByRole('button', { name: '重新分析' }).click();
  await page.locator('.bp6-alert').getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('任务发起成功！').first()).toBeVisible();
  await expect(page.getByTestId('task-run')).toContainText('第 2 次', { timeout: 300_000 });
  await expect(page.getByTestId('task-run')).toContainText('分析成功', { timeout: 300_000 });
  await expect(page.getByTestId('task-coverage')).toHaveCount(0);
  const first = await countsEverywhere(page, projectId, projectName);
  expect(first.pdfText).not.toContain('漏洞结果不完整');
  expectSame(first);

  // ---- a custom level on one finding moves every count together ----------------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=bug`);
  const rows = page.locator('table.cairn-finding-table tbody tr');
  // Each finding names its recommended upgrade (or, as its tooltip, why there is none).
  await expect(rows.first().getByTestId('finding-upgrade')).toHaveAttribute('title', /升级到|修复版本|当前版本/);
  await page.screenshot({ path: shot('bug-tab') });
  // To 超危 unless it already is; then to 低危.
  const target = (await rows.first().innerText()).includes('超危') ? '低危' : '超危';
  await rows.first().click();
  const drawer = page.locator('.cairn-result-drawer');
  await expect(drawer.getByTestId('finding-id')).toBeVisible();
  await drawer.getByRole('button', { name: '标记 / 修改等级' }).click();
  const mark = page.getByRole('dialog', { name: '标记 1 个漏洞' });
  await mark.getByRole('textbox', { name: /^备注/ }).fill('内部评估：仅管理网段可达');
  await mark.getByRole('combobox', { name: '自定义等级' }).selectOption({ label: target });
  await mark.getByRole('textbox', { name: /^等级修改原因/ }).fill('按内部漏洞分级标准调整');
  await mark.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('保存成功！').first()).toBeVisible();
  await page.keyboard.press('Escape');
  const second = await countsEverywhere(page, projectId, projectName);
  expectSame(second);
  expect(second.header, '自定义等级改变了计数').not.toEqual(first.header);
  const targetCode = target === '超危' ? 1 : 8;
  expect(second.header[targetCode]).toBe(first.header[targetCode] + 1);
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  await page.screenshot({ path: shot('details-after-custom-level') });
});
