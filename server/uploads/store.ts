// Where uploads live and their rows. A file being received is `<dataDir>/uploads/<id>.part`; once
// complete it is renamed to `<dataDir>/uploads/<id>`, the path the analysis pipeline reads.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely, Selectable } from 'kysely';
import type { UploadState, UploadStatus } from '../../contract/api/upload.ts';
import type { Database, UploadsTable } from '../db/schema.ts';
import { nowIso } from '../db/time.ts';

export interface UploadRow {
  id: string;
  userId: number | null;
  fileName: string;
  size: number;
  received: number;
  status: UploadStatus;
  sha256: string | null;
}

/** Upload ids are UUIDs: anything else never names a file under the uploads folder. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isUploadId = (id: string): boolean => UUID.test(id);

export const uploadsDir = (dataDir: string): string => path.join(dataDir, 'uploads');

/** The completed file of an upload. */
export function uploadPath(dataDir: string, id: string): string {
  if (!isUploadId(id)) throw new Error(`无效的上传标识：${id.slice(0, 40)}`);
  return path.join(uploadsDir(dataDir), id);
}

/** The file an upload is received into. */
export const partPath = (dataDir: string, id: string): string => `${uploadPath(dataDir, id)}.part`;

type Row = Pick<Selectable<UploadsTable>, 'id' | 'user_id' | 'file_name' | 'size' | 'received' | 'status' | 'sha256'>;

function toRow(row: Row): UploadRow {
  return {
    id: row.id,
    userId: row.user_id === null ? null : Number(row.user_id),
    fileName: row.file_name,
    // PostgreSQL answers bigint as a string.
    size: Number(row.size),
    received: Number(row.received),
    status: row.status,
    sha256: row.sha256,
  };
}

export const toUploadState = (row: UploadRow): UploadState => ({
  uploadId: row.id,
  fileName: row.fileName,
  size: row.size,
  received: row.received,
  status: row.status,
});

export async function insertUpload(db: Kysely<Database>, input: { userId: number; fileName: string; size: number; sha256?: string }): Promise<UploadRow> {
  const now = nowIso();
  const id = randomUUID();
  await db.insertInto('uploads').values({
    id, user_id: input.userId, file_name: input.fileName, size: input.size, received: 0,
    status: 'receiving', sha256: input.sha256?.toLowerCase() ?? null, created_at: now, updated_at: now,
  }).execute();
  return { id, userId: input.userId, fileName: input.fileName, size: input.size, received: 0, status: 'receiving', sha256: input.sha256?.toLowerCase() ?? null };
}

export async function findUpload(db: Kysely<Database>, id: string): Promise<UploadRow | null> {
  if (!isUploadId(id)) return null;
  const row = await db.selectFrom('uploads').select(['id', 'user_id', 'file_name', 'size', 'received', 'status', 'sha256']).where('id', '=', id).executeTakeFirst();
  return row ? toRow(row) : null;
}

/**
 * Moves `received` from `from` to `to` (and optionally the status), only if nobody else moved it
 * first: the row is the truth about what is on disk, so a lost race must not overwrite it.
 */
export async function advanceUpload(db: Kysely<Database>, id: string, from: number, to: number, status: UploadStatus = 'receiving'): Promise<boolean> {
  const result = await db.updateTable('uploads')
    .set({ received: to, status, updated_at: nowIso() })
    .where('id', '=', id).where('received', '=', from).where('status', '=', 'receiving')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setUploadStatus(db: Kysely<Database>, id: string, status: UploadStatus): Promise<void> {
  await db.updateTable('uploads').set({ status, updated_at: nowIso() }).where('id', '=', id).execute();
}

/**
 * A completed upload for the analysis pipeline: its row says complete and its file is there.
 * Ownership is the caller's check (`userId`).
 */
export async function findCompleteUpload(db: Kysely<Database>, dataDir: string, id: string): Promise<{ id: string; fileName: string; size: number; path: string; userId: number | null } | null> {
  const row = await findUpload(db, id);
  if (!row || row.status !== 'complete') return null;
  const file = uploadPath(dataDir, id);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile() || info.size !== row.size) return null;
  return { id: row.id, fileName: row.fileName, size: row.size, path: file, userId: row.userId };
}
