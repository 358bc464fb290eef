// Where uploads live. A file being received is `<dataDir>/uploads/<id>.part`; once complete it is
// renamed to `<dataDir>/uploads/<id>`, the path the analysis pipeline reads. Their rows are
// db/repositories/uploads.ts's.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { findUpload, isUploadId } from '../db/repositories/uploads.ts';
import type { Db } from '../db/transaction.ts';

export const uploadsDir = (dataDir: string): string => path.join(dataDir, 'uploads');

/** The completed file of an upload. */
export function uploadPath(dataDir: string, id: string): string {
  if (!isUploadId(id)) throw new Error(`无效的上传标识：${id.slice(0, 40)}`);
  return path.join(uploadsDir(dataDir), id);
}

/** The file an upload is received into. */
export const partPath = (dataDir: string, id: string): string => `${uploadPath(dataDir, id)}.part`;

/**
 * A completed upload for the analysis pipeline: its row says complete and its file is there.
 * Ownership is the caller's check (`userId`).
 */
export async function findCompleteUpload(db: Db, dataDir: string, id: string): Promise<{ id: string; fileName: string; size: number; path: string; userId: number | null } | null> {
  const row = await findUpload(db, id);
  if (!row || row.status !== 'complete') return null;
  const file = uploadPath(dataDir, id);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile() || info.size !== row.size) return null;
  return { id: row.id, fileName: row.fileName, size: row.size, path: file, userId: row.userId };
}
