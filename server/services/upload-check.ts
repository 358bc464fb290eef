// Before a launch is answered 任务发起成功！: the upload it analyses is read through with the
// analysis's own archive readers and limits (engine verifyArchive, in a worker thread off the
// event loop), so a fake, truncated, damaged, oversized or empty archive is refused in the
// launch's answer, in Chinese, and nothing is created. A source type whose input is a list (SBOM,
// Excel) or that cannot be analysed yet is not checked here (its import or checkLaunchable refuses
// it). A completed upload never changes, so a verdict is kept per upload for this process:
// launching the same upload again costs nothing.
import { inputKindOf, isArchiveName } from '../../contract/sources.ts';
import type { Db } from '../db/transaction.ts';
import { verifyArchiveInWorker } from '../engine/index.ts';
import { isUserError, UserError } from '../errors.ts';
import { workRoot } from '../jobs/leftovers.ts';
import { findCompleteUpload } from '../uploads/store.ts';
import { TASK_MSG } from './task-messages.ts';

/** Verdicts per upload (`<id>:<size>`): null when accepted, else the refusal. Oldest dropped first. */
const verdicts = new Map<string, string | null>();
const MAX_VERDICTS = 1000;

function remember(key: string, verdict: string | null): void {
  verdicts.set(key, verdict);
  if (verdicts.size > MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
}

/**
 * Refuses (UserError on the form's uploadId) an upload a run of this source type could not
 * analyse: not an archive when the type or the file's name needs one, an archive that is
 * unsupported, damaged, over a limit or has no file in it.
 */
export async function checkUploadInput(db: Db, dataDir: string, getCodeType: number, uploadId: string | null): Promise<void> {
  const kind = inputKindOf(getCodeType);
  if (!uploadId || (kind !== 'source' && kind !== 'feature' && kind !== 'binary')) return;
  const upload = await findCompleteUpload(db, dataDir, uploadId);
  if (!upload) throw new UserError(TASK_MSG.uploadMissing, 'not-found', { field: 'uploadId' });
  const key = `${upload.id}:${upload.size}:${kind}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    verdict = await verdictOf(upload.path, upload.fileName, kind, dataDir);
    remember(key, verdict);
  }
  if (verdict !== null) throw new UserError(verdict, 'invalid', { field: 'uploadId' });
}

async function verdictOf(file: string, fileName: string, kind: 'source' | 'feature' | 'binary', dataDir: string): Promise<string | null> {
  try {
    const verified = await verifyArchiveInWorker(file, { name: fileName, tempDir: workRoot(dataDir) });
    if (verified === null && (kind === 'source' || isArchiveName(fileName))) return TASK_MSG.notArchive(fileName);
    return null;
  } catch (error) {
    if (isUserError(error)) return TASK_MSG.badArchive(fileName, error.message);
    throw error;
  }
}
