// Writes one report row's file: picks the writer by kind and report type, runs it in a worker
// thread (a 10,000-finding PDF is seconds of CPU that must not stall the API's event loop),
// writes to `<name>.part` and renames only when complete, then hashes the file as a stream.
// The thread's entry is writer-worker.ts, which asks this module's writerFor for the writer.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { fromThreadError, UserError, type ThreadError } from '../errors.ts';
import { makePrivateDir, openPrivate } from '../files/private.ts';
import { workerUrl } from '../worker-url.ts';
import { COMPONENT_EXPORT_REPORT_TYPE, VEX_REPORT_TYPE } from '../../contract/api/report.ts';
import { REPORT_TYPE } from '../../contract/enums.ts';
import type { ReportModel } from './model.ts';

export type Writer = (model: ReportModel, file: string) => Promise<void>;

/** The writer of a report row: documents and SBOMs by REPORT_TYPE, VEX 11/12, component exports 21/22. */
export async function writerFor(kind: string, reportType: number): Promise<Writer> {
  if (kind === 'vex') {
    if (reportType === VEX_REPORT_TYPE[1]) return (await import('./vex.ts')).writeCycloneDxVex;
    if (reportType === VEX_REPORT_TYPE[2]) return (await import('./vex.ts')).writeOpenVex;
  } else if (kind === 'component') {
    if (reportType === COMPONENT_EXPORT_REPORT_TYPE.xlsx) return (await import('./xlsx.ts')).writeComponentsXlsx;
    if (reportType === COMPONENT_EXPORT_REPORT_TYPE.csv) return (await import('./csv.ts')).writeComponentsCsv;
  } else {
    switch (reportType) {
      case REPORT_TYPE.word: return (await import('./docx.ts')).writeDocx;
      case REPORT_TYPE.excel: return (await import('./xlsx.ts')).writeXlsx;
      case REPORT_TYPE.pdf: return (await import('./pdf.ts')).writePdf;
      case REPORT_TYPE.spdx: return (await import('./spdx.ts')).writeSpdx;
      case REPORT_TYPE.cyclonedx: return (await import('./cyclonedx.ts')).writeCycloneDx;
      case REPORT_TYPE.swid: return (await import('./swid.ts')).writeSwidZip;
    }
  }
  throw new UserError(`不支持的报告格式（${kind} / ${reportType}）`);
}

/** Characters no file system accepts in a name; the stored file keeps the rest of the report's name. */
const safeFileName = (name: string): string =>
  [...name].map((ch) => (ch.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(ch) ? '_' : ch)).join('').slice(0, 200);

/** The report's file relative to the data folder. */
const reportFileOf = (id: number, name: string): string => path.posix.join('reports', String(id), safeFileName(name));

export interface GeneratedFile {
  /** Relative to the data folder. */
  file: string;
  size: number;
  sha256: string;
}

export interface Job { kind: string; reportType: number; model: ReportModel; file: string }
export type Answer = { ok: true } | { ok: false; error: ThreadError };

export interface GenerateOptions {
  signal?: AbortSignal;
  /** Old-generation heap of a writer thread in MiB (fixed when the thread starts). */
  maxHeapMb?: number;
}

// Writer threads are kept for a minute after a report: loading the PDF and Excel writers (fonts,
// charts, pdfkit, exceljs) costs seconds, and one generate call usually queues several formats.
const IDLE_MS = 60_000;
const idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];

function takeWorker(maxHeapMb: number | undefined): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    kept.worker.ref();
    return kept.worker;
  }
  return new Worker(workerUrl(import.meta.url, './writer-worker.ts', 'report-writer'), {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb ?? 2048 },
  });
}

function keepWorker(worker: Worker): void {
  // An idle thread must not keep the process alive.
  worker.unref();
  const entry = { worker, timer: setTimeout(() => {
    const i = idle.indexOf(entry);
    if (i >= 0) idle.splice(i, 1);
    void worker.terminate();
  }, IDLE_MS) };
  entry.timer.unref();
  idle.push(entry);
}

/** Ends the idle writer threads (the platform is stopping). */
export async function closeWriterThreads(): Promise<void> {
  const all = idle.splice(0);
  for (const { timer } of all) clearTimeout(timer);
  await Promise.all(all.map(({ worker }) => worker.terminate()));
}

/** Runs the writer in a worker thread and settles when the file is complete (or the thread fails). */
function writeInWorker(job: Job, options: GenerateOptions): Promise<void> {
  options.signal?.throwIfAborted();
  const worker = takeWorker(options.maxHeapMb);
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void, reusable: boolean) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      // A thread that failed or was aborted mid-write is not trusted with another report.
      if (reusable) keepWorker(worker); else void worker.terminate();
      fn();
    };
    const onAbort = () => settle(() => reject(options.signal!.reason ?? new UserError('报告生成已取消', 'conflict')), false);
    const onMessage = (answer: Answer) => settle(() => (answer.ok ? resolve() : reject(fromThreadError(answer.error))), true);
    const onError = (error: Error) => {
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() => reject(outOfMemory ? new UserError('报告生成所需内存超出上限', 'unavailable') : error), false);
    };
    const onExit = (code: number) => settle(() => reject(new UserError(`报告生成线程异常退出（${code}）`, 'unavailable')), false);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job);
  });
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes the report `id` named `name` under `<dataDir>/reports/<id>/`. The writer fills
 * `<name>.part`; only a complete file is renamed into place, so a failure leaves no file.
 */
export async function generateReportFile(
  dataDir: string, report: { id: number; kind: string; reportType: number; name: string }, model: ReportModel, options: GenerateOptions = {},
): Promise<GeneratedFile> {
  const relative = reportFileOf(report.id, report.name);
  const target = path.join(dataDir, relative);
  const part = `${target}.part`;
  await rm(path.dirname(target), { recursive: true, force: true });
  await makePrivateDir(path.dirname(target));
  try {
    // Created 0600 here, whatever a writer's library would create: the writers truncate it.
    await (await openPrivate(part, 'w')).close();
    await writeInWorker({ kind: report.kind, reportType: report.reportType, model, file: part }, options);
    const { size } = await stat(part);
    const sha256 = await sha256Of(part);
    await rename(part, target);
    return { file: relative, size, sha256 };
  } catch (error) {
    await rm(path.dirname(target), { recursive: true, force: true });
    throw error;
  }
}
