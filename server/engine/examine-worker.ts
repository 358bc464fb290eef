// Worker-thread side of the licence pass's second thread (examine-pool.ts): runs the file
// analyzers of the analysis modes over the texts it is sent and posts each text's findings back.
import { parentPort, workerData } from 'node:worker_threads';
import { toThreadError } from '../errors.ts';
import { fileAnalyzersFor } from './analyzers/index.ts';
import { examineBytes, type ExamineRequest } from './examine.ts';
import type { AnalyzerOptions } from './analyzers/model.ts';

const { modes, options } = workerData as { modes: number[]; options?: AnalyzerOptions };

try {
  const examiners = await Promise.all(fileAnalyzersFor(modes).map((analyzer) => analyzer.start(options)));
  parentPort!.on('message', (msg: ExamineRequest) => {
    try {
      parentPort!.postMessage({ type: 'found', id: msg.id, found: examineBytes(examiners, msg.path, msg.name, msg.bytes) });
    } catch (error) {
      parentPort!.postMessage({ type: 'error', id: msg.id, error: toThreadError(error) });
    }
  });
  parentPort!.postMessage({ type: 'ready' });
} catch (error) {
  parentPort!.postMessage({ type: 'error', id: null, error: toThreadError(error) });
}
