// The matcher's in-memory index of the knowledge base, built once and rebuilt only when the
// knowledge base changed. A change is detected from a cheap stamp (row count and latest update of
// kb_advisories plus the id-map count), so imports, custom entries and deletes made by any
// process sharing the database — a worker, the CLI, another platform node — are all picked up.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { buildAdvisoryIndex, type AdvisoryIndex } from '../engine/matchers/vulnerabilities.ts';
import { loadAdvisories } from './load.ts';

interface Cached {
  stamp: string;
  index: Promise<AdvisoryIndex>;
}

const cache = new WeakMap<Kysely<Database>, Cached>();

async function stampOf(db: Kysely<Database>): Promise<string> {
  const row = await db
    .selectFrom('kb_advisories')
    .select([sql<number>`count(*)`.as('n'), sql<string | null>`max(updated_at)`.as('latest')])
    .executeTakeFirst();
  const map = await db.selectFrom('kb_id_map').select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  return `${row?.n ?? 0}|${row?.latest ?? ''}|${map?.n ?? 0}`;
}

export async function getAdvisoryIndex(db: Kysely<Database>): Promise<AdvisoryIndex> {
  const stamp = await stampOf(db);
  const cached = cache.get(db);
  if (cached && cached.stamp === stamp) return cached.index;
  const index = loadAdvisories(db).then((advisories) => buildAdvisoryIndex(advisories));
  cache.set(db, { stamp, index });
  // A failed load must not stick: the next call tries again.
  index.catch(() => { if (cache.get(db)?.index === index) cache.delete(db); });
  return index;
}
