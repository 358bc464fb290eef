// Repository sources (repository_sources): addresses and credentials a user saves to pick from
// in the new-project form. Each belongs to its creator; the secret is stored encrypted.
import type { RepositorySource } from '../../../contract/api/subject.ts';
import type { RepositorySourcesTable } from '../schema.ts';
import type { Selectable } from 'kysely';
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';


const toSource = (r: Selectable<RepositorySourcesTable>): RepositorySource => ({
  id: Number(r.id), name: r.name, getCodeType: Number(r.get_code_type), url: r.url, username: r.username,
  hasPassword: !!r.secret, createdAt: r.created_at, updatedAt: r.updated_at,
});

export async function listSources(db: Db, userId: number, getCodeType?: number): Promise<RepositorySource[]> {
  let q = db.selectFrom('repository_sources').selectAll().where('created_by', '=', userId).orderBy('name').orderBy('id');
  if (getCodeType !== undefined) q = q.where('get_code_type', '=', getCodeType);
  return (await q.execute()).map(toSource);
}

export async function findOwnSource(db: Db, userId: number, id: number): Promise<RepositorySource | undefined> {
  const row = await db.selectFrom('repository_sources').selectAll().where('id', '=', id).where('created_by', '=', userId).executeTakeFirst();
  return row && toSource(row);
}

export async function sourceNameTaken(db: Db, userId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('repository_sources').select('id').where('created_by', '=', userId).where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export interface SourceValues {
  name: string;
  getCodeType: number;
  url: string;
  username: string | null;
  /** undefined: keep the stored secret; null: clear it. */
  secret: string | null | undefined;
}

export async function saveSource(db: Db, userId: number, id: number | undefined, v: SourceValues): Promise<number> {
  const now = nowIso();
  const values = { name: v.name, get_code_type: v.getCodeType, url: v.url, username: v.username, ...(v.secret !== undefined && { secret: v.secret }), updated_at: now };
  if (id !== undefined) {
    await db.updateTable('repository_sources').set(values).where('id', '=', id).where('created_by', '=', userId).execute();
    return id;
  }
  const row = await db.insertInto('repository_sources').values({ ...values, secret: v.secret ?? null, created_by: userId, created_at: now })
    .returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function deleteOwnSources(db: Db, userId: number, ids: number[]): Promise<number> {
  const result = await db.deleteFrom('repository_sources').where('created_by', '=', userId).where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function ownSourceIds(db: Db, userId: number, ids: number[]): Promise<number[]> {
  const rows = await db.selectFrom('repository_sources').select('id').where('created_by', '=', userId).where('id', 'in', ids).execute();
  return rows.map((r) => Number(r.id));
}

/** Sources whose address holds an `@`: those it may carry credentials in (url-credentials.ts). */
export async function sourcesWithAt(db: Db): Promise<Array<{ id: number; getCodeType: number; url: string; username: string | null; secret: string | null }>> {
  const rows = await db.selectFrom('repository_sources').select(['id', 'get_code_type', 'url', 'username', 'secret']).where('url', 'like', '%@%').execute();
  return rows.map((r) => ({ id: Number(r.id), getCodeType: Number(r.get_code_type), url: r.url, username: r.username, secret: r.secret }));
}

/** Rewrites a source's address and credentials (whoever owns it: the start-up clean-up of url-credentials.ts). */
export async function rewriteSource(db: Db, id: number, v: { url: string; username: string | null; secret: string | null }): Promise<void> {
  await db.updateTable('repository_sources').set({ url: v.url, username: v.username, secret: v.secret }).where('id', '=', id).execute();
}
