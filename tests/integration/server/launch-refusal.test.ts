// A launch that answers an error creates nothing (issue 13, item 10a): a refused Git launch (the
// source is not fetched yet), a local upload without its file, a refused re-launch and a refused
// row of the batch import leave no project, run or audit row behind and no setting changed.
// Saving without launching (仅保存项目) is asked for as such (`launch: false`). SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, signIn, useServer, type TestClient } from './harness.ts';

describe.each(databases)('refused launches on %s', (database) => {
  const server = useServer(database, { scanConcurrency: 0 });
  let user: TestClient;
  let subjectId: number;
  const db = () => server.app.cairn.db;
  const projectsNamed = async (name: string) => db().selectFrom('projects').selectAll().where('name', '=', name).execute();
  const counts = async () => ({
    projects: Number((await db().selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    runs: Number((await db().selectFrom('runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    audit: Number((await db().selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).where('action', 'like', 'project.%').executeTakeFirstOrThrow()).n),
  });

  beforeAll(async () => {
    ({ client: user } = await signIn(server, 'launcher', 'Launch@1234'));
    subjectId = (await user.request({ method: 'POST', url: '/api/subject/create', body: { name: 'launch-app' } })).body.data.id;
  });

  it('creates nothing when a new project\'s launch is refused', async () => {
    const before = await counts();
    const git = await user.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'refused-git', getCodeType: 2, svnGitUri: 'https://git.example.com/a.git' } });
    expect(git.body).toMatchObject({ code: 0, data: null });
    expect(git.body.message).toMatch(/暂不支持自动获取代码/);
    const upload = await user.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'refused-upload', getCodeType: 0 } });
    expect(upload.body).toMatchObject({ code: 0, message: '请先上传要分析的文件', data: null, field: 'uploadId' });
    expect(await counts()).toEqual(before);
    expect(await projectsNamed('refused-git')).toEqual([]);
    // The same name is free afterwards: nothing half-made holds it.
    const saved = await user.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'refused-git', getCodeType: 2, svnGitUri: 'https://git.example.com/a.git', launch: false } });
    expect(saved.body).toMatchObject({ code: 1, message: '保存成功！', data: { taskId: null } });
    expect(await counts()).toEqual({ ...before, projects: before.projects + 1, audit: before.audit + 1 });
  });

  it('keeps a project\'s settings when its re-launch is refused', async () => {
    const [project] = await projectsNamed('refused-git');
    const before = await counts();
    const relaunch = await user.request({ method: 'PUT', url: '/api/analysis', body: { taskId: project!.id, projectName: 'renamed-on-refusal', svnGitUri: 'https://git.example.com/b.git' } });
    expect(relaunch.body.code).toBe(0);
    expect(relaunch.body.message).toMatch(/暂不支持自动获取代码/);
    expect(await projectsNamed('renamed-on-refusal')).toEqual([]);
    expect((await projectsNamed('refused-git'))[0]).toEqual(project);
    expect(await counts()).toEqual(before);

    // Batch re-analysis with new settings: refused per project, settings kept.
    const setup = await user.request({ method: 'POST', url: '/api/project/batch/recheck/setup', body: { projectIds: [project!.id], analysisModes: '1', retentionAudit: true } });
    expect(setup.body.data).toMatchObject({ successNum: 0, failNum: 1 });
    expect((await projectsNamed('refused-git'))[0]).toEqual(project);
    expect(await counts()).toEqual(before);
  });

  it('creates no row of a batch import whose launch is refused, and the rest go on', async () => {
    const before = await counts();
    const reply = await user.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId, projects: [
      { projectName: 'import-git-launched', getCodeType: 2, svnGitUri: 'https://git.example.com/c.git' },
      { projectName: 'import-upload-missing', getCodeType: 0 },
      { projectName: 'import-git-saved', getCodeType: 2, svnGitUri: 'https://git.example.com/d.git', launch: false },
    ] } });
    expect(reply.body.data.successNum).toBe(1);
    expect(reply.body.data.failures).toEqual([
      { projectId: null, projectName: 'import-git-launched', message: expect.stringMatching(/暂不支持自动获取代码/) },
      { projectId: null, projectName: 'import-upload-missing', message: '请先上传要分析的文件' },
    ]);
    expect(await projectsNamed('import-git-launched')).toEqual([]);
    expect(await projectsNamed('import-upload-missing')).toEqual([]);
    expect(await projectsNamed('import-git-saved')).toHaveLength(1);
    expect(await counts()).toEqual({ ...before, projects: before.projects + 1, audit: before.audit + 1 });
  });
});
