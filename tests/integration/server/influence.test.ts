// 组件/漏洞/许可证影响 per product on SQLite and PostgreSQL: the same upload analysed in a 源码检测
// 应用 and in a 二进制检测 应用; POST /api/component/influence/{id} answers the source projects that use
// a component version, /api/binary/influence/version/{id} the binary ones (`{id}` a purl, without a
// version every version, or a component row id), /api/binary/influence/vulnerability/{id} and
// /license/{id} the binary projects a flaw or a licence turns up in. Another user sees none of them,
// and a component row id of theirs is answered as a missing one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, databases, type TestClient, type TestServer } from './harness.ts';
import { sampleAppZip, startSampleServer, uploadFile, waitForRun } from './sample-app.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-influence-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(databases)('影响 per product on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let mallory: TestClient;
  let sourceProject: number;
  let binaryProject: number;

  beforeAll(async () => {
    let sourceSubject: number;
    ({ server, admin, subjectId: sourceSubject } = await startSampleServer(database, '订单中心'));
    ({ client: mallory } = await signIn(server, 'mallory', 'Mallory@123'));
    const binary = await admin.request({ method: 'POST', url: '/api/binary/subject/create', body: { name: '订单中心发布包', description: '', importance: 3 } });
    expect(binary.body.code, binary.body.message).toBe(1);
    const zip = sampleAppZip(work);
    const launch = async (subjectId: number, projectName: string, getCodeType: number) => {
      const uploadId = await uploadFile(admin, zip);
      const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType, uploadId } });
      expect(launched.body.code, launched.body.message).toBe(1);
      expect((await waitForRun(admin, launched.body.data.projectId)).status).toBe(2);
      return launched.body.data.projectId as number;
    };
    sourceProject = await launch(sourceSubject, 'order-src', 0);
    binaryProject = await launch(binary.body.data.id, 'order-release', 16);
  }, 240_000);
  afterAll(async () => { await server?.close(); });

  const post = (client: TestClient, url: string) => client.request({ method: 'POST', url, body: {} });
  const projectsOf = (reply: { body: { data: { content: Array<{ projectName: string }> } } }) => [...new Set(reply.body.data.content.map((r) => r.projectName))].sort();

  it('answers the projects of each product that use a component version, by purl or by row id', async () => {
    const { db } = server.app.cairn;
    const component = await db.selectFrom('run_components as c').innerJoin('runs as r', 'r.id', 'c.run_id')
      .select(['c.id', 'c.purl', 'c.name', 'c.version']).where('r.project_id', '=', sourceProject).where('c.version', '!=', '')
      .orderBy('c.purl').executeTakeFirstOrThrow();
    const purl = encodeURIComponent(component.purl);
    const source = await post(admin, `/api/component/influence/${purl}`);
    expect(source.body.code, source.body.message).toBe(1);
    expect(projectsOf(source)).toEqual(['order-src']);
    expect(source.body.data.content[0]).toMatchObject({ subjectName: '订单中心', component: component.name, version: component.version });
    expect(projectsOf(await post(admin, `/api/binary/influence/version/${purl}`))).toEqual(['order-release']);
    // A component row id of a task result names the same purl.
    expect(projectsOf(await post(admin, `/api/binary/influence/version/${component.id}`))).toEqual(['order-release']);
    // Without a version: every version of it.
    const unversioned = encodeURIComponent(component.purl.replace(/@[^@/?#]+(?=[?#]|$)/, ''));
    expect((await post(admin, `/api/component/influence/${unversioned}`)).body.data.total).toBeGreaterThanOrEqual(1);
    expect((await post(admin, `/api/component/influence/${encodeURIComponent('pkg:npm/left-pad@9.9.9')}`)).body.data).toEqual({ content: [], total: 0 });
    expect((await post(admin, '/api/component/influence/not-a-purl')).body.message).toMatch(/组件标识无效/);

    // Another user: nothing of the administrator's, and the row id is a missing one.
    expect((await post(mallory, `/api/component/influence/${purl}`)).body.data.total).toBe(0);
    expect((await post(mallory, `/api/binary/influence/version/${purl}`)).body.data.total).toBe(0);
    const theirs = await post(mallory, `/api/binary/influence/version/${component.id}`);
    expect(theirs.body.code).not.toBe(1);
    expect(JSON.stringify(theirs.body)).not.toContain('order-');
  });

  it('answers the binary projects a vulnerability or a licence turns up in', async () => {
    const { db } = server.app.cairn;
    const finding = await db.selectFrom('run_vulnerabilities as v').innerJoin('runs as r', 'r.id', 'v.run_id')
      .select('v.vul_id').where('r.project_id', '=', binaryProject).orderBy('v.vul_id').executeTakeFirstOrThrow();
    const both = await post(admin, `/api/vulnerability/${encodeURIComponent(finding.vul_id)}/involvedSubjectsList`);
    expect(projectsOf(both)).toEqual(['order-release', 'order-src']);
    const binary = await post(admin, `/api/binary/influence/vulnerability/${encodeURIComponent(finding.vul_id)}`);
    expect(binary.body.code, binary.body.message).toBe(1);
    expect(projectsOf(binary)).toEqual(['order-release']);
    expect((await post(mallory, `/api/binary/influence/vulnerability/${encodeURIComponent(finding.vul_id)}`)).body.data.total).toBe(0);

    const licence = await post(admin, '/api/binary/influence/license/MIT');
    expect(licence.body.code, licence.body.message).toBe(1);
    expect(projectsOf(licence)).toEqual(['order-release']);
    expect(projectsOf(await post(admin, '/api/license/MIT/involvedSubjectsList'))).toEqual(['order-release', 'order-src']);
    expect((await post(mallory, '/api/binary/influence/license/MIT')).body.data.total).toBe(0);
  });
});
