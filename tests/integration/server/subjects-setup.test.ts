// The setup tabs of a subject (notice, defect management, private service), repository sources
// and the repository facts of a subject's projects, on SQLite and PostgreSQL. Secrets are stored
// encrypted and never answered.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/db/time.ts';
import { decryptSecret } from '../../../server/secrets.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const DENIED = { code: 0, message: 'Permission denied', data: null };

describe.each(databases)('subject setup on $name', (database) => {
  let owner: TestClient;
  let member: TestClient;
  let limited: TestClient;
  let outsider: TestClient;
  let subjectId: number;
  let ids: Record<string, number>;

  const login = (name: string, roleCodes?: number[]) => signIn(server, name, 'Pass@12345', roleCodes);

  const server = useServer(database);
  beforeAll(async () => {
    await adminClient(server);
    const db = server.app.cairn.db;
    const { id: roleId } = await db.insertInto('roles').values({ code: 90, name: '只读' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values({ role_id: roleId, permission_code: 'project:list' }).execute();
    const o = await login('olga');
    const m = await login('mia');
    const l = await login('lisa', [90]);
    const x = await login('xavier');
    owner = o.client; member = m.client; limited = l.client; outsider = x.client;
    ids = { owner: o.id, member: m.id, limited: l.id, outsider: x.id };
    const made = await owner.request({ method: 'POST', url: '/api/subject/create', body: { name: 'setup-app', memberIds: [m.id, l.id] } });
    subjectId = made.body.data.id;
  });

  it('stores who is told about what, members only', async () => {
    const before = await member.request({ method: 'GET', url: `/api/subject/notice/${subjectId}` });
    expect(before.body.data).toEqual({ levels: [1, 2], userIds: [], onTaskFinish: false, onTaskFail: false, onNewVulnerability: false });
    const save = (client: TestClient, body: Record<string, unknown>) => client.request({ method: 'POST', url: '/api/subject/vulInform/saveConfig', body: { subjectId, levels: [1, 2, 4], userIds: [ids.member], onTaskFinish: true, onTaskFail: true, onNewVulnerability: false, ...body } });
    expect((await save(owner, {})).body).toMatchObject({ code: 1, message: '保存成功！', data: { levels: [1, 2, 4], userIds: [ids.member], onTaskFinish: true } });
    expect((await save(owner, { userIds: [ids.outsider] })).body.message).toBe('只能选择应用成员');
    expect((await save(owner, { levels: [3] })).status).toBe(400);
    expect((await save(member, {})).body).toEqual(DENIED);
    expect((await save(limited, {})).status).toBe(403);
    expect((await save(owner, { subjectId: 99999 })).body.message).toBe('应用不存在');

    const users = await member.request({ method: 'GET', url: `/api/subject/vulInform/queryUserList?subjectId=${subjectId}` });
    expect(users.body.data.map((u: { username: string }) => u.username)).toEqual(['mia']);
    const rest = await member.request({ method: 'GET', url: `/api/subject/vulInform/queryHasNoUserList?subjectId=${subjectId}` });
    expect(rest.body.data.map((u: { username: string }) => u.username)).toEqual(['lisa', 'olga']);
    expect((await outsider.request({ method: 'GET', url: `/api/subject/vulInform/queryUserList?subjectId=${subjectId}` })).body).toEqual(DENIED);
    expect((await limited.request({ method: 'GET', url: `/api/subject/notice/${subjectId}` })).status).toBe(403);
    expect((await owner.request({ method: 'GET', url: '/api/subject/notice/99999' })).body.message).toBe('应用不存在');
    expect((await owner.request({ method: 'GET', url: `/api/subject/${subjectId}` })).body.data.settings.notice.levels).toEqual([1, 2, 4]);
  });

  it('keeps the tracker password encrypted and never answers it', async () => {
    const url = `/api/subject/${subjectId}/bugManageConfig`;
    expect((await owner.request({ method: 'PATCH', url: `/api/subject/${subjectId}/enableBug`, body: { enabled: true } })).body.message).toBe('请先保存缺陷管理配置');
    const body = { type: 'jira', url: 'https://jira.example.com', projectKey: 'PAY', username: 'bot', password: 's3cret!' };
    const saved = await owner.request({ method: 'POST', url, body });
    expect(saved.body).toEqual({ code: 1, message: '保存成功！', data: { enabled: true, type: 'jira', url: 'https://jira.example.com', projectKey: 'PAY', username: 'bot', hasPassword: true } });
    expect(JSON.stringify(saved.body)).not.toContain('s3cret');

    const row = await server.app.cairn.db.selectFrom('subjects').select('settings').where('id', '=', subjectId).executeTakeFirstOrThrow();
    expect(row.settings).not.toContain('s3cret');
    const dataDir = server.app.cairn.dataDir;
    expect(decryptSecret(dataDir, JSON.parse(row.settings).bug.secret)).toBe('s3cret!');
    expect(fs.statSync(path.join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);

    // PATCH without a password keeps the stored one; an empty one clears it.
    const kept = await owner.request({ method: 'PATCH', url, body: { type: 'zentao', url: 'http://zentao.example.com', projectKey: '12', username: 'bot' } });
    expect(kept.body.data).toMatchObject({ type: 'zentao', hasPassword: true });
    expect((await owner.request({ method: 'PATCH', url, body: { ...body, password: '' } })).body.data.hasPassword).toBe(false);
    expect((await owner.request({ method: 'POST', url, body: { ...body, url: 'javascript:alert(1)' } })).body.message).toBe('缺陷管理地址应为 http(s) 地址');
    expect((await owner.request({ method: 'POST', url, body: { ...body, type: 'redmine' } })).status).toBe(400);
    expect((await member.request({ method: 'POST', url, body })).body).toEqual(DENIED);
    expect((await limited.request({ method: 'POST', url, body })).status).toBe(403);
    expect((await owner.request({ method: 'POST', url: '/api/subject/99999/bugManageConfig', body })).body.message).toBe('应用不存在');

    const off = await owner.request({ method: 'PATCH', url: `/api/subject/${subjectId}/enableBug`, body: { enabled: false } });
    expect(off.body).toMatchObject({ code: 1, message: '操作成功！', data: { enabled: false, type: 'jira' } });
    expect((await member.request({ method: 'PATCH', url: `/api/subject/${subjectId}/enableBug`, body: { enabled: true } })).body).toEqual(DENIED);
    const shown = (await member.request({ method: 'GET', url: `/api/subject/${subjectId}` })).body.data.settings.bug;
    expect(shown).toEqual({ enabled: false, type: 'jira', url: 'https://jira.example.com', projectKey: 'PAY', username: 'bot', hasPassword: false });
  });

  it('stores the private service addresses (private-service code and manager rights)', async () => {
    // Owner and member both also hold the private-service code through this extra role.
    const db = server.app.cairn.db;
    const { id: roleId } = await db.insertInto('roles').values({ code: 92, name: '私服' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values(['repository-security:manager', 'project:list'].map((permission_code) => ({ role_id: roleId, permission_code }))).execute();
    for (const userId of [ids.owner, ids.member, ids.outsider]) await db.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
    // A new role applies at the next login (spec doc 2 §6).
    for (const [client, name] of [[owner, 'olga'], [member, 'mia'], [outsider, 'xavier']] as const) expect((await client.login(name, 'Pass@12345')).body.code).toBe(1);
    const url = `/api/subject/${subjectId}/privateServiceConf`;
    expect((await member.request({ method: 'GET', url })).body.data).toEqual({ repositories: [] });
    const repositories = [{ kind: 'maven', url: 'https://nexus.example.com/repository/releases', repository: 'releases' }, { kind: 'npm', url: ' https://npm.example.com ' }];
    const saved = await owner.request({ method: 'POST', url, body: { repositories } });
    expect(saved.body).toEqual({ code: 1, message: '保存成功！', data: { repositories: [repositories[0], { kind: 'npm', url: 'https://npm.example.com' }] } });
    expect((await owner.request({ method: 'GET', url: `/api/subject/${subjectId}` })).body.data.settings.privateService.repositories).toHaveLength(2);
    expect((await owner.request({ method: 'POST', url, body: { repositories: [{ kind: 'npm', url: 'file:///etc/passwd' }] } })).body.message).toBe('私服地址应为 http(s) 地址：file:///etc/passwd');
    expect((await owner.request({ method: 'POST', url, body: { repositories: [{ kind: 'cargo', url: 'https://x' }] } })).status).toBe(400);
    expect((await member.request({ method: 'POST', url, body: { repositories } })).body).toEqual(DENIED);
    expect((await outsider.request({ method: 'GET', url })).body).toEqual(DENIED);
    expect((await limited.request({ method: 'GET', url })).status).toBe(403);
    expect((await owner.request({ method: 'GET', url: '/api/subject/99999/privateServiceConf' })).body.message).toBe('应用不存在');
  });

  it('keeps repository sources per user with the secret encrypted; checks syntax only', async () => {
    const check = (body: Record<string, unknown>) => owner.request({ method: 'POST', url: '/api/subject/repositorySource/check', body });
    expect((await check({ getCodeType: 2, url: 'https://git.example.com/team/app.git' })).body).toEqual({ code: 1, message: '地址格式正确；连通性与凭据将在发起任务时检查', data: { valid: true, normalizedUrl: 'https://git.example.com/team/app.git' } });
    expect((await check({ getCodeType: 2, url: 'git@git.example.com:team/app.git' })).body.code).toBe(1);
    expect((await check({ getCodeType: 1, url: 'svn://svn.example.com/repo/trunk' })).body.code).toBe(1);
    expect((await check({ getCodeType: 19, url: '192.168.1.10:21' })).body.data.normalizedUrl).toBe('ftp://192.168.1.10:21');
    expect((await check({ getCodeType: 2, url: 'svn://svn.example.com/repo' })).body.message).toMatch(/^Git 仓库地址格式不正确/);
    expect((await check({ getCodeType: 13, url: 'docker.io/library/nginx' })).body.message).toBe('仓库类型应为 Git、SVN、Mercurial 或 FTP');

    const put = (client: TestClient, body: Record<string, unknown>) => client.request({ method: 'PUT', url: '/api/subject/repositorySource', body });
    const added = await put(owner, { name: 'company-git', getCodeType: 2, url: 'https://git.example.com/team/app.git', username: 'olga', password: 'tok3n' });
    expect(added.body).toMatchObject({ code: 1, message: '添加成功！', data: { name: 'company-git', getCodeType: 2, username: 'olga', hasPassword: true } });
    expect(JSON.stringify(added.body)).not.toContain('tok3n');
    const stored = await server.app.cairn.db.selectFrom('repository_sources').select('secret').where('id', '=', added.body.data.id).executeTakeFirstOrThrow();
    expect(decryptSecret(server.app.cairn.dataDir, stored.secret!)).toBe('tok3n');
    expect((await put(owner, { name: 'company-git', getCodeType: 1, url: 'svn://svn.example.com/r' })).body.message).toBe('已存在同名仓库源');
    expect((await put(owner, { name: 'bad', getCodeType: 2, url: 'ftp://x' })).body.code).toBe(0);
    expect((await put(owner, { name: 'a b', getCodeType: 2, url: 'https://git.example.com/a.git' })).body.code).toBe(0);
    const updated = await put(owner, { id: added.body.data.id, name: 'company-git', getCodeType: 2, url: 'https://git.example.com/team/other.git' });
    expect(updated.body).toMatchObject({ code: 1, message: '保存成功！', data: { url: 'https://git.example.com/team/other.git', hasPassword: true } });
    // Another user's source is unknown to them.
    expect((await put(member, { id: added.body.data.id, name: 'mine', getCodeType: 2, url: 'https://x.example.com/a.git' })).body.message).toBe('仓库源不存在');
    expect((await member.request({ method: 'GET', url: '/api/subject/repositorySource/list' })).body.data).toEqual([]);
    expect((await owner.request({ method: 'GET', url: '/api/subject/repositorySource/list?getCodeType=2' })).body.data.map((s: { name: string }) => s.name)).toEqual(['company-git']);
    expect((await member.request({ method: 'DELETE', url: `/api/subject/repositorySource?ids=${added.body.data.id}` })).body.message).toBe('仓库源不存在');
    const db = server.app.cairn.db;
    const { id: roleId } = await db.insertInto('roles').values({ code: 91, name: '漏洞' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values({ role_id: roleId, permission_code: 'vul' }).execute();
    const { client: nora } = await login('nora', [91]);
    expect((await nora.request({ method: 'GET', url: '/api/subject/repositorySource/list' })).body).toEqual(DENIED);
    expect((await owner.request({ method: 'DELETE', url: `/api/subject/repositorySource?ids=${added.body.data.id}` })).body).toEqual({ code: 1, message: '删除成功！', data: { deleted: 1 } });
    expect((await owner.request({ method: 'DELETE', url: '/api/subject/repositorySource' })).status).toBe(400);
  });

  it('lists the repositories, FTP addresses, groups and branches of the subject projects', async () => {
    const db = server.app.cairn.db;
    const now = nowIso();
    const project = (name: string, type: number, source: Record<string, unknown>) =>
      db.insertInto('projects').values({ subject_id: subjectId, name, get_code_type: type, source: JSON.stringify(source), created_at: now, updated_at: now }).execute();
    await project('web', 2, { svnGitUri: 'https://git.example.com/pay/web.git', gitBranchName: 'main', svnGitUserName: 'olga', svnGitPwd: 'v1:enc' });
    await project('web-dev', 2, { svnGitUri: 'https://git.example.com/pay/web.git', gitBranchName: 'dev' });
    await project('api', 4, { svnGitUri: 'git@git.example.com:pay/api.git' });
    await project('docs', 1, { svnGitUri: 'svn://svn.example.com/docs/trunk' });
    await project('dist', 19, { ftpIp: '10.0.0.5', ftpFilePath: '/builds', ftpUserName: 'ftp', ftpPassWord: 'v1:enc' });
    await project('upload', 0, {});

    const git = await member.request({ method: 'GET', url: `/api/subject/queryGitInfoList/${subjectId}` });
    expect(git.body.data).toHaveLength(4);
    expect(JSON.stringify(git.body.data)).not.toContain('v1:enc');
    expect(git.body.data[0]).toEqual({ getCodeType: 2, svnGitUri: 'https://git.example.com/pay/web.git', gitBranchName: 'main', svnGitUserName: 'olga', projectCount: 1 });
    expect((await member.request({ method: 'GET', url: `/api/binary/subject/queryGitInfoList/${subjectId}` })).body.code).toBe(1);
    const ftp = await member.request({ method: 'GET', url: `/api/subject/queryFtpInfoList/${subjectId}` });
    expect(ftp.body.data).toEqual([{ getCodeType: 19, ftpIp: '10.0.0.5', ftpFilePath: '/builds', ftpUserName: 'ftp', projectCount: 1 }]);
    const groups = await member.request({ method: 'GET', url: `/api/subject/queryGroupList/${subjectId}` });
    expect(groups.body.data).toEqual([
      { host: 'git.example.com', namespace: 'pay', projectCount: 3 },
      { host: 'svn.example.com', namespace: 'docs', projectCount: 1 },
    ]);
    const branches = await member.request({ method: 'GET', url: `/api/subject/queryBranchList/${subjectId}` });
    expect(branches.body.data).toEqual([
      { svnGitUri: 'https://git.example.com/pay/web.git', gitBranchName: 'main', projectCount: 1 },
      { svnGitUri: 'https://git.example.com/pay/web.git', gitBranchName: 'dev', projectCount: 1 },
      { svnGitUri: 'git@git.example.com:pay/api.git', gitBranchName: 'master', projectCount: 1 },
    ]);
    for (const call of ['queryGitInfoList', 'queryFtpInfoList', 'queryGroupList', 'queryBranchList']) {
      expect((await outsider.request({ method: 'GET', url: `/api/subject/${call}/${subjectId}` })).body).toEqual(DENIED);
      expect((await owner.request({ method: 'GET', url: `/api/subject/${call}/99999` })).body.message).toBe('应用不存在');
    }
  });
});
