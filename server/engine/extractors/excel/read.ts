// Reading spreadsheet rows as text: .xlsx through exceljs' streaming reader (rows are handed on as
// they are parsed, the workbook is never built in memory), CSV through csv-parse with the encoding
// detected (UTF-8 with or without BOM, UTF-16 with BOM, otherwise GB18030 — a superset of GBK,
// which is what Chinese Excel writes for "CSV（逗号分隔）").
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import { parse as parseCsv } from 'csv-parse';
import iconv from 'iconv-lite';

export interface SheetRow {
  /** Spreadsheet row number, 1-based, as Excel shows it. */
  row: number;
  cells: string[];
  /** Indices of cells Excel stored as numbers (a version typed as 1.10 is kept as 1.1). */
  numeric?: number[];
}

export interface Sheet {
  name: string;
  hidden: boolean;
  rows: AsyncIterable<SheetRow>;
}

/** The text a cell shows, for every value shape exceljs produces. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return v.richText.map((r: { text?: unknown }) => (typeof r.text === 'string' ? r.text : '')).join('');
    if ('result' in v) return cellText(v.result); // formulas: the cached result
    if ('formula' in v || 'sharedFormula' in v) return '';
    if ('error' in v) return '';
    if ('text' in v) return cellText(v.text); // hyperlinks
  }
  return String(value);
}

interface StreamRow {
  number: number;
  values: unknown;
}
interface StreamSheet extends AsyncIterable<StreamRow> {
  name?: string;
  state?: string;
}

/** Where a zip entry sits in the file, from its central directory record (yauzl's Entry). */
export interface ZipEntry {
  fileName: string;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
  compressionMethod: number;
  generalPurposeBitFlag: number;
  lastModFileTime: number;
  lastModFileDate: number;
  relativeOffsetOfLocalHeader: number;
}

const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;
const EMPTY_SHARED_STRINGS = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>';

/**
 * The parts of an .xlsx that exceljs' streaming reader needs, re-sequenced as a stream of zip
 * local entries: workbook relations, workbook, shared strings, then the worksheets. Excel writes
 * the shared strings after the worksheets, and exceljs then spools every worksheet to a temporary
 * file first (left behind when a read stops early); in this order each worksheet is parsed
 * straight from the upload's buffer. Compressed data is passed on as is, never copied.
 */
export function orderedXlsx(buffer: Buffer, entries: readonly ZipEntry[]): Readable {
  const byName = new Map(entries.map((e) => [e.fileName, e]));
  const sheets = entries
    .filter((e) => WORKSHEET.test(e.fileName))
    .sort((a, b) => Number(WORKSHEET.exec(a.fileName)![1]) - Number(WORKSHEET.exec(b.fileName)![1]));
  const parts: Buffer[] = [];
  for (const name of ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml']) {
    const entry = byName.get(name);
    if (entry) parts.push(...rawEntry(buffer, entry));
  }
  const shared = byName.get('xl/sharedStrings.xml');
  if (shared) parts.push(...rawEntry(buffer, shared));
  else parts.push(...storedEntry('xl/sharedStrings.xml', Buffer.from(EMPTY_SHARED_STRINGS)));
  for (const sheet of sheets) parts.push(...rawEntry(buffer, sheet));
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  parts.push(end);
  return Readable.from(parts, { objectMode: false });
}

function localHeader(name: Buffer, e: Omit<ZipEntry, 'fileName' | 'relativeOffsetOfLocalHeader'>): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(e.generalPurposeBitFlag & ~0x0008, 6); // sizes are in this header, no data descriptor
  header.writeUInt16LE(e.compressionMethod, 8);
  header.writeUInt16LE(e.lastModFileTime, 10);
  header.writeUInt16LE(e.lastModFileDate, 12);
  header.writeUInt32LE(e.crc32 >>> 0, 14);
  header.writeUInt32LE(e.compressedSize, 18);
  header.writeUInt32LE(e.uncompressedSize, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(0, 28);
  return header;
}

