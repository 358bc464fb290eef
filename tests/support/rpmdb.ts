// Builders for rpm header blobs and package databases in tests: hand-made inputs for the cases
// the corpora do not hold (NDB, big-endian BerkeleyDB, inline BerkeleyDB values, hostile fields).
// Layouts as in rpm's doc/manual/format.md, lib/backend/ndb/rpmpkg.c and Berkeley DB's db_page.h.

export type HeaderValue = string | string[] | number[] | bigint[] | Buffer;
export interface HeaderEntry { tag: number; type: number; value: HeaderValue }

const ALIGN: Record<number, number> = { 3: 2, 4: 4, 5: 8 };

/** An rpm header blob (il, dl, index, data store) as the database stores it. */
export function buildHeader(entries: HeaderEntry[]): Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  const index = Buffer.alloc(entries.length * 16);
  entries.forEach((e, i) => {
    const align = ALIGN[e.type] ?? 1;
    if (size % align) { const pad = Buffer.alloc(align - (size % align)); chunks.push(pad); size += pad.length; }
    let data: Buffer;
    let count: number;
    if (Buffer.isBuffer(e.value)) { data = e.value; count = e.value.length; }
    else if (typeof e.value === 'string') { data = Buffer.from(`${e.value}\0`); count = 1; }
    else if (e.value.length && typeof e.value[0] === 'string') {
      data = Buffer.concat((e.value as string[]).map((s) => Buffer.from(`${s}\0`))); count = e.value.length;
    } else {
      const values = e.value as (number | bigint)[];
      const width = e.type === 2 || e.type === 1 ? 1 : e.type === 3 ? 2 : e.type === 4 ? 4 : 8;
      data = Buffer.alloc(values.length * width);
      values.forEach((v, j) => {
        if (width === 1) data.writeUInt8(Number(v), j);
        else if (width === 2) data.writeUInt16BE(Number(v), j * 2);
        else if (width === 4) data.writeUInt32BE(Number(v), j * 4);
        else data.writeBigUInt64BE(BigInt(v), j * 8);
      });
      count = values.length;
    }
    index.writeInt32BE(e.tag, i * 16);
    index.writeUInt32BE(e.type, i * 16 + 4);
    index.writeInt32BE(size, i * 16 + 8);
    index.writeUInt32BE(count, i * 16 + 12);
    chunks.push(data);
    size += data.length;
  });
  const head = Buffer.alloc(8);
  head.writeUInt32BE(entries.length, 0);
  head.writeUInt32BE(size, 4);
  return Buffer.concat([head, index, ...chunks]);
}

export interface PackageSpec {
  name: string; version: string; release: string; arch?: string; epoch?: number; license?: string;
  sourceRpm?: string; vendor?: string; size?: number; files?: string[]; provides?: string[]; requires?: string[];
}

/** A header with the tags the inventory reads. */
export function packageHeader(p: PackageSpec): Buffer {
  const e: HeaderEntry[] = [
    { tag: 1000, type: 6, value: p.name }, { tag: 1001, type: 6, value: p.version }, { tag: 1002, type: 6, value: p.release },
  ];
  if (p.epoch !== undefined) e.push({ tag: 1003, type: 4, value: [p.epoch] });
  if (p.size !== undefined) e.push({ tag: 1009, type: 4, value: [p.size] });
  if (p.vendor) e.push({ tag: 1011, type: 6, value: p.vendor });
  if (p.license) e.push({ tag: 1014, type: 6, value: p.license });
  e.push({ tag: 1022, type: 6, value: p.arch ?? 'x86_64' });
  if (p.sourceRpm) e.push({ tag: 1044, type: 6, value: p.sourceRpm });
  if (p.provides?.length) e.push({ tag: 1047, type: 8, value: p.provides });
  if (p.requires?.length) e.push({ tag: 1049, type: 8, value: p.requires });
  if (p.files?.length) {
    const dirs: string[] = [];
    const index: number[] = [];
    const base: string[] = [];
    for (const f of p.files) {
      const cut = f.lastIndexOf('/') + 1;
      const dir = f.slice(0, cut);
      if (!dirs.includes(dir)) dirs.push(dir);
      index.push(dirs.indexOf(dir));
      base.push(f.slice(cut));
    }
    e.push({ tag: 1116, type: 4, value: index }, { tag: 1117, type: 8, value: base }, { tag: 1118, type: 8, value: dirs });
  }
  return buildHeader(e);
}

