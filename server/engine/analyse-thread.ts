// Runs `analyse` in a worker thread with a heap cap, so one huge or hostile input can exhaust only
// its own thread: the platform reports the run as failed and keeps serving.
import { Worker } from 'node:worker_threads';
import { fromThreadError, UserError, type ThreadError } from '../errors.ts';
import { workerUrl } from '../worker-url.ts';
import type { AnalyseProgress, AnalyseRequest, AnalyseResult } from './analyse.ts';

export interface AnalyseThreadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: AnalyseProgress) => void;
  /** Old-generation heap of the worker in MiB (default 1024). */
  maxHeapMb?: number;
}

type Message =
  | { type: 'progress'; progress: AnalyseProgress }
  | { type: 'result'; result: AnalyseResult }
  | { type: 'error'; error: ThreadError; aborted: boolean };

export function analyseInWorker(request: AnalyseRequest, options: AnalyseThreadOptions = {}): Promise<AnalyseResult> {
  options.signal?.throwIfAborted();
  const worker = new Worker(workerUrl(import.meta.url, './analyse-worker.ts', 'analyse-worker'), {
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 1024 },
  });
  return new Promise<AnalyseResult>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = () => settle(() => reject(options.signal!.reason ?? new DOMException('分析已取消', 'AbortError')));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (msg: Message) => {
      if (msg.type === 'progress') options.onProgress?.(msg.progress);
      else if (msg.type === 'result') settle(() => resolve(msg.result));
      else settle(() => reject(fromThreadError(msg.error)));
    });
    worker.on('error', (error) => {
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() => reject(outOfMemory ? new UserError('分析所需内存超出上限，输入过大或结构异常，分析已终止', 'unavailable') : error));
    });
    worker.on('exit', (code) => settle(() => reject(new UserError(`分析线程异常退出（${code}）`, 'unavailable'))));
  });
}
