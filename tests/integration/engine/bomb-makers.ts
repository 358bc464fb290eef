// Decompression bombs built at test time (never committed): each a real, valid file of its format
// that expands to >= 2 GiB of zeros, made in milliseconds by repeating one independently coded unit
// rather than by compressing gigabytes:
//  - gzip / zip / tar.gz: raw deflate segments, each ended with a full flush (so each starts with an
//    empty dictionary and they can be concatenated), then a final empty block. Deflate's best ratio
//    is ~1032:1, so 2 GiB needs ~2 MB.
//  - bzip2: one block of 45,000,000 zeros (7-Zip's bzip2 encoder in 7z-wasm) repeated bit-exactly
//    48 times in one stream, with the stream CRC recomputed: ~1.5 KB.
//  - xz: one block of 64 MiB zeros (7-Zip's xz encoder) repeated 32 times in one stream, with the
//    index rebuilt: ~310 KB.
//  - 7z: the LZMA2 chunks of that xz block repeated 32 times as one LZMA2 stream, in a 7z archive
//    whose header is written here (one folder, one file): ~310 KB. And a 7z whose compressed
//    header lists 1,000,000 empty files (~200 KB).
// Also legitimate archives of a payload that compresses about 100:1, under the ratio limit.
// Run as a script (`node tests/integration/engine/bomb-makers.ts <dir>`) it writes them all into
// <dir> and prints what it made (JSON), so the 7z-wasm instances used to make the seeds live in
// another process than the one whose memory a test measures.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateRawSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { SevenZipModuleFactory } from '7z-wasm';
import { tarball, zip } from '../../unit/engine/sources/archives.ts';

export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;

// ---- deflate: gzip, zip, tar.gz ----------------------------------------------------------------

export interface Part {
  data: Buffer;
  times: number;
}

export interface Deflated {
  raw: Buffer;
  crc: number;
  size: number;
}

