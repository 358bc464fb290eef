// Issue 14's honest screens and screens that fit (items 4 and 7), at the 1440×900 the config sets:
// the side menu marks screens not built yet with 暂未提供 and does not open them, the modes the
// engine does not run cannot be ticked, the settings nothing applies say so and cannot be saved;
// the task list, the task details, 报告管理 and the report library keep every row action inside the
// viewport (no scrolling sideways to reach them); the dependency tree's expanded rows in light and
// dark themes. Screenshots go to test-results/fit-*.png (looked at by a person as well).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { call, platformSession } from './platform-session.ts';
import { createSubjectOnScreen, newLocalProject, waitForRun, zipTrivyRepos } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/fit-${name}.png`;

test.use({ actionTimeout: 15_000 });

let host: WebHost;
let work: string;
let zipPath: string;
let api: APIRequestContext | null = null;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-fit-'));
  zipPath = zipTrivyRepos(join(work, 'order-service-with-a-rather-long-project-name.zip'), ['npm', 'pip']);
  host = await startWebHost({ advisories: ['pypi'] });
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Every element of `buttons` lies inside the window horizontally and inside every ancestor that
 * clips (overflow other than visible): reachable without scrolling sideways. Rows below the fold
 * are checked horizontally only (a page scrolls down, never sideways).
 */
async function expectWithinView(buttons: Locator, what: string) {
  const count = await buttons.count();
  expect(count, `${what}：没有找到操作按钮`).toBeGreaterThan(0);
  const hidden = await buttons.evaluateAll((els) =>
    els.flatMap((el, i) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right > window.innerWidth || r.left < 0) return [`#${i} ${el.textContent ?? el.getAttribute('aria-label')} x=${r.left}-${r.right}`];
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX === 'visible') continue;
        const c = p.getBoundingClientRect();
        if (r.left < c.left - 1 || r.right > c.right + 1) return [`#${i} ${el.textContent ?? el.getAttribute('aria-label')} 被 ${p.className} 裁切`];
      }
      return [];
    }),
  );
  expect(hidden, `${what}：操作按钮超出可视区域`).toEqual([]);
}

const rowActions = (table: Locator) => table.locator('td.cairn-col-actions').locator('button, a');

