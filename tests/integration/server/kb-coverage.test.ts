// Knowledge-base status and never a false all-clear (issue 14 item 1), on both databases: a run
// analysed with an empty knowledge base is incomplete with its reasons; after importing OSV data
// for some of its ecosystems a re-analysis names only the ones still missing, and once all are
// there it is complete. The status call counts sources and ecosystems, any signed-in user reads
// it, and an administrator's stale threshold (over CAIRN_KB_STALE_DAYS, over 30) flags an old
// knowledge base on the status and on the next run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledge } from '../../../server/kb/import.ts';
import { staleThreshold } from '../../../server/kb/status.ts';
import { buildReportModel } from '../../../server/reports/build-model.ts';
import { adminClient, databases, signIn, startServer, type TestClient, type TestServer } from './harness.ts';
import { CORPORA, sampleAppZip, uploadFile, waitForRun } from './sample-app.ts';

const DAY = 24 * 60 * 60 * 1000;

/** One OSV Maven advisory (for a package the sample app does not use: only the ecosystem matters here). */
const MAVEN_ADVISORY = {
  schema_version: '1.6.0',
  id: 'GHSA-test-mvn0-0001',
  modified: new Date().toISOString(),
  published: '2024-01-01T00:00:00Z',
  aliases: ['CVE-2099-0001'],
  summary: 'Test advisory',
  affected: [{ package: { ecosystem: 'Maven', name: 'org.example:unused' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.0.1' }] }] }],
};

describe.each(databases)('knowledge-base status and run coverage on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestClient;
  let work: string;
  let projectId: number;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cairn-coverage-'));
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
    ({ client: user } = await signIn(server, 'reader', 'Reader@1234'));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const status = async (client: TestClient = admin) => {
    const reply = await client.request({ method: 'GET', url: '/api/vulnerability/system/kb/status' });
    expect(reply.body.code, reply.body.message).toBe(1);
    return reply.body.data;
  };
  const runOf = async () => (await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` })).body.data.run;
  const reanalyse = async () => {
    const relaunched = await admin.request({ method: 'PUT', url: '/api/analysis', body: { taskId: projectId } });
    expect(relaunched.body.code, relaunched.body.message).toBe(1);
    expect((await waitForRun(admin, projectId)).status).toBe(2);
    return runOf();
  };

  it('says an empty knowledge base is empty, to any signed-in user', async () => {
    const s = await status(user);
    expect(s).toMatchObject({ total: 0, empty: true, stale: false, lastUpdate: null, ecosystems: [], staleDays: 30, staleDaysSource: 'default' });
    expect(s.message).toContain('知识库为空');
    expect(s.sources.map((x: { kind: string }) => x.kind)).toEqual(['osv', 'nvd', 'trivy', 'id-map', 'sync', 'custom']);
  });

  it('records a run analysed with an empty knowledge base as incomplete, with the reason', async () => {
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '覆盖测试', description: '', importance: 3 } });
    const uploadId = await uploadFile(admin, sampleAppZip(work));
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId: created.body.data.id, projectName: 'coverage-app', getCodeType: 0, uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    projectId = launched.body.data.projectId;
    expect((await waitForRun(admin, projectId)).status).toBe(2);
    const run = await runOf();
    expect(run.coverage).toMatchObject({ complete: false, empty: true, reasons: ['知识库中没有任何漏洞数据（尚未导入），未能检查组件的漏洞'] });
    expect(run.coverage.uncovered.map((u: { ecosystem: string }) => u.ecosystem).sort()).toEqual(['golang', 'maven', 'pypi']);
    expect(run.coverage.uncoveredComponents).toBe(run.counts.components);
    expect(run.coverage.uncoveredNoVulnerability).toBeGreaterThan(0);
    expect(run.coverage.uncoveredNoVulnerability).toBeLessThanOrEqual(run.coverage.uncoveredComponents);
    // The task list carries it in the run summary.
    const list = await admin.request({ method: 'POST', url: '/api/project-task-view/list', body: {} });
    expect(list.body.data.content.find((r: { projectId: number }) => r.projectId === projectId).summary.coverage.complete).toBe(false);
    // Its report model says so in words, and its components are not covered.
    const model = await buildReportModel(server.app.cairn.db, { kind: 'task', runIds: [run.id], author: 'admin', tool: { name: 'Cairn', version: 'test' } });
    expect(model.coverage.complete).toBe(false);
    expect(model.coverage.headline).toBe('漏洞结果不完整：知识库中没有任何漏洞数据（尚未导入），未能检查组件的漏洞');
    expect(model.components.every((c) => !c.covered)).toBe(true);
    // So does the dashboard, in words.
    const home = await admin.request({ method: 'GET', url: '/api/home-page/component/statistics' });
    expect(home.body.data.incomplete).toEqual({ projects: 1, examples: [{ projectId, projectName: 'coverage-app', reasons: run.coverage.reasons }] });
  }, 120_000);

  it('counts sources and ecosystems after imports, and names only the ecosystems still missing', async () => {
    const { db } = server.app.cairn;
    await importKnowledge(db, path.join(CORPORA, 'advisories/go'));
    await importKnowledge(db, path.join(CORPORA, 'advisories/pypi'));
    const s = await status();
    expect(s.empty).toBe(false);
    expect(s.stale).toBe(false);
    expect(s.ageDays).toBe(0);
    const osv = s.sources.find((x: { kind: string }) => x.kind === 'osv');
    expect(osv.count).toBe(s.total);
    expect(osv.lastImportAt).not.toBeNull();
    expect(s.ecosystems.map((e: { ecosystem: string }) => e.ecosystem).sort()).toEqual(['golang', 'pypi']);
    const row = await db.selectFrom('kb_advisories').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(s.total).toBe(Number(row.n));
    expect(s.message).toMatch(/^知识库正常：共 [\d,]+ 条漏洞，覆盖 2 个生态$/);

    const run = await reanalyse();
    expect(run.coverage).toMatchObject({ complete: false, empty: false, stale: false });
    expect(run.coverage.uncovered.map((u: { ecosystem: string }) => u.ecosystem)).toEqual(['maven']);
    expect(run.coverage.reasons[0]).toMatch(/^知识库中没有 maven 生态的漏洞数据（\d+ 个组件未覆盖）$/);
  }, 120_000);

  it('is complete once every ecosystem has advisories', async () => {
    const file = path.join(work, 'GHSA-test-mvn0-0001.json');
    writeFileSync(file, JSON.stringify(MAVEN_ADVISORY));
    await importKnowledge(server.app.cairn.db, file);
    expect((await status()).ecosystems.map((e: { ecosystem: string }) => e.ecosystem)).toContain('maven');
    const run = await reanalyse();
    expect(run.coverage).toMatchObject({ complete: true, uncovered: [], uncoveredComponents: 0, uncoveredNoVulnerability: 0, reasons: [] });
    const model = await buildReportModel(server.app.cairn.db, { kind: 'task', runIds: [run.id], author: 'admin', tool: { name: 'Cairn', version: 'test' } });
    expect(model.coverage).toEqual({ complete: true, headline: null, reasons: [], uncoveredComponents: 0 });
    expect(model.components.every((c) => c.covered)).toBe(true);
    const home = await admin.request({ method: 'GET', url: '/api/home-page/component/statistics' });
    expect(home.body.data.incomplete).toEqual({ projects: 0, examples: [] });
  }, 120_000);

  it('flags a knowledge base older than the threshold, which only an administrator sets', async () => {
    const { db } = server.app.cairn;
    const old = new Date(Date.now() - 45 * DAY).toISOString();
    await db.updateTable('kb_import_records').set({ finished_at: old }).execute();
    await db.updateTable('kb_advisories').set({ updated_at: old }).execute();
    let s = await status();
    expect(s).toMatchObject({ stale: true, ageDays: 45, staleDays: 30 });
    expect(s.message).toContain('知识库已 45 天未更新');

    const refused = await user.request({ method: 'POST', url: '/api/vulnerability/system/kb/settings', body: { staleDays: 60 } });
    expect(refused.body.code).toBe(0);
    expect((await admin.request({ method: 'POST', url: '/api/vulnerability/system/kb/settings', body: { staleDays: 0 } })).status).toBe(400);
    const saved = await admin.request({ method: 'POST', url: '/api/vulnerability/system/kb/settings', body: { staleDays: 60 } });
    expect(saved.body).toMatchObject({ code: 1, data: { stale: false, staleDays: 60, staleDaysSource: 'setting' } });
    const audited = await db.selectFrom('audit_log').select('detail').where('action', '=', 'knowledge.staleDays.modified').execute();
    expect(audited.map((r) => JSON.parse(r.detail))).toEqual([{ from: 30, to: 60 }]);

    await admin.request({ method: 'POST', url: '/api/vulnerability/system/kb/settings', body: { staleDays: 40 } });
    s = await status();
    expect(s.stale).toBe(true);
    const run = await reanalyse();
    expect(run.coverage).toMatchObject({ complete: false, stale: true, ageDays: 45, staleDays: 40, reasons: ['知识库已 45 天未更新（超过 40 天）'] });
  }, 120_000);

  it('takes the threshold from CAIRN_KB_STALE_DAYS when no administrator set one', async () => {
    const { db } = server.app.cairn;
    await db.deleteFrom('settings').where('key', '=', 'kb_stale_days').execute();
    expect(await staleThreshold(db, { CAIRN_KB_STALE_DAYS: '7' })).toEqual({ days: 7, source: 'env' });
    expect(await staleThreshold(db, { CAIRN_KB_STALE_DAYS: 'soon' })).toEqual({ days: 30, source: 'default' });
  });
});
