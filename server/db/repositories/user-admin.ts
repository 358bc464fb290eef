// User administration (/system/user/*): the user list with its filters, a user's roles and
// groups, deletion, the notification address, and the records of Excel imports. Login
// bookkeeping and locks stay in users.ts.
import { sql } from 'kysely';
import { USER_TYPE_LABEL } from '../../../contract/enums.ts';
import { hasNoLocalPassword, USER_IMPORT_OUTCOME_LABEL, type UserImportRecord, type UserRow } from '../../../contract/api/user.ts';
import { IMPORT_RECORD_STATUS_LABEL } from '../../../contract/enums.ts';
import type { Page } from '../../../contract/api/kit.ts';
import { ROLE } from '../../../contract/permissions.ts';
import { likePattern } from '../like.ts';
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';

interface UserFilter {
  keyword?: string | undefined;
  userType?: number | undefined;
  roleId?: number | undefined;
  groupId?: number | undefined;
  isLock?: 'Y' | 'N' | undefined;
  sort?: 'createTime' | 'username' | 'name' | undefined;
  order?: 'asc' | 'desc' | undefined;
}

const SORT_COLUMN = { createTime: 'users.created_at', username: 'users.username', name: 'users.name' } as const;

const typeLabel = (type: number): string => (USER_TYPE_LABEL as Record<number, string>)[type] ?? `类型${type}`;

/** The rows of these user ids, with their roles and groups, in the order given. */
export async function userRows(db: Db, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  const [users, roles, groups] = await Promise.all([
    db.selectFrom('users').selectAll().where('id', 'in', ids).execute(),
    db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.code', 'roles.name'])
      .where('user_roles.user_id', 'in', ids).orderBy('roles.code').execute(),
    db.selectFrom('user_groups').innerJoin('subject_groups', 'subject_groups.id', 'user_groups.group_id')
      .select(['user_groups.user_id', 'subject_groups.id', 'subject_groups.name'])
      .where('user_groups.user_id', 'in', ids).orderBy('subject_groups.name').execute(),
  ]);
  const now = nowIso();
  const byId = new Map(users.map((u) => [u.id, u]));
  return ids.flatMap((id) => {
    const u = byId.get(id);
    if (!u) return [];
    return [{
      userId: u.id,
      username: u.username,
      name: u.name,
      userType: u.user_type,
      userTypeLabel: typeLabel(u.user_type),
      email: u.email,
      phone: u.phone,
      roles: roles.filter((r) => r.user_id === id).map((r) => ({ id: r.id, code: r.code, name: r.name })),
      groups: groups.filter((g) => g.user_id === id).map((g) => ({ id: g.id, name: g.name })),
      isLock: u.is_lock,
      lockedUntil: u.locked_until && u.locked_until > now ? u.locked_until : null,
      updatedPwd: Boolean(u.updated_pwd),
      localPassword: !hasNoLocalPassword(u.user_type),
      createTime: u.created_at,
      updateTime: u.updated_at,
    }];
  });
}

/** GET /api/user/pageUser: one page of users matching the filter. */
export async function pageUsers(db: Db, filter: UserFilter, paging: { page: number; size: number }): Promise<Page<UserRow>> {
  let query = db.selectFrom('users');
  if (filter.keyword?.trim()) {
    const pattern = likePattern(filter.keyword.trim());
    query = query.where((eb) => eb.or([
      eb(sql<string>`lower(users.username)`, 'like', sql<string>`${pattern} escape '\\'`),
      eb(sql<string>`lower(users.name)`, 'like', sql<string>`${pattern} escape '\\'`),
    ]));
  }
  if (filter.userType !== undefined) {
    query = filter.userType >= 6
      ? query.where('users.user_type', '>=', 6).where('users.user_type', '<=', 10)
      : query.where('users.user_type', '=', filter.userType);
  }
  if (filter.isLock) query = query.where('users.is_lock', '=', filter.isLock);
  if (filter.roleId !== undefined) {
    const roleId = filter.roleId;
    query = query.where((eb) => eb.exists(eb.selectFrom('user_roles').select('user_roles.user_id')
      .whereRef('user_roles.user_id', '=', 'users.id').where('user_roles.role_id', '=', roleId)));
  }
  if (filter.groupId !== undefined) {
    const groupId = filter.groupId;
    query = query.where((eb) => eb.exists(eb.selectFrom('user_groups').select('user_groups.user_id')
      .whereRef('user_groups.user_id', '=', 'users.id').where('user_groups.group_id', '=', groupId)));
  }
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const ids = await query.select('users.id')
    .orderBy(SORT_COLUMN[filter.sort ?? 'createTime'], filter.order ?? (filter.sort && filter.sort !== 'createTime' ? 'asc' : 'desc'))
    .orderBy('users.id', 'desc')
    .limit(paging.size).offset((paging.page - 1) * paging.size)
    .execute();
  return { content: await userRows(db, ids.map((r) => r.id)), total: Number(total) };
}

