// Worker-thread side of scanInWorker: runs one scan off the caller's event loop and posts
// progress and the result back. Extraction is CPU work (parsing large lockfiles), so a caller that
// must stay responsive scans here (the platform's analyses run in their own thread:
// analyse-thread.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { toThreadError } from '../errors.ts';
import { allExtractors } from './extractors/index.ts';
import { scanTree } from './scan.ts';

const { root } = workerData as { root: string };
const controller = new AbortController();
parentPort!.on('message', (msg: { type: string }) => { if (msg.type === 'abort') controller.abort(); });

try {
  const result = await scanTree(root, {
    extractors: allExtractors,
    signal: controller.signal,
    onProgress: (event) => parentPort!.postMessage({ type: 'progress', event }),
  });
  parentPort!.postMessage({ type: 'result', result });
} catch (error) {
  parentPort!.postMessage({ type: 'error', error: toThreadError(error), aborted: controller.signal.aborted });
}
