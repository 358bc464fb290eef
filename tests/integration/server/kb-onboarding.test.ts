// Knowledge-base onboarding from the app, over HTTP on SQLite and PostgreSQL: chunked uploads
// turned into one queued import job with per-file outcome rows (imported, skipped, refused) and
// the uploads consumed; a trivy database folder packed as a zip; cancelling a waiting and a running
// job; another user's upload refused; and the mirror sync's settings (saved over the CAIRN_KB_*
// defaults, validated, applied to the schedule without restart, tested against a loopback mirror,
// synced now).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_FILE_ROWS_MAX } from '../../../contract/api/kb-import.ts';
import { ROLE } from '../../../contract/permissions.ts';
import { findUpload } from '../../../server/db/repositories/uploads.ts';
import { uploadPath } from '../../../server/uploads/store.ts';
import { adminClient, databases, signIn, startServer, useServer, type TestClient } from './harness.ts';

const CORPORA = path.resolve(import.meta.dirname, '../../../../shared/corpora');
const GO = path.join(CORPORA, 'advisories/go');
const TRIVY_DB = path.join(CORPORA, 'trivy/db');

/** A zip of `entries` (name -> file on disk, or bytes), in memory. */
function zipOf(entries: Array<[string, string | Buffer]>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, source] of entries) {
    if (typeof source === 'string') zip.addFile(source, name);
    else zip.addBuffer(source, name);
  }
  zip.end();
  const parts: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => parts.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    zip.outputStream.on('error', reject);
  });
}

const goFiles = (n: number) => fs.readdirSync(GO).filter((f) => f.endsWith('.json')).sort().slice(0, n);

async function upload(client: TestClient, fileName: string, bytes: Buffer): Promise<string> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const created = await client.request({ method: 'POST', url: '/api/upload', body: { fileName, size: bytes.length, sha256 } });
  expect(created.body.code).toBe(1);
  const id = created.body.data.uploadId as string;
  for (let offset = 0; offset < bytes.length; offset += 8 * 1024 * 1024) {
    const put = await client.request({ method: 'PUT', url: `/api/upload/${id}?offset=${offset}`, body: bytes.subarray(offset, offset + 8 * 1024 * 1024), headers: { 'content-type': 'application/octet-stream' } });
    expect(put.body.code).toBe(1);
  }
  return id;
}

const record = async (client: TestClient, id: number) => (await client.request({ method: 'GET', url: `/api/vulnerability/system/import/record/${id}` })).body.data;

async function until(client: TestClient, id: number, done: (r: { status: number; progress: number }) => boolean) {
  for (let i = 0; i < 1200; i += 1) {
    const r = await record(client, id);
    if (done(r)) return r;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`import ${id} never reached the expected state`);
}
const finished = (client: TestClient, id: number) => until(client, id, (r) => r.status !== 1 && r.status !== 4);

const files = async (client: TestClient, id: number, query = 'page=1&size=100') =>
  (await client.request({ method: 'GET', url: `/api/vulnerability/system/import/files/${id}?${query}` })).body.data;