test('界面：未提供的功能如实标注，1440×900 下表格操作可见', async ({ page }) => {
  test.setTimeout(600_000);
  page.on('pageerror', (e) => console.log('页面错误', e.message));
  expect(page.viewportSize()).toEqual({ width: 1440, height: 900 });
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);

  // ---- navigation: screens not built yet are marked and not opened ----------------------------
  const nav = page.getByRole('navigation', { name: '主菜单' });
  await expect(nav).toBeVisible();
  const statistics = nav.getByRole('menuitem').filter({ hasText: /^统计/ }).first();
  await expect(statistics).toContainText('暂未提供');
  await expect(statistics).toHaveAttribute('aria-disabled', 'true');
  const before = page.url();
  await statistics.click({ force: true });
  expect(page.url()).toBe(before);
  await expect(page.getByRole('heading', { name: '建设中' })).toHaveCount(0);
  await page.screenshot({ path: shot('nav') });

  // ---- analysis modes the engine does not run cannot be ticked --------------------------------
  const subjectId = await createSubjectOnScreen(page, host.origin, '订单中心');
  await page.goto(`${host.origin}/#/project/newProject?subjectId=${subjectId}`);
  const modes = page.getByRole('group', { name: '分析方式' });
  for (const label of ['代码片段漏洞检测', '文件签名检测', '代码片段组件检测']) {
    const box = modes.getByRole('checkbox', { name: new RegExp(label) });
    await expect(box).toBeDisabled();
    await expect(box).not.toBeChecked();
  }
  await expect(modes.getByRole('checkbox', { name: '依赖分析' })).toBeEnabled();
  await expect(modes.getByRole('checkbox', { name: '敏感信息检测' })).toBeEnabled();
  await expect(modes.getByRole('checkbox', { name: '二进制检测' })).toBeEnabled();
  await expect(modes).toContainText('暂未提供');
  await page.screenshot({ path: shot('modes'), fullPage: true });

  // ---- settings nothing applies say so and cannot be saved ------------------------------------
  await page.goto(`${host.origin}/#/project/projectSettings/noticeSetup?subjectId=${subjectId}`);
  await expect(page.getByTestId('settings-not-applied')).toContainText('暂未提供');
  await expect(page.getByRole('button', { name: '保存' })).toBeDisabled();
  await page.screenshot({ path: shot('settings-notice') });
  await page.goto(`${host.origin}/#/project/projectSettings/defectManagement?subjectId=${subjectId}`);
  await expect(page.getByTestId('settings-not-applied')).toContainText('缺陷管理');
  await expect(page.getByRole('button', { name: '保存' })).toBeDisabled();

  // ---- an analysed project --------------------------------------------------------------------
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '0', file: zipPath, name: 'order-service-with-a-rather-long-project-name-for-the-list' });
  expect((await waitForRun(api, projectId)).status).toBe(2);

  // ---- task list ------------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/project/taskList?subjectId=${subjectId}`);
  const taskTable = page.locator('table.cairn-table').first();
  await expect(taskTable).toContainText('order-service');
  await expect(taskTable).toContainText('分析成功');
  await page.screenshot({ path: shot('task-list') });
  await expectWithinView(rowActions(taskTable), '任务列表');
  // every subject's projects: one more column (应用)
  await page.goto(`${host.origin}/#/project/taskList`);
  const allTasks = page.locator('table.cairn-table').first();
  await expect(allTasks).toContainText('订单中心');
  await page.screenshot({ path: shot('task-list-all') });
  await expectWithinView(rowActions(allTasks), '任务列表（全部应用）');

  // ---- task details ---------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  await expect(page.getByTestId('task-run')).toContainText('分析成功', { timeout: 30_000 });
  await page.waitForTimeout(800);
  // the tabs of the engines this version lacks carry the same mark as the menu
  await expect(page.getByRole('tab', { name: /^敏感信息/ })).not.toContainText('暂未提供');
  await expect(page.getByRole('tab', { name: /^代码片段/ })).toContainText('暂未提供');
  await page.screenshot({ path: shot('task-details') });
  await expectWithinView(page.locator('.cairn-page-actions button, .cairn-page-header button'), '任务详情页头');
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=component`);
  const components = page.getByTestId('component-table');
  await expect(components).toContainText(/werkzeug/i);
  await page.screenshot({ path: shot('task-components') });
  if ((await rowActions(components).count()) > 0) await expectWithinView(rowActions(components), '组件列表');
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=bug`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: shot('task-bugs') });

  // ---- the dependency tree's expanded rows, light and dark ------------------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=source&tree=dependence`);
  const tree = page.locator('.cairn-result-tree').first();
  await expect(tree).toBeVisible();
  const carets = tree.locator('.bp6-tree-node-caret-closed');
  await carets.first().click();
  await expect(tree.locator('.bp6-tree-node-expanded').first()).toBeVisible();
  await tree.locator('.bp6-tree-node-caret-closed').first().click();
  await page.waitForTimeout(600);
  await page.screenshot({ path: shot('tree-light') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400);
  await page.screenshot({ path: shot('tree-dark') });
  await page.emulateMedia({ colorScheme: 'light' });

  // ---- 报告管理 and the report library ---------------------------------------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  await page.getByRole('button', { name: '生成报告', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '生成报告' });
  await setBox(dialog.getByLabel('PDF（.pdf）'));
  await setBox(dialog.getByLabel('Excel（.xlsx）'));
  await dialog.getByRole('button', { name: '生成', exact: true }).click();
  await expect(page.getByText(/报告生成提交成功/).first()).toBeVisible();
  await expect
    .poll(async () => {
      const list = (await call<{ content: Array<{ status: number }> }>(api!, 'GET', `/api/report/list?page=1&size=50&projectId=${projectId}`)).content;
      return list.length >= 1 && list.every((r) => r.status === 2);
    }, { timeout: 180_000 })
    .toBe(true);
  await page.goto(`${host.origin}/#/project/report`);
  await expect(page.getByRole('heading', { name: '报告管理' })).toBeVisible();
  const reportTable = page.locator('table.cairn-table').first();
  await expect(reportTable.getByRole('button', { name: '下载' }).first()).toBeVisible();
  await page.screenshot({ path: shot('report-management') });
  await expectWithinView(rowActions(reportTable), '报告管理');
  for (const button of await reportTable.getByRole('button', { name: '下载' }).all()) await button.click();
  await expect
    .poll(async () => (await page.evaluate(() => window.desktop!.library.list({}))).ok, { timeout: 60_000 })
    .toBe(true);
  await page.goto(`${host.origin}/#/desktop/library`);
  await expect(page.getByRole('heading', { name: '报告库' })).toBeVisible();
  const library = page.getByTestId('library-table');
  await expect(library.getByRole('button', { name: '查看' }).first()).toBeEnabled({ timeout: 60_000 });
  await page.screenshot({ path: shot('library') });
  await expectWithinView(rowActions(library), '报告库');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${host.origin}/#/project/taskList?subjectId=${subjectId}`);
  await expect(page.locator('table.cairn-table').first()).toContainText('order-service');
  await page.screenshot({ path: shot('task-list-dark') });
});
