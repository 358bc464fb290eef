// The platform's knowledge-base mirror sync (online installs): every N hours, pull the configured
// OSV ecosystems from the mirror (resumable, skipped when the mirror says nothing changed) and
// import what is new. One run at a time; stopping the platform aborts a run.
//
// What it syncs is the settings table's `kb.sync` (saved from 漏洞知识库 → 镜像同步) when an
// administrator has saved it, else the CAIRN_KB_* environment values (server/config.ts), else
// nothing. Saved settings win: they are what an administrator chose in the app, where the
// environment is the installer's default; clearing the mirror in the app turns sync off even when
// the environment names one. reload() applies a save at once, without a restart.
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { SyncSettings } from '../../contract/api/kb-import.ts';
import { getSetting } from '../db/repositories/settings.ts';
import type { Database } from '../db/schema.ts';
import { syncFromMirror } from './sync.ts';

export interface KbSyncConfig {
  mirror: string;
  ecosystems: string[];
  everyHours: number;
  downloadDir: string;
}

/** OSV ecosystems synced when the configuration names none: those our extractors read. */
export const DEFAULT_SYNC_ECOSYSTEMS = ['npm', 'Maven', 'PyPI', 'Go', 'crates.io', 'RubyGems', 'Packagist', 'NuGet', 'Pub', 'Hex', 'SwiftURL'];

/** The settings key of the saved sync settings. */
export const KB_SYNC_SETTING = 'kb.sync';

/** The first scheduled run waits this long after start, so start-up and the first login are not slowed. */
const FIRST_RUN_DELAY_MS = 60_000;

type Log = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

export interface EffectiveSyncSettings {
  settings: SyncSettings;
  source: 'saved' | 'env' | 'none';
}

/** The saved settings, else the environment's, else none (sync off). */
export async function effectiveSyncSettings(db: Kysely<Database>, env: KbSyncConfig | null): Promise<EffectiveSyncSettings> {
  const saved = await getSetting<SyncSettings>(db, KB_SYNC_SETTING);
  if (saved) return { settings: saved, source: 'saved' };
  if (env) return { settings: { mirror: env.mirror, ecosystems: env.ecosystems, everyHours: env.everyHours }, source: 'env' };
  return { settings: { mirror: '', ecosystems: DEFAULT_SYNC_ECOSYSTEMS, everyHours: 0 }, source: 'none' };
}

export class KbSyncService {
  private readonly db: Kysely<Database>;
  private readonly env: KbSyncConfig | null;
  private readonly downloadDir: string;
  private log: Log;
  private readonly controller = new AbortController();
  private running: Promise<void> | null = null;
  private first: NodeJS.Timeout | null = null;
  private timer: NodeJS.Timeout | null = null;
  private next: Date | null = null;
  private stopped = false;
  private readonly exclusive: (<T>(fn: () => Promise<T>) => Promise<T>) | undefined;

  /** `exclusive` makes each ecosystem's import wait for the platform's other imports (ImportQueue). */
  constructor(db: Kysely<Database>, options: { env: KbSyncConfig | null; dataDir: string; log: Log; exclusive?: <T>(fn: () => Promise<T>) => Promise<T> }) {
    this.db = db;
    this.exclusive = options.exclusive;
    this.env = options.env;
    this.downloadDir = options.env?.downloadDir ?? path.join(options.dataDir, 'kb-mirror');
    this.log = options.log;
  }

  setLogger(log: Log): void {
    this.log = log;
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  /** When the schedule runs next; null when it is off. */
  get nextRunAt(): string | null {
    return this.next?.toISOString() ?? null;
  }

  settings(): Promise<EffectiveSyncSettings> {
    return effectiveSyncSettings(this.db, this.env);
  }

  /** Starts the schedule (first run a minute after start). */
  async start(): Promise<void> {
    await this.arm(FIRST_RUN_DELAY_MS);
  }

  /** Re-reads the settings and re-arms the schedule: the next run is a full interval from now. */
  async reload(): Promise<void> {
    await this.arm(null);
  }

  private async arm(firstDelay: number | null): Promise<void> {
    this.clearTimers();
    if (this.stopped) return;
    const { settings } = await this.settings();
    if (!settings.mirror || settings.everyHours <= 0 || settings.ecosystems.length === 0) return;
    const every = settings.everyHours * 3_600_000;
    const delay = firstDelay ?? every;
    this.next = new Date(Date.now() + delay);
    this.first = setTimeout(() => {
      void this.runNow();
      this.next = new Date(Date.now() + every);
      this.timer = setInterval(() => {
        void this.runNow();
        this.next = new Date(Date.now() + every);
      }, every);
      this.timer.unref();
    }, delay);
    this.first.unref();
  }

  private clearTimers(): void {
    if (this.first) clearTimeout(this.first);
    if (this.timer) clearInterval(this.timer);
    this.first = null;
    this.timer = null;
    this.next = null;
  }

  /** Starts a run with the current settings unless one is running or no mirror is set; whether it started. */
  async runNow(): Promise<boolean> {
    if (this.running || this.stopped) return false;
    const { settings } = await this.settings();
    if (!settings.mirror || settings.ecosystems.length === 0 || this.running) return false;
    this.running = (async () => {
      this.log.info({ ecosystems: settings.ecosystems }, 'knowledge-base sync started');
      try {
        const results = await syncFromMirror(this.db, { mirror: settings.mirror, ecosystems: settings.ecosystems, downloadDir: this.downloadDir, signal: this.controller.signal, exclusive: this.exclusive });
        for (const r of results) this.log.info({ ecosystem: r.ecosystem, status: r.status, bytes: r.bytes, resumed: r.resumed }, r.message);
      } catch (error) {
        if (!this.controller.signal.aborted) this.log.error({ err: error }, 'knowledge-base sync failed');
      } finally {
        this.running = null;
      }
    })();
    return true;
  }

  /** Resolves when no run is in progress (tests). */
  async idle(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    this.controller.abort();
    await this.running;
  }
}
