// A container image pulled from a private registry (source type 31, 私有仓库) through the
// platform API, on both databases, against a real docker-registry with basic auth: the form's
// 校验 answers the manifest digest and platform (or why not), a project with the right
// credentials is pulled and analysed (its dpkg packages are components, the run records the
// image under the name it was asked for), and one with a wrong password ends with 认证失败 —
// the password in no answer, run row, stored project or log line. A pull stopped half-way (a
// registry that stops sending a layer) ends at once and leaves no work folder behind.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryToolsMissing, startRegistry, writeOciLayout, type BuiltImage, type TestRegistry } from '../../support/registry.ts';
import { adminClient, databases, startServer, type TestClient, type TestServer } from './harness.ts';
import { waitForRun } from './sample-app.ts';

const PASSWORD = 'Alice-Registry-Pass-7731';
const WRONG = 'Not-Alices-Pass-4409';

const pkg = (name: string, version: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\nVersion: ${version}\n`;
const LAYERS: Record<string, string>[] = [
  {
    'etc/os-release': 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n',
    'var/lib/dpkg/status': pkg('base-files', '12.4+deb12u5'),
  },
  { 'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('curl', '7.88.1-10+deb12u5')].join('\n') },
];

const missing = registryToolsMissing();

describe.skipIf(missing !== null).each(databases)('a private registry image analysed on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let registry: TestRegistry;
  let built: BuiltImage;
  let work: string;
  let subjectId: number;
  let reference: string;
  const logs: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cairn-registry-project-'));
    registry = await startRegistry({ auth: 'htpasswd', users: { pusher: 'pusher-secret', alice: PASSWORD } });
    built = await writeOciLayout(path.join(work, 'layout'), 'app', [{ architecture: 'amd64', layers: LAYERS }]);
    await registry.push(built.layoutDir, 'app', 'team/app', '1.0');
    reference = `${registry.host}/team/app:1.0`;
    server = await startServer(database, { scanConcurrency: 1, logLevel: 'debug', logStream: { write: (line: string) => { logs.push(line); } } });
    admin = await adminClient(server);
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '仓库镜像应用', description: '', importance: 3 } });
    subjectId = created.body.data.id as number;
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const form = (over: Record<string, unknown> = {}) => ({
    getCodeType: 31, imageNameTag: reference, imageUsername: 'alice', imagePassword: PASSWORD, imageInsecure: true, ...over,
  });

  it('checks the form: the digest and platform with the right credentials, the reason otherwise', async () => {
    const ok = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form() });
    expect(ok.body.code, ok.body.message).toBe(1);
    expect(ok.body.data).toEqual({ reference, manifestDigest: built.platforms['linux/amd64']!.manifest, platforms: ['linux/amd64'], platform: 'linux/amd64' });
    expect(ok.body.message).toContain('校验通过');

    const wrong = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form({ imagePassword: WRONG }) });
    expect(wrong.body.code).not.toBe(1);
    expect(wrong.body.message).toContain('认证失败');
    expect(JSON.stringify(wrong.body)).not.toContain(WRONG);

    // Plain HTTP is never chosen silently.
    const https = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form({ imageInsecure: false }) });
    expect(https.body.code).not.toBe(1);
    expect(https.body.message).toContain(registry.host);

    const platform = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form({ imagePlatform: 'linux/arm64' }) });
    expect(platform.body.code).not.toBe(1);
    expect(platform.body.message).toContain('linux/arm64');

    const badCa = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form({ imageCaPem: 'not a certificate' }) });
    expect(badCa.body.code).not.toBe(1);
    expect(badCa.body.message).toContain('CA 证书无效');

    // Only the registry types are checked.
    const git = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form({ getCodeType: 17 }) });
    expect(git.body.code).not.toBe(1);
  });

  it('pulls the image with the stored credentials and analyses it', async () => {
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'registry-app', ...form() } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    const run = await waitForRun(admin, projectId);
    expect(run.status, run.message).toBe(2);

    const list = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=50`, body: {} });
    expect(list.body.code, list.body.message).toBe(1);
    type Row = { name: string; purl: string; layer: number | null };
    const rows = new Map((list.body.data.content as Row[]).map((r) => [r.name, r]));
    expect([...rows.keys()].sort()).toEqual(['base-files', 'curl']);
    expect(rows.get('curl')).toMatchObject({ purl: 'pkg:deb/debian/curl@7.88.1-10+deb12u5?arch=amd64&distro=debian-12', layer: 1 });

    const view = await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` });
    expect(view.body.data.run.image).toMatchObject({ reference, manifestDigest: built.platforms['linux/amd64']!.manifest, platform: 'linux/amd64' });

    // The edit form gets the options back, the password only as a flag; the check of the
    // edited project uses the stored password when the form leaves it empty.
    const stored = await admin.request({ method: 'GET', url: `/api/project/${projectId}` });
    expect(stored.body.data.source).toMatchObject({ imageNameTag: reference, imageUsername: 'alice', imageInsecure: true, hasImagePassword: true });
    expect(JSON.stringify(stored.body)).not.toContain(PASSWORD);
    const edited = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form({ imagePassword: undefined, projectId }) });
    expect(edited.body.code, edited.body.message).toBe(1);
    // Never lent to another registry host (someone who can see the project pointing the check at
    // a server of their own), nor sent in clear text when the project does not allow HTTP.
    const elsewhere = await admin.request({ method: 'POST', url: '/api/analysis/imageCheck', body: form({ imagePassword: undefined, projectId, imageNameTag: 'attacker.example:5000/app:1' }) });
    expect(elsewhere.body.code).not.toBe(1);
    expect(elsewhere.body.message).toContain('重新填写密码');
  });

  it('ends a run with a wrong password with 认证失败, the password nowhere', async () => {
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'registry-wrong', ...form({ imagePassword: WRONG }) } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    const run = await waitForRun(admin, projectId);
    expect(run.status).toBe(3);
    expect(run.message).toContain('认证失败');

    const db = server.app.cairn.db;
    const rows = await db.selectFrom('runs').selectAll().where('project_id', '=', projectId).execute();
    const projects = await db.selectFrom('projects').selectAll().where('id', '=', projectId).execute();
    const view = await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` });
    for (const text of [JSON.stringify(rows), JSON.stringify(projects), JSON.stringify(view.body), JSON.stringify(run), logs.join('')]) {
      expect(text).not.toContain(WRONG);
      expect(text).not.toContain(PASSWORD);
    }
    expect(logs.length).toBeGreaterThan(0);
    // the password is stored, encrypted
    expect(JSON.parse(projects[0]!.source).imagePassword).toMatch(/^v1:/);
  });

  it('stops a pull half-way when the run is stopped, and leaves no work folder', async () => {
    // A registry that serves the manifest and config, then sends part of the layer and stalls.
    const layout = await writeOciLayout(path.join(work, 'slow'), 'slow', [{ architecture: 'amd64', layers: [{ 'data/blob.bin': randomBytes(4 * 1024 * 1024).toString('base64') }] }]);
    const blob = (digest: string) => readFileSync(path.join(layout.layoutDir, 'blobs', 'sha256', digest.slice(7)));
    const { manifest, config, layers } = layout.platforms['linux/amd64']!;
    const stalled: http.ServerResponse[] = [];
    const slow = http.createServer((req, res) => {
      const url = req.url ?? '';
      if (url === '/v2/') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (url.endsWith('/manifests/1.0')) {
        return void res.writeHead(200, { 'content-type': 'application/vnd.oci.image.manifest.v1+json', 'docker-content-digest': manifest }).end(req.method === 'HEAD' ? undefined : blob(manifest));
      }
      if (url.endsWith(`/blobs/${config}`)) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(blob(config));
      if (url.endsWith(`/blobs/${layers[0]}`)) {
        const body = blob(layers[0]!);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
        // the pull reports every MiB: two pieces of more than that, the second after the
        // progress throttle, then nothing more
        const piece = Math.floor(body.length * 3 / 8);
        res.write(body.subarray(0, piece));
        setTimeout(() => res.write(body.subarray(piece, 2 * piece)), 800);
        stalled.push(res);
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const slowRef = `127.0.0.1:${(slow.address() as AddressInfo).port}/team/slow:1.0`;
      const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'registry-slow', getCodeType: 13, imageNameTag: slowRef, imageInsecure: true } });
      expect(launched.body.code, launched.body.message).toBe(1);
      const projectId = launched.body.data.projectId as number;
      const progressOf = async () => (await admin.request({ method: 'GET', url: `/api/project-task-view/progress?projectIds=${projectId}` })).body.data[0];
      // the preparing stage shows the bytes pulled
      let row = await progressOf();
      for (const deadline = Date.now() + 20_000; !String(row.message).includes('正在拉取镜像') && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 100));
        row = await progressOf();
      }
      expect(row).toMatchObject({ status: 1, stage: 'preparing' });
      expect(row.message).toMatch(new RegExp(`正在拉取镜像 ${slowRef.replace(/[.]/g, '\\.')}：.+ / .+（共 1 层）`));

      const stopped = await admin.request({ method: 'PATCH', url: `/api/code/notcheck/${projectId}` });
      expect(stopped.body.code, stopped.body.message).toBe(1);
      const after = await waitForRun(admin, projectId, 20_000);
      expect(after).toMatchObject({ status: 3, message: '任务已被用户停止' });
      // the run's folder (and the half-pulled layer in it) is gone
      const workDir = path.join(server.app.cairn.dataDir, 'work');
      await expect.poll(() => (existsSync(workDir) ? readdirSync(workDir).filter((f) => f.startsWith('run-')) : []), { timeout: 10_000 }).toEqual([]);
    } finally {
      for (const res of stalled) res.destroy();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  }, 60_000);
});
