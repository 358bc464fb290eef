// 项目统计 (spec doc 1 §7 "Statistics (B)") on SQLite and PostgreSQL, over real analyses: the sample
// app in 应用 订单中心 (tags 核心,后端), its requirements and licence alone in 应用 支付中心 (version
// v1.0, tag 后端), and the sample app again in a 二进制检测 应用. Every call's figures are checked
// against the stored results read directly; the /api/binary/ twins count only the binary 应用; a
// user with the permission but none of these 应用 sees nothing and is told a named 应用 or project
// does not exist; no session and no permission are refused; bad filters get their messages.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskLevelCounts } from '../../../server/db/repositories/level-counts.ts';
import { signIn, databases, type TestClient, type TestServer } from './harness.ts';
import { sampleAppZip, startSampleServer, uploadFile, waitForRun } from './sample-app.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-statistics-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const VIEWER_ROLE = 94;
const LEVELS = [1, 2, 4, 8, 16] as const;

/** `<work>/pip.zip`: the sample's requirements.txt and its MIT LICENSE only. */
function pipZip(): string {
  sampleAppZip(work);
  const zip = path.join(work, 'pip.zip');
  execFileSync('zip', ['-qr', zip, 'pip', 'LICENSE'], { cwd: path.join(work, 'src') });
  return zip;
}

/** Today as YYYY-MM-DD, `offset` minutes east of UTC. */
const today = (offset: number) => new Date(Date.now() + offset * 60_000).toISOString().slice(0, 10);