/** One raw deflate stream decoding to each part's data `times` times, in order. */
export function deflateParts(parts: readonly Part[]): Deflated {
  const chunks: Buffer[] = [];
  let crc = 0;
  let size = 0;
  for (const { data, times } of parts) {
    const coded = deflateRawSync(data, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
    for (let i = 0; i < times; i++) {
      chunks.push(coded);
      crc = crc32(data, crc);
      size += data.length;
    }
  }
  chunks.push(deflateRawSync(Buffer.alloc(0))); // the final (empty) block
  return { raw: Buffer.concat(chunks), crc, size };
}

const ZEROS = Buffer.alloc(4 * MiB);
const zeros = (bytes: number): Part => ({ data: ZEROS, times: Math.ceil(bytes / ZEROS.length) });

export function gzipOf(parts: readonly Part[]): Buffer {
  const { raw, crc, size } = deflateParts(parts);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([header, raw, trailer]);
}

/** A gzip file of `bytes` zeros (one member). */
export const gzipBomb = (bytes = 2 * GiB) => gzipOf([zeros(bytes)]);

/**
 * A zip with one deflated entry of `bytes` zeros. `declared` is the uncompressed size its headers
 * claim (the true size by default; a liar claims less).
 */
export function zipBomb(bytes = 2 * GiB, declared = bytes, name = 'zeros.bin'): Buffer {
  const { raw, crc, size } = deflateParts([zeros(bytes)]);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(raw.length, 18);
  local.writeUInt32LE(Math.min(declared, size), 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(raw.length, 20);
  central.writeUInt32LE(Math.min(declared, size), 24);
  central.writeUInt16LE(fileName.length, 28);
  const directoryOffset = 30 + fileName.length + raw.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + fileName.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return Buffer.concat([local, fileName, raw, central, fileName, end]);
}

/** A tar header (512 bytes) for a regular file of `size` bytes. */
async function tarHeader(name: string, size: number): Promise<Buffer> {
  const header = Buffer.from((await tarball([{ name, data: Buffer.alloc(0) }])).subarray(0, 512));
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}

/** A tar.gz of `files` files of `each` zeros (each within the per-file limit). */
export async function tarGzBomb(files = 4, each = 512 * MiB): Promise<Buffer> {
  const parts: Part[] = [];
  for (let i = 0; i < files; i++) parts.push({ data: await tarHeader(`zeros-${i}.bin`, each), times: 1 }, zeros(each));
  parts.push({ data: Buffer.alloc(1024), times: 1 });
  return gzipOf(parts);
}

// ---- seeds from 7-Zip (7z-wasm) ----------------------------------------------------------------

/** 7-Zip (7z-wasm) compresses `data` (named `name`) held in its memory file system into a `type` archive. */
export async function sevenZipCompress(type: 'bzip2' | 'xz' | '7z', data: Buffer, name = 'data', level = type === 'xz' ? 1 : 5): Promise<Buffer> {
  const factory = ((await import('7z-wasm')) as unknown as { default: SevenZipModuleFactory }).default;
  const module = await factory({ print: () => {}, printErr: () => {}, stdin: () => null as unknown as number });
  module.FS.writeFile(`/${name}`, data);
  const exitCode = process.exitCode;
  try {
    module.callMain(['a', `-t${type}`, `-mx=${level}`, '-bsp0', '-bso0', `/out.${type}`, `/${name}`]);
  } finally {
    process.exitCode = exitCode;
  }
  return Buffer.from(module.FS.readFile(`/out.${type}`));
}

/** 7-Zip compresses `bytes` zeros (bzip2 at -mx=5: 900k blocks in one pass). */
const sevenZipSeed = (type: 'bzip2' | 'xz', bytes: number) => sevenZipCompress(type, Buffer.alloc(bytes), 'zeros');

// ---- bzip2 -------------------------------------------------------------------------------------

class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  bit(b: number): void {
    this.current = (this.current << 1) | b;
    if (++this.used === 8) {
      this.bytes.push(this.current);
      this.current = 0;
      this.used = 0;
    }
  }

  bits(value: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bit(Math.floor(value / 2 ** i) % 2);
  }

  copy(from: Buffer, start: number, end: number): void {
    for (let i = start; i < end; i++) this.bit((from[i >> 3]! >> (7 - (i & 7))) & 1);
  }

  finish(): Buffer {
    while (this.used) this.bit(0);
    return Buffer.from(this.bytes);
  }
}

const bitAt = (buf: Buffer, i: number) => (buf[i >> 3]! >> (7 - (i & 7))) & 1;
function readBits(buf: Buffer, start: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 2 + bitAt(buf, start + i);
  return v;
}

/** Zeros per bzip2 block: runs of 255 cost 5 bytes after the first RLE, 176,471 runs fit in 900k. */
export const BZIP2_BLOCK_ZEROS = 45_000_000;

/** A bzip2 stream of `blocks` identical blocks of 45,000,000 zeros (48 blocks: 2.16 GB). */
export async function bzip2Bomb(blocks = 48): Promise<Buffer> {
  const seed = await sevenZipSeed('bzip2', BZIP2_BLOCK_ZEROS);
  if (seed.toString('latin1', 0, 3) !== 'BZh' || readBits(seed, 32, 48) !== 0x314159265359) throw new Error('bzip2 seed: unexpected layout');
  // The stream ends with the end-of-stream magic, its CRC and 0-7 padding bits.
  const total = seed.length * 8;
  let eos = -1;
  for (let pad = 0; pad < 8 && eos < 0; pad++) if (readBits(seed, total - pad - 80, 48) === 0x177245385090) eos = total - pad - 80;
  if (eos < 0) throw new Error('bzip2 seed: no end-of-stream marker');
  const blockCrc = readBits(seed, 32 + 48, 32);
  if (readBits(seed, eos + 48, 32) !== blockCrc) throw new Error('bzip2 seed: more than one block');
  const out = new BitWriter();
  out.copy(seed, 0, 32);
  let combined = 0;
  for (let i = 0; i < blocks; i++) {
    out.copy(seed, 32, eos);
    combined = (((combined << 1) | (combined >>> 31)) ^ blockCrc) >>> 0;
  }
  out.bits(0x177245, 24);
  out.bits(0x385090, 24);
  out.bits(combined, 32);
  return out.finish();
}

// ---- xz and 7z ---------------------------------------------------------------------------------

function readVarint(buf: Buffer, offset: number): [number, number] {
  let value = 0;
  for (let i = 0; ; i++) {
    const b = buf[offset + i]!;
    value += (b & 0x7f) * 2 ** (7 * i);
    if (!(b & 0x80)) return [value, offset + i + 1];
  }
}

function writeVarint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

export const XZ_BLOCK_ZEROS = 64 * MiB;

interface XzSeed {
  streamHeader: Buffer;
  /** The whole block: header, compressed data, padding, check. */
  block: Buffer;
  unpadded: number;
  /** The LZMA2 dictionary property byte and the LZMA2 chunks (without the end marker). */
  dictProp: number;
  chunks: Buffer;
}

/** The parts of a one-block xz file made by 7-Zip. */
function parseXz(xz: Buffer, uncompressed: number): XzSeed {
  const streamHeader = xz.subarray(0, 12);
  const backward = (xz.readUInt32LE(xz.length - 8) + 1) * 4;
  const index = xz.subarray(xz.length - 12 - backward, xz.length - 12);
  const [count, first] = readVarint(index, 1);
  if (count !== 1) throw new Error('xz seed: more than one block');
  const [unpadded, next] = readVarint(index, first);
  const [size] = readVarint(index, next);
  if (size !== uncompressed) throw new Error('xz seed: unexpected size');
  const block = xz.subarray(12, 12 + Math.ceil(unpadded / 4) * 4);
  const headerSize = (block[0]! + 1) * 4;
  // One filter, LZMA2 (0x21) with a 1-byte property: the dictionary size.
  if (block[1] !== 0 || block[2] !== 0x21 || block[3] !== 1) throw new Error('xz seed: not a plain LZMA2 block');
  const checkSize = 4; // CRC32 (7-Zip's default)
  const data = block.subarray(headerSize, unpadded - checkSize);
  if (data[data.length - 1] !== 0) throw new Error('xz seed: no LZMA2 end marker');
  return { streamHeader, block, unpadded, dictProp: block[4]!, chunks: data.subarray(0, data.length - 1) };
}

let xzSeedMade: Promise<XzSeed> | undefined;
const xzSeed = () => (xzSeedMade ??= sevenZipSeed('xz', XZ_BLOCK_ZEROS).then((xz) => parseXz(xz, XZ_BLOCK_ZEROS)));

/** An xz stream of `blocks` blocks of 64 MiB zeros (32 blocks: 2 GiB). */
export async function xzBomb(blocks = 32): Promise<Buffer> {
  const seed = await xzSeed();
  const records: number[] = [0, ...writeVarint(blocks)];
  for (let i = 0; i < blocks; i++) records.push(...writeVarint(seed.unpadded), ...writeVarint(XZ_BLOCK_ZEROS));
  while (records.length % 4) records.push(0);
  const indexBody = Buffer.from(records);
  const index = Buffer.concat([indexBody, u32(crc32(indexBody))]);
  const flags = seed.streamHeader.subarray(6, 8);
  const footerBody = Buffer.concat([u32(index.length / 4 - 1), flags]);
  const footer = Buffer.concat([u32(crc32(footerBody)), footerBody, Buffer.from('YZ')]);
  return Buffer.concat([seed.streamHeader, ...Array.from({ length: blocks }, () => seed.block), index, footer]);
}

/** A 7z NUMBER: the first byte's leading ones count the extra (little-endian) bytes. */
function sevenZipNumber(value: number): Buffer {
  for (let n = 0; n < 8; n++) {
    if (value < 2 ** (7 * (n + 1))) {
      const out = Buffer.alloc(n + 1);
      const high = Math.floor(value / 2 ** (8 * n));
      out[0] = ((0xff << (8 - n)) & 0xff) | high;
      let low = value % 2 ** (8 * n);
      for (let i = 1; i <= n; i++) {
        out[i] = low % 256;
        low = Math.floor(low / 256);
      }
      return out;
    }
  }
  const out = Buffer.alloc(9);
  out[0] = 0xff;
  out.writeBigUInt64LE(BigInt(value), 1);
  return out;
}

/**
 * A 7z archive with one file of `blocks` x 64 MiB zeros (32: 2 GiB) in one LZMA2 folder: the LZMA2
 * chunks of the xz seed (each copy starts with a dictionary reset) repeated, then the end marker.
 * `declared` is the file size the header claims (the folder's unpack size): 7-Zip stops there.
 */
export async function sevenZipBomb(blocks = 32, declared = blocks * XZ_BLOCK_ZEROS, name = 'zeros.bin'): Promise<Buffer> {
  const seed = await xzSeed();
  const packed = Buffer.concat([...Array.from({ length: blocks }, () => seed.chunks), Buffer.from([0])]);
  const n = sevenZipNumber;
  const utf16 = Buffer.from(`${name}\0`, 'utf16le');
  const header = Buffer.concat([
    Buffer.from([0x01, 0x04, 0x06]), // Header, MainStreamsInfo, PackInfo
    n(0), // pack position
    n(1), // pack streams
    Buffer.from([0x09]), // Size
    n(packed.length),
    Buffer.from([0x00, 0x07, 0x0b]), // End (PackInfo), UnpackInfo, Folder
    n(1), // folders
    Buffer.from([0x00, 0x01, 0x21, 0x21, 0x01, seed.dictProp]), // not external; 1 coder: id size 1 + properties, LZMA2, 1 property byte
    Buffer.from([0x0c]), // CodersUnpackSize
    n(declared),
    Buffer.from([0x00, 0x00]), // End (UnpackInfo), End (StreamsInfo)
    Buffer.from([0x05]), // FilesInfo
    n(1),
    Buffer.from([0x11]), // Name
    n(utf16.length + 1),
    Buffer.from([0x00]), // not external
    utf16,
    Buffer.from([0x00, 0x00]), // End (FilesInfo), End (Header)
  ]);
  return sevenZipFile(packed, header);
}

/** A 7z signature header pointing at `header` (after `packed`). */
function sevenZipFile(packed: Buffer, header: Buffer): Buffer {
  const start = Buffer.alloc(20);
  start.writeBigUInt64LE(BigInt(packed.length), 0);
  start.writeBigUInt64LE(BigInt(header.length), 8);
  start.writeUInt32LE(crc32(header), 16);
  const signature = Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]), u32(crc32(start)), start]);
  return Buffer.concat([signature, packed, header]);
}

