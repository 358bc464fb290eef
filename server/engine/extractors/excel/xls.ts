// Legacy Excel 97-2003 workbooks (.xls): our own small reader, no third-party parser.
//
// An .xls is a Compound File Binary container (OLE2/CFB) holding a `Workbook` stream of BIFF8
// records. Only what a component list needs is read: sheet names and visibility, the shared
// string table and the cell values (strings, numbers, booleans, cached formula results).
// Every index, chain and size taken from the file is checked, so a hostile file can neither loop
// nor make us allocate without bound; any inconsistency is an ExtractError in Chinese.
import iconv from 'iconv-lite';
import { ExtractError } from '../../model.ts';
import type { Sheet, SheetRow } from './read.ts';

/** Largest stream (and container) we agree to read. */
const MAX_STREAM = 100 * 1024 * 1024;
const MAX_CONTINUES = 100_000;
/** BIFF8 worksheets have 256 columns. */
const MAX_COLUMNS = 256;

const MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;

export const isCfb = (buf: Buffer): boolean => buf.length >= 8 && buf.subarray(0, 8).equals(MAGIC);

/** Raised for structural damage; turned into an ExtractError naming the file. */
class Corrupt extends Error {}
const fail = (detail: string): never => {
  throw new Corrupt(detail);
};

// ---------------------------------------------------------------------------------------------
// Compound File Binary

interface DirEntry {
  name: string;
  type: number;
  start: number;
  size: number;
}

export interface CfbFile {
  entries: DirEntry[];
  /** The bytes of a stream entry (type 2). */
  read(entry: DirEntry): Buffer;
}

