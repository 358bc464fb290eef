// What route handlers get from the app: the database and the settings fixed at start-up.
import type { Kysely } from 'kysely';
import type { LoginRateLimits } from './auth/rate-limit.ts';
import type { DatabaseKind } from './db/connect.ts';
import type { Database } from './db/schema.ts';
import type { ImportQueueHandle } from './kb/import-queue.ts';
import type { EffectiveSyncSettings } from './kb/sync-schedule.ts';

/** What route handlers may ask of this process's analysis queue. */
export interface RunQueueHandle {
  /** Look for queued runs now. */
  wake(): void;
  /** Abort a run this process is running; false when it runs elsewhere (or not at all). */
  abort(runId: number): boolean;
  readonly active: number;
  readonly concurrency: number;
}

/** What route handlers may ask of the knowledge-base mirror sync. */
export interface KbSyncHandle {
  settings(): Promise<EffectiveSyncSettings>;
  /** Re-reads saved settings and re-arms the schedule. */
  reload(): Promise<void>;
  runNow(): Promise<boolean>;
  readonly isRunning: boolean;
  readonly nextRunAt: string | null;
}

/** What route handlers may ask of this process's report queue. */
export interface ReportQueueHandle {
  /** Look for waiting reports now (after a generate call). */
  wake(): void;
}

/** What route handlers may ask of this process's open-API log recorder (services/open-api-log.ts). */
export interface OpenApiLogHandle {
  /** Writes the calls still buffered. */
  flush(): Promise<void>;
}

export interface ServerContext {
  db: Kysely<Database>;
  databaseKind: DatabaseKind;
  /** Where uploads and analysis work files live. */
  dataDir: string;
  csrfSecret: string;
  sessionTtlMinutes: number;
  /** Refused logins allowed per address and per username before 429. */
  loginRateLimits: LoginRateLimits;
  version: string;
  runs: RunQueueHandle;
  reports: ReportQueueHandle;
  /** Knowledge-base imports started from the app, one at a time. */
  kbImports: ImportQueueHandle;
  kbSync: KbSyncHandle;
  openApiLog: OpenApiLogHandle;
}
