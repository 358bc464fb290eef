// Subject commands (issue 6): create, set up, delete and transfer a subject, its members and its
// defect-tracker configuration. A refusal is a UserError (a data scope the caller lacks answers
// HTTP 403); each change and its audit row are one transaction.
import type { Static } from 'typebox';
import type { BugConfig, BugConfigBodySchema } from '../../contract/api/subject.ts';
import { SUCCESS_MESSAGES } from '../../contract/errors.ts';
import { validateDescription, validateName } from '../../contract/validation.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { canAccessSubject, canManageSubject } from '../db/repositories/subject-access.ts';
import { allGroups } from '../db/repositories/subject-groups.ts';
import { addMembers, existingUserIds, memberIds, removeMembers } from '../db/repositories/subject-members.ts';
import { createSubject, deleteSubjects, nameTaken, patchSettings, subjectHead, transferSubject, updateSubject } from '../db/repositories/subjects.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { encryptSecret } from '../secrets.ts';
import { bugOf, storedBug } from './subject-settings.ts';
import { isHttpUrl } from './urls.ts';
import { moveUrlCredentials } from './url-credentials.ts';

export const SUBJECT_MSG = {
  ...SUCCESS_MESSAGES,
  notFound: '应用不存在',
  nameTaken: '应用名称已存在，请换一个名称',
  groupNotFound: '所选分组不存在',
  userNotFound: '用户不存在',
  ownerNotRemovable: '不能移除应用负责人，请先转移应用',
  noMembersGiven: '请选择要移除的成员',
  notMember: '只能选择应用成员',
  alreadyOwner: '该用户已是应用负责人',
  batchRefused: (names: string[]) => `无权删除以下应用：${names.join('、')}，未删除任何应用`,
  batchMissing: '部分应用不存在或已被删除，未删除任何应用',
  versionNotFound: '版本不存在',
  versionNameTaken: '该应用下已存在同名版本',
  importanceInvalid: '重要程度应为 1-5',
  subjectTypeInvalid: '应用类型不能超过 100 个字符',
  trackerUrlInvalid: '缺陷管理地址应为 http(s) 地址',
  bugNotConfigured: '请先保存缺陷管理配置',
  privateUrlInvalid: (url: string) => `私服地址应为 http(s) 地址：${url}`,
  sourceNotFound: '仓库源不存在',
  sourceNameTaken: '已存在同名仓库源',
  sourceTypeInvalid: '仓库类型应为 Git、SVN、Mercurial 或 FTP',
  sourceUrlInvalid: (type: string, example: string) => `${type} 仓库地址格式不正确，例如 ${example}`,
  sourceChecked: '地址格式正确；连通性与凭据将在发起任务时检查',
} as const;

export type Need = 'access' | 'manage';
export type SubjectHead = NonNullable<Awaited<ReturnType<typeof subjectHead>>>;

/**
 * The subject when the caller may act on it (`access`: see and work in it; `manage`: change it);
 * else a UserError: 应用不存在, or the guard's permission answer (HTTP 403, 'Permission denied',
 * shown as 用户无权查看当前项目).
 */
export async function requireSubject(db: Db, userId: number, subjectId: number, need: Need): Promise<SubjectHead> {
  const head = await subjectHead(db, subjectId);
  if (!head) throw new UserError(SUBJECT_MSG.notFound, 'not-found');
  const allowed = need === 'manage' ? await canManageSubject(db, userId, subjectId) : await canAccessSubject(db, userId, subjectId);
  if (!allowed) throw UserError.denied();
  return head;
}

interface SubjectFields { name: string; description?: string; groupId?: number | null }

/** Name, description and group of a create or setup body. */
async function checkFields(db: Db, body: SubjectFields, product: number, exceptId?: number): Promise<void> {
  const nameProblem = validateName(body.name);
  if (nameProblem) throw new UserError(nameProblem, 'invalid', { field: 'name' });
  const descriptionProblem = validateDescription(body.description ?? '');
  if (descriptionProblem) throw new UserError(descriptionProblem, 'invalid', { field: 'description' });
  if (await nameTaken(db, product, body.name, exceptId)) throw new UserError(SUBJECT_MSG.nameTaken, 'conflict', { field: 'name' });
  if (body.groupId != null && !(await allGroups(db)).some((g) => g.id === body.groupId)) throw new UserError(SUBJECT_MSG.groupNotFound, 'not-found', { field: 'groupId' });
}

export interface SubjectBody extends SubjectFields {
  importance?: number;
  subjectType?: string | null;
  customFields?: Record<string, unknown>;
  memberIds?: number[];
}

/** Creates a subject owned by the caller, with its members. */
export async function createSubjectFor(db: Db, userId: number, product: number, body: SubjectBody): Promise<{ id: number; uuid: string }> {
  await checkFields(db, body, product);
  const members = body.memberIds ?? [];
  if ((await existingUserIds(db, members)).length !== new Set(members).size) throw new UserError(SUBJECT_MSG.userNotFound, 'not-found', { field: 'memberIds' });
  return inTransaction(db, async (trx) => {
    const created = await createSubject(trx, {
      name: body.name, description: body.description ?? '', importance: body.importance ?? 3, groupId: body.groupId ?? null,
      subjectType: body.subjectType?.trim() || null, customFields: body.customFields ?? {}, product, ownerId: userId, memberIds: members,
    });
    await audit(trx, { userId, action: 'subject.created', detail: { id: created.id, name: body.name, product } });
    return created;
  });
}

