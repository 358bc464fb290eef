// Runs verifyArchive in a worker thread with a heap cap: the platform checks an upload before a
// launch is answered without its event loop decoding the archive, and a hostile archive can
// exhaust only that thread. A refusal comes back as a UserError with the engine's Chinese message.
import { Worker } from 'node:worker_threads';
import { fromThreadError, type ThreadError, UserError } from '../errors.ts';
import { workerUrl } from '../worker-url.ts';
import type { VerifiedArchive, VerifyOptions } from './sources/verify.ts';

type Message = { type: 'result'; result: VerifiedArchive | null } | { type: 'error'; error: ThreadError };

export function verifyInWorker(file: string, options: Omit<VerifyOptions, 'signal'>, maxHeapMb = 512): Promise<VerifiedArchive | null> {
  const worker = new Worker(workerUrl(import.meta.url, './verify-worker.ts', 'verify-worker'), {
    workerData: { file, options },
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.on('message', (msg: Message) => settle(() => (msg.type === 'result' ? resolve(msg.result) : reject(fromThreadError(msg.error)))));
    worker.on('error', (error) => {
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() => reject(outOfMemory ? new UserError('检查压缩包所需内存超出上限，压缩包过大或结构异常', 'invalid') : error));
    });
    worker.on('exit', (code) => settle(() => reject(new Error(`压缩包检查线程异常退出（${code}）`))));
  });
}
