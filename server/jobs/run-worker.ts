// Thread side of executeRunInThread (run-thread.ts): the whole run — extraction (in its own capped
// thread below this one), matching, licence levels, progress writes and the save — on a database
// connection of this thread's own, closed before the thread ends.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/connect.ts';
import { toThreadError } from '../errors.ts';
import { executeRun, RunError } from './execute-run.ts';
import type { RunThreadData, RunThreadMessage } from './run-thread.ts';

const { context, run } = workerData as RunThreadData;
const controller = new AbortController();
parentPort!.on('message', (message: { type: string }) => {
  if (message.type === 'abort') controller.abort(new RunError('任务已被暂停或停止', 'conflict'));
});

const { db } = openDatabase(context.database);
let answer: RunThreadMessage;
try {
  await executeRun({ db, dataDir: context.dataDir, worker: context.worker, maxHeapMb: context.maxHeapMb }, run, controller.signal);
  answer = { type: 'done' };
} catch (error) {
  answer = { type: 'error', error: toThreadError(error), runError: error instanceof RunError };
} finally {
  await db.destroy().catch(() => {});
}
parentPort!.postMessage(answer!);
// The abort listener would keep the thread waiting; there is nothing more to do.
parentPort!.close();