/** An NDB Packages.db holding `blobs` as packages 1..n. */
export function buildNdb(blobs: Buffer[]): Buffer {
  const slotPages = Math.ceil(((blobs.length + 2) * 16) / 4096);
  const slots = Buffer.alloc(slotPages * 4096);
  slots.write('RpmP', 0, 'latin1');
  slots.writeUInt32LE(0, 4);
  slots.writeUInt32LE(1, 8);
  slots.writeUInt32LE(slotPages, 12);
  slots.writeUInt32LE(blobs.length + 1, 16);
  for (let s = 2; s < (slotPages * 4096) / 16; s++) slots.write('Slot', s * 16, 'latin1');
  const parts: Buffer[] = [slots];
  let offset = slots.length;
  blobs.forEach((blob, i) => {
    const blkcnt = Math.ceil((16 + blob.length + 12) / 16);
    const b = Buffer.alloc(blkcnt * 16);
    b.write('BlbS', 0, 'latin1');
    b.writeUInt32LE(i + 1, 4);
    b.writeUInt32LE(1, 8);
    b.writeUInt32LE(blob.length, 12);
    blob.copy(b, 16);
    b.writeUInt32LE(blob.length, 16 + blob.length + 4);
    b.write('BlbE', 16 + blob.length + 8, 'latin1');
    const slot = (i + 2) * 16;
    slots.writeUInt32LE(i + 1, slot + 4);
    slots.writeUInt32LE(offset / 16, slot + 8);
    slots.writeUInt32LE(blkcnt, slot + 12);
    parts.push(b);
    offset += b.length;
  });
  return Buffer.concat(parts);
}

/**
 * A Berkeley DB hash file with `blobs` as packages 1..n (plus rpm's key-0 counter record): values
 * up to `inlineMax` bytes inline (H_KEYDATA), larger ones on overflow page chains (H_OFFPAGE).
 */
