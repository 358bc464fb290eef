import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';

/**
 * The vulnerability list's default order is newest first with undated rows last; PostgreSQL can
 * only walk an index for that if the index has the same order (SQLite sorts NULLs first in
 * ascending order, so its existing index already serves the reversed scan).
 */
export const knowledgeBaseListOrder = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    if (kind !== 'postgres') return;
    await sql`create index kb_advisories_published_desc_idx on kb_advisories (published desc nulls last, id desc)`.execute(db);
  },
});
