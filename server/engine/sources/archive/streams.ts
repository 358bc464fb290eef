// Decoding a compressed file: gzip (node:zlib), bzip2 (bzip2.ts) and xz (xz-decompress,
// WebAssembly). Each gives its output in chunks of at most 64 KiB, only as fast as it is read
// (backpressure: nothing decoded waits in memory beyond a chunk or two), and says how many
// compressed bytes the decoder has actually consumed (the ratio's denominator), not how many were
// read from the disk ahead of it. Also a byte counter and a peek at the first bytes.
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import xzDecompress from 'xz-decompress';
import { bunzip2 } from './bzip2.ts';
import type { ArchiveFormat } from './detect.ts';
import { UnpackError } from './errors.ts';

const { XzReadableStream } = xzDecompress;

/** Compressed bytes read from the disk at a time. */
const READ_CHUNK = 64 * 1024;

/** Counts bytes that pass. */
export function counter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        onBytes(chunk.length);
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

export interface Decoding {
  output: Readable;
  /** Compressed bytes the decoder has consumed so far. */
  consumed(): number;
}

function gunzip(file: string): Decoding {
  const raw = createReadStream(file, { highWaterMark: READ_CHUNK });
  // zlib's chunks are 16 KiB; bytesWritten is what inflate has taken from its input, not what
  // was written to it.
  const output = createGunzip();
  raw.on('error', (error) => output.destroy(error));
  output.on('close', () => raw.destroy());
  raw.pipe(output);
  return { output, consumed: () => output.bytesWritten };
}

function bunzip(file: string): Decoding {
  const raw = createReadStream(file, { highWaterMark: READ_CHUNK });
  const decoding = bunzip2(raw);
  return { output: decoding.output, consumed: decoding.consumed };
}

/** xz-embedded's error codes (xz.h), as xz-decompress reports them (`... error code 4`). */
function xzError(error: unknown, label: string): Error {
  const code = /error code (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  const options = { cause: error };
  switch (code) {
    case '3':
    case '4':
      // XZ_MEM_ERROR, XZ_MEMLIMIT_ERROR: the library decodes with at most a 64 MiB dictionary.
      return new UnpackError('unsupported', `压缩包 ${label} 的 xz 字典大于 64 MiB，解压所需内存超过上限，无法解压`, options);
    case '5':
      return new UnpackError('corrupt', '压缩包已损坏：不是 xz 数据', options);
    case '6':
      return new UnpackError('unsupported', `压缩包 ${label} 使用了不支持的 xz 选项，无法解压`, options);
    case '7':
      return new UnpackError('corrupt', '压缩包已损坏：xz 数据校验失败', options);
    case '8':
      return new UnpackError('corrupt', '压缩包已损坏：xz 数据不完整', options);
  }
  // xz-decompress reads past the end of a truncated input (a TypeError on null).
  if (error instanceof TypeError) return new UnpackError('corrupt', '压缩包已损坏：xz 数据不完整', options);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * xz-decompress decodes on demand (a pull per 64 KiB of output; its dictionary is capped at
 * 64 MiB by the library). Its input is handed over only when it asks for more, so what has been
 * handed over is what it has consumed, give or take the last 64 KiB read.
 */
function unxz(file: string, label: string): Decoding {
  const raw = createReadStream(file, { highWaterMark: READ_CHUNK });
  const chunks = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let consumed = 0;
  const input = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) return controller.close();
        consumed += next.value.length;
        controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.length));
      },
      cancel() {
        raw.destroy();
      },
    },
    { highWaterMark: 0 },
  );
  const reader = (new XzReadableStream(input as unknown as ReadableStream<Uint8Array>) as unknown as WebReadableStream<Uint8Array>).getReader();
  const output = new Readable({
    highWaterMark: READ_CHUNK,
    read() {
      reader.read().then(
        ({ done, value }) => {
          if (done) this.push(null);
          else this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        },
        (error: unknown) => this.destroy(xzError(error, label)),
      );
    },
    destroy(error, callback) {
      // Cancelling releases the library's decoder (it decodes one stream at a time per thread).
      reader.cancel().then(
        () => callback(error),
        () => callback(error),
      );
      raw.destroy();
    },
  });
  return { output, consumed: () => consumed };
}

/** The decoded stream of a gzip, bzip2 or xz file; `label` names the archive in messages. */
export function decompress(format: Exclude<ArchiveFormat, 'zip' | 'tar' | '7z'>, file: string, label: string): Decoding {
  if (format === 'gzip') return gunzip(file);
  if (format === 'bzip2') return bunzip(file);
  return unxz(file, label);
}

/** Reads the first `n` bytes (fewer at the end of the stream) and gives back the whole stream. */
export async function peek(stream: Readable, n: number): Promise<{ head: Buffer; rest: Readable }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < n) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest(): AsyncGenerator<Buffer> {
    if (head.length) yield head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const out = Readable.from(rest(), { objectMode: false });
  out.on('close', () => {
    if (!stream.destroyed) stream.destroy();
  });
  return { head: head.subarray(0, n), rest: out };
}
