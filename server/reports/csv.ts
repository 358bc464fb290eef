// The component export as CSV: the columns of the report's component table (sections.ts),
// RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line break, quotes
// doubled), UTF-8 with a byte order mark so Excel opens the Chinese headers correctly.
// Streamed: a project with many thousands of components never sits in memory as one string.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReportModel } from './model.ts';
import { componentTableFor } from './sections.ts';
import type { TableSection } from './sections.ts';
import { privateWriteStream } from '../files/private.ts';

const BOM = '\uFEFF';
const ROWS_PER_CHUNK = 500;

/**
 * Spreadsheet programs run a field that looks like a formula. Names and licences come from the
 * scanned project, so a field starting with = (or with + - @ and holding a call or a reference)
 * is written with a leading apostrophe; ordinary values such as `@babel/core` or `--` are kept.
 */
function neutralised(text: string): string {
  if (text.startsWith('=') || (/^[+\-@]/.test(text) && /[(!]/.test(text))) return `'${text}`;
  return text;
}

/** One CSV field, quoted only when it has to be. */
function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : neutralised(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The lines of a table, header first, in chunks of rows. */
function* csvChunks<T>(table: TableSection<T>, rows: readonly T[]): Generator<string> {
  yield `${BOM}${table.columns.map((c) => csvField(c.header)).join(',')}\r\n`;
  let chunk = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    chunk += `${table.columns.map((c) => csvField(c.value(row))).join(',')}\r\n`;
    if ((i + 1) % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * The component table, with a last column 漏洞结果 on every row when the results are incomplete:
 * a CSV has no place for a note, and a row read alone must not pass for an all-clear.
 */
function componentTable(model: ReportModel): TableSection<ReportModel['components'][number]> {
  const headline = model.coverage.headline;
  const table = componentTableFor(model);
  if (!headline) return table;
  return { ...table, columns: [...table.columns, { header: '漏洞结果', width: 40, value: () => headline }] };
}

/** Writes the component export of `model` as CSV to `file`. */
export async function writeComponentsCsv(model: ReportModel, file: string): Promise<void> {
  const table = componentTable(model);
  await pipeline(Readable.from(csvChunks(table, table.rows(model))), privateWriteStream(file));
}
