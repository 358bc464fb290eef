// The report queue of one platform process: the shared job loop (job-loop.ts) over the reports
// table. Each claimed report's model is built from the database on this thread and its file is
// written in a worker thread (server/reports/generate.ts). One report at a time by default:
// generation is CPU-bound and shares the machine with analyses. Half-written files of reports no
// longer being generated are swept at start and every few hours (leftovers.ts).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseKind } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import {
  claimNextReport, failReport, finishReport, heartbeatReports, lostReports, reportProgress, requeueStaleReports, type ReportRecord,
} from '../db/repositories/reports.ts';
import { parseJson } from '../db/repositories/results.ts';
import { userName } from '../db/repositories/users.ts';
import { isUserError, UserError } from '../errors.ts';
import { buildReportModel, type ModelKind } from '../reports/build-model.ts';
import { closeWriterThreads, generateReportFile } from '../reports/generate.ts';
import type { ReportModel } from '../reports/model.ts';
import { JobLoop } from './job-loop.ts';
import { SWEEP_EVERY_MS, sweepReportParts } from './leftovers.ts';
import type { LicenceFilter } from '../db/repositories/results-licences.ts';

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

/** The message a failed report shows: a UserError's own, anything else under 报告生成失败. */
export const reportFailureMessage = (error: unknown): string =>
  (isUserError(error) ? error.message : `报告生成失败：${error instanceof Error ? error.message : String(error)}`);

/** Which model a report kind is written from (VEX and component exports take the full task model). */
const MODEL_KIND: Record<string, ModelKind> = { task: 'task', license: 'license', subject: 'subject', statistic: 'statistic', vex: 'task', component: 'task' };

export class ReportQueue {
  private readonly loop: JobLoop<ReportRecord>;
  private options: ReportQueueOptions;
  /** The model of the last report, kept for the other formats submitted with it. */
  private lastModel: { key: string; model: ReportModel } | null = null;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;

  constructor(options: ReportQueueOptions) {
    this.options = options;
    const { db } = options;
    const postgres = options.databaseKind === 'postgres';
    this.loop = new JobLoop<ReportRecord>({
      label: 'report',
      claim: async (worker) => {
        const report = await claimNextReport(db, worker, postgres);
        // Nothing left to share the model with once the queue is idle: let the memory go.
        if (!report && !this.loop.active) this.lastModel = null;
        return report;
      },
      idOf: (report) => Number(report.id),
      describe: (report) => ({ reportId: Number(report.id), kind: report.kind, reportType: report.report_type }),
      run: (report, signal) => this.generate(report, signal),
      fail: (report, error, worker) => failReport(db, Number(report.id), worker, reportFailureMessage(error)),
      beat: async (ids, worker) => {
        await heartbeatReports(db, ids, worker);
        return lostReports(db, ids, worker);
      },
      goneReason: () => new UserError('报告已删除', 'not-found'),
      requeueStale: (before, worker) => requeueStaleReports(db, before, worker),
      stopReason: () => new UserError('平台正在停止', 'unavailable'),
    }, { concurrency: options.concurrency ?? 1, log: options.log, tag: 'report', ...(options.pollMs !== undefined && { pollMs: options.pollMs }) });
  }

  get worker(): string {
    return this.loop.worker;
  }

  setLogger(log: ReportQueueOptions['log']): void {
    this.options.log = log;
    this.loop.setLogger(log);
  }

  async start(): Promise<void> {
    await this.sweepParts();
    await this.loop.start();
    this.sweeper = setInterval(() => void this.sweepParts(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** Removes `.part` files of reports no longer being generated (a writer died mid-file). */
  sweepParts(): Promise<void> {
    this.sweeping ??= sweepReportParts(this.options.db, this.options.dataDir)
      .then((removed) => { if (removed.length) this.options.log.warn({ removed: removed.length }, 'half-written report files removed'); })
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'sweeping report files failed'))
      .finally(() => { this.sweeping = null; });
    return this.sweeping;
  }

  /** Looks for waiting reports now (called after a generate call). */
  wake(): void {
    this.loop.wake();
  }

  get active(): number {
    return this.loop.active;
  }

  /** Stops claiming, hands unfinished reports back to the queue and ends the idle writer threads. */
  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    await this.loop.stop();
    await this.sweeping;
    await closeWriterThreads();
  }

  private async generate(report: ReportRecord, signal: AbortSignal): Promise<void> {
    const { db, dataDir, version } = this.options;
    const id = Number(report.id);
    const params = parseJson<{ runIds?: number[]; licenceFilter?: LicenceFilter }>(report.params, {});
    const kind = MODEL_KIND[report.kind] ?? 'task';
    const runIds = params.runIds ?? (report.run_id === null ? [] : [Number(report.run_id)]);
    // The formats of one generate call are rows inserted together: they share one model, read once.
    const key = JSON.stringify([kind, runIds, params.licenceFilter ?? null, report.subject_id, report.created_by, report.created_at]);
    let model = this.lastModel?.key === key ? this.lastModel.model : null;
    if (!model) {
      const author = report.created_by === null ? undefined : await userName(db, report.created_by);
      model = await buildReportModel(db, { kind, runIds, subjectId: report.subject_id, author: author ?? '--', tool: { name: 'Cairn', version }, licenceFilter: params.licenceFilter ?? {} });
      this.lastModel = { key, model };
    }
    signal.throwIfAborted();
    if (!(await reportProgress(db, id, this.worker, 30))) return; // deleted meanwhile
    const written = await generateReportFile(dataDir, { id, kind: report.kind, reportType: Number(report.report_type), name: report.name }, model, { signal });
    // A report deleted while it was written keeps no file.
    if (!(await finishReport(db, id, this.worker, written))) await rm(path.dirname(path.join(dataDir, written.file)), { recursive: true, force: true });
  }
}
