// Excel: every sheet as a table, the first row as its header, at most MAX_SHEET_ROWS rows each
// (the title says when a sheet was cut). Numbers stay numbers; everything else is the cell's text.
import ExcelJS from 'exceljs';
import type { ReviewDocument, ReviewTable } from '../../../contract/ipc/desktop-contract.ts';
import { MAX_SHEET_ROWS, REVIEW_MSG, unreadable } from './errors.ts';

type Cell = string | number | null;

function cellValue(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().replace(/T00:00:00\.000Z$/, '');
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return v.richText.map((r: { text?: unknown }) => (typeof r.text === 'string' ? r.text : '')).join('');
    // Formulas: the cached result.
    if ('result' in v) return cellValue(v.result);
    if ('error' in v) return typeof v.error === 'string' ? v.error : null;
    // Hyperlinks.
    if ('text' in v) return cellValue(v.text);
    if ('formula' in v || 'sharedFormula' in v) return null;
  }
  return String(value);
}

export async function readXlsx(file: string, fileName: string): Promise<ReviewDocument> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(file);
  } catch {
    throw unreadable(REVIEW_MSG.badWorkbook);
  }
  const tables: ReviewTable[] = [];
  workbook.eachSheet((sheet, index) => {
    const width = Math.max(sheet.columnCount, sheet.actualColumnCount, 1);
    const header = sheet.getRow(1);
    const columns = Array.from({ length: width }, (_, i) => {
      const title = cellValue(header.getCell(i + 1).value);
      return { key: `c${i + 1}`, title: title === null || title === '' ? `列 ${i + 1}` : String(title) };
    });
    const rows: Array<Record<string, Cell>> = [];
    const total = Math.max(sheet.rowCount - 1, 0);
    for (let r = 2; r <= sheet.rowCount && rows.length < MAX_SHEET_ROWS; r += 1) {
      const row = sheet.getRow(r);
      const values: Record<string, Cell> = {};
      for (let c = 1; c <= width; c += 1) values[`c${c}`] = cellValue(row.getCell(c).value);
      rows.push(values);
    }
    const title = total > MAX_SHEET_ROWS ? `${sheet.name}（共 ${total} 行，仅显示前 ${MAX_SHEET_ROWS} 行）` : sheet.name;
    tables.push({ key: `sheet-${index}`, title, columns, rows });
  });
  return { kind: 'sheets', fileName, tables };
}
