// What the package-file extractors share (Debian .deb/.udeb/.ipk, .rpm, Alpine .apk, Python
// wheels and eggs, npm tarballs): bounded decompression of one member (gzip, xz, bzip2, zstd)
// that stops as soon as the caller has what it needs, a streaming tar scanner that keeps only the
// entries asked for, `ar` member listing read in place, and the evidence every component carries.
// Every size read from the file is checked before use; a decompression that outgrows its cap or
// the ratio limit of sources/limits.ts is a bomb, reported as an ExtractError in Chinese.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';
import xzDecompress from 'xz-decompress';
import type { Evidence } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { bunzip2 } from '../../sources/archive/bzip2.ts';
import { decoderMessage } from '../../sources/archive/errors.ts';
import { DEFAULT_LIMITS, formatBytes } from '../../sources/limits.ts';
import type { RandomAccess } from '../common/random-access.ts';

const { XzReadableStream } = xzDecompress;

const MiB = 1024 * 1024;
/** Control data (a deb's control.tar, an apk's control stream, an npm package.json) decompressed at most. */
export const MAX_CONTROL_BYTES = 16 * MiB;
/** A compressed control member read at most (real ones are a few KiB). */
export const MAX_CONTROL_MEMBER = 16 * MiB;
/** Output below this never counts as a bomb, whatever the ratio (a tiny member compresses well). */
const RATIO_GRACE = MiB;
const CHUNK = 64 * 1024;

export type Compression = 'gzip' | 'xz' | 'bzip2' | 'zstd' | 'none';

/** The compression a member's name says (`control.tar.xz` → xz); undefined for an unknown suffix. */
export function compressionOf(name: string): Compression | undefined {
  if (/\.tar$/.test(name)) return 'none';
  if (/\.(?:gz|tgz)$/.test(name)) return 'gzip';
  if (/\.xz$/.test(name)) return 'xz';
  if (/\.bz2$/.test(name)) return 'bzip2';
  if (/\.zst$/.test(name)) return 'zstd';
  return undefined;
}

/** The evidence text as the model wants it: printable, at most 200 characters. */
export function evidenceText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > 200 ? `${clean.slice(0, 199)}…` : clean;
}

export function evidence(file: string, rule: string, text: string, offset?: number): Evidence {
  return { file, rule, text: evidenceText(text), ...(offset !== undefined && offset >= 0 ? { offset } : {}) };
}

/** The byte offset of a line starting with `prefix` in `text` (UTF-8), or undefined. */
export function lineOffset(text: string, line: RegExp): number | undefined {
  const m = line.exec(text);
  return m ? Buffer.byteLength(text.slice(0, m.index), 'utf8') : undefined;
}

/** Chunks of a source, CHUNK bytes at a time, from `start` for `length` bytes. */
export async function* chunksOf(src: RandomAccess, start = 0, length = src.size - start): AsyncGenerator<Buffer> {
  const end = Math.min(src.size, start + length);
  for (let at = start; at < end;) {
    const b = await src.read(at, Math.min(CHUNK, end - at));
    if (!b.length) return;
    yield b;
    at += b.length;
  }
}

function xzStream(source: Readable): Readable {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const input = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) return controller.close();
      controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.length));
    },
    cancel() { source.destroy(); },
  }, { highWaterMark: 0 });
  const reader = (new XzReadableStream(input as unknown as ReadableStream<Uint8Array>) as unknown as WebReadableStream<Uint8Array>).getReader();
  return new Readable({
    read() {
      reader.read().then(
        ({ done, value }) => { if (done) this.push(null); else this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength)); },
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
    destroy(error, callback) {
      reader.cancel().then(() => callback(error), () => callback(error));
      source.destroy();
    },
  });
}

function decoder(compression: Compression, source: Readable): Readable {
  switch (compression) {
    case 'none': return source;
    case 'gzip': {
      const gunzip = zlib.createGunzip();
      source.on('error', (e) => gunzip.destroy(e));
      return source.pipe(gunzip);
    }
    case 'bzip2': return bunzip2(source).output;
    case 'xz': return xzStream(source);
    case 'zstd': {
      const create = (zlib as unknown as { createZstdDecompress?: () => NodeJS.ReadWriteStream & Readable }).createZstdDecompress;
      if (!create) throw new ExtractError('当前运行环境不支持 zstd 解压');
      const unzstd = create();
      source.on('error', (e) => unzstd.destroy(e));
      return source.pipe(unzstd) as Readable;
    }
  }
}

