// Worker-thread side of verifyInWorker: reading an upload through (inflating, bzip2 in JavaScript,
// xz in WebAssembly) is CPU work that stays off the platform's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { toThreadError } from '../errors.ts';
import { verifyArchive, type VerifyOptions } from './sources/verify.ts';

const { file, options } = workerData as { file: string; options: Omit<VerifyOptions, 'signal'> };
try {
  parentPort!.postMessage({ type: 'result', result: await verifyArchive(file, options) });
} catch (error) {
  parentPort!.postMessage({ type: 'error', error: toThreadError(error) });
}
