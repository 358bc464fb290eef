// Reading a few entries of a zip file in place (a jar's pom.properties and manifest, the jars
// nested in a war) without unpacking it: the central directory (zip64 and a preamble such as a
// launch script before the zip included), then single entries, stored or deflated, within size
// caps. For unpacking whole archives under the upload limits see sources/archive/zip.ts.
import { inflateRawSync } from 'node:zlib';
import type { RandomAccess } from './random-access.ts';
import { bufferAccess, sliceAccess } from './random-access.ts';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the local header, preamble included. */
  localOffset: number;
  encrypted: boolean;
}

/** Central directories larger than this are not read (some hundred thousand entries). */
const MAX_DIRECTORY = 64 * 1024 * 1024;
const MAX_ENTRIES = 500_000;

export class ZipFormatError extends Error {}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Whether the first bytes are a zip local header (or an empty zip): cheap check before listing. */
export function looksLikeZip(head: Buffer): boolean {
  return head.length >= 4 && (head.readUInt32LE(0) === LOCAL || head.readUInt32LE(0) === EOCD);
}

async function readExact(src: RandomAccess, position: number, length: number): Promise<Buffer> {
  const b = await src.read(position, length);
  if (b.length !== length) throw new ZipFormatError('文件被截断');
  return b;
}

/** Every entry of the central directory, in its order. Throws ZipFormatError for a file that is not a readable zip. */
export async function listZip(src: RandomAccess): Promise<ZipEntry[]> {
  try {
    return await readDirectory(src);
  } catch (error) {
    // A length field pointing past the record it belongs to.
    if (error instanceof RangeError) throw new ZipFormatError('zip 中央目录条目损坏');
    throw error;
  }
}

async function readDirectory(src: RandomAccess): Promise<ZipEntry[]> {
  const tailSize = Math.min(src.size, 65_535 + 22);
  const tailAt = src.size - tailSize;
  const tail = await readExact(src, tailAt, tailSize);
  let e = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) { e = i; break; }
  }
  if (e < 0) throw new ZipFormatError('找不到 zip 中央目录');
  let count = tail.readUInt16LE(e + 10);
  let cdSize = tail.readUInt32LE(e + 12);
  let cdOffset = tail.readUInt32LE(e + 16);
  const eocdAt = tailAt + e;
  let directoryEnd = eocdAt;
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocdAt >= 20 ? await readExact(src, eocdAt - 20, 20) : undefined;
    if (locator?.readUInt32LE(0) === EOCD64_LOCATOR) {
      const at = Number(locator.readBigUInt64LE(8));
      // The recorded offset may not count a preamble: the record sits right before the locator.
      const guess = eocdAt - 20 - 56;
      for (const pos of [at, guess]) {
        if (pos < 0) continue;
        const rec = await src.read(pos, 56);
        if (rec.length === 56 && rec.readUInt32LE(0) === EOCD64) {
          count = Number(rec.readBigUInt64LE(32));
          cdSize = Number(rec.readBigUInt64LE(40));
          cdOffset = Number(rec.readBigUInt64LE(48));
          directoryEnd = pos;
          break;
        }
      }
    }
  }
  if (cdSize > MAX_DIRECTORY || count > MAX_ENTRIES) throw new ZipFormatError('zip 中央目录过大');
  // Offsets are relative to the zip's start: a preamble (an executable jar's launch script) shifts them.
  const shift = directoryEnd - cdSize - cdOffset;
  if (shift < 0) throw new ZipFormatError('zip 中央目录位置无效');
  const dir = await readExact(src, cdOffset + shift, cdSize);
  const entries: ZipEntry[] = [];
  let o = 0;
  for (let i = 0; i < count; i++) {
    if (o + 46 > dir.length || dir.readUInt32LE(o) !== CENTRAL) throw new ZipFormatError('zip 中央目录条目损坏');
    const flags = dir.readUInt16LE(o + 8);
    const method = dir.readUInt16LE(o + 10);
    let compressedSize = dir.readUInt32LE(o + 20);
    let size = dir.readUInt32LE(o + 24);
    const nameLen = dir.readUInt16LE(o + 28);
    const extraLen = dir.readUInt16LE(o + 30);
    const commentLen = dir.readUInt16LE(o + 32);
    let localOffset = dir.readUInt32LE(o + 42);
    const name = dir.toString(flags & 0x800 ? 'utf8' : 'latin1', o + 46, o + 46 + nameLen);
    // zip64 extra field: the 0xffffffff fields, in order.
    for (let x = o + 46 + nameLen, end = x + extraLen; x + 4 <= end;) {
      const id = dir.readUInt16LE(x);
      const len = dir.readUInt16LE(x + 2);
      if (id === 0x0001) {
        let p = x + 4;
        if (size === 0xffffffff && p + 8 <= x + 4 + len) { size = Number(dir.readBigUInt64LE(p)); p += 8; }
        if (compressedSize === 0xffffffff && p + 8 <= x + 4 + len) { compressedSize = Number(dir.readBigUInt64LE(p)); p += 8; }
        if (localOffset === 0xffffffff && p + 8 <= x + 4 + len) { localOffset = Number(dir.readBigUInt64LE(p)); }
      }
      x += 4 + len;
    }
    entries.push({ name, method, compressedSize, size, localOffset: localOffset + shift, encrypted: (flags & 1) !== 0 });
    o += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

async function dataOffset(src: RandomAccess, entry: ZipEntry): Promise<number> {
  const local = await readExact(src, entry.localOffset, 30);
  if (local.readUInt32LE(0) !== LOCAL) throw new ZipFormatError(`条目 ${entry.name} 的本地文件头损坏`);
  return entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
}

/** One entry's bytes, at most `maxSize` of them inflated; undefined when encrypted, of another method or larger. */
export async function readZipEntry(src: RandomAccess, entry: ZipEntry, maxSize: number): Promise<Buffer | undefined> {
  if (entry.encrypted || entry.size > maxSize) return undefined;
  const at = await dataOffset(src, entry);
  if (entry.method === 0) return readExact(src, at, entry.size);
  if (entry.method !== 8) return undefined;
  const raw = await readExact(src, at, entry.compressedSize);
  try {
    return inflateRawSync(raw, { maxOutputLength: Math.max(1, maxSize) });
  } catch {
    throw new ZipFormatError(`条目 ${entry.name} 无法解压`);
  }
}

/** An entry as a source of its own (a jar inside a war): a window when stored, inflated into memory otherwise. */
export async function zipEntryAccess(src: RandomAccess, entry: ZipEntry, maxSize: number): Promise<RandomAccess | undefined> {
  if (entry.method === 0 && !entry.encrypted) return sliceAccess(src, await dataOffset(src, entry), entry.size);
  const data = await readZipEntry(src, entry, maxSize);
  return data ? bufferAccess(data) : undefined;
}
