// No disclosure across data scope (issue 13, item 4), tried as a second ordinary user would: every
// batch call (/api/project/batch/*, PATCH /api/project/batch/cron, the project delete) over ids of
// another user's projects answers them exactly as ids that do not exist — `#id`, 项目不存在或无权访问,
// never the project's name — and changes nothing of them; the batch import into another user's
// 应用 is refused as one that does not exist. The platform-wide counts (available-num, ifCanCheck)
// show an ordinary user only their own data scope; administrators the platform's. SQLite and
// PostgreSQL. Runs are queued but never claimed (no workers), so the counts hold still.
import { beforeAll, describe, expect, it } from 'vitest';
import { queueRun } from '../../../server/db/repositories/runs.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const MISSING = 2_000_000_000;
const UNAVAILABLE = '项目不存在或无权访问';

describe.each(databases)('data scope of batches and counts on %s', (database) => {
  const server = useServer(database, { scanConcurrency: 0 });
  let admin: TestClient;
  let alice: TestClient;
  let mallory: TestClient;
  let aliceSubject: number;
  let aliceProjects: number[];
  let malloryProject: number;

  const saveGit = async (client: TestClient, subjectId: number, projectName: string): Promise<number> => {
    const saved = await client.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType: 2, svnGitUri: `https://git.example.com/${projectName}.git`, launch: false } });
    expect(saved.body.code, saved.body.message).toBe(1);
    return saved.body.data.projectId as number;
  };
  const projectRow = (id: number) => server.app.cairn.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    admin = await adminClient(server);
    ({ client: alice } = await signIn(server, 'alice', 'Alice@12345'));
    ({ client: mallory } = await signIn(server, 'mallory', 'Mallory@123'));
    aliceSubject = (await alice.request({ method: 'POST', url: '/api/subject/create', body: { name: 'alice-secret-app' } })).body.data.id;
    const mallorySubject = (await mallory.request({ method: 'POST', url: '/api/subject/create', body: { name: 'mallory-app' } })).body.data.id;
    aliceProjects = [await saveGit(alice, aliceSubject, 'alice-payroll'), await saveGit(alice, aliceSubject, 'alice-hr')];
    malloryProject = await saveGit(mallory, mallorySubject, 'mallory-own');
  });

  /** The failure of an id the caller may not see: the same as one that does not exist. */
  const hidden = (id: number) => ({ projectId: id, projectName: `#${id}`, message: UNAVAILABLE });

  it('answers another user\'s projects in every batch exactly as ids that do not exist, and names none of them', async () => {
    const [payroll, hr] = aliceProjects as [number, number];
    const before = await Promise.all(aliceProjects.map(projectRow));
    const ids = [payroll, MISSING, hr];
    const batches: Array<{ method: 'POST' | 'PATCH'; url: string; body: Record<string, unknown> }> = [
      { method: 'POST', url: '/api/project/batch/check', body: { projectIds: ids } },
      { method: 'POST', url: '/api/project/batch/recheck', body: { projectIds: ids } },
      { method: 'POST', url: '/api/project/batch/recheck/setup', body: { projectIds: ids, analysisModes: '1', retentionAudit: true } },
      { method: 'POST', url: '/api/project/batch/ftp/check', body: { projectIds: ids } },
      { method: 'POST', url: '/api/project/batch/repo-branch', body: { projectIds: ids, gitBranchName: 'pwned' } },
      { method: 'POST', url: '/api/project/batch/update/user', body: { projectIds: ids, userId: 1 } },
      { method: 'PATCH', url: '/api/project/batch/cron', body: { projectIds: ids, enableTiming: true, cronType: 3, time: '03:00' } },
    ];
    for (const batch of batches) {
      const reply = await mallory.request(batch);
      expect(reply.status, batch.url).toBe(200);
      expect(reply.body.data, batch.url).toEqual({ successNum: 0, failNum: 3, failures: ids.map(hidden) });
      const text = JSON.stringify(reply.body);
      for (const secret of ['alice-payroll', 'alice-hr', 'alice-secret-app', 'Permission denied']) expect(text, batch.url).not.toContain(secret);
    }
    // Nothing of Alice's changed: no branch, timing, owner or settings, no run queued.
    expect(await Promise.all(aliceProjects.map(projectRow))).toEqual(before);
    const runs = await server.app.cairn.db.selectFrom('runs').select('id').where('project_id', 'in', aliceProjects).execute();
    expect(runs).toEqual([]);

    // Mallory's own project in the same batch is named and handled; the others still hidden.
    const mixed = await mallory.request({ method: 'POST', url: '/api/project/batch/repo-branch', body: { projectIds: [payroll, malloryProject], gitBranchName: 'dev' } });
    expect(mixed.body.data).toEqual({ successNum: 1, failNum: 1, failures: [hidden(payroll)] });
    // Alice herself sees her projects by name in the same call.
    const own = await alice.request({ method: 'POST', url: '/api/project/batch/ftp/check', body: { projectIds: [payroll] } });
    expect(own.body.data.failures[0]).toMatchObject({ projectId: payroll, projectName: 'alice-payroll' });
  });

  it('refuses to delete another user\'s projects as if they did not exist, and deletes nothing', async () => {
    const [payroll] = aliceProjects as [number];
    const theirs = await mallory.request({ method: 'DELETE', url: `/api/project-task-view/projects?projectIds=${payroll}` });
    const nobody = await mallory.request({ method: 'DELETE', url: `/api/project-task-view/projects?projectIds=${MISSING}` });
    expect(theirs.status).toBe(nobody.status);
    expect(theirs.body).toEqual(nobody.body);
    expect(theirs.body).toMatchObject({ code: 0, message: UNAVAILABLE });
    // Mixed with one of their own: all or none.
    const mixed = await mallory.request({ method: 'DELETE', url: `/api/project-task-view/projects?projectIds=${malloryProject},${payroll}` });
    expect(mixed.body.message).toBe(UNAVAILABLE);
    await projectRow(payroll);
    await projectRow(malloryProject);
  });

  it('refuses a batch import into another user\'s 应用 as one that does not exist', async () => {
    const rows = [{ projectName: 'planted', getCodeType: 2, svnGitUri: 'https://git.example.com/p.git', launch: false }];
    const theirs = await mallory.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId: aliceSubject, projects: rows } });
    const nobody = await mallory.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId: MISSING, projects: rows } });
    expect(theirs.body).toEqual(nobody.body);
    expect(theirs.body).toMatchObject({ code: 0, message: '应用不存在或无权访问', data: null });
    expect(await server.app.cairn.db.selectFrom('projects').select('id').where('name', '=', 'planted').executeTakeFirst()).toBeUndefined();
  });

  it('shows an ordinary user the project count and queue of their own data scope only; administrators the platform\'s', async () => {
    const count = async (client: TestClient) => (await client.request({ method: 'GET', url: '/api/project/available-num' })).body.data;
    const queue = async (client: TestClient) => (await client.request({ method: 'GET', url: '/api/project/ifCanCheck' })).body.data;
    const malloryBefore = await count(mallory);
    expect(malloryBefore).toEqual({ used: 1, limit: null, available: null });
    expect((await count(alice)).used).toBe(2);
    expect((await count(admin)).used).toBe(3);

    // Alice's work grows: Mallory's figures do not move.
    const extra = await saveGit(alice, aliceSubject, 'alice-extra');
    const { db } = server.app.cairn;
    for (const projectId of [...aliceProjects, extra]) {
      await queueRun(db, { projectId, analysisModes: '1', trigger: 'manual', userId: null, outboundLicense: null });
    }
    expect(await count(mallory)).toEqual(malloryBefore);
    expect(await queue(mallory)).toMatchObject({ canCheck: true, running: 0, queued: 0 });
    expect(await queue(alice)).toMatchObject({ running: 0, queued: 3 });
    expect(await queue(admin)).toMatchObject({ running: 0, queued: 3 });
    await queueRun(db, { projectId: malloryProject, analysisModes: '1', trigger: 'manual', userId: null, outboundLicense: null });
    expect(await queue(mallory)).toMatchObject({ queued: 1 });
    expect(await queue(admin)).toMatchObject({ queued: 4 });
    expect((await count(admin)).used).toBe(4);

    // A member of Alice's 应用 sees its figures, as it is in their scope.
    const bob = await signIn(server, 'bob', 'Bob@123456');
    const added = await alice.request({ method: 'POST', url: '/api/subject/member/add', body: { subjectId: aliceSubject, userIds: [bob.id] } });
    expect(added.body.code, added.body.message).toBe(1);
    expect((await count(bob.client)).used).toBe(3);
    expect(await queue(bob.client)).toMatchObject({ queued: 3 });
  });
});
