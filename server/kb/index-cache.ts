// The matcher's in-memory index of the knowledge base, built once and rebuilt only when the
// knowledge base changed. A change is detected from a cheap stamp (row count and latest update of
// kb_advisories plus the id-map count), so imports, custom entries and deletes made by any
// process sharing the database — a worker, the CLI, another platform node — are all picked up.
import type { Kysely } from 'kysely';
import { advisoryStamp, loadAdvisories } from '../db/repositories/knowledge-base.ts';
import type { Database } from '../db/schema.ts';
import { buildAdvisoryIndex, type AdvisoryIndex } from '../engine/index.ts';
import { advisoriesVersion } from './changes.ts';

interface Cached {
  stamp: string;
  index: Promise<AdvisoryIndex>;
}

const cache = new WeakMap<Kysely<Database>, Cached>();
/** The last stamp read and when: requests within STAMP_TTL_MS of it do not count the table again. */
const stamps = new WeakMap<Kysely<Database>, { at: number; version: number; stamp: Promise<string> }>();
const STAMP_TTL_MS = 5000;

/**
 * The index for the knowledge base as it is now. Counting a large advisory table costs tens of
 * milliseconds, so screens (recommendations, the component check) accept a stamp up to 5 s old;
 * an analysis asks with `fresh` so it always matches against what was imported just before, and
 * a write of this process (changes.ts) makes the next call read the stamp again.
 */
export async function getAdvisoryIndex(db: Kysely<Database>, options: { fresh?: boolean } = {}): Promise<AdvisoryIndex> {
  const now = Date.now();
  const version = advisoriesVersion(db);
  let recent = stamps.get(db);
  if (options.fresh || !recent || recent.version !== version || now - recent.at > STAMP_TTL_MS) {
    recent = { at: now, version, stamp: advisoryStamp(db) };
    stamps.set(db, recent);
    const pending = recent;
    pending.stamp.catch(() => { if (stamps.get(db) === pending) stamps.delete(db); });
  }
  const stamp = await recent.stamp;
  const cached = cache.get(db);
  if (cached && cached.stamp === stamp) return cached.index;
  const index = loadAdvisories(db).then((advisories) => buildAdvisoryIndex(advisories));
  cache.set(db, { stamp, index });
  // A failed load must not stick: the next call tries again.
  index.catch(() => { if (cache.get(db)?.index === index) cache.delete(db); });
  return index;
}
