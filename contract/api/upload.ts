// Upload area (issue 6): files streamed from the desktop to the platform in chunks, resumable
// after a dropped connection. The spec has no upload call (its client posts multipart forms);
// these are ours. An upload is created with its name and size, then filled by PUTs of raw bytes
// at the offset the platform reports, and ends `complete` once every byte is on disk (and its
// SHA-256 matches when one was declared). Only its owner may see, fill or cancel it.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';

const L = Type.Literal;

/** Largest chunk one PUT may carry. */
export const UPLOAD_CHUNK_MAX_BYTES = 16 * 1024 * 1024;
/** The chunk size the desktop sends: half the limit, so a chunk is never refused for its size. */
export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;
/** The platform's default upload limit (CAIRN_MAX_UPLOAD_BYTES overrides it). */
export const DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024 * 1024;
/** Content type of a chunk body. */
export const UPLOAD_CHUNK_CONTENT_TYPE = 'application/octet-stream';

export const UploadStatusSchema = Type.Union([L('receiving'), L('complete'), L('cancelled')]);
export type UploadStatus = Static<typeof UploadStatusSchema>;

export const UploadStateSchema = Type.Object({
  uploadId: Type.String(),
  fileName: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  /** Bytes on the platform's disk: the offset of the next chunk. */
  received: Type.Integer({ minimum: 0 }),
  status: UploadStatusSchema,
});
export type UploadState = Static<typeof UploadStateSchema>;

export const UploadCreateSchema = Type.Object({
  /** A bare file name (no folder part), shown in the project and used for its extension. */
  fileName: Type.String({ minLength: 1, maxLength: 255 }),
  /** Bytes; larger than a database integer may hold (the platform's limit is 20 GiB by default). */
  size: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  /** Checked once the last byte arrived; a mismatch restarts the upload. */
  sha256: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
});
export type UploadCreate = Static<typeof UploadCreateSchema>;

const UploadIdParams = Type.Object({ uploadId: Type.String({ minLength: 1, maxLength: 36 }) });

export const create = defineCall({
  name: 'upload.create',
  method: 'POST',
  path: '/api/upload',
  summary: '开始一次分块上传',
  body: UploadCreateSchema,
  response: UploadStateSchema,
});

/**
 * A chunk: the body is raw bytes (`application/octet-stream`, at most UPLOAD_CHUNK_MAX_BYTES),
 * streamed to disk. `offset` must equal `received`; otherwise the answer is a failure whose data
 * is the upload's state, so the client resumes from `data.received`.
 */
export const chunk = defineCall({
  name: 'upload.chunk',
  method: 'PUT',
  path: '/api/upload/{uploadId}',
  summary: '上传一个数据块',
  params: UploadIdParams,
  query: Type.Object({ offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }) }),
  response: UploadStateSchema,
});

export const status = defineCall({
  name: 'upload.status',
  method: 'GET',
  path: '/api/upload/{uploadId}',
  summary: '查询上传进度',
  params: UploadIdParams,
  response: UploadStateSchema,
});

export const cancel = defineCall({
  name: 'upload.cancel',
  method: 'DELETE',
  path: '/api/upload/{uploadId}',
  summary: '取消上传并删除已接收的数据',
  params: UploadIdParams,
  response: UploadStateSchema,
});

export const uploadCalls = { create, chunk, status, cancel };
