// The licence pass's examination of one file's bytes (analysis modes 4 and 7), in the analysis
// thread and in its second thread: each file in its own encoding (UTF-16 from Windows tools,
// Latin-1, GB18030); a binary (DLL, shared library) by its printable strings, where version
// resources and notices live.
//
// ExaminePool shares the work with a second thread when the tree is large: the pass is CPU bound
// (licence recognition of long copyright files) and the machine has more than one core, while the
// analysis thread would use one. Texts are handed to the second thread while it has fewer than
// QUEUE waiting and examined here otherwise, so both stay busy without a fixed split; findings
// come back per text and the caller keeps tree order.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { fromThreadError, type ThreadError } from '../errors.ts';
import { workerUrl } from '../worker-url.ts';
import type { AnalyzerOptions, FileFindingFields, TextFile } from './analyzers/model.ts';
import { readableText } from './text-decode.ts';

export type Examiner = (file: TextFile) => Partial<FileFindingFields>;
export type Found = Partial<FileFindingFields>;

export interface ExamineRequest {
  id: number;
  path: string;
  name: string;
  bytes: Uint8Array;
}

type Reply =
  | { type: 'ready' }
  | { type: 'found'; id: number; found: Found }
  | { type: 'error'; id: number | null; error: ThreadError };

/** Decodes a file's bytes and runs every examiner over the text. */
export function examineBytes(examiners: readonly Examiner[], path: string, name: string, bytes: Uint8Array): Found {
  const { text } = readableText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const found: Found = {};
  if (!text) return found;
  const file: TextFile = { path, name, text, bytes };
  for (const examine of examiners) Object.assign(found, examine(file));
  return found;
}

/** Texts waiting in the second thread at most (each a file of at most MAX_TEXT_BYTES). */
const QUEUE = 16;
/** Below this many files the second thread's start-up (loading the recognisers) is not worth it. */
export const SECOND_THREAD_MIN_FILES = 1_000;

interface Pending {
  request: ExamineRequest;
  resolve: (found: Found) => void;
  reject: (error: Error) => void;
}

export class ExaminePool {
  private readonly examiners: readonly Examiner[];
  private worker: Worker | null = null;
  private ready = false;
  private onReady: (ok: boolean) => void = () => undefined;
  /** Settles when the second thread can take texts (true), or will not (false: none, or it failed to start). */
  readonly started = new Promise<boolean>((resolve) => (this.onReady = resolve));
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  private constructor(examiners: readonly Examiner[]) {
    this.examiners = examiners;
  }

  /**
   * The pool of an analysis: this thread's examiners, plus a second thread (started now, so that it
   * loads while the tree is scanned) when there are enough files and a core to spare.
   */
  static start(examiners: readonly Examiner[], modes: readonly number[], files: number, signal: AbortSignal, options: AnalyzerOptions = {}): ExaminePool {
    const pool = new ExaminePool(examiners);
    if (examiners.length && files >= SECOND_THREAD_MIN_FILES && availableParallelism() > 1) pool.spawn(modes, signal, options);
    else pool.onReady(false);
    return pool;
  }

  private spawn(modes: readonly number[], signal: AbortSignal, options: AnalyzerOptions): void {
    const worker = new Worker(workerUrl(import.meta.url, './examine-worker.ts', 'examine-worker'), {
      workerData: { modes: [...modes], options },
      // Its own heap cap: one pathological text ends this thread, and its texts are examined here.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    this.worker = worker;
    worker.unref();
    const stop = () => this.abandon(true);
    signal.addEventListener('abort', stop, { once: true });
    worker.on('message', (msg: Reply) => {
      if (msg.type === 'ready') this.onReady((this.ready = true));
      else if (msg.type === 'found') this.take(msg.id)?.resolve(msg.found);
      else if (msg.id === null) this.abandon();
      // A text the analyzers throw on fails the analysis, as it would in this thread.
      else this.take(msg.id)?.reject(fromThreadError(msg.error));
    });
    worker.on('error', () => this.abandon());
    worker.on('exit', () => {
      signal.removeEventListener('abort', stop);
      this.abandon();
    });
  }

  /** A text's findings: from the second thread when it has room, else examined here at once. */
  examine(path: string, name: string, bytes: Uint8Array): Found | Promise<Found> {
    if (!this.worker || !this.ready || this.pending.size >= QUEUE) return examineBytes(this.examiners, path, name, bytes);
    const request: ExamineRequest = { id: this.nextId++, path, name, bytes };
    const found = new Promise<Found>((resolve, reject) => {
      this.pending.set(request.id, { request, resolve, reject });
      this.worker!.postMessage(request);
    });
    // Awaited in tree order after the walk: a failure meanwhile is not an unhandled rejection.
    found.catch(() => undefined);
    return found;
  }

  /** Ends the second thread (when the pass is over, or the analysis aborted). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.abandon();
    await worker?.terminate();
  }

  private take(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    return entry;
  }

  /**
   * The second thread is gone (crashed or out of its heap, closed, the analysis aborted): what it
   * held is examined here, unless the analysis is being abandoned anyway.
   */
  private abandon(aborted = false): void {
    if (!this.worker) return;
    const worker = this.worker;
    this.worker = null;
    this.ready = false;
    this.onReady(false);
    void worker.terminate();
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const { request, resolve, reject } of left) {
      if (aborted) {
        resolve({});
        continue;
      }
      try {
        resolve(examineBytes(this.examiners, request.path, request.name, request.bytes));
      } catch (error) {
        reject(error as Error);
      }
    }
  }
}
