// Where an image's files are read from: an OCI layout folder, or an outer tar (docker save, or an
// OCI layout packed as a tar) indexed once (entry name → data offset and size) and read by offset,
// so a blob is streamed straight from its place in the tar without unpacking the tar first. A
// gzip-compressed outer tar is decompressed to a temporary file first (through the size and ratio
// limits), then read the same way.
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { privateWriteStream } from '../../../files/private.ts';
import { decoderMessage } from '../archive/errors.ts';
import { formatBytes } from '../limits.ts';
import type { UnpackLimits } from '../limits.ts';
import { ImageError } from './errors.ts';

export interface ImageSource {
  /** `folder`, `tar`, `tar.gz`: how the input was given. */
  readonly form: 'folder' | 'tar' | 'tar.gz';
  /** Every file's path (`/`-separated, no leading `./`). */
  names(): string[];
  has(name: string): boolean;
  size(name: string): number | undefined;
  /** The file's bytes as a stream (from its offset inside the tar, or the file in the folder). */
  open(name: string): Readable;
  /** A whole small file (JSON documents): refused when larger than `max`. */
  read(name: string, max?: number): Promise<Buffer>;
}

const MiB = 1024 ** 2;
/** Manifests, indexes and configs are small; anything larger than this is not one. */
export const MAX_JSON_BYTES = 16 * MiB;

// ---- Outer tar index ------------------------------------------------------------------------------

interface TarEntry {
  offset: number;
  size: number;
}

const BLOCK = 512;

function cstring(buf: Buffer, start: number, length: number): string {
  const end = buf.indexOf(0, start);
  return buf.toString('utf8', start, end === -1 || end > start + length ? start + length : end);
}

function numeric(buf: Buffer, start: number, length: number): number {
  // GNU base-256 for sizes of 8 GiB and more: the high bit of the first byte set.
  if (buf[start]! & 0x80) {
    let value = 0;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + buf[i]!;
    return value;
  }
  const text = cstring(buf, start, length).trim();
  return text ? parseInt(text, 8) : 0;
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return numeric(header, 148, 8) === sum;
}

function paxRecords(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space === -1) break;
    const length = parseInt(data.toString('latin1', pos, space), 10);
    if (!(length > 0)) break;
    const record = data.toString('utf8', space + 1, pos + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    pos += length;
  }
  return out;
}

