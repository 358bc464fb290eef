// Data scope of subjects (applications): who may see and who may manage one. Every area that
// answers per subject (projects, tasks, results, statistics) asks here, so the rule lives in one
// place. What a user sees follows the data permission their last login granted (roles.ts grantOf,
// contract DATA_PERMISSION):
//   ALL   every subject (the domain administrator role);
//   GROUP the subjects of their organisation groups and every group below them, and their own;
//   SELF  the subjects they own or are members of.
// Managing a subject (settings, members, deletion) takes ALL or being its owner.
import { DATA_PERMISSION, type DataPermission } from '../../../contract/permissions.ts';
import type { Db } from '../transaction.ts';
import { grantOf } from './roles.ts';
import { descendantGroupIds } from './subject-groups.ts';

/** subject_members.role: the owner manages the subject, members work in it. */
export const MEMBER_ROLE = { OWNER: 1, MEMBER: 2 } as const;

const dataPermissionOf = async (db: Db, userId: number): Promise<DataPermission> => (await grantOf(db, userId)).dataPermission;

/** Sees and manages every subject (data permission ALL), as the user's last login granted. */
export async function seesAllSubjects(db: Db, userId: number): Promise<boolean> {
  return (await dataPermissionOf(db, userId)) === DATA_PERMISSION.ALL;
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

/** The groups the user belongs to and every group below them. */
async function groupScope(db: Db, userId: number): Promise<number[]> {
  const own = await db.selectFrom('user_groups').select('group_id').where('user_id', '=', userId).execute();
  return own.length ? descendantGroupIds(db, own.map((r) => Number(r.group_id))) : [];
}

/** True when the user may see the subject under their data permission; false when it does not exist. */
export async function canAccessSubject(db: Db, userId: number, subjectId: number): Promise<boolean> {
  const scope = await dataPermissionOf(db, userId);
  if (scope === DATA_PERMISSION.ALL) return true;
  if ((await memberRole(db, userId, subjectId)) !== null) return true;
  if (scope !== DATA_PERMISSION.GROUP) return false;
  const subject = await db.selectFrom('subjects').select('group_id').where('id', '=', subjectId).executeTakeFirst();
  return subject?.group_id != null && (await groupScope(db, userId)).includes(Number(subject.group_id));
}

/** True for data permission ALL and the subject's owner (members with role 1). */
export async function canManageSubject(db: Db, userId: number, subjectId: number): Promise<boolean> {
  if (await seesAllSubjects(db, userId)) return true;
  return (await memberRole(db, userId, subjectId)) === MEMBER_ROLE.OWNER;
}

/**
 * 'all' for data permission ALL, else the ids of the subjects the user may see. `dataPermission`
 * is the one the request's guard read with the permissions (same request, same freshness);
 * without it the user's grant is looked up.
 */
export async function visibleSubjectIds(db: Db, userId: number, dataPermission?: DataPermission): Promise<number[] | 'all'> {
  const scope = dataPermission ?? await dataPermissionOf(db, userId);
  if (scope === DATA_PERMISSION.ALL) return 'all';
  const groups = scope === DATA_PERMISSION.GROUP ? await groupScope(db, userId) : [];
  const [owned, joined, grouped] = await Promise.all([
    db.selectFrom('subjects').select('id').where('owner_id', '=', userId).execute(),
    db.selectFrom('subject_members').select('subject_id').where('user_id', '=', userId).execute(),
    groups.length ? db.selectFrom('subjects').select('id').where('group_id', 'in', groups).execute() : Promise.resolve([]),
  ]);
  const ids = [...owned.map((r) => Number(r.id)), ...joined.map((r) => Number(r.subject_id)), ...grouped.map((r) => Number(r.id))];
  return [...new Set(ids)].sort((a, b) => a - b);
}