export function openCfb(buf: Buffer): CfbFile {
  if (buf.length < 512 || !isCfb(buf)) fail('文件头无效');
  if (buf.length > MAX_STREAM + 4096) fail('文件过大');
  if (buf.readUInt16LE(0x1c) !== 0xfffe) fail('字节序标记无效');
  const shift = buf.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) fail('扇区大小无效');
  const miniShift = buf.readUInt16LE(0x20);
  if (miniShift !== 6) fail('小扇区大小无效');
  const size = 1 << shift;
  const miniSize = 1 << miniShift;
  const sectors = Math.ceil((buf.length - size) / size);
  if (sectors <= 0) fail('文件不完整');
  const numFat = buf.readUInt32LE(0x2c);
  const firstDir = buf.readUInt32LE(0x30);
  const cutoff = buf.readUInt32LE(0x38);
  const firstMiniFat = buf.readUInt32LE(0x3c);
  const numMiniFat = buf.readUInt32LE(0x40);
  const firstDifat = buf.readUInt32LE(0x44);
  const numDifat = buf.readUInt32LE(0x48);
  if (numFat > sectors || numDifat > sectors || numMiniFat > sectors) fail('扇区计数无效');

  /** One sector's bytes (a last sector cut short is zero-padded). */
  const sector = (id: number): Buffer => {
    if (!Number.isInteger(id) || id < 0 || id >= sectors) fail(`扇区编号 ${id} 越界`);
    const start = (id + 1) * size;
    const out = buf.subarray(start, start + size);
    return out.length === size ? out : Buffer.concat([out, Buffer.alloc(size - out.length)]);
  };

  // DIFAT: the header's 109 entries, then the chain of DIFAT sectors.
  const fatSectors: number[] = [];
  const addFat = (id: number) => {
    if (id === FREESECT || id === ENDOFCHAIN) return;
    if (fatSectors.length >= numFat) return;
    fatSectors.push(id);
  };
  for (let i = 0; i < 109; i++) addFat(buf.readUInt32LE(0x4c + i * 4));
  let difat = firstDifat;
  const seenDifat = new Set<number>();
  for (let n = 0; n < numDifat && difat !== ENDOFCHAIN && difat !== FREESECT; n++) {
    if (seenDifat.has(difat)) fail('DIFAT 链存在循环');
    seenDifat.add(difat);
    const data = sector(difat);
    const per = size / 4 - 1;
    for (let i = 0; i < per; i++) addFat(data.readUInt32LE(i * 4));
    difat = data.readUInt32LE(per * 4);
  }
  if (fatSectors.length !== numFat) fail('FAT 扇区数与文件头不符');

  const fat = new Uint32Array(numFat * (size / 4));
  fatSectors.forEach((id, i) => {
    const data = sector(id);
    for (let j = 0; j < size / 4; j++) fat[i * (size / 4) + j] = data.readUInt32LE(j * 4);
  });

  /** Sector ids of a chain, checked for range and cycles. */
  const chain = (start: number, table: Uint32Array, limit: number, what: string): number[] => {
    const out: number[] = [];
    const seen = new Uint8Array(limit);
    let id = start;
    while (id !== ENDOFCHAIN) {
      if (id >= limit || id >= table.length) fail(`${what}链中的扇区编号 ${id} 越界`);
      if (seen[id]) fail(`${what}链存在循环`);
      seen[id] = 1;
      out.push(id);
      id = table[id]!;
    }
    return out;
  };
  const limit = Math.min(sectors, fat.length);
  const readChain = (start: number, length: number, what: string): Buffer => {
    if (length > MAX_STREAM) fail(`${what}过大`);
    const ids = chain(start, fat, limit, what);
    if (ids.length * size < length) fail(`${what}不完整`);
    return Buffer.concat(ids.map(sector)).subarray(0, length);
  };

  // Directory
  const dirIds = chain(firstDir, fat, limit, '目录');
  const entries: DirEntry[] = [];
  for (const id of dirIds) {
    const data = sector(id);
    for (let off = 0; off < size; off += 128) {
      const type = data[off + 0x42]!;
      if (type === 0) {
        entries.push({ name: '', type: 0, start: 0, size: 0 });
        continue;
      }
      const nameLength = Math.min(64, data.readUInt16LE(off + 0x40));
      const name = data.toString('utf16le', off, off + Math.max(0, nameLength - 2));
      const high = data.readUInt32LE(off + 0x7c);
      const low = data.readUInt32LE(off + 0x78);
      // Version 3 files may leave garbage in the high half of the size.
      const bytes = shift === 9 ? low : high * 0x1_0000_0000 + low;
      entries.push({ name, type, start: data.readUInt32LE(off + 0x74), size: bytes });
    }
  }
  const root = entries[0];
  if (!root || root.type !== 5) fail('缺少根目录项');

  let miniStream: Buffer | undefined;
  let miniFat: Uint32Array | undefined;
  const mini = () => {
    if (!miniStream || !miniFat) {
      miniStream = root!.start === ENDOFCHAIN ? Buffer.alloc(0) : readChain(root!.start, root!.size, '小扇区数据流');
      const table = firstMiniFat === ENDOFCHAIN || numMiniFat === 0 ? Buffer.alloc(0) : readChain(firstMiniFat, numMiniFat * size, '小扇区分配表');
      miniFat = new Uint32Array(table.length / 4);
      for (let i = 0; i < miniFat.length; i++) miniFat[i] = table.readUInt32LE(i * 4);
    }
    return { stream: miniStream, table: miniFat };
  };

  return {
    entries,
    read(entry: DirEntry): Buffer {
      if (entry.size > MAX_STREAM) fail('数据流过大');
      if (entry.size === 0) return Buffer.alloc(0);
      if (entry.size >= cutoff) return readChain(entry.start, entry.size, '数据流');
      const { stream, table } = mini();
      const count = Math.min(table.length, Math.floor(stream.length / miniSize));
      const ids = chain(entry.start, table, count, '小扇区');
      if (ids.length * miniSize < entry.size) fail('数据流不完整');
      return Buffer.concat(ids.map((id) => stream.subarray(id * miniSize, (id + 1) * miniSize))).subarray(0, entry.size);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// BIFF8

interface BiffRecord {
  type: number;
  data: Buffer;
  /** Offset of the record header in the stream. */
  at: number;
}

const BOF = 0x0809;
const EOF = 0x000a;
const CONTINUE = 0x003c;

function* records(stream: Buffer, from: number): Generator<BiffRecord> {
  let at = from;
  while (at + 4 <= stream.length) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    if (at + 4 + length > stream.length) fail('记录长度越界');
    yield { type, data: stream.subarray(at + 4, at + 4 + length), at };
    at += 4 + length;
  }
}

/** Records one at a time; one may be pushed back (looking for CONTINUE records). */
class Records {
  private readonly it: Generator<BiffRecord>;
  private back: BiffRecord | undefined;

  constructor(stream: Buffer, from: number) {
    this.it = records(stream, from);
  }

  next(): BiffRecord | undefined {
    const back = this.back;
    if (back) {
      this.back = undefined;
      return back;
    }
    const n = this.it.next();
    return n.done ? undefined : n.value;
  }

  /** The data of the CONTINUE records that follow. */
  continues(): Buffer[] {
    const out: Buffer[] = [];
    for (let r = this.next(); r; r = this.next()) {
      if (r.type !== CONTINUE) {
        this.back = r;
        break;
      }
      // Excel fills each to 8224 bytes: 100 MB takes some 13 000 of them.
      if (out.length >= MAX_CONTINUES) fail('CONTINUE 记录过多');
      out.push(r.data);
    }
    return out;
  }
}

/** Reads across a record and its CONTINUE records; strings re-read their high-byte flag at each. */
class Segments {
  private index = 0;
  private pos = 0;
  private readonly parts: Buffer[];
  private readonly decode8: (bytes: Buffer) => string;

  constructor(parts: Buffer[], decode8: (bytes: Buffer) => string) {
    this.parts = parts;
    this.decode8 = decode8;
  }

  private current(): Buffer | undefined {
    while (this.index < this.parts.length && this.pos >= this.parts[this.index]!.length) {
      this.index++;
      this.pos = 0;
    }
    return this.parts[this.index];
  }

  get done(): boolean {
    return this.current() === undefined;
  }

  bytes(n: number): Buffer {
    const out: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const part = this.current() ?? fail('记录数据不完整');
      const take = Math.min(left, part.length - this.pos);
      out.push(part.subarray(this.pos, this.pos + take));
      this.pos += take;
      left -= take;
    }
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  skip(n: number): void {
    let left = n;
    while (left > 0) {
      const part = this.current() ?? fail('记录数据不完整');
      const take = Math.min(left, part.length - this.pos);
      this.pos += take;
      left -= take;
    }
  }

  u8 = () => this.bytes(1)[0]!;
  u16 = () => this.bytes(2).readUInt16LE(0);
  i32 = () => this.bytes(4).readInt32LE(0);

  /**
   * XLUnicodeRichExtendedString (SST; rich-text runs and phonetic data skipped), XLUnicodeString
   * (LABEL, STRING) or, with a one-byte count, ShortXLUnicodeString (sheet names).
   */
  string(cchBytes: 1 | 2 = 2): string {
    const cch = cchBytes === 1 ? this.u8() : this.u16();
    const flags = this.u8();
    let high = (flags & 0x01) !== 0;
    const runs = flags & 0x08 ? this.u16() : 0;
    const ext = flags & 0x04 ? this.i32() : 0;
    if (ext < 0 || ext > MAX_STREAM) fail('字符串扩展数据长度无效');
    let text = '';
    let left = cch;
    while (left > 0) {
      let part = this.parts[this.index];
      if (part !== undefined && this.pos >= part.length) {
        // The characters go on in a CONTINUE record, which starts with its own high-byte flag.
        this.index++;
        part = this.parts[this.index];
        if (part === undefined || part.length === 0) fail('字符串数据不完整');
        high = (part![0]! & 0x01) !== 0;
        this.pos = 1;
      }
      if (part === undefined) fail('字符串数据不完整');
      const avail = part!.length - this.pos;
      const n = Math.min(left, high ? Math.floor(avail / 2) : avail);
      if (n === 0) {
        if (avail > 0) fail('字符串跨记录断开位置无效');
        continue;
      }
      const bytes = this.bytes(high ? n * 2 : n);
      text += high ? bytes.toString('utf16le') : this.decode8(bytes);
      left -= n;
    }
    this.skip(runs * 4);
    this.skip(ext);
    return text;
  }
}

/** Like Excel's "General" format: integers as is, others with up to 15 significant digits. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return String(Number(value.toPrecision(15)));
}

export function decodeRk(rk: number): number {
  let value: number;
  if (rk & 0x02) value = rk >> 2;
  else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    value = b.readDoubleLE(0);
  }
  return rk & 0x01 ? value / 100 : value;
}

export interface XlsOptions {
  /** File name for messages. */
  name?: string;
  signal?: AbortSignal;
}

