// Checks a new-project or edit form before anything is written, with the message a user can act
// on, and turns it into the stored project values.
import type { Kysely } from 'kysely';
import { PERMISSION_DENIED_SERVER_MESSAGE } from '../../../contract/errors.ts';
import type { ProjectForm } from '../../../contract/api/task.ts';
import {
  CODE_TYPE_LABEL, FTP_FIELDS, IMAGE_FIELDS, isCodeType, isFtpType, isImageRepositoryType, isLocalUploadType, isRemoteVcsType,
  joinAnalysisModes, labelOf, parseAnalysisModes, VCS_SERVER_CODE_TYPE, CONFIG_MANAGEMENT_CODE_TYPE,
} from '../../../contract/enums.ts';
import { validateProjectName } from '../../../contract/validation.ts';
import type { Database } from '../../db/schema.ts';
import { canAccessSubject, isDomainAdmin } from '../../db/repositories/subject-access.ts';
import { normalizeDeclared } from '../../engine/matchers/licenses/expression.ts';
import { findCompleteUpload } from '../../uploads/store.ts';

export const TASK_MSG = {
  subjectMissing: '应用不存在',
  /** HTTP 403 through the registrar; shown as 用户无权查看当前项目. */
  denied: PERMISSION_DENIED_SERVER_MESSAGE,
  projectMissing: '项目不存在',
  versionMissing: '所选版本不属于该应用',
  nameTaken: '该应用下已有同名项目',
  badCodeType: '代码来源类型无效',
  uploadRequired: '请先上传要分析的文件',
  uploadMissing: '上传的文件不存在或尚未上传完成，请重新上传',
  uploadForeign: '不能使用其他用户上传的文件',
  badModes: '请至少选择一种有效的分析方式',
  badLicense: (text: string) => `无法识别项目许可证“${text}”，请填写 SPDX 许可证表达式，例如 Apache-2.0 或 MIT OR GPL-2.0-only`,
  fieldRequired: (label: string, field: string) => `代码来源“${label}”需要填写 ${field}`,
  busy: '该项目已有排队中、分析中或已暂停的任务',
  stopped: '任务已被用户停止',
  nothingToStop: '该项目没有排队中或分析中的任务',
  ftpUnsupported: 'FTP 来源暂不支持自动获取文件，将在后续版本提供',
  notGit: '只有 Git 来源的项目可以修改分支',
  timingLocal: '本地上传类型的项目不能设置定时分析',
  userMissing: '用户不存在',
  runMissing: '任务不存在',
  notQueued: '只有排队中的任务可以移到队首',
  notPausable: '只有排队中或分析中的任务可以暂停',
  notPaused: '只有已暂停的任务可以恢复',
  notRemovable: '只有排队中、已暂停或分析中的任务可以从队列移除',
  removed: '任务已从队列中移除',
};

/** Fields a remote source type cannot do without (the rest of its form is optional). */
function missingSourceField(form: Partial<ProjectForm>, getCodeType: number, stored: Record<string, unknown>): string | null {
  const has = (key: string) => {
    const v = (form as Record<string, unknown>)[key] ?? stored[key];
    return typeof v === 'string' ? v.trim() !== '' : v !== undefined && v !== null;
  };
  if (isRemoteVcsType(getCodeType)) return has('svnGitUri') ? null : '仓库地址（svnGitUri）';
  if (isImageRepositoryType(getCodeType)) return has(IMAGE_FIELDS[0]) ? null : '镜像名称（imageNameTag）';
  if (isFtpType(getCodeType)) return has(FTP_FIELDS[0]) ? null : 'FTP 地址（ftpIp）';
  if (getCodeType === VCS_SERVER_CODE_TYPE) return has('fireFlyIp') ? null : '服务器地址（fireFlyIp）';
  if (getCodeType === CONFIG_MANAGEMENT_CODE_TYPE) return has('stream') ? null : '流（stream）';
  return null;
}

export interface CheckedForm {
  analysisModes?: string;
  outboundLicense?: string | null;
}

/**
 * Checks the parts of a (possibly partial) form that are present; `full` when creating. Returns a
 * message, or the normalised values.
 */
export async function checkForm(
  db: Kysely<Database>, dataDir: string, userId: number, form: Partial<ProjectForm>,
  ctx: { subjectId: number; getCodeType: number; projectId?: number; full: boolean; stored?: Record<string, unknown>; hasUpload?: boolean },
): Promise<string | CheckedForm> {
  const subject = await db.selectFrom('subjects').select(['id']).where('id', '=', ctx.subjectId).executeTakeFirst();
  if (!subject) return TASK_MSG.subjectMissing;
  if (!(await canAccessSubject(db, userId, ctx.subjectId))) return TASK_MSG.denied;
  if (!isCodeType(ctx.getCodeType)) return TASK_MSG.badCodeType;
  if (ctx.full || form.projectName !== undefined) {
    const problem = validateProjectName(form.projectName);
    if (problem) return problem;
    let same = db.selectFrom('projects').select('id').where('subject_id', '=', ctx.subjectId).where('name', '=', form.projectName!);
    if (ctx.projectId) same = same.where('id', '<>', ctx.projectId);
    if (await same.executeTakeFirst()) return TASK_MSG.nameTaken;
  }
  if (form.versionId) {
    const version = await db.selectFrom('subject_versions').select('id').where('id', '=', form.versionId).where('subject_id', '=', ctx.subjectId).executeTakeFirst();
    if (!version) return TASK_MSG.versionMissing;
  }
  if (isLocalUploadType(ctx.getCodeType)) {
    if (form.uploadId) {
      const upload = await findCompleteUpload(db, dataDir, form.uploadId);
      if (!upload) return TASK_MSG.uploadMissing;
      if (upload.userId !== userId && !(await isDomainAdmin(db, userId))) return TASK_MSG.uploadForeign;
    } else if (ctx.full || !ctx.hasUpload) {
      return TASK_MSG.uploadRequired;
    }
  } else {
    const missing = missingSourceField(form, ctx.getCodeType, ctx.stored ?? {});
    if (missing) return TASK_MSG.fieldRequired(labelOf(CODE_TYPE_LABEL, ctx.getCodeType), missing);
  }
  const out: CheckedForm = {};
  if (form.analysisModes !== undefined || ctx.full) {
    const modes = parseAnalysisModes(form.analysisModes ?? '1,4,7');
    if (!modes.length) return TASK_MSG.badModes;
    out.analysisModes = joinAnalysisModes(modes);
  }
  if (form.outboundLicense !== undefined) {
    const text = form.outboundLicense.trim();
    if (!text) out.outboundLicense = null;
    else {
      const expression = normalizeDeclared(text);
      if (!expression) return TASK_MSG.badLicense(text);
      out.outboundLicense = expression;
    }
  }
  return out;
}
