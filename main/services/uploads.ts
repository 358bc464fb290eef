// Uploads from the desktop to the active platform: a local file (or a folder, zipped first or sent
// as the feature file the desktop writes of it) is
// sent in 8 MiB chunks, each read from disk as a stream for just its byte range, through the
// profile's authenticated API client. Progress is reported as events; an upload can be paused,
// resumed and cancelled; a dropped connection is retried with backoff for about a minute, each
// time asking the platform how much it already has. Nothing holds a whole file in memory.
import { randomUUID } from 'node:crypto';
import { createReadStream, rmSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_CONTENT_TYPE, cancel as cancelCall, chunk as chunkCall, create as createCall, status as statusCall, type UploadState } from '../../contract/api/upload.ts';
import { fillPath } from '../../contract/api/define.ts';
import { ResultCode, type Envelope } from '../../contract/envelope.ts';
import type { UploadProgress, UploadStateName } from '../../contract/ipc/desktop-contract.ts';
import type { ApiClient } from './api-client.ts';
import { checkArchive } from './archive-check.ts';
import { DesktopError } from './errors.ts';
import type { FeatureWriter } from './feature-writer.ts';
import { validateImagePlatform } from '../../contract/validation.ts';
import { featureFileName, prepareSource, type UploadSource } from './upload-source.ts';
import { sleep } from './sleep.ts';

const UPLOADS_MSG = {
  unknown: '找不到该上传任务',
  notAllowed: '只能上传通过选择或拖放提供的文件',
  changed: '文件在上传过程中被修改，请重新上传',
  gaveUp: (message: string) => `${message}（已自动重试约 1 分钟仍未成功，可点击“继续”再试）`,
  notResumable: '该上传已结束，无法继续',
  noFeatureWriter: '当前环境无法生成特征文件',
  featureNeedsFolder: (name: string) => `特征文件只能从文件夹生成：“${name}”不是文件夹`,
} as const;

export interface UploadsOptions {
  /** The API client of the active profile; an upload keeps the client it started with. */
  client: () => ApiClient;
  /** The app's temp folder for uploads (folder zips; the web host's staged browser files). */
  tempDir: string;
  emit: (progress: UploadProgress) => void;
  /** Only paths under these folders may be uploaded (the web host: its staging folder). */
  allowedRoots?: string[];
  /** Sources to delete once their upload is done or cancelled (the web host's staged copies). */
  removeSourceAfter?: (sourcePath: string) => boolean;
  chunkBytes?: number;
  /** How long a dropped connection is retried before the upload fails (default one minute). */
  retryWindowMs?: number;
  firstRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Least time between two progress events of one upload while bytes flow. */
  progressIntervalMs?: number;
  /** Writes a folder's feature file (start with `feature`); without it such a start is refused. */
  writeFeature?: FeatureWriter;
}

export interface StartOptions {
  /**
   * Send the folder as its feature file instead of a zip of it (its source stays on this machine);
   * `image`: the file or folder is a container image, sent as its feature file (镜像特征文件).
   */
  feature?: boolean | 'image';
  /** With `feature: 'image'`: the platform of a multi-platform image (`linux/arm64`), as the analysis chooses it. */
  platform?: string;
}

export interface UploadsService {
  start(sourcePath: string, startOptions?: StartOptions): Promise<UploadProgress>;
  cancel(localId: string): Promise<UploadProgress>;
  pause(localId: string): Promise<UploadProgress>;
  resume(localId: string): Promise<UploadProgress>;
  list(): UploadProgress[];
  /** Resolves when the upload's current run has stopped (tests, shutdown). */
  settled(localId: string): Promise<UploadProgress>;
  dispose(): Promise<void>;
}

interface Transfer {
  sourcePath: string;
  feature: false | 'source' | 'image';
  platform: string | undefined;
  client: ApiClient;
  progress: UploadProgress;
  source: UploadSource | null;
  controller: AbortController | null;
  running: Promise<void> | null;
  /** (time, bytes counted) samples of the last few seconds, for the speed. */
  samples: Array<[number, number]>;
  counted: number;
  lastEmit: number;
}

