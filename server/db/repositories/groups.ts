// The organisation groups as administration reads and writes them (contract/api/group.ts): the
// tree with its counts and paths, the rows, and the 应用 and users in a group with the pickers'
// pages. The tree is read whole (an organisation's departments are few) and walked in memory;
// groupPath is computed from it, never stored, so renames and moves cannot leave a stale path.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { GroupDetail, GroupRef, GroupSubjectRow, GroupUserRow } from '../../../contract/api/group.ts';
import { GROUP_PATH_SEPARATOR } from '../../../contract/api/group.ts';
import type { Page } from '../../../contract/api/kit.ts';
import { likePattern } from '../like.ts';
import type { Database } from '../schema.ts';
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';
import { descendantGroupIds, groupPath, type GroupNode } from './subject-groups.ts';

export interface GroupRecord extends GroupNode {
  createdAt: string;
}

interface Paging { page: number; size: number }

export async function groupRecords(db: Db): Promise<GroupRecord[]> {
  const rows = await db.selectFrom('subject_groups').select(['id', 'pid', 'name', 'created_at']).orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), pid: r.pid === null ? null : Number(r.pid), name: r.name, createdAt: String(r.created_at) }));
}

/** The group's path of names joined by '/'. */
export const pathText = (groups: GroupNode[], id: number): string => groupPath(groups, id).map((g) => g.name).join(GROUP_PATH_SEPARATOR);

export function refOf(groups: GroupNode[], g: GroupNode): GroupRef {
  return { id: g.id, pid: g.pid, name: g.name, groupPath: pathText(groups, g.id) };
}

/** Direct counts of every group: child groups, 应用 and members. */
export async function groupCounts(db: Db, groups: GroupNode[]): Promise<Map<number, { childCount: number; subjectCount: number; userCount: number }>> {
  const [subjects, users] = await Promise.all([
    db.selectFrom('subjects').select(['group_id', (eb) => eb.fn.countAll<number>().as('n')]).where('group_id', 'is not', null).groupBy('group_id').execute(),
    db.selectFrom('user_groups').select(['group_id', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('group_id').execute(),
  ]);
  const s = new Map(subjects.map((r) => [Number(r.group_id), Number(r.n)]));
  const u = new Map(users.map((r) => [Number(r.group_id), Number(r.n)]));
  return new Map(groups.map((g) => [g.id, {
    childCount: groups.filter((c) => c.pid === g.id).length,
    subjectCount: s.get(g.id) ?? 0,
    userCount: u.get(g.id) ?? 0,
  }]));
}

export async function groupDetails(db: Db, groups: GroupRecord[]): Promise<Map<number, GroupDetail>> {
  const counts = await groupCounts(db, groups);
  return new Map(groups.map((g) => [g.id, {
    ...refOf(groups, g), ...counts.get(g.id)!, path: groupPath(groups, g.id), createdAt: g.createdAt,
  }]));
}

export async function groupDetail(db: Db, id: number): Promise<GroupDetail | undefined> {
  return (await groupDetails(db, await groupRecords(db))).get(id);
}

/** The group of that name directly under `pid` (null: the top level), case-insensitive, but `exceptId`. */
export async function siblingNamed(db: Db, pid: number | null, name: string, exceptId?: number): Promise<{ id: number } | undefined> {
  let q = db.selectFrom('subject_groups').select('id').where(sql<string>`lower(name)`, '=', name.toLowerCase());
  q = pid === null ? q.where('pid', 'is', null) : q.where('pid', '=', pid);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  const row = await q.executeTakeFirst();
  return row ? { id: Number(row.id) } : undefined;
}

export async function insertGroup(db: Db, pid: number | null, name: string): Promise<number> {
  const row = await db.insertInto('subject_groups').values({ pid, name, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateGroup(db: Db, id: number, changes: { name?: string; pid?: number | null }): Promise<void> {
  await db.updateTable('subject_groups').set(changes).where('id', '=', id).execute();
}

export async function deleteGroup(db: Db, id: number): Promise<void> {
  await db.deleteFrom('subject_groups').where('id', '=', id).execute();
}

// ---- 应用 of a group ---------------------------------------------------------------------------

export async function subjectsNamed(db: Db, ids: number[]): Promise<Array<{ id: number; name: string; groupId: number | null }>> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('subjects').select(['id', 'name', 'group_id']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, groupId: r.group_id === null ? null : Number(r.group_id) }));
}

export async function setSubjectsGroup(db: Db, ids: number[], groupId: number | null): Promise<void> {
  if (ids.length) await db.updateTable('subjects').set({ group_id: groupId, updated_at: nowIso() }).where('id', 'in', ids).execute();
}

/** The 应用 in the group (`inside`) or not in it, by name, paged. */
export async function groupSubjectPage(db: Db, groups: GroupNode[], groupId: number, inside: boolean, keyword: string | undefined, paging: Paging): Promise<Page<GroupSubjectRow>> {
  const where = (eb: ExpressionBuilder<Database, 'subjects' | 'users'>) => {
    const parts: Array<Expression<SqlBool>> = [inside ? eb('subjects.group_id', '=', groupId) : eb.or([eb('subjects.group_id', 'is', null), eb('subjects.group_id', '<>', groupId)])];
    if (keyword?.trim()) parts.push(sql<SqlBool>`lower(subjects.name) like ${likePattern(keyword.trim())} escape '\\'`);
    return eb.and(parts);
  };
  const base = () => db.selectFrom('subjects').leftJoin('users', 'users.id', 'subjects.owner_id').where(where);
  const counted = await base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base()
    .select(['subjects.id', 'subjects.name', 'subjects.product', 'subjects.group_id', 'users.name as owner_name'])
    .orderBy('subjects.name').orderBy('subjects.id')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(counted?.n ?? 0),
    content: rows.map((r) => {
      const gid = r.group_id === null ? null : Number(r.group_id);
      return { id: Number(r.id), name: r.name, product: Number(r.product), ownerName: r.owner_name ?? null, groupId: gid, groupPath: gid === null ? null : pathText(groups, gid) };
    }),
  };
}

// ---- members of a group -----------------------------------------------------------------------

export async function usersNamed(db: Db, ids: number[]): Promise<Array<{ id: number; username: string }>> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), username: r.username }));
}

