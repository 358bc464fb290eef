// The analysis queue of one platform process: the shared job loop (job-loop.ts) over the runs
// table, each run analysed in a thread of its own (run-thread.ts), off the event loop, plus the
// timer that launches scheduled analyses. Several processes (the embedded platform, `npm run worker`
// on other machines) can share one PostgreSQL queue. Work folders that dead processes left are
// swept at start, when runs of silent workers are given back, and every few hours (leftovers.ts).
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConfig } from '../config.ts';
import type { DatabaseKind } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { claimNextRun, failRun, heartbeatRuns, lostRuns, requeueStale, type RunRow } from '../db/repositories/runs.ts';
import { isUserError } from '../errors.ts';
import { RunError } from './execute-run.ts';
import { JobLoop } from './job-loop.ts';
import { executeRunInThread } from './run-thread.ts';
import { SWEEP_EVERY_MS, sweepWorkFolders } from './leftovers.ts';
import { launchDueProjects } from './schedule.ts';

export interface RunQueueOptions {
  db: Kysely<Database>;
  /** What `db` was opened from: each run's thread opens the database again from it. */
  database: DatabaseConfig;
  databaseKind: DatabaseKind;
  dataDir: string;
  concurrency: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How often to look for work when nobody wakes the queue (ms). */
  pollMs?: number;
  maxHeapMb?: number;
}

/**
 * The message a failed run shows: a UserError's own (a bad archive, a deleted project, a thread out
 * of memory), anything else as an internal failure under 分析失败.
 */
export const runFailureMessage = (error: unknown): string =>
  (isUserError(error) ? error.message : `分析失败：${error instanceof Error ? error.message : String(error)}`);

/** How often scheduled (timing) analyses are looked for. */
const SCHEDULE_MS = 30_000;

export class RunQueue {
  private readonly loop: JobLoop<RunRow>;
  private schedule: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;
  private options: RunQueueOptions;

  constructor(options: RunQueueOptions) {
    this.options = options;
    const { db, database, dataDir } = options;
    const postgres = options.databaseKind === 'postgres';
    this.loop = new JobLoop<RunRow>({
      label: 'analysis',
      claim: (worker) => claimNextRun(db, worker, postgres),
      idOf: (run) => run.id,
      describe: (run) => ({ runId: run.id, projectId: run.project_id }),
      run: (run, signal) => executeRunInThread({ database, dataDir, worker: this.worker, maxHeapMb: options.maxHeapMb }, run, signal),
      fail: (run, error, worker) => failRun(db, run, worker, runFailureMessage(error)),
      expected: (error) => error instanceof RunError,
      beat: async (ids, worker) => {
        await heartbeatRuns(db, ids, worker);
        return lostRuns(db, ids, worker);
      },
      goneReason: () => new RunError('任务已被暂停或停止', 'conflict'),
      requeueStale: async (before, worker) => {
        const requeued = await requeueStale(db, before, worker);
        // The folders of runs taken from silent workers are leftovers now (not so for this worker's own at stop).
        if (requeued && !worker) void this.sweepWork();
        return requeued;
      },
      stopReason: () => new RunError('平台正在停止', 'unavailable'),
    }, { concurrency: options.concurrency, log: options.log, ...(options.pollMs !== undefined && { pollMs: options.pollMs }) });
  }

  get worker(): string {
    return this.loop.worker;
  }

  setLogger(log: RunQueueOptions['log']): void {
    this.options.log = log;
    this.loop.setLogger(log);
  }

  async start(): Promise<void> {
    await this.sweepWork();
    await this.loop.start();
    this.schedule = setInterval(() => void this.launchDue(), SCHEDULE_MS);
    this.sweeper = setInterval(() => void this.sweepWork(), SWEEP_EVERY_MS);
    this.sweeper.unref();
    await this.launchDue();
  }

  /**
   * Removes the work folders no live worker holds; the runs of workers proven dead (a process of
   * this machine that is gone) go back to the queue at once rather than after the silence limit.
   */
  sweepWork(): Promise<void> {
    this.sweeping ??= (async () => {
      const { db, dataDir, log } = this.options;
      try {
        const { removed, deadWorkers } = await sweepWorkFolders(db, dataDir, { staleMs: this.loop.staleMs });
        let requeued = 0;
        for (const worker of deadWorkers) requeued += await requeueStale(db, new Date(0).toISOString(), worker);
        if (removed.length || requeued) log.warn({ removed: removed.length, requeued }, 'work folders of interrupted analyses removed');
      } catch (error) {
        log.warn({ err: error }, 'sweeping work folders failed');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** Looks for work now (called after a launch so a new run starts at once). */
  wake(): void {
    this.loop.wake();
  }

  /** Aborts a run this process is running (pause or stop); false when it is not running here. */
  abort(runId: number): boolean {
    return this.loop.abort(runId, new RunError('任务已被暂停或停止', 'conflict'));
  }

  get active(): number {
    return this.loop.active;
  }

  get concurrency(): number {
    return this.loop.concurrency;
  }

  /** Stops claiming, aborts what runs and waits for it; the runs go back to the queue. */
  async stop(): Promise<void> {
    clearInterval(this.schedule);
    clearInterval(this.sweeper);
    await this.loop.stop();
    await this.sweeping;
  }

  private async launchDue(): Promise<void> {
    try {
      if (await launchDueProjects(this.options.db)) this.wake();
    } catch (error) {
      this.options.log.warn({ err: error }, 'launching scheduled analyses failed');
    }
  }
}
