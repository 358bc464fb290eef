// Checks a new-project or edit form before anything is written, with the message a user can act
// on (a UserError naming the form field where there is one), and turns it into the stored values.
import { X509Certificate } from 'node:crypto';
import type { ProjectForm } from '../../contract/api/task.ts';
import {
  CODE_TYPE_LABEL, FTP_FIELDS, IMAGE_FIELDS, isCodeType, isContainerRegistryType, isFtpType, isImageUploadType, isImageRepositoryType, isLocalUploadType, isRemoteVcsType,
  isAnalysisModeOffered, joinAnalysisModes, labelOf, parseAnalysisModes, VCS_SERVER_CODE_TYPE, CONFIG_MANAGEMENT_CODE_TYPE,
} from '../../contract/enums.ts';
import { validateCaPemText, validateImagePlatform, validateProjectName } from '../../contract/validation.ts';
import { projectNameTaken } from '../db/repositories/projects.ts';
import { canAccessSubject, seesAllSubjects } from '../db/repositories/subject-access.ts';
import { subjectHead } from '../db/repositories/subjects.ts';
import { findVersion } from '../db/repositories/subject-versions.ts';
import type { Db } from '../db/transaction.ts';
import { normalizeDeclared, parseImageReference } from '../engine/index.ts';
import { UserError } from '../errors.ts';
import { findCompleteUpload } from '../uploads/store.ts';
import { TASK_MSG } from './task-messages.ts';

/** A field a remote source type cannot do without (the rest of its form is optional): its key and how the message names it. */
function missingSourceField(form: Partial<ProjectForm>, getCodeType: number, stored: Record<string, unknown>): { key: string; label: string } | null {
  const has = (key: string) => {
    const v = (form as Record<string, unknown>)[key] ?? stored[key];
    return typeof v === 'string' ? v.trim() !== '' : v !== undefined && v !== null;
  };
  const need = (key: string, label: string) => (has(key) ? null : { key, label });
  if (isRemoteVcsType(getCodeType)) return need('svnGitUri', '仓库地址（svnGitUri）');
  if (isImageRepositoryType(getCodeType)) return need(IMAGE_FIELDS[0], '镜像名称（imageNameTag）');
  if (isFtpType(getCodeType)) return need(FTP_FIELDS[0], 'FTP 地址（ftpIp）');
  if (getCodeType === VCS_SERVER_CODE_TYPE) return need('fireFlyIp', '服务器地址（fireFlyIp）');
  if (getCodeType === CONFIG_MANAGEMENT_CODE_TYPE) return need('stream', '流（stream）');
  return null;
}

/** The registry options of the form (a container registry type), as given; refused with the field to mark. */
export function checkRegistryOptions(form: Pick<Partial<ProjectForm>, 'imageNameTag' | 'imageCaPem' | 'imagePlatform'>): void {
  if (form.imageNameTag !== undefined && form.imageNameTag.trim() !== '') {
    try {
      parseImageReference(form.imageNameTag);
    } catch (error) {
      throw new UserError((error as Error).message, 'invalid', { field: 'imageNameTag' });
    }
  }
  const platform = validateImagePlatform(form.imagePlatform);
  if (platform) throw new UserError(platform, 'invalid', { field: 'imagePlatform' });
  const pem = validateCaPemText(form.imageCaPem);
  if (pem) throw new UserError(pem, 'invalid', { field: 'imageCaPem' });
  // the contract checks the shape; each certificate must also parse
  for (const block of form.imageCaPem?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    try {
      new X509Certificate(block);
    } catch {
      throw new UserError('CA 证书无效：PEM 内容无法解析为 X.509 证书', 'invalid', { field: 'imageCaPem' });
    }
  }
}

export interface CheckedForm {
  analysisModes?: string;
  outboundLicense?: string | null;
}

/**
 * Checks the parts of a (possibly partial) form that are present; `full` when creating. Answers
 * the normalised values; a refused form is a UserError.
 */
export async function checkForm(
  db: Db, dataDir: string, userId: number, form: Partial<ProjectForm>,
  ctx: { subjectId: number; getCodeType: number; projectId?: number; full: boolean; stored?: Record<string, unknown>; hasUpload?: boolean },
): Promise<CheckedForm> {
  if (!(await subjectHead(db, ctx.subjectId))) throw new UserError(TASK_MSG.subjectMissing, 'not-found', { field: 'subjectId' });
  if (!(await canAccessSubject(db, userId, ctx.subjectId))) throw UserError.denied();
  if (!isCodeType(ctx.getCodeType)) throw new UserError(TASK_MSG.badCodeType, 'invalid', { field: 'getCodeType' });
  if (ctx.full || form.projectName !== undefined) {
    const problem = validateProjectName(form.projectName);
    if (problem) throw new UserError(problem, 'invalid', { field: 'projectName' });
    if (await projectNameTaken(db, ctx.subjectId, form.projectName!, ctx.projectId)) throw new UserError(TASK_MSG.nameTaken, 'conflict', { field: 'projectName' });
  }
  if (form.versionId) {
    const version = await findVersion(db, form.versionId);
    if (version?.subjectId !== ctx.subjectId) throw new UserError(TASK_MSG.versionMissing, 'not-found', { field: 'versionId' });
  }
  if (isLocalUploadType(ctx.getCodeType)) {
    if (form.uploadId) {
      const upload = await findCompleteUpload(db, dataDir, form.uploadId);
      if (!upload) throw new UserError(TASK_MSG.uploadMissing, 'not-found', { field: 'uploadId' });
      if (upload.userId !== userId && !(await seesAllSubjects(db, userId))) throw new UserError(TASK_MSG.uploadForeign, 'invalid', { field: 'uploadId' });
    } else if (ctx.full || !ctx.hasUpload) {
      throw new UserError(TASK_MSG.uploadRequired, 'invalid', { field: 'uploadId' });
    }
    // Whether the upload offers it is checked at launch (upload-check.ts), where the upload is read.
    if (isImageUploadType(ctx.getCodeType)) {
      const platform = validateImagePlatform(form.imagePlatform);
      if (platform) throw new UserError(platform, 'invalid', { field: 'imagePlatform' });
    }
  } else {
    const missing = missingSourceField(form, ctx.getCodeType, ctx.stored ?? {});
    if (missing) throw new UserError(TASK_MSG.fieldRequired(labelOf(CODE_TYPE_LABEL, ctx.getCodeType), missing.label), 'invalid', { field: missing.key });
    if (isContainerRegistryType(ctx.getCodeType)) checkRegistryOptions(form);
  }
  const out: CheckedForm = {};
  if (form.analysisModes !== undefined || ctx.full) {
    // a mode the engine does not run yet cannot be chosen: it is dropped, never stored
    const modes = parseAnalysisModes(form.analysisModes ?? '1,4,7').filter(isAnalysisModeOffered);
    if (!modes.length) throw new UserError(TASK_MSG.badModes, 'invalid', { field: 'analysisModes' });
    out.analysisModes = joinAnalysisModes(modes);
  }
  if (form.outboundLicense !== undefined) {
    const text = form.outboundLicense.trim();
    if (!text) out.outboundLicense = null;
    else {
      const expression = normalizeDeclared(text);
      if (!expression) throw new UserError(TASK_MSG.badLicense(text), 'invalid', { field: 'outboundLicense' });
      out.outboundLicense = expression;
    }
  }
  return out;
}
