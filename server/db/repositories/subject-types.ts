// 项目类型: the types an 应用 may be given. An 应用 keeps its type by name (subjects.subject_type),
// so counts and renames go through that column; names are unique case-insensitively (name_key).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { SubjectTypeFilter, SubjectTypeRow, SubjectTypeStatus } from '../../../contract/api/project-type.ts';
import { SUBJECT_TYPE_STATUS } from '../../../contract/api/project-type.ts';
import type { Page } from '../../../contract/api/kit.ts';
import { likePattern } from '../like.ts';
import type { Database, SubjectTypesTable } from '../schema.ts';
import { nowIso } from '../time.ts';
import type { Paging } from './vulnerabilities.ts';

type Db = Kysely<Database>;
export type SubjectTypeRecord = Selectable<SubjectTypesTable>;

/** The uniqueness key of a name: two names differing only by case are the same type. */
const subjectTypeKey = (name: string): string => name.trim().toLowerCase();

export async function listSubjectTypes(db: Db, filter: SubjectTypeFilter, paging: Paging): Promise<Page<SubjectTypeRow>> {
  let query = db.selectFrom('subject_types as t');
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const pattern = likePattern(keyword);
    // name_key is lower-cased in JS (every script); SQLite's lower() would fold ASCII only.
    query = query.where((eb) => eb.or([
      eb('t.name_key', 'like', sql<string>`${pattern} escape '\\'`),
      eb(sql<string>`lower(t.remark)`, 'like', sql<string>`${pattern} escape '\\'`),
    ]));
  }
  if (filter.status !== undefined) query = query.where('t.status', '=', filter.status);
  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query
    .leftJoin('users as u', 'u.id', 't.created_by')
    .selectAll('t')
    .select('u.name as creator')
    .select((eb) => eb.selectFrom('subjects as s').select(sql<number>`count(*)`.as('n')).whereRef('s.subject_type', '=', 't.name').as('subjects'))
    // Online first, then by name: the order an administrator looks a type up in.
    .orderBy('t.status').orderBy('t.name_key').orderBy('t.id')
    .limit(paging.size).offset((paging.page - 1) * paging.size)
    .execute();
  return {
    content: rows.map((r) => toSubjectTypeRow(r, r.creator ?? null, Number(r.subjects ?? 0))),
    total: Number(total?.n ?? 0),
  };
}

function toSubjectTypeRow(r: SubjectTypeRecord, createdBy: string | null, subjects: number): SubjectTypeRow {
  return {
    id: r.id,
    subjectTypeName: r.name,
    remark: r.remark,
    status: (r.status === SUBJECT_TYPE_STATUS.OFFLINE ? SUBJECT_TYPE_STATUS.OFFLINE : SUBJECT_TYPE_STATUS.ONLINE) as SubjectTypeStatus,
    subjects,
    createdBy,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** One type as a row of the list: its creator's name and how many 应用 have it. */
export async function subjectTypeRow(db: Db, record: SubjectTypeRecord): Promise<SubjectTypeRow> {
  const creator = record.created_by === null ? undefined
    : await db.selectFrom('users').select('name').where('id', '=', record.created_by).executeTakeFirst();
  return toSubjectTypeRow(record, creator?.name ?? null, await countSubjectsOfType(db, record.name));
}

/** Names of the online types, for the 应用 forms. */
export async function onlineSubjectTypeNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('subject_types').select('name')
    .where('status', '=', SUBJECT_TYPE_STATUS.ONLINE).orderBy('name_key').orderBy('id').execute();
  return rows.map((r) => r.name);
}

export const findSubjectType = (db: Db, id: number): Promise<SubjectTypeRecord | undefined> =>
  db.selectFrom('subject_types').selectAll().where('id', '=', id).executeTakeFirst();

/** The type holding a name (case-insensitively), other than `exceptId`. */
export async function findSubjectTypeNamed(db: Db, name: string, exceptId?: number): Promise<SubjectTypeRecord | undefined> {
  let query = db.selectFrom('subject_types').selectAll().where('name_key', '=', subjectTypeKey(name));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export async function countSubjectsOfType(db: Db, name: string): Promise<number> {
  const row = await db.selectFrom('subjects').select(sql<number>`count(*)`.as('n')).where('subject_type', '=', name).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertSubjectType(db: Db, values: { name: string; remark: string; userId: number }): Promise<SubjectTypeRecord> {
  const now = nowIso();
  return db.insertInto('subject_types').values({
    name: values.name, name_key: subjectTypeKey(values.name), remark: values.remark,
    status: SUBJECT_TYPE_STATUS.ONLINE, created_by: values.userId, created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
}

/** Changes name and remark; the 应用 that had the old name get the new one (call in a transaction). */
export async function updateSubjectType(db: Db, record: SubjectTypeRecord, values: { name: string; remark: string }): Promise<SubjectTypeRecord> {
  const now = nowIso();
  if (values.name !== record.name) {
    await db.updateTable('subjects').set({ subject_type: values.name, updated_at: now }).where('subject_type', '=', record.name).execute();
  }
  return db.updateTable('subject_types')
    .set({ name: values.name, name_key: subjectTypeKey(values.name), remark: values.remark, updated_at: now })
    .where('id', '=', record.id).returningAll().executeTakeFirstOrThrow();
}

export const setSubjectTypeStatus = (db: Db, id: number, status: SubjectTypeStatus): Promise<SubjectTypeRecord> =>
  db.updateTable('subject_types').set({ status, updated_at: nowIso() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

export async function deleteSubjectType(db: Db, id: number): Promise<void> {
  await db.deleteFrom('subject_types').where('id', '=', id).execute();
}
