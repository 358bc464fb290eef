// 组织 commands (contract/api/group.ts): create, rename, move and delete groups, and put 应用 and
// users in and out of them. Each checks its input, changes the rows and writes its audit row (who,
// what, before and after, the caller's address) in one transaction, and refuses with a UserError.
import { GROUP_PATH_SEPARATOR, type GroupDetail } from '../../contract/api/group.ts';
import { validateName } from '../../contract/validation.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  addMembers, deleteGroup, groupCounts, groupDetail, groupRecords, insertGroup, membersAmong, pathText, removeMembers,
  setSubjectsGroup, siblingNamed, subjectsNamed, updateGroup, usersNamed, type GroupRecord,
} from '../db/repositories/groups.ts';
import { descendantGroupIds } from '../db/repositories/subject-groups.ts';
import { inTransaction, type Db, type Trx } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

export const GROUP_MSG = {
  notFound: '分组不存在',
  parentNotFound: '上级分组不存在',
  separator: `分组名称不能包含“${GROUP_PATH_SEPARATOR}”（分组路径用它分隔各级名称）`,
  duplicate: (name: string) => `同一级下已有名为“${name}”的分组`,
  moveIntoItself: '不能将分组移动到其自身或其下级分组中',
  notEmpty: (parts: string[]) => `该分组下还有 ${parts.join('、')}，请先移走后再删除`,
  subjectsMissing: '所选应用不存在或已被删除',
  usersMissing: '所选用户不存在或已被删除',
  pathNotFound: (path: string) => `分组路径“${path}”不存在`,
};

/** Who changes and from where, for the audit row. */
export interface Actor { userId: number; ip: string }

function checkedName(name: string): string {
  const problem = validateName(name);
  if (problem) throw new UserError(problem, 'invalid', { field: 'name' });
  if (name.includes(GROUP_PATH_SEPARATOR)) throw new UserError(GROUP_MSG.separator, 'invalid', { field: 'name' });
  return name;
}

async function uniqueAmongSiblings(trx: Trx, pid: number | null, name: string, exceptId?: number): Promise<void> {
  if (await siblingNamed(trx, pid, name, exceptId)) throw new UserError(GROUP_MSG.duplicate(name), 'conflict', { field: 'name' });
}

async function existing(db: Db, id: number, message = GROUP_MSG.notFound): Promise<{ groups: GroupRecord[]; group: GroupRecord }> {
  const groups = await groupRecords(db);
  const group = groups.find((g) => g.id === id);
  if (!group) throw new UserError(message, 'not-found');
  return { groups, group };
}

async function detailOf(db: Db, id: number): Promise<GroupDetail> {
  return (await groupDetail(db, id))!;
}

/** A new group at the top level (pid null) or under `pid`. */
export async function addGroup(db: Db, actor: Actor, pid: number | null, name: string): Promise<GroupDetail> {
  return inTransaction(db, async (trx) => {
    checkedName(name);
    if (pid !== null) await existing(trx, pid, GROUP_MSG.parentNotFound);
    await uniqueAmongSiblings(trx, pid, name);
    const id = await insertGroup(trx, pid, name);
    const added = await detailOf(trx, id);
    await audit(trx, { userId: actor.userId, action: 'group.added', detail: { id, pid, groupPath: added.groupPath, ip: actor.ip } });
    return added;
  });
}

export async function renameGroup(db: Db, actor: Actor, id: number, name: string): Promise<GroupDetail> {
  return inTransaction(db, async (trx) => {
    const { groups, group } = await existing(trx, id);
    checkedName(name);
    await uniqueAmongSiblings(trx, group.pid, name, id);
    if (name !== group.name) {
      await updateGroup(trx, id, { name });
      await audit(trx, { userId: actor.userId, action: 'group.renamed', detail: { id, from: pathText(groups, id), to: (await detailOf(trx, id)).groupPath, ip: actor.ip } });
    }
    return detailOf(trx, id);
  });
}

/** Moves the group, with everything below it, under `pid` (null: to the top level). */
export async function moveGroup(db: Db, actor: Actor, id: number, pid: number | null): Promise<GroupDetail> {
  return inTransaction(db, async (trx) => {
    const { groups, group } = await existing(trx, id);
    if (pid !== null) {
      if (!groups.some((g) => g.id === pid)) throw new UserError(GROUP_MSG.parentNotFound, 'not-found', { field: 'pid' });
      if ((await descendantGroupIds(trx, [id], groups)).includes(pid)) throw new UserError(GROUP_MSG.moveIntoItself, 'invalid', { field: 'pid' });
    }
    if (pid === group.pid) return detailOf(trx, id);
    await uniqueAmongSiblings(trx, pid, group.name, id);
    await updateGroup(trx, id, { pid });
    const moved = await detailOf(trx, id);
    await audit(trx, {
      userId: actor.userId, action: 'group.moved',
      detail: { id, fromPid: group.pid, toPid: pid, from: pathText(groups, id), to: moved.groupPath, ip: actor.ip },
    });
    return moved;
  });
}