interface BoundSheet {
  name: string;
  hidden: boolean;
  offset: number;
}

/**
 * The worksheets of an .xls (chart and macro sheets left out). The workbook globals are read at
 * once (so encryption and old formats are reported before any row); each sheet's cells are decoded
 * when its rows are iterated.
 */
export function xlsSheets(buf: Buffer, options: XlsOptions = {}): Sheet[] {
  const name = options.name ?? 'workbook.xls';
  try {
    return readWorkbook(buf, name, options.signal);
  } catch (error) {
    // A damaged container that still names the stream of a password-protected .xlsx
    if (error instanceof Corrupt && buf.includes(Buffer.from('EncryptionInfo', 'utf16le'))) throw encrypted(name);
    throw wrap(error, name);
  }
}

function wrap(error: unknown, name: string): unknown {
  if (error instanceof Corrupt) return new ExtractError(`文件 ${name} 不是有效的 .xls 工作簿（${error.message}，文件可能已损坏），请在 Excel 或 WPS 中重新另存为 .xlsx 后上传`);
  return error;
}

const oldFormat = (name: string) =>
  new ExtractError(`工作簿 ${name} 是 Excel 5.0/95 或更早版本的格式，无法读取：请在 Excel 或 WPS 中另存为 .xlsx 后再上传`);