function rawEntry(buffer: Buffer, e: ZipEntry): Buffer[] {
  const at = e.relativeOffsetOfLocalHeader;
  if (at + 30 > buffer.length || buffer.readUInt32LE(at) !== 0x04034b50) throw new Error(`zip entry ${e.fileName}: bad local header`);
  if (e.generalPurposeBitFlag & 0x0001) throw new Error(`zip entry ${e.fileName} is encrypted`);
  if (e.compressionMethod !== 0 && e.compressionMethod !== 8) throw new Error(`zip entry ${e.fileName}: unsupported compression ${e.compressionMethod}`);
  const start = at + 30 + buffer.readUInt16LE(at + 26) + buffer.readUInt16LE(at + 28);
  if (start + e.compressedSize > buffer.length) throw new Error(`zip entry ${e.fileName} is truncated`);
  const name = Buffer.from(e.fileName);
  return [localHeader(name, e), name, buffer.subarray(start, start + e.compressedSize)];
}

function storedEntry(fileName: string, data: Buffer): Buffer[] {
  const name = Buffer.from(fileName);
  const e = { compressedSize: data.length, uncompressedSize: data.length, crc32: crc32(data), compressionMethod: 0, generalPurposeBitFlag: 0x0800, lastModFileTime: 0, lastModFileDate: 0x21 };
  return [localHeader(name, e), name, data];
}

/** The worksheets of an .xlsx, each with its rows. Consume every sheet's rows in turn. */
export async function* xlsxSheets(input: Readable): AsyncGenerator<Sheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const worksheet of reader as unknown as AsyncIterable<StreamSheet>) {
    yield {
      name: worksheet.name ?? '',
      hidden: worksheet.state === 'hidden' || worksheet.state === 'veryHidden',
      rows: sheetRows(worksheet),
    };
  }
}

async function* sheetRows(worksheet: StreamSheet): AsyncGenerator<SheetRow> {
  for await (const row of worksheet) {
    const values = Array.isArray(row.values) ? (row.values as unknown[]) : [];
    const cells: string[] = [];
    const numeric: number[] = [];
    for (let i = 1; i < values.length; i++) {
      const value = values[i];
      if (typeof value === 'number' || (typeof value === 'object' && value !== null && typeof (value as { result?: unknown }).result === 'number')) numeric.push(i - 1);
      cells.push(cellText(value));
    }
    yield numeric.length > 0 ? { row: row.number, cells, numeric } : { row: row.number, cells };
  }
}

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';

export function decodeText(buffer: Buffer): { text: string; encoding: TextEncoding } {
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return { text: buffer.subarray(3).toString('utf8'), encoding: 'utf-8' };
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return { text: iconv.decode(buffer.subarray(2), 'utf-16le'), encoding: 'utf-16le' };
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return { text: iconv.decode(buffer.subarray(2), 'utf-16be'), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buffer), encoding: 'utf-8' };
  } catch {
    return { text: iconv.decode(buffer, 'gb18030'), encoding: 'gb18030' };
  }
}

/** Comma, tab or semicolon: whichever the first non-empty line uses most. */
function detectDelimiter(text: string): string {
  const line = text.slice(0, 64 * 1024).split(/\r?\n/).find((l) => l.trim()) ?? '';
  const count = (ch: string) => line.split(ch).length - 1;
  const candidates = [',', '\t', ';'];
  return candidates.reduce((best, ch) => (count(ch) > count(best) ? ch : best), ',');
}

/** CSV records with their row number (a record, as Excel numbers rows; blank lines count). */
export async function* csvRows(text: string): AsyncGenerator<SheetRow> {
  const parser = Readable.from(chunks(text)).pipe(
    parseCsv({
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }),
  );
  let row = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    row++;
    yield { row, cells: record };
  }
}

/** Slices of the text, never cutting a surrogate pair in two. */
function* chunks(text: string, size = 256 * 1024): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}
