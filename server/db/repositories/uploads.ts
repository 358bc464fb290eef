// Upload rows: one per chunked, resumable upload (its files are server/uploads/store.ts's).
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { UploadState, UploadStatus } from '../../../contract/api/upload.ts';
import type { UploadsTable } from '../schema.ts';
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';

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

export async function insertUpload(db: Db, input: { userId: number; fileName: string; size: number; sha256?: string }): Promise<UploadRow> {
  const now = nowIso();
  const id = randomUUID();
  await db.insertInto('uploads').values({
    id, user_id: input.userId, file_name: input.fileName, size: input.size, received: 0,
    status: 'receiving', sha256: input.sha256?.toLowerCase() ?? null, created_at: now, updated_at: now,
  }).execute();
  return { id, userId: input.userId, fileName: input.fileName, size: input.size, received: 0, status: 'receiving', sha256: input.sha256?.toLowerCase() ?? null };
}

export async function findUpload(db: Db, id: string): Promise<UploadRow | null> {
  if (!isUploadId(id)) return null;
  const row = await db.selectFrom('uploads').select(['id', 'user_id', 'file_name', 'size', 'received', 'status', 'sha256']).where('id', '=', id).executeTakeFirst();
  return row ? toRow(row) : null;
}

/**
 * Moves `received` from `from` to `to` (and optionally the status), only if nobody else moved it
 * first: the row is the truth about what is on disk, so a lost race must not overwrite it.
 */
export async function advanceUpload(db: Db, id: string, from: number, to: number, status: UploadStatus = 'receiving'): Promise<boolean> {
  const result = await db.updateTable('uploads')
    .set({ received: to, status, updated_at: nowIso() })
    .where('id', '=', id).where('received', '=', from).where('status', '=', 'receiving')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setUploadStatus(db: Db, id: string, status: UploadStatus): Promise<void> {
  await db.updateTable('uploads').set({ status, updated_at: nowIso() }).where('id', '=', id).execute();
}

/** Whether a project reads from the upload. */
export async function uploadInUse(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('projects').select('id').where('upload_id', '=', id).executeTakeFirst()) !== undefined;
}

/** Deletes the rows of those uploads no project reads from any more; their ids (the caller removes the files). */
export async function deleteUnusedUploads(db: Db, ids: string[]): Promise<string[]> {
  const unused: string[] = [];
  for (const id of new Set(ids)) {
    if (await uploadInUse(db, id)) continue;
    await db.deleteFrom('uploads').where('id', '=', id).execute();
    unused.push(id);
  }
  return unused;
}

/**
 * Cancels the uploads still receiving that no chunk has moved since `cutoff`; their ids. One
 * conditional update: a chunk arriving meanwhile moves updated_at and keeps its upload.
 */
export async function cancelIdleUploads(db: Db, cutoff: string): Promise<string[]> {
  const swept = await db.updateTable('uploads').set({ status: 'cancelled', updated_at: nowIso() })
    .where('status', '=', 'receiving').where('updated_at', '<', cutoff)
    .returning('id').execute();
  return swept.map((r) => r.id);
}
