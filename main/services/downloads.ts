// One report download from a platform into `<file>.part`, through the profile's authenticated
// API client. The bytes stream to disk as they arrive (nothing holds the file in memory). A
// dropped connection is retried with backoff for about a minute, each time resuming from what is
// already on disk with `Range: bytes=<partSize>-` and `If-Range: <ETag>` (the platform answers 206,
// or 200 with the whole file when it changed). The caller checks the SHA-256 and renames.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat, truncate } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CHECKSUM_HEADER } from '../../contract/api/report.ts';
import type { ApiClient } from './api-client.ts';
import { privateWriteStream } from './private-files.ts';
import { sleep } from './sleep.ts';

export const DOWNLOAD_MSG = {
  gaveUp: (message: string) => `${message}（已自动重试约 1 分钟仍未成功，可点击“重试”继续下载）`,
  badRange: '平台返回的续传范围与本地已下载的部分不一致，已重新开始下载',
  noChecksum: '平台未提供文件校验值，无法确认文件完整',
  short: '连接中断，文件未下载完整',
} as const;

/** The platform refused (or answered something unusable): retrying as-is will not help. */
export class DownloadFailed extends Error {}

export interface DownloadJob {
  client: ApiClient;
  /** e.g. /api/report/download/12 */
  path: string;
  partFile: string;
  /** ETag of an earlier attempt (for If-Range), when known. */
  etag: string | null;
  /** Size the platform announced earlier, when known. */
  size: number | null;
  signal: AbortSignal;
  /** What the platform announced: size, SHA-256 (hex) and ETag. */
  onHeaders: (info: { size: number | null; sha256: string | null; etag: string | null }) => void;
  onProgress: (received: number, size: number | null) => void;
  /** The connection dropped; the next attempt follows after a pause. */
  onRetrying: (message: string) => void;
  onResumed: () => void;
}

export interface DownloadTiming {
  retryWindowMs?: number;
  firstRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Longest silence on the connection before it counts as dropped. */
  idleTimeoutMs?: number;
}

export interface DownloadOutcome {
  size: number;
  sha256: string | null;
  etag: string | null;
  /** HTTP statuses of every answer that carried bytes (tests check a resume used 206). */
  statuses: number[];
}

const sizeOf = async (file: string): Promise<number> => (await stat(file).catch(() => null))?.size ?? 0;

/** `"abc"` / `W/"abc"` -> abc */
const unquote = (etag: string | undefined): string | null => (etag ? etag.replace(/^W\//, '').replace(/^"|"$/g, '') : null);

/** The checksum the platform announced: x-content-sha256, else an ETag that is one. */
function announcedSha256(headers: Record<string, string>): string | null {
  const explicit = headers[CHECKSUM_HEADER]?.trim().toLowerCase();
  if (explicit && /^[0-9a-f]{64}$/.test(explicit)) return explicit;
  const tag = unquote(headers.etag)?.toLowerCase();
  return tag && /^[0-9a-f]{64}$/.test(tag) ? tag : null;
}

/** `bytes 100-199/200` -> { start: 100, total: 200 } */
function contentRange(value: string | undefined): { start: number; total: number | null } | null {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(value?.trim() ?? '');
  return match ? { start: Number(match[1]), total: match[2] === '*' ? null : Number(match[2]) } : null;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/** Download until `.part` holds the whole file; throws DownloadFailed, or returns early when aborted. */
export async function downloadToPart(job: DownloadJob, timing: DownloadTiming = {}): Promise<DownloadOutcome> {
  const retryWindowMs = timing.retryWindowMs ?? 60_000;
  const firstRetryDelayMs = timing.firstRetryDelayMs ?? 500;
  const maxRetryDelayMs = timing.maxRetryDelayMs ?? 10_000;
  let etag = job.etag;
  let size: number | null = job.size;
  let sha256: string | null = null;
  let retrySince: number | null = null;
  let delay = firstRetryDelayMs;
  const statuses: number[] = [];

  const retry = async (message: string) => {
    retrySince ??= Date.now();
    if (Date.now() - retrySince > retryWindowMs) throw new DownloadFailed(DOWNLOAD_MSG.gaveUp(message));
    job.onRetrying(message);
    await sleep(delay, job.signal);
    delay = Math.min(delay * 2, maxRetryDelayMs);
  };

  while (!job.signal.aborted) {
    // Without a validator a changed file could be stitched onto old bytes: ask for it whole then.
    const offset = etag ? await sizeOf(job.partFile) : 0;
    // Already whole (an earlier run stopped between the last byte and the check).
    if (size !== null && offset === size) break;
    const headers: Record<string, string> = offset > 0 ? { Range: `bytes=${offset}-`, 'If-Range': `"${etag}"` } : {};
    const res = await job.client.stream({
      path: job.path,
      headers,
      signal: job.signal,
      idleTimeoutMs: timing.idleTimeoutMs,
      // The file carries its checksum header (or is a range); an envelope never does.
      isFile: (status, h) => status === 206 || (status === 200 && (CHECKSUM_HEADER in h || !/^application\/json\b/i.test(h['content-type'] ?? ''))),
    });
    if (job.signal.aborted) {
      if (res.ok) res.body.destroy();
      break;
    }
    if (!res.ok) {
      if (res.answered) {
        // 416: what we hold is longer than the file: start over.
        if (offset > 0 && res.status === 416) {
          await truncate(job.partFile, 0);
          continue;
        }
        throw new DownloadFailed(res.envelope.message);
      }
      await retry(res.envelope.message);
      continue;
    }

    let start = 0;
    if (res.status === 206) {
      const range = contentRange(res.headers['content-range']);
      if (!range || range.start !== offset) {
        res.body.destroy();
        await truncate(job.partFile, 0).catch(() => {});
        job.onRetrying(DOWNLOAD_MSG.badRange);
        continue;
      }
      start = offset;
      size = range.total;
    } else {
      const length = Number(res.headers['content-length']);
      size = Number.isFinite(length) && res.headers['content-length'] !== undefined ? length : null;
    }
    statuses.push(res.status);
    etag = unquote(res.headers.etag) ?? etag;
    sha256 = announcedSha256(res.headers) ?? sha256;
    job.onHeaders({ size, sha256, etag });
    if (retrySince !== null) job.onResumed();
    retrySince = null;
    delay = firstRetryDelayMs;

    let received = start;
    job.onProgress(received, size);
    const counter = new Transform({
      transform(buf: Buffer, _enc, callback) {
        received += buf.length;
        job.onProgress(received, size);
        callback(null, buf);
      },
    });
    try {
      // 200: the whole file from its first byte (replaces whatever was there); 206: appended.
      await pipeline(res.body, counter, privateWriteStream(job.partFile, start > 0 ? 'a' : 'w'), { signal: job.signal });
    } catch (err) {
      if (job.signal.aborted) break;
      await retry(err instanceof Error && err.message ? `${DOWNLOAD_MSG.short}（${err.message}）` : DOWNLOAD_MSG.short);
      continue;
    }
    if (size === null || received >= size) {
      size ??= received;
      break;
    }
    // The answer ended early without an error (a proxy closed it cleanly).
    await retry(DOWNLOAD_MSG.short);
  }
  return { size: size ?? (await sizeOf(job.partFile)), sha256, etag, statuses };
}