/** Of the users, those already in the group. */
export async function membersAmong(db: Db, groupId: number, userIds: number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const rows = await db.selectFrom('user_groups').select('user_id').where('group_id', '=', groupId).where('user_id', 'in', userIds).execute();
  return new Set(rows.map((r) => Number(r.user_id)));
}

export async function addMembers(db: Db, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length) await db.insertInto('user_groups').values(userIds.map((userId) => ({ user_id: userId, group_id: groupId }))).execute();
}

export async function removeMembers(db: Db, groupId: number, userIds: number[]): Promise<void> {
  if (userIds.length) await db.deleteFrom('user_groups').where('group_id', '=', groupId).where('user_id', 'in', userIds).execute();
}

/** The users in the group (`inside`) or not in it, by username or name, paged. */
export async function groupUserPage(db: Db, groups: GroupNode[], groupId: number, inside: boolean, keyword: string | undefined, paging: Paging): Promise<Page<GroupUserRow>> {
  const members = db.selectFrom('user_groups').select('user_id').where('group_id', '=', groupId);
  const where = (eb: ExpressionBuilder<Database, 'users'>) => {
    const parts: Array<Expression<SqlBool>> = [inside ? eb('users.id', 'in', members) : eb('users.id', 'not in', members)];
    if (keyword?.trim()) {
      const like = likePattern(keyword.trim());
      parts.push(sql<SqlBool>`(lower(users.username) like ${like} escape '\\' or lower(users.name) like ${like} escape '\\')`);
    }
    return eb.and(parts);
  };
  const base = () => db.selectFrom('users').where(where);
  const counted = await base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base().select(['users.id', 'users.username', 'users.name', 'users.email', 'users.user_type', 'users.is_lock'])
    .orderBy('users.username').orderBy('users.id')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  const ids = rows.map((r) => Number(r.id));
  const memberships = ids.length ? await db.selectFrom('user_groups').select(['user_id', 'group_id']).where('user_id', 'in', ids).execute() : [];
  return {
    total: Number(counted?.n ?? 0),
    content: rows.map((r) => ({
      id: Number(r.id), username: r.username, name: r.name, email: r.email, userType: Number(r.user_type), isLock: r.is_lock,
      groupPaths: memberships.filter((m) => Number(m.user_id) === Number(r.id)).map((m) => pathText(groups, Number(m.group_id))).sort(),
    })),
  };
}

/** The groups the user is in. */
export async function groupsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_groups').select('group_id').where('user_id', '=', userId).execute();
  return rows.map((r) => Number(r.group_id));
}

/**
 * The groups the subject list's group view names to a user who does not see every 应用: their
 * organisation groups, the groups below them, any group holding an 应用 they see, and the groups
 * above all of those (the way down to them). Other groups' names stay hidden.
 */
export async function reachableGroupIds(db: Db, userId: number, visible: number[] | 'all', groups: GroupNode[]): Promise<Set<number> | 'all'> {
  if (visible === 'all') return 'all';
  const own = await groupsOfUser(db, userId);
  const holding = visible.length
    ? (await db.selectFrom('subjects').select('group_id').where('id', 'in', visible).where('group_id', 'is not', null).execute()).map((r) => Number(r.group_id))
    : [];
  const out = new Set<number>(own.length ? await descendantGroupIds(db, own, groups) : []);
  for (const id of [...out, ...holding]) for (const crumb of groupPath(groups, id)) out.add(crumb.id);
  return out;
}
