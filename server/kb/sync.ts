// Mirror sync: OSV publishes one all.zip per ecosystem (<mirror>/<Ecosystem>/all.zip, the layout
// of osv-vulnerabilities.storage.googleapis.com). Each is downloaded to <dir>/<Ecosystem>.zip.part,
// resumed with a Range request after an interruption (If-Range keeps a changed file from being
// glued onto an old half), skipped when the mirror answers 304 to the validators remembered in
// kb_sync_state, and imported as a `sync` record once complete.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { IMPORT_STATUS, importOutcome, recordFailedImport, saveSyncState, syncStateOf } from '../db/repositories/knowledge-base-imports.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/time.ts';
import { makePrivateDir, privateWriteStream, writePrivateFile } from '../files/private.ts';
import { importKnowledge, type ImportSummary } from './import.ts';

export interface SyncOptions {
  mirror: string;
  ecosystems: string[];
  downloadDir: string;
  signal?: AbortSignal;
  /** Bytes downloaded of the current ecosystem, then records imported (as importKnowledge reports). */
  onProgress?: (ecosystem: string, phase: 'download' | 'import', done: number, total: number) => void;
  /** Attempts per ecosystem when the connection breaks mid-way (each resumes where the last stopped). */
  attempts?: number;
  /** Runs an import when no other import is running (the platform's import queue); directly by default. */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export interface SyncResult {
  ecosystem: string;
  url: string;
  status: 'imported' | 'not-modified' | 'failed';
  message: string;
  /** Bytes of the complete zip (0 when not downloaded). */
  bytes: number;
  /** Whether a partial download was continued with a Range request. */
  resumed: boolean;
  summary: ImportSummary | null;
}

interface PartMeta {
  url: string;
  etag: string | null;
  lastModified: string | null;
}

const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message && cause.message !== error.message ? `${error.message}：${cause.message}` : error.message;
};