describe.each(databases)('knowledge-base onboarding on $name', (database) => {
  const server = useServer(database);
  let admin: TestClient;
  let other: TestClient;
  beforeAll(async () => {
    admin = await adminClient(server);
    other = (await signIn(server, 'kbadmin2', 'Kbadmin@12345', [ROLE.DOMAIN_ADMIN])).client;
  });

  it('imports uploaded files as one queued job, lists every file with its outcome and consumes the uploads', async () => {
    const names = goFiles(3);
    const zip = await zipOf([
      ...names.map((n): [string, string] => [`osv/${n}`, path.join(GO, n)]),
      ['osv/README.txt', Buffer.from('OSV export\n')],
      ['osv/broken.json', Buffer.from('{"id": "GO-0000-0000", "affected": [')],
    ]);
    const zipId = await upload(admin, 'go-osv.zip', zip);
    const single = names[3] ?? goFiles(4)[3]!;
    const jsonId = await upload(admin, single, fs.readFileSync(path.join(GO, single)));

    const started = await admin.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [zipId, jsonId] } });
    expect(started.body).toMatchObject({ code: 1, message: '已加入导入队列，导入结果请查看导入记录' });
    const id = started.body.data.recordId as number;
    const done = await finished(admin, id);
    expect(done).toMatchObject({ kind: 'osv', name: 'go-osv.zip 等 2 个文件', status: 2, statusLabel: '导入成功', progress: 100, imported: 4, failed: 1, fileCount: 6, filesOmitted: 0 });

    const rows = await files(admin, id);
    expect(rows.total).toBe(6);
    const byFile = new Map(rows.content.map((r: { file: string }) => [r.file, r]));
    for (const n of names) expect(byFile.get(`go-osv.zip/osv/${n}`)).toEqual({ file: `go-osv.zip/osv/${n}`, outcome: 1, outcomeLabel: '已导入', advisories: 1, reason: '' });
    expect(byFile.get('go-osv.zip/osv/README.txt')).toMatchObject({ outcome: 2, outcomeLabel: '已跳过', advisories: 0, reason: expect.stringContaining('已跳过') });
    expect(byFile.get('go-osv.zip/osv/broken.json')).toMatchObject({ outcome: 3, outcomeLabel: '已拒绝', reason: expect.any(String) });
    expect(byFile.get(single)).toMatchObject({ outcome: 1, advisories: 1 });
    const paged = await files(admin, id, 'page=2&size=4');
    expect(paged).toMatchObject({ total: 6 });
    expect(paged.content).toHaveLength(2);

    // The uploads are gone, row and file, once the job has ended.
    const { db, dataDir, kbImports } = server.app.cairn;
    await kbImports.idle();
    for (const uploadId of [zipId, jsonId]) {
      expect(await findUpload(db, uploadId)).toBeNull();
      expect(fs.existsSync(uploadPath(dataDir, uploadId))).toBe(false);
    }
    const again = await admin.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [zipId] } });
    expect(again.body).toMatchObject({ code: 0, message: '上传不存在、已被使用或尚未完成，请重新上传' });

    const detail = await admin.request({ method: 'GET', url: `/api/vulnerability/${names[0]!.replace(/\.json$/, '')}` });
    expect(detail.body.code).toBe(1);
  });

  it('keeps at most IMPORT_FILE_ROWS_MAX per-file rows and says how many were left out', async () => {
    const all = goFiles(IMPORT_FILE_ROWS_MAX);
    // Every Go advisory of the corpus, then plain files past the cap: each is a row (已导入 or 已跳过).
    const extra = IMPORT_FILE_ROWS_MAX - all.length + 25;
    const zip = await zipOf([
      ...all.map((n): [string, string] => [n, path.join(GO, n)]),
      ...Array.from({ length: extra }, (_, i): [string, Buffer] => [`notes/${String(i).padStart(4, '0')}.txt`, Buffer.from('-')]),
    ]);
    const id = (await admin.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [await upload(admin, 'capped.zip', zip)] } })).body.data.recordId;
    const done = await finished(admin, id);
    expect(done).toMatchObject({ status: 2, fileCount: IMPORT_FILE_ROWS_MAX, filesOmitted: 25 });
    expect((await files(admin, id, 'page=1&size=1')).total).toBe(IMPORT_FILE_ROWS_MAX);
  });

  it('imports a trivy database folder packed into a zip', async () => {
    const yamls = fs.readdirSync(TRIVY_DB).filter((n) => n.endsWith('.yaml'));
    const zip = await zipOf(yamls.map((n): [string, string] => [`db/${n}`, path.join(TRIVY_DB, n)]));
    const id = (await admin.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [await upload(admin, 'db.zip', zip)] } })).body.data.recordId;
    const done = await finished(admin, id);
    expect(done.status).toBe(2);
    expect(done.imported + done.updated + done.unchanged).toBeGreaterThan(10);
    const rows = await files(admin, id, 'page=1&size=500');
    expect(rows.total).toBe(yamls.length);
    expect(rows.content.find((r: { file: string }) => r.file === 'vulnerability.yaml')).toMatchObject({ outcome: 1, advisories: expect.any(Number) });
  });

  it('refuses another user\'s upload, and imports nothing', async () => {
    const name = goFiles(1)[0]!;
    const mine = await upload(admin, name, fs.readFileSync(path.join(GO, name)));
    const before = (await admin.request({ method: 'GET', url: '/api/vulnerability/system/import/record' })).body.data.total;
    const refused = await other.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [mine] } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('只能导入自己上传的文件');
    expect((await admin.request({ method: 'GET', url: '/api/vulnerability/system/import/record' })).body.data.total).toBe(before);
    expect(await findUpload(server.app.cairn.db, mine)).not.toBeNull();
    const user = (await signIn(server, 'kbreader', 'Kbreader@12345')).client;
    expect((await user.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [mine] } })).status).toBe(403);
  });

  it('runs one import at a time; cancels a waiting job and a running one, keeping what was committed', async () => {
    const all = goFiles(4000);
    const big = await zipOf(all.map((n): [string, string] => [n, path.join(GO, n)]));
    const first = (await admin.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [await upload(admin, 'go-all.zip', big)] } })).body.data.recordId;
    const secondUpload = await upload(admin, all[0]!, fs.readFileSync(path.join(GO, all[0]!)));
    const second = (await admin.request({ method: 'POST', url: '/api/vulnerability/system/import/upload', body: { uploadIds: [secondUpload] } })).body.data.recordId;
    expect(await record(admin, second)).toMatchObject({ status: 4, statusLabel: '排队中' });

    const cancelWaiting = await admin.request({ method: 'POST', url: `/api/vulnerability/system/import/record/${second}/cancel` });
    expect(cancelWaiting.body).toMatchObject({ code: 1, message: '已取消导入', data: { id: second, status: 5 } });
    expect(await record(admin, second)).toMatchObject({ status: 5, statusLabel: '已取消', imported: 0, message: '已取消：导入尚未开始' });
    expect(await findUpload(server.app.cairn.db, secondUpload)).toBeNull();

    await until(admin, first, (r) => {
      const c = r as unknown as { imported: number; updated: number; unchanged: number };
      return r.status === 1 && c.imported + c.updated + c.unchanged > 0;
    });
    const cancelRunning = await admin.request({ method: 'POST', url: `/api/vulnerability/system/import/record/${first}/cancel` });
    expect(cancelRunning.body).toMatchObject({ code: 1, data: { id: first, status: 5 } });
    const ended = await record(admin, first);
    expect(ended).toMatchObject({ status: 5, statusLabel: '已取消' });
    expect(ended.message).toMatch(/^已取消：/);
    const committed = ended.imported + ended.updated + ended.unchanged;
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(all.length);

    const over = await admin.request({ method: 'POST', url: `/api/vulnerability/system/import/record/${first}/cancel` });
    expect(over.body).toMatchObject({ code: 0, message: '该导入已结束，无法取消' });
  });
});