describe.each(databases)('项目统计 on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let viewer: TestClient;
  let mallory: TestClient;
  let orderSubject: number;
  let paySubject: number;
  let version: number;
  let orderProject: number;
  let payProject: number;
  let releaseProject: number;
  const run: Record<'order' | 'pay' | 'release', number> = { order: 0, pay: 0, release: 0 };
  const summaryOf: Record<string, { components: number; vulnerabilities: number; byLevel: Record<string, number>; licenses: number }> = {};

  beforeAll(async () => {
    ({ server, admin, subjectId: orderSubject } = await startSampleServer(database, '订单中心'));
    const { db } = server.app.cairn;
    const pay = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '支付中心', description: '', importance: 3 } });
    paySubject = pay.body.data.id;
    const created = await admin.request({ method: 'POST', url: '/api/version/create', body: { subjectId: paySubject, name: 'v1.0' } });
    expect(created.body.code, created.body.message).toBe(1);
    version = created.body.data.id;
    const binary = await admin.request({ method: 'POST', url: '/api/binary/subject/create', body: { name: '订单中心发布包', description: '', importance: 3 } });
    expect(binary.body.code, binary.body.message).toBe(1);

    const launch = async (body: Record<string, unknown>, zip: string) => {
      const uploadId = await uploadFile(admin, zip);
      const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { ...body, uploadId } });
      expect(launched.body.code, launched.body.message).toBe(1);
      expect((await waitForRun(admin, launched.body.data.projectId)).status).toBe(2);
      return launched.body.data.projectId as number;
    };
    const zip = sampleAppZip(work);
    orderProject = await launch({ subjectId: orderSubject, projectName: 'order-src', getCodeType: 0, projectTags: '核心,后端' }, zip);
    payProject = await launch({ subjectId: paySubject, projectName: 'pay-src', getCodeType: 0, versionId: version, projectTags: '后端' }, pipZip());
    releaseProject = await launch({ subjectId: binary.body.data.id, projectName: 'order-release', getCodeType: 16 }, zip);
    for (const [key, projectId] of [['order', orderProject], ['pay', payProject], ['release', releaseProject]] as const) {
      const row = await db.selectFrom('runs').select(['id', 'summary']).where('project_id', '=', projectId).executeTakeFirstOrThrow();
      run[key] = row.id;
      summaryOf[key] = typeof row.summary === 'string' ? JSON.parse(row.summary) : row.summary;
    }

    const role = await db.insertInto('roles').values({ code: VIEWER_ROLE, name: '统计查看' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values(['statistic', 'statistic-project:license:list'].map((permission_code) => ({ role_id: role.id, permission_code }))).execute();
    ({ client: viewer } = await signIn(server, 'viewer', 'Viewer@123', [VIEWER_ROLE]));
    ({ client: mallory } = await signIn(server, 'mallory', 'Mallory@123'));
  }, 300_000);
  afterAll(async () => { await server?.close(); });

  const stat = async (client: TestClient, name: string, body: Record<string, unknown> = {}, binary = false) => {
    const reply = await client.request({ method: 'POST', url: `/api${binary ? '/binary' : ''}/statistic/project/${name}`, body });
    return reply;
  };
  const data = async (name: string, body: Record<string, unknown> = {}, binary = false) => {
    const reply = await stat(admin, name, body, binary);
    expect(reply.body.code, reply.body.message).toBe(1);
    return reply.body.data;
  };
  const merged = (runIds: number[]) => taskLevelCounts(server.app.cairn.db, runIds);
  /** Distinct purls of the runs' components not marked 误报, read directly. */
  const purls = async (runIds: number[]) => new Set((await server.app.cairn.db.selectFrom('run_components').select('purl').where('run_id', 'in', runIds).where('mark', '!=', 'F').execute()).map((r) => r.purl));

  it('sums up the source 应用 and, on the binary path, the binary one only', async () => {
    const both = await purls([run.order, run.pay]);
    const counts = await merged([run.order, run.pay]);
    const all = await data('summary');
    expect(all).toMatchObject({
      startDate: null, endDate: null, subjects: 2, projects: 2, analysedProjects: 2, runs: 2, succeededRuns: 2, failedRuns: 0,
      components: both.size, vulnerableComponents: counts.vulnerableComponents, byRisk: counts.byRisk,
      vulnerabilities: counts.vulnerabilities, byLevel: counts.byLevel, distinctVulnerabilities: counts.distinctVulnerabilities,
      unreviewed: counts.vulnerabilities, licenses: counts.licenses, licensesByLevel: counts.licensesByLevel,
    });
    // The pay project's input is part of the order project's: every package once.
    expect(both.size).toBe(summaryOf.order!.components);
    expect(all.vulnerabilities).toBeGreaterThan(0);

    const binary = await data('summary', {}, true);
    expect(binary).toMatchObject({ subjects: 1, projects: 1, analysedProjects: 1, runs: 1, components: summaryOf.release!.components, vulnerabilities: summaryOf.release!.vulnerabilities });

    expect(await data('summary', { subjectId: paySubject })).toMatchObject({ subjects: 1, projects: 1, components: summaryOf.pay!.components, vulnerabilities: summaryOf.pay!.vulnerabilities, licenses: summaryOf.pay!.licenses });
    expect(await data('summary', { projectIds: [orderProject] })).toMatchObject({ projects: 1, components: summaryOf.order!.components, vulnerabilities: summaryOf.order!.vulnerabilities });
    expect(await data('summary', { versionIds: [version] })).toMatchObject({ projects: 1, components: summaryOf.pay!.components });
    expect(await data('summary', { tags: ['核心'] })).toMatchObject({ projects: 1, components: summaryOf.order!.components });
    // A range without analyses: the projects are there, their figures are not.
    expect(await data('summary', { startDate: '2020-01-01', endDate: '2020-01-31' })).toMatchObject({
      startDate: '2020-01-01', endDate: '2020-01-31', projects: 2, analysedProjects: 0, runs: 0, components: 0, vulnerabilities: 0, licenses: 0,
    });
    expect(await data('summary', { startDate: today(480), utcOffset: 480 })).toMatchObject({ analysedProjects: 2, runs: 2 });
  });

  it('trends results by day in the caller\'s time zone', async () => {
    const trend = await data('results/date', { utcOffset: 480 });
    expect(trend.days).toHaveLength(30);
    expect(trend.endDate).toBe(today(480));
    const last = trend.days.at(-1);
    expect(last).toMatchObject({
      date: today(480), runs: 2, succeeded: 2, failed: 0,
      components: summaryOf.order!.components + summaryOf.pay!.components,
      vulnerabilities: summaryOf.order!.vulnerabilities + summaryOf.pay!.vulnerabilities,
    });
    for (const l of LEVELS) expect(last.byLevel[l]).toBe((summaryOf.order!.byLevel[l] ?? 0) + (summaryOf.pay!.byLevel[l] ?? 0));
    expect(trend.days.slice(0, -1).every((d: { runs: number }) => d.runs === 0)).toBe(true);
    const one = await data('results/date', { startDate: today(0), endDate: today(0) }, true);
    expect(one.days).toEqual([expect.objectContaining({ date: today(0), runs: 1, succeeded: 1, components: summaryOf.release!.components })]);
  });

  it('answers each version\'s figures and ranks the versions', async () => {
    const pay = await merged([run.pay]);
    const order = await merged([run.order]);
    const ofPay = await data('results/version', { subjectId: paySubject });
    expect(ofPay).toEqual([{
      versionId: version, versionName: 'v1.0', subjectId: paySubject, subjectName: '支付中心', projects: 1, analysedProjects: 1,
      components: pay.components, byRisk: pay.byRisk, vulnerabilities: pay.vulnerabilities, byLevel: pay.byLevel, licenses: pay.licenses,
    }]);
    const all = await data('results/version');
    expect(all).toHaveLength(2);
    expect(all.find((r: { versionId: number | null }) => r.versionId === null)).toMatchObject({ subjectName: '订单中心', projects: 1, components: order.components, vulnerabilities: order.vulnerabilities });
    const byComponents = await data('version/componentSorted', { size: 1 });
    expect(byComponents).toEqual([expect.objectContaining({ versionId: null, subjectId: orderSubject, components: order.components })]);
    const byVulns = await data('version/vulSorted');
    expect(byVulns.map((r: { vulnerabilities: number }) => r.vulnerabilities)).toEqual([order.vulnerabilities, pay.vulnerabilities].sort((a, b) => b - a));
    expect(await data('results/version', {}, true)).toEqual([expect.objectContaining({ versionId: null, subjectName: '订单中心发布包', projects: 1 })]);
  });

  it('lists the most used components and vulnerabilities', async () => {
    const { db } = server.app.cairn;
    const rows = await db.selectFrom('run_components').select(['run_id', 'purl', 'risk_level', 'name', 'version']).where('run_id', 'in', [run.order, run.pay]).where('mark', '!=', 'F').execute();
    const use = new Map<string, { runs: Set<number>; risk: number; name: string; version: string }>();
    for (const r of rows) {
      const u = use.get(r.purl) ?? { runs: new Set(), risk: 99, name: r.name, version: r.version };
      u.runs.add(r.run_id);
      u.risk = Math.min(u.risk, Number(r.risk_level));
      use.set(r.purl, u);
    }
    const byCode = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    const expected = [...use].sort(([pa, a], [pb, b]) => b.runs.size - a.runs.size || a.risk - b.risk || byCode(a.name.toLowerCase(), b.name.toLowerCase()) || byCode(a.version, b.version) || byCode(pa, pb))
      .slice(0, 5).map(([purl, u]) => ({ purl, projectCount: u.runs.size, riskLevel: u.risk }));
    const top = await data('componentSorted', { size: 5 });
    expect(top.map((r: { purl: string; projectCount: number; riskLevel: number }) => ({ purl: r.purl, projectCount: r.projectCount, riskLevel: r.riskLevel }))).toEqual(expected);
    expect(top[0].projectCount).toBe(2);
    expect(await data('componentSorted')).toHaveLength(Math.min(10, use.size));

    const findings = await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
      .select(['v.vul_id', 'v.run_id', 'v.level', 'c.purl']).where('v.run_id', 'in', [run.order, run.pay]).where('c.mark', '!=', 'F').execute();
    const vul = new Map<string, { runs: Set<number>; purls: Set<string>; level: number }>();
    for (const f of findings) {
      const v = vul.get(f.vul_id) ?? { runs: new Set(), purls: new Set(), level: 99 };
      v.runs.add(f.run_id);
      v.purls.add(f.purl);
      v.level = Math.min(v.level, Number(f.level));
      vul.set(f.vul_id, v);
    }
    const expectedVulns = [...vul].sort(([ia, a], [ib, b]) => b.runs.size - a.runs.size || a.level - b.level || b.purls.size - a.purls.size || byCode(ia, ib))
      .slice(0, 10).map(([vulId, v]) => ({ vulId, projectCount: v.runs.size, componentCount: v.purls.size, level: v.level }));
    const topVulns = await data('vulSorted');
    expect(topVulns.map((r: { vulId: string; projectCount: number; componentCount: number; level: number }) => ({ vulId: r.vulId, projectCount: r.projectCount, componentCount: r.componentCount, level: r.level }))).toEqual(expectedVulns);

    const marks = await data('vulMarkSorted');
    expect(marks).toEqual([{ mark: 0, count: findings.length, byLevel: expect.any(Object) }]);
    for (const l of LEVELS) expect(marks[0].byLevel[l]).toBe(findings.filter((f) => Number(f.level) === l).length);
    expect(findings.length).toBe(summaryOf.order!.vulnerabilities + summaryOf.pay!.vulnerabilities);
  });

  it('draws the distributions and ranks the projects', async () => {
    const counts = await merged([run.order, run.pay]);
    const components = await data('componentDistribute');
    expect(components).toMatchObject({ components: counts.components, byRisk: counts.byRisk });
    expect(components.ecosystems.map((e: { key: string }) => e.key).sort()).toEqual(expect.arrayContaining(['golang', 'maven', 'pypi']));
    expect(components.ecosystems.reduce((n: number, e: { count: number }) => n + e.count, 0)).toBe(counts.components);
    expect(await data('vulDistribute')).toEqual({ vulnerabilities: counts.vulnerabilities, byLevel: counts.byLevel, distinctVulnerabilities: counts.distinctVulnerabilities, unreviewed: counts.vulnerabilities });
    const licences = await data('licenseDistribute');
    expect(licences).toMatchObject({ licenses: counts.licenses, byLevel: counts.licensesByLevel });
    expect(licences.top.find((l: { spdxId: string }) => l.spdxId === 'MIT')).toMatchObject({ name: expect.any(String), projectCount: 2 });

    const projects = await data('compProSorted');
    expect(projects.map((r: { projectName: string; components: number; taskId: number }) => [r.projectName, r.components, r.taskId]))
      .toEqual([['order-src', summaryOf.order!.components, run.order], ['pay-src', summaryOf.pay!.components, run.pay]]);
    const vulns = await data('vulProSorted', { size: 1 });
    expect(vulns).toEqual([expect.objectContaining({ projectName: 'order-src', subjectName: '订单中心', vulnerabilities: summaryOf.order!.vulnerabilities })]);
    const licenceRanks = await data('licenseProSorted');
    expect(licenceRanks.map((r: { projectName: string; licenses: number }) => r.licenses).sort()).toEqual([summaryOf.order!.licenses, summaryOf.pay!.licenses].sort());
    expect((await data('compProSorted', {}, true)).map((r: { projectName: string }) => r.projectName)).toEqual(['order-release']);
  });

  it('trends analyses by status and project tag, and lists them', async () => {
    const trend = await data('TaskTagStatusTrend', { utcOffset: 480 });
    expect(trend.dates).toHaveLength(30);
    expect(trend.series).toEqual([{ status: 2, total: 2, counts: [...Array(29).fill(0), 2] }]);
    expect(trend.tags).toEqual([{ tag: '后端', runs: 2 }, { tag: '核心', runs: 1 }]);
    const core = await data('TaskTagStatusTrend', { utcOffset: 480, tags: ['核心'] });
    expect(core.series[0].total).toBe(1);
    expect(core.tags).toEqual(trend.tags);

    const list = await admin.request({ method: 'GET', url: '/api/statistic/project/taskList' });
    expect(list.body.code, list.body.message).toBe(1);
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.content.map((r: { projectName: string }) => r.projectName).sort()).toEqual(['order-src', 'pay-src']);
    expect(list.body.data.content.find((r: { projectName: string }) => r.projectName === 'pay-src')).toMatchObject({
      taskId: run.pay, subjectName: '支付中心', versionName: 'v1.0', seq: 1, status: 2, components: summaryOf.pay!.components, vulnerabilities: summaryOf.pay!.vulnerabilities,
    });
    const paged = await admin.request({ method: 'GET', url: `/api/statistic/project/taskList?page=2&size=1&projectIds=${orderProject},${payProject}` });
    expect(paged.body.data.total).toBe(2);
    expect(paged.body.data.content).toHaveLength(1);
    expect((await admin.request({ method: 'GET', url: '/api/statistic/project/taskList?status=3' })).body.data.total).toBe(0);
    expect((await admin.request({ method: 'GET', url: '/api/statistic/project/taskList?startDate=2020-01-01&endDate=2020-01-02' })).body.data.total).toBe(0);
    const binary = await admin.request({ method: 'GET', url: '/api/binary/statistic/project/taskList' });
    expect(binary.body.data.content.map((r: { projectName: string }) => r.projectName)).toEqual(['order-release']);
  });

  it('shows another user nothing and answers what they name as missing', async () => {
    expect(await stat(viewer, 'summary').then((r) => r.body.data)).toMatchObject({ subjects: 0, projects: 0, components: 0, vulnerabilities: 0 });
    for (const name of ['componentSorted', 'vulSorted', 'compProSorted', 'vulProSorted', 'licenseProSorted', 'results/version', 'vulMarkSorted']) {
      const reply = await stat(viewer, name);
      expect(reply.body.code, `${name}: ${reply.body.message}`).toBe(1);
      expect(reply.body.data, name).toEqual([]);
    }
    expect((await stat(viewer, 'results/date')).body.data.days.every((d: { runs: number }) => d.runs === 0)).toBe(true);
    expect((await viewer.request({ method: 'GET', url: '/api/statistic/project/taskList' })).body.data).toEqual({ content: [], total: 0 });
    const subject = await stat(viewer, 'summary', { subjectId: orderSubject });
    expect(subject.body.code).not.toBe(1);
    expect(subject.body).toMatchObject({ message: '项目（应用）不存在', data: null });
    const project = await stat(viewer, 'vulSorted', { projectIds: [orderProject] });
    expect(project.body.message).toBe('项目不存在');
    expect((await stat(viewer, 'summary', { versionIds: [version] })).body.message).toBe('版本不存在');
    const taskList = await viewer.request({ method: 'GET', url: `/api/statistic/project/taskList?projectIds=${payProject}` });
    expect(taskList.body.message).toBe('项目不存在');
    expect(JSON.stringify([subject.body, project.body, taskList.body])).not.toMatch(/order-src|pay-src|订单中心|支付中心/);
    // The other product's 应用 and projects do not exist on this path.
    expect((await stat(admin, 'summary', { subjectId: orderSubject }, true)).body.message).toBe('项目（应用）不存在');
    expect((await stat(admin, 'summary', { projectIds: [releaseProject] })).body.message).toBe('项目不存在');
    expect((await stat(admin, 'summary', { subjectId: paySubject, projectIds: [orderProject] })).body.message).toBe('项目不存在');
  });

  it('refuses without a session and without the permission', async () => {
    const anonymous = server.client();
    await anonymous.fetchCsrf();
    expect((await stat(anonymous, 'summary')).status).toBe(401);
    expect((await anonymous.request({ method: 'GET', url: '/api/binary/statistic/project/taskList' })).status).toBe(401);
    for (const name of ['summary', 'licenseDistribute', 'vulSorted']) {
      const reply = await stat(mallory, name, {}, name === 'vulSorted');
      expect(reply.status, name).toBe(403);
      expect(reply.body.code).not.toBe(1);
    }
    expect((await mallory.request({ method: 'GET', url: '/api/statistic/project/taskList' })).status).toBe(403);
  });

  it('refuses bad filters with their messages', async () => {
    const message = async (body: Record<string, unknown>, name = 'results/date') => (await stat(admin, name, body)).body.message;
    expect(await message({ startDate: '2024-03-01', endDate: '2024-02-01' })).toBe('开始日期不能晚于结束日期');
    expect(await message({ startDate: '2023-01-01', endDate: '2024-12-31' })).toBe('统计时间范围不能超过 366 天');
    expect(await message({ startDate: '2024-02-30' }, 'summary')).toBe('日期无效：2024-02-30');
    // A year-long range of a current-state figure is fine.
    expect((await stat(admin, 'summary', { startDate: '2023-01-01', endDate: '2024-12-31' })).body.code).toBe(1);
    for (const body of [{ projectIds: ['1 or 1=1'] }, { size: 0 }, { size: 101 }, { startDate: "2024-01-01' --" }, { utcOffset: 100000 }, { subjectId: -1 }, { tags: ['x'.repeat(101)] }, { projectIds: Array(501).fill(1) }]) {
      const reply = await stat(admin, 'vulSorted', body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await admin.request({ method: 'GET', url: '/api/statistic/project/taskList?projectIds=1;drop' })).status).toBe(400);
    expect((await admin.request({ method: 'GET', url: '/api/statistic/project/taskList?size=100000' })).status).toBe(400);
  });
});
