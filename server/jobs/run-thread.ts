// One claimed run analysed in a thread of its own (run-worker.ts), so the platform's event loop
// never carries it: the analysis result arriving from the extraction thread, matching tens of
// thousands of components against the knowledge base, turning them into rows and writing those rows
// are all the thread's work. The thread opens the database itself (its own SQLite connection or
// PostgreSQL pool: the HTTP process reads on while the thread's save transaction writes) and writes
// the run's progress and results there; this side only hands it the run, forwards an abort and
// answers how the run ended.
import { Worker } from 'node:worker_threads';
import type { DatabaseConfig } from '../config.ts';
import type { RunRow } from '../db/repositories/runs.ts';
import { fromThreadError, UserError, type ThreadError } from '../errors.ts';
import { workerUrl } from '../worker-url.ts';
import { RunError } from './execute-run.ts';

interface RunThreadContext {
  database: DatabaseConfig;
  dataDir: string;
  worker: string;
  /** Heap cap of the extraction thread in MiB. */
  maxHeapMb?: number;
}

/** What the thread is given. */
export interface RunThreadData {
  context: RunThreadContext;
  run: RunRow;
}

/** What the thread answers (once), then it ends. */
export type RunThreadMessage =
  | { type: 'done' }
  | { type: 'error'; error: ThreadError; runError: boolean };

/** The run's analysis in a thread; settles as executeRun would (a RunError when the platform ended the run). */
export function executeRunInThread(context: RunThreadContext, run: RunRow, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  const thread = new Worker(workerUrl(import.meta.url, './run-worker.ts', 'run-worker'), {
    workerData: { context, run } satisfies RunThreadData,
  });
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    // The thread stops its analysis and answers; its answer is then the abort's reason.
    const onAbort = () => thread.postMessage({ type: 'abort' });
    signal.addEventListener('abort', onAbort, { once: true });
    thread.on('message', (message: RunThreadMessage) => {
      if (message.type === 'done') settle(resolve);
      else if (signal.aborted) settle(() => reject(signal.reason));
      else settle(() => reject(message.runError ? new RunError(message.error.message, message.error.userKind) : fromThreadError(message.error)));
    });
    thread.on('error', (error) => {
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() => reject(outOfMemory ? new UserError('分析所需内存超出上限，输入过大或结构异常，分析已终止', 'unavailable') : error));
    });
    thread.on('exit', (code) => settle(() => reject(signal.aborted ? signal.reason : new UserError(`分析线程异常退出（${code}）`, 'unavailable'))));
  });
}
