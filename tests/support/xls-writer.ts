// Test-only writer of legacy Excel 97-2003 workbooks (BIFF8 records in a Compound File Binary
// container), enough to exercise our .xls reader: one or more worksheets, a shared string table
// split over CONTINUE records (with the high-byte flag re-chosen at each continuation, rich-text
// runs and phonetic data), LABELSST / NUMBER / RK / MULRK / BOOLERR / FORMULA+STRING / LABEL cells,
// and a CFB with a FAT, optionally a DIFAT sector, or the mini stream for small workbooks.

export type XlsCell =
  | string
  | number
  | boolean
  | null
  | { rk: number }
  | { mulrk: number[] }
  | { formula: string | number }
  | { label: string }
  | { rich: string; runs?: number; ext?: number };

export interface XlsSheetSpec {
  name: string;
  rows: XlsCell[][];
  hidden?: boolean;
}

export interface XlsOptions {
  /** Largest record data size before a CONTINUE (Excel: 8224). */
  maxRecord?: number;
  /** Add a FILEPASS record (an encrypted workbook). */
  filepass?: boolean;
  /** BOF version (0x0600 = BIFF8, 0x0500 = BIFF5). */
  version?: number;
  /** CODEPAGE record value. */
  codepage?: number;
  /** Stream name (Workbook; BIFF5 wrote Book). */
  streamName?: string;
}

const record = (type: number, data: Buffer): Buffer => {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
};
const u16 = (...values: number[]) => {
  const b = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => b.writeUInt16LE(v, i * 2));
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0, 0);
  return b;
};
const f64 = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v, 0);
  return b;
};
const wide = (s: string) => [...s].some((c) => c.charCodeAt(0) > 0xff);
const chars = (s: string, high: boolean) => (high ? Buffer.from(s, 'utf16le') : Buffer.from(s, 'latin1'));

/** XLUnicodeString (16-bit count) in one record. */
const xlString = (s: string) => Buffer.concat([u16(s.length), Buffer.from([wide(s) ? 1 : 0]), chars(s, wide(s))]);

export function encodeRk(value: number): number | undefined {
  if (Number.isInteger(value) && value >= -(2 ** 29) && value < 2 ** 29) return ((value << 2) | 0x02) >>> 0;
  const x100 = Math.round(value * 100);
  if (Math.abs(x100 - value * 100) < 1e-9 && x100 >= -(2 ** 29) && x100 < 2 ** 29) return ((x100 << 2) | 0x03) >>> 0;
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value, 0);
  if (b.readUInt32LE(0) === 0 && (b.readUInt32LE(4) & 0x03) === 0) return b.readUInt32LE(4);
  return undefined;
}

interface SstString {
  text: string;
  runs: number;
  ext: number;
}

/** SST + CONTINUE records; strings split at character boundaries, flag re-chosen per part. */
function sstRecords(strings: SstString[], max: number): Buffer {
  const records: Buffer[] = [];
  let current: Buffer[] = [u32(strings.length), u32(strings.length)];
  let size = 8;
  let type = 0x00fc;
  const flush = () => {
    records.push(record(type, Buffer.concat(current)));
    type = 0x003c;
    current = [];
    size = 0;
  };
  const put = (b: Buffer) => {
    current.push(b);
    size += b.length;
  };
  /** Bytes that may be split anywhere (runs, phonetic data). */
  const putSplittable = (b: Buffer) => {
    let at = 0;
    while (at < b.length) {
      if (size >= max) flush();
      const take = Math.min(b.length - at, max - size);
      put(b.subarray(at, at + take));
      at += take;
    }
  };
  for (const s of strings) {
    const headerSize = 3 + (s.runs ? 2 : 0) + (s.ext ? 4 : 0);
    if (size + headerSize + 2 > max) flush();
    let rest = s.text;
    let high = wide(rest);
    put(Buffer.concat([u16(rest.length), Buffer.from([(high ? 1 : 0) | (s.runs ? 8 : 0) | (s.ext ? 4 : 0)]), s.runs ? u16(s.runs) : Buffer.alloc(0), s.ext ? u32(s.ext) : Buffer.alloc(0)]));
    let first = true;
    while (rest.length > 0 || first) {
      if (!first) {
        flush();
        high = wide(rest);
        put(Buffer.from([high ? 1 : 0]));
      }
      first = false;
      const fit = Math.min(rest.length, Math.floor((max - size) / (high ? 2 : 1)));
      put(chars(rest.slice(0, fit), high));
      rest = rest.slice(fit);
      if (rest.length === 0) break;
    }
    if (s.runs) putSplittable(Buffer.alloc(s.runs * 4, 0x11));
    if (s.ext) putSplittable(Buffer.alloc(s.ext, 0x22));
  }
  flush();
  return Buffer.concat(records);
}

