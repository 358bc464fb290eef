// Feature files written by the desktop (issue 16 item 5): the manifests, lockfiles and licence
// files of a folder, and only the SHA-256 of every other file, so the platform can analyse a
// project whose source never leaves the machine. main may not import the engine, so the writing
// happens in a process of its own (server/engine/feature/writer-process.ts, bundled as
// dist/server/feature-writer.js), started through a spawner: Electron's utilityProcess in the app,
// child_process.fork in the web host and the tests. One process per feature file; cancelling
// stops it, and a half-written file is never handed back.
import type { PlatformSpawner } from './local-platform.ts';
import { DesktopError } from './errors.ts';

export interface FeatureWriteResult {
  /** Files listed (path, size, SHA-256) and their bytes. */
  files: number;
  bytes: number;
  /** Files whose content is in the feature file (manifests, lockfiles, licence files) and their bytes. */
  included: number;
  includedBytes: number;
  /** What the writer could not read (an archive in the folder it could not unpack …). */
  problems: number;
}

export interface FeatureWriteOptions {
  signal?: AbortSignal;
  /** `image`: the input is a container image (docker save / OCI tar, OCI layout folder), written as 镜像特征文件. */
  kind?: 'source' | 'image';
  /** An image's platform (`linux/arm64`); linux/amd64 or the only one when absent. */
  platform?: string;
  /** Files hashed so far and their bytes, a few times a second. */
  onProgress?: (files: number, bytes: number) => void;
}

/** Writes the feature file of `folder` (or of an image file or folder, `kind: 'image'`) to `outFile` (whose folder exists). */
export type FeatureWriter = (folder: string, outFile: string, options?: FeatureWriteOptions) => Promise<FeatureWriteResult>;

const MSG = {
  exited: (code: number | null, signal: string | null, detail: string) =>
    `生成特征文件失败：写入进程意外退出（${signal ? `信号 ${signal}` : `退出码 ${code ?? '未知'}`}）${detail ? `：${detail}` : ''}`,
  cancelled: '已取消生成特征文件',
} as const;

type Message = { type: 'progress'; files: number; bytes: number } | { type: 'done'; result: FeatureWriteResult } | { type: 'error'; message: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** What the writer process said, checked (it is our own code, but a message is still data). */
function parse(value: unknown): Message | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (m.type === 'progress' && isCount(m.files) && isCount(m.bytes)) return { type: 'progress', files: m.files, bytes: m.bytes };
  if (m.type === 'error' && typeof m.message === 'string') return { type: 'error', message: m.message };
  if (m.type === 'done' && typeof m.result === 'object' && m.result !== null) {
    const r = m.result as Record<string, unknown>;
    if ([r.files, r.bytes, r.included, r.includedBytes, r.problems].every(isCount)) {
      return { type: 'done', result: { files: r.files as number, bytes: r.bytes as number, included: r.included as number, includedBytes: r.includedBytes as number, problems: r.problems as number } };
    }
  }
  return null;
}

export function createFeatureWriter(spawner: PlatformSpawner, options: { version: string; log?: (line: string) => void }): FeatureWriter {
  return (folder, outFile, { signal, onProgress, kind, platform } = {}) => new Promise<FeatureWriteResult>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DesktopError('cancelled', MSG.cancelled));
    let outcome: Message | null = null;
    // The last lines it wrote on stderr explain a crash.
    const stderr: string[] = [];
    const child = spawner.spawn(
      { CAIRN_FEATURE_ROOT: folder, CAIRN_FEATURE_OUT: outFile, CAIRN_FEATURE_VERSION: options.version, ...(kind === 'image' ? { CAIRN_FEATURE_KIND: 'image', ...(platform ? { CAIRN_FEATURE_PLATFORM: platform } : {}) } : {}) },
      {
        onMessage(value) {
          const message = parse(value);
          if (!message) return;
          if (message.type === 'progress') return onProgress?.(message.files, message.bytes);
          outcome ??= message;
          // Its work is done: a utilityProcess waits to be told to go once its message is out.
          child.kill('SIGTERM');
        },
        onOutput(line, stream) {
          options.log?.(`[特征文件] ${line}`);
          if (stream === 'stderr' && line.trim()) stderr.splice(0, Math.max(0, stderr.length - 4), line.trim());
        },
        onExit(code, exitSignal) {
          signal?.removeEventListener('abort', abort);
          if (signal?.aborted) return reject(signal.reason ?? new DesktopError('cancelled', MSG.cancelled));
          if (outcome?.type === 'done') return resolve(outcome.result);
          if (outcome?.type === 'error') return reject(new DesktopError('feature-failed', `生成特征文件失败：${outcome.message}`));
          reject(new DesktopError('feature-failed', MSG.exited(code, exitSignal, stderr.at(-1) ?? '')));
        },
      },
    );
    function abort() {
      // Asked first (it stops at once and exits); SIGTERM does the same should the channel be gone.
      if (!child.send({ type: 'cancel' })) child.kill('SIGTERM');
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