/** `./blobs/sha256/x` and `/manifest.json` as `blobs/sha256/x`, `manifest.json`. */
export function normalName(name: string): string {
  return name
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/**
 * Reads the headers of an uncompressed tar, seeking over the data: one pass, a few reads per entry.
 * Throws `not-tar` (a plain Error) when the first block is not a tar header.
 */
export async function indexTar(file: string, maxEntries: number): Promise<Map<string, TarEntry>> {
  const handle = await open(file, 'r');
  const entries = new Map<string, TarEntry>();
  const links: [string, string][] = [];
  try {
    const { size: fileSize } = await handle.stat();
    const header = Buffer.alloc(BLOCK);
    let pos = 0;
    let longName: string | undefined;
    let pax: Record<string, string> = {};
    let count = 0;
    for (;;) {
      const { bytesRead } = await handle.read(header, 0, BLOCK, pos);
      if (bytesRead < BLOCK) {
        if (pos === 0 || bytesRead > 0) throw new NotTar();
        break; // no end-of-archive blocks: accepted, the data before is whole
      }
      if (header.every((b) => b === 0)) break;
      if (!checksumOk(header)) {
        if (pos === 0) throw new NotTar();
        throw new ImageError('corrupt', '镜像文件已损坏：tar 文件头校验失败');
      }
      if (++count > maxEntries) throw new ImageError('too-many-files', `镜像文件中的条目超过 ${maxEntries} 个上限，已拒绝`);
      const size = numeric(header, 124, 12);
      const type = String.fromCharCode(header[156]!);
      const data = pos + BLOCK;
      const next = data + Math.ceil(size / BLOCK) * BLOCK;
      if (data + size > fileSize) throw new ImageError('corrupt', '镜像文件已损坏：tar 数据不完整（文件可能被截断）');
      if (type === 'x' || type === 'L' || type === 'g' || type === 'K') {
        if (size > MiB) throw new ImageError('corrupt', '镜像文件已损坏：tar 扩展头过大');
        const body = Buffer.alloc(size);
        await handle.read(body, 0, size, data);
        if (type === 'x') pax = paxRecords(body);
        else if (type === 'L') longName = cstring(body, 0, size);
        pos = next;
        continue;
      }
      const ustar = header.toString('latin1', 257, 263) === 'ustar\0';
      const prefix = ustar ? cstring(header, 345, 155) : '';
      const raw = pax.path ?? longName ?? (prefix ? `${prefix}/${cstring(header, 0, 100)}` : cstring(header, 0, 100));
      const name = normalName(raw);
      const realSize = pax.size !== undefined ? Number(pax.size) : size;
      if (type === '0' || type === '\0' || type === '7') entries.set(name, { offset: data, size: realSize });
      else if (type === '1') links.push([name, normalName(pax.linkpath ?? cstring(header, 157, 100))]);
      else if (type === '2') {
        // docker save links a layer.tar it already wrote (`../<id>/layer.tar`): read from the folder of the link.
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(name), pax.linkpath ?? cstring(header, 157, 100)));
        if (!target.startsWith('../') && !path.posix.isAbsolute(target)) links.push([name, normalName(target)]);
      }
      pax = {};
      longName = undefined;
      pos = data + Math.ceil(realSize / BLOCK) * BLOCK;
    }
    // Links inside the outer tar (identical blobs) read the data of their target.
    for (const [name, target] of links) {
      const entry = entries.get(target);
      if (entry) entries.set(name, entry);
    }
    return entries;
  } finally {
    await handle.close();
  }
}

export class NotTar extends Error {
  constructor() {
    super('not a tar');
  }
}

function readStreamAll(stream: Readable, max: number, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > max) {
        stream.destroy();
        reject(new ImageError('too-large', `镜像中的文件 ${name} 超过 ${formatBytes(max)}，不是有效的清单或配置`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

class TarSource implements ImageSource {
  readonly form: 'tar' | 'tar.gz';
  private readonly file: string;
  private readonly entries: Map<string, TarEntry>;

  constructor(file: string, entries: Map<string, TarEntry>, form: 'tar' | 'tar.gz') {
    this.file = file;
    this.entries = entries;
    this.form = form;
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  size(name: string): number | undefined {
    return this.entries.get(name)?.size;
  }

  open(name: string): Readable {
    const entry = this.entries.get(name);
    if (!entry) throw new ImageError('missing', `镜像中缺少文件 ${name}`);
    if (entry.size === 0) return createReadStream(this.file, { start: 1, end: 0 });
    return createReadStream(this.file, { start: entry.offset, end: entry.offset + entry.size - 1, highWaterMark: 64 * 1024 });
  }

  read(name: string, max = MAX_JSON_BYTES): Promise<Buffer> {
    return readStreamAll(this.open(name), max, name);
  }
}

class FolderSource implements ImageSource {
  readonly form = 'folder' as const;
  private readonly root: string;
  private readonly files = new Map<string, { absolute: string; size: number }>();

  constructor(root: string) {
    this.root = root;
  }

  /** Lists the layout's files (a link is followed only when it stays inside the folder). */
  async load(maxEntries: number): Promise<this> {
    const realRoot = await realpath(this.root);
    const walk = async (dir: string, rel: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (this.files.size > maxEntries) throw new ImageError('too-many-files', `镜像文件夹中的文件超过 ${maxEntries} 个上限，已拒绝`);
        const absolute = path.join(dir, entry.name);
        const name = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          await walk(absolute, name);
          continue;
        }
        let target = absolute;
        if (entry.isSymbolicLink()) {
          const real = await realpath(absolute).catch(() => undefined);
          if (!real || !real.startsWith(realRoot + path.sep)) continue;
          target = real;
        }
        const info = await lstat(target);
        if (info.isFile()) this.files.set(name, { absolute: target, size: info.size });
      }
    };
    await walk(this.root, '');
    return this;
  }

  names(): string[] {
    return [...this.files.keys()];
  }

  has(name: string): boolean {
    return this.files.has(name);
  }

  size(name: string): number | undefined {
    return this.files.get(name)?.size;
  }

  open(name: string): Readable {
    const file = this.files.get(name);
    if (!file) throw new ImageError('missing', `镜像中缺少文件 ${name}`);
    return createReadStream(file.absolute, { highWaterMark: 64 * 1024 });
  }

  read(name: string, max = MAX_JSON_BYTES): Promise<Buffer> {
    return readStreamAll(this.open(name), max, name);
  }
}

async function head(file: string, n: number): Promise<Buffer> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle?.close();
  }
}

