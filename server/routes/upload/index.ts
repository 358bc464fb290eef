// Upload area handlers (issue 6): chunked, resumable uploads (contract/api/upload.ts). Only the
// user who created an upload may see, fill or cancel it.
import { Readable } from 'node:stream';
import { UPLOAD_CHUNK_MAX_BYTES, uploadCalls } from '../../../contract/api/upload.ts';
import { ok, ResultCode } from '../../../contract/envelope.ts';
import { formatFileSize } from '../../../contract/format.ts';
import type { ServerContext } from '../../context.ts';
import { advanceUpload, findUpload, insertUpload, setUploadStatus, toUploadState, uploadInUse, type UploadRow } from '../../db/repositories/uploads.ts';
import { UserError } from '../../errors.ts';
import { maxUploadBytes } from '../../uploads/limits.ts';
import { ChunkTooLarge, appendChunk, partSize, finishFile, removeFiles, sha256OfFile, truncatePart } from '../../uploads/receive.ts';
import { partPath, uploadPath } from '../../uploads/store.ts';
import { checkUploadSoon } from '../../services/upload-check.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';

const UPLOAD_MSG = {
  notFound: '上传不存在或已被删除',
  forbidden: '无权访问该上传',
  badName: '文件名不能包含路径分隔符或控制字符',
  tooLarge: (limit: number) => `文件过大：平台允许上传的最大文件为 ${formatFileSize(limit)}`,
  wrongOffset: (received: number) => `上传位置不一致：平台已接收 ${received} 字节，请从该位置继续上传`,
  chunkTooLarge: `数据块过大：每个数据块最多 ${formatFileSize(UPLOAD_CHUNK_MAX_BYTES)}`,
  beyondSize: '数据块超出了文件声明的大小',
  busy: '该上传正在接收另一个数据块，请稍后重试',
  notOctetStream: '数据块必须以 application/octet-stream 格式发送',
  complete: '该上传已完成，无需继续上传',
  cancelled: '该上传已取消',
  interrupted: '数据块未完整接收，请从已接收的位置重新上传',
  checksum: '文件校验失败（SHA-256 不一致），已接收的数据已清除，请重新上传',
  created: '上传已开始',
  received: '数据块已接收',
  finished: '上传完成',
  cancelledOk: '上传已取消',
  inUse: '该文件已被项目使用，不能取消',
} as const;

/** One chunk at a time per upload in this process: two writers at one offset would interleave. */
const busy = new Set<string>();

/** Names only: no folder part, no `.`/`..`, no control characters. */
const isBareName = (name: string): boolean => !/[/\\]/.test(name) && !/[\p{Cc}]/u.test(name) && name.trim() !== '' && name !== '.' && name !== '..';

