// The claim-run-beat loop the analysis and report queues share. A process claims waiting jobs up
// to its concurrency, runs each with an AbortSignal, beats for them while they run, aborts those
// the database says are no longer its own (paused, stopped, deleted, taken over), and gives back
// jobs whose worker went silent. Several processes can share one PostgreSQL queue: claiming is the
// source's FOR UPDATE SKIP LOCKED, and a worker that stops beating loses its jobs.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';

export type JobLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** What a queue's table and work look like to the loop. */
export interface JobSource<J> {
  /** For log lines: 'analysis', 'report'. */
  label: string;
  claim(worker: string): Promise<J | null>;
  idOf(job: J): number;
  /** Log fields of a job as it starts. */
  describe(job: J): Record<string, unknown>;
  /** Does the work; rejects when it failed or was aborted. */
  run(job: J, signal: AbortSignal): Promise<void>;
  /** Records a failure (never called for jobs stop() hands back). */
  fail(job: J, error: unknown, worker: string): Promise<void>;
  /** A failure the user caused or was told about (a bad archive): not logged as an error. */
  expected?(error: unknown): boolean;
  /** Beats for the running ids; answers those no longer this worker's, to be aborted. */
  beat(ids: number[], worker: string): Promise<number[]>;
  /** Why a job answered by beat() is aborted. */
  goneReason(): Error;
  /** Gives back jobs whose worker has not beaten since `before` (only `worker`'s when given); how many. */
  requeueStale(before: string, worker?: string): Promise<number>;
  /** Why running jobs are aborted when the process stops. */
  stopReason(): Error;
}

export interface JobLoopOptions {
  concurrency: number;
  log: JobLog;
  /** How often to look for work when nobody wakes the loop (ms). */
  pollMs?: number;
  /** How often running jobs beat (ms). */
  heartbeatMs?: number;
  /** A job whose worker has not beaten for this long is given back (ms). */
  staleMs?: number;
  /** Appended to the worker name, so two loops of one process never share a name. */
  tag?: string;
}

const HEARTBEAT_MS = 10_000;
const STALE_MS = 120_000;
const STOP_WAIT_MS = 10_000;

export class JobLoop<J> {
  readonly worker: string;
  readonly concurrency: number;
  private readonly source: JobSource<J>;
  private readonly options: JobLoopOptions;
  private log: JobLog;
  private readonly running = new Map<number, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private beatTimer: NodeJS.Timeout | undefined;
  private filling = false;
  private again = false;
  private stopped = false;

  constructor(source: JobSource<J>, options: JobLoopOptions) {
    this.source = source;
    this.options = options;
    this.log = options.log;
    this.concurrency = options.concurrency;
    this.worker = `${hostname()}#${process.pid}${options.tag ? `#${options.tag}` : ''}#${randomBytes(3).toString('hex')}`;
  }

  setLogger(log: JobLog): void {
    this.log = log;
  }

  get active(): number {
    return this.running.size;
  }

  /** How long a worker may stay silent before its jobs are given back (ms). */
  get staleMs(): number {
    return this.options.staleMs ?? STALE_MS;
  }

  async start(): Promise<void> {
    // Jobs this database shows as running with a silent worker were interrupted (a restart).
    const requeued = await this.source.requeueStale(this.staleBefore());
    if (requeued) this.log.warn({ requeued }, `interrupted ${this.source.label} jobs queued again`);
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 2000);
    this.beatTimer = setInterval(() => void this.heartbeat(), this.options.heartbeatMs ?? HEARTBEAT_MS);
    this.wake();
  }

  /** Looks for work now (after a submit, so a new job starts at once). */
  wake(): void {
    if (this.stopped) return;
    if (this.filling) { this.again = true; return; }
    this.filling = true;
    void this.fill().finally(() => {
      this.filling = false;
      if (this.again) { this.again = false; this.wake(); }
    });
  }

  /** Aborts a job this process is running; false when it is not running here. */
  abort(id: number, reason: Error): boolean {
    const controller = this.running.get(id);
    if (!controller) return false;
    controller.abort(reason);
    return true;
  }

  /** Stops claiming, aborts what runs, waits for it (10 s at most) and gives it back to the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.beatTimer);
    for (const controller of this.running.values()) controller.abort(this.source.stopReason());
    const deadline = Date.now() + STOP_WAIT_MS;
    while (this.running.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await this.source.requeueStale(new Date(0).toISOString(), this.worker).catch(() => {});
  }

  private staleBefore(): string {
    return new Date(Date.now() - this.staleMs).toISOString();
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.concurrency) {
      let job: J | null;
      try {
        job = await this.source.claim(this.worker);
      } catch (error) {
        this.log.error({ err: error }, `claiming a ${this.source.label} job failed`);
        return;
      }
      if (!job) return;
      this.execute(job);
    }
  }

  private execute(job: J): void {
    const { source } = this;
    const id = source.idOf(job);
    const controller = new AbortController();
    this.running.set(id, controller);
    this.log.info(source.describe(job), `${source.label} started`);
    void source.run(job, controller.signal)
      .then(() => this.log.info({ id }, `${source.label} finished`))
      .catch(async (error: unknown) => {
        if (this.stopped) return; // handed back to the queue by stop()
        if (!source.expected?.(error)) this.log.error({ err: error, id }, `${source.label} failed`);
        await source.fail(job, error, this.worker).catch((e: unknown) => this.log.error({ err: e, id }, `recording a failed ${source.label} failed`));
      })
      .finally(() => {
        this.running.delete(id);
        this.wake();
      });
  }

  /** Keeps this process's jobs alive, aborts those taken from it, and gives back silent workers' jobs. */
  private async heartbeat(): Promise<void> {
    try {
      const ids = [...this.running.keys()];
      if (ids.length) for (const id of await this.source.beat(ids, this.worker)) this.abort(id, this.source.goneReason());
      await this.source.requeueStale(this.staleBefore());
    } catch (error) {
      this.log.warn({ err: error }, `${this.source.label} heartbeat failed`);
    }
  }
}
