// Before a launch is answered 任务发起成功！: the upload it analyses is read through with the
// analysis's own archive readers and limits (engine verifyArchive, in a worker thread off the
// event loop), so a fake, truncated, damaged, oversized or empty archive is refused in the
// launch's answer, in Chinese, and nothing is created. A source type whose input is a list (SBOM,
// Excel) or that cannot be analysed yet is not checked here (its import or checkLaunchable refuses
// it). A completed upload never changes: it is read through once, in the background as soon as
// its last byte arrives (checkUploadSoon), and the launch awaits that answer.
import { isImageUploadType } from '../../contract/enums.ts';
import { inputKindOf, isArchiveName } from '../../contract/sources.ts';
import type { Db } from '../db/transaction.ts';
import { choosePlatform, describeSbomAt, detectImage, ImageError, imagePlatforms, sbomNotArchiveMessage, verifyArchiveInWorker } from '../engine/index.ts';
import { isUserError, UserError } from '../errors.ts';
import { workRoot } from '../jobs/leftovers.ts';
import { findCompleteUpload } from '../uploads/store.ts';
import { TASK_MSG } from './task-messages.ts';

/** What reading an upload through found: whether it is an archive at all, and the refusal if any. */
interface Outcome {
  archive: boolean;
  refusal: string | null;
  /** The kind of Cairn feature file it is, null for any other file. */
  feature: 'source' | 'image' | null;
}

/** Outcomes per upload (`<id>:<size>`), in flight or settled; the oldest dropped first. */
const outcomes = new Map<string, Promise<Outcome>>();
const MAX_OUTCOMES = 1000;

type CompleteUpload = { id: string; size: number; path: string; fileName: string };

function outcomeOf(upload: CompleteUpload, dataDir: string): Promise<Outcome> {
  const key = `${upload.id}:${upload.size}`;
  let outcome = outcomes.get(key);
  if (!outcome) {
    outcome = verify(upload, dataDir);
    outcomes.set(key, outcome);
    // A failure that is not the archive's (the thread died, the file went) is not kept.
    outcome.catch(() => outcomes.delete(key));
    if (outcomes.size > MAX_OUTCOMES) outcomes.delete(outcomes.keys().next().value!);
  }
  return outcome;
}

async function verify(upload: CompleteUpload, dataDir: string): Promise<Outcome> {
  try {
    const verified = await verifyArchiveInWorker(upload.path, { name: upload.fileName, tempDir: workRoot(dataDir) });
    return { archive: verified !== null, refusal: null, feature: verified?.feature?.kind ?? null };
  } catch (error) {
    if (isUserError(error)) return { archive: true, refusal: TASK_MSG.badArchive(upload.fileName, error.message), feature: null };
    throw error;
  }
}

/**
 * Starts reading a just-completed upload through in the background, so that by the time the
 * user has filled in the form and launches, the answer is ready (a large archive takes a while).
 */
export function checkUploadSoon(dataDir: string, upload: CompleteUpload): void {
  outcomeOf(upload, dataDir).catch(() => {});
}

/**
 * Refuses (UserError on the form's uploadId) an upload a run of this source type could not
 * analyse: not an archive when the type or the file's name needs one, an archive that is
 * unsupported, damaged, over a limit or has no file in it.
 */
export async function checkUploadInput(db: Db, dataDir: string, getCodeType: number, uploadId: string | null, platform?: string): Promise<void> {
  const kind = inputKindOf(getCodeType);
  if (uploadId && getCodeType === IMAGE_FEATURE_TYPE) return checkImageFeatureUpload(db, dataDir, uploadId);
  if (uploadId && kind === 'image') return checkImageUpload(db, dataDir, uploadId, isImageUploadType(getCodeType) ? platform : undefined);
  if (!uploadId || (kind !== 'source' && kind !== 'feature' && kind !== 'binary')) return;
  const upload = await findCompleteUpload(db, dataDir, uploadId);
  if (!upload) throw new UserError(TASK_MSG.uploadMissing, 'not-found', { field: 'uploadId' });
  const { archive, refusal, feature } = await outcomeOf(upload, dataDir);
  if (refusal !== null) throw new UserError(refusal, 'invalid', { field: 'uploadId' });
  // A feature file analysed as a tree would show its own packing (tree/, the manifest), not the
  // project; an image's is read only by 镜像特征文件.
  if (feature === 'image') throw new UserError(TASK_MSG.imageFeatureFile(upload.fileName), 'invalid', { field: 'uploadId' });
  if (feature && kind !== 'feature') throw new UserError(TASK_MSG.featureFileElsewhere(upload.fileName), 'invalid', { field: 'uploadId' });
  if (!archive && (kind === 'source' || isArchiveName(upload.fileName))) {
    // An SBOM given as a source archive is named as the SBOM it is.
    const sbom = await describeSbomAt(upload.path, upload.fileName).catch(() => null);
    throw new UserError(sbom ? sbomNotArchiveMessage(upload.fileName, sbom) : TASK_MSG.notArchive(upload.fileName), 'invalid', { field: 'uploadId' });
  }
}

