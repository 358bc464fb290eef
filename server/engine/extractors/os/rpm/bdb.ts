// rpm's legacy BerkeleyDB `Packages` file (rpm < 4.16; still in CentOS 7/8, RHEL 7/8, Amazon Linux 2):
// a Berkeley DB hash database, keyed by the package number, whose values are header blobs. The
// layout is Berkeley DB's on-disk format (db_page.h): page 0 is the hash metadata page, every
// other page starts with a 26-byte header (lsn, pgno, prev, next, entries, hf_offset, level,
// type). Hash pages hold an index of item offsets, items in key/data pairs; a value too large for
// its page is an H_OFFPAGE item naming the first page of an overflow chain, whose pages carry
// `hf_offset` bytes each. The file is written in the byte order of the machine that made it: the
// magic number tells which. rpm reads it read-only these days (bdb_ro); so do we, page by page,
// without the hash function: every hash page of the file is visited once.
import type { BlobRecord } from './records.ts';
import { DatabaseError, MAX_BLOB_BYTES } from './records.ts';

const HASH_MAGIC = 0x061561;
const PAGE_HEADER = 26;
const P_HASH_UNSORTED = 2;
const P_OVERFLOW = 7;
const P_HASHMETA = 8;
const P_HASH = 13;
const H_KEYDATA = 1;
const H_OFFPAGE = 3;

export function isBerkeleyHash(buf: Buffer): boolean {
  return buf.length >= 512 && (buf.readUInt32LE(12) === HASH_MAGIC || buf.readUInt32BE(12) === HASH_MAGIC);
}

export function readBerkeleyDb(buf: Buffer): BlobRecord[] {
  if (buf.length < 512) throw new DatabaseError(`文件只有 ${buf.length} 字节，不是 Berkeley DB 数据库`);
  const le = buf.readUInt32LE(12) === HASH_MAGIC;
  if (!le && buf.readUInt32BE(12) !== HASH_MAGIC) throw new DatabaseError('不是 Berkeley DB 哈希数据库（魔数不符）');
  const u32 = (at: number) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const u16 = (at: number) => (le ? buf.readUInt16LE(at) : buf.readUInt16BE(at));
  const pageSize = u32(20);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) throw new DatabaseError(`页大小 ${pageSize} 无效`);
  if (buf[24] !== 0) throw new DatabaseError('数据库已加密，无法读取');
  if (buf[25] !== P_HASHMETA) throw new DatabaseError(`首页类型 ${buf[25]} 不是哈希元数据页`);
  const lastPage = u32(32);
  const pages = Math.min(lastPage + 1, Math.floor(buf.length / pageSize));
  const records: BlobRecord[] = [];
  const seen = new Set<number>();

  for (let pgno = 1; pgno < pages; pgno++) {
    const page = pgno * pageSize;
    const type = buf[page + 25];
    if (type !== P_HASH && type !== P_HASH_UNSORTED) continue;
    const entries = u16(page + 20);
    if (PAGE_HEADER + entries * 2 > pageSize) {
      records.push({ id: -pgno, error: `第 ${pgno} 页声明 ${entries} 个条目，超出页面` });
      continue;
    }
    const offsetOf = (i: number) => u16(page + PAGE_HEADER + i * 2);
    const item = (i: number): { at: number; len: number } | undefined => {
      const off = offsetOf(i);
      const end = i === 0 ? pageSize : offsetOf(i - 1);
      if (off < PAGE_HEADER + entries * 2 || off >= end || end > pageSize) return undefined;
      return { at: page + off, len: end - off };
    };
    for (let i = 0; i + 1 < entries; i += 2) {
      const key = item(i);
      const value = item(i + 1);
      if (!key || !value) {
        records.push({ id: -pgno, error: `第 ${pgno} 页第 ${i / 2 + 1} 个条目的偏移越界` });
        continue;
      }
      // Keys are the package number in the file's byte order; key 0 is rpm's instance counter.
      if (buf[key.at] !== H_KEYDATA || key.len !== 5) continue;
      const id = le ? buf.readUInt32LE(key.at + 1) : buf.readUInt32BE(key.at + 1);
      if (id === 0 || seen.has(id)) continue;
      seen.add(id);
      const valueType = buf[value.at];
      if (valueType === H_KEYDATA) {
        records.push({ id, blob: buf.subarray(value.at + 1, value.at + value.len) });
      } else if (valueType === H_OFFPAGE) {
        if (value.len < 12) { records.push({ id, error: '溢出页引用不完整' }); continue; }
        records.push(overflow(id, u32(value.at + 4), u32(value.at + 8)));
      } else {
        records.push({ id, error: `不支持的条目类型 ${valueType}` });
      }
    }
  }
  return records;

  function overflow(id: number, first: number, total: number): BlobRecord {
    if (total > MAX_BLOB_BYTES || total > buf.length) return { id, error: `声明长度 ${total} 字节超过上限或文件大小` };
    const out = Buffer.allocUnsafe(total);
    let filled = 0;
    const visited = new Set<number>();
    for (let pgno = first; filled < total; ) {
      if (pgno === 0 || pgno >= pages) return { id, error: `溢出页链在 ${filled}/${total} 字节处中断（页号 ${pgno}）` };
      if (visited.has(pgno)) return { id, error: `溢出页链在第 ${pgno} 页成环` };
      visited.add(pgno);
      const page = pgno * pageSize;
      if (buf[page + 25] !== P_OVERFLOW) return { id, error: `第 ${pgno} 页不是溢出页` };
      const used = u16(page + 22);
      if (used > pageSize - PAGE_HEADER || filled + used > total) return { id, error: `第 ${pgno} 页的数据长度 ${used} 越界` };
      buf.copy(out, filled, page + PAGE_HEADER, page + PAGE_HEADER + used);
      filled += used;
      pgno = u32(page + 16);
      if (used === 0 && filled < total) return { id, error: `第 ${pgno} 页没有数据` };
    }
    return { id, blob: out };
  }
}
