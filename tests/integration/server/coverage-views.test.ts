// Never a false all-clear where results are listed (issue 14 item 1), on both databases, from the
// coverage record a run keeps in its summary: the component list's 无漏洞 filter leaves out the
// components shown 未覆盖 and its 未覆盖 choice lists exactly them; the dashboard's risk figures
// count 未覆盖 apart from 无漏洞 (a package once, 未覆盖 only when no latest run covered it); and the
// task list carries the counts and coverage of the run whose results a row shows, not of a newer
// failed run.
import { beforeAll, describe, expect, it } from 'vitest';
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import { databases, signIn, useServer, type TestClient } from './harness.ts';
import { seedRun, type SeededRun } from './fixtures/seed-run.ts';

/** A coverage record as kb/status.ts runCoverage writes it. */
function coverageOf(uncovered: Array<{ ecosystem: string; components: number }>, empty = false): KbCoverage {
  const count = uncovered.reduce((n, u) => n + u.components, 0);
  return {
    complete: !empty && !uncovered.length, empty, stale: false, staleDays: 30, lastUpdate: '2026-11-01T00:00:00.000Z', ageDays: 0,
    uncovered, uncoveredComponents: count, uncoveredNoVulnerability: 0,
    reasons: empty ? ['知识库中没有任何漏洞数据（尚未导入），未能检查组件的漏洞']
      : uncovered.length ? [`知识库中没有 ${uncovered.map((u) => u.ecosystem).join('、')} 生态的漏洞数据（${count} 个组件未覆盖）`] : [],
    checkedAt: '2026-11-01T09:03:00.000Z',
  };
}

/** The seeded product's maven and pypi components (log4j-core, log4j-api, pyqt5) left out. */
const MAVEN_PYPI = coverageOf([{ ecosystem: 'maven', components: 2 }, { ecosystem: 'pypi', components: 1 }]);