/** Refused while the group still has child groups, 应用 or members. */
export async function removeGroup(db: Db, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const { groups } = await existing(trx, id);
    const counts = (await groupCounts(trx, groups)).get(id)!;
    const parts = [
      counts.childCount ? `${counts.childCount} 个子分组` : '',
      counts.subjectCount ? `${counts.subjectCount} 个应用` : '',
      counts.userCount ? `${counts.userCount} 名成员` : '',
    ].filter(Boolean);
    if (parts.length) throw new UserError(GROUP_MSG.notEmpty(parts), 'conflict');
    await deleteGroup(trx, id);
    await audit(trx, { userId: actor.userId, action: 'group.deleted', detail: { id, groupPath: pathText(groups, id), ip: actor.ip } });
  });
}

const distinct = (ids: number[]): number[] => [...new Set(ids)];

/** Puts the 应用 into the group; each leaves the group it was in (an 应用 is in one group). */
export async function addSubjectsToGroup(db: Db, actor: Actor, groupId: number, subjectIds: number[]): Promise<number> {
  return inTransaction(db, async (trx) => {
    const { groups } = await existing(trx, groupId);
    const ids = distinct(subjectIds);
    const found = await subjectsNamed(trx, ids);
    if (found.length !== ids.length) throw new UserError(GROUP_MSG.subjectsMissing, 'not-found');
    const moving = found.filter((s) => s.groupId !== groupId);
    if (!moving.length) return 0;
    await setSubjectsGroup(trx, moving.map((s) => s.id), groupId);
    await audit(trx, {
      userId: actor.userId, action: 'group.subjectsAdded',
      detail: {
        groupId, groupPath: pathText(groups, groupId), ip: actor.ip,
        subjects: moving.map((s) => ({ id: s.id, name: s.name, from: s.groupId === null ? null : pathText(groups, s.groupId) })),
      },
    });
    return moving.length;
  });
}

/** Takes the 应用 out of the group (they are then in none); 应用 not in it are left alone. */
export async function removeSubjectsFromGroup(db: Db, actor: Actor, groupId: number, subjectIds: number[]): Promise<number> {
  return inTransaction(db, async (trx) => {
    const { groups } = await existing(trx, groupId);
    const leaving = (await subjectsNamed(trx, distinct(subjectIds))).filter((s) => s.groupId === groupId);
    if (!leaving.length) return 0;
    await setSubjectsGroup(trx, leaving.map((s) => s.id), null);
    await audit(trx, {
      userId: actor.userId, action: 'group.subjectsRemoved',
      detail: { groupId, groupPath: pathText(groups, groupId), ip: actor.ip, subjects: leaving.map((s) => ({ id: s.id, name: s.name })) },
    });
    return leaving.length;
  });
}

export async function addUsersToGroup(db: Db, actor: Actor, groupId: number, userIds: number[]): Promise<number> {
  return inTransaction(db, async (trx) => {
    const { groups } = await existing(trx, groupId);
    const ids = distinct(userIds);
    const found = await usersNamed(trx, ids);
    if (found.length !== ids.length) throw new UserError(GROUP_MSG.usersMissing, 'not-found');
    const already = await membersAmong(trx, groupId, ids);
    const joining = found.filter((u) => !already.has(u.id));
    if (!joining.length) return 0;
    await addMembers(trx, groupId, joining.map((u) => u.id));
    await audit(trx, {
      userId: actor.userId, action: 'group.usersAdded',
      detail: { groupId, groupPath: pathText(groups, groupId), ip: actor.ip, users: joining },
    });
    return joining.length;
  });
}

export async function removeUsersFromGroup(db: Db, actor: Actor, groupId: number, userIds: number[]): Promise<number> {
  return inTransaction(db, async (trx) => {
    const { groups } = await existing(trx, groupId);
    const ids = distinct(userIds);
    const members = await membersAmong(trx, groupId, ids);
    const leaving = (await usersNamed(trx, [...members]));
    if (!leaving.length) return 0;
    await removeMembers(trx, groupId, leaving.map((u) => u.id));
    await audit(trx, {
      userId: actor.userId, action: 'group.usersRemoved',
      detail: { groupId, groupPath: pathText(groups, groupId), ip: actor.ip, users: leaving },
    });
    return leaving.length;
  });
}

/** The group a path names ('总部/研发部/平台组'; surrounding slashes and spaces are ignored). */
export async function groupByPath(db: Db, path: string): Promise<GroupDetail> {
  const names = path.split(GROUP_PATH_SEPARATOR).map((n) => n.trim()).filter(Boolean);
  const groups = await groupRecords(db);
  let pid: number | null = null;
  let found: GroupRecord | undefined;
  for (const name of names) {
    found = groups.find((g) => g.pid === pid && g.name.toLowerCase() === name.toLowerCase());
    if (!found) break;
    pid = found.id;
  }
  if (!found || !names.length) throw new UserError(GROUP_MSG.pathNotFound(path.trim()), 'not-found');
  return detailOf(db, found.id);
}