/** The user whose username equals this one, ignoring case. */
export async function findUsernameClash(db: Db, username: string): Promise<{ id: number; username: string; userType: number } | undefined> {
  const row = await db.selectFrom('users').select(['id', 'username', 'user_type'])
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row && { id: row.id, username: row.username, userType: row.user_type };
}

interface RoleRef { id: number; code: number; name: string }

/** The roles of these ids that exist. */
export async function rolesByIds(db: Db, ids: readonly number[]): Promise<RoleRef[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('roles').select(['id', 'code', 'name']).where('id', 'in', ids).orderBy('code').execute();
}

/** Every role, for matching names and codes in an import. */
export const allRoles = (db: Db): Promise<RoleRef[]> => db.selectFrom('roles').select(['id', 'code', 'name']).orderBy('code').execute();

export const roleByCode = (db: Db, code: number): Promise<RoleRef | undefined> =>
  db.selectFrom('roles').select(['id', 'code', 'name']).where('code', '=', code).executeTakeFirst();

/** The organisation groups of these ids that exist. */
export async function groupsByIds(db: Db, ids: readonly number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return [];
  return db.selectFrom('subject_groups').select(['id', 'name']).where('id', 'in', ids).orderBy('id').execute();
}

export const allGroupRefs = (db: Db): Promise<Array<{ id: number; name: string; pid: number | null }>> =>
  db.selectFrom('subject_groups').select(['id', 'name', 'pid']).orderBy('id').execute();

interface NewUserRow {
  username: string;
  name: string;
  passwordHash: string;
  userType: number;
  email: string | null;
  phone: string | null;
  /** False: the user must change the password at the first login. */
  updatedPwd: boolean;
  roleIds: readonly number[];
  groupIds: readonly number[];
}

/** Inserts a user with roles and groups (in the caller's transaction); the new id. */
export async function insertUser(db: Db, user: NewUserRow): Promise<number> {
  const now = nowIso();
  const { id } = await db.insertInto('users').values({
    username: user.username,
    name: user.name,
    password_hash: user.passwordHash,
    user_type: user.userType,
    email: user.email,
    phone: user.phone,
    updated_pwd: user.updatedPwd ? 1 : 0,
    is_lock: 'N',
    created_at: now,
    updated_at: now,
    password_changed_at: user.updatedPwd ? now : null,
  }).returning('id').executeTakeFirstOrThrow();
  await setUserRoles(db, id, user.roleIds);
  await setUserGroups(db, id, user.groupIds);
  return id;
}

export async function updateUserDetails(db: Db, id: number, details: { name: string; email: string | null; phone: string | null }): Promise<void> {
  await db.updateTable('users').set({ ...details, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function setUserRoles(db: Db, userId: number, roleIds: readonly number[]): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roleIds.length) await db.insertInto('user_roles').values([...new Set(roleIds)].map((role_id) => ({ user_id: userId, role_id }))).execute();
}

export async function setUserGroups(db: Db, userId: number, groupIds: readonly number[]): Promise<void> {
  await db.deleteFrom('user_groups').where('user_id', '=', userId).execute();
  if (groupIds.length) await db.insertInto('user_groups').values([...new Set(groupIds)].map((group_id) => ({ user_id: userId, group_id }))).execute();
}

/** Ids of the users holding the domain administrator role. */
export async function domainAdminIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('user_roles.user_id').where('roles.code', '=', ROLE.DOMAIN_ADMIN).execute();
  return [...new Set(rows.map((r) => r.user_id))];
}

