// Reads and level edits of the licence knowledge base (the licences table, kept in step with the
// shipped licence data by server/licenses/catalogue.ts).
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { LicenseFilter, LicenseRow } from '../../../contract/api/license.ts';
import type { Page } from '../../../contract/api/kit.ts';
import type { Level } from '../../engine/index.ts';
import type { Database, LicensesTable } from '../schema.ts';
import type { Paging } from './vulnerabilities.ts';
import { nowIso } from '../time.ts';
import { likePattern } from '../like.ts';
import { inTransaction } from '../transaction.ts';

type Db = Kysely<Database>;
type Row = Selectable<LicensesTable>;

export const toLicenseRow = (r: Row): LicenseRow => ({
  id: r.id,
  spdxId: r.spdx_id,
  name: r.name,
  level: r.level as Level,
  defaultLevel: r.default_level as Level,
  levelEdited: Boolean(r.level_edited),
  copyleft: r.copyleft as LicenseRow['copyleft'],
  osiApproved: Boolean(r.osi_approved),
  deprecated: Boolean(r.deprecated),
  isException: Boolean(r.is_exception),
});

export interface LicenseQuery extends LicenseFilter {
  level?: Level;
  edited?: boolean;
}

export async function listLicenses(db: Db, filter: LicenseQuery, paging: Paging): Promise<Page<LicenseRow>> {
  let query = db.selectFrom('licenses');
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const pattern = likePattern(keyword);
    query = query.where((eb) => eb.or([
      eb(sql<string>`lower(spdx_id)`, 'like', sql<string>`${pattern} escape '\\'`),
      eb(sql<string>`lower(name)`, 'like', sql<string>`${pattern} escape '\\'`),
    ]));
  }
  const levels = filter.levels?.length ? filter.levels : filter.level ? [filter.level] : null;
  if (levels) query = query.where('level', 'in', levels);
  if (filter.copyleft?.length) query = query.where('copyleft', 'in', filter.copyleft);
  if (filter.osiApproved !== undefined) query = query.where('osi_approved', '=', filter.osiApproved ? 1 : 0);
  if (filter.edited !== undefined) query = query.where('level_edited', '=', filter.edited ? 1 : 0);
  if (!filter.includeDeprecated) query = query.where('deprecated', '=', 0);
  if (!filter.includeExceptions) query = query.where('is_exception', '=', 0);

  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  // Riskiest first, then by id: the order a compliance officer scans a licence list in.
  const rows = await query.selectAll().orderBy('level').orderBy('spdx_id')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { content: rows.map(toLicenseRow), total: Number(total?.n ?? 0) };
}

/** One licence by row id or SPDX id (case-insensitive). */
export async function findLicense(db: Db, id: string | number): Promise<Row | undefined> {
  if (typeof id === 'number' || /^\d+$/.test(id)) {
    const row = await db.selectFrom('licenses').selectAll().where('id', '=', Number(id)).executeTakeFirst();
    if (row) return row;
  }
  const text = String(id).trim();
  return (await db.selectFrom('licenses').selectAll().where('spdx_id', '=', text).executeTakeFirst())
    ?? db.selectFrom('licenses').selectAll().where(sql<string>`lower(spdx_id)`, '=', text.toLowerCase()).executeTakeFirst();
}

/** Sets a level; setting it back to the shipped default clears the edited mark. */
export async function setLicenseLevel(db: Db, row: Row, level: Level, userId: number): Promise<Row> {
  return db.updateTable('licenses')
    .set({ level, level_edited: level === row.default_level ? 0 : 1, updated_by: userId, updated_at: nowIso() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Levels of the given SPDX ids that the knowledge base knows. */
export async function levelsOf(db: Db, ids: string[]): Promise<Map<string, Level>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('licenses').select(['spdx_id', 'level']).where('spdx_id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.spdx_id, r.level as Level]));
}

// ---- the shipped catalogue (server/licenses/catalogue.ts keeps the table in step with it)

/** Every stored licence's SPDX id, and whether an administrator edited its level. */
export async function editedLevels(db: Db): Promise<Map<string, boolean>> {
  return new Map((await db.selectFrom('licenses').select(['spdx_id', 'level_edited']).execute()).map((r) => [r.spdx_id, Boolean(r.level_edited)]));
}

export type CatalogueRow = Omit<Insertable<LicensesTable>, 'id' | 'level_edited' | 'updated_by'>;

/** Writes the shipped rows in one transaction: new ones inserted, known ones updated (`keepLevel`: an edited level stays). */
export async function writeCatalogue(db: Db, fresh: CatalogueRow[], known: Array<{ row: CatalogueRow; keepLevel: boolean }>, batch: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const rows = fresh.map((r) => ({ ...r, level_edited: 0 }));
    for (let i = 0; i < rows.length; i += batch) await trx.insertInto('licenses').values(rows.slice(i, i + batch)).execute();
    for (const { row, keepLevel } of known) {
      const { spdx_id, level, ...rest } = row;
      await trx.updateTable('licenses').set(keepLevel ? rest : { ...rest, level }).where('spdx_id', '=', spdx_id).execute();
    }
  });
}