/** Checks the mirror address: only http and https, no credentials in logs. */
function mirrorBase(mirror: string): URL {
  let url: URL;
  try {
    url = new URL(mirror.trim());
  } catch {
    throw new Error(`镜像地址无效：${mirror}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`镜像地址只支持 http 或 https：${mirror}`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

const fileStem = (ecosystem: string) => ecosystem.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');

async function readMeta(file: string): Promise<PartMeta | null> {
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8')) as PartMeta;
  } catch {
    return null;
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fsp.stat(file)).size;
  } catch {
    return 0;
  }
}

class HttpFailure extends Error {}

/**
 * Downloads url into part (resuming it when it has bytes), returning whether the mirror said the
 * file is unchanged. Throws on a broken connection with the part kept for the next attempt.
 */
async function download(
  url: string,
  part: string,
  metaFile: string,
  state: { etag: string | null; last_modified: string | null } | undefined,
  haveFinal: boolean,
  options: SyncOptions,
  ecosystem: string,
): Promise<{ notModified: boolean; resumed: boolean; meta: PartMeta }> {
  const meta = await readMeta(metaFile);
  let offset = await sizeOf(part);
  if (offset > 0 && (!meta || meta.url !== url)) {
    await fsp.rm(part, { force: true });
    offset = 0;
  }
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  if (offset > 0) {
    headers.range = `bytes=${offset}-`;
    const validator = meta?.etag ?? meta?.lastModified;
    if (validator) headers['if-range'] = validator;
  } else if (state && haveFinal) {
    if (state.etag) headers['if-none-match'] = state.etag;
    if (state.last_modified) headers['if-modified-since'] = state.last_modified;
  }

  let response: Response;
  try {
    response = await fetch(url, { headers, signal: options.signal, redirect: 'follow' });
  } catch (error) {
    throw new HttpFailure(`镜像地址无法访问：${url}（${errorText(error)}）`);
  }
  if (response.status === 304) {
    await response.body?.cancel();
    return { notModified: true, resumed: false, meta: { url, etag: state?.etag ?? null, lastModified: state?.last_modified ?? null } };
  }
  if (response.status === 416 && offset > 0) {
    // The part no longer fits the file (it changed or was complete): start over next attempt.
    await response.body?.cancel();
    await fsp.rm(part, { force: true });
    throw new Error('续传位置无效，重新下载');
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw new HttpFailure(`镜像上没有该生态的数据：${url}（HTTP 404）`);
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw new HttpFailure(`镜像地址无法访问：${url}（HTTP ${response.status}）`);
  }
  if (!response.body) throw new HttpFailure(`镜像返回了空内容：${url}`);

  let resumed = false;
  let start = 0;
  if (response.status === 206) {
    const range = /bytes\s+(\d+)-(\d+)\/(\d+|\*)/i.exec(response.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== offset) {
      await response.body.cancel();
      await fsp.rm(part, { force: true });
      throw new Error('镜像返回的续传范围不匹配，重新下载');
    }
    resumed = true;
    start = offset;
  }
  // 200 means the whole file (the mirror ignored the range or the file changed): start afresh.
  const current: PartMeta = {
    url,
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
  };
  await writePrivateFile(metaFile, JSON.stringify(current));
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) ? start + length : 0;
  let written = start;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      written += chunk.length;
      options.onProgress?.(ecosystem, 'download', written, total);
      callback(null, chunk);
    },
  });
  await pipeline(
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
    counter,
    privateWriteStream(part, { flags: start > 0 ? 'a' : 'w' }),
  );
  if (total > 0 && written !== total) throw new Error(`下载不完整（${written}/${total} 字节）`);
  return { notModified: false, resumed, meta: current };
}

async function recordFailure(db: Kysely<Database>, ecosystem: string, message: string): Promise<void> {
  await recordFailedImport(db, { kind: 'sync', name: `${ecosystem}（镜像同步）`, errors: [{ file: `${ecosystem}/all.zip`, message }], message: `导入失败：${message}` });
}

export async function syncFromMirror(db: Kysely<Database>, options: SyncOptions): Promise<SyncResult[]> {
  const base = mirrorBase(options.mirror);
  await makePrivateDir(options.downloadDir);
  const results: SyncResult[] = [];
  for (const ecosystem of options.ecosystems) {
    if (options.signal?.aborted) break;
    const url = new URL(`${encodeURIComponent(ecosystem)}/all.zip`, base).toString();
    const stem = path.join(options.downloadDir, fileStem(ecosystem));
    const part = `${stem}.zip.part`;
    const metaFile = `${stem}.zip.part.json`;
    const final = `${stem}.zip`;
    const result: SyncResult = { ecosystem, url, status: 'failed', message: '', bytes: 0, resumed: false, summary: null };
    results.push(result);
    const state = await syncStateOf(db, ecosystem);
    const haveFinal = (await sizeOf(final)) > 0;
    let outcome: Awaited<ReturnType<typeof download>> | null = null;
    let lastError = '';
    const attempts = Math.max(1, options.attempts ?? 3);
    for (let attempt = 0; attempt < attempts && !outcome; attempt++) {
      try {
        const o = await download(url, part, metaFile, state, haveFinal, options, ecosystem);
        result.resumed ||= o.resumed;
        outcome = o;
      } catch (error) {
        lastError = errorText(error);
        if (error instanceof HttpFailure || options.signal?.aborted) break;
      }
    }
    if (!outcome) {
      result.message = options.signal?.aborted ? '同步已取消' : lastError;
      await recordFailure(db, ecosystem, result.message);
      continue;
    }
    if (outcome.notModified) {
      result.status = 'not-modified';
      result.message = '镜像未变化，已跳过';
      result.bytes = await sizeOf(final);
      continue;
    }
    await fsp.rename(part, final);
    await fsp.rm(metaFile, { force: true });
    result.bytes = await sizeOf(final);
    const exclusive = options.exclusive ?? (<T>(fn: () => Promise<T>) => fn());
    const summary = await exclusive(() => importKnowledge(db, final, {
      kind: 'sync',
      name: `${ecosystem}（镜像同步）`,
      signal: options.signal,
      onProgress: (done, total) => options.onProgress?.(ecosystem, 'import', done, total),
    }));
    result.summary = summary;
    const record = await importOutcome(db, summary.recordId);
    if (record?.status !== IMPORT_STATUS.SUCCEEDED) {
      result.message = record?.message ?? '导入失败';
      continue;
    }
    result.status = 'imported';
    result.message = record.message;
    // Remember the validators only after a successful import, so a failed one is retried in full.
    const row = { url, etag: outcome.meta.etag, last_modified: outcome.meta.lastModified, bytes: result.bytes, completed_at: nowIso() };
    await saveSyncState(db, ecosystem, row);
  }
  return results;
}
