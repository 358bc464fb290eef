// Imports an uploaded component list (getCodeType 34, “Excel清单”): .xlsx, .xls or .csv in the Chinese
// template's columns -> one Target of direct runtime components. Rows that cannot be understood
// are reported by spreadsheet row number with a Chinese reason; the rest are imported.
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { Component, Ecosystem, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import type { ColumnKey, ColumnMap } from './columns.ts';
import { COLUMNS, matchHeader } from './columns.ts';
import type { SheetRow, TextEncoding, ZipEntry } from './read.ts';
import { csvRows, decodeText, orderedXlsx, xlsxSheets } from './read.ts';
import { clean, parseRow } from './rows.ts';
import type { RowCells } from './rows.ts';
import { EXAMPLE_REMARK, EXAMPLE_ROWS } from './template.ts';
import { isCfb, xlsSheets } from './xls.ts';
import { decoderMessage } from '../../sources/archive/errors.ts';

export const MAX_ROWS = 100_000;
export const MAX_BYTES = 100 * 1024 * 1024;
/** Declared uncompressed size of an .xlsx (a zip) we agree to inflate. */
const MAX_XLSX_INFLATED = 1024 * 1024 * 1024;
/** Rows searched for the header (title rows may sit above it). */
const HEADER_SEARCH_ROWS = 20;

export interface ComponentListFile {
  /** File name or path; its extension chooses .xlsx or .csv when the content does not (.xls is known by its content). */
  path: string;
  read(): Promise<Buffer>;
}

export interface ImportOptions {
  /** Data rows accepted (blank rows not counted); past it the import fails. Default 100 000. */
  maxRows?: number;
  /** File size accepted. Default 100 MB. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface RowIssue {
  row: number;
  /** Displayable Chinese sentence, starting with 第 N 行： */
  reason: string;
}

export interface ImportResult {
  target: Target;
  /** Rows not imported. */
  rejected: RowIssue[];
  /** Rows imported with a remark from us (unknown version, purl disagreeing with the name, duplicates, ...). */
  warnings: RowIssue[];
  /** Non-empty 备注 cells of imported rows. */
  remarks: Array<{ row: number; purl: string; remark: string }>;
  stats: {
    format: 'xlsx' | 'xls' | 'csv';
    /** Worksheet read (xlsx, xls). */
    sheet?: string;
    encoding?: TextEncoding;
    /** Data rows read, blank rows excluded. */
    rows: number;
    blank: number;
    imported: number;
    duplicates: number;
  };
}

const notWorkbook = (name: string) =>
  new ExtractError(`文件 ${name} 不是真正的 Excel 工作簿（可能是网页导出的表格），请在 Excel 或 WPS 中打开后另存为 .xlsx 或 .csv 再上传`);

export async function importComponentList(file: ComponentListFile, options: ImportOptions = {}): Promise<ImportResult> {
  const maxRows = options.maxRows ?? MAX_ROWS;
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const signal = options.signal;
  const name = path.basename(file.path);
  const ext = path.extname(file.path).toLowerCase();
  signal?.throwIfAborted();

  if (ext === '.ods' || ext === '.numbers') throw new ExtractError(`不支持 ${ext} 文件：请另存为 .xlsx 或 .csv 后再上传`);

  let buffer: Buffer;
  try {
    buffer = await file.read();
  } catch (error) {
    throw new ExtractError(`无法读取文件 ${name}：${error instanceof Error ? error.message : String(error)}`);
  }
  if (buffer.length > maxBytes) throw new ExtractError(`文件 ${name} 超过 ${Math.round(maxBytes / 1024 / 1024)} MB 的上限，请拆分后分别上传`);
  if (buffer.length === 0) throw new ExtractError(`文件 ${name} 是空文件`);

  const isZip = buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50;
  const collector = new Collector(file.path, maxRows, signal);
  if (isCfb(buffer)) {
    // An Office binary container: a legacy .xls (whatever its name says), or an .xlsx protected
    // by an open password (refused by xls.ts, which finds its EncryptionInfo stream).
    const sheet = await readXls(buffer, name, collector, signal);
    return collector.result({ format: 'xls', sheet });
  }
  // Web systems often export an .xlsx (or an HTML table) under an .xls name: only a real
  // workbook is read.
  if ((ext === '.xls' || ext === '.et') && !isZip) throw notWorkbook(name);

  if (ext === '.xlsx' || ext === '.xlsm' || isZip) {
    if (!isZip) throw new ExtractError(`文件 ${name} 不是有效的 .xlsx 工作簿（文件已损坏或并非 Excel 格式），请在 Excel 或 WPS 中重新另存为 .xlsx 后上传`);
    const entries = await checkZip(buffer, name);
    const sheet = await readXlsx(buffer, entries, name, collector);
    return collector.result({ format: 'xlsx', sheet });
  }
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt' || ext === '') {
    if (buffer.includes(0) && !(buffer[0] === 0xff && buffer[1] === 0xfe) && !(buffer[0] === 0xfe && buffer[1] === 0xff)) {
      throw new ExtractError(`文件 ${name} 不是文本格式的 CSV，请另存为 .xlsx 或 CSV（逗号分隔）后上传`);
    }
    const { text, encoding } = decodeText(buffer);
    let found: boolean;
    try {
      found = await collector.readRows(csvRows(text));
    } catch (error) {
      if (error instanceof ExtractError || (error instanceof Error && error.name === 'AbortError')) throw error;
      throw csvError(name, error);
    }
    if (!found) throw noHeader(name);
    return collector.result({ format: 'csv', encoding });
  }
  throw new ExtractError(`不支持的文件类型 ${ext}：请上传 .xlsx 或 .csv 格式的组件清单`);
}