/**
 * An image upload must be an image (its layers are checked while they are applied, layer by
 * layer) offering the platform the form names (`platform`; none: linux/amd64, or its only one).
 */
async function checkImageUpload(db: Db, dataDir: string, uploadId: string, platform: string | undefined): Promise<void> {
  const upload = await findCompleteUpload(db, dataDir, uploadId);
  if (!upload) throw new UserError(TASK_MSG.uploadMissing, 'not-found', { field: 'uploadId' });
  const platforms = await platformsOf(upload, dataDir);
  try {
    await choosePlatform(platforms, platform?.trim() || undefined);
  } catch (error) {
    if (error instanceof ImageError) throw new UserError(TASK_MSG.imagePlatformMissing(upload.fileName, error.message), 'invalid', { field: 'imagePlatform' });
    throw error;
  }
}

/** Platforms per image upload (`<id>:<size>`), in flight or settled; the oldest dropped first. */
const platformLists = new Map<string, Promise<string[]>>();

/**
 * The platforms an uploaded image offers, read from its index and manifests (no layer; a
 * gzip-compressed tar is decompressed once under the work folder). Not an image: UserError on
 * the form's uploadId. A completed upload never changes, so the answer is kept.
 */
export async function platformsOf(upload: CompleteUpload, dataDir: string): Promise<string[]> {
  const key = `${upload.id}:${upload.size}`;
  let list = platformLists.get(key);
  if (!list) {
    list = readPlatforms(upload, dataDir);
    platformLists.set(key, list);
    list.catch(() => platformLists.delete(key));
    if (platformLists.size > MAX_OUTCOMES) platformLists.delete(platformLists.keys().next().value!);
  }
  return list;
}

async function readPlatforms(upload: CompleteUpload, dataDir: string): Promise<string[]> {
  if (!(await detectImage(upload.path))) {
    // A feature file (of an image or of a source tree) is not an image: its own source type reads it.
    const { feature } = await outcomeOf(upload, dataDir).catch(() => ({ feature: null }));
    throw new UserError(feature === 'image' ? TASK_MSG.imageFeatureFile(upload.fileName) : TASK_MSG.notImage(upload.fileName), 'invalid', { field: 'uploadId' });
  }
  try {
    const platforms = await imagePlatforms(upload.path, workRoot(dataDir));
    if (!platforms.length) throw new ImageError('not-image', '镜像中没有可用的镜像清单');
    return platforms;
  } catch (error) {
    if (error instanceof ImageError) throw new UserError(TASK_MSG.badArchive(upload.fileName, error.message), 'invalid', { field: 'uploadId' });
    throw error;
  }
}

/** 镜像特征文件: the upload must be an image's feature file, read through whole (manifest, hashes, image block) before the launch. */
const IMAGE_FEATURE_TYPE = 32;

async function checkImageFeatureUpload(db: Db, dataDir: string, uploadId: string): Promise<void> {
  const upload = await findCompleteUpload(db, dataDir, uploadId);
  if (!upload) throw new UserError(TASK_MSG.uploadMissing, 'not-found', { field: 'uploadId' });
  const refuse = (message: string) => new UserError(message, 'invalid', { field: 'uploadId' });
  if (await detectImage(upload.path)) throw refuse(TASK_MSG.imageNotFeature(upload.fileName));
  const { refusal, feature } = await outcomeOf(upload, dataDir);
  if (refusal !== null) throw refuse(refusal);
  if (feature === 'source') throw refuse(TASK_MSG.featureFileElsewhere(upload.fileName));
  if (feature !== 'image') throw refuse(TASK_MSG.notImageFeature(upload.fileName));
}
