// The desktop report library against a small HTTP platform that serves report files exactly as
// contract/api/report.ts says (GET /api/report/download/{id}: the file, `Range: bytes=N-` -> 206
// when If-Range matches, ETag "<sha256>", x-content-sha256; failures are envelopes), behind a
// session cookie, with modes that cut the connection mid-way or announce a wrong checksum.
// Through main's real API client: download, resume with 206, verify, corrupt -> retry, remove,
// two profiles, and the IPC wiring (dispatcher + app services) including review by library id.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryEntry, Profile } from '../../../contract/ipc/desktop-contract.ts';
import { createDispatcher } from '../../../main/ipc/dispatcher.ts';
import { createHandlers } from '../../../main/ipc/handlers.ts';
import { createApiClient, type ApiClient } from '../../../main/services/api-client.ts';
import { createAppServices } from '../../../main/services/app-services.ts';
import { createReportLibrary, LIBRARY_MSG, type ReportLibrary, type ReportLibraryOptions } from '../../../main/services/report-library.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { readForReview } from '../../../main/services/review/index.ts';
import { createVault } from '../../../main/services/vault.ts';
import { fakePlatform, memoryKeyring } from '../../unit/main/fakes.ts';
import { tempDir } from './helpers.ts';
import ExcelJS from 'exceljs';
import net from 'node:net';
import { mkdirSync } from 'node:fs';
import { databases, startServer, type TestServer } from '../server/harness.ts';

const MiB = 1024 * 1024;
const SESSION = 'sid=report-test-session';

interface Served {
  name: string;
  body: Buffer;
  /** Cut the connection after this many bytes of the body, on the next full or ranged answer only. */
  dropAfter?: number;
  /** Announce this checksum instead of the real one. */
  announce?: string;
}

interface Logged {
  id: number;
  status: number;
  range: string | null;
  ifRange: string | null;
}

const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

