// Subjects (applications): the paged list with its per-row figures, details, create, setup,
// delete and transfer. Data scope comes from subject-access.ts; the handlers decide who may call.
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder, type Expression, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { Page } from '../../../contract/api/kit.ts';
import type { SubjectFilter, SubjectRow } from '../../../contract/api/subject.ts';
import type { Database } from '../schema.ts';
import { nowIso } from '../time.ts';
import { inTransaction, type Db } from '../transaction.ts';
import { MEMBER_ROLE } from './subject-access.ts';
import { descendantGroupIds } from './subject-groups.ts';
import { likePattern } from '../like.ts';


export interface Paging {
  page: number;
  size: number;
}

/** Which subjects a query may return: every one, or only these ids. */
export type Visible = number[] | 'all';

// Names sort case-insensitively, the same on SQLite and PostgreSQL whatever the collation.
const SORT_COLUMNS = { name: sql<string>`lower(subjects.name)`, createdAt: sql<string>`subjects.created_at`, updatedAt: sql<string>`subjects.updated_at` } as const;

function parseSort(sort: string | undefined): { column: RawBuilder<string>; direction: 'asc' | 'desc' } {
  const [field, dir] = (sort ?? 'createdAt,desc').split(',');
  const column = SORT_COLUMNS[field as keyof typeof SORT_COLUMNS] ?? SORT_COLUMNS.createdAt;
  return { column, direction: dir === 'asc' ? 'asc' : dir === 'desc' ? 'desc' : field === 'name' ? 'asc' : 'desc' };
}

/** Spec doc 1 §3: one scope is kept — versionIds if non-empty, else subjectIds, else groupIds. */
function keepOneScope(filter: SubjectFilter): SubjectFilter {
  const { versionIds, subjectIds, groupIds, ...rest } = filter;
  if (versionIds?.length) return { ...rest, versionIds };
  if (subjectIds?.length) return { ...rest, subjectIds };
  if (groupIds?.length) return { ...rest, groupIds };
  return rest;
}

function rowQuery(db: Db) {
  return db.selectFrom('subjects')
    .leftJoin('subject_groups', 'subject_groups.id', 'subjects.group_id')
    .leftJoin('users', 'users.id', 'subjects.owner_id')
    .select((eb) => [
      'subjects.id', 'subjects.uuid', 'subjects.name', 'subjects.description', 'subjects.importance', 'subjects.subject_type',
      'subjects.group_id', 'subject_groups.name as group_name', 'subjects.owner_id', 'users.name as owner_name',
      'subjects.product', 'subjects.code_source', 'subjects.custom_fields', 'subjects.settings',
      'subjects.created_at', 'subjects.updated_at',
      eb.selectFrom('subject_members').select((e) => e.fn.countAll<number>().as('n')).whereRef('subject_members.subject_id', '=', 'subjects.id').as('member_count'),
      eb.selectFrom('projects').select((e) => e.fn.countAll<number>().as('n')).whereRef('projects.subject_id', '=', 'subjects.id').as('project_count'),
    ]);
}
type RawRow = Awaited<ReturnType<ReturnType<typeof rowQuery>['executeTakeFirstOrThrow']>>;

interface RunFacts {
  lastStatus: number | null;
  lastAnalysisAt: string | null;
  counts: SubjectRow['counts'];
}

/** Latest-run figures of each subject: one query over the projects of the given subjects. */
async function runFacts(db: Db, subjectIds: number[]): Promise<Map<number, RunFacts>> {
  const facts = new Map<number, RunFacts>(subjectIds.map((id) => [id, { lastStatus: null, lastAnalysisAt: null, counts: { components: 0, vulnerabilities: 0, byLevel: {} } }]));
  if (!subjectIds.length) return facts;
  const rows = await db.selectFrom('projects')
    .leftJoin('runs', 'runs.id', 'projects.last_run_id')
    .select(['projects.subject_id', 'projects.status', 'runs.queued_at', 'runs.finished_at', 'runs.summary'])
    .where('projects.subject_id', 'in', subjectIds)
    .execute();
  for (const row of rows) {
    const f = facts.get(Number(row.subject_id))!;
    const at = row.finished_at ?? row.queued_at ?? null;
    if (at && (!f.lastAnalysisAt || at > f.lastAnalysisAt)) {
      f.lastAnalysisAt = at;
      f.lastStatus = row.status === null ? null : Number(row.status);
    }
    const summary = parseJson<{ components?: number; vulnerabilities?: number; byLevel?: Record<string, number> }>(row.summary, {});
    f.counts.components += Number(summary.components ?? 0);
    f.counts.vulnerabilities += Number(summary.vulnerabilities ?? 0);
    for (const [level, n] of Object.entries(summary.byLevel ?? {})) f.counts.byLevel[level] = (f.counts.byLevel[level] ?? 0) + Number(n);
  }
  return facts;
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    const value = JSON.parse(text) as unknown;
    return (value ?? fallback) as T;
  } catch {
    return fallback;
  }
}