export interface DecodeOptions {
  /** Names the data in messages: `liblzf1_3.6-3_amd64.deb 的 control.tar.xz`. */
  label: string;
  /** Compressed size, for the ratio check (the whole member's). */
  compressedSize: number;
  /** Decompressed bytes allowed; beyond them the member is a bomb. */
  cap: number;
  /**
   * Called with each decompressed chunk; returning true stops the decoding there (the caller has
   * what it needs). The chunks are not kept.
   */
  onData(chunk: Buffer): boolean;
  /** When set, outgrowing the cap ends the decoding quietly instead of failing (the caller reads what it can). */
  quietCap?: boolean;
}

/**
 * Decompresses `input` chunk by chunk into `onData` until it returns true, the data ends, or a
 * limit is hit: more than `cap` bytes, or more than DEFAULT_LIMITS.maxRatio times the compressed
 * size past RATIO_GRACE (a bomb). Returns whether the decoding was stopped by `onData`.
 */
export async function decode(compression: Compression, input: AsyncIterable<Buffer>, options: DecodeOptions): Promise<boolean> {
  const source = Readable.from(input, { objectMode: false });
  let output: Readable;
  try {
    output = decoder(compression, source);
  } catch (error) {
    source.destroy();
    throw error;
  }
  let total = 0;
  try {
    for await (const chunk of output as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > options.cap) {
        if (options.quietCap) return false;
        throw new ExtractError(`${options.label} 解压后超过 ${formatBytes(options.cap)} 上限，疑似压缩炸弹，已停止读取`);
      }
      if (total > RATIO_GRACE && compression !== 'none' && total > options.compressedSize * DEFAULT_LIMITS.maxRatio) {
        throw new ExtractError(`${options.label} 的压缩比超过 ${DEFAULT_LIMITS.maxRatio}:1 上限，疑似压缩炸弹，已停止读取`);
      }
      if (options.onData(chunk)) return true;
    }
    return false;
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ExtractError(`${options.label} 无法解压：${decoderMessage(detail)}`, { cause: error });
  } finally {
    output.destroy();
    source.destroy();
  }
}

// ---- tar ------------------------------------------------------------------------------------

export interface TarEntry {
  /** The name as written, `./` and leading `/` removed. */
  name: string;
  type: 'file' | 'other';
  size: number;
  data: Buffer;
  /** Offset of the entry's data in the decompressed tar stream. */
  offset: number;
}

/** Files kept whole at most by the scanner (metadata files are small). */
const MAX_KEPT_ENTRY = 8 * MiB;

const cleanName = (name: string) => name.replace(/^(?:\.\/|\/)+/, '');

function octal(field: Buffer): number {
  // GNU base-256 for large sizes: first byte 0x80.
  if (field[0]! & 0x80) {
    let n = 0;
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i]!;
    return n;
  }
  const text = field.toString('latin1').replace(/\0.*$/s, '').trim();
  if (!text) return 0;
  if (!/^[0-7]+$/.test(text)) return Number.NaN;
  return parseInt(text, 8);
}