/** The platform's download route, as the contract describes it. */
async function startReportServer() {
  const files = new Map<number, Served>();
  const log: Logged[] = [];
  const envelope = (res: ServerResponse, code: number, message: string) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ code, message, data: null }));
  };
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/api/csrf') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ code: 1, message: '', data: { token: 'csrf-token', header: 'x-csrf-token' } }));
    }
    if (req.method === 'POST' && req.url === '/api/login') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': `${SESSION}; Path=/; HttpOnly` });
      return res.end(JSON.stringify({ code: 1, message: '登录成功', data: null }));
    }
    const match = /^\/api\/report\/download\/(\d+)$/.exec(req.url ?? '');
    if (!match || req.method !== 'GET') return envelope(res, 0, '请求地址出错');
    if (!(req.headers.cookie ?? '').includes(SESSION)) return envelope(res, 3, '登录已失效，请重新登录');
    const id = Number(match[1]);
    const file = files.get(id);
    if (!file) return envelope(res, 0, '报告不存在或已删除');
    const digest = sha(file.body);
    const etag = `"${digest}"`;
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
    const ifRange = req.headers['if-range'] ? String(req.headers['if-range']) : null;
    const ranged = !!range && (ifRange === null || ifRange === etag);
    const start = ranged ? Number(range[1]) : 0;
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'x-content-sha256': file.announce ?? digest,
    };
    if (ranged && start >= file.body.length) {
      log.push({ id, status: 416, range: String(req.headers.range), ifRange });
      res.writeHead(416, { 'Content-Range': `bytes */${file.body.length}` });
      return res.end();
    }
    const status = ranged ? 206 : 200;
    log.push({ id, status, range: req.headers.range ? String(req.headers.range) : null, ifRange });
    if (ranged) headers['Content-Range'] = `bytes ${start}-${file.body.length - 1}/${file.body.length}`;
    headers['Content-Length'] = String(file.body.length - start);
    res.writeHead(status, headers);
    const rest = file.body.subarray(start);
    if (file.dropAfter !== undefined) {
      const cut = file.dropAfter;
      file.dropAfter = undefined;
      // Half the bytes, then the connection dies (a flaky link).
      res.write(rest.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(rest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    files,
    log,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const profile = (id: string, name: string, url: string): Profile => ({
  id, name, kind: id === 'local' ? 'local' : 'remote', url, username: 'lena', rememberPassword: false, allowSelfSigned: false, createdAt: '2026-01-01T00:00:00.000Z', lastUsedAt: null,
});

describe('report library downloads', () => {
  let server: Awaited<ReturnType<typeof startReportServer>>;
  const work = tempDir('cairn-library-');
  const libraries: ReportLibrary[] = [];
  const owners = new Map<string, { profile: Profile; client: ApiClient }>();
  let active = 'local';

  const login = async (client: ApiClient) => {
    const env = await client.call({ method: 'POST', path: '/api/login', body: { username: 'lena', password: 'x' } }, { expireSession: false });
    expect(env.code).toBe(1);
  };

  beforeAll(async () => {
    server = await startReportServer();
    for (const [id, name] of [['local', '本机'], ['team', '团队服务器']] as const) {
      const client = createApiClient({ baseUrl: () => server.url, timeoutMs: 5000 });
      await login(client);
      owners.set(id, { profile: profile(id, name, id === 'local' ? '' : server.url), client });
    }
  });
  afterAll(async () => {
    for (const library of libraries) await library.dispose();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  function library(dataDir = path.join(work, 'data'), extra: Partial<ReportLibraryOptions> = {}) {
    const events: LibraryEntry[] = [];
    const lib = createReportLibrary({
      dataDir,
      active: () => owners.get(active)!,
      forProfile: (id) => owners.get(id) ?? null,
      emit: (entry) => events.push(entry),
      progressIntervalMs: 0,
      timing: { firstRetryDelayMs: 20, maxRetryDelayMs: 100, retryWindowMs: 5000 },
      ...extra,
    });
    libraries.push(lib);
    return { lib, events };
  }

  const serve = (id: number, file: Served) => {
    server.files.set(id, file);
    return file.body;
  };
  const onDisk = (entry: LibraryEntry, dataDir = path.join(work, 'data')) => path.join(dataDir, 'library', entry.profileId, entry.id);

  it('downloads a report with progress into its folder with entry.json', async () => {
    const body = serve(1, { name: '项目A-报告.pdf', body: randomBytes(3 * MiB) });
    const { lib, events } = library();
    const started = await lib.download({ reportId: 1, fileName: '项目A-报告.pdf', format: 'pdf', subjectName: '主体一', projectName: '项目A', taskId: 7, generatedAt: '2026-05-01T08:00:00.000Z' });
    expect(started.state).toBe('downloading');
    const done = await lib.settled(started.id);
    expect(done).toMatchObject({ state: 'done', size: body.length, received: body.length, sha256: sha(body), error: null, profileId: 'local', profileName: '本机', taskId: 7 });
    expect(done.downloadedAt).not.toBeNull();
    const dir = onDisk(done);
    expect(readFileSync(path.join(dir, '项目A-报告.pdf')).equals(body)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['entry.json', '项目A-报告.pdf']);
    const stored = JSON.parse(readFileSync(path.join(dir, 'entry.json'), 'utf8')) as LibraryEntry;
    expect(stored).toMatchObject({ id: done.id, reportId: 1, subjectName: '主体一', projectName: '项目A', format: 'pdf', generatedAt: '2026-05-01T08:00:00.000Z', sha256: sha(body), state: 'done' });
    // Progress went up to the size, and the last event is the finished entry.
    const received = events.filter((e) => e.id === done.id).map((e) => e.received);
    expect(received.some((r) => r > 0 && r < body.length)).toBe(true);
    expect(events.at(-1)).toMatchObject({ id: done.id, state: 'done' });
    // Downloading the same report again reuses the finished entry.
    expect((await lib.download({ reportId: 1, fileName: '项目A-报告.pdf', format: 'pdf' })).id).toBe(done.id);
  });

  it.skipIf(process.platform === 'win32')('keeps its folders 0700 and its files 0600 under a permissive umask, resumed downloads too', async () => {
    const body = serve(30, { name: 'private.pdf', body: randomBytes(2 * MiB), dropAfter: 0.5 * MiB });
    const dataDir = path.join(work, 'private-home');
    const umask = process.umask(0o000);
    try {
      const { lib } = library(dataDir);
      const entry = await lib.download({ reportId: 30, fileName: 'private.pdf', format: 'pdf' });
      const done = await lib.settled(entry.id);
      expect(done).toMatchObject({ state: 'done', size: body.length });
      const dir = onDisk(done, dataDir);
      const modeOf = (p: string) => statSync(p).mode & 0o777;
      for (const d of [dataDir, path.join(dataDir, 'library'), path.join(dataDir, 'library', done.profileId), dir]) expect(modeOf(d), d).toBe(0o700);
      for (const f of ['private.pdf', 'entry.json']) expect(modeOf(path.join(dir, f)), f).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  });

  it('resumes a dropped connection with Range + If-Range and a 206, ending with the right SHA-256', async () => {
    const body = serve(2, { name: 'sbom.CycloneDX.json', body: randomBytes(4 * MiB), dropAfter: 1.5 * MiB });
    server.log.length = 0;
    const { lib, events } = library();
    const entry = await lib.download({ reportId: 2, fileName: 'sbom.CycloneDX.json', format: 'cyclonedx' });
    const done = await lib.settled(entry.id);
    expect(done.state).toBe('done');
    expect(events.some((e) => e.id === entry.id && e.state === 'retrying')).toBe(true);
    const requests = server.log.filter((l) => l.id === 2);
    expect(requests[0]).toMatchObject({ status: 200, range: null });
    expect(requests[1]!.status).toBe(206);
    expect(requests[1]!.range).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(requests[1]!.range!)![0])).toBeGreaterThan(0);
    expect(requests[1]!.ifRange).toBe(`"${sha(body)}"`);
    expect(lib.statuses(entry.id)).toEqual([200, 206]);
    expect(sha(readFileSync(path.join(onDisk(done), 'sbom.CycloneDX.json')))).toBe(sha(body));
  });

  it('marks a truncated or altered file corrupt on verify, and retry downloads it again', async () => {
    const body = serve(3, { name: 'report.xlsx', body: randomBytes(MiB) });
    const { lib } = library();
    const entry = await lib.settled((await lib.download({ reportId: 3, fileName: 'report.xlsx', format: 'excel' })).id);
    const file = path.join(onDisk(entry), 'report.xlsx');
    expect((await lib.verify(entry.id)).state).toBe('done');

    truncateSync(file, 1000);
    expect(await lib.verify(entry.id)).toMatchObject({ state: 'corrupt', error: LIBRARY_MSG.corrupt });
    expect(JSON.parse(readFileSync(path.join(onDisk(entry), 'entry.json'), 'utf8')).state).toBe('corrupt');
    await lib.retry(entry.id);
    expect((await lib.settled(entry.id)).state).toBe('done');
    expect(readFileSync(file).equals(body)).toBe(true);

    // Same size, one byte changed: only the checksum can tell.
    const altered = Buffer.from(body);
    altered[500] ^= 0xff;
    writeFileSync(file, altered);
    expect((await lib.verify(entry.id)).state).toBe('corrupt');
    await lib.retry(entry.id);
    expect((await lib.settled(entry.id)).state).toBe('done');
    expect(readFileSync(file).equals(body)).toBe(true);

    rmSync(file);
    expect((await lib.verify(entry.id)).state).toBe('corrupt');
  });

  it('never gives the report its name when the announced checksum does not match', async () => {
    const body = serve(4, { name: 'bad.docx', body: randomBytes(256 * 1024), announce: 'a'.repeat(64) });
    const { lib } = library();
    const entry = await lib.settled((await lib.download({ reportId: 4, fileName: 'bad.docx', format: 'word' })).id);
    expect(entry).toMatchObject({ state: 'corrupt', error: LIBRARY_MSG.checksum });
    const dir = onDisk(entry);
    expect(existsSync(path.join(dir, 'bad.docx'))).toBe(false);
    // The bytes are kept (nothing is deleted silently) under the .part name.
    expect(readFileSync(path.join(dir, 'bad.docx.part')).equals(body)).toBe(true);
    // Fixed on the platform: a retry starts over and lands.
    server.files.get(4)!.announce = undefined;
    await lib.retry(entry.id);
    expect((await lib.settled(entry.id)).state).toBe('done');
    expect(existsSync(path.join(dir, 'bad.docx.part'))).toBe(false);
    expect(readFileSync(path.join(dir, 'bad.docx')).equals(body)).toBe(true);
  });

  it('fails with the platform message when the report is gone, and removes the local copy only on remove', async () => {
    const { lib } = library();
    const missing = await lib.settled((await lib.download({ reportId: 999, fileName: 'x.pdf', format: 'pdf' })).id);
    expect(missing.state).toBe('failed');
    expect(missing.error).toContain('报告不存在或已删除');

    serve(5, { name: 'keep.pdf', body: randomBytes(10_000) });
    const entry = await lib.settled((await lib.download({ reportId: 5, fileName: 'keep.pdf', format: 'pdf' })).id);
    // The platform deleting the report does not touch the library copy.
    server.files.delete(5);
    expect(lib.list().some((e) => e.id === entry.id && e.state === 'done')).toBe(true);
    expect(existsSync(path.join(onDisk(entry), 'keep.pdf'))).toBe(true);
    expect(await lib.remove(entry.id)).toBeNull();
    expect(existsSync(onDisk(entry))).toBe(false);
    expect(lib.list().some((e) => e.id === entry.id)).toBe(false);
    await expect(lib.verify(entry.id)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('cancels a download and resumes it from the .part with retry', async () => {
    const body = serve(6, { name: 'big.zip', body: randomBytes(6 * MiB), dropAfter: 2 * MiB });
    server.log.length = 0;
    // A long first retry delay holds the download in `retrying` after the cut.
    const { lib, events } = library(undefined, { timing: { firstRetryDelayMs: 10_000, retryWindowMs: 60_000 } });
    const entry = await lib.download({ reportId: 6, fileName: 'big.zip', format: 'swid' });
    const until = Date.now() + 5000;
    while (!events.some((e) => e.id === entry.id && e.state === 'retrying')) {
      if (Date.now() > until) throw new Error('never retried');
      await new Promise((r) => setTimeout(r, 10));
    }
    const cancelled = await lib.cancel(entry.id);
    expect(cancelled.state).toBe('cancelled');
    expect(existsSync(path.join(onDisk(entry), 'big.zip.part'))).toBe(true);
    const resumed = await lib.retry(entry.id);
    expect(resumed.received).toBeGreaterThan(0);
    expect((await lib.settled(entry.id)).state).toBe('done');
    expect(server.log.filter((l) => l.id === 6).map((l) => l.status)).toEqual([200, 206]);
    expect(readFileSync(path.join(onDisk(entry), 'big.zip')).equals(body)).toBe(true);
  });

  it('lists entries of every profile newest first, searches names and filters by profile; reloads from disk', async () => {
    const dataDir = path.join(work, 'two-profiles');
    const { lib } = library(dataDir);
    serve(10, { name: 'alpha.pdf', body: randomBytes(1000) });
    serve(11, { name: 'beta.spdx.json', body: randomBytes(1000) });
    active = 'local';
    const a = await lib.settled((await lib.download({ reportId: 10, fileName: 'alpha.pdf', format: 'pdf', subjectName: '支付系统', projectName: 'pay-core' })).id);
    active = 'team';
    const b = await lib.settled((await lib.download({ reportId: 11, fileName: 'beta.spdx.json', format: 'spdx', subjectName: '门户', projectName: 'portal-web' })).id);
    active = 'local';
    expect(b).toMatchObject({ profileId: 'team', profileName: '团队服务器', state: 'done' });
    expect(lib.list().map((e) => e.id)).toEqual([b.id, a.id]);
    expect(lib.list({ profileId: 'team' }).map((e) => e.id)).toEqual([b.id]);
    expect(lib.list({ query: '支付' }).map((e) => e.id)).toEqual([a.id]);
    expect(lib.list({ query: 'PORTAL' }).map((e) => e.id)).toEqual([b.id]);
    expect(lib.list({ query: 'alpha', profileId: 'team' })).toEqual([]);
    // A new app run reads the same library back from entry.json files.
    const again = library(dataDir).lib;
    expect(again.list().map((e) => [e.id, e.state])).toEqual([[b.id, 'done'], [a.id, 'done']]);
    expect(readdirSync(path.join(dataDir, 'library')).sort()).toEqual(['local', 'team']);
  });

  it('reports a download cut by an app exit as failed on the next run, and resumes it', async () => {
    const dataDir = path.join(work, 'restart');
    const body = serve(20, { name: 'later.pdf', body: randomBytes(2 * MiB), dropAfter: MiB });
    const first = library(dataDir, { timing: { firstRetryDelayMs: 10_000 } });
    const entry = await first.lib.download({ reportId: 20, fileName: 'later.pdf', format: 'pdf' });
    const until = Date.now() + 5000;
    while (!first.events.some((e) => e.state === 'retrying')) {
      if (Date.now() > until) throw new Error('never retried');
      await new Promise((r) => setTimeout(r, 10));
    }
    await first.lib.dispose();
    const second = library(dataDir).lib;
    expect(second.get(entry.id)).toMatchObject({ state: 'failed', error: LIBRARY_MSG.interrupted });
    await second.retry(entry.id);
    expect((await second.settled(entry.id)).state).toBe('done');
    expect(second.statuses(entry.id)).toEqual([206]);
    expect(readFileSync(path.join(dataDir, 'library', 'local', entry.id, 'later.pdf')).equals(body)).toBe(true);
  });

  it('refuses to retry an entry whose profile was removed', async () => {
    const dataDir = path.join(work, 'gone');
    serve(30, { name: 'g.pdf', body: randomBytes(1000), announce: 'b'.repeat(64) });
    const { lib } = library(dataDir, { forProfile: () => null });
    const entry = await lib.settled((await lib.download({ reportId: 30, fileName: 'g.pdf', format: 'pdf' })).id);
    expect(entry.state).toBe('corrupt');
    await expect(lib.retry(entry.id)).rejects.toMatchObject({ code: 'profile-gone', message: LIBRARY_MSG.profileGone });
  });

  it('works through IPC: download, list, review by id, and the web host refusing system programs', async () => {
    const dataDir = path.join(work, 'ipc');
    const services = createAppServices({ shell: 'web', version: '0.1.0', dataDir, store: createMemoryStore(), vault: createVault({ backend: memoryKeyring() }), platform: fakePlatform(server.url) });
    const dispatcher = createDispatcher(createHandlers(services), { checkResponses: true });
    await login(services.clients.active().client);
    const openvex = readFileSync(path.join(import.meta.dirname, '../../../../shared/corpora/trivy/vex/file/openvex.json'));
    serve(40, { name: 'task.openvex.json', body: openvex });
    const progress: unknown[] = [];
    services.onEvent((channel, payload) => channel === 'library:progress' && progress.push(payload));

    const started = await dispatcher.dispatch('library:download', { reportId: 40, fileName: 'task.openvex.json', format: 'vex', projectName: 'trivy' });
    expect(started).toMatchObject({ ok: true, value: { state: 'downloading', profileId: 'local' } });
    const id = (started as { value: LibraryEntry }).value.id;
    await services.library.settled(id);
    expect(progress.length).toBeGreaterThan(0);
    expect(await dispatcher.dispatch('library:list', { query: 'trivy' })).toMatchObject({ ok: true, value: [{ id, state: 'done' }] });
    expect(await dispatcher.dispatch('library:verify', { id })).toMatchObject({ ok: true, value: { state: 'done' } });
    const review = await dispatcher.dispatch('review:open', { id });
    expect(review).toMatchObject({ ok: true, value: { kind: 'sbom', standard: 'OpenVEX 0.2.0', fileName: 'task.openvex.json' } });
    expect(await dispatcher.dispatch('library:open-external', { id })).toEqual({ ok: false, error: { code: 'unsupported', message: '网页版无法调用系统程序，请在桌面客户端中使用' } });
    expect(await dispatcher.dispatch('library:reveal', { id })).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    expect(await dispatcher.dispatch('review:pick', {})).toMatchObject({ ok: false, error: { code: 'no-native-dialog' } });
    expect(await dispatcher.dispatch('review:open', {})).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await dispatcher.dispatch('library:retry', { id: 'nope' })).toMatchObject({ ok: false, error: { code: 'not-found', message: LIBRARY_MSG.unknown } });
    expect(await dispatcher.dispatch('library:remove', { id })).toEqual({ ok: true, value: null });
    expect(await dispatcher.dispatch('library:list', {})).toEqual({ ok: true, value: [] });
    services.dispose();
  });

  it('opens and reveals finished files through the injected Electron functions', async () => {
    const opened: string[] = [];
    const revealed: string[] = [];
    const { lib } = library(path.join(work, 'electron'), {
      openPath: async (file) => {
        opened.push(file);
        return opened.length > 1 ? '没有关联的应用程序' : '';
      },
      showItemInFolder: (file) => revealed.push(file),
    });
    serve(50, { name: 'open.pdf', body: randomBytes(1000) });
    const entry = await lib.settled((await lib.download({ reportId: 50, fileName: 'open.pdf', format: 'pdf' })).id);
    expect(await lib.openExternal(entry.id)).toBeNull();
    await expect(lib.openExternal(entry.id)).rejects.toMatchObject({ code: 'open-failed', message: '无法打开文件：没有关联的应用程序' });
    expect(await lib.reveal(entry.id)).toBeNull();
    expect(opened[0]).toBe(path.join(work, 'electron', 'library', 'local', entry.id, 'open.pdf'));
    expect(revealed).toEqual([opened[0]]);
  });
});

/** A TCP proxy in front of the platform that cuts the connection once, after `bytes` went back to the client. */
async function startCuttingProxy(target: number) {
  const sockets = new Set<net.Socket>();
  let cutAfter: number | null = null;
  let sent = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (data: Buffer) => upstream.write(data));
    upstream.on('data', (data: Buffer) => {
      sent += data.length;
      if (cutAfter !== null && sent > cutAfter) {
        cutAfter = null;
        return cut();
      }
      client.write(data);
    });
    client.on('error', cut).on('close', () => upstream.destroy());
    upstream.on('error', cut).on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cutOnceAfter(bytes: number) {
      sent = 0;
      cutAfter = bytes;
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

describe.each(databases)('report library against the real platform ($name)', (database) => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof startCuttingProxy>>;
  let client: ApiClient;
  let userId: number;
  const work = tempDir('cairn-library-platform-');
  const libraries: ReportLibrary[] = [];

  beforeAll(async () => {
    server = await startServer(database);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await startCuttingProxy((server.app.server.address() as AddressInfo).port);
    userId = await server.addUser('lena', 'Lena@12345');
    client = createApiClient({ baseUrl: () => proxy.url, timeoutMs: 10_000 });
    const login = await client.call({ method: 'POST', path: '/api/login', body: { username: 'lena', password: 'Lena@12345' } }, { expireSession: false });
    expect(login.code).toBe(1);
  });
  afterAll(async () => {
    for (const library of libraries) await library.dispose();
    await proxy?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A generated statistics workbook of this user, as the report worker leaves it. */
  async function addReport(name: string, rows: number): Promise<{ id: number; body: Buffer }> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('统计');
    sheet.addRow(['项目', '组件', '哈希']);
    for (let i = 0; i < rows; i += 1) sheet.addRow([`project-${i % 50}`, `component-${i}`, randomBytes(16).toString('hex')]);
    const body = Buffer.from(await workbook.xlsx.writeBuffer());
    const relative = path.join('reports', `${name}.xlsx`);
    mkdirSync(path.join(server.app.cairn.dataDir, 'reports'), { recursive: true });
    writeFileSync(path.join(server.app.cairn.dataDir, relative), body);
    const now = new Date().toISOString();
    const [row] = await server.app.cairn.db.insertInto('reports').values({
      kind: 'statistic', report_type: 2, status: 2, progress: 100, name: `${name}.xlsx`, file: relative, size: body.length, sha256: sha(body),
      created_by: userId, created_at: now, finished_at: now,
    }).returning('id').execute();
    return { id: Number(row!.id), body };
  }

  const library = () => {
    const owner = { profile: profile('local', '本机', ''), client };
    const lib = createReportLibrary({
      dataDir: path.join(work, randomBytes(4).toString('hex')),
      active: () => owner,
      forProfile: () => owner,
      emit: () => {},
      timing: { firstRetryDelayMs: 20, maxRetryDelayMs: 100, retryWindowMs: 5000 },
    });
    libraries.push(lib);
    return lib;
  };

  it('downloads a generated report, resuming with a 206 after the connection is cut, and reviews it offline', async () => {
    const { id, body } = await addReport('统计报告', 40_000);
    expect(body.length).toBeGreaterThan(MiB);
    const lib = library();
    proxy.cutOnceAfter(Math.floor(body.length / 2));
    const entry = await lib.download({ reportId: id, fileName: '统计报告.xlsx', format: 'excel' });
    const done = await lib.settled(entry.id);
    expect(done).toMatchObject({ state: 'done', size: body.length, sha256: sha(body), error: null });
    expect(lib.statuses(entry.id)).toEqual([200, 206]);
    expect(readFileSync(lib.filePath(entry.id)).equals(body)).toBe(true);
    expect((await lib.verify(entry.id)).state).toBe('done');
    // Offline review of the library copy: the workbook's sheet, capped at 20,000 rows.
    const review = await readForReview(lib.filePath(entry.id), done.fileName);
    expect(review).toMatchObject({ kind: 'sheets', fileName: '统计报告.xlsx', tables: [{ title: '统计（共 40000 行，仅显示前 20000 行）' }] });
  }, 90_000);

  it('fails with the platform message for a report that is not there or not the user\'s', async () => {
    const lib = library();
    const missing = await lib.settled((await lib.download({ reportId: 987_654, fileName: 'x.pdf', format: 'pdf' })).id);
    expect(missing.state).toBe('failed');
    expect(missing.error).toMatch(/^下载失败：/);
    const otherUser = await server.addUser('otto', 'Otto@12345');
    const now = new Date().toISOString();
    const [row] = await server.app.cairn.db.insertInto('reports').values({
      kind: 'statistic', report_type: 2, status: 2, progress: 100, name: 'otto.xlsx', file: 'reports/otto.xlsx', size: 1, sha256: 'c'.repeat(64), created_by: otherUser, created_at: now, finished_at: now,
    }).returning('id').execute();
    const denied = await lib.settled((await lib.download({ reportId: Number(row!.id), fileName: 'otto.xlsx', format: 'excel' })).id);
    expect(denied.state).toBe('failed');
  });
});
