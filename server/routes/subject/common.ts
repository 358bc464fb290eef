// What every subject handler shares: its messages, the product a request came for, and the data
// scope check that answers a subject the caller may not see like the permission guard does.
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { fail } from '../../../contract/envelope.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import type { Database } from '../../db/schema.ts';
import { canAccessSubject, canManageSubject } from '../../db/repositories/subject-access.ts';
import { subjectHead } from '../../db/repositories/subjects.ts';
import { MSG } from '../../messages.ts';

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
  permissionDenied: MSG.permissionDenied,
} as const;

export type Need = 'access' | 'manage';

/**
 * null when the caller may act on the subject; else the failure to answer: 应用不存在, or the
 * guard's permission answer (HTTP 403, 'Permission denied', shown as 用户无权查看当前项目).
 */
export async function checkSubject(db: Kysely<Database>, reply: FastifyReply, userId: number, subjectId: number, need: Need) {
  if (!(await subjectHead(db, subjectId))) return fail(SUBJECT_MSG.notFound);
  const allowed = need === 'manage' ? await canManageSubject(db, userId, subjectId) : await canAccessSubject(db, userId, subjectId);
  if (allowed) return null;
  reply.code(403);
  return fail(SUBJECT_MSG.permissionDenied);
}

export const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};