/** Zip structure and declared sizes, before any inflating (zip bombs, truncated uploads). */
async function checkZip(buffer: Buffer, name: string): Promise<ZipEntry[]> {
  const corrupt = () => new ExtractError(`文件 ${name} 不是有效的 .xlsx 工作簿（压缩结构已损坏），请在 Excel 或 WPS 中重新另存为 .xlsx 后上传`);
  return new Promise<ZipEntry[]>((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(corrupt());
      let inflated = 0;
      const entries: ZipEntry[] = [];
      let workbook = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        inflated += entry.uncompressedSize;
        entries.push(entry);
        if (entry.fileName === 'xl/workbook.xml') workbook = true;
        if (inflated > MAX_XLSX_INFLATED || entries.length > 10_000) {
          zip.close();
          return reject(new ExtractError(`工作簿 ${name} 解压后过大，请拆分后分别上传`));
        }
        zip.readEntry();
      });
      zip.on('end', () => (workbook ? resolve(entries) : reject(new ExtractError(`文件 ${name} 不是 Excel 工作簿（缺少 xl/workbook.xml），请上传 .xlsx 或 .csv 格式的组件清单`))));
      zip.on('error', () => reject(corrupt()));
      zip.readEntry();
    });
  });
}

async function readXlsx(buffer: Buffer, entries: ZipEntry[], name: string, collector: Collector): Promise<string> {
  let input: Readable | undefined;
  let chosen: string | undefined;
  try {
    input = orderedXlsx(buffer, entries);
    for await (const sheet of xlsxSheets(input)) {
      if (chosen !== undefined || sheet.hidden) {
        for await (const _row of sheet.rows) { /* drained: exceljs reads the zip in order */ }
        continue;
      }
      if (await collector.readRows(sheet.rows)) chosen = sheet.name;
    }
  } catch (error) {
    input?.destroy();
    if (error instanceof ExtractError || (error instanceof Error && error.name === 'AbortError')) throw error;
    // zlib's and the parsers' English stays out of the message (an .xlsx is a zip).
    const detail = decoderMessage(error instanceof Error ? error.message : String(error));
    throw new ExtractError(`无法读取工作簿 ${name}（文件可能已损坏）：${detail}`);
  }
  if (chosen === undefined) throw noHeader(name);
  return chosen;
}

async function readXls(buffer: Buffer, name: string, collector: Collector, signal: AbortSignal | undefined): Promise<string> {
  let chosen: string | undefined;
  try {
    for (const sheet of xlsSheets(buffer, { name, signal })) {
      if (sheet.hidden) continue;
      if (await collector.readRows(sheet.rows)) {
        chosen = sheet.name;
        break;
      }
    }
  } catch (error) {
    if (error instanceof ExtractError || (error instanceof Error && error.name === 'AbortError')) throw error;
    // zlib's and the parsers' English stays out of the message (an .xlsx is a zip).
    const detail = decoderMessage(error instanceof Error ? error.message : String(error));
    throw new ExtractError(`无法读取工作簿 ${name}（文件可能已损坏）：${detail}`);
  }
  if (chosen === undefined) throw noHeader(name);
  return chosen;
}

function csvError(name: string, error: unknown): ExtractError {
  const e = error as { code?: string; lines?: number; message?: string };
  const where = typeof e.lines === 'number' ? `第 ${e.lines} 行附近` : '';
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') return new ExtractError(`CSV 文件 ${name} 格式不正确：${where}的引号没有闭合`);
  return new ExtractError(`CSV 文件 ${name} 格式不正确${where ? `（${where}）` : ''}：${e.message ?? String(error)}`);
}

const noHeader = (name: string) =>
  new ExtractError(`在 ${name} 中未找到表头：第一行应包含“组件名称”“版本”“语言/生态”“purl”“许可证”“备注”等列（至少包含“组件名称”或“purl”），请使用组件清单导入模板`);

