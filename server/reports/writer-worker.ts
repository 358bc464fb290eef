// The report writer thread's entry (server/reports/generate.ts starts it): one report at a time,
// as many as the thread is given while it is kept.
import { parentPort } from 'node:worker_threads';
import { toThreadError } from '../errors.ts';
import { writerFor, type Answer, type Job } from './generate.ts';

if (parentPort) {
  const port = parentPort;
  port.on('message', (job: Job) => {
    void (async () => {
      try {
        const write = await writerFor(job.kind, job.reportType);
        await write(job.model, job.file);
        port.postMessage({ ok: true } satisfies Answer);
      } catch (error) {
        port.postMessage({ ok: false, error: toThreadError(error) } satisfies Answer);
      }
    })();
  });
}
