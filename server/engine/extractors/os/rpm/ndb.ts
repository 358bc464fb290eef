// rpm's NDB package database `Packages.db` (rpm >= 4.15; the default of openSUSE/SLES 15 at
// usr/lib/sysimage/rpm/Packages.db), after rpm's lib/backend/ndb/rpmpkg.c. Little-endian:
//   header (32 bytes): "RpmP", version 0, generation, slot page count, next package index
//   slot table: slotnpages pages of 4096 bytes, 16-byte slots ("Slot", pkgidx, blkoff, blkcnt),
//     the header taking the place of the first two; pkgidx 0 marks a free slot
//   blobs at blkoff * 16: head ("BlbS", pkgidx, generation, bloblen), the header blob,
//     tail (adler32, bloblen, "BlbE"), padded to whole 16-byte blocks.
import type { BlobRecord } from './records.ts';
import { DatabaseError, MAX_BLOB_BYTES } from './records.ts';

const PAGE = 4096;
const SLOT = 16;
const BLK = 16;
const HEAD = 16;
const TAIL = 12;
/** 256 MiB of slot table: far beyond any real database (one page holds 254 packages). */
const MAX_SLOT_PAGES = 65536;

export const isNdb = (buf: Buffer): boolean => buf.length >= 32 && buf.toString('latin1', 0, 4) === 'RpmP';

export function readNdb(buf: Buffer): BlobRecord[] {
  if (!isNdb(buf)) throw new DatabaseError('不是 rpm NDB 数据库（魔数不符）');
  const version = buf.readUInt32LE(4);
  if (version !== 0) throw new DatabaseError(`不支持的 NDB 版本 ${version}`);
  const slotPages = buf.readUInt32LE(12);
  if (slotPages === 0 || slotPages > MAX_SLOT_PAGES || slotPages * PAGE > buf.length) {
    throw new DatabaseError(`槽位表声明 ${slotPages} 页，超出文件（${buf.length} 字节）`);
  }
  const records: BlobRecord[] = [];
  const seen = new Set<number>();
  for (let slot = 32 / SLOT; slot < (slotPages * PAGE) / SLOT; slot++) {
    const at = slot * SLOT;
    if (buf.toString('latin1', at, at + 4) !== 'Slot') {
      records.push({ id: -slot, error: `第 ${slot} 个槽位的魔数不符` });
      continue;
    }
    const id = buf.readUInt32LE(at + 4);
    if (id === 0) continue;
    if (seen.has(id)) { records.push({ id, error: '包编号在槽位表中重复' }); continue; }
    seen.add(id);
    records.push(blobAt(buf, id, buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12)));
  }
  return records;
}

function blobAt(buf: Buffer, id: number, blkoff: number, blkcnt: number): BlobRecord {
  const start = blkoff * BLK;
  if (blkcnt < Math.ceil((HEAD + TAIL) / BLK) || start + blkcnt * BLK > buf.length) {
    return { id, error: `数据块（偏移 ${blkoff}，${blkcnt} 块）超出文件` };
  }
  if (buf.toString('latin1', start, start + 4) !== 'BlbS') return { id, error: '数据块头的魔数不符' };
  if (buf.readUInt32LE(start + 4) !== id) return { id, error: '数据块头的包编号与槽位不符' };
  const len = buf.readUInt32LE(start + 12);
  if (len > MAX_BLOB_BYTES || Math.ceil((HEAD + len + TAIL) / BLK) !== blkcnt) return { id, error: `数据块长度 ${len} 与块数 ${blkcnt} 不符` };
  const tail = start + HEAD + len;
  if (buf.readUInt32LE(tail + 4) !== len || buf.toString('latin1', tail + 8, tail + 12) !== 'BlbE') return { id, error: '数据块尾不完整' };
  return { id, blob: buf.subarray(start + HEAD, tail) };
}