/** A mirror laid out like OSV's bucket on loopback: <base>/Go/all.zip. */
async function startMirror(zip: Buffer): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const lastModified = 'Wed, 21 Oct 2026 07:28:00 GMT';
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url !== '/osv/Go/all.zip') { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length, 'last-modified': lastModified, etag: '"go-1"' });
    res.end(req.method === 'HEAD' ? undefined : zip);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/osv`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(databases)('mirror sync settings on $name', (database) => {
  let mirror: Awaited<ReturnType<typeof startMirror>>;
  let zip: Buffer;
  beforeAll(async () => {
    zip = await zipOf(goFiles(5).map((n): [string, string] => [n, path.join(GO, n)]));
    mirror = await startMirror(zip);
  });
  afterAll(() => mirror.close());

  it('answers the CAIRN_KB_* defaults until settings are saved, then the saved ones, applied to the schedule', async () => {
    const server = await startServer(database, { kbSync: { mirror: 'https://mirror.example.com/osv', ecosystems: ['npm', 'PyPI'], everyHours: 12, downloadDir: '' } });
    try {
      const admin = await adminClient(server);
      const first = (await admin.request({ method: 'GET', url: '/api/vulnerability/system/sync/settings' })).body.data;
      expect(first).toMatchObject({ source: 'env', settings: { mirror: 'https://mirror.example.com/osv', ecosystems: ['npm', 'PyPI'], everyHours: 12 }, running: false });
      expect(first.ecosystemsAvailable).toEqual(expect.arrayContaining(['npm', 'Maven', 'Go', 'crates.io', 'Debian']));
      expect(Date.parse(first.nextRunAt)).toBeGreaterThan(Date.now());

      const saved = await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/settings', body: { mirror: `${mirror.url}/`, ecosystems: ['Go', 'Go'], everyHours: 6 } });
      expect(saved.body).toMatchObject({ code: 1, message: '保存成功', data: { source: 'saved', settings: { mirror: mirror.url, ecosystems: ['Go'], everyHours: 6 } } });
      const next = Date.parse(saved.body.data.nextRunAt);
      expect(next).toBeGreaterThan(Date.now() + 5.9 * 3600_000);
      expect(next).toBeLessThanOrEqual(Date.now() + 6 * 3600_000);

      const off = await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/settings', body: { mirror: mirror.url, ecosystems: ['Go'], everyHours: 0 } });
      expect(off.body.data).toMatchObject({ source: 'saved', nextRunAt: null });
    } finally {
      await server.close();
    }
  });

  it('refuses bad addresses and ecosystems, and keeps credentials out', async () => {
    const server = await startServer(database);
    try {
      const admin = await adminClient(server);
      expect((await admin.request({ method: 'GET', url: '/api/vulnerability/system/sync/settings' })).body.data).toMatchObject({ source: 'none', settings: { mirror: '', everyHours: 0 }, nextRunAt: null, state: [] });
      const cases: Array<[object, string]> = [
        [{ mirror: 'ftp://mirror/osv', ecosystems: ['Go'], everyHours: 1 }, '镜像地址只支持 http 或 https'],
        [{ mirror: 'not a url', ecosystems: ['Go'], everyHours: 1 }, '镜像地址无效，请填写完整的 http:// 或 https:// 地址'],
        [{ mirror: 'https://user:secret@mirror.example.com/osv', ecosystems: ['Go'], everyHours: 1 }, '镜像地址不能包含用户名或密码'],
        [{ mirror: 'https://mirror.example.com/osv', ecosystems: [], everyHours: 1 }, '请至少选择一个要同步的生态'],
        [{ mirror: 'https://mirror.example.com/osv', ecosystems: ['../etc'], everyHours: 1 }, '生态名称无效：../etc'],
      ];
      for (const [body, message] of cases) {
        const reply = await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/settings', body });
        expect(reply.body.message).toBe(message);
      }
      expect((await admin.request({ method: 'GET', url: '/api/vulnerability/system/sync/settings' })).body.data.source).toBe('none');
      expect((await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/run' })).body.message).toBe('尚未设置镜像地址，无法同步');
    } finally {
      await server.close();
    }
  });

  it('tests the connection against the mirror and syncs now, showing each ecosystem\'s last result', async () => {
    const server = await startServer(database);
    try {
      const admin = await adminClient(server);
      const ok = await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/test', body: { mirror: mirror.url, ecosystem: 'Go' } });
      expect(ok.body.data).toEqual({ url: `${mirror.url}/Go/all.zip`, reachable: true, httpStatus: 200, size: zip.length, lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT', message: expect.stringMatching(/^连接成功，文件大小 /) });
      expect(mirror.requests).toContain('HEAD /osv/Go/all.zip');
      const missing = await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/test', body: { mirror: mirror.url, ecosystem: 'npm' } });
      expect(missing.body.data).toMatchObject({ reachable: false, httpStatus: 404, message: '镜像上没有该生态的数据（HTTP 404）：npm/all.zip' });
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const refused = await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/test', body: { mirror: `http://127.0.0.1:${port}/osv`, ecosystem: 'Go' } });
      expect(refused.body.data).toMatchObject({ reachable: false, httpStatus: null, message: '无法连接镜像：连接被拒绝' });

      await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/settings', body: { mirror: mirror.url, ecosystems: ['Go', 'npm'], everyHours: 24 } });
      const run = await admin.request({ method: 'POST', url: '/api/vulnerability/system/sync/run' });
      expect(run.body).toMatchObject({ code: 1, data: { started: true } });
      await (server.app.cairn.kbSync as unknown as { idle(): Promise<void> }).idle();
      const overview = (await admin.request({ method: 'GET', url: '/api/vulnerability/system/sync/settings' })).body.data;
      const go = overview.state.find((s: { ecosystem: string }) => s.ecosystem === 'Go');
      expect(go).toMatchObject({ bytes: zip.length, lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT', status: 2, statusLabel: '导入成功', completedAt: expect.any(String) });
      expect(go.message).toMatch(/^新增 5/);
      const npm = overview.state.find((s: { ecosystem: string }) => s.ecosystem === 'npm');
      expect(npm).toMatchObject({ bytes: 0, status: 3, statusLabel: '导入失败', completedAt: null });
      expect(npm.message).toContain('HTTP 404');
    } finally {
      await server.close();
    }
  });
});
