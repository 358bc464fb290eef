// Mirror sync against a local HTTP server laid out like OSV's bucket (<Ecosystem>/all.zip): a
// download cut mid-way resumes with a Range request, an unchanged mirror answers 304 to the
// stored ETag and nothing is re-imported. Then the `cairn kb` command module.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../server/harness.ts';
import { syncFromMirror } from '../../../server/kb/sync.ts';
import { kbCommand } from '../../../cli/commands/kb.ts';
import { openKnowledgeBase } from '../../../server/kb/open.ts';
import { hasZip, makeZip, openKb, tableCounts, type KbDatabase } from './helpers.ts';

const CORPUS = '../shared/corpora/advisories';
const SAMPLE = ['PYSEC-2018-104.yaml', 'PYSEC-2024-6.yaml'];

interface Seen { url: string; range: string | null; ifRange: string | null; ifNoneMatch: string | null; status: number }

/** A mirror serving one zip; the first full download is cut after half the bytes. */
function startMirror(zip: Buffer) {
  const seen: Seen[] = [];
  let cutNext = true;
  const etag = '"osv-v1"';
  const server = http.createServer((req, res) => {
    const entry: Seen = { url: req.url ?? '', range: req.headers.range ?? null, ifRange: (req.headers['if-range'] as string | undefined) ?? null, ifNoneMatch: req.headers['if-none-match'] ?? null, status: 0 };
    seen.push(entry);
    const reply = (status: number, headers: Record<string, string | number>, body?: Buffer) => {
      entry.status = status;
      res.writeHead(status, headers);
      res.end(body);
    };
    if (req.url !== '/osv/PyPI/all.zip') return reply(404, {});
    const common = { etag, 'last-modified': 'Sat, 01 Jun 2024 00:00:00 GMT', 'accept-ranges': 'bytes', 'content-type': 'application/zip' };
    if (entry.ifNoneMatch === etag) return reply(304, common);
    const range = /^bytes=(\d+)-$/.exec(entry.range ?? '');
    if (range && (!entry.ifRange || entry.ifRange === etag)) {
      const start = Number(range[1]);
      const body = zip.subarray(start);
      return reply(206, { ...common, 'content-length': body.length, 'content-range': `bytes ${start}-${zip.length - 1}/${zip.length}` }, body);
    }
    if (cutNext) {
      cutNext = false;
      entry.status = 200;
      res.writeHead(200, { ...common, 'content-length': zip.length });
      // Half the file, then the connection drops (after a pause, so the half reaches the disk).
      res.write(zip.subarray(0, Math.floor(zip.length / 2)));
      setTimeout(() => res.socket?.destroy(), 300);
      return;
    }
    return reply(200, { ...common, 'content-length': zip.length }, zip);
  });
  return new Promise<{ url: string; seen: Seen[]; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/osv`,
        seen,
        close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
      });
    });
  });
}

describe.each(databases)('镜像同步（$name）', (database) => {
  let kb: KbDatabase;
  let dir: string;
  let zipBytes: Buffer;
  beforeAll(async () => {
    kb = await openKb(database);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kb-sync-'));
    // No zip writer among the dependencies: the system `zip` builds the mirror's file.
    if (!hasZip()) return;
    const src = path.join(dir, 'src');
    fs.mkdirSync(src);
    fs.copyFileSync(path.join(CORPUS, 'pypi/oslo-middleware/PYSEC-2018-104.yaml'), path.join(src, SAMPLE[0]!));
    fs.copyFileSync(path.join(CORPUS, 'pypi/cdo-local-uuid/PYSEC-2024-6.yaml'), path.join(src, SAMPLE[1]!));
    // Padding entries make the zip big enough to be cut in the middle of its data.
    for (const name of fs.readdirSync(path.join(CORPUS, 'crates.io')).filter((n) => n.endsWith('.json')).sort().slice(0, 60)) {
      fs.copyFileSync(path.join(CORPUS, 'crates.io', name), path.join(src, name));
    }
    makeZip(path.join(dir, 'all.zip'), src, ['.']);
    zipBytes = fs.readFileSync(path.join(dir, 'all.zip'));
  });
  afterAll(async () => {
    await kb?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resumes a cut download with Range, imports it, and skips an unchanged mirror', async (ctx) => {
    if (!zipBytes) ctx.skip();
    const mirror = await startMirror(zipBytes);
    // The downloads are the platform's files: owner-only whatever the umask (files/private.ts).
    const umask = process.umask(0o000);
    try {
      const downloads = path.join(dir, 'downloads');
      const first = await syncFromMirror(kb.db, { mirror: mirror.url, ecosystems: ['PyPI'], downloadDir: downloads });
      expect(fs.statSync(downloads).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(downloads, 'PyPI.zip')).mode & 0o777).toBe(0o600);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ ecosystem: 'PyPI', status: 'imported', resumed: true, bytes: zipBytes.length });
      expect(first[0]!.summary).toMatchObject({ kind: 'sync', imported: 62, failed: 0 });
      expect(fs.readFileSync(path.join(downloads, 'PyPI.zip')).equals(zipBytes)).toBe(true);
      expect(fs.existsSync(path.join(downloads, 'PyPI.zip.part'))).toBe(false);

      // First request cut; the second continued from where the part ended, guarded by If-Range.
      expect(mirror.seen[0]).toMatchObject({ range: null, status: 200 });
      const resumed = mirror.seen[1]!;
      expect(resumed.status).toBe(206);
      expect(resumed.ifRange).toBe('"osv-v1"');
      const offset = Number(/^bytes=(\d+)-$/.exec(resumed.range ?? '')?.[1]);
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThanOrEqual(Math.floor(zipBytes.length / 2));

      const state = await kb.db.selectFrom('kb_sync_state').selectAll().where('ecosystem', '=', 'PyPI').executeTakeFirstOrThrow();
      expect(state).toMatchObject({ url: `${mirror.url}/PyPI/all.zip`, etag: '"osv-v1"', last_modified: 'Sat, 01 Jun 2024 00:00:00 GMT', bytes: zipBytes.length });
      expect(state.completed_at).not.toBeNull();
      const record = await kb.db.selectFrom('kb_import_records').selectAll().where('id', '=', first[0]!.summary!.recordId).executeTakeFirstOrThrow();
      expect(record).toMatchObject({ kind: 'sync', status: 2, imported: 62 });

      const records = (await kb.db.selectFrom('kb_import_records').select('id').execute()).length;
      const counts = await tableCounts(kb.db);
      const second = await syncFromMirror(kb.db, { mirror: mirror.url, ecosystems: ['PyPI'], downloadDir: downloads });
      expect(second[0]).toMatchObject({ status: 'not-modified', summary: null });
      expect(mirror.seen.at(-1)).toMatchObject({ ifNoneMatch: '"osv-v1"', status: 304 });
      expect((await kb.db.selectFrom('kb_import_records').select('id').execute()).length).toBe(records);
      expect(await tableCounts(kb.db)).toEqual(counts);

      // An ecosystem the mirror does not have fails on its own, with a failed sync record.
      const missing = await syncFromMirror(kb.db, { mirror: mirror.url, ecosystems: ['Nope'], downloadDir: downloads });
      expect(missing[0]!.status).toBe('failed');
      expect(missing[0]!.message).toContain('HTTP 404');
      const failedRecord = await kb.db.selectFrom('kb_import_records').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(failedRecord).toMatchObject({ kind: 'sync', status: 3 });
    } finally {
      process.umask(umask);
      await mirror.close();
    }
  });

  it('rejects non-http mirrors and reports unreachable ones in Chinese', async (ctx) => {
    if (!zipBytes) ctx.skip();
    await expect(syncFromMirror(kb.db, { mirror: 'file:///etc', ecosystems: ['PyPI'], downloadDir: dir })).rejects.toThrow('镜像地址只支持 http 或 https');
    const closed = await startMirror(zipBytes);
    const url = closed.url;
    await closed.close();
    const result = await syncFromMirror(kb.db, { mirror: url, ecosystems: ['npm'], downloadDir: path.join(dir, 'd2') });
    expect(result[0]!.status).toBe('failed');
    expect(result[0]!.message).toMatch(/^镜像地址无法访问：/);
  });
});

describe('cairn kb 命令', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kb-cli-'));
    const src = path.join(dir, 'src');
    fs.mkdirSync(src);
    fs.copyFileSync(path.join(CORPUS, 'crates.io/RUSTSEC-2023-0090.json'), path.join(src, 'RUSTSEC-2023-0090.json'));
    fs.copyFileSync(path.join(CORPUS, 'go/GO-2024-3228.json'), path.join(src, 'GO-2024-3228.json'));
    fs.writeFileSync(path.join(src, 'broken.json'), '{');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports inputs into the knowledge-base file and prints a Chinese summary per input', async () => {
    const db = path.join(dir, 'kb.db');
    const first = await kbCommand(['import', '--db', db, path.join(dir, 'src')]);
    expect(first.code).toBe(0);
    expect(first.output).toContain('导入完成，新增 2，更新 0，未变 0，失败 1（文件 3 个）');
    expect(first.output).toMatch(/ {2}broken\.json：不是有效的 JSON 文档/);

    const second = await kbCommand(['import', '--db', db, path.join(dir, 'src'), path.join(dir, 'missing')]);
    expect(second.code).toBe(1);
    expect(second.output).toContain('新增 0，更新 0，未变 2，失败 1');
    expect(second.output).toContain('找不到导入文件或目录');

    const kb = await openKnowledgeBase(db);
    try {
      const ids = (await kb.db.selectFrom('kb_advisories').select('advisory_id').orderBy('advisory_id').execute()).map((r) => r.advisory_id);
      expect(ids).toEqual(['GO-2024-3228', 'RUSTSEC-2023-0090']);
      expect((await kb.db.selectFrom('kb_import_records').select('status').orderBy('id').execute()).map((r) => r.status)).toEqual([2, 2, 3]);
    } finally {
      await kb.close();
    }
  });

  it('uses CAIRN_KB as the default file and checks its arguments', async () => {
    const file = path.join(dir, 'env.db');
    const previous = process.env.CAIRN_KB;
    process.env.CAIRN_KB = file;
    try {
      const result = await kbCommand(['import', path.join(dir, 'src', 'GO-2024-3228.json')]);
      expect(result).toEqual({ code: 0, output: expect.stringContaining('新增 1，更新 0，未变 0，失败 0') });
      expect(fs.existsSync(file)).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.CAIRN_KB; else process.env.CAIRN_KB = previous;
    }
    expect((await kbCommand(['import'])).code).toBe(2);
    expect((await kbCommand(['sync', '--db', file])).output).toContain('请用 --mirror 指定镜像地址');
    expect((await kbCommand(['frobnicate'])).code).toBe(2);
    expect((await kbCommand(['import', '--bogus', 'x'])).output).toContain('未知选项：--bogus');
  });
});
