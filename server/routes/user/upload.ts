// The one uploaded file of the user import: multipart, field `file`, at most USER_IMPORT_MAX_BYTES,
// read into memory (the workbook is small and is read whole).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { USER_IMPORT_FILE_FIELD, USER_IMPORT_MAX_BYTES } from '../../../contract/api/user.ts';
import { fail, type Envelope } from '../../../contract/envelope.ts';
import { UserError } from '../../errors.ts';
import { USER_IMPORT_MSG } from '../../services/user-import.ts';
import { deleteUnusedUploads } from '../../db/repositories/uploads.ts';
import type { Db } from '../../db/transaction.ts';
import { removeFiles } from '../../uploads/receive.ts';
import { findCompleteUpload } from '../../uploads/store.ts';

const isTooLarge = (error: unknown) => (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';

export async function readUpload(request: FastifyRequest, reply: FastifyReply): Promise<{ name: string; buffer: Buffer } | { envelope: Envelope<null> }> {
  if (!request.isMultipart()) throw new UserError(USER_IMPORT_MSG.notMultipart);
  const tooLarge = () => {
    reply.code(413);
    return { envelope: fail(USER_IMPORT_MSG.fileTooLarge) };
  };
  try {
    const part = await request.file({ limits: { fileSize: USER_IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
    if (!part) throw new UserError(USER_IMPORT_MSG.fileMissing, 'invalid', { field: USER_IMPORT_FILE_FIELD });
    if (part.fieldname !== USER_IMPORT_FILE_FIELD) {
      part.file.resume();
      throw new UserError(USER_IMPORT_MSG.fileFieldWrong, 'invalid', { field: USER_IMPORT_FILE_FIELD });
    }
    const buffer = await part.toBuffer();
    if (part.file.truncated) return tooLarge();
    if (buffer.length === 0) throw new UserError(USER_IMPORT_MSG.fileEmpty, 'invalid', { field: USER_IMPORT_FILE_FIELD });
    const name = path.basename((part.filename ?? '').replace(/\\/g, '/')) || 'upload.xlsx';
    return { name, buffer };
  } catch (error) {
    if (isTooLarge(error)) return tooLarge();
    throw error;
  }
}

/**
 * The caller's own completed chunked upload (contract importUpload), read into memory and then
 * consumed: its row and file go whatever the import makes of it.
 */
export async function takeUpload(db: Db, dataDir: string, userId: number, uploadId: string): Promise<{ name: string; buffer: Buffer }> {
  const upload = await findCompleteUpload(db, dataDir, uploadId);
  if (!upload) throw new UserError(USER_IMPORT_MSG.uploadMissing, 'not-found', { field: 'uploadId' });
  if (upload.userId !== userId) throw new UserError(USER_IMPORT_MSG.notYourUpload, 'denied', { field: 'uploadId' });
  try {
    if (upload.size > USER_IMPORT_MAX_BYTES) throw new UserError(USER_IMPORT_MSG.fileTooLarge, 'invalid', { field: 'uploadId' });
    if (upload.size === 0) throw new UserError(USER_IMPORT_MSG.fileEmpty, 'invalid', { field: 'uploadId' });
    return { name: path.basename(upload.fileName.replace(/\\/g, '/')) || 'upload.xlsx', buffer: await readFile(upload.path) };
  } finally {
    for (const id of await deleteUnusedUploads(db, [uploadId])) await removeFiles(dataDir, id);
  }
}
