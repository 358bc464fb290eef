// The open-API log (开放接口日志): what each call of a token-opened session is recorded as, the
// recorder that writes them, and the reading of the log.
//
// A call is recorded after its answer is sent (plugins/open-api-log.ts), into a buffer of this
// process; the buffer is written in one insert per batch, every second or as soon as a batch is
// full, so a call never waits on the log. Writing also moves each token's "last used" time. The
// log is bounded: rows older than the retention's days, or beyond its newest maxRows, are pruned at
// start and every hour (settings key openApiLog.retention, OPEN_API_LOG_RETENTION until one is saved).
import { implementedCalls } from '../../contract/api/index.ts';
import type { Page } from '../../contract/api/kit.ts';
import { OPEN_API_LOG_MSG, OPEN_API_LOG_RETENTION, type OpenApiLogQuery, type OpenApiLogRow } from '../../contract/api/open-api-log.ts';
import { callerNames, insertOpenApiLog, listOpenApiLog, pruneOpenApiLog, type OpenApiLogEntry, type OpenApiLogRecord } from '../db/repositories/open-api-log.ts';
import { markTokenUsed } from '../db/repositories/personal-tokens.ts';
import { getSetting } from '../db/repositories/settings.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

export const OPEN_API_LOG_RETENTION_KEY = 'openApiLog.retention';

/** One call as the request hook sees it; the user's and token's names are looked up when written. */
export interface OpenApiCall {
  at: string;
  userId: number;
  tokenId: number;
  method: string;
  path: string;
  callName: string | null;
  status: number;
  resultCode: number | null;
  durationMs: number;
  ip: string;
}

interface Logger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export interface RecorderOptions {
  /** How often the buffer is written (ms). */
  flushEveryMs?: number;
  /** A buffer this full is written at once. */
  batchSize?: number;
  /** The most calls held while writing fails (the oldest beyond it are dropped, with a warning). */
  maxPending?: number;
  pruneEveryMs?: number;
}

async function openApiLogRetention(db: Db): Promise<{ days: number; maxRows: number }> {
  const saved = await getSetting<Partial<{ days: number; maxRows: number }>>(db, OPEN_API_LOG_RETENTION_KEY);
  const positive = (n: unknown, fallback: number) => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : fallback);
  return { days: positive(saved?.days, OPEN_API_LOG_RETENTION.days), maxRows: positive(saved?.maxRows, OPEN_API_LOG_RETENTION.maxRows) };
}

export class OpenApiLogRecorder {
  private pending: OpenApiCall[] = [];
  private writing: Promise<void> = Promise.resolve();
  private flushTimer: ReturnType<typeof setInterval> | undefined;
  private pruneTimer: ReturnType<typeof setInterval> | undefined;
  private readonly flushEveryMs: number;
  private readonly batchSize: number;
  private readonly maxPending: number;
  private readonly pruneEveryMs: number;
  private readonly db: Db;
  private log: Logger;

  constructor(db: Db, log: Logger, options: RecorderOptions = {}) {
    this.db = db;
    this.log = log;
    this.flushEveryMs = options.flushEveryMs ?? 1000;
    this.batchSize = options.batchSize ?? 200;
    this.maxPending = options.maxPending ?? 20_000;
    this.pruneEveryMs = options.pruneEveryMs ?? 3600_000;
  }

  setLogger(log: Logger): void {
    this.log = log;
  }

  /** Takes a call; never waits and never throws. */
  record(call: OpenApiCall): void {
    this.pending.push(call);
    if (this.pending.length > this.maxPending) {
      const dropped = this.pending.splice(0, this.pending.length - this.maxPending);
      this.log.warn({ dropped: dropped.length }, 'open-API log buffer full: oldest calls dropped');
    }
    if (this.pending.length >= this.batchSize) void this.flush();
  }

