// Chunked, resumable uploads over HTTP on SQLite and PostgreSQL: create, chunks, completion with
// and without a SHA-256, wrong offsets answered with where to resume, size limits, ownership,
// cancel, the sweep of abandoned uploads, a half-sent chunk that must not corrupt the file, and
// the body streamed to disk.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_MAX_BYTES } from '../../../contract/api/upload.ts';
import { MAX_UPLOAD_ENV } from '../../../server/uploads/limits.ts';
import { findCompleteUpload, partPath, uploadPath } from '../../../server/uploads/store.ts';
import { sweepAbandonedUploads } from '../../../server/uploads/sweep.ts';
import { databases, signIn, useServer, type TestClient } from './harness.ts';

const MiB = 1024 * 1024;
const octet = { 'content-type': 'application/octet-stream' };

describe.each(databases)('uploads on $name', (database) => {
  let lena: TestClient;
  let omar: TestClient;

  const server = useServer(database);
  beforeAll(async () => {
    lena = (await signIn(server, 'lena', 'Lena@12345')).client;
    omar = (await signIn(server, 'omar', 'Omar@12345')).client;
  });
  afterEach(() => {
    delete process.env[MAX_UPLOAD_ENV];
  });

  const create = (client: TestClient, body: unknown) => client.request({ method: 'POST', url: '/api/upload', body });
  const put = (client: TestClient, id: string, offset: number, bytes: Buffer) =>
    client.request({ method: 'PUT', url: `/api/upload/${id}?offset=${offset}`, body: bytes, headers: octet });

  it('receives a file in chunks and publishes it complete, checked against its SHA-256', async () => {
    const content = randomBytes(2 * MiB + 123);
    const sha256 = createHash('sha256').update(content).digest('hex');
    const created = await create(lena, { fileName: 'app-1.0.zip', size: content.length, sha256 });
    expect(created.body).toMatchObject({ code: 1, message: '上传已开始', data: { fileName: 'app-1.0.zip', size: content.length, received: 0, status: 'receiving' } });
    const id = created.body.data.uploadId as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const first = await put(lena, id, 0, content.subarray(0, MiB));
    expect(first.body).toMatchObject({ code: 1, data: { received: MiB, status: 'receiving' } });
    expect((await lena.request({ method: 'GET', url: `/api/upload/${id}` })).body.data).toEqual({ uploadId: id, fileName: 'app-1.0.zip', size: content.length, received: MiB, status: 'receiving' });
    expect(await findCompleteUpload(server.app.cairn.db, server.app.cairn.dataDir, id)).toBeNull();

    await put(lena, id, MiB, content.subarray(MiB, 2 * MiB));
    const last = await put(lena, id, 2 * MiB, content.subarray(2 * MiB));
    expect(last.body).toMatchObject({ code: 1, message: '上传完成', data: { received: content.length, status: 'complete' } });

    const { dataDir, db } = server.app.cairn;
    expect(readFileSync(uploadPath(dataDir, id)).equals(content)).toBe(true);
    expect(existsSync(partPath(dataDir, id))).toBe(false);
    const found = await findCompleteUpload(db, dataDir, id);
    expect(found).toMatchObject({ id, fileName: 'app-1.0.zip', size: content.length, path: uploadPath(dataDir, id) });
    expect(found!.userId).toEqual(expect.any(Number));

    const again = await put(lena, id, content.length, Buffer.from('x'));
    expect(again.body).toMatchObject({ code: 0, message: '该上传已完成，无需继续上传' });
  });

  it('answers a wrong offset with where to resume, and a resumed upload completes', async () => {
    const content = randomBytes(300_000);
    const id = (await create(lena, { fileName: 'sbom.json', size: content.length })).body.data.uploadId as string;
    await put(lena, id, 0, content.subarray(0, 100_000));
    const ahead = await put(lena, id, 200_000, content.subarray(200_000));
    expect(ahead.body).toMatchObject({ code: 0, message: '上传位置不一致：平台已接收 100000 字节，请从该位置继续上传', data: { received: 100_000 } });
    const behind = await put(lena, id, 0, content.subarray(0, 100_000));
    expect(behind.body.data.received).toBe(100_000);
    const resumed = await put(lena, id, behind.body.data.received, content.subarray(100_000));
    expect(resumed.body.data).toMatchObject({ received: content.length, status: 'complete' });
    expect(readFileSync(uploadPath(server.app.cairn.dataDir, id)).equals(content)).toBe(true);
  });

  it('clears an upload whose bytes do not match the declared SHA-256', async () => {
    const content = randomBytes(5000);
    const id = (await create(lena, { fileName: 'x.tar', size: 5000, sha256: 'a'.repeat(64) })).body.data.uploadId as string;
    const done = await put(lena, id, 0, content);
    expect(done.body).toMatchObject({ code: 0, message: '文件校验失败（SHA-256 不一致），已接收的数据已清除，请重新上传', data: { received: 0, status: 'receiving' } });
    expect(statSync(partPath(server.app.cairn.dataDir, id)).size).toBe(0);
  });

  it('validates names, sizes, chunk bounds and the platform limit', async () => {
    const bad = await create(lena, { fileName: '../etc/passwd', size: 10 });
    expect(bad.body).toMatchObject({ code: 0, message: '文件名不能包含路径分隔符或控制字符' });
    expect((await create(lena, { fileName: 'a\\b.zip', size: 10 })).body.code).toBe(0);
    const zero = await create(lena, { fileName: 'a.zip', size: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.message).toContain('请求参数错误');
    expect((await create(lena, { fileName: 'a.zip', size: 10, sha256: 'nothex' })).status).toBe(400);
    expect((await create(lena, { fileName: 'x'.repeat(256), size: 10 })).status).toBe(400);

    const huge = await create(lena, { fileName: 'huge.iso', size: 21 * 1024 * MiB });
    expect(huge.body).toMatchObject({ code: 0, message: '文件过大：平台允许上传的最大文件为 20G' });
    process.env[MAX_UPLOAD_ENV] = String(10 * MiB);
    expect((await create(lena, { fileName: 'big.zip', size: 10 * MiB + 1 })).body.message).toBe('文件过大：平台允许上传的最大文件为 10M');
    expect((await create(lena, { fileName: 'ok.zip', size: 10 * MiB })).body.code).toBe(1);

    const id = (await create(lena, { fileName: 'small.zip', size: 10 })).body.data.uploadId as string;
    const over = await put(lena, id, 0, Buffer.alloc(11));
    expect(over.body).toMatchObject({ code: 0, message: '数据块超出了文件声明的大小', data: { received: 0 } });
    const tooBig = await put(lena, id, 0, Buffer.alloc(UPLOAD_CHUNK_MAX_BYTES + 1));
    expect(tooBig.body).toMatchObject({ code: 0, message: '数据块过大：每个数据块最多 16M' });
    const negative = await lena.request({ method: 'PUT', url: `/api/upload/${id}?offset=-1`, body: Buffer.alloc(1), headers: octet });
    expect(negative.status).toBe(400);
    // Raw bytes only on the chunk call: JSON there is refused, octet-stream elsewhere too.
    const json = await lena.request({ method: 'PUT', url: `/api/upload/${id}?offset=0`, body: { a: 1 } });
    expect(json.body).toMatchObject({ code: 0, message: '数据块必须以 application/octet-stream 格式发送' });
    const elsewhere = await lena.request({ method: 'POST', url: '/api/upload', body: Buffer.from('{}'), headers: octet });
    expect(elsewhere.status).toBe(415);
  });

  it("keeps an upload to its owner and says when one does not exist", async () => {
    const id = (await create(lena, { fileName: 'mine.zip', size: 10 })).body.data.uploadId as string;
    for (const reply of [
      await omar.request({ method: 'GET', url: `/api/upload/${id}` }),
      await put(omar, id, 0, Buffer.alloc(10)),
      await omar.request({ method: 'DELETE', url: `/api/upload/${id}` }),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ code: 0, message: '无权访问该上传' });
    }
    expect((await lena.request({ method: 'GET', url: `/api/upload/${id}` })).body.data.received).toBe(0);

    for (const missing of ['6f1c2b9e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const reply = await lena.request({ method: 'GET', url: `/api/upload/${missing}` });
      expect(reply.body).toMatchObject({ code: 0, message: '上传不存在或已被删除' });
    }
    const anonymous = server.client();
    await anonymous.fetchCsrf();
    expect((await create(anonymous, { fileName: 'a.zip', size: 1 })).status).toBe(401);
    // CSRF applies to chunks like to every state-changing call.
    expect((await lena.request({ method: 'PUT', url: `/api/upload/${id}?offset=0`, body: Buffer.alloc(10), headers: octet, csrf: false })).status).toBe(403);
  });

  it('starts over when the received file lost bytes the platform had counted', async () => {
    const content = randomBytes(1000);
    const id = (await create(lena, { fileName: 'lost.zip', size: 1000 })).body.data.uploadId as string;
    await put(lena, id, 0, content.subarray(0, 600));
    rmSync(partPath(server.app.cairn.dataDir, id));
    const reset = await put(lena, id, 600, content.subarray(600));
    expect(reset.body).toMatchObject({ code: 0, data: { received: 0 } });
    await put(lena, id, 0, content.subarray(0, 600));
    expect((await put(lena, id, 600, content.subarray(600))).body.data.status).toBe('complete');
    expect(readFileSync(uploadPath(server.app.cairn.dataDir, id)).equals(content)).toBe(true);
  });

  it('cancels: the data is removed and no further chunk is taken', async () => {
    const id = (await create(lena, { fileName: 'gone.zip', size: 100 })).body.data.uploadId as string;
    await put(lena, id, 0, Buffer.alloc(50));
    expect(existsSync(partPath(server.app.cairn.dataDir, id))).toBe(true);
    const cancelled = await lena.request({ method: 'DELETE', url: `/api/upload/${id}` });
    expect(cancelled.body).toMatchObject({ code: 1, message: '上传已取消', data: { status: 'cancelled' } });
    expect(existsSync(partPath(server.app.cairn.dataDir, id))).toBe(false);
    expect((await put(lena, id, 50, Buffer.alloc(50))).body).toMatchObject({ code: 0, message: '该上传已取消' });
    expect((await lena.request({ method: 'GET', url: `/api/upload/${id}` })).body.data.status).toBe('cancelled');
  });

  it('sweeps uploads idle for a week: the part file goes, a late chunk is told it was cancelled', async () => {
    const { db, dataDir } = server.app.cairn;
    const idle = (await create(lena, { fileName: 'abandoned.zip', size: 100 })).body.data.uploadId as string;
    const recent = (await create(lena, { fileName: 'recent.zip', size: 100 })).body.data.uploadId as string;
    const done = (await create(lena, { fileName: 'done.zip', size: 10 })).body.data.uploadId as string;
    for (const id of [idle, recent]) await put(lena, id, 0, Buffer.alloc(40));
    await put(lena, done, 0, Buffer.alloc(10));
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString();
    await db.updateTable('uploads').set({ updated_at: eightDaysAgo }).where('id', 'in', [idle, done]).execute();

    const swept = await sweepAbandonedUploads(db, dataDir);
    expect(swept).toContain(idle);
    expect(swept).not.toContain(recent);
    expect(swept).not.toContain(done);
    expect(existsSync(partPath(dataDir, idle))).toBe(false);
    expect(existsSync(partPath(dataDir, recent))).toBe(true);
    // A completed upload stays, however old: projects analyse again from it.
    expect(await findCompleteUpload(db, dataDir, done)).not.toBeNull();
    expect((await put(lena, idle, 40, Buffer.alloc(60))).body).toMatchObject({ code: 0, message: '该上传已取消' });
    expect((await sweepAbandonedUploads(db, dataDir))).toEqual([]);
  });

  describe('over a real socket', () => {
    let base: string;
    beforeAll(async () => {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    });

    /** A PUT whose body is written by `write`, with the test client's cookies and CSRF token. */
    function rawPut(id: string, offset: number, length: number, write: (req: http.ClientRequest) => Promise<void>): Promise<{ status: number; body: any } | 'dropped'> {
      return new Promise((resolve, reject) => {
        const req = http.request(`${base}/api/upload/${id}?offset=${offset}`, {
          method: 'PUT',
          headers: {
            ...octet,
            'content-length': String(length),
            cookie: [...lena.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            'x-csrf-token': lena.csrfToken!,
          },
        }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => { text += c; });
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', () => resolve('dropped'));
        write(req).catch(reject);
      });
    }

    const waitFor = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
      return check();
    };

    it('streams a chunk to disk before it has fully arrived, and a dropped chunk does not corrupt the file', async () => {
      const content = randomBytes(4 * MiB);
      const id = (await create(lena, { fileName: 'stream.bin', size: content.length })).body.data.uploadId as string;
      const part = partPath(server.app.cairn.dataDir, id);

      // Half a chunk sent, the rest held back: the half is already on disk (nothing buffered whole).
      const dropped = await rawPut(id, 0, 2 * MiB, async (req) => {
        req.write(content.subarray(0, MiB));
        expect(await waitFor(() => existsSync(part) && statSync(part).size >= MiB / 2)).toBe(true);
        req.destroy();
      });
      expect(dropped).toBe('dropped');
      // Nothing of the cut-off chunk counts.
      await waitFor(() => false);
      expect((await lena.request({ method: 'GET', url: `/api/upload/${id}` })).body.data.received).toBe(0);

      // The resumed chunk (bigger than the app's 1 MiB body limit) replaces the leftovers.
      const whole = await rawPut(id, 0, content.length, async (req) => {
        req.end(content);
      });
      expect(whole).not.toBe('dropped');
      expect((whole as { body: any }).body.data).toMatchObject({ received: content.length, status: 'complete' });
      expect(readFileSync(uploadPath(server.app.cairn.dataDir, id)).equals(content)).toBe(true);
    });

    it('takes 64 MiB in 8 MiB chunks without the process growing by the file', async () => {
      const size = 64 * MiB;
      const chunk = randomBytes(8 * MiB);
      const id = (await create(lena, { fileName: 'large.img', size })).body.data.uploadId as string;
      // Garbage is collected between chunks: the figure is what stays alive, not what V8 has yet to sweep.
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as () => void;
      gc();
      const before = process.memoryUsage().rss;
      let peak = before;
      for (let offset = 0; offset < size; offset += chunk.length) {
        const reply = await rawPut(id, offset, chunk.length, async (req) => {
          // Written in 1 MiB slices, as a file read would deliver it.
          for (let at = 0; at < chunk.length; at += MiB) {
            if (!req.write(chunk.subarray(at, at + MiB))) await new Promise((r) => req.once('drain', r));
          }
          req.end();
        });
        expect(reply).not.toBe('dropped');
        expect((reply as { body: any }).body.code).toBe(1);
        gc();
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      const growth = peak - before;
      console.log(`[uploads] 64 MiB upload on ${database.name}: peak RSS growth ${(growth / MiB).toFixed(1)} MiB`);
      expect(statSync(uploadPath(server.app.cairn.dataDir, id)).size).toBe(size);
      // Client and server share this process: the bound is well under the file, not zero.
      expect(growth).toBeLessThan(40 * MiB);
    });
  });
});
