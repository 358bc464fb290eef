// Pure helpers of the offline review tables (ReviewTable from main: columns + rows of strings,
// numbers or null): searching, sorting by a column (numbers numerically) and, for SBOM
// vulnerability tables, the severity column and its levels. Tested in Node.
import type { ReviewTable } from '../../../contract/ipc/desktop-contract.ts';
import { VULNERABILITY_LEVEL_LABEL, type VulnerabilityLevel } from '../../../contract/enums.ts';

export type Cell = string | number | null;
export type Row = ReviewTable['rows'][number];
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  column: string;
  direction: SortDirection;
}

/** A number for numeric text ("12", "-3.5", "7.5 ", "1e3"); null for anything else. */
export function numericValue(value: Cell): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null) return null;
  const text = value.trim();
  if (text === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

const collator = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });

/**
 * Orders two cells: empty cells last (in both directions, handled by sortRows), numbers
 * numerically and before text, text by the Chinese collator with numeric runs compared as numbers
 * (so "1.10.0" comes after "1.9.0").
 */
export function compareCells(a: Cell, b: Cell): number {
  const na = numericValue(a);
  const nb = numericValue(b);
  if (na !== null && nb !== null) return na - nb;
  if (na !== null) return -1;
  if (nb !== null) return 1;
  return collator.compare(String(a ?? ''), String(b ?? ''));
}

const isEmpty = (v: Cell): boolean => v === null || (typeof v === 'string' && v.trim() === '');

/** A sorted copy (stable); rows with an empty cell in the column stay at the end. */
export function sortRows<R extends Row>(rows: readonly R[], sort: SortState | null): R[] {
  if (!sort) return [...rows];
  const sign = sort.direction === 'asc' ? 1 : -1;
  const { column } = sort;
  const keyed = rows.map((row, index) => ({ row, index, value: row[column] ?? null }));
  keyed.sort((x, y) => {
    const ex = isEmpty(x.value);
    const ey = isEmpty(y.value);
    if (ex || ey) return ex === ey ? x.index - y.index : ex ? 1 : -1;
    return sign * compareCells(x.value, y.value) || x.index - y.index;
  });
  return keyed.map((k) => k.row);
}

/** Clicking a header: a new column sorts ascending, the same column flips, a third click clears. */
export function nextSort(current: SortState | null, column: string): SortState | null {
  if (!current || current.column !== column) return { column, direction: 'asc' };
  if (current.direction === 'asc') return { column, direction: 'desc' };
  return null;
}

/** The search terms of a query: whitespace separated, lower case; every term must match. */
export const searchTerms = (query: string): string[] => query.trim().toLowerCase().split(/\s+/).filter(Boolean);

/** Rows whose cells (any column) contain every term, case-insensitively. */
export function filterRows<R extends Row>(rows: readonly R[], columns: readonly string[], query: string): R[] {
  const terms = searchTerms(query);
  if (terms.length === 0) return [...rows];
  return rows.filter((row) => {
    const text = columns.map((c) => (row[c] === null || row[c] === undefined ? '' : String(row[c]))).join('\u0001').toLowerCase();
    return terms.every((t) => text.includes(t));
  });
}

// ---- severity

const SEVERITY_WORDS: ReadonlyArray<[RegExp, VulnerabilityLevel]> = [
  [/^(critical|超危|严重)$/, 1],
  [/^(high|高危|高)$/, 2],
  [/^(medium|moderate|中危|中)$/, 4],
  [/^(low|低危|低)$/, 8],
  [/^(info|informational|none|unknown|未知|无)$/, 16],
];

/**
 * The level of a severity cell: a CycloneDX / OpenVEX word (critical, high, medium, low, info,
 * none, unknown), our own labels (超危 … 未知), or a CVSS base score (9.0+ 超危, 7.0+ 高危,
 * 4.0+ 中危, above 0 低危). Several ratings in one cell ("high, medium") count as the most
 * severe. Null for an empty cell; 未知 for anything unrecognised.
 */