/**
 * A 7z whose header (LZMA2-compressed, as 7-Zip writes large headers) lists `files` empty files:
 * 1,000,000 entries in ~200 KB. Not a decompression bomb but a listing one: 7-Zip builds its
 * whole database before listing, and the listing's text is ~10 lines per entry.
 */
export async function sevenZipEntriesBomb(files = 1_000_000): Promise<Buffer> {
  const n = sevenZipNumber;
  const bits = Buffer.alloc(Math.ceil(files / 8), 0xff);
  const names = Buffer.concat(Array.from({ length: files }, (_, i) => Buffer.from(`f${i}\0`, 'utf16le')));
  const header = Buffer.concat([
    Buffer.from([0x01, 0x05]), // Header, FilesInfo
    n(files),
    Buffer.from([0x0e]), // EmptyStream: all of them
    n(bits.length),
    bits,
    Buffer.from([0x0f]), // EmptyFile: all of them (files, not folders)
    n(bits.length),
    bits,
    Buffer.from([0x11]), // Name
    n(names.length + 1),
    Buffer.from([0x00]),
    names,
    Buffer.from([0x00, 0x00]), // End (FilesInfo), End (Header)
  ]);
  const lzma2 = parseXz(await sevenZipCompress('xz', header, 'header'), header.length);
  const packed = Buffer.concat([lzma2.chunks, Buffer.from([0])]);
  const encoded = Buffer.concat([
    Buffer.from([0x17, 0x06]), // EncodedHeader: StreamsInfo, PackInfo
    n(0),
    n(1),
    Buffer.from([0x09]),
    n(packed.length),
    Buffer.from([0x00, 0x07, 0x0b]),
    n(1),
    Buffer.from([0x00, 0x01, 0x21, 0x21, 0x01, lzma2.dictProp, 0x0c]),
    n(header.length),
    Buffer.from([0x00, 0x00]),
  ]);
  return sevenZipFile(packed, encoded);
}