/** The BIFF8 Workbook stream. */
export function biffWorkbook(sheets: XlsSheetSpec[], options: XlsOptions = {}): Buffer {
  const version = options.version ?? 0x0600;
  const strings: SstString[] = [];
  const index = new Map<string, number>();
  const sst = (text: string, runs = 0, ext = 0) => {
    const key = `${text}\u0000${runs}\u0000${ext}`;
    if (!index.has(key)) {
      index.set(key, strings.length);
      strings.push({ text, runs, ext });
    }
    return index.get(key)!;
  };
  const bof = (dt: number) => record(0x0809, Buffer.concat([u16(version, dt, 0x0dbb, 0x07cc), u32(0), u32(0x0206)]));

  const sheetStreams = sheets.map((sheet) => {
    const cells: Buffer[] = [bof(0x0010)];
    sheet.rows.forEach((row, r) => {
      row.forEach((cell, c) => {
        if (cell === null || cell === undefined) return;
        const head = u16(r, c, 0x0f);
        if (typeof cell === 'string') cells.push(record(0x00fd, Buffer.concat([head, u32(sst(cell))])));
        else if (typeof cell === 'number') cells.push(record(0x0203, Buffer.concat([head, f64(cell)])));
        else if (typeof cell === 'boolean') cells.push(record(0x0205, Buffer.concat([head, Buffer.from([cell ? 1 : 0, 0])])));
        else if ('rk' in cell) {
          const rk = encodeRk(cell.rk);
          if (rk === undefined) throw new Error(`${cell.rk} has no RK form`);
          cells.push(record(0x027e, Buffer.concat([head, u32(rk)])));
        } else if ('mulrk' in cell) {
          const parts = cell.mulrk.map((v) => Buffer.concat([u16(0x0f), u32(encodeRk(v)!)]));
          cells.push(record(0x00bd, Buffer.concat([u16(r, c), ...parts, u16(c + cell.mulrk.length - 1)])));
        } else if ('formula' in cell) {
          const value = cell.formula;
          const result = typeof value === 'number' ? f64(value) : Buffer.from([0, 0, 0, 0, 0, 0, 0xff, 0xff]);
          // result, grbit, chn, cce = 0 (no parsed expression: our reader only needs the result)
          cells.push(record(0x0006, Buffer.concat([head, result, u16(0), u32(0), u16(0)])));
          if (typeof value === 'string') cells.push(record(0x0207, xlString(value)));
        } else if ('label' in cell) cells.push(record(0x0204, Buffer.concat([head, xlString(cell.label)])));
        else cells.push(record(0x00fd, Buffer.concat([head, u32(sst(cell.rich, cell.runs ?? 0, cell.ext ?? 0))])));
      });
    });
    cells.push(record(0x000a, Buffer.alloc(0)));
    return Buffer.concat(cells);
  });

  const globals = (offsets: number[]) => {
    const parts: Buffer[] = [bof(0x0005)];
    if (options.filepass) parts.push(record(0x002f, Buffer.concat([u16(1), Buffer.alloc(52, 0x5a)])));
    parts.push(record(0x0042, u16(options.codepage ?? 1200)));
    sheets.forEach((sheet, i) => {
      const name = Buffer.concat([Buffer.from([sheet.name.length, wide(sheet.name) ? 1 : 0]), chars(sheet.name, wide(sheet.name))]);
      parts.push(record(0x0085, Buffer.concat([u32(offsets[i] ?? 0), Buffer.from([sheet.hidden ? 1 : 0, 0]), name])));
    });
    if (strings.length > 0) parts.push(sstRecords(strings, options.maxRecord ?? 8224));
    parts.push(record(0x000a, Buffer.alloc(0)));
    return Buffer.concat(parts);
  };
  const size = globals(sheets.map(() => 0)).length;
  const offsets: number[] = [];
  let at = size;
  for (const s of sheetStreams) {
    offsets.push(at);
    at += s.length;
  }
  return Buffer.concat([globals(offsets), ...sheetStreams]);
}

export interface CfbLayout {
  buffer: Buffer;
  /** Sector ids of the FAT, of the directory, and of the stream (empty when in the mini stream). */
  fatSectors: number[];
  dirSector: number;
  streamSectors: number[];
}

export interface CfbOptions {
  difat?: boolean;
  sectorSize?: 512 | 4096;
}

const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;

/**
 * A compound file holding one stream: version 3 (512-byte sectors) or 4 (4096-byte sectors).
 * Streams under 4096 bytes go to the mini stream; `difat` lists the FAT sectors in a DIFAT sector
 * instead of the header.
 */
