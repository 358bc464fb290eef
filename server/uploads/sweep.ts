// Abandoned uploads: a chunked upload nobody has continued for a week (the desktop was closed for
// good, the file was deleted) would keep its `.part` file forever. The platform sweeps them at
// start and every few hours: the row becomes 'cancelled' (a late resume is told so) and the file
// goes. Completed uploads stay: projects re-analyse from them.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { cancelIdleUploads } from '../db/repositories/uploads.ts';
import type { Database } from '../db/schema.ts';
import { removeFiles } from './receive.ts';

/** An upload with no chunk for this long is abandoned. */
const ABANDONED_AFTER_MS = 7 * 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 6 * 3600 * 1000;

/** Cancels uploads idle since before `cutoff` and removes their files; the ids swept. */
export async function sweepAbandonedUploads(db: Kysely<Database>, dataDir: string, cutoff = new Date(Date.now() - ABANDONED_AFTER_MS)): Promise<string[]> {
  const swept = await cancelIdleUploads(db, cutoff.toISOString());
  for (const id of swept) await removeFiles(dataDir, id);
  return swept;
}

/** Sweeps now (awaited, so a platform that closes at once leaves no query behind) and every few hours until stopped. */
export async function startUploadSweeper(db: Kysely<Database>, dataDir: string, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<() => void> {
  const sweep = () => sweepAbandonedUploads(db, dataDir)
    .then((ids) => { if (ids.length) log.info({ uploads: ids.length }, 'abandoned uploads removed'); })
    .catch((error: unknown) => log.warn({ err: error }, 'sweeping abandoned uploads failed'));
  await sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