/** 应用 these users own: they stay, without an owner, when the users go. */
export async function ownedSubjectCount(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { n } = await db.selectFrom('subjects').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', 'in', ids).executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Deletes the users. The foreign keys decide the rest: sessions, tokens, roles, groups,
 * memberships, uploads and saved repository credentials go with them; 应用 keep existing with
 * owner_id null, and what they created elsewhere keeps its history with the author null.
 */
export async function deleteUserRows(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  // Explicitly, rather than trusting SQLite's foreign-key switch on every connection.
  await db.updateTable('subjects').set({ owner_id: null }).where('owner_id', 'in', ids).execute();
  await db.deleteFrom('users').where('id', 'in', ids).execute();
}

export async function passwordChangedAt(db: Db, userId: number): Promise<string | null> {
  return (await db.selectFrom('users').select('password_changed_at').where('id', '=', userId).executeTakeFirst())?.password_changed_at ?? null;
}

export async function getNoticeEmail(db: Db, userId: number): Promise<{ mail: string | null; email: string | null } | undefined> {
  const row = await db.selectFrom('users').select(['notice_email', 'email']).where('id', '=', userId).executeTakeFirst();
  return row && { mail: row.notice_email ?? null, email: row.email };
}

export async function setNoticeEmail(db: Db, userId: number, mail: string | null): Promise<void> {
  await db.updateTable('users').set({ notice_email: mail, updated_at: nowIso() }).where('id', '=', userId).execute();
}

/** Synchronised users' details as the source has them now. */
export async function updateSyncedUser(db: Db, id: number, details: { name: string; email: string | null; phone: string | null; userType: number }): Promise<void> {
  await db.updateTable('users')
    .set({ name: details.name, email: details.email, phone: details.phone, user_type: details.userType, updated_at: nowIso() })
    .where('id', '=', id).execute();
}

// ---- import records ----------------------------------------------------------------------------------------

export async function createImportRecord(db: Db, record: { fileName: string; userId: number }): Promise<number> {
  const { id } = await db.insertInto('user_import_records').values({
    file_name: record.fileName, status: 1, created_by: record.userId, created_at: nowIso(),
  }).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function finishImportRecord(db: Db, id: number, result: { status: number; total: number; succeeded: number; failed: number; message: string }): Promise<void> {
  await db.updateTable('user_import_records').set({ ...result, finished_at: nowIso() }).where('id', '=', id).execute();
}

export async function addImportRow(db: Db, row: { recordId: number; rowNo: number; username: string; name: string; outcome: number; reason: string; userId: number | null }): Promise<void> {
  await db.insertInto('user_import_rows').values({
    record_id: row.recordId, row_no: row.rowNo, username: row.username.slice(0, 200), name: row.name.slice(0, 200),
    outcome: row.outcome, reason: row.reason, user_id: row.userId,
  }).execute();
}

const recordQuery = (db: Db) => db.selectFrom('user_import_records')
  .leftJoin('users', 'users.id', 'user_import_records.created_by')
  .select([
    'user_import_records.id', 'user_import_records.file_name', 'user_import_records.status', 'user_import_records.total',
    'user_import_records.succeeded', 'user_import_records.failed', 'user_import_records.message',
    'user_import_records.created_at', 'user_import_records.finished_at', 'users.name as creator',
  ]);

type RecordRow = Awaited<ReturnType<ReturnType<typeof recordQuery>['executeTakeFirstOrThrow']>>;

const toRecord = (r: RecordRow): UserImportRecord => ({
  id: r.id,
  fileName: r.file_name,
  status: r.status,
  statusLabel: (IMPORT_RECORD_STATUS_LABEL as Record<number, string>)[r.status] ?? '',
  total: r.total,
  succeeded: r.succeeded,
  failed: r.failed,
  message: r.message,
  createdBy: r.creator ?? null,
  createTime: r.created_at,
  finishTime: r.finished_at,
});

export async function findImportRecord(db: Db, id: number): Promise<UserImportRecord | undefined> {
  const row = await recordQuery(db).where('user_import_records.id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

export async function pageImportRecords(db: Db, paging: { page: number; size: number }): Promise<Page<UserImportRecord>> {
  const { total } = await db.selectFrom('user_import_records').select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await recordQuery(db).orderBy('user_import_records.created_at', 'desc').orderBy('user_import_records.id', 'desc')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { content: rows.map(toRecord), total: Number(total) };
}

export async function pageImportRows(db: Db, recordId: number, outcome: number | undefined, paging: { page: number; size: number }) {
  let query = db.selectFrom('user_import_rows').where('record_id', '=', recordId);
  if (outcome !== undefined) query = query.where('outcome', '=', outcome);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.select(['row_no', 'username', 'name', 'outcome', 'reason']).orderBy('row_no').orderBy('id')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    content: rows.map((r) => ({
      rowNo: r.row_no, username: r.username, name: r.name, outcome: r.outcome,
      outcomeLabel: (USER_IMPORT_OUTCOME_LABEL as Record<number, string>)[r.outcome] ?? '', reason: r.reason,
    })),
    total: Number(total),
  };
}
