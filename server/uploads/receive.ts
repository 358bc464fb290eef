// Writing one chunk of an upload to disk, streamed: the request body flows through a byte
// counter into the .part file, so a 16 MiB chunk never sits in memory whole. What arrived is
// only counted once it is written; a chunk cut off halfway is discarded by truncating the file
// back to the last recorded length before the next chunk is appended.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, rm, stat, truncate } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { makePrivateDir, openPrivate, privateWriteStream } from '../files/private.ts';
import { partPath, uploadPath, uploadsDir } from './store.ts';

export class ChunkTooLarge extends Error {}

/** Counts bytes and fails as soon as more than `limit` pass, before they reach the disk. */
function byteLimit(limit: number, onBytes: (n: number) => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) return callback(new ChunkTooLarge(`chunk exceeds ${limit} bytes`));
      onBytes(chunk.length);
      callback(null, chunk);
    },
  });
}

/**
 * Appends `body` to the upload's .part file at `offset` (the recorded `received`) and answers
 * how many bytes were written. Throws ChunkTooLarge past `limit`; any other failure (the client
 * went away) leaves bytes beyond `offset` that the next call truncates away.
 */
export async function appendChunk(dataDir: string, id: string, offset: number, body: Readable, limit: number): Promise<number> {
  await makePrivateDir(uploadsDir(dataDir));
  const file = partPath(dataDir, id);
  // Create the file (0600) if it is not there yet, then cut off whatever an interrupted chunk left.
  await (await openPrivate(file, 'a')).close();
  await truncate(file, offset);
  let written = 0;
  await pipeline(body, byteLimit(limit, (n) => { written += n; }), privateWriteStream(file, { flags: 'r+', start: offset }));
  return written;
}

/** Bytes in the upload's .part file (0 when there is none yet). */
export async function partSize(dataDir: string, id: string): Promise<number> {
  return (await stat(partPath(dataDir, id)).catch(() => null))?.size ?? 0;
}

/** SHA-256 of a file, read as a stream (a multi-GB upload is never read whole). */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

/** The last byte arrived: the .part file becomes the upload's file. */
export const finishFile = (dataDir: string, id: string): Promise<void> => rename(partPath(dataDir, id), uploadPath(dataDir, id));

/** Resets a failed upload to nothing received. */
export const truncatePart = (dataDir: string, id: string): Promise<void> => truncate(partPath(dataDir, id), 0);

/** Removes whatever an upload has on disk. */
export async function removeFiles(dataDir: string, id: string): Promise<void> {
  await rm(partPath(dataDir, id), { force: true });
  await rm(uploadPath(dataDir, id), { force: true });
}