// ---- nesting -----------------------------------------------------------------------------------

/** `names[0]` holding `names[1]` holding ... the last holding `deep.txt` (zips, stored). */
export function nestedZips(names: readonly string[]): Buffer {
  let inner = zip([{ name: 'deep.txt', data: 'deep\n' }]);
  for (const name of names.slice(1).reverse()) inner = zip([{ name, data: inner, method: 0 }, { name: 'level.txt', data: name }]);
  return inner;
}

// ---- legitimate, highly compressible archives ---------------------------------------------------

/**
 * `bytes` of mostly zeros with 16 random bytes every 2 KiB: about 100:1 in every format here
 * (gzip 92, xz 108, bzip2 119), under the 200:1 limit.
 */
export function sparsePayload(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  const noise = randomBytes(Math.ceil(bytes / 2048) * 16);
  for (let at = 0, k = 0; at < bytes; at += 2048) for (let i = 0; i < 16 && at + i < bytes; i++) out[at + i] = noise[k++]!;
  return out;
}

export interface LegitFile {
  file: string;
  bytes: number;
  /** The payload's path inside the unpacked folder. */
  inside: string;
}

/** The same 24 MiB sparse payload as .gz, .zip, .tar.gz, .tar.bz2, .tar.xz and .7z. */
export async function writeLegit(dir: string): Promise<{ sha256: string; size: number; files: LegitFile[] }> {
  const payload = sparsePayload(24 * MiB);
  const tar = await tarball([{ name: 'pkg/data.bin', data: payload }]);
  const files: LegitFile[] = [];
  const put = async (file: string, data: Buffer, inside: string) => {
    await writeFile(path.join(dir, file), data);
    files.push({ file, bytes: data.length, inside });
  };
  await put('data.bin.gz', gzipSync(payload, { level: 9 }), 'data.bin');
  await put('data.zip', zip([{ name: 'pkg/data.bin', data: payload }]), 'pkg/data.bin');
  await put('data.tar.gz', gzipSync(tar, { level: 9 }), 'pkg/data.bin');
  await put('data.tar.bz2', await sevenZipCompress('bzip2', tar, 'data.tar'), 'pkg/data.bin');
  await put('data.tar.xz', await sevenZipCompress('xz', tar, 'data.tar', 5), 'pkg/data.bin');
  await put('data.7z', await sevenZipCompress('7z', payload, 'data.bin'), 'data.bin');
  return { sha256: createHash('sha256').update(payload).digest('hex'), size: payload.length, files };
}

