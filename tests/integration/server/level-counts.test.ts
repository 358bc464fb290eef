// One set of level counts everywhere (issue 14, item 2): after a custom level on one finding and a
// 误报 mark on another finding's component, the task header, the overview, the findings tab, the
// task list, the subject statistic, the home dashboard and the report model all give the same
// counts — and so does the next analysis, which carries the audit over (saved through the real
// writeRunResults path).
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, signIn, useServer, type TestClient } from './harness.ts';
import { seedRun, type SeededRun } from './fixtures/seed-run.ts';
import { writeRunResults, type RunResultRows } from '../../../server/db/repositories/run-results.ts';
import { refreshStaleRunLevels } from '../../../server/db/repositories/level-counts.ts';
import { buildReportModel } from '../../../server/reports/build-model.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';

interface Counts {
  components: number;
  vulnerableComponents: number;
  vulnerabilities: number;
  byLevel: Record<string, number>;
  byRisk: Record<string, number>;
  licenses: number;
  licensesByLevel: Record<string, number>;
}

const nonZero = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => Number(n) > 0));

describe.each(databases)('level counts on $name', (database) => {
  let member: TestClient;
  let seeded: SeededRun;
  const server = useServer(database);

  beforeAll(async () => {
    const signed = await signIn(server, 'sunli', 'Sun@12345');
    member = signed.client;
    seeded = await seedRun(server.app.cairn.db, { ownerId: signed.id, subjectName: '计数一致性', projectName: 'counts-app' });
  });

  const get = async (url: string) => {
    const r = await member.request({ method: 'GET', url });
    expect(r.body.code, `${url}: ${r.body.message}`).toBe(1);
    return r.body.data;
  };
  const post = async (url: string, body: unknown) => {
    const r = await member.request({ method: 'POST', url, body });
    expect(r.body.code, `${url}: ${r.body.message}`).toBe(1);
    return r.body.data;
  };

  /** The counts from every call that returns them, one per source. */
  async function everySource(runId: number): Promise<Record<string, Partial<Counts>>> {
    const db = server.app.cairn.db;
    const header = (await get(`/api/project-task-view/${seeded.projectId}?taskId=${runId}`)).run.counts;
    const overview = await get(`/api/project-task-view/info/${seeded.projectId}/0?taskId=${runId}`);
    const tab = await get(`/api/vulnerability/list/statistic/${seeded.projectId}?taskId=${runId}&size=50`);
    const tasks = await post('/api/project-task-view/list?page=1&size=50', {});
    const row = tasks.content.find((t: { projectId: number }) => t.projectId === seeded.projectId);
    expect(row.resultTaskId).toBe(runId);
    const subject = await post('/api/subject/component/statistic', { subjectId: seeded.subjectId });
    const home = await get('/api/home-page/component/statistics');
    const tool = { name: 'Cairn', version: 'test' };
    const report = (await buildReportModel(db, { kind: 'task', runIds: [runId], author: 'sunli', tool })).summary;
    const subjectReport = (await buildReportModel(db, { kind: 'subject', runIds: [runId], subjectId: seeded.subjectId, author: 'sunli', tool })).summary;
    const sum = (levels: Record<string, number>) => Object.values(levels).reduce((a, b) => a + Number(b), 0);
    return {
      header: { components: header.components, vulnerableComponents: header.vulnerableComponents, vulnerabilities: header.vulnerabilities, byLevel: nonZero(header.byLevel), licenses: header.licenses },
      overview: {
        components: overview.components.total, vulnerableComponents: overview.components.vulnerable, byRisk: nonZero(overview.components.byRisk),
        vulnerabilities: overview.vulnerabilities.total, byLevel: nonZero(overview.vulnerabilities.byLevel),
        licenses: overview.licenses.total, licensesByLevel: nonZero(overview.licenses.byLevel),
      },
      findingsTab: { vulnerabilities: tab.total, byLevel: nonZero(tab.counts) },
      taskList: {
        components: row.summary.components, vulnerableComponents: row.summary.vulnerableComponents, vulnerabilities: row.summary.vulnerabilities,
        byLevel: nonZero(row.summary.byLevel), byRisk: nonZero(row.summary.byRisk), licenses: row.summary.licenses, licensesByLevel: nonZero(row.summary.licensesByLevel),
      },
      subjectStatistic: { components: subject.components, vulnerableComponents: subject.vulnerableComponents, byRisk: nonZero(subject.byRisk), vulnerabilities: sum(subject.vulnerabilities), byLevel: nonZero(subject.vulnerabilities) },
      home: {
        components: home.components, vulnerableComponents: home.vulnerableComponents, byRisk: nonZero(home.byRisk),
        vulnerabilities: sum(home.vulnerabilities), byLevel: nonZero(home.vulnerabilities), licenses: sum(home.licenses), licensesByLevel: nonZero(home.licenses),
      },
      report: {
        components: report.components, vulnerabilities: report.vulnerabilities, byLevel: nonZero(report.vulnerabilityLevels), byRisk: nonZero(report.componentRisks),
        licenses: report.licenses, licensesByLevel: nonZero(report.licenseLevels),
      },
      subjectReport: { components: subjectReport.components, vulnerabilities: subjectReport.vulnerabilities, byLevel: nonZero(subjectReport.vulnerabilityLevels), byRisk: nonZero(subjectReport.componentRisks) },
    };
  }

  function expectAll(sources: Record<string, Partial<Counts>>, expected: Counts) {
    for (const [source, counts] of Object.entries(sources)) {
      const wanted = Object.fromEntries(Object.keys(counts).map((k) => [k, expected[k as keyof Counts]]));
      expect({ source, ...counts }).toEqual({ source, ...wanted });
    }
  }

  it('gives the same counts from every call, after a custom level and a 误报 mark, and after re-analysis', async () => {
    const db = server.app.cairn.db;
    const seededLicenceLevels = async (ids: string[]) => {
      const known = new Map((await db.selectFrom('licenses').select(['spdx_id', 'level']).where('spdx_id', 'in', ids).execute()).map((l) => [l.spdx_id, Number(l.level)]));
      const out: Record<string, number> = {};
      for (const id of ids) { const level = known.get(id) ?? 16; out[level] = (out[level] ?? 0) + 1; }
      return out;
    };
    // As analysed: 11 components, 5 findings (2 critical, 2 high, 1 moderate), 4 licences.
    const before: Counts = {
      components: 11, vulnerableComponents: 3, vulnerabilities: 5, byLevel: { 1: 2, 2: 2, 4: 1 }, byRisk: { 1: 1, 2: 2, 32: 7, 64: 1 },
      licenses: 4, licensesByLevel: await seededLicenceLevels(['MIT', 'BSD-3-Clause', 'Apache-2.0', 'GPL-3.0-only']),
    };
    // The fixture writes rows directly, as a run saved before these counts: start-up refreshes it once.
    expect(await refreshStaleRunLevels(db)).toBeGreaterThanOrEqual(1);
    expect(await refreshStaleRunLevels(db)).toBe(0);
    expectAll(await everySource(seeded.runId), before);

    // lodash's high finding becomes low by hand; qs (one high finding, the only BSD-3-Clause) is a false positive.
    await post('/api/mark/vulnerability/source', {
      projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.findings['CVE-2021-23337']], mark: 1, remark: '仅构建期使用', customLevel: 8, levelRemark: '不可被外部触发',
    });
    await post('/api/mark/component/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.components.qs], mark: 'F', remark: '未被打包' });
    const after: Counts = {
      components: 10, vulnerableComponents: 2, vulnerabilities: 4, byLevel: { 1: 2, 4: 1, 8: 1 }, byRisk: { 1: 1, 4: 1, 32: 7, 64: 1 },
      licenses: 3, licensesByLevel: await seededLicenceLevels(['MIT', 'Apache-2.0', 'GPL-3.0-only']),
    };
    expectAll(await everySource(seeded.runId), after);
    // The component list still shows qs, with its mark, and lodash rated by its remaining findings.
    const list = await post(`/api/component/list/${seeded.projectId}?size=50`, {});
    expect(list.total).toBe(11);
    expect(list.content.find((c: { name: string }) => c.name === 'qs')).toMatchObject({ mark: 'F' });
    expect(list.content.find((c: { name: string }) => c.name === 'lodash')).toMatchObject({ riskLevel: 4, vulCount: 2, vulLevels: { 2: 0, 4: 1, 8: 1 } });

    // Undoing the mark brings qs back everywhere at once.
    await post('/api/mark/component/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.components.qs], mark: 'N', remark: '' });
    expect((await get(`/api/project-task-view/${seeded.projectId}`)).run.counts).toMatchObject({ components: 11, vulnerabilities: 5, byLevel: { 1: 2, 2: 1, 4: 1, 8: 1 } });
    await post('/api/mark/component/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.components.qs], mark: 'F', remark: '未被打包' });

    // Re-analysis: the same inventory saved as a new run, with the knowledge base's levels; the
    // retained audit (custom level, 误报) gives the same counts from every call.
    const user = await db.selectFrom('users').select('id').where('username', '=', 'sunli').executeTakeFirstOrThrow();
    const run = await db.insertInto('runs').values({
      project_id: seeded.projectId, seq: 2, status: TASK_STATUS.ANALYSING, stage: 'saving', progress: 90, message: '', trigger: 'manual', analysis_modes: '1',
      queued_at: new Date().toISOString(), started_at: new Date().toISOString(), worker: 'test-worker', created_by: user.id, outbound_license: 'Apache-2.0',
    }).returning('id').executeTakeFirstOrThrow();
    await db.updateTable('projects').set({ last_run_id: run.id, status: TASK_STATUS.ANALYSING }).where('id', '=', seeded.projectId).execute();
    const saved = await writeRunResults(db, { id: run.id, project_id: seeded.projectId }, 'test-worker', await rowsOf(seeded.runId), {
      message: '分析完成', summary: { files: 9, components: 11, vulnerabilities: 5, byLevel: { 1: 2, 2: 2, 4: 1, 8: 0, 16: 0 } }, problems: [], outboundLicense: 'Apache-2.0', outboundSource: 'project', outboundFile: null,
    }, true);
    expect(saved).toBe(true);
    expectAll(await everySource(run.id), after);
    expect((await get(`/api/project-task-view/${seeded.projectId}`)).run).toMatchObject({ id: run.id, seq: 2, counts: { components: 10 } });
    // Each finding says which source set its level ('' when the source was not recorded).
    const critical = await get(`/api/vulnerability/list/statistic/${seeded.projectId}?level=1`);
    expect(critical.content.map((f: { cve: string; severitySource: string }) => [f.cve, f.severitySource]).sort())
      .toEqual([['CVE-2021-44228', 'CVSS:3.1 NVD 10.0'], ['CVE-2021-45046', '']]);
  });

  /** A run's rows as an analysis would save them: the knowledge base's levels, no audit. */
  async function rowsOf(runId: number): Promise<RunResultRows> {
    const db = server.app.cairn.db;
    const components = await db.selectFrom('run_components').selectAll().where('run_id', '=', runId).orderBy('id').execute();
    const purlOf = new Map(components.map((c) => [c.id, c.purl]));
    const findings = await db.selectFrom('run_vulnerabilities').selectAll().where('run_id', '=', runId).orderBy('id').execute();
    const licences = await db.selectFrom('run_licenses').selectAll().where('run_id', '=', runId).orderBy('id').execute();
    const edges = await db.selectFrom('run_edges').selectAll().where('run_id', '=', runId).execute();
    return {
      components: components.map(({ id: _id, run_id: _run, mark: _mark, mark_remark: _remark, ...c }) => ({ ...c, direct: Number(c.direct) })),
      edges: edges.map((e) => ({ parent: e.parent_id === null ? null : purlOf.get(e.parent_id)!, child: purlOf.get(e.child_id)! })),
      findings: findings.map(({ id: _id, run_id: _run, component_id, mark: _m, mark_remark: _mr, vex: _v, vex_remark: _vr, level_remark: _lr, level: _level, ...f }) => ({
        // The matcher records which source set each level (severity.ts).
        ...f, level: f.original_level, purl: purlOf.get(component_id)!, severity_source: f.cve === 'CVE-2021-44228' ? 'CVSS:3.1 NVD 10.0' : '',
      })),
      files: [],
      licences: licences.map(({ id: _id, run_id: _run, component_id, ...l }) => ({ ...l, purl: component_id === null ? null : purlOf.get(component_id)! })),
      copyrights: [],
      leaks: [],
    };
  }
});
