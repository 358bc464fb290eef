// What the knowledge-base status (kb/status.ts) is made of: advisories by source and by ecosystem,
// mapping rows, the last successful import of each kind and the mirror's synced ecosystems. Every
// count runs over an index (kb_advisories source, kb_affected (ecosystem, name) with advisory_pk,
// kb_import_records (kind, status)); the status module keeps the result until the stamp moves.
import { sql } from 'kysely';
import { SETTING } from '../seed.ts';
import type { Db } from '../transaction.ts';
import { IMPORT_STATUS } from './knowledge-base-imports.ts';

export interface KbStatusCounts {
  bySource: Map<string, { count: number; latest: string | null }>;
  byEcosystem: { ecosystem: string; advisories: number }[];
  idMappings: number;
  /** Last successful import per record kind (osv, nvd, trivy, id-map, sync, custom). */
  lastImports: Map<string, string>;
  syncedEcosystems: { ecosystem: string; completedAt: string | null }[];
}

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined || value === '') return null;
  const time = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(time) ? null : new Date(time).toISOString();
};

/**
 * A stamp that moves with every write the status depends on: the advisory revision (a new value
 * in every advisory write, knowledge-base.ts), the mapping count and the newest import record.
 */
export async function kbStatusStamp(db: Db): Promise<string> {
  const [revision, map, records] = await Promise.all([
    db.selectFrom('settings').select('value').where('key', '=', SETTING.kbRevision).executeTakeFirst(),
    db.selectFrom('kb_id_map').select(sql<number>`count(*)`.as('n')).executeTakeFirst(),
    db.selectFrom('kb_import_records').select([sql<number>`count(*)`.as('n'), sql<string | null>`max(finished_at)`.as('latest')]).executeTakeFirst(),
  ]);
  return `${revision?.value ?? ''}|${map?.n ?? 0}|${records?.n ?? 0}|${iso(records?.latest) ?? ''}`;
}

export async function kbStatusCounts(db: Db): Promise<KbStatusCounts> {
  const [sources, ecosystems, map, imports, synced] = await Promise.all([
    db.selectFrom('kb_advisories').select(['source', sql<number>`count(*)`.as('n'), sql<string | null>`max(updated_at)`.as('latest')])
      .groupBy('source').execute(),
    db.selectFrom('kb_affected').select(['ecosystem', sql<number>`count(distinct advisory_pk)`.as('n')])
      .groupBy('ecosystem').execute(),
    db.selectFrom('kb_id_map').select(sql<number>`count(*)`.as('n')).executeTakeFirst(),
    db.selectFrom('kb_import_records').select(['kind', sql<string | null>`max(finished_at)`.as('latest')])
      .where('status', '=', IMPORT_STATUS.SUCCEEDED).groupBy('kind').execute(),
    db.selectFrom('kb_sync_state').select(['ecosystem', 'completed_at']).orderBy('ecosystem').execute(),
  ]);
  const lastImports = new Map<string, string>();
  for (const row of imports) {
    const at = iso(row.latest);
    if (at) lastImports.set(row.kind, at);
  }
  return {
    bySource: new Map(sources.map((r) => [r.source, { count: Number(r.n), latest: iso(r.latest) }])),
    byEcosystem: ecosystems.map((r) => ({ ecosystem: r.ecosystem, advisories: Number(r.n) }))
      .sort((a, b) => b.advisories - a.advisories || (a.ecosystem < b.ecosystem ? -1 : 1)),
    idMappings: Number(map?.n ?? 0),
    lastImports,
    syncedEcosystems: synced.map((r) => ({ ecosystem: r.ecosystem, completedAt: iso(r.completed_at) })),
  };
}