export function severityLevel(value: Cell): VulnerabilityLevel | null {
  if (isEmpty(value)) return null;
  const score = numericValue(value);
  if (score !== null) return score >= 9 ? 1 : score >= 7 ? 2 : score >= 4 ? 4 : score > 0 ? 8 : 16;
  let best: VulnerabilityLevel | null = null;
  for (const part of String(value).toLowerCase().split(/[,，;；/|\s]+/).filter(Boolean)) {
    const found = SEVERITY_WORDS.find(([re]) => re.test(part))?.[1] ?? null;
    if (found !== null && (best === null || found < best)) best = found;
  }
  return best ?? 16;
}

const SEVERITY_KEY = /^(severity|severities|level|rating|ratings|risk|vulnlevel|vulnerabilitylevel)$/i;
const SEVERITY_TITLE = /(严重|等级|级别|severity|rating)/i;
const VULNERABILITY_TABLE = /(vuln|vex|漏洞)/i;

/** Whether a table lists vulnerabilities (by its key or title). */
export const isVulnerabilityTable = (table: Pick<ReviewTable, 'key' | 'title'>): boolean =>
  VULNERABILITY_TABLE.test(table.key) || VULNERABILITY_TABLE.test(table.title);

/** The severity column of a vulnerability table (by key first, then by title), or null. */
export function severityColumn(table: Pick<ReviewTable, 'key' | 'title' | 'columns'>): string | null {
  if (!isVulnerabilityTable(table)) return null;
  return table.columns.find((c) => SEVERITY_KEY.test(c.key))?.key ?? table.columns.find((c) => SEVERITY_TITLE.test(c.title))?.key ?? null;
}

/** How many rows fall in each level (rows with an empty cell are not counted). */
export function severityCounts(rows: readonly Row[], column: string): Map<VulnerabilityLevel, number> {
  const counts = new Map<VulnerabilityLevel, number>();
  for (const row of rows) {
    const level = severityLevel(row[column] ?? null);
    if (level !== null) counts.set(level, (counts.get(level) ?? 0) + 1);
  }
  return counts;
}

/** Rows of the chosen levels; every row when none is chosen. */
export function filterBySeverity<R extends Row>(rows: readonly R[], column: string | null, levels: ReadonlySet<VulnerabilityLevel>): R[] {
  if (!column || levels.size === 0) return [...rows];
  return rows.filter((row) => {
    const level = severityLevel(row[column] ?? null);
    return level !== null && levels.has(level);
  });
}

export const severityLabel = (level: VulnerabilityLevel): string => VULNERABILITY_LEVEL_LABEL[level];

/** Every step of the table screen at once: search, severity, sort. */
export function viewRows<R extends Row>(
  table: { columns: ReadonlyArray<{ key: string }>; rows: readonly R[] },
  options: { query: string; severityColumn: string | null; levels: ReadonlySet<VulnerabilityLevel>; sort: SortState | null },
): R[] {
  const searched = filterRows(table.rows, table.columns.map((c) => c.key), options.query);
  return sortRows(filterBySeverity(searched, options.severityColumn, options.levels), options.sort);
}

/**
 * A column width in pixels from its title and the longest of its first rows (the table is
 * virtualised: only a sample is measured), between 80 and 420. CJK characters count double.
 */
export function columnWidth(title: string, rows: readonly Row[], key: string, sample = 200): number {
  const width = (text: string): number => {
    let w = 0;
    for (const ch of text) w += ch.charCodeAt(0) > 0x2e80 ? 2 : 1;
    return w;
  };
  let longest = width(title) + 3;
  const n = Math.min(rows.length, sample);
  for (let i = 0; i < n; i += 1) {
    const v = rows[i]![key];
    if (v !== null && v !== undefined) longest = Math.max(longest, width(String(v)));
  }
  return Math.max(80, Math.min(420, Math.round(longest * 7.2 + 24)));
}