function toRow(raw: RawRow, facts: RunFacts, canManage: boolean): SubjectRow {
  return {
    id: Number(raw.id),
    uuid: raw.uuid,
    name: raw.name,
    description: raw.description,
    importance: Number(raw.importance),
    subjectType: raw.subject_type,
    groupId: raw.group_id === null ? null : Number(raw.group_id),
    groupName: raw.group_name ?? null,
    ownerId: raw.owner_id === null ? null : Number(raw.owner_id),
    ownerName: raw.owner_name ?? null,
    memberCount: Number(raw.member_count ?? 0),
    projectCount: Number(raw.project_count ?? 0),
    ...facts,
    canManage,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
  };
}

/** Whether the caller manages each row: administrators all, others the ones they own. */
export interface Viewer {
  userId: number;
  admin: boolean;
}

async function ownedOf(db: Db, viewer: Viewer, ids: number[]): Promise<Set<number>> {
  if (viewer.admin || !ids.length) return new Set(viewer.admin ? ids : []);
  const rows = await db.selectFrom('subject_members').select('subject_id')
    .where('user_id', '=', viewer.userId).where('role', '=', MEMBER_ROLE.OWNER).where('subject_id', 'in', ids).execute();
  const owned = await db.selectFrom('subjects').select('id').where('owner_id', '=', viewer.userId).where('id', 'in', ids).execute();
  return new Set([...rows.map((r) => Number(r.subject_id)), ...owned.map((r) => Number(r.id))]);
}

async function toRows(db: Db, viewer: Viewer, raws: RawRow[]): Promise<SubjectRow[]> {
  const ids = raws.map((r) => Number(r.id));
  const [facts, owned] = await Promise.all([runFacts(db, ids), ownedOf(db, viewer, ids)]);
  return raws.map((r) => toRow(r, facts.get(Number(r.id))!, owned.has(Number(r.id))));
}

/** Only the subjects directly in this group (null: those without a group), for the group view. */
export interface ListOptions {
  inGroup?: number | null;
}

export async function listSubjects(
  db: Db, viewer: Viewer, product: number, filter: SubjectFilter, paging: Paging, sort: string | undefined, visible: Visible,
  options: ListOptions = {},
): Promise<Page<SubjectRow>> {
  // The group scope covers the groups' descendants: resolved once, the rest is one WHERE.
  const groupIds = keepOneScope(filter).groupIds;
  const groupScope = groupIds ? await descendantGroupIds(db, groupIds) : undefined;
  const build = (eb: ExpressionBuilder<Database, 'subjects'>) => {
    const parts = conditions(eb, product, filter, visible, groupScope);
    if (options.inGroup !== undefined) {
      parts.push(options.inGroup === null ? eb('subjects.group_id', 'is', null) : eb('subjects.group_id', '=', options.inGroup));
    }
    return eb.and(parts);
  };
  const counted = await db.selectFrom('subjects').where(build).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const { column, direction } = parseSort(sort);
  const raws = await rowQuery(db).where((eb) => build(eb as unknown as ExpressionBuilder<Database, 'subjects'>))
    .orderBy(column, direction).orderBy('subjects.id', direction)
    .limit(paging.size).offset((paging.page - 1) * paging.size)
    .execute();
  return { content: await toRows(db, viewer, raws), total };
}

function conditions(eb: ExpressionBuilder<Database, 'subjects'>, product: number, filter: SubjectFilter, visible: Visible, groupScope: number[] | undefined) {
  const parts: Array<Expression<SqlBool>> = [eb('subjects.product', '=', product)];
  if (visible !== 'all') parts.push(visible.length ? eb('subjects.id', 'in', visible) : sql<SqlBool>`1 = 0`);
  const scoped = keepOneScope(filter);
  if (scoped.name?.trim()) parts.push(sql<SqlBool>`lower(subjects.name) like ${likePattern(scoped.name.trim())} escape '\\'`);
  if (scoped.versionIds) {
    parts.push(eb('subjects.id', 'in', eb.selectFrom('subject_versions').select('subject_id').where('id', 'in', scoped.versionIds)));
  }
  if (scoped.subjectIds) parts.push(eb('subjects.id', 'in', scoped.subjectIds));
  if (scoped.groupIds) parts.push(groupScope?.length ? eb('subjects.group_id', 'in', groupScope) : sql<SqlBool>`1 = 0`);
  if (scoped.importance?.length) parts.push(eb('subjects.importance', 'in', scoped.importance));
  if (scoped.subjectType) parts.push(eb('subjects.subject_type', '=', scoped.subjectType));
  return parts;
}

export interface SubjectRecord {
  row: SubjectRow;
  product: number;
  codeSource: number;
  customFields: Record<string, unknown>;
  settings: Record<string, unknown>;
}

