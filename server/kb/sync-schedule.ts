// The platform's periodic knowledge-base sync (online installs): every N hours, pull the
// configured OSV ecosystems from the mirror (resumable, skipped when the mirror says nothing
// changed) and import what is new. One run at a time; stopping the platform aborts a run.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
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

export function scheduleKbSync(db: Kysely<Database>, config: KbSyncConfig, log: FastifyBaseLogger): { stop(): Promise<void> } {
  const controller = new AbortController();
  let running: Promise<void> | null = null;

  const runOnce = () => {
    if (running) return;
    running = (async () => {
      log.info({ mirror: config.mirror, ecosystems: config.ecosystems }, 'knowledge-base sync started');
      try {
        const results = await syncFromMirror(db, { mirror: config.mirror, ecosystems: config.ecosystems, downloadDir: config.downloadDir, signal: controller.signal });
        for (const r of results) log.info({ ecosystem: r.ecosystem, status: r.status, bytes: r.bytes, resumed: r.resumed }, r.message);
      } catch (error) {
        if (!controller.signal.aborted) log.error({ err: error }, 'knowledge-base sync failed');
      } finally {
        running = null;
      }
    })();
  };

  // The first run waits a minute so start-up (and the first login) is not slowed by a download.
  const first = setTimeout(runOnce, 60_000);
  const timer = setInterval(runOnce, config.everyHours * 3_600_000);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      controller.abort();
      await running;
    },
  };
}
