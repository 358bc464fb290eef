import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';

/**
 * Indexes for the vulnerability list (issue 13: it was the slowest list under load). Every list
 * call counts its matches, and the count of the default list (`withdrawn is null`) read the whole
 * advisory table — each row carries its OSV document, so about 26 MB for 8,000 advisories — on
 * every call. Each index leads with `withdrawn` (null for nearly every row) and ends with
 * `published`, the default order: the default count is a scan of a narrow index, a count filtered
 * by source, level or exploit difficulty (and a date range) a range of one, and a page in the
 * default order (newest first, undated last, then id) walks one with no sort. SQLite puts NULLs
 * first and keeps the row id as every index's last column, so its ascending indexes scanned
 * backwards give `published desc nulls last, id desc`; PostgreSQL gets that order spelled out.
 */
export const knowledgeBaseListIndexes = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const order = kind === 'postgres' ? sql`published desc nulls last, id desc` : sql`published`;
    for (const [name, lead] of [['order', null], ['source', 'source'], ['level', 'level'], ['exploit', 'exploit']] as const) {
      const columns = lead ? sql`withdrawn, ${sql.ref(lead)}, ${order}` : sql`withdrawn, ${order}`;
      await sql`create index ${sql.id(`kb_advisories_list_${name}_idx`)} on kb_advisories (${columns})`.execute(db);
    }
  },
});