function uploadAreaHandlers({ db, dataDir }: ServerContext): AreaHandlers<typeof uploadCalls> {
  /** The caller's upload; not found, or someone else's (HTTP 403), is a UserError. */
  async function owned(id: string, userId: number): Promise<UploadRow> {
    const row = await findUpload(db, id);
    if (!row) throw new UserError(UPLOAD_MSG.notFound, 'not-found');
    if (row.userId !== userId) throw new UserError(UPLOAD_MSG.forbidden, 'denied');
    return row;
  }

  /** A failure that still tells the client where the upload stands. */
  const failWith = (message: string, row: UploadRow) => ({ code: ResultCode.FAILURE, message, data: toUploadState(row) });

  return {
    async create({ request, body }) {
      const { userId } = signedIn(request);
      if (!isBareName(body.fileName)) throw new UserError(UPLOAD_MSG.badName, 'invalid', { field: 'fileName' });
      const limit = maxUploadBytes();
      if (body.size > limit) throw new UserError(UPLOAD_MSG.tooLarge(limit), 'invalid', { field: 'size' });
      const row = await insertUpload(db, { userId, fileName: body.fileName.trim(), size: body.size, sha256: body.sha256 });
      return ok(toUploadState(row), UPLOAD_MSG.created);
    },

    async chunk({ request, params, query }) {
      const { userId } = signedIn(request);
      let row = await owned(params.uploadId, userId);
      if (row.status === 'complete') return failWith(UPLOAD_MSG.complete, row);
      if (row.status === 'cancelled') return failWith(UPLOAD_MSG.cancelled, row);
      if (query.offset !== row.received) return failWith(UPLOAD_MSG.wrongOffset(row.received), row);
      const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
      if (declared !== null && declared > UPLOAD_CHUNK_MAX_BYTES) return failWith(UPLOAD_MSG.chunkTooLarge, row);
      const remaining = row.size - row.received;
      if (declared !== null && declared > remaining) return failWith(UPLOAD_MSG.beyondSize, row);
      if (busy.has(row.id)) return failWith(UPLOAD_MSG.busy, row);
      if (!(request.body instanceof Readable)) return failWith(UPLOAD_MSG.notOctetStream, row);
      // The .part file lost bytes the row counts (disk restored, file removed by hand): start over
      // rather than pad it with zeros.
      if ((await partSize(dataDir, row.id)) < row.received) {
        await removeFiles(dataDir, row.id);
        await advanceUpload(db, row.id, row.received, 0);
        return failWith(UPLOAD_MSG.wrongOffset(0), { ...row, received: 0 });
      }

      busy.add(row.id);
      try {
        let written: number;
        try {
          written = await appendChunk(dataDir, row.id, row.received, request.body, Math.min(UPLOAD_CHUNK_MAX_BYTES, remaining));
        } catch (error) {
          // Without a Content-Length the limit is found while streaming; the request is then cut off.
          if (error instanceof ChunkTooLarge) return failWith(UPLOAD_MSG.beyondSize, row);
          // The client went away mid-chunk: nothing is recorded, the next chunk truncates the rest.
          request.log.info({ uploadId: row.id, err: error }, 'upload chunk interrupted');
          return failWith(UPLOAD_MSG.interrupted, row);
        }
        const to = row.received + written;
        if (to < row.size) {
          if (written > 0 && !(await advanceUpload(db, row.id, row.received, to))) return current(row.id, row);
          row = { ...row, received: to };
          return ok(toUploadState(row), UPLOAD_MSG.received);
        }
        // Every byte is here: check the declared digest (streamed once over the file), then publish the file.
        if (row.sha256 && (await sha256OfFile(partPath(dataDir, row.id))) !== row.sha256) {
          await truncatePart(dataDir, row.id);
          await advanceUpload(db, row.id, row.received, 0);
          return failWith(UPLOAD_MSG.checksum, { ...row, received: 0 });
        }
        await finishFile(dataDir, row.id);
        if (!(await advanceUpload(db, row.id, row.received, to, 'complete'))) return current(row.id, row);
        // Read it through now (worker thread), so a launch from it is answered without the wait.
        checkUploadSoon(dataDir, { id: row.id, size: row.size, path: uploadPath(dataDir, row.id), fileName: row.fileName });
        return ok(toUploadState({ ...row, received: to, status: 'complete' }), UPLOAD_MSG.finished);
      } finally {
        busy.delete(row.id);
      }
    },

    async status({ request, params }) {
      const { userId } = signedIn(request);
      return ok(toUploadState(await owned(params.uploadId, userId)));
    },

    async cancel({ request, params }) {
      const { userId } = signedIn(request);
      const found = await owned(params.uploadId, userId);
      // A completed upload may be withdrawn too (the analyst removed the file before creating the
      // project), but not once a project reads from it.
      if (found.status === 'complete' && (await uploadInUse(db, found.id))) return failWith(UPLOAD_MSG.inUse, found);
      await setUploadStatus(db, found.id, 'cancelled');
      await removeFiles(dataDir, found.id);
      return ok(toUploadState({ ...found, status: 'cancelled' }), UPLOAD_MSG.cancelledOk);
    },
  };

  /** Someone else moved the upload (it was cancelled meanwhile): answer where it now stands. */
  async function current(id: string, fallback: UploadRow) {
    const row = (await findUpload(db, id)) ?? fallback;
    // A cancel that ran while this chunk was being written: its file may have been re-created by the write.
    if (row.status === 'cancelled') await removeFiles(dataDir, id);
    return failWith(row.status === 'cancelled' ? UPLOAD_MSG.cancelled : UPLOAD_MSG.wrongOffset(row.received), row);
  }
}

export const uploadHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(uploadCalls, uploadAreaHandlers(ctx));
