// main's upload service against a real in-process platform (buildApp on 127.0.0.1) reached
// through the same authenticated API client the app uses: chunking and progress, cancel, pause,
// automatic resume after a proxy cuts the connection mid-chunk, explicit resume after giving up,
// folders zipped on the fly, the web host's path restriction, bad archives refused before anything
// is sent (issue 14 item 5), and a 200 MB file sent without the process keeping more than a few
// chunks of it alive.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadProgress } from '../../../contract/ipc/desktop-contract.ts';
import { createApiClient, type ApiClient } from '../../../main/services/api-client.ts';
import { createUploads, type UploadsOptions, type UploadsService } from '../../../main/services/uploads.ts';
import { findUpload } from '../../../server/db/repositories/uploads.ts';
import { findCompleteUpload } from '../../../server/uploads/store.ts';
import { writeBadArchives } from '../../support/bad-archives.ts';
import { databases, startServer, type TestServer } from '../server/harness.ts';
import { tempDir } from './helpers.ts';

const MiB = 1024 * 1024;

/** A TCP proxy in front of the platform that can cut connections or refuse them. */
async function startProxy(target: number) {
  const sockets = new Set<net.Socket>();
  let dropAfter: number | null = null;
  let forwarded = 0;
  let down = false;
  let drops = 0;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    // Each side is paused while the other has not taken what it was given (backpressure), so the
    // proxy holds no more than a socket's buffer: what the platform has yet to read stays unread
    // in the sender, as it would without a proxy, instead of piling up in this process.
    const forward = (from: net.Socket, to: net.Socket, data: Buffer) => {
      if (!to.write(data)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    };
    client.on('data', (data: Buffer) => {
      forwarded += data.length;
      if (dropAfter !== null && forwarded > dropAfter) {
        dropAfter = null;
        drops += 1;
        return cut();
      }
      forward(client, upstream, data);
    });
    upstream.on('data', (data: Buffer) => forward(upstream, client, data));
    client.on('error', cut).on('close', () => upstream.destroy());
    upstream.on('error', cut).on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Cut the connection once `bytes` more have gone towards the platform. */
    dropOnceAfter(bytes: number) {
      forwarded = 0;
      dropAfter = bytes;
    },
    setDown(value: boolean) {
      down = value;
      if (value) for (const s of sockets) s.destroy();
    },
    get drops() {
      return drops;
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

async function writeRandomFile(file: string, size: number): Promise<string> {
  const block = randomBytes(MiB);
  const handle = await open(file, 'w');
  const hash = createHash('sha256');
  for (let written = 0; written < size; written += MiB) {
    const part = block.subarray(0, Math.min(MiB, size - written));
    // Vary the blocks so a misplaced chunk changes the digest.
    part.writeUInt32BE(written / MiB, 0);
    await handle.write(part);
    hash.update(part);
  }
  await handle.close();
  return hash.digest('hex');
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (entry: { fileName: string }) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('uploads from main to a real platform', () => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let client: ApiClient;
  const work = tempDir('cairn-uploads-main-');
  const services: UploadsService[] = [];

  beforeAll(async () => {
    server = await startServer(databases[0]!);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await startProxy((server.app.server.address() as AddressInfo).port);
    await server.addUser('lena', 'Lena@12345');
    client = createApiClient({ baseUrl: () => proxy.url, timeoutMs: 10_000 });
    const login = await client.call({ method: 'POST', path: '/api/login', body: { username: 'lena', password: 'Lena@12345' } }, { expireSession: false });
    expect(login.code).toBe(1);
  });
  afterAll(async () => {
    for (const service of services) await service.dispose();
    await proxy?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  function uploads(extra: Partial<UploadsOptions> = {}) {
    const events: UploadProgress[] = [];
    const service = createUploads({ client: () => client, tempDir: path.join(work, 'temp'), emit: (p) => events.push(p), progressIntervalMs: 0, firstRetryDelayMs: 50, ...extra });
    services.push(service);
    return { service, events };
  }

  const platformFile = async (uploadId: string | null) => findCompleteUpload(server.app.cairn.db, server.app.cairn.dataDir, uploadId!);
  const declaredSha256 = async (uploadId: string | null) => (await findUpload(server.app.cairn.db, uploadId!))?.sha256;
  const waitFor = async (check: () => boolean, timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  it('sends a file in 8 MiB chunks with rising progress and a speed, and the platform has it whole', async () => {
    const file = path.join(work, 'project.bin');
    const digest = await writeRandomFile(file, 20 * MiB + 4321);
    const { service, events } = uploads();
    const started = await service.start(file);
    expect(started).toMatchObject({ fileName: 'project.bin', state: 'preparing', sent: 0 });
    const done = await service.settled(started.localId);
    expect(done).toMatchObject({ state: 'done', sent: 20 * MiB + 4321, total: 20 * MiB + 4321, error: null });

    const sent = events.map((e) => e.sent);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(events.some((e) => e.state === 'uploading' && e.bytesPerSecond > 0)).toBe(true);
    expect(new Set(events.map((e) => e.uploadId).filter(Boolean)).size).toBe(1);
    const stored = await platformFile(done.uploadId);
    expect(stored).toMatchObject({ fileName: 'project.bin', size: 20 * MiB + 4321 });
    expect(await sha256Of(stored!.path)).toBe(digest);
    // The desktop declared the SHA-256 up front, and the platform checked the file against it.
    expect(await declaredSha256(done.uploadId)).toBe(digest);
    expect(service.list()).toEqual([expect.objectContaining({ localId: started.localId, state: 'done' })]);
  });

  it('resumes by itself after the connection drops mid-chunk', async () => {
    const file = path.join(work, 'image.img');
    const digest = await writeRandomFile(file, 24 * MiB);
    const { service, events } = uploads();
    const drops = proxy.drops;
    proxy.dropOnceAfter(12 * MiB);
    const started = await service.start(file);
    const done = await service.settled(started.localId);
    expect(proxy.drops).toBe(drops + 1);
    expect(done.state).toBe('done');
    expect(events.some((e) => e.state === 'retrying' && !!e.error)).toBe(true);
    expect(await sha256Of((await platformFile(done.uploadId))!.path)).toBe(digest);
  });

  it('gives up after the retry window, then continues from what the platform has on resume', async () => {
    const file = path.join(work, 'firmware.bin');
    const digest = await writeRandomFile(file, 20 * MiB);
    const { service, events } = uploads({ retryWindowMs: 300, maxRetryDelayMs: 100 });
    const started = await service.start(file);
    await waitFor(() => events.some((e) => e.sent >= 9 * MiB));
    proxy.setDown(true);
    const failed = await service.settled(started.localId);
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain('已自动重试约 1 分钟仍未成功');
    proxy.setDown(false);

    const resumed = await service.resume(started.localId);
    expect(resumed.sent).toBeGreaterThanOrEqual(8 * MiB);
    const done = await service.settled(started.localId);
    expect(done.state).toBe('done');
    expect(await sha256Of((await platformFile(done.uploadId))!.path)).toBe(digest);
  });

  it('pauses and resumes, and cancels: the platform drops what it received', async () => {
    const file = path.join(work, 'list.xlsx');
    await writeRandomFile(file, 40 * MiB);
    const { service, events } = uploads({ chunkBytes: MiB });
    const started = await service.start(file);
    await waitFor(() => events.some((e) => e.sent >= 3 * MiB));
    const paused = await service.pause(started.localId);
    expect(paused.state).toBe('paused');
    const at = (await client.call({ method: 'GET', path: `/api/upload/${paused.uploadId}` })).data as { received: number };
    expect(at.received).toBeGreaterThanOrEqual(2 * MiB);

    await service.resume(started.localId);
    await waitFor(() => events.at(-1)!.sent > at.received + MiB);
    const cancelled = await service.cancel(started.localId);
    expect(cancelled.state).toBe('cancelled');
    const after = await client.call({ method: 'GET', path: `/api/upload/${cancelled.uploadId}` });
    expect(after.data).toMatchObject({ status: 'cancelled' });
    await expect(service.resume(started.localId)).rejects.toThrow('该上传已结束，无法继续');
  });

  it('zips a dropped folder on the fly, without following links out of it', async () => {
    const folder = path.join(work, 'gomod-app');
    mkdirSync(path.join(folder, 'cmd', 'server'), { recursive: true });
    writeFileSync(path.join(folder, 'go.mod'), 'module example.com/app\n\ngo 1.22\n');
    writeFileSync(path.join(folder, 'cmd', 'server', 'main.go'), 'package main\n\nfunc main() {}\n');
    writeFileSync(path.join(work, 'secret.txt'), 'outside');
    symlinkSync(path.join(work, 'secret.txt'), path.join(folder, 'link.txt'));
    const { service, events } = uploads();
    const started = await service.start(folder);
    const done = await service.settled(started.localId);
    expect(done).toMatchObject({ state: 'done', fileName: 'gomod-app.zip' });
    expect(events[0]!.state).toBe('preparing');
    const stored = await platformFile(done.uploadId);
    expect((await zipEntries(stored!.path)).sort()).toEqual(['gomod-app/cmd/server/main.go', 'gomod-app/go.mod']);
    // The zip was hashed as it was written.
    expect(await declaredSha256(done.uploadId)).toBe(await sha256Of(stored!.path));
    // The temp zip is gone once uploaded.
    await waitFor(() => readdirEmpty(path.join(work, 'temp', 'zip')));
  });

  it('refuses paths outside the allowed roots and missing files, with clear messages', async () => {
    const staging = path.join(work, 'staging');
    mkdirSync(staging, { recursive: true });
    const { service } = uploads({ allowedRoots: [staging] });
    await expect(service.start(path.join(work, 'project.bin'))).rejects.toThrow('只能上传通过选择或拖放提供的文件');
    const missing = await service.start(path.join(staging, 'nope.zip'));
    expect((await service.settled(missing.localId))).toMatchObject({ state: 'failed', error: expect.stringContaining('找不到文件') });
  });

  it('refuses a fake, truncated, bad-CRC or empty zip before anything is sent, in Chinese; a zip with no manifest goes', async () => {
    const files = await writeBadArchives(work);
    const uploadRows = async () => Number((await server.app.cairn.db.selectFrom('uploads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const { service, events } = uploads();
    const before = await uploadRows();
    const refusals: Array<[string, string]> = [
      [files.fake, '文件“fake.zip”不是可读取的压缩包（内容不是 zip、tar、gzip、bzip2、xz 或 7z 格式），未上传'],
      [files.truncated, '压缩包“truncated.zip”已损坏：找不到目录区或目录区已损坏（文件可能不完整），未上传'],
      [files.badCrc, '压缩包“bad-crc.zip”已损坏：条目 src/main.c 的数据校验（CRC-32）失败，未上传'],
      [files.empty, '压缩包“empty.zip”中没有任何文件，未上传'],
    ];
    for (const [file, message] of refusals) await expect(service.start(file)).rejects.toMatchObject({ name: 'DesktopError', code: 'bad-archive', message });
    // No transfer, no event, no upload on the platform.
    expect(service.list()).toEqual([]);
    expect(events).toEqual([]);
    expect(await uploadRows()).toBe(before);

    // An archive with nothing Cairn reads is still an archive: the platform analyses it and says so.
    const started = await service.start(files.noManifest);
    expect(await service.settled(started.localId)).toMatchObject({ state: 'done', fileName: 'no-manifest.zip' });
    expect(await uploadRows()).toBe(before + 1);
  });

  it('sends a 200 MB file with the process growing far less than the file', { timeout: 240_000 }, async () => {
    const file = path.join(work, 'big.iso');
    const size = 200 * 1000 * 1000;
    const digest = await writeRandomFile(file, size);
    const { service } = uploads();
    // The figure is what the upload keeps alive, sampled twice a second: the JS heap and the memory
    // outside it (every Buffer) still reachable after a full collection. Not RSS, which also counts
    // Buffers the streams have let go of but V8 has not collected yet (it waits until tens of MiB
    // have piled up, longer when the machine is busy) and memory the allocator keeps after they
    // are freed: neither says anything about buffering, and both grow with the machine's load.
    // Two collections, since the first one's Buffers are freed by a background sweeper, which the
    // second waits for.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const alive = () => {
      gc();
      gc();
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    };
    const before = alive();
    const rssBefore = process.memoryUsage().rss;
    let peak = before;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, alive());
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 500);
    const started = await service.start(file);
    const done = await service.settled(started.localId);
    clearInterval(sampler);
    expect(done.state).toBe('done');
    const growth = peak - before;
    console.log(`[uploads] 200 MB through main and the platform (one process): peak growth of what stays alive ${(growth / MiB).toFixed(1)} MiB (RSS ${((rssPeak - rssBefore) / MiB).toFixed(1)} MiB)`);
    expect(growth).toBeLessThan(48 * MiB);
    expect(await sha256Of((await platformFile(done.uploadId))!.path)).toBe(digest);
    rmSync(file);
    rmSync((await platformFile(done.uploadId))!.path);
  });
});

function readdirEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return true;
  }
}
