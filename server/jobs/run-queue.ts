// The analysis queue of one platform process: claims queued runs up to its concurrency, runs each
// in a worker thread, beats while they run, and hands interrupted runs back to the queue. Several
// processes (the embedded platform, `npm run worker` on other machines) can share one PostgreSQL
// queue: claiming uses FOR UPDATE SKIP LOCKED, and a worker that stops beating loses its runs.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { TASK_STATUS } from '../../contract/enums.ts';
import type { DatabaseKind } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { claimNextRun, failRun, requeueStale, type RunRow } from '../db/repositories/runs.ts';
import { nowIso } from '../db/time.ts';
import { executeRun, RunError } from './execute-run.ts';
import { launchDueProjects } from './schedule.ts';

export interface RunQueueOptions {
  db: Kysely<Database>;
  databaseKind: DatabaseKind;
  dataDir: string;
  concurrency: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How often to look for work when nobody wakes the queue (ms). */
  pollMs?: number;
  maxHeapMb?: number;
}

const HEARTBEAT_MS = 10_000;
/** How often scheduled (timing) analyses are looked for. */
const SCHEDULE_MS = 30_000;
/** A run whose worker has not beaten for this long is given back to the queue. */
const STALE_MS = 120_000;

export class RunQueue {
  readonly worker = `${hostname()}#${process.pid}#${randomBytes(3).toString('hex')}`;
  private readonly running = new Map<number, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private beat: NodeJS.Timeout | undefined;
  private schedule: NodeJS.Timeout | undefined;
  private filling = false;
  private again = false;
  private stopped = false;
  private options: RunQueueOptions;

  constructor(options: RunQueueOptions) {
    this.options = options;
  }

  setLogger(log: RunQueueOptions['log']): void {
    this.options.log = log;
  }

  async start(): Promise<void> {
    // Runs this database shows as 分析中 with a silent worker were interrupted (a restart).
    const requeued = await requeueStale(this.options.db, new Date(Date.now() - STALE_MS).toISOString());
    if (requeued) this.options.log.warn({ requeued }, 'interrupted analyses queued again');
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 2000);
    this.beat = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.schedule = setInterval(() => void this.launchDue(), SCHEDULE_MS);
    await this.launchDue();
    this.wake();
  }

  /** Looks for work now (called after a launch so a new run starts at once). */
  wake(): void {
    if (this.stopped) return;
    if (this.filling) { this.again = true; return; }
    this.filling = true;
    void this.fill().finally(() => {
      this.filling = false;
      if (this.again) { this.again = false; this.wake(); }
    });
  }

  /** Aborts a run this process is running (pause or stop); false when it is not running here. */
  abort(runId: number): boolean {
    const controller = this.running.get(runId);
    if (!controller) return false;
    controller.abort(new RunError('任务已被暂停或停止'));
    return true;
  }

  get active(): number {
    return this.running.size;
  }

  get concurrency(): number {
    return this.options.concurrency;
  }

  /** Stops claiming, aborts what runs and waits for it; the runs go back to the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.beat);
    clearInterval(this.schedule);
    for (const controller of this.running.values()) controller.abort(new RunError('平台正在停止'));
    const deadline = Date.now() + 10_000;
    while (this.running.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await requeueStale(this.options.db, new Date(0).toISOString(), this.worker).catch(() => {});
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.options.concurrency) {
      let run: RunRow | null;
      try {
        run = await claimNextRun(this.options.db, this.worker, this.options.databaseKind === 'postgres');
      } catch (error) {
        this.options.log.error({ err: error }, 'claiming a run failed');
        return;
      }
      if (!run) return;
      this.execute(run);
    }
  }

  private execute(run: RunRow): void {
    const controller = new AbortController();
    this.running.set(run.id, controller);
    const { db, dataDir, log } = this.options;
    log.info({ runId: run.id, projectId: run.project_id }, 'analysis started');
    void executeRun({ db, dataDir, worker: this.worker, maxHeapMb: this.options.maxHeapMb }, run, controller.signal)
      .then(() => log.info({ runId: run.id }, 'analysis finished'))
      .catch(async (error: unknown) => {
        if (this.stopped) return; // handed back to the queue by stop()
        const message = error instanceof RunError || (error instanceof Error && /[\u4e00-\u9fff]/.test(error.message))
          ? error.message
          : `分析失败：${error instanceof Error ? error.message : String(error)}`;
        if (!(error instanceof RunError)) log.error({ err: error, runId: run.id }, 'analysis failed');
        await failRun(db, run, this.worker, message).catch((e: unknown) => log.error({ err: e }, 'recording a failed run failed'));
      })
      .finally(() => {
        this.running.delete(run.id);
        this.wake();
      });
  }

  private async launchDue(): Promise<void> {
    try {
      if (await launchDueProjects(this.options.db)) this.wake();
    } catch (error) {
      this.options.log.warn({ err: error }, 'launching scheduled analyses failed');
    }
  }

  /** Keeps this process's runs alive, and notices runs paused or stopped by another process. */
  private async heartbeat(): Promise<void> {
    const { db, log } = this.options;
    try {
      const ids = [...this.running.keys()];
      if (ids.length) {
        await db.updateTable('runs').set({ heartbeat_at: nowIso() })
          .where('id', 'in', ids).where('worker', '=', this.worker).where('status', '=', TASK_STATUS.ANALYSING).execute();
        const gone = await db.selectFrom('runs').select('id').where('id', 'in', ids)
          .where((eb) => eb.or([eb('status', '<>', TASK_STATUS.ANALYSING), eb('worker', '<>', this.worker)])).execute();
        for (const { id } of gone) this.abort(id);
      }
      await requeueStale(db, new Date(Date.now() - STALE_MS).toISOString());
    } catch (error) {
      log.warn({ err: error }, 'heartbeat failed');
    }
  }
}