  /** Writes what is buffered (after any write already under way); a failed write is warned about and its calls kept for the next. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      while (this.pending.length) {
        const batch = this.pending.splice(0, this.batchSize);
        try {
          await this.write(batch);
        } catch (error) {
          this.pending.unshift(...batch);
          this.log.warn({ err: error, calls: batch.length }, 'writing the open-API log failed');
          return;
        }
      }
    });
    return this.writing;
  }

  private async write(batch: OpenApiCall[]): Promise<void> {
    const userIds = [...new Set(batch.map((c) => c.userId))];
    const tokenIds = [...new Set(batch.map((c) => c.tokenId))];
    await inTransaction(this.db, async (trx) => {
      const { users, tokens } = await callerNames(trx, userIds, tokenIds);
      const rows: OpenApiLogEntry[] = batch.map((c) => ({
        at: c.at,
        user_id: c.userId,
        username: users.get(c.userId) ?? `#${c.userId}`,
        token_id: c.tokenId,
        token_name: tokens.get(c.tokenId) ?? `#${c.tokenId}`,
        method: c.method,
        path: c.path.slice(0, 2000),
        call_name: c.callName,
        status: c.status,
        result_code: c.resultCode,
        duration_ms: c.durationMs,
        ip: c.ip.slice(0, 64),
      }));
      await insertOpenApiLog(trx, rows);
      // Each token's newest call is its last use.
      const newest = new Map<number, OpenApiCall>();
      for (const c of batch) if (tokens.has(c.tokenId) && (newest.get(c.tokenId)?.at ?? '') < c.at) newest.set(c.tokenId, c);
      for (const [id, c] of newest) await markTokenUsed(trx, id, c.at, c.ip.slice(0, 64));
    });
  }

  /** Removes what the retention no longer keeps; how many rows went. */
  async prune(now = Date.now()): Promise<number> {
    const { days, maxRows } = await openApiLogRetention(this.db);
    return pruneOpenApiLog(this.db, new Date(now - days * 86_400_000).toISOString(), maxRows);
  }

  /** Prunes now (awaited) and starts the write and prune timers. */
  async start(): Promise<void> {
    await this.pruneLogged();
    this.flushTimer = setInterval(() => void this.flush(), this.flushEveryMs);
    this.flushTimer.unref();
    this.pruneTimer = setInterval(() => void this.pruneLogged(), this.pruneEveryMs);
    this.pruneTimer.unref();
  }

  /** Stops the timers and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.pruneTimer);
    await this.flush();
  }

  private async pruneLogged(): Promise<void> {
    try {
      const removed = await this.prune();
      if (removed) this.log.info({ rows: removed }, 'open-API log pruned');
    } catch (error) {
      this.log.warn({ err: error }, 'pruning the open-API log failed');
    }
  }
}

/** An ISO-8601 bound of the list's time range as UTC, or a refusal naming the field. */
function bound(value: string | undefined, field: 'from' | 'to'): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new UserError(OPEN_API_LOG_MSG.timeInvalid, 'invalid', { field });
  // A bare date as the end of the range takes in the whole day.
  return new Date(field === 'to' && text.length === 10 ? ms + 86_400_000 - 1 : ms).toISOString();
}

const outcomeOf = (r: OpenApiLogRecord): 'success' | 'failure' =>
  (r.status < 400 && (r.result_code === null || r.result_code === 1) ? 'success' : 'failure');

function logRow(r: OpenApiLogRecord): OpenApiLogRow {
  return {
    id: r.id,
    at: r.at,
    userId: r.user_id,
    username: r.username,
    tokenId: r.token_id,
    tokenName: r.token_name,
    method: r.method,
    path: r.path,
    callName: r.call_name,
    callSummary: (r.call_name && implementedCalls[r.call_name]?.summary) ?? null,
    status: r.status,
    resultCode: r.result_code,
    outcome: outcomeOf(r),
    durationMs: r.duration_ms,
    ip: r.ip,
  };
}

/** One page of the log, newest first, after this process's buffered calls are written. */
export async function readOpenApiLog(db: Db, recorder: { flush(): Promise<void> }, query: OpenApiLogQuery, paging: { page: number; size: number }):
  Promise<Page<OpenApiLogRow> & { retention: { days: number; maxRows: number } }> {
  const from = bound(query.from, 'from');
  const to = bound(query.to, 'to');
  if (from && to && from > to) throw new UserError(OPEN_API_LOG_MSG.rangeReversed, 'invalid', { field: 'from' });
  await recorder.flush();
  const page = await listOpenApiLog(db, { ...query, from, to }, paging);
  return { content: page.content.map(logRow), total: page.total, retention: await openApiLogRetention(db) };
}