describe.each(databases)('coverage in lists and figures on $name', (database) => {
  let member: TestClient;
  let ownerId: number;
  let seeded: SeededRun;
  const server = useServer(database);

  beforeAll(async () => {
    const signed = await signIn(server, 'zhouyu', 'Zhou@12345');
    member = signed.client;
    ownerId = signed.id;
    seeded = await seedRun(server.app.cairn.db, { ownerId, subjectName: '覆盖筛选', projectName: 'coverage-filter-app' });
    await setCoverage(seeded.runId, MAVEN_PYPI);
  });

  async function setCoverage(runId: number, coverage: KbCoverage | null) {
    const db = server.app.cairn.db;
    const run = await db.selectFrom('runs').select('summary').where('id', '=', runId).executeTakeFirstOrThrow();
    const { coverage: _old, ...summary } = JSON.parse(run.summary) as { coverage?: KbCoverage };
    await db.updateTable('runs').set({ summary: JSON.stringify(coverage ? { ...summary, coverage } : summary) }).where('id', '=', runId).execute();
  }
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await member.request({ method, url, ...(body === undefined ? {} : { body }) });
    expect(r.body.code, `${url}: ${r.body.message}`).toBe(1);
    return r.body.data;
  };
  /** The names the component list gives under a filter, sorted, with its total. */
  const names = async (filter: Record<string, unknown>) => {
    const page = await call('POST', `/api/component/list/${seeded.projectId}?size=50`, filter);
    const list = page.content.map((c: { name: string }) => c.name).sort();
    expect(page.total).toBe(list.length);
    return list;
  };
  const NPM_CLEAN = ['body-parser', 'debug', 'express', 'jest', 'ms'];
  const NOT_COVERED = ['org.apache.logging.log4j:log4j-api', 'pyqt5'];

  it('filters 无漏洞 without the components shown 未覆盖, and 未覆盖 to exactly them', async () => {
    expect(await names({})).toHaveLength(11);
    expect(await names({ riskLevels: [32] })).toEqual(NPM_CLEAN);
    expect(await names({ notCovered: true })).toEqual(NOT_COVERED);
    expect(await names({ notCovered: false })).toHaveLength(11);
    // 未覆盖 is one more choice of the risk filter: either matches.
    expect(await names({ riskLevels: [32], notCovered: true })).toEqual([...NPM_CLEAN, ...NOT_COVERED].sort());
    expect(await names({ riskLevels: [1], notCovered: true })).toEqual(['org.apache.logging.log4j:log4j-api', 'org.apache.logging.log4j:log4j-core', 'pyqt5']);
    // Other risks of an uncovered ecosystem stay what they are; other filters still apply.
    expect(await names({ riskLevels: [1] })).toEqual(['org.apache.logging.log4j:log4j-core']);
    expect(await names({ notCovered: true, ecosystems: ['pypi'] })).toEqual(['pyqt5']);
    expect(await names({ notCovered: true, keyword: 'log4j' })).toEqual(['org.apache.logging.log4j:log4j-api']);
    // Version unknown (64) is never 未覆盖.
    expect(await names({ riskLevels: [64] })).toEqual(['left-pad']);
    // The overview's risk chart counts the same components apart; one marked 误报 leaves the count, not the list.
    const overview = () => call('GET', `/api/project-task-view/info/${seeded.projectId}/0?taskId=${seeded.runId}`);
    expect((await overview()).components).toMatchObject({ notCovered: 2, byRisk: { 32: 5 + 2 } });
    const db = server.app.cairn.db;
    await db.updateTable('run_components').set({ mark: 'F' }).where('id', '=', seeded.components['pyqt5']!).execute();
    expect((await overview()).components).toMatchObject({ notCovered: 1, byRisk: { 32: 5 + 1 } });
    expect(await names({ notCovered: true })).toEqual(NOT_COVERED);
    await db.updateTable('run_components').set({ mark: 'N' }).where('id', '=', seeded.components['pyqt5']!).execute();
  });

  it('takes every 无漏洞 as 未覆盖 under an empty knowledge base, and none without a coverage record', async () => {
    await setCoverage(seeded.runId, coverageOf([{ ecosystem: 'npm', components: 8 }, { ecosystem: 'maven', components: 2 }, { ecosystem: 'pypi', components: 1 }], true));
    expect(await names({ riskLevels: [32] })).toEqual([]);
    expect(await names({ notCovered: true })).toEqual([...NPM_CLEAN, ...NOT_COVERED].sort());
    await setCoverage(seeded.runId, null);
    expect(await names({ riskLevels: [32] })).toEqual([...NPM_CLEAN, ...NOT_COVERED].sort());
    expect(await names({ notCovered: true })).toEqual([]);
    await setCoverage(seeded.runId, MAVEN_PYPI);
  });

  it('counts 未覆盖 apart on the dashboard, a package once and only when no latest run covered it', async () => {
    let home = await call('GET', '/api/home-page/component/statistics');
    expect(home.byRisk['32']).toBe(7);
    expect(home.notCovered).toBe(2);
    expect(home.incomplete.projects).toBe(1);

    // A second project with the same packages; its run covered maven but not pypi.
    const other = await seedRun(server.app.cairn.db, { ownerId, subjectName: '覆盖筛选二', projectName: 'coverage-filter-other' });
    await setCoverage(other.runId, coverageOf([{ ecosystem: 'pypi', components: 1 }]));
    home = await call('GET', '/api/home-page/component/statistics');
    expect(home.components).toBe(11);
    expect(home.byRisk['32']).toBe(7);
    expect(home.notCovered).toBe(1);
    expect(home.incomplete.projects).toBe(2);

    // Marked 误报 in the run that left it uncovered, pyqt5 is counted from the other run alone: still 未覆盖.
    await server.app.cairn.db.updateTable('run_components').set({ mark: 'F' }).where('id', '=', seeded.components['pyqt5']!).execute();
    expect((await call('GET', '/api/home-page/component/statistics')).notCovered).toBe(1);
    await server.app.cairn.db.updateTable('run_components').set({ mark: 'N' }).where('id', '=', seeded.components['pyqt5']!).execute();

    // Once that project's run covered everything, nothing is 未覆盖 across both.
    await setCoverage(other.runId, coverageOf([]));
    home = await call('GET', '/api/home-page/component/statistics');
    expect(home.notCovered).toBe(0);
    expect(home.byRisk['32']).toBe(7);
  });

  it('lists the counts and coverage of the run whose results a task row shows, not of a newer failed run', async () => {
    const db = server.app.cairn.db;
    const row = async () => (await call('POST', '/api/project-task-view/list?page=1&size=50', {})).content
      .find((r: { projectId: number }) => r.projectId === seeded.projectId);
    let r = await row();
    expect(r.resultTaskId).toBe(seeded.runId);
    expect(r.resultSummary).toEqual(r.summary);
    expect(r.resultSummary.coverage).toMatchObject({ complete: false, uncovered: MAVEN_PYPI.uncovered });

    const now = new Date().toISOString();
    const failed = await db.insertInto('runs').values({
      project_id: seeded.projectId, seq: 2, status: 3, stage: 'done', progress: 100, message: '分析失败：解压失败', trigger: 'manual', analysis_modes: '1',
      queued_at: now, started_at: now, finished_at: now, outbound_license: null, created_by: ownerId, summary: '{}', problems: '[]',
    }).returning('id').executeTakeFirstOrThrow();
    await db.updateTable('projects').set({ last_run_id: failed.id, status: 3 }).where('id', '=', seeded.projectId).execute();
    r = await row();
    expect(r.taskId).toBe(failed.id);
    expect(r.status).toBe(3);
    expect(r.summary).toEqual({});
    expect(r.resultTaskId).toBe(seeded.runId);
    expect(r.resultSummary.components).toBe(11);
    expect(r.resultSummary.byLevel).toMatchObject({ 1: 2, 2: 2, 4: 1 });
    expect(r.resultSummary.coverage).toMatchObject({ complete: false, uncovered: MAVEN_PYPI.uncovered });

    // A project never analysed successfully has no result summary.
    await db.updateTable('runs').set({ status: 3 }).where('id', '=', seeded.runId).execute();
    r = await row();
    expect(r.resultTaskId).toBeNull();
    expect(r.resultSummary).toEqual({});
    await db.updateTable('runs').set({ status: 2 }).where('id', '=', seeded.runId).execute();
  });
});
