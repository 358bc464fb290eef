// Data scope of subjects (applications): who may see and who may manage one. Domain
// administrators see every subject; everyone else sees the subjects they own or are members of.
// Every area that answers per subject (projects, tasks, results, statistics) asks here, so the
// rule lives in one place.
import { ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../transaction.ts';

/** subject_members.role: the owner manages the subject, members work in it. */
export const MEMBER_ROLE = { OWNER: 1, MEMBER: 2 } as const;

export async function isDomainAdmin(db: Db, userId: number): Promise<boolean> {
  const row = await db.selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.code')
    .where('user_roles.user_id', '=', userId)
    .where('roles.code', '=', ROLE.DOMAIN_ADMIN)
    .executeTakeFirst();
  return row !== undefined;
}

/** The member role of the user in the subject (owner_id counts as owner), or null. */
async function memberRole(db: Db, userId: number, subjectId: number): Promise<number | null> {
  const subject = await db.selectFrom('subjects').select('owner_id').where('id', '=', subjectId).executeTakeFirst();
  if (!subject) return null;
  if (subject.owner_id === userId) return MEMBER_ROLE.OWNER;
  const member = await db.selectFrom('subject_members').select('role')
    .where('subject_id', '=', subjectId).where('user_id', '=', userId).executeTakeFirst();
  return member ? Number(member.role) : null;
}

/** True for domain administrators, the subject's owner and its members; false when it does not exist. */
export async function canAccessSubject(db: Db, userId: number, subjectId: number): Promise<boolean> {
  if (await isDomainAdmin(db, userId)) return true;
  return (await memberRole(db, userId, subjectId)) !== null;
}

/** True for domain administrators and the subject's owner (members with role 1). */
export async function canManageSubject(db: Db, userId: number, subjectId: number): Promise<boolean> {
  if (await isDomainAdmin(db, userId)) return true;
  return (await memberRole(db, userId, subjectId)) === MEMBER_ROLE.OWNER;
}

/**
 * 'all' for domain administrators, else the ids of the subjects the user owns or belongs to.
 * `domainAdmin` is the role as the request's guard read it with the permissions (same request,
 * same freshness); without it the role is looked up.
 */
export async function visibleSubjectIds(db: Db, userId: number, domainAdmin?: boolean): Promise<number[] | 'all'> {
  if (domainAdmin ?? await isDomainAdmin(db, userId)) return 'all';
  const [owned, joined] = await Promise.all([
    db.selectFrom('subjects').select('id').where('owner_id', '=', userId).execute(),
    db.selectFrom('subject_members').select('subject_id').where('user_id', '=', userId).execute(),
  ]);
  return [...new Set([...owned.map((r) => Number(r.id)), ...joined.map((r) => Number(r.subject_id))])].sort((a, b) => a - b);
}
