// Members of a subject (subject_members): the owner (role 1) and members (role 2).
import { sql, type SqlBool } from 'kysely';
import type { Page } from '../../../contract/api/kit.ts';
import type { MemberRow, UserRef } from '../../../contract/api/subject.ts';
import { nowIso } from '../time.ts';
import { inTransaction, type Db } from '../transaction.ts';
import { MEMBER_ROLE } from './subject-access.ts';
import { likePattern } from '../like.ts';


const nameLike = (text: string) => sql<SqlBool>`(lower(users.name) like ${likePattern(text)} escape '\\' or lower(users.username) like ${likePattern(text)} escape '\\')`;

export async function listMembers(db: Db, subjectId: number, paging: { page: number; size: number }, name?: string): Promise<Page<MemberRow>> {
  let base = db.selectFrom('subject_members').innerJoin('users', 'users.id', 'subject_members.user_id')
    .where('subject_members.subject_id', '=', subjectId);
  if (name?.trim()) base = base.where(nameLike(name.trim()));
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base
    .select(['users.id', 'users.username', 'users.name', 'users.email', 'subject_members.role', 'subject_members.created_at'])
    .orderBy('subject_members.role').orderBy('users.username')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(counted?.n ?? 0),
    content: rows.map((r) => ({ userId: Number(r.id), username: r.username, name: r.name, email: r.email, role: Number(r.role), createdAt: r.created_at })),
  };
}

export async function memberIds(db: Db, subjectId: number): Promise<number[]> {
  const rows = await db.selectFrom('subject_members').select('user_id').where('subject_id', '=', subjectId).execute();
  return rows.map((r) => Number(r.user_id));
}

/** Users who are not members of the subject (every user when subjectId is absent). */
export async function usersNotIn(db: Db, subjectId: number | undefined, name?: string): Promise<UserRef[]> {
  let q = db.selectFrom('users').select(['id', 'username', 'name']).orderBy('username').limit(500);
  if (subjectId !== undefined) q = q.where('id', 'not in', db.selectFrom('subject_members').select('user_id').where('subject_id', '=', subjectId));
  if (name?.trim()) q = q.where(nameLike(name.trim()));
  return (await q.execute()).map((r) => ({ userId: Number(r.id), username: r.username, name: r.name }));
}

export async function existingUserIds(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
  return rows.map((r) => Number(r.id));
}

export async function addMembers(db: Db, subjectId: number, userIds: number[]): Promise<number> {
  return inTransaction(db, async (trx) => {
    const present = new Set((await trx.selectFrom('subject_members').select('user_id').where('subject_id', '=', subjectId).execute()).map((r) => Number(r.user_id)));
    const fresh = [...new Set(userIds)].filter((id) => !present.has(id));
    if (fresh.length) {
      const now = nowIso();
      await trx.insertInto('subject_members').values(fresh.map((user_id) => ({ subject_id: subjectId, user_id, role: MEMBER_ROLE.MEMBER, created_at: now }))).execute();
      await trx.updateTable('subjects').set({ updated_at: now }).where('id', '=', subjectId).execute();
    }
    return fresh.length;
  });
}

/** Removes members (never the owner: the caller refuses that first). */
export async function removeMembers(db: Db, subjectId: number, userIds: number[]): Promise<number> {
  const result = await db.deleteFrom('subject_members')
    .where('subject_id', '=', subjectId).where('user_id', 'in', userIds).where('role', '!=', MEMBER_ROLE.OWNER).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function membersWithEmail(db: Db, subjectId: number): Promise<Array<UserRef & { email: string | null }>> {
  const rows = await db.selectFrom('subject_members').innerJoin('users', 'users.id', 'subject_members.user_id')
    .select(['users.id', 'users.username', 'users.name', 'users.email'])
    .where('subject_members.subject_id', '=', subjectId).orderBy('users.username').execute();
  return rows.map((r) => ({ userId: Number(r.id), username: r.username, name: r.name, email: r.email }));
}