export function buildBdb(blobs: Buffer[], options: { bigEndian?: boolean; pageSize?: number; inlineMax?: number } = {}): Buffer {
  const pageSize = options.pageSize ?? 4096;
  const be = options.bigEndian ?? false;
  const inlineMax = options.inlineMax ?? 512;
  const pages: Buffer[] = [];
  const u32 = (b: Buffer, v: number, at: number) => (be ? b.writeUInt32BE(v, at) : b.writeUInt32LE(v, at));
  const u16 = (b: Buffer, v: number, at: number) => (be ? b.writeUInt16BE(v, at) : b.writeUInt16LE(v, at));
  const newPage = (type: number): Buffer => {
    const p = Buffer.alloc(pageSize);
    u32(p, pages.length, 8);
    p[25] = type;
    pages.push(p);
    return p;
  };
  const meta = newPage(8);
  u32(meta, 0x061561, 12);
  u32(meta, 9, 16);
  u32(meta, pageSize, 20);
  const items: Buffer[][] = [];
  const key = (id: number) => { const k = Buffer.alloc(5); k[0] = 1; u32(k, id, 1); return k; };
  const counter = Buffer.alloc(4); u32(counter, blobs.length + 1, 0);
  const pairs: [Buffer, Buffer][] = [[key(0), counter], ...blobs.map((b, i): [Buffer, Buffer] => [key(i + 1), b])];
  // Hash pages first (values resolved after overflow pages are placed).
  const perPage = 2;
  const hashPages: Buffer[] = [];
  for (let i = 0; i < pairs.length; i += perPage) hashPages.push(newPage(13));
  for (const [j, pair] of pairs.entries()) {
    const [k, blob] = pair;
    let value: Buffer;
    if (blob.length > inlineMax) {
      const first = pages.length;
      const room = pageSize - 26;
      for (let at = 0; at < blob.length; at += room) {
        const p = newPage(7);
        const part = blob.subarray(at, at + room);
        part.copy(p, 26);
        u16(p, part.length, 22);
        u32(p, at + room < blob.length ? pages.length : 0, 16);
      }
      value = Buffer.alloc(12); value[0] = 3; u32(value, first, 4); u32(value, blob.length, 8);
    } else {
      value = Buffer.concat([Buffer.from([1]), blob]);
    }
    (items[Math.floor(j / perPage)] ??= []).push(k, value);
  }
  // One bucket (max_bucket 0, masks 0): its pages chained by next/prev, as Berkeley DB chains a
  // bucket's overflow hash pages; rpm's own bdb_ro reads the result.
  hashPages.forEach((p, n) => {
    if (n > 0) u32(p, (be ? hashPages[n - 1]!.readUInt32BE(8) : hashPages[n - 1]!.readUInt32LE(8)), 12);
    if (n + 1 < hashPages.length) u32(p, be ? hashPages[n + 1]!.readUInt32BE(8) : hashPages[n + 1]!.readUInt32LE(8), 16);
    const list = items[n] ?? [];
    u16(p, list.length, 20);
    let end = pageSize;
    list.forEach((item, i) => {
      end -= item.length;
      if (end < 26 + list.length * 2) throw new Error('hash page overflow in test builder: lower inlineMax');
      item.copy(p, end);
      u16(p, end, 26 + i * 2);
    });
    u16(p, end, 22);
  });
  u32(meta, pages.length - 1, 32);
  u32(meta, pairs.length, 88);
  u32(meta, 1, 96); // spares[0]: bucket 0 is page 0 + 1
  return Buffer.concat(pages);
}

/**
 * The same Berkeley DB hash file in the other byte order: every number Berkeley DB writes natively
 * (metadata, page headers, item offsets, overflow references, the package-number keys) swapped;
 * header blobs, always big-endian, left alone. How a database made on s390x or ppc64 looks.
 */
export function swapBdbEndianness(src: Buffer): Buffer {
  const buf = Buffer.from(src);
  const le = buf.readUInt32LE(12) === 0x061561;
  const r32 = (at: number) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const r16 = (at: number) => (le ? buf.readUInt16LE(at) : buf.readUInt16BE(at));
  const s32 = (at: number) => { buf.writeUInt32LE(buf.readUInt32BE(at), at); };
  const s16 = (at: number) => { buf.writeUInt16LE(buf.readUInt16BE(at), at); };
  const pageSize = r32(20);
  const pages = Math.floor(buf.length / pageSize);
  for (const at of [8, 12, 16, 20, 28, 32, 36, 40, 44, 48, 72, 76, 80, 84, 88, 92]) s32(at);
  for (let at = 96; at < 224; at += 4) s32(at);
  for (let p = 1; p < pages; p++) {
    const page = p * pageSize;
    const type = buf[page + 25];
    const entries = r16(page + 20);
    if (type === 2 || type === 13) {
      for (let i = 0; i < entries; i++) {
        const off = page + r16(page + 26 + i * 2);
        if (buf[off] === 3) { s32(off + 4); s32(off + 8); }
        else if (i % 2 === 0 && buf[off] === 1) s32(off + 1);
      }
      for (let i = 0; i < entries; i++) s16(page + 26 + i * 2);
    }
    for (const at of [8, 12, 16]) s32(page + at);
    s16(page + 20);
    s16(page + 22);
  }
  return buf;
}