export const isGzip = (buf: Buffer) => buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b;
export const isZstd = (buf: Buffer) => buf.length >= 4 && buf.readUInt32LE(0) === 0xfd2fb528;

export interface OpenSourceOptions {
  limits: UnpackLimits;
  signal: AbortSignal;
  /** Where a gzip-compressed tar is decompressed to (a private temporary folder); required for one. */
  scratch?: () => Promise<string>;
}

/**
 * Opens an input as an image source; undefined when it is neither a folder nor a (gzip-compressed)
 * tar. A gzip is only decompressed when `scratch` is given (detection reads it by streaming).
 */
export async function openSource(input: string, options: OpenSourceOptions): Promise<ImageSource | undefined> {
  // The input path itself comes from the user or the platform (trusted): a link to it is fine.
  const stats = await stat(input).catch(() => undefined);
  if (!stats) throw new ImageError('not-image', `输入 ${input} 不存在`);
  if (stats.isDirectory()) return new FolderSource(input).load(options.limits.maxFiles);
  if (!stats.isFile()) return undefined;
  const first = await head(input, BLOCK);
  if (isGzip(first)) {
    if (!options.scratch) return undefined;
    const tarFile = path.join(await options.scratch(), 'image.tar');
    await gunzipTo(input, tarFile, stats.size, options);
    return openTar(tarFile, 'tar.gz', options.limits);
  }
  return openTar(input, 'tar', options.limits);
}

async function openTar(file: string, form: 'tar' | 'tar.gz', limits: UnpackLimits): Promise<ImageSource | undefined> {
  try {
    return new TarSource(file, await indexTar(file, limits.maxFiles), form);
  } catch (error) {
    if (error instanceof NotTar) return undefined;
    throw error;
  }
}

/** Decompresses a gzip file through the total-size and ratio limits. */
async function gunzipTo(file: string, out: string, compressedSize: number, { limits, signal }: OpenSourceOptions): Promise<void> {
  const gunzip = createGunzip();
  let produced = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      produced += chunk.length;
      if (produced > limits.maxTotalBytes) return done(new ImageError('too-large', `镜像文件解压后超过 ${formatBytes(limits.maxTotalBytes)} 上限，已拒绝`));
      if (produced > limits.ratioGraceBytes && produced / Math.max(1, gunzip.bytesWritten) > limits.maxRatio) {
        return done(new ImageError('ratio', `镜像文件的压缩比超过 ${limits.maxRatio}:1 上限，疑似压缩炸弹，已拒绝`));
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(createReadStream(file), gunzip, meter, privateWriteStream(out, { flags: 'wx' }), { signal });
  } catch (error) {
    if (error instanceof ImageError || signal.aborted) throw error;
    throw new ImageError('corrupt', `镜像文件（${formatBytes(compressedSize)}）已损坏：${decoderMessage(error instanceof Error ? error.message : String(error))}`, { cause: error });
  }
}
