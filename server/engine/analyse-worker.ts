// Worker-thread side of analyseInWorker: one analysis off the platform's event loop. Parsing,
// licence recognition and unpacking are CPU work; a crash or runaway here ends this thread only.
import { parentPort, workerData } from 'node:worker_threads';
import { toThreadError } from '../errors.ts';
import { analyse, type AnalyseRequest } from './analyse.ts';

const request = workerData as AnalyseRequest;
const controller = new AbortController();
parentPort!.on('message', (msg: { type: string }) => { if (msg.type === 'abort') controller.abort(); });

try {
  const result = await analyse(request, (progress) => parentPort!.postMessage({ type: 'progress', progress }), controller.signal);
  parentPort!.postMessage({ type: 'result', result });
} catch (error) {
  parentPort!.postMessage({ type: 'error', error: toThreadError(error), aborted: controller.signal.aborted });
}
