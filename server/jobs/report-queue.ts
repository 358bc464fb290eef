// The report queue of one platform process, shaped like RunQueue: claims the oldest waiting
// report, builds its model from the database on this thread, writes the file in a worker thread
// (server/reports/generate.ts), beats while it works, and gives reports of a silent worker back to
// the queue. One report at a time by default: generation is CPU-bound and shares the machine
// with analyses.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseKind } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import {
  claimNextReport, failReport, finishReport, heartbeatReports, reportProgress, requeueStaleReports, type ReportRecord,
} from '../db/repositories/reports.ts';
import { parseJson } from '../db/repositories/results.ts';
import { buildReportModel, type ModelKind } from '../reports/build-model.ts';
import { closeWriterThreads, generateReportFile } from '../reports/generate.ts';
import type { ReportModel } from '../reports/model.ts';

export interface ReportQueueOptions {
  db: Kysely<Database>;
  databaseKind: DatabaseKind;
  dataDir: string;
  /** Reports generated at once (default 1). */
  concurrency?: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The platform's version, for the report cover and the SBOM tool fields. */
  version: string;
  pollMs?: number;
}

const HEARTBEAT_MS = 10_000;
/** A generating report whose worker has not beaten for this long is queued again. */
const STALE_MS = 120_000;

/** Which model a report kind is written from (VEX and component exports take the full task model). */
const MODEL_KIND: Record<string, ModelKind> = { task: 'task', license: 'license', subject: 'subject', statistic: 'statistic', vex: 'task', component: 'task' };

export class ReportQueue {
  readonly worker = `${hostname()}#${process.pid}#report#${randomBytes(3).toString('hex')}`;
  private readonly running = new Map<number, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private beat: NodeJS.Timeout | undefined;
  private filling = false;
  private again = false;
  private stopped = false;
  private options: ReportQueueOptions;
  /** The model of the last report, kept for the other formats submitted with it. */
  private lastModel: { key: string; model: ReportModel } | null = null;

  constructor(options: ReportQueueOptions) {
    this.options = options;
  }

  setLogger(log: ReportQueueOptions['log']): void {
    this.options.log = log;
  }

  async start(): Promise<void> {
    const requeued = await requeueStaleReports(this.options.db, new Date(Date.now() - STALE_MS).toISOString());
    if (requeued) this.options.log.warn({ requeued }, 'interrupted reports queued again');
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 2000);
    this.beat = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.wake();
  }

  /** Looks for waiting reports now (called after a generate call). */
  wake(): void {
    if (this.stopped) return;
    if (this.filling) { this.again = true; return; }
    this.filling = true;
    void this.fill().finally(() => {
      this.filling = false;
      if (this.again) { this.again = false; this.wake(); }
    });
  }

  get active(): number {
    return this.running.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.beat);
    for (const controller of this.running.values()) controller.abort(new Error('平台正在停止'));
    const deadline = Date.now() + 10_000;
    while (this.running.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await requeueStaleReports(this.options.db, new Date(0).toISOString(), this.worker).catch(() => {});
    await closeWriterThreads();
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < (this.options.concurrency ?? 1)) {
      let report: ReportRecord | null;
      try {
        report = await claimNextReport(this.options.db, this.worker, this.options.databaseKind === 'postgres');
      } catch (error) {
        this.options.log.error({ err: error }, 'claiming a report failed');
        return;
      }
      if (!report) {
        // Nothing left to share the model with once the queue is idle: let the memory go.
        if (!this.running.size) this.lastModel = null;
        return;
      }
      this.execute(report);
    }
  }

  private execute(report: ReportRecord): void {
    const controller = new AbortController();
    const id = Number(report.id);
    this.running.set(id, controller);
    const { db, log } = this.options;
    log.info({ reportId: id, kind: report.kind, reportType: report.report_type }, 'report started');
    void this.generate(report, controller.signal)
      .then(() => log.info({ reportId: id }, 'report finished'))
      .catch(async (error: unknown) => {
        if (this.stopped) return; // handed back to the queue by stop()
        const reason = error instanceof Error ? error.message : String(error);
        const message = /[\u4e00-\u9fff]/.test(reason) ? reason : `报告生成失败：${reason}`;
        log.error({ err: error, reportId: id }, 'report failed');
        await failReport(db, id, this.worker, message).catch((e: unknown) => log.error({ err: e }, 'recording a failed report failed'));
      })
      .finally(() => {
        this.running.delete(id);
        this.wake();
      });
  }

  private async generate(report: ReportRecord, signal: AbortSignal): Promise<void> {
    const { db, dataDir, version } = this.options;
    const id = Number(report.id);
    const params = parseJson<{ runIds?: number[] }>(report.params, {});
    const kind = MODEL_KIND[report.kind] ?? 'task';
    const runIds = params.runIds ?? (report.run_id === null ? [] : [Number(report.run_id)]);
    // The formats of one generate call are rows inserted together: they share one model, read once.
    const key = JSON.stringify([kind, runIds, report.subject_id, report.created_by, report.created_at]);
    let model = this.lastModel?.key === key ? this.lastModel.model : null;
    if (!model) {
      const author = report.created_by === null ? undefined
        : await db.selectFrom('users').select('name').where('id', '=', report.created_by).executeTakeFirst();
      model = await buildReportModel(db, { kind, runIds, subjectId: report.subject_id, author: author?.name ?? '--', tool: { name: 'Cairn', version } });
      this.lastModel = { key, model };
    }
    signal.throwIfAborted();
    if (!(await reportProgress(db, id, this.worker, 30))) return; // deleted meanwhile
    const written = await generateReportFile(dataDir, { id, kind: report.kind, reportType: Number(report.report_type), name: report.name }, model, { signal });
    // A report deleted while it was written keeps no file.
    if (!(await finishReport(db, id, this.worker, written))) await rm(path.dirname(path.join(dataDir, written.file)), { recursive: true, force: true });
  }

  /** Keeps this process's reports alive and notices those deleted meanwhile. */
  private async heartbeat(): Promise<void> {
    const { db, log } = this.options;
    try {
      const ids = [...this.running.keys()];
      if (ids.length) {
        await heartbeatReports(db, ids, this.worker);
        const gone = await db.selectFrom('reports').select('id').where('id', 'in', ids)
          .where((eb) => eb.or([eb('status', '<>', 1), eb('worker', 'is', null), eb('worker', '<>', this.worker)])).execute();
        for (const { id } of gone) this.running.get(Number(id))?.abort(new Error('报告已删除'));
      }
      await requeueStaleReports(db, new Date(Date.now() - STALE_MS).toISOString());
    } catch (error) {
      log.warn({ err: error }, 'report heartbeat failed');
    }
  }
}
