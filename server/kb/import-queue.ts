// The platform's knowledge-base import queue: imports started from the app (uploaded files) run
// one at a time in this process, in the order they were asked for; the others wait as 排队中.
// A job is cancelled between batches (what was committed stays, the record ends 已取消); a
// platform that stops fails the running and waiting jobs' records (failInterruptedImports does the
// same at the next start for a process that died). Each job's `onEnd` runs however it ends, so the
// uploads it read are removed.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { cancelQueuedImport, failRunningImports, markImportStarted } from '../db/repositories/knowledge-base-imports.ts';
import type { Database } from '../db/schema.ts';
import { IMPORT_CANCELLED, IMPORT_INTERRUPTED_MESSAGE, createQueuedImport, runImportJob, type ImportInput } from './import.ts';

interface Job {
  recordId: number;
  /** Whether it holds the import lane (its record is 导入中). */
  started?: boolean;
  inputs: ImportInput[];
  controller: AbortController;
  onEnd(): Promise<void>;
}

export interface ImportQueueHandle {
  /** Opens the job's 排队中 record and queues it; its record id. */
  enqueue(job: { inputs: ImportInput[]; name: string; userId: number | null; onEnd(): Promise<void> }): Promise<number>;
  /** Cancels a waiting or running job of this process: 'queued' | 'running', or false when it is not here. */
  cancel(recordId: number): Promise<'queued' | 'running' | false>;
  /** Resolves when no job is running or waiting, their clean-up done. */
  idle(): Promise<void>;
  /** Runs `fn` when no other import (a queued job, a mirror sync's import) is running. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export class ImportQueue implements ImportQueueHandle {
  private readonly waiting: Job[] = [];
  private running: { job: Job; done: Promise<void> } | null = null;
  private stopped = false;
  /** One import at a time in this process: queued jobs and mirror syncs' imports take turns. */
  private lane: Promise<unknown> = Promise.resolve();
  private readonly db: Kysely<Database>;
  private log: Log;

  constructor(db: Kysely<Database>, log: Log) {
    this.db = db;
    this.log = log;
  }

  setLogger(log: Log): void {
    this.log = log;
  }

  async enqueue({ inputs, name, userId, onEnd }: { inputs: ImportInput[]; name: string; userId: number | null; onEnd(): Promise<void> }): Promise<number> {
    const recordId = await createQueuedImport(this.db, inputs, { userId, name });
    this.waiting.push({ recordId, inputs, controller: new AbortController(), onEnd });
    this.pump();
    return recordId;
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.lane.then(fn, fn);
    this.lane = turn.catch(() => undefined);
    return turn;
  }

  async cancel(recordId: number): Promise<'queued' | 'running' | false> {
    if (this.running?.job.recordId === recordId && !this.running.job.started) {
      // Next in line but waiting for another import (a sync) to finish: it never starts.
      this.running.job.controller.abort(IMPORT_CANCELLED);
      await cancelQueuedImport(this.db, recordId, '已取消：导入尚未开始');
      return 'queued';
    }
    if (this.running?.job.recordId === recordId) {
      this.running.job.controller.abort(IMPORT_CANCELLED);
      await this.running.done;
      return 'running';
    }
    const at = this.waiting.findIndex((j) => j.recordId === recordId);
    if (at < 0) return false;
    const [job] = this.waiting.splice(at, 1);
    await cancelQueuedImport(this.db, recordId, '已取消：导入尚未开始');
    await this.end(job!);
    return 'queued';
  }

  /** Resolves when nothing is running or waiting (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running.done;
  }

  /** Stops taking work: the running job is aborted and it and the waiting ones end failed (interrupted). */
  async stop(): Promise<void> {
    this.stopped = true;
    const waiting = this.waiting.splice(0);
    this.running?.job.controller.abort(new Error(IMPORT_INTERRUPTED_MESSAGE));
    await this.running?.done;
    await failRunningImports(this.db, IMPORT_INTERRUPTED_MESSAGE, waiting.map((j) => j.recordId)).catch(() => 0);
    for (const job of waiting) await this.end(job);
  }

  private async end(job: Job): Promise<void> {
    try {
      await job.onEnd();
    } catch (error) {
      this.log.warn({ err: error, recordId: job.recordId }, 'cleaning up after a knowledge-base import failed');
    }
  }

  private pump(): void {
    if (this.running || this.stopped) return;
    const job = this.waiting.shift();
    if (!job) return;
    const done = (async () => {
      try {
        await this.exclusive(async () => {
          if (job.controller.signal.aborted || !(await markImportStarted(this.db, job.recordId))) return;
          job.started = true;
          const summary = await runImportJob(this.db, job.recordId, job.inputs, { signal: job.controller.signal });
          this.log.info({ recordId: job.recordId, imported: summary.imported, updated: summary.updated, failed: summary.failed }, 'knowledge-base import finished');
        });
      } catch (error) {
        this.log.error({ err: error, recordId: job.recordId }, 'knowledge-base import failed');
      } finally {
        await this.end(job);
      }
    })();
    this.running = { job, done };
    void done.then(() => {
      this.running = null;
      this.pump();
    });
  }
}
