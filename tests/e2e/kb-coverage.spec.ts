// Knowledge-base status and never a false all-clear (issue 14 item 1), on a freshly started web
// host whose knowledge base is empty: the administrator's home says so (first-run callout to
// 漏洞知识库); after the Go advisories are imported (zipped, through the platform's import call) a
// project of Go and npm code is analysed, and its header and overview say 漏洞结果不完整 because the
// knowledge base has nothing for npm, its npm components read 未覆盖, the task list tags it
// 不完整, its risk filter's 未覆盖 choice lists them and 无漏洞 leaves them out, the home card counts the knowledge base and names the project, and 漏洞知识库 shows the
// sources and advisories per ecosystem. Screenshots at 1440×900: test-results/kb-*.png.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { expectEmptyKnowledgeBase } from './knowledge-base.ts';
import { call, platformSession } from './platform-session.ts';
import { createSubjectOnScreen, newLocalProject, waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/kb-${name}.png`;
const CORPORA = join(process.cwd(), '..', 'shared', 'corpora');

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
let work: string;
let api: APIRequestContext | null = null;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-kb-'));
  execFileSync('zip', ['-qr', join(work, 'app.zip'), 'gomod', 'npm'], { cwd: join(CORPORA, 'trivy', 'repo') });
  execFileSync('zip', ['-qr', join(work, 'go-advisories.zip'), '.'], { cwd: join(CORPORA, 'advisories', 'go') });
  host = await startWebHost();
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('知识库状态与不完整的漏洞结果', async ({ page }) => {
  test.setTimeout(600_000);
  page.on('pageerror', (e) => console.log('页面错误', e.message));
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);

  // ---- an empty knowledge base, as the administrator first sees it ------------------------------
  const card = await expectEmptyKnowledgeBase(page, host.origin, shot('home-empty'));
  await card.getByRole('button', { name: '前往导入漏洞数据' }).click();
  await expect(page).toHaveURL(/#\/system\/knowledgeBase\/vul/);
  await expect(page.getByTestId('kb-status-panel')).toContainText('知识库中还没有任何生态的漏洞数据');

  // ---- the Go advisories imported ---------------------------------------------------------------
  const upload = await api.post('/api/vulnerability/system/importTemplate', {
    multipart: { file: { name: 'go-advisories.zip', mimeType: 'application/zip', buffer: readFileSync(join(work, 'go-advisories.zip')) } },
  });
  const imported = (await upload.json()) as { code: number; message: string; data: { recordId: number } };
  expect(imported.code, imported.message).toBe(1);
  await expect.poll(async () => (await call<{ status: number }>(api!, 'GET', `/api/vulnerability/system/import/record/${imported.data.recordId}`)).status, { timeout: 120_000 }).toBe(2);
  const status = await call<{ total: number; ecosystems: Array<{ ecosystem: string }> }>(api, 'GET', '/api/vulnerability/system/kb/status');
  expect(status.total).toBeGreaterThan(0);
  expect(status.ecosystems.map((e) => e.ecosystem)).toEqual(['golang']);

  // ---- a project of Go and npm code: incomplete, because nothing covers npm ---------------------
  const subjectId = await createSubjectOnScreen(page, host.origin, '覆盖检查');
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '0', file: join(work, 'app.zip'), name: 'go-and-npm' });
  expect((await waitForRun(api, projectId)).status).toBe(2);
  await page.reload();
  await expect(page.getByTestId('task-run')).toContainText('分析成功', { timeout: 30_000 });
  await expect(page.getByTestId('task-coverage')).toContainText('漏洞结果不完整：知识库中没有 npm 生态的漏洞数据');
  await expect(page.getByTestId('coverage-incomplete')).toContainText('个组件未覆盖');
  await page.waitForTimeout(800);
  await page.screenshot({ path: shot('overview-incomplete') });

  await page.getByRole('tab', { name: '组件', exact: true }).click();
  const table = page.getByTestId('component-table');
  await page.getByRole('textbox', { name: '关键字' }).fill('js-tokens');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(table.getByTestId('not-covered').first()).toHaveText('未覆盖');
  await page.screenshot({ path: shot('components-not-covered') });

  // The risk filter: 未覆盖 lists exactly the uncovered components, 无漏洞 none of them.
  await page.getByRole('textbox', { name: '关键字' }).fill('');
  await page.getByRole('button', { name: '查询' }).click();
  const risk = page.getByRole('group', { name: '风险等级' });
  await risk.getByRole('checkbox', { name: '未覆盖' }).click();
  await expect(risk.getByRole('checkbox', { name: '未覆盖' })).toHaveAttribute('aria-checked', 'true');
  await expect(table.getByTestId('not-covered').first()).toBeVisible();
  const listed = await table.locator('.cairn-table2-cell').filter({ has: page.getByTestId('not-covered') }).count();
  expect(listed).toBeGreaterThan(0);
  await expect(table.getByText('无漏洞', { exact: true })).toHaveCount(0);
  await page.waitForTimeout(400);
  await page.screenshot({ path: shot('components-filter-not-covered') });
  await risk.getByRole('checkbox', { name: '未覆盖' }).click();
  await risk.getByRole('checkbox', { name: '无漏洞' }).click();
  await expect(table.getByText('无漏洞', { exact: true }).first()).toBeVisible();
  await expect(table.getByTestId('not-covered')).toHaveCount(0);
  await risk.getByRole('checkbox', { name: '无漏洞' }).click();

  await page.goto(`${host.origin}/#/project/analysis`);
  await expect(page.getByTestId('coverage-incomplete-tag').first()).toHaveText('不完整');
  await page.screenshot({ path: shot('task-list') });

  // ---- home and 漏洞知识库 with data ---------------------------------------------------------------
  await page.goto(`${host.origin}/#/home/result`);
  await expect(card.getByTestId('kb-total')).toHaveText(status.total.toLocaleString('zh-CN'));
  await expect(card.getByTestId('kb-empty-callout')).toHaveCount(0);
  await expect(card.getByTestId('home-incomplete')).toContainText('1 个项目的漏洞结果不完整');
  await expect(card.getByTestId('home-incomplete')).toContainText('go-and-npm');
  await page.waitForTimeout(800);
  await page.screenshot({ path: shot('home') });

  await page.goto(`${host.origin}/#/system/knowledgeBase/vul`);
  const panel = page.getByTestId('kb-status-panel');
  await expect(panel).toContainText('知识库正常');
  await expect(panel).toContainText('golang');
  await expect(panel).toContainText('超过 30 天未更新视为过期');
  await page.screenshot({ path: shot('panel') });
});
