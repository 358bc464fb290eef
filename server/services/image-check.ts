// The 校验 of a container registry project's form (POST /api/analysis/imageCheck): the form's
// image reference, credentials and options tried against the registry with checkRegistryAccess
// (the manifest only, no layer), answering the digest and platforms, or the registry's refusal in
// Chinese (a UserError; the password never in it). Editing a project, an empty password uses the
// one it stores. Credentials typed into the reference are taken out as a save would. Also the
// platforms of an uploaded image (本地镜像文件), for the same 平台 select.
import type { ProjectForm } from '../../contract/api/task.ts';
import { defaultImagePlatform, isContainerRegistryType, isImageUploadType } from '../../contract/enums.ts';
import type { Db } from '../db/transaction.ts';
import { checkRegistryAccess, formatImageReference, parseImageReference } from '../engine/index.ts';
import { seesAllSubjects } from '../db/repositories/subject-access.ts';
import { UserError } from '../errors.ts';
import { findCompleteUpload } from '../uploads/store.ts';
import { decryptSecret } from '../secrets.ts';
import { checkRegistryOptions } from './project-form.ts';
import { projectFor } from './projects.ts';
import { TASK_MSG } from './task-messages.ts';
import { platformsOf } from './upload-check.ts';
import { projectFormWithoutUrlCredentials } from './url-credentials.ts';

/** No answer for this long ends one request of the check (a pull waits longer). */
const CHECK_TIMEOUT_MS = 15_000;

export type ImageCheckForm = Pick<ProjectForm, 'imageUsername' | 'imagePassword' | 'imageCaPem' | 'imageInsecure' | 'imagePlatform'> & {
  getCodeType: number;
  projectId?: number;
  imageNameTag: string;
};

export interface ImageCheckResult {
  reference: string;
  manifestDigest: string;
  platforms: string[];
  platform: string | null;
  message: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export async function checkImageAccess(db: Db, dataDir: string, userId: number, typed: ImageCheckForm, signal?: AbortSignal): Promise<ImageCheckResult> {
  if (!isContainerRegistryType(typed.getCodeType)) throw new UserError(TASK_MSG.notRegistry, 'invalid', { field: 'getCodeType' });
  const form = projectFormWithoutUrlCredentials(typed);
  checkRegistryOptions(form);
  const reference = formatImageReference(parseImageReference(form.imageNameTag));
  let password = form.imagePassword || undefined;
  let username = text(form.imageUsername);
  if (form.projectId !== undefined) {
    // only a project the caller may see lends its stored password
    const project = await projectFor(db, userId, form.projectId);
    const stored = JSON.parse(project.source) as Record<string, unknown>;
    if (password === undefined && isContainerRegistryType(project.get_code_type) && text(stored.imagePassword)) {
      // The stored password goes only where it was saved for: the same registry host, and not in
      // clear text when the project does not allow HTTP. Otherwise anyone who can see the project
      // could send its password to a host of their own.
      const storedRegistry = storedRegistryOf(stored.imageNameTag);
      if (storedRegistry !== parseImageReference(form.imageNameTag).registry || (form.imageInsecure === true && stored.imageInsecure !== true)) {
        throw new UserError(TASK_MSG.storedPasswordElsewhere, 'invalid', { field: 'imagePassword' });
      }
      try {
        password = decryptSecret(dataDir, stored.imagePassword as string);
      } catch {
        throw new UserError(TASK_MSG.storedPasswordUnreadable, 'invalid', { field: 'imagePassword' });
      }
    }
    username ??= form.imageUsername === undefined ? text(stored.imageUsername) : undefined;
  }
  const platform = text(form.imagePlatform);
  const found = await checkRegistryAccess(reference, {
    auth: username !== undefined || password !== undefined ? { username, password } : undefined,
    caPem: text(form.imageCaPem),
    insecureHttp: form.imageInsecure === true,
    platform,
    timeoutMs: CHECK_TIMEOUT_MS,
    signal,
  });
  const pulled = platform ?? defaultImagePlatform(found.platforms);
  return {
    reference,
    manifestDigest: found.manifestDigest,
    platforms: found.platforms,
    platform: pulled,
    message: pulled ? TASK_MSG.imageChecked(reference, pulled, found.platforms) : TASK_MSG.imageChoosePlatform(reference, found.platforms),
  };
}

/** The registry host of a stored image reference; null when none is stored or it does not parse. */
function storedRegistryOf(value: unknown): string | null {
  const reference = text(value);
  if (!reference) return null;
  try {
    return parseImageReference(reference).registry;
  } catch {
    return null;
  }
}

/**
 * The platforms of an uploaded image (本地镜像文件) for the form's 平台 select (POST
 * /api/analysis/imageUploadPlatforms), with the message the form shows. The upload must be the
 * caller's (or the caller a domain admin), or the stored upload of a project the caller may see.
 */
export async function uploadedImagePlatforms(
  db: Db, dataDir: string, userId: number, body: { getCodeType: number; uploadId: string; projectId?: number },
): Promise<{ platforms: string[]; platform: string | null; message: string }> {
  if (!isImageUploadType(body.getCodeType)) throw new UserError(TASK_MSG.notImageUpload, 'invalid', { field: 'getCodeType' });
  const upload = await findCompleteUpload(db, dataDir, body.uploadId);
  if (!upload) throw new UserError(TASK_MSG.uploadMissing, 'not-found', { field: 'uploadId' });
  const ownsIt = upload.userId === userId || (await seesAllSubjects(db, userId));
  const storedOfProject = body.projectId !== undefined && (await projectFor(db, userId, body.projectId)).upload_id === upload.id;
  if (!ownsIt && !storedOfProject) throw new UserError(TASK_MSG.uploadForeign, 'invalid', { field: 'uploadId' });
  const platforms = await platformsOf(upload, dataDir);
  const platform = defaultImagePlatform(platforms);
  return { platforms, platform, message: TASK_MSG.imageUploadPlatforms(platforms, platform) };
}