export async function findSubject(db: Db, viewer: Viewer, id: number): Promise<SubjectRecord | undefined> {
  const raw = await rowQuery(db).where('subjects.id', '=', id).executeTakeFirst();
  if (!raw) return undefined;
  const [row] = await toRows(db, viewer, [raw]);
  return {
    row: row!,
    product: Number(raw.product),
    codeSource: Number(raw.code_source),
    customFields: parseJson<Record<string, unknown>>(raw.custom_fields, {}),
    settings: parseJson<Record<string, unknown>>(raw.settings, {}),
  };
}

/** Product, name and owner of a subject, or undefined: the cheap look-up before a command. */
export async function subjectHead(db: Db, id: number) {
  const row = await db.selectFrom('subjects').select(['id', 'name', 'product', 'owner_id', 'settings', 'custom_fields']).where('id', '=', id).executeTakeFirst();
  return row && { id: Number(row.id), name: row.name, product: Number(row.product), ownerId: row.owner_id === null ? null : Number(row.owner_id), settings: parseJson<Record<string, unknown>>(row.settings, {}), customFields: parseJson<Record<string, unknown>>(row.custom_fields, {}) };
}

export async function nameTaken(db: Db, product: number, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('subjects').select('id').where('product', '=', product).where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export interface NewSubject {
  name: string;
  description: string;
  importance: number;
  groupId: number | null;
  subjectType: string | null;
  customFields: Record<string, unknown>;
  product: number;
  ownerId: number;
  memberIds: number[];
}

/** Creates the subject with its owner (role 1) and members (role 2) in one transaction. */
export async function createSubject(db: Db, s: NewSubject): Promise<{ id: number; uuid: string }> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const uuid = randomUUID();
    const { id } = await trx.insertInto('subjects').values({
      uuid, name: s.name, description: s.description, importance: s.importance, group_id: s.groupId, subject_type: s.subjectType,
      custom_fields: JSON.stringify(s.customFields), product: s.product, owner_id: s.ownerId, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const members = [...new Set(s.memberIds)].filter((u) => u !== s.ownerId);
    await trx.insertInto('subject_members').values([
      { subject_id: id, user_id: s.ownerId, role: MEMBER_ROLE.OWNER, created_at: now },
      ...members.map((user_id) => ({ subject_id: id, user_id, role: MEMBER_ROLE.MEMBER, created_at: now })),
    ]).execute();
    return { id: Number(id), uuid };
  });
}

export async function updateSubject(db: Db, id: number, changes: {
  name: string; description: string; importance: number; groupId: number | null; subjectType: string | null; customFields?: Record<string, unknown>;
}): Promise<void> {
  await db.updateTable('subjects').set({
    name: changes.name, description: changes.description, importance: changes.importance, group_id: changes.groupId,
    subject_type: changes.subjectType, ...(changes.customFields && { custom_fields: JSON.stringify(changes.customFields) }), updated_at: nowIso(),
  }).where('id', '=', id).execute();
}

export async function writeSubjectJson(db: Db, id: number, column: 'settings' | 'custom_fields', value: Record<string, unknown>): Promise<void> {
  await db.updateTable('subjects').set({ [column]: JSON.stringify(value), updated_at: nowIso() }).where('id', '=', id).execute();
}

/** Deletes subjects; projects, runs, results, members and versions go with them (ON DELETE CASCADE). */
export async function deleteSubjects(db: Db, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const result = await db.deleteFrom('subjects').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The new owner takes role 1 (added as a member if needed); the old owner stays as a member. */
export async function transferSubject(db: Db, id: number, newOwnerId: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const now = nowIso();
    await trx.updateTable('subject_members').set({ role: MEMBER_ROLE.MEMBER })
      .where('subject_id', '=', id).where('role', '=', MEMBER_ROLE.OWNER).execute();
    await trx.insertInto('subject_members').values({ subject_id: id, user_id: newOwnerId, role: MEMBER_ROLE.OWNER, created_at: now })
      .onConflict((oc) => oc.columns(['subject_id', 'user_id']).doUpdateSet({ role: MEMBER_ROLE.OWNER })).execute();
    await trx.updateTable('subjects').set({ owner_id: newOwnerId, updated_at: now }).where('id', '=', id).execute();
  });
}

export async function allSubjects(db: Db, visible: Visible): Promise<Array<{ id: number; name: string; product: number }>> {
  if (visible !== 'all' && !visible.length) return [];
  let q = db.selectFrom('subjects').select(['id', 'name', 'product']).orderBy('name').orderBy('id');
  if (visible !== 'all') q = q.where('id', 'in', visible);
  return (await q.execute()).map((r) => ({ id: Number(r.id), name: r.name, product: Number(r.product) }));
}

/** Reads and rewrites subjects.settings in one transaction; returns what was written. */
export async function patchSettings(db: Db, id: number, change: (settings: Record<string, unknown>) => Record<string, unknown>): Promise<Record<string, unknown>> {
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom('subjects').select('settings').where('id', '=', id).executeTakeFirstOrThrow();
    const next = change(parseJson<Record<string, unknown>>(row.settings, {}));
    await trx.updateTable('subjects').set({ settings: JSON.stringify(next), updated_at: nowIso() }).where('id', '=', id).execute();
    return next;
  });
}