function tarChecksumOk(header: Buffer): boolean {
  const stored = octal(header.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  return stored === sum;
}

/**
 * Reads a tar stream fed chunk by chunk (no end needed: an apk's control segment has none),
 * keeping the data of the entries `want` accepts and skipping the rest without buffering it.
 * GNU long names (`L`) and pax `path` records are honoured. A header that is not a tar header
 * makes the stream invalid (TarFormatError).
 */
export class TarScanner {
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private position = 0;
  private state: { kind: 'header' } | { kind: 'data'; name: string; type: TarEntry['type'] | 'longname' | 'pax'; size: number; keep: boolean; got: Buffer[]; gotLength: number; remaining: number; padding: number; offset: number } = { kind: 'header' };
  private longName: string | undefined;
  private paxName: string | undefined;
  /** Two zero blocks seen: the archive ended. */
  ended = false;
  /** Headers seen so far. */
  headers = 0;

  private readonly want: (name: string) => boolean;
  private readonly onEntry: (entry: TarEntry) => boolean | void;

  constructor(want: (name: string) => boolean, onEntry: (entry: TarEntry) => boolean | void) {
    this.want = want;
    this.onEntry = onEntry;
  }

  /** Feeds decompressed bytes; returns true when `onEntry` asked to stop. */
  feed(chunk: Buffer): boolean {
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    for (;;) {
      if (this.ended) return false;
      if (this.state.kind === 'header') {
        if (this.pendingLength < 512) return false;
        const header = this.take(512);
        if (header.every((b) => b === 0)) { this.ended = this.headers > 0 || this.ended; continue; }
        if (!tarChecksumOk(header)) throw new TarFormatError(`位置 ${this.position - 512} 处不是有效的 tar 条目头`);
        this.headers++;
        const size = octal(header.subarray(124, 136));
        if (!Number.isFinite(size) || size < 0) throw new TarFormatError(`位置 ${this.position - 512} 处的 tar 条目大小无效`);
        const flag = String.fromCharCode(header[156]!);
        const ustar = header.toString('latin1', 257, 262) === 'ustar';
        let name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
        const prefix = ustar ? header.toString('utf8', 345, 500).replace(/\0.*$/s, '') : '';
        if (prefix) name = `${prefix}/${name}`;
        if (this.longName !== undefined) { name = this.longName; this.longName = undefined; }
        if (this.paxName !== undefined) { name = this.paxName; this.paxName = undefined; }
        name = cleanName(name);
        const type = flag === 'L' ? 'longname' : flag === 'x' ? 'pax' : flag === '0' || flag === '\0' || flag === '7' ? 'file' : 'other';
        const keep = type === 'longname' || type === 'pax' ? size <= 64 * 1024 : type === 'file' && this.want(name);
        if (keep && size > MAX_KEPT_ENTRY) throw new TarFormatError(`条目 ${name} 大小 ${formatBytes(size)}，超过元数据文件 ${formatBytes(MAX_KEPT_ENTRY)} 上限`);
        this.state = { kind: 'data', name, type, size, keep, got: [], gotLength: 0, remaining: size, padding: (512 - (size % 512)) % 512, offset: this.position };
        continue;
      }
      const s = this.state;
      if (s.remaining > 0) {
        if (this.pendingLength === 0) return false;
        const part = this.take(Math.min(s.remaining, this.pendingLength));
        s.remaining -= part.length;
        if (s.keep) { s.got.push(part); s.gotLength += part.length; }
        if (s.remaining > 0) return false;
      }
      if (s.padding > 0) {
        if (this.pendingLength === 0) return false;
        const skip = this.take(Math.min(s.padding, this.pendingLength));
        s.padding -= skip.length;
        if (s.padding > 0) return false;
      }
      this.state = { kind: 'header' };
      if (!s.keep) continue;
      const data = Buffer.concat(s.got, s.gotLength);
      if (s.type === 'longname') { this.longName = data.toString('utf8').replace(/\0.*$/s, ''); continue; }
      if (s.type === 'pax') {
        const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1];
        if (path !== undefined) this.paxName = path;
        continue;
      }
      if (this.onEntry({ name: s.name, type: 'file', size: s.size, data, offset: s.offset }) === true) return true;
    }
  }

  private take(n: number): Buffer {
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingLength);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.pending = rest.length ? [rest] : [];
    this.pendingLength = rest.length;
    this.position += n;
    return out;
  }
}

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

// ---- ar (Debian packages, newer OpenWrt packages) --------------------------------------------

export interface ArMember {
  name: string;
  /** Offset of the member's data in the file. */
  offset: number;
  size: number;
}

const AR_MAGIC = '!<arch>\n';
/** Members listed at most: a .deb has three, a few tools add a signature or two. */
const MAX_AR_MEMBERS = 64;

export function isAr(head: Buffer): boolean {
  return head.length >= 8 && head.toString('latin1', 0, 8) === AR_MAGIC;
}

/** The members of an ar archive, headers read in place; throws ArFormatError for a damaged one. */
export async function listAr(src: RandomAccess): Promise<ArMember[]> {
  const head = await src.read(0, 8);
  if (!isAr(head)) throw new ArFormatError('不是 ar 归档（缺少 !<arch> 文件头）');
  const members: ArMember[] = [];
  let at = 8;
  while (at < src.size) {
    if (members.length >= MAX_AR_MEMBERS) throw new ArFormatError(`成员超过 ${MAX_AR_MEMBERS} 个`);
    // A lone padding newline may end the archive.
    if (src.size - at < 60) {
      const tail = await src.read(at, src.size - at);
      if (tail.every((b) => b === 0x0a)) break;
      throw new ArFormatError(`位置 ${at} 处的成员头不完整（文件被截断）`);
    }
    const h = await src.read(at, 60);
    if (h.length < 60 || h.toString('latin1', 58, 60) !== '`\n') throw new ArFormatError(`位置 ${at} 处的成员头损坏`);
    const sizeText = h.toString('latin1', 48, 58).trim();
    if (!/^\d+$/.test(sizeText)) throw new ArFormatError(`位置 ${at} 处的成员大小“${sizeText}”无效`);
    const size = Number(sizeText);
    const name = h.toString('utf8', 0, 16).trim().replace(/\/$/, '');
    const offset = at + 60;
    if (offset + size > src.size) throw new ArFormatError(`成员 ${name} 声明 ${size} 字节，超出文件末尾（文件被截断）`);
    members.push({ name, offset, size });
    at = offset + size + (size % 2);
  }
  return members;
}

export class ArFormatError extends Error {
  override name = 'ArFormatError';
}