const SPEED_WINDOW_MS = 3000;

/** The platform answered a failure we cannot get past by retrying. */
class UploadFailed extends Error {}

const isWithin = (root: string, target: string): boolean => {
  const rel = path.relative(path.resolve(root), path.resolve(target));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

const stateOf = (env: Envelope<unknown>): UploadState | null => {
  const data = env.data as Partial<UploadState> | null;
  return data && typeof data.received === 'number' && typeof data.status === 'string' ? (data as UploadState) : null;
};

export function createUploads(options: UploadsOptions): UploadsService {
  const chunkBytes = options.chunkBytes ?? UPLOAD_CHUNK_BYTES;
  const retryWindowMs = options.retryWindowMs ?? 60_000;
  const firstRetryDelayMs = options.firstRetryDelayMs ?? 500;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const progressIntervalMs = options.progressIntervalMs ?? 250;
  const transfers = new Map<string, Transfer>();
  // Nothing survives a restart of the app: leftovers of an earlier run are removed.
  rmSync(path.join(options.tempDir, 'zip'), { recursive: true, force: true });

  const snapshot = (t: Transfer): UploadProgress => ({ ...t.progress });

  function emit(t: Transfer): void {
    t.lastEmit = Date.now();
    options.emit(snapshot(t));
  }

  function setState(t: Transfer, state: UploadStateName, error: string | null = null): void {
    t.progress.state = state;
    t.progress.error = error;
    if (state !== 'uploading') t.progress.bytesPerSecond = 0;
    emit(t);
  }

  function count(t: Transfer, bytes: number, confirmed: number): void {
    t.counted += bytes;
    const now = Date.now();
    t.samples.push([now, t.counted]);
    while (t.samples.length > 2 && now - t.samples[0]![0] > SPEED_WINDOW_MS) t.samples.shift();
    const [since, base] = t.samples[0]!;
    t.progress.bytesPerSecond = now > since ? Math.round(((t.counted - base) * 1000) / (now - since)) : 0;
    t.progress.sent = Math.min(t.progress.total, confirmed);
    if (now - t.lastEmit >= progressIntervalMs) emit(t);
  }

  function get(localId: string): Transfer {
    const t = transfers.get(localId);
    if (!t) throw new DesktopError('not-found', UPLOADS_MSG.unknown);
    return t;
  }

  async function releaseSource(t: Transfer): Promise<void> {
    await t.source?.cleanup();
    if (options.removeSourceAfter?.(t.sourcePath)) await rm(t.sourcePath, { recursive: true, force: true });
  }

  /** What the platform has of this upload, or null when it could not say. */
  async function platformState(t: Transfer): Promise<UploadState | null> {
    if (!t.progress.uploadId) return null;
    const env = await t.client.call({ method: statusCall.method, path: fillPath(statusCall.path, { uploadId: t.progress.uploadId }) });
    return env.code === ResultCode.SUCCESS ? stateOf(env) : null;
  }

  /** One run: prepare, create, send chunks until complete, failed or stopped (pause/cancel abort it). */
  async function run(t: Transfer, signal: AbortSignal): Promise<void> {
    if (!t.source) {
      setState(t, 'preparing');
      const writeFeature = options.writeFeature;
      const feature = t.feature && writeFeature ? {
        write: writeFeature,
        kind: t.feature,
        platform: t.platform,
        onProgress: (files: number, bytes: number) => {
          t.progress.feature = { files, bytes, included: null, includedBytes: null, problems: null };
          emit(t);
        },
      } : undefined;
      if (feature) t.progress.feature = { files: 0, bytes: 0, included: null, includedBytes: null, problems: null };
      t.source = await prepareSource(t.sourcePath, path.join(options.tempDir, 'zip'), signal, { feature });
      t.progress.fileName = t.source.fileName;
      t.progress.total = t.source.size;
      if (t.source.feature) t.progress.feature = { ...t.source.feature };
    }
    const source = t.source;
    if (!t.progress.uploadId) {
      const env = await t.client.call({ method: createCall.method, path: createCall.path, body: { fileName: source.fileName, size: source.size, sha256: source.sha256 } });
      const created = stateOf(env);
      if (env.code !== ResultCode.SUCCESS || !created) throw new UploadFailed(env.message);
      t.progress.uploadId = created.uploadId;
    }
    const uploadId = t.progress.uploadId;
    let offset = t.progress.sent;
    let retrySince: number | null = null;
    let delay = firstRetryDelayMs;

    /** Waits before trying again; gives up once the connection has been failing for the retry window. */
    const retry = async (message: string) => {
      retrySince ??= Date.now();
      if (Date.now() - retrySince > retryWindowMs) throw new UploadFailed(UPLOADS_MSG.gaveUp(message));
      setState(t, 'retrying', message);
      await sleep(delay, signal);
      delay = Math.min(delay * 2, maxRetryDelayMs);
      if (signal.aborted) return;
      const known = await platformState(t);
      if (known) offset = known.received;
    };

    setState(t, 'uploading');
    while (!signal.aborted) {
      const now = await stat(source.file).catch(() => null);
      if (!now || now.size !== source.size || now.mtimeMs !== source.mtimeMs) throw new UploadFailed(UPLOADS_MSG.changed);
      const length = Math.min(chunkBytes, source.size - offset);
      const from = offset;
      const res = await t.client.callRaw({
        method: chunkCall.method as 'PUT',
        path: fillPath(chunkCall.path, { uploadId }),
        query: { offset: from },
        contentType: UPLOAD_CHUNK_CONTENT_TYPE,
        length,
        signal,
        body: () => {
          let inChunk = 0;
          const counter = new Transform({
            transform(buf: Buffer, _enc, callback) {
              inChunk += buf.length;
              count(t, buf.length, from + inChunk);
              callback(null, buf);
            },
          });
          // Only this chunk's byte range is read, a megabyte at a time.
          return createReadStream(source.file, { start: from, end: from + length - 1, highWaterMark: 256 * 1024 }).pipe(counter);
        },
      });
      if (signal.aborted) return;
      const env = res.envelope;
      const state = stateOf(env);
      if (!res.answered) {
        t.progress.sent = offset;
        await retry(env.message);
        continue;
      }
      if (state?.status === 'complete') {
        t.progress.sent = state.received;
        setState(t, 'done');
        return;
      }
      if (env.code === ResultCode.SUCCESS && state) {
        offset = state.received;
        t.progress.sent = offset;
        retrySince = null;
        delay = firstRetryDelayMs;
        if (t.progress.state !== 'uploading') setState(t, 'uploading');
        continue;
      }
      if (state?.status === 'receiving') {
        // Refused with where the platform stands: a wrong offset moves us there at once; no
        // movement (chunk cut off, another chunk still being written) waits and tries again.
        t.progress.sent = state.received;
        if (state.received !== offset) offset = state.received;
        else await retry(env.message);
        continue;
      }
      throw new UploadFailed(env.message);
    }
  }

  function launch(t: Transfer): void {
    const controller = new AbortController();
    t.controller = controller;
    t.samples = [];
    t.running = run(t, controller.signal).then(
      async () => {
        if (t.progress.state === 'done') await releaseSource(t);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof UploadFailed || error instanceof DesktopError ? error.message : `上传失败：${error instanceof Error ? error.message : String(error)}`;
        setState(t, 'failed', message);
      },
    ).finally(() => {
      if (t.controller === controller) t.controller = null;
    });
  }

  async function stop(t: Transfer): Promise<void> {
    t.controller?.abort();
    await t.running;
  }

  return {
    async start(sourcePath, startOptions = {}) {
      const resolved = path.resolve(sourcePath);
      if (options.allowedRoots && !options.allowedRoots.some((root) => isWithin(root, resolved))) throw new DesktopError('forbidden-path', UPLOADS_MSG.notAllowed);
      const feature = startOptions.feature === 'image' ? 'image' : startOptions.feature === true ? 'source' : false;
      if (feature) {
        // Refused before anything starts: the feature file is written of a folder, by a writer this host has.
        const refuse = async (error: DesktopError) => {
          if (options.removeSourceAfter?.(resolved)) await rm(resolved, { recursive: true, force: true });
          throw error;
        };
        if (!options.writeFeature) await refuse(new DesktopError('unsupported', UPLOADS_MSG.noFeatureWriter));
        const info = await stat(resolved).catch(() => null);
        if (info && feature === 'source' && !info.isDirectory()) await refuse(new DesktopError('not-a-folder', UPLOADS_MSG.featureNeedsFolder(path.basename(resolved))));
        const badPlatform = feature === 'image' ? validateImagePlatform(startOptions.platform) : null;
        if (badPlatform) await refuse(new DesktopError('invalid-input', badPlatform));
      }
      // A file that is not an archive Cairn can read (though named like one), or a broken or empty
      // one, is refused here: nothing is sent and no upload is created on the platform. A folder
      // is zipped by us; a missing file is reported by the transfer as before.
      if (!feature && (await stat(resolved).catch(() => null))?.isFile()) {
        try {
          await checkArchive(resolved);
        } catch (error) {
          // The web host's staged copy of a refused file goes at once.
          if (options.removeSourceAfter?.(resolved)) await rm(resolved, { force: true });
          throw error;
        }
      }
      const localId = randomUUID();
      const t: Transfer = {
        sourcePath: resolved,
        feature,
        platform: feature === 'image' ? startOptions.platform?.trim() || undefined : undefined,
        client: options.client(),
        progress: {
          localId, uploadId: null, fileName: feature ? featureFileName(resolved) : path.basename(resolved), sent: 0, total: 0, bytesPerSecond: 0, state: 'preparing', error: null,
          ...(feature ? { feature: { files: 0, bytes: 0, included: null, includedBytes: null, problems: null } } : {}),
        },
        source: null,
        controller: null,
        running: null,
        samples: [],
        counted: 0,
        lastEmit: 0,
      };
      transfers.set(localId, t);
      launch(t);
      return snapshot(t);
    },

    async cancel(localId) {
      const t = get(localId);
      if (t.progress.state === 'cancelled') return snapshot(t);
      await stop(t);
      if (t.progress.uploadId) {
        const env = await t.client.call({ method: cancelCall.method, path: fillPath(cancelCall.path, { uploadId: t.progress.uploadId }) });
        // A finished file a project already uses stays; say why.
        if (env.code !== ResultCode.SUCCESS && t.progress.state === 'done') throw new DesktopError('cancel-refused', env.message);
      }
      await releaseSource(t);
      setState(t, 'cancelled');
      return snapshot(t);
    },

    async pause(localId) {
      const t = get(localId);
      if (!['preparing', 'uploading', 'retrying'].includes(t.progress.state)) return snapshot(t);
      await stop(t);
      setState(t, 'paused');
      return snapshot(t);
    },

    async resume(localId) {
      const t = get(localId);
      if (t.progress.state !== 'paused' && t.progress.state !== 'failed') {
        if (t.progress.state === 'done' || t.progress.state === 'cancelled') throw new DesktopError('not-resumable', UPLOADS_MSG.notResumable);
        return snapshot(t);
      }
      await t.running;
      // Start from what the platform really has (the run re-reads it after any refusal too).
      const known = await platformState(t).catch(() => null);
      if (known) t.progress.sent = known.received;
      launch(t);
      return snapshot(t);
    },

    list: () => [...transfers.values()].map(snapshot),

    async settled(localId) {
      const t = get(localId);
      await t.running;
      return snapshot(t);
    },

    async dispose() {
      for (const t of transfers.values()) {
        await stop(t);
        await t.source?.cleanup();
      }
      transfers.clear();
    },
  };
}