const encrypted = (name: string) => new ExtractError(`工作簿 ${name} 设置了打开密码，请取消密码后再上传`);

function readWorkbook(buf: Buffer, name: string, signal: AbortSignal | undefined): Sheet[] {
  const cfb = openCfb(buf);
  const streams = cfb.entries.filter((e) => e.type === 2);
  const find = (n: string) => streams.find((e) => e.name.toLowerCase() === n.toLowerCase());
  if (find('EncryptionInfo') || find('EncryptedPackage')) throw encrypted(name);
  const book = find('Workbook');
  if (!book) {
    if (find('Book')) throw oldFormat(name);
    throw new ExtractError(`文件 ${name} 不是 Excel 工作簿（其中没有工作簿数据），请上传 .xlsx 或 .csv 格式的组件清单`);
  }
  const stream = cfb.read(book);

  let codepage = 1200;
  const sheets: BoundSheet[] = [];
  let sst: string[] = [];
  let first = true;
  let globalsEnd = 0;
  const list = new Records(stream, 0);
  let seen = 0;
  for (let rec = list.next(); rec; rec = list.next()) {
    const { type, data } = rec;
    if (++seen % 10_000 === 0) signal?.throwIfAborted();
    if (first) {
      if (type === 0x0009 || type === 0x0209 || type === 0x0409) throw oldFormat(name);
      if (type !== BOF || data.length < 4) fail('缺少 BOF 记录');
      const version = data.readUInt16LE(0);
      if (version !== 0x0600) throw oldFormat(name);
      first = false;
      continue;
    }
    if (type === EOF) {
      globalsEnd = rec.at + 4 + data.length;
      break;
    }
    if (type === 0x002f) throw encrypted(name); // FILEPASS
    if (type === 0x0042 && data.length >= 2) codepage = data.readUInt16LE(0);
    if (type === 0x0085) {
      if (data.length < 8) fail('工作表记录过短');
      // dt 0: a worksheet (charts, macro and VB sheets are left out)
      if (data[5] === 0) sheets.push({ offset: data.readUInt32LE(0), hidden: (data[4]! & 0x03) !== 0, name: new Segments([data.subarray(6)], latin1).string(1) });
    }
    if (type === 0x00fc) sst = readSst([data, ...list.continues()], decoder(codepage), signal);
  }
  if (first) fail('缺少 BOF 记录');
  const decode8 = decoder(codepage);
  // Worksheets never overlap: all of them together are read at most once over (a hostile file
  // pointing many sheets at the same data cannot make us parse it again and again).
  const budget = { bytes: stream.length - globalsEnd };
  return sheets.map((s) => ({ name: s.name, hidden: s.hidden, rows: sheetRows({ stream, offset: s.offset, sst, decode8, budget, signal }, name) }));
}

const latin1 = (bytes: Buffer) => bytes.toString('latin1');

/**
 * 8-bit ("compressed") strings: Latin-1 by the BIFF8 rules. Excel always writes CODEPAGE 1200;
 * other writers that declare an ANSI code page (936 = GBK, ...) may store its bytes there.
 */
function decoder(codepage: number): (bytes: Buffer) => string {
  if (codepage === 1200 || codepage === 1252 || codepage === 0x8000 || codepage === 0x8001) return latin1;
  const encoding = `cp${codepage}`;
  if (!iconv.encodingExists(encoding)) return latin1;
  return (bytes) => (bytes.every((b) => b < 0x80) ? bytes.toString('latin1') : iconv.decode(bytes, encoding));
}

function readSst(chunks: Buffer[], decode8: (bytes: Buffer) => string, signal: AbortSignal | undefined): string[] {
  const reader = new Segments(chunks, decode8);
  reader.skip(4);
  const unique = reader.bytes(4).readUInt32LE(0);
  const out: string[] = [];
  // Each string takes at least 3 bytes: the declared count cannot exceed what the records hold.
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const count = Math.min(unique, Math.floor(total / 3));
  for (let i = 0; i < count && !reader.done; i++) {
    if (i % 10_000 === 0) signal?.throwIfAborted();
    out.push(reader.string());
  }
  return out;
}