const keyOf = (values: ReadonlyArray<string>) => values.map((v) => clean(v)).join('\u0000');
const EXAMPLE_KEYS = new Set(EXAMPLE_ROWS.map((r) => keyOf([r[0], r[1], r[5]])));

/** Turns rows into components: header detection, per-row parsing, merging, limits. */
class Collector {
  private readonly byPurl = new Map<string, Component>();
  private readonly firstRow = new Map<string, number>();
  private readonly rejected: RowIssue[] = [];
  private readonly warnings: RowIssue[] = [];
  private readonly remarks: ImportResult['remarks'] = [];
  private rows = 0;
  private blank = 0;
  private duplicates = 0;
  private readonly file: string;
  private readonly maxRows: number;
  private readonly signal: AbortSignal | undefined;

  constructor(file: string, maxRows: number, signal: AbortSignal | undefined) {
    this.file = file;
    this.maxRows = maxRows;
    this.signal = signal;
  }

  /** Reads one sheet; false when no header was found in its first rows (the rest is drained). */
  async readRows(rows: AsyncIterable<SheetRow>): Promise<boolean> {
    let columns: ColumnMap | undefined;
    let searched = 0;
    let seen = 0;
    for await (const { row, cells, numeric } of rows) {
      if (++seen % 1000 === 0) this.signal?.throwIfAborted();
      if (!columns) {
        if (searched >= HEADER_SEARCH_ROWS) continue;
        if (cells.every((c) => !c.trim())) continue;
        searched++;
        columns = matchHeader(cells);
        continue;
      }
      this.add(row, pick(cells, columns), columns.version !== undefined && numeric !== undefined && numeric.includes(columns.version));
    }
    this.signal?.throwIfAborted();
    return columns !== undefined;
  }

  private add(row: number, cells: RowCells, versionIsNumber: boolean): void {
    const at = (reason: string) => `第 ${row} 行：${reason}`;
    const outcome = parseRow(cells, this.file, row);
    if (outcome.kind === 'blank') {
      this.blank++;
      return;
    }
    if (++this.rows > this.maxRows) {
      throw new ExtractError(`组件清单超过 ${this.maxRows} 行的上限（第 ${row} 行），请拆分为多个文件后分别上传`);
    }
    if (cells.remark.trim() === EXAMPLE_REMARK && EXAMPLE_KEYS.has(keyOf([cells.name, cells.version, cells.remark]))) {
      this.warnings.push({ row, reason: at('模板示例行，已忽略') });
      return;
    }
    if (outcome.kind === 'rejected') {
      this.rejected.push({ row, reason: at(outcome.reason) });
      return;
    }
    for (const w of outcome.warnings) this.warnings.push({ row, reason: at(w) });
    if (versionIsNumber && outcome.component.version) {
      this.warnings.push({ row, reason: at(`版本“${outcome.component.version}”在 Excel 中是数字格式，末尾的 0 可能已丢失（如 1.10 会变成 1.1、2.0 会变成 2），请将版本列设为文本格式后核对`) });
    }
    const c = outcome.component;
    if (outcome.remark) this.remarks.push({ row, purl: c.purl, remark: outcome.remark });
    const seen = this.byPurl.get(c.purl);
    if (!seen) {
      this.byPurl.set(c.purl, c);
      this.firstRow.set(c.purl, row);
      return;
    }
    this.duplicates++;
    this.warnings.push({ row, reason: at(`与第 ${this.firstRow.get(c.purl)} 行重复，已合并`) });
    seen.locations.push(...c.locations);
    seen.licenses = [...new Set([...seen.licenses, ...c.licenses])];
  }

  result(source: { format: 'xlsx' | 'xls' | 'csv'; sheet?: string; encoding?: TextEncoding }): ImportResult {
    const components = [...this.byPurl.values()];
    const ecosystems = new Set(components.map((c) => c.ecosystem));
    const ecosystem: Ecosystem = ecosystems.size === 1 ? [...ecosystems][0]! : 'generic';
    return {
      target: { file: this.file, type: 'excel', ecosystem, project: null, roots: components.map((c) => c.purl), components },
      rejected: this.rejected,
      warnings: this.warnings.sort((a, b) => a.row - b.row),
      remarks: this.remarks,
      stats: { ...source, rows: this.rows, blank: this.blank, imported: components.length, duplicates: this.duplicates },
    };
  }
}

function pick(cells: readonly string[], columns: ColumnMap): RowCells {
  const get = (key: ColumnKey) => {
    const index = columns[key];
    return index === undefined ? '' : (cells[index] ?? '');
  };
  const out = {} as RowCells;
  for (const column of COLUMNS) out[column.key] = get(column.key);
  return out;
}
