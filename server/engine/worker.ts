// Runs a scan in a worker thread: same result as scanTree, without blocking the caller.
// Aborting terminates the worker, so a runaway parser cannot outlive its job.
import { Worker } from 'node:worker_threads';
import { fromThreadError, UserError, type ThreadError } from '../errors.ts';
import { workerUrl } from '../worker-url.ts';
import type { ScanResult } from './model.ts';

export interface WorkerScanOptions {
  signal?: AbortSignal;
  onProgress?: (event: { file: string; extractor: string }) => void;
}

type Message =
  | { type: 'progress'; event: { file: string; extractor: string } }
  | { type: 'result'; result: ScanResult }
  | { type: 'error'; error: ThreadError; aborted: boolean };

export function scanInWorker(root: string, options: WorkerScanOptions = {}): Promise<ScanResult> {
  options.signal?.throwIfAborted();
  const worker = new Worker(workerUrl(import.meta.url, './scan-worker.ts', 'scan-worker'), { workerData: { root } });
  return new Promise<ScanResult>((resolve, reject) => {
    const onAbort = () => {
      void worker.terminate();
      reject(options.signal!.reason ?? new DOMException('扫描已取消', 'AbortError'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => options.signal?.removeEventListener('abort', onAbort);
    worker.on('message', (msg: Message) => {
      if (msg.type === 'progress') options.onProgress?.(msg.event);
      else if (msg.type === 'result') { done(); resolve(msg.result); void worker.terminate(); }
      else { done(); reject(fromThreadError(msg.error)); void worker.terminate(); }
    });
    worker.on('error', (error) => { done(); reject(error); });
    worker.on('exit', (code) => { if (code !== 0 && !options.signal?.aborted) { done(); reject(new UserError(`扫描线程异常退出（${code}）`, 'unavailable')); } });
  });
}