/** The basic setup of a subject: name, description, importance, group, type and custom fields. */
export async function setupSubject(db: Db, userId: number, body: SubjectBody & { id: number; importance: number }): Promise<void> {
  const head = await requireSubject(db, userId, body.id, 'manage');
  await checkFields(db, body, head.product, body.id);
  await inTransaction(db, async (trx) => {
    await updateSubject(trx, body.id, {
      name: body.name, description: body.description ?? '', importance: body.importance, groupId: body.groupId ?? null,
      subjectType: body.subjectType?.trim() || null, ...(body.customFields && { customFields: { ...head.customFields, ...body.customFields } }),
    });
    await audit(trx, { userId, action: 'subject.setup', detail: { id: body.id, name: body.name } });
  });
}

/** Deletes one subject the caller manages; its projects, runs and results go with it. */
export async function removeSubject(db: Db, userId: number, id: number): Promise<void> {
  const head = await requireSubject(db, userId, id, 'manage');
  await inTransaction(db, async (trx) => {
    await deleteSubjects(trx, [id]);
    await audit(trx, { userId, action: 'subject.deleted', detail: { id, name: head.name } });
  });
}

/** Deletes subjects, all or nothing: a partial delete would leave the user guessing what is gone. */
export async function removeSubjects(db: Db, userId: number, ids: number[]): Promise<number> {
  const heads = await Promise.all(ids.map((id) => subjectHead(db, id)));
  if (heads.some((h) => !h)) throw new UserError(SUBJECT_MSG.batchMissing, 'not-found');
  const refused: string[] = [];
  for (const head of heads) if (!(await canManageSubject(db, userId, head!.id))) refused.push(head!.name);
  if (refused.length) throw new UserError(SUBJECT_MSG.batchRefused(refused), 'denied');
  return inTransaction(db, async (trx) => {
    const deleted = await deleteSubjects(trx, ids);
    await audit(trx, { userId, action: 'subject.deleted', detail: { ids, names: heads.map((h) => h!.name) } });
    return deleted;
  });
}

/** Hands the subject to another user, who becomes its owner. */
export async function transferSubjectTo(db: Db, userId: number, subjectId: number, toUserId: number): Promise<void> {
  const head = await requireSubject(db, userId, subjectId, 'manage');
  if (!(await existingUserIds(db, [toUserId])).length) throw new UserError(SUBJECT_MSG.userNotFound, 'not-found', { field: 'userId' });
  if (head.ownerId === toUserId) throw new UserError(SUBJECT_MSG.alreadyOwner, 'conflict', { field: 'userId' });
  await inTransaction(db, async (trx) => {
    await transferSubject(trx, subjectId, toUserId);
    await audit(trx, { userId, action: 'subject.transferred', detail: { id: subjectId, from: head.ownerId, to: toUserId } });
  });
}

/** Adds existing users as members; how many were not members yet. */
export async function addSubjectMembers(db: Db, userId: number, subjectId: number, userIds: number[]): Promise<number> {
  await requireSubject(db, userId, subjectId, 'manage');
  const wanted = [...new Set(userIds)];
  if ((await existingUserIds(db, wanted)).length !== wanted.length) throw new UserError(SUBJECT_MSG.userNotFound, 'not-found', { field: 'userIds' });
  return inTransaction(db, async (trx) => {
    const added = await addMembers(trx, subjectId, wanted);
    await audit(trx, { userId, action: 'subject.member.added', detail: { subjectId, userIds: wanted } });
    return added;
  });
}

/** Removes members (never the owner); how many were removed. */
export async function removeSubjectMembers(db: Db, userId: number, subjectId: number, ids: number[]): Promise<number> {
  const head = await requireSubject(db, userId, subjectId, 'manage');
  if (!ids.length) throw new UserError(SUBJECT_MSG.noMembersGiven);
  if (head.ownerId !== null && ids.includes(head.ownerId)) throw new UserError(SUBJECT_MSG.ownerNotRemovable);
  const members = new Set(await memberIds(db, subjectId));
  if (ids.some((id) => !members.has(id))) throw new UserError(SUBJECT_MSG.notMember);
  return inTransaction(db, async (trx) => {
    const removed = await removeMembers(trx, subjectId, ids);
    await audit(trx, { userId, action: 'subject.member.removed', detail: { subjectId, userIds: ids } });
    return removed;
  });
}

export type TrackerBody = Static<typeof BugConfigBodySchema>;

/**
 * Saves the defect-tracker configuration (its password encrypted at rest; credentials typed into
 * the address go to the user name and password); what is now configured.
 */
export async function saveTracker(db: Db, dataDir: string, userId: number, subjectId: number, typed: TrackerBody): Promise<BugConfig> {
  await requireSubject(db, userId, subjectId, 'manage');
  const moved = moveUrlCredentials({ url: typed.url.trim(), username: typed.username, password: typed.password }, '缺陷管理地址', 'url');
  const body = { ...typed, url: moved.url, username: moved.username ?? '', password: moved.password };
  if (!isHttpUrl(body.url)) throw new UserError(SUBJECT_MSG.trackerUrlInvalid, 'invalid', { field: 'url' });
  const fresh = body.password ? encryptSecret(dataDir, body.password) : null;
  return inTransaction(db, async (trx) => {
    const next = await patchSettings(trx, subjectId, (settings) => {
      const stored = storedBug(settings);
      const secret = body.password === undefined ? stored.secret ?? null : fresh;
      return { ...settings, bug: { enabled: stored.enabled ?? true, type: body.type, url: body.url, projectKey: body.projectKey.trim(), username: body.username.trim(), secret } };
    });
    await audit(trx, { userId, action: 'subject.bug.configured', detail: { subjectId, type: body.type, url: body.url } });
    return bugOf(next);
  });
}