export function cfb(streamName: string, data: Buffer, options: CfbOptions = {}): CfbLayout {
  const S = options.sectorSize ?? 512;
  const per = S / 4;
  const mini = data.length < 4096;
  const miniData = mini ? Buffer.concat([data, Buffer.alloc((64 - (data.length % 64)) % 64)]) : Buffer.alloc(0);
  const streamBytes = mini ? miniData : data;
  const dataSectors = Math.ceil(streamBytes.length / S);
  const miniFatSectors = mini ? Math.ceil(((miniData.length / 64) * 4) / S) : 0;
  const difatSectors = options.difat ? 1 : 0;
  let fatCount = 1;
  while (fatCount * per < fatCount + difatSectors + 1 + miniFatSectors + dataSectors) fatCount++;
  const fatIds = Array.from({ length: fatCount }, (_, i) => i);
  const difatId = fatCount;
  const dirId = fatCount + difatSectors;
  const miniFatStart = dirId + 1;
  const dataStart = miniFatStart + miniFatSectors;
  const total = dataStart + dataSectors;

  const fat = new Uint32Array(fatCount * per).fill(FREESECT);
  for (const id of fatIds) fat[id] = 0xfffffffd;
  if (options.difat) fat[difatId] = 0xfffffffc;
  fat[dirId] = ENDOFCHAIN;
  for (let i = 0; i < miniFatSectors; i++) fat[miniFatStart + i] = i + 1 < miniFatSectors ? miniFatStart + i + 1 : ENDOFCHAIN;
  for (let i = 0; i < dataSectors; i++) fat[dataStart + i] = i + 1 < dataSectors ? dataStart + i + 1 : ENDOFCHAIN;

  const header = Buffer.alloc(S);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 0x18);
  header.writeUInt16LE(S === 512 ? 3 : 4, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(S === 512 ? 9 : 12, 0x1e);
  if (S !== 512) header.writeUInt32LE(1, 0x28); // directory sectors (version 4)
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(fatCount, 0x2c);
  header.writeUInt32LE(dirId, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(mini ? miniFatStart : ENDOFCHAIN, 0x3c);
  header.writeUInt32LE(miniFatSectors, 0x40);
  header.writeUInt32LE(options.difat ? difatId : ENDOFCHAIN, 0x44);
  header.writeUInt32LE(difatSectors, 0x48);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(!options.difat && i < fatCount ? fatIds[i]! : FREESECT, 0x4c + i * 4);

  const sectors: Buffer[] = [];
  for (let f = 0; f < fatCount; f++) {
    const b = Buffer.alloc(S);
    for (let j = 0; j < per; j++) b.writeUInt32LE(fat[f * per + j]!, j * 4);
    sectors.push(b);
  }
  if (options.difat) {
    const b = Buffer.alloc(S, 0xff);
    fatIds.forEach((id, i) => b.writeUInt32LE(id, i * 4));
    b.writeUInt32LE(ENDOFCHAIN, (per - 1) * 4);
    sectors.push(b);
  }
  const dir = Buffer.alloc(S);
  const entry = (i: number, name: string, type: number, child: number, start: number, size: number) => {
    const off = i * 128;
    dir.write(name, off, 'utf16le');
    dir.writeUInt16LE((name.length + 1) * 2, off + 0x40);
    dir[off + 0x42] = type;
    dir[off + 0x43] = 1;
    dir.writeUInt32LE(FREESECT, off + 0x44);
    dir.writeUInt32LE(FREESECT, off + 0x48);
    dir.writeUInt32LE(child, off + 0x4c);
    dir.writeUInt32LE(start, off + 0x74);
    dir.writeUInt32LE(size, off + 0x78);
  };
  entry(0, 'Root Entry', 5, 1, mini ? dataStart : ENDOFCHAIN, mini ? miniData.length : 0);
  entry(1, streamName, 2, FREESECT, mini ? 0 : dataStart, data.length);
  sectors.push(dir);
  if (mini) {
    const table = Buffer.alloc(miniFatSectors * S, 0xff);
    const count = miniData.length / 64;
    for (let i = 0; i < count; i++) table.writeUInt32LE(i + 1 < count ? i + 1 : ENDOFCHAIN, i * 4);
    sectors.push(table);
  }
  const padded = Buffer.concat([streamBytes, Buffer.alloc(dataSectors * S - streamBytes.length)]);
  sectors.push(padded);
  const buffer = Buffer.concat([header, ...sectors]);
  if (buffer.length !== (total + 1) * S) throw new Error('cfb layout mismatch');
  return { buffer, fatSectors: fatIds, dirSector: dirId, streamSectors: mini ? [] : Array.from({ length: dataSectors }, (_, i) => dataStart + i) };
}

/** A whole .xls file. */
export function xlsFile(sheets: XlsSheetSpec[], options: XlsOptions & CfbOptions = {}): CfbLayout {
  return cfb(options.streamName ?? 'Workbook', biffWorkbook(sheets, options), options);
}
