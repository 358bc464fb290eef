// Decompressing streams for gzip (node:zlib), bzip2 (unbzip2-stream) and xz (xz-decompress,
// WebAssembly), a byte counter for the compressed side, and a peek at the first bytes.
import { PassThrough, Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import bz2 from 'unbzip2-stream';
import xzDecompress from 'xz-decompress';
import type { ArchiveFormat } from './detect.ts';

const { XzReadableStream } = xzDecompress;

/** Counts bytes that pass (the compressed bytes consumed so far). */
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

function bunzip(source: Readable): Readable {
  // unbzip2-stream is a classic `through` stream that closes before it ends, which
  // stream.pipeline reports as a premature close; bridge it by hand with backpressure.
  const decoder = bz2();
  const out = new PassThrough();
  decoder.on('data', (chunk: Buffer) => {
    if (!out.write(chunk)) {
      decoder.pause();
      out.once('drain', () => decoder.resume());
    }
  });
  decoder.on('end', () => out.end());
  decoder.on('error', (error: Error) => out.destroy(error));
  source.on('error', (error: Error) => out.destroy(error));
  out.on('close', () => {
    if (!source.destroyed) source.destroy();
    decoder.destroy();
  });
  source.pipe(decoder);
  return out;
}

function unxz(source: Readable): Readable {
  const web = Readable.toWeb(source) as ReadableStream<Uint8Array>;
  return Readable.fromWeb(new XzReadableStream(web) as import('node:stream/web').ReadableStream<Uint8Array>);
}

/** The decompressed stream of a gzip, bzip2 or xz file. */
export function decompress(format: Exclude<ArchiveFormat, 'zip' | 'tar'>, source: Readable): Readable {
  if (format === 'gzip') {
    const gunzip = createGunzip();
    source.on('error', (error) => gunzip.destroy(error));
    gunzip.on('close', () => {
      if (!source.destroyed) source.destroy();
    });
    return source.pipe(gunzip);
  }
  if (format === 'bzip2') return bunzip(source);
  return unxz(source);
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
