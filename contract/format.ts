// Display formatters (spec doc 1 §3 "Vulnerability identifier", §5, §9). Pure string and Date
// arithmetic. Times are shown in the LOCAL time zone of the process that formats them (the
// renderer: the user's zone); an ISO string with an offset or Z is converted to it, one without an
// offset is read as local time already (ECMAScript Date parsing rules).

export const DASH = '--';

const isBlank = (v: unknown): boolean =>
  v === null ||
  v === undefined ||
  (typeof v === 'string' && v.trim() === '') ||
  (typeof v === 'number' && Number.isNaN(v));

/** '--' for null, undefined, blank strings and NaN; otherwise the value as text (0 stays '0'). */
export function orDash(value: string | number | boolean | null | undefined): string {
  return isBlank(value) ? DASH : String(value);
}

// ---------------------------------------------------------------------------------------------
// Vulnerability identifier

export interface VulnerabilityIdentifier {
  identify?: string | null;
  cnnvd?: string | null;
  cve?: string | null;
}

const present = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/**
 * identify followed by the CNNVD id (else the CVE id) in brackets; without identify, the CNNVD id
 * with the CVE id in brackets, or whichever exists; '--' when none exists. A bracketed id equal
 * to the one before it is not repeated. Brackets are ASCII, no space: `X(Y)`.
 */
export function formatVulnerabilityId(v: VulnerabilityIdentifier | null | undefined): string {
  const identify = present(v?.identify) ? v.identify.trim() : null;
  const cnnvd = present(v?.cnnvd) ? v.cnnvd.trim() : null;
  const cve = present(v?.cve) ? v.cve.trim() : null;
  const join = (main: string, extra: string | null): string => (extra && extra !== main ? `${main}(${extra})` : main);
  if (identify) return join(identify, cnnvd ?? cve);
  if (cnnvd) return join(cnnvd, cve);
  return cve ?? DASH;
}

// ---------------------------------------------------------------------------------------------
// Dates

const DATE_TIME_PATTERN = 'YYYY-MM-DD HH:mm:ss';
const DATE_PATTERN = 'YYYY-MM-DD';
/** The alternate date display. */
const DOT_DATE_PATTERN = 'YYYY.MM.DD';

/** ISO style with "T": 2024-01-02T03:04 and longer (seconds, fraction, Z or offset). */
const ISO_T = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Formats a Date in local time. Tokens: YYYY MM DD HH mm ss (anything else is copied). */
function formatDateWith(date: Date, pattern: string): string {
  const tokens: Record<string, string> = {
    YYYY: pad(date.getFullYear(), 4),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (t) => tokens[t]!);
}

export type DateInput = string | number | Date | null | undefined;

/**
 * Formats a timestamp. Empty values give '--'. Strings not in ISO style with "T" are shown as
 * given (the server may already send 2024-01-02 03:04:05). Numbers are epoch milliseconds.
 * An unparseable ISO string is shown as given; an invalid Date or number gives '--'.
 */
export function formatTimestamp(value: DateInput, pattern: string = DATE_TIME_PATTERN): string {
  if (value === null || value === undefined) return DASH;
  if (typeof value === 'string') {
    const s = value.trim();
    if (s === '') return DASH;
    if (!ISO_T.test(s)) return value;
    const d = new Date(s);
    return Number.isNaN(d.getTime()) ? value : formatDateWith(d, pattern);
  }
  const d = typeof value === 'number' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? DASH : formatDateWith(d, pattern);
}

/** YYYY-MM-DD HH:mm:ss */
export const formatDateTime = (value: DateInput): string => formatTimestamp(value, DATE_TIME_PATTERN);
/** YYYY-MM-DD */
export const formatDate = (value: DateInput): string => formatTimestamp(value, DATE_PATTERN);
/** YYYY.MM.DD, the alternate display. */
export const formatDotDate = (value: DateInput): string => formatTimestamp(value, DOT_DATE_PATTERN);

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD. */
export function isDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export interface DayRange {
  start: string;
  end: string;
}

/**
 * The query range of one or two days: start at 00:00:00 of `from`, end at 23:59:59 of `to`
 * (default: the same day). Days are YYYY-MM-DD; null when either is not a real day or to < from.
 */
export function dayRange(from: string, to: string = from): DayRange | null {
  if (!isDay(from) || !isDay(to) || to < from) return null;
  return { start: `${from} 00:00:00`, end: `${to} 23:59:59` };
}

// ---------------------------------------------------------------------------------------------
// Sizes and counts

/** Up to `digits` decimals, trailing zeros dropped: 1.50 -> '1.5', 2.00 -> '2'. */
function trimFixed(n: number, digits: number): string {
  const s = n.toFixed(digits);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

const SIZE_UNITS = ['B', 'K', 'M', 'G'] as const;

/**
 * Bytes in B, K, M or G (1024 steps): 512 -> '512B', 1536 -> '1.5K', 1048576 -> '1M'. Two
 * decimals at most, trailing zeros dropped; sizes beyond G stay in G. Negative, non-numeric or
 * empty values give '--'.
 */
export function formatFileSize(bytes: number | string | null | undefined): string {
  if (isBlank(bytes)) return DASH;
  let n = typeof bytes === 'number' ? bytes : Number(bytes);
  if (!Number.isFinite(n) || n < 0) return DASH;
  let unit = 0;
  while (unit < SIZE_UNITS.length - 1 && Number(trimFixed(n, 2)) >= 1024) {
    n /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? trimFixed(n, 0) : trimFixed(n, 2)}${SIZE_UNITS[unit]}`;
}

const COUNT_UNITS = [
  [1e12, '万亿'],
  [1e8, '亿'],
  [1e4, '万'],
] as const;

/**
 * Large counts in 万, 亿 or 万亿. Below 10000 the number is shown as is. From 10000 on, it is
 * divided into the largest unit it reaches and rounded half away from zero to two decimals,
 * trailing zeros dropped: 12345 -> '1.23万', 10000 -> '1万', 123456789 -> '1.23亿',
 * 1.5e12 -> '1.5万亿'. A value that rounds up to 10000 of a unit moves to the next unit
 * (99999999 -> '1亿'). Negative values keep their sign; non-numeric or empty values give '--'.
 */
export function formatLargeNumber(value: number | string | null | undefined): string {
  if (isBlank(value)) return DASH;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return DASH;
  const abs = Math.abs(n);
  const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;
  const rounded = round2(abs);
  const sign = n < 0 && rounded !== 0 ? '-' : '';
  if (rounded < 1e4) return `${sign}${trimFixed(rounded, 2)}`;
  for (let i = 0; i < COUNT_UNITS.length; i += 1) {
    const [base, name] = COUNT_UNITS[i]!;
    if (rounded < base) continue;
    const scaled = round2(abs / base);
    // Rounding up to 10000 of this unit means one of the next larger unit.
    if (i > 0 && scaled >= 1e4) return `${sign}${trimFixed(round2(abs / COUNT_UNITS[i - 1]![0]), 2)}${COUNT_UNITS[i - 1]![1]}`;
    return `${sign}${trimFixed(scaled, 2)}${name}`;
  }
  return `${sign}${trimFixed(rounded, 2)}`;
}