interface SheetInput {
  stream: Buffer;
  offset: number;
  sst: string[];
  decode8: (bytes: Buffer) => string;
  budget: { bytes: number };
  signal: AbortSignal | undefined;
}

type Cells = Map<number, Map<number, { text: string; numeric: boolean }>>;

function sheetRows(input: SheetInput, name: string): AsyncIterable<SheetRow> {
  return {
    async *[Symbol.asyncIterator]() {
      let rows: Cells;
      try {
        rows = readSheet(input);
      } catch (error) {
        throw wrap(error, name);
      }
      yield* finish(rows);
    },
  };
}

/** The cells of one worksheet, kept sparse (as many as the records, never more). */
function readSheet({ stream, offset, sst, decode8, budget, signal }: SheetInput): Cells {
  if (offset + 4 > stream.length) fail('工作表位置越界');
  const rows: Cells = new Map();
  const set = (row: number, col: number, text: string, numeric = false) => {
    if (col >= MAX_COLUMNS) return;
    let r = rows.get(row);
    if (!r) rows.set(row, (r = new Map()));
    r.set(col, { text, numeric });
  };
  const string = (data: Buffer, from: number, more: Buffer[] = []) => new Segments([data.subarray(from), ...more], decode8).string();

  let depth = 0;
  let pending: { row: number; col: number } | undefined;
  let seen = 0;
  const list = new Records(stream, offset);
  for (let rec = list.next(); rec; rec = list.next()) {
    const { type, data } = rec;
    if (seen === 0 && type !== BOF) fail('工作表不以 BOF 记录开始');
    if (++seen % 10_000 === 0) signal?.throwIfAborted();
    budget.bytes -= 4 + data.length;
    if (budget.bytes < 0) fail('工作表数据相互重叠');
    if (type === BOF) depth++;
    if (type === EOF && --depth <= 0) break;
    if (depth !== 1) continue; // embedded charts
    const row = data.length >= 4 ? data.readUInt16LE(0) : 0;
    const col = data.length >= 4 ? data.readUInt16LE(2) : 0;
    switch (type) {
      case 0x00fd: // LABELSST
        if (data.length >= 10) set(row, col, sst[data.readUInt32LE(6)] ?? '');
        break;
      case 0x0204: // LABEL
      case 0x00d6: // RSTRING
        if (data.length >= 9) set(row, col, string(data, 6));
        break;
      case 0x0203: // NUMBER
        if (data.length >= 14) set(row, col, formatNumber(data.readDoubleLE(6)), true);
        break;
      case 0x027e: // RK
        if (data.length >= 10) set(row, col, formatNumber(decodeRk(data.readInt32LE(6))), true);
        break;
      case 0x00bd: // MULRK: rw, colFirst, (ixfe, rk)*, colLast
        for (let k = 0, off = 4; off + 6 <= data.length - 2; k++, off += 6) set(row, col + k, formatNumber(decodeRk(data.readInt32LE(off + 2))), true);
        break;
      case 0x0205: // BOOLERR
        if (data.length >= 8) set(row, col, data[7] ? '' : data[6] ? 'TRUE' : 'FALSE');
        break;
      case 0x0006: // FORMULA: the cached result
        pending = undefined;
        if (data.length < 14) break;
        if (data.readUInt16LE(12) !== 0xffff) set(row, col, formatNumber(data.readDoubleLE(6)), true);
        else if (data[6] === 0) pending = { row, col }; // text: in the STRING record that follows
        else if (data[6] === 1) set(row, col, data[8] ? 'TRUE' : 'FALSE');
        else set(row, col, '');
        break;
      case 0x0207: {
        // STRING (may go on in CONTINUE records)
        const more = list.continues();
        if (pending && data.length >= 3) set(pending.row, pending.col, string(data, 0, more));
        pending = undefined;
        break;
      }
      default:
        break;
    }
  }
  return rows;
}

function* finish(rows: Cells): Generator<SheetRow> {
  for (const row of [...rows.keys()].sort((a, b) => a - b)) {
    const sparse = rows.get(row)!;
    const cells = Array.from({ length: Math.max(...sparse.keys()) + 1 }, () => '');
    const numeric: number[] = [];
    for (const [col, cell] of sparse) {
      cells[col] = cell.text;
      if (cell.numeric) numeric.push(col);
    }
    yield numeric.length > 0 ? { row: row + 1, cells, numeric: numeric.sort((a, b) => a - b) } : { row: row + 1, cells };
  }
}
