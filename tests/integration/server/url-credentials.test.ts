// Credentials never in URLs at rest (issue 13, item 5), on SQLite and PostgreSQL. Every place an
// address is stored — projects (new, edited, re-launched), the batch import, repository sources,
// the 应用's defect tracker and private-service settings — takes `user:password@` out of it: the
// user name goes to the user-name field, the password to the encrypted one, and the address is
// stored and answered without them. Then the whole database is searched for the password as an
// attacker with a copy of it would. Rows saved before the rule are cleaned at start-up.
import { beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../../server/secrets.ts';
import { moveStoredUrlCredentials } from '../../../server/services/url-credentials.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const PASSWORD = 'Hunter2-s3cret';

describe.each(databases)('credentials in addresses on %s', (database) => {
  const server = useServer(database, { scanConcurrency: 0 });
  let owner: TestClient;
  let subjectId: number;
  const db = () => server.app.cairn.db;
  const dataDir = () => server.app.cairn.dataDir;
  const sourceOf = async (projectId: number) =>
    JSON.parse((await db().selectFrom('projects').select('source').where('id', '=', projectId).executeTakeFirstOrThrow()).source) as Record<string, string>;

  /** Every row of every table that can hold an address or a record of one, as text. */
  const everything = async () => JSON.stringify(await Promise.all(
    (['projects', 'repository_sources', 'subjects', 'audit_log', 'runs'] as const).map((table) => db().selectFrom(table).selectAll().execute()),
  ));

  beforeAll(async () => {
    ({ client: owner } = await signIn(server, 'cred-owner', 'Owner@12345'));
    subjectId = (await owner.request({ method: 'POST', url: '/api/subject/create', body: { name: 'cred-app' } })).body.data.id;
  });

  it('splits the credentials off a new project\'s repository address and answers it without them', async () => {
    const saved = await owner.request({ method: 'POST', url: '/api/analysis', body: {
      subjectId, projectName: 'cred-git', getCodeType: 2, svnGitUri: `https://alice:${PASSWORD}@git.example.com/team/app.git`, launch: false,
    } });
    expect(saved.body.code, saved.body.message).toBe(1);
    const projectId = saved.body.data.projectId as number;
    const source = await sourceOf(projectId);
    expect(source.svnGitUri).toBe('https://git.example.com/team/app.git');
    expect(source.svnGitUserName).toBe('alice');
    expect(source.svnGitPwd).not.toContain(PASSWORD);
    expect(decryptSecret(dataDir(), source.svnGitPwd!)).toBe(PASSWORD);
    const form = await owner.request({ method: 'GET', url: `/api/project/${projectId}` });
    expect(form.body.data.source).toMatchObject({ svnGitUri: 'https://git.example.com/team/app.git', svnGitUserName: 'alice', hasSvnGitPwd: true });
    const gitInfo = await owner.request({ method: 'GET', url: `/api/subject/queryGitInfoList/${subjectId}` });
    expect(gitInfo.body.data).toEqual([expect.objectContaining({ svnGitUri: 'https://git.example.com/team/app.git', svnGitUserName: 'alice' })]);
    expect(JSON.stringify([form.body, gitInfo.body])).not.toContain(PASSWORD);
  });

  it('splits them on edit and re-launch too, decodes percent-encoding, and keeps SSH user names', async () => {
    const [row] = await db().selectFrom('projects').select('id').where('name', '=', 'cred-git').execute();
    const projectId = row!.id;
    const edited = await owner.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { svnGitUri: 'https://bob:p%40ss%3Aword@git.example.com/team/other.git', svnGitUserName: 'bob' } });
    expect(edited.body.code, edited.body.message).toBe(1);
    let source = await sourceOf(projectId);
    expect(source).toMatchObject({ svnGitUri: 'https://git.example.com/team/other.git', svnGitUserName: 'bob' });
    expect(decryptSecret(dataDir(), source.svnGitPwd!)).toBe('p@ss:word');

    // A user name or password typed both in the address and in its field, differently: refused, nothing changed.
    const conflict = await owner.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { svnGitUri: 'https://carol:x@git.example.com/a.git', svnGitUserName: 'dave' } });
    expect(conflict.body).toMatchObject({ code: 0, field: 'svnGitUri' });
    expect(conflict.body.message).toMatch(/仓库地址中的用户名与“用户名”字段不一致/);
    const pwConflict = await owner.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { svnGitUri: `https://carol:${PASSWORD}@git.example.com/a.git`, svnGitPwd: 'other' } });
    expect(pwConflict.body.code).toBe(0);
    expect(pwConflict.body.message).not.toContain(PASSWORD);
    expect((await sourceOf(projectId)).svnGitUri).toBe('https://git.example.com/team/other.git');

    for (const ssh of ['git@git.example.com:team/app.git', 'ssh://git@git.example.com/team/app.git']) {
      const kept = await owner.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { svnGitUri: ssh } });
      expect(kept.body.code, kept.body.message).toBe(1);
      source = await sourceOf(projectId);
      expect(source.svnGitUri).toBe(ssh);
      expect(source.svnGitUserName).toBe('bob');
    }
  });

  it('splits them in a batch import, an FTP host and an image address with a scheme', async () => {
    const reply = await owner.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId, projects: [
      { projectName: 'cred-import', getCodeType: 2, svnGitUri: `https://erin:${PASSWORD}@git.example.com/imp.git`, launch: false },
      { projectName: 'cred-ftp', getCodeType: 19, ftpIp: `frank:${PASSWORD}@10.0.0.5:21`, ftpFilePath: '/pub/app.zip', launch: false },
    ] } });
    expect(reply.body.data, reply.body.message).toMatchObject({ successNum: 2, failNum: 0 });
    const imported = await db().selectFrom('projects').select(['id', 'name']).where('name', 'in', ['cred-import', 'cred-ftp']).execute();
    const byName = Object.fromEntries(imported.map((p) => [p.name, p.id]));
    expect(await sourceOf(byName['cred-import']!)).toMatchObject({ svnGitUri: 'https://git.example.com/imp.git', svnGitUserName: 'erin' });
    const ftp = await sourceOf(byName['cred-ftp']!);
    expect(ftp).toMatchObject({ ftpIp: '10.0.0.5:21', ftpUserName: 'frank' });
    expect(decryptSecret(dataDir(), ftp.ftpPassWord!)).toBe(PASSWORD);
  });

  it('splits them off a repository source, and refuses them in a private-service address', async () => {
    const checked = await owner.request({ method: 'POST', url: '/api/subject/repositorySource/check', body: { getCodeType: 2, url: `https://gina:${PASSWORD}@git.example.com/x.git` } });
    expect(checked.body.data.normalizedUrl).toBe('https://git.example.com/x.git');
    const added = await owner.request({ method: 'PUT', url: '/api/subject/repositorySource', body: { name: 'cred-source', getCodeType: 2, url: `https://gina:${PASSWORD}@git.example.com/x.git` } });
    expect(added.body.code, added.body.message).toBe(1);
    expect(added.body.data).toMatchObject({ url: 'https://git.example.com/x.git', username: 'gina', hasPassword: true });
    const list = await owner.request({ method: 'GET', url: '/api/subject/repositorySource/list' });
    expect(list.body.data.content ?? list.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ url: 'https://git.example.com/x.git' })]));
    const stored = await db().selectFrom('repository_sources').selectAll().where('name', '=', 'cred-source').executeTakeFirstOrThrow();
    expect(stored.url).toBe('https://git.example.com/x.git');
    expect(decryptSecret(dataDir(), stored.secret!)).toBe(PASSWORD);

    // A private-service address has no credential fields: one with credentials is refused, not stored.
    const admin = await adminClient(server);
    const privateService = await admin.request({ method: 'POST', url: `/api/subject/${subjectId}/privateServiceConf`, body: { repositories: [{ kind: 'maven', url: `https://hank:${PASSWORD}@nexus.example.com/repo` }] } });
    expect(privateService.body).toMatchObject({ code: 0, field: 'repositories[0].url' });
    expect(privateService.body.message).toMatch(/^私服地址不能包含用户名或密码/);
    const clean = await admin.request({ method: 'POST', url: `/api/subject/${subjectId}/privateServiceConf`, body: { repositories: [{ kind: 'maven', url: 'https://nexus.example.com/repo' }] } });
    expect(clean.body.code, clean.body.message).toBe(1);
  });

  it('splits them off the defect tracker address of an 应用', async () => {
    const tracker = await owner.request({ method: 'POST', url: `/api/subject/${subjectId}/bugManageConfig`, body: { type: 'jira', url: `https://ivan:${PASSWORD}@jira.example.com`, projectKey: 'APP', username: '' } });
    expect(tracker.body.code, tracker.body.message).toBe(1);
    expect(tracker.body.data).toMatchObject({ url: 'https://jira.example.com', username: 'ivan', hasPassword: true });
  });

  it('leaves the password nowhere in the database', async () => {
    const all = await everything();
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toMatch(/:\/\/[^/\s"]*:[^/\s"]*@/);
  });

  it('cleans addresses saved before the rule when the platform starts', async () => {
    const [row] = await db().selectFrom('projects').select(['id', 'source']).where('name', '=', 'cred-import').execute();
    const dirty = { ...JSON.parse(row!.source), svnGitUri: `https://old:${PASSWORD}@git.example.com/old.git`, svnGitUserName: '', svnGitPwd: '' };
    await db().updateTable('projects').set({ source: JSON.stringify(dirty) }).where('id', '=', row!.id).execute();
    await db().updateTable('repository_sources').set({ url: `https://old:${PASSWORD}@git.example.com/x.git`, secret: null }).where('name', '=', 'cred-source').execute();
    expect(await everything()).toContain(PASSWORD);

    // What buildApp runs at start-up, before any call is served.
    const moved = await moveStoredUrlCredentials(db(), dataDir());
    expect(moved.projects).toEqual([row!.id]);
    expect(moved.sources).toHaveLength(1);
    expect(await everything()).not.toContain(PASSWORD);
    const source = await sourceOf(row!.id);
    expect(source).toMatchObject({ svnGitUri: 'https://git.example.com/old.git', svnGitUserName: 'old' });
    expect(decryptSecret(dataDir(), source.svnGitPwd!)).toBe(PASSWORD);
    // Nothing left to do the next time.
    expect(await moveStoredUrlCredentials(db(), dataDir())).toEqual({ projects: [], sources: [], subjects: [] });
  });
});
