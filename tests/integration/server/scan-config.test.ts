// 扫描配置 over HTTP on both databases (/api/system/scan/maven|npm|pypi, /api/subject/scan/maven,
// /api/system/scan/settings): repositories added, listed, edited and deleted with their passwords
// encrypted at rest and never answered, addresses checked, the permission and an 应用's data scope
// enforced; then an analysis with online resolution on, through a Maven repository and a PyPI
// index served from files on loopback (tests/fixtures/public/online/), which finds the transitive
// dependencies and lists what it could not resolve among the run's problems.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFiles, type FileRepository } from '../../support/file-repository.ts';
import { adminClient, databases, signIn, startServer, type TestClient, type TestServer } from './harness.ts';
import { uploadFile, waitForRun } from './sample-app.ts';

const FIXTURES = path.resolve('tests/fixtures/public/online');

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId><artifactId>shop</artifactId><version>1.0.0</version>
  <dependencies>
    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>2.14.0</version></dependency>
    <dependency><groupId>org.example.internal</groupId><artifactId>not-published</artifactId><version>1.0</version></dependency>
  </dependencies>
</project>
`;

describe.each(databases)('扫描配置 on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestClient;
  let userId: number;
  let maven: FileRepository;
  let pypi: FileRepository;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cairn-scan-config-'));
    maven = await serveFiles(path.join(FIXTURES, 'maven-repo'), { prefix: 'repository/maven-public', credentials: { username: 'ci-reader', password: 'Reader#2024' } });
    pypi = await serveFiles(path.join(FIXTURES, 'pypi-index'));
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
    ({ id: userId, client: user } = await signIn(server, 'uma', 'Uma@123456'));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await maven?.stop();
    await pypi?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const storedPasswords = async () => (await server.app.cairn.db.selectFrom('scan_repositories').select(['id', 'password']).execute());

  it('adds, lists, edits and deletes repositories; the password is encrypted and never answered', async () => {
    const added = await admin.request({ method: 'POST', url: '/api/system/scan/maven', body: { name: '内部 Maven', url: maven.url.replace(/\/$/, ''), username: 'ci-reader', password: 'Reader#2024', enabled: true, remark: 'Nexus' } });
    expect(added.body).toMatchObject({ code: 1, message: '添加成功', data: { ecosystem: 'maven', subjectId: null, name: '内部 Maven', url: maven.url, username: 'ci-reader', hasPassword: true, enabled: true, priority: 0, remark: 'Nexus', createdBy: '系统管理员' } });
    expect(added.body.data).not.toHaveProperty('password');
    expect(JSON.stringify(added.body)).not.toContain('Reader#2024');
    const [row] = await storedPasswords();
    expect(row!.password).toMatch(/^v1:/);
    expect(row!.password).not.toContain('Reader#2024');
    const id = added.body.data.id as number;

    const list = await admin.request({ method: 'GET', url: '/api/system/scan/maven/list' });
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain('Reader#2024');
    expect((await admin.request({ method: 'GET', url: '/api/system/scan/npm/list' })).body.data).toEqual([]);

    // Editing without a password keeps the stored one; clearPassword removes it (and then no username is needed).
    const edited = await admin.request({ method: 'PUT', url: '/api/system/scan/maven', body: { id, name: '内部 Maven', url: maven.url, username: 'ci-reader', enabled: false } });
    expect(edited.body).toMatchObject({ code: 1, message: '修改成功', data: { hasPassword: true, enabled: false } });
    expect((await storedPasswords())[0]!.password).toBe(row!.password);
    const cleared = await admin.request({ method: 'PUT', url: '/api/system/scan/maven', body: { id, name: '内部 Maven', url: maven.url, username: '', clearPassword: true, enabled: true } });
    expect(cleared.body.data).toMatchObject({ hasPassword: false, username: '' });
    expect((await storedPasswords())[0]!.password).toBeNull();

    // Another ecosystem's calls do not reach it.
    expect((await admin.request({ method: 'DELETE', url: `/api/system/scan/npm/${id}` })).body).toMatchObject({ code: 0, message: '仓库配置不存在' });
    const removed = await admin.request({ method: 'DELETE', url: `/api/system/scan/maven/${id}` });
    expect(removed.body).toMatchObject({ code: 1, message: '删除成功' });
    expect((await admin.request({ method: 'GET', url: '/api/system/scan/maven/list' })).body.data).toEqual([]);
    const actions = (await server.app.cairn.db.selectFrom('audit_log').select(['action', 'detail']).where('action', 'like', 'scan.repository.%').execute());
    expect(actions.map((a) => a.action)).toEqual(['scan.repository.add', 'scan.repository.update', 'scan.repository.update', 'scan.repository.delete']);
    expect(actions.some((a) => a.detail.includes('Reader#2024'))).toBe(false);
  });

  it('refuses bad addresses, credentials in the address, duplicates and a password without a user, naming the field', async () => {
    const add = (body: object) => admin.request({ method: 'POST', url: '/api/system/scan/npm', body: { name: 'npm', url: 'https://registry.example.com/', enabled: true, ...body } });
    expect((await add({ url: 'ftp://registry.example.com/' })).body).toEqual({ code: 0, message: '仓库地址只支持 http 或 https', data: null, field: 'url' });
    expect((await add({ url: 'registry.example.com' })).body).toMatchObject({ code: 0, field: 'url' });
    expect((await add({ url: 'https://me:pw@registry.example.com/' })).body).toMatchObject({ code: 0, message: '仓库地址不能包含用户名或密码，请填写在用户名和密码中', field: 'url' });
    expect((await add({ url: 'https://registry.example.com/?token=x' })).body).toMatchObject({ code: 0, field: 'url' });
    expect((await add({ password: 'only-a-password' })).body).toMatchObject({ code: 0, message: '填写密码时请同时填写用户名', field: 'username' });
    expect((await add({})).body.code).toBe(1);
    expect((await add({ name: 'NPM' })).body).toMatchObject({ code: 0, message: '名称“NPM”已被同类仓库使用', field: 'name' });
    // The same name is fine for another ecosystem.
    expect((await admin.request({ method: 'POST', url: '/api/system/scan/pypi', body: { name: 'npm', url: 'https://pypi.example.com/simple/', enabled: false } })).body.code).toBe(1);
    expect((await admin.request({ method: 'POST', url: '/api/system/scan/npm', body: { name: 'x', url: 'https://a.example.com/', enabled: 'yes' } })).status).toBe(400);
  });

  it('keeps the system-wide calls to administrators and an 应用 own repositories to its members', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/system/scan/maven/list', undefined],
      ['POST', '/api/system/scan/pypi', { name: 'x', url: 'https://a.example.com/', enabled: true }],
      ['PUT', '/api/system/scan/npm', { id: 1, name: 'x', url: 'https://a.example.com/', enabled: true }],
      ['DELETE', '/api/system/scan/npm/1', undefined],
      ['GET', '/api/system/scan/settings', undefined],
      ['PUT', '/api/system/scan/settings', { online: true, timeoutSeconds: 5, maxPackages: 10, maxDepth: 3 }],
    ] as const) {
      const reply = await user.request({ method, url, ...(body !== undefined && { body }) });
      expect(reply.status, `${method} ${url}`).toBe(403);
    }
    const subject = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '商城', description: '', importance: 3 } });
    const subjectId = subject.body.data.id as number;
    const own = await admin.request({ method: 'POST', url: '/api/subject/scan/maven', body: { subjectId, name: '商城私服', url: 'https://nexus.shop.example.com/repository/maven/', username: 'shop', password: 'Shop#pw', enabled: true } });
    expect(own.body).toMatchObject({ code: 1, data: { subjectId, hasPassword: true } });
    expect((await admin.request({ method: 'GET', url: `/api/subject/scan/maven/list?subjectId=${subjectId}` })).body.data.map((r: { name: string }) => r.name)).toEqual(['商城私服']);
    // Not in the system-wide list.
    expect((await admin.request({ method: 'GET', url: '/api/system/scan/maven/list' })).body.data).toEqual([]);
    // Someone outside the 应用 neither sees nor changes them.
    const outside = await user.request({ method: 'GET', url: `/api/subject/scan/maven/list?subjectId=${subjectId}` });
    expect(outside.body.code).not.toBe(1);
    expect((await user.request({ method: 'DELETE', url: `/api/subject/scan/maven?id=${own.body.data.id}&subjectId=${subjectId}` })).body.code).not.toBe(1);
    // Another 应用's id does not reach it.
    const other = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '后台', description: '', importance: 3 } });
    expect((await admin.request({ method: 'DELETE', url: `/api/subject/scan/maven?id=${own.body.data.id}&subjectId=${other.body.data.id}` })).body).toMatchObject({ code: 0, message: '仓库配置不存在' });
    const edited = await admin.request({ method: 'PUT', url: '/api/subject/scan/maven', body: { id: own.body.data.id, subjectId, name: '商城私服', url: 'https://nexus.shop.example.com/repository/maven/', username: 'shop', enabled: false } });
    expect(edited.body).toMatchObject({ code: 1, data: { enabled: false, hasPassword: true } });
    expect((await admin.request({ method: 'DELETE', url: `/api/subject/scan/maven?id=${own.body.data.id}&subjectId=${subjectId}` })).body.code).toBe(1);
    expect(userId).toBeGreaterThan(0);
  });

  it('resolves an analysis online only when switched on, through the configured repositories', async () => {
    expect((await admin.request({ method: 'GET', url: '/api/system/scan/settings' })).body.data).toEqual({ online: false, timeoutSeconds: 15, maxPackages: 2000, maxDepth: 30 });
    // Clear the earlier tests' repositories, then configure the two served ones.
    for (const eco of ['maven', 'npm', 'pypi']) {
      for (const r of (await admin.request({ method: 'GET', url: `/api/system/scan/${eco}/list` })).body.data) await admin.request({ method: 'DELETE', url: `/api/system/scan/${eco}/${r.id}` });
    }
    expect((await admin.request({ method: 'POST', url: '/api/system/scan/maven', body: { name: '内部 Maven', url: maven.url, username: 'ci-reader', password: 'Reader#2024', enabled: true } })).body.code).toBe(1);
    expect((await admin.request({ method: 'POST', url: '/api/system/scan/pypi', body: { name: 'PyPI 镜像', url: `${pypi.url}simple/`, enabled: true } })).body.code).toBe(1);

    const src = path.join(work, 'src');
    mkdirSync(path.join(src, 'api'), { recursive: true });
    writeFileSync(path.join(src, 'pom.xml'), POM);
    writeFileSync(path.join(src, 'api/requirements.txt'), 'httplib2>=0.20\n');
    const zip = path.join(work, 'shop.zip');
    execFileSync('zip', ['-qr', zip, '.'], { cwd: src });
    const subject = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '在线解析', description: '', importance: 3 } });

    const analyse = async (projectName: string) => {
      const uploadId = await uploadFile(admin, zip);
      const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId: subject.body.data.id, projectName, getCodeType: 0, uploadId } });
      expect(launched.body.code, launched.body.message).toBe(1);
      const projectId = launched.body.data.projectId as number;
      expect((await waitForRun(admin, projectId)).status).toBe(2);
      const list = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=100`, body: {} });
      const overview = await admin.request({ method: 'GET', url: `/api/project-task-view/info/${projectId}/0` });
      return { purls: (list.body.data.content as Array<{ purl: string }>).map((r) => r.purl).sort(), problems: overview.body.data.problems as Array<{ file: string; message: string }> };
    };

    // Off by default: what the manifests declare, nothing asked of the repositories.
    const offline = await analyse('offline');
    expect(offline.purls).toEqual(['pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.14.0', 'pkg:maven/org.example.internal/not-published@1.0', 'pkg:pypi/httplib2']);
    expect(maven.requests).toEqual([]);

    const saved = await admin.request({ method: 'PUT', url: '/api/system/scan/settings', body: { online: true, timeoutSeconds: 10, maxPackages: 500, maxDepth: 20 } });
    expect(saved.body).toMatchObject({ code: 1, data: { online: true } });
    const online = await analyse('online');
    expect(online.purls).toEqual([
      'pkg:maven/com.fasterxml.jackson.core/jackson-annotations@2.x', 'pkg:maven/com.fasterxml.jackson.core/jackson-core@2.x',
      'pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.14.0', 'pkg:maven/org.example.internal/not-published@1.0',
      'pkg:pypi/httplib2@0.20.4', 'pkg:pypi/pyparsing@3.0.9',
    ]);
    expect(online.problems).toContainEqual({ file: 'pom.xml', message: '无法在线解析 org.example.internal:not-published:1.0 的依赖：在仓库 内部 Maven 中找不到 org.example.internal:not-published:1.0 的 POM' });
    // The decrypted password reached the repository.
    expect(maven.requests.length).toBeGreaterThan(0);
    expect(maven.requests.every((r) => r.authorization === `Basic ${Buffer.from('ci-reader:Reader#2024').toString('base64')}`)).toBe(true);
  }, 120_000);
});