// ---- all of them -------------------------------------------------------------------------------

export interface BombFile {
  file: string;
  format: string;
  bytes: number;
  /** What it expands to. */
  expands: number;
}

export async function writeBombs(dir: string): Promise<BombFile[]> {
  await mkdir(dir, { recursive: true });
  const made: BombFile[] = [];
  const put = async (file: string, format: string, data: Buffer, expands: number) => {
    await writeFile(path.join(dir, file), data);
    made.push({ file, format, bytes: data.length, expands });
  };
  await put('bomb.gz', 'gzip', gzipBomb(), 2 * GiB);
  await put('bomb.zip', 'zip', zipBomb(), 2 * GiB);
  await put('liar.zip', 'zip (header claims 300 MiB)', zipBomb(2 * GiB, 300 * MiB), 2 * GiB);
  await put('bomb.tar.gz', 'tar.gz (4 x 512 MiB)', await tarGzBomb(), 2 * GiB + 4 * 512 + 1024);
  await put('bomb.bz2', 'bzip2', await bzip2Bomb(), 48 * BZIP2_BLOCK_ZEROS);
  await put('bomb.xz', 'xz', await xzBomb(), 32 * XZ_BLOCK_ZEROS);
  await put('bomb.7z', '7z', await sevenZipBomb(), 32 * XZ_BLOCK_ZEROS);
  await put('liar.7z', '7z (header claims 15 MiB)', await sevenZipBomb(32, 15 * MiB), 32 * XZ_BLOCK_ZEROS);
  await put('entries.7z', '7z (1,000,000 entries in its header)', await sevenZipEntriesBomb(), 0);
  return made;
}

export interface Made {
  bombs: BombFile[];
  legit: Awaited<ReturnType<typeof writeLegit>>;
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: bomb-makers.ts <dir>');
  const made: Made = { bombs: await writeBombs(dir), legit: await writeLegit(dir) };
  console.log(JSON.stringify(made));
}
