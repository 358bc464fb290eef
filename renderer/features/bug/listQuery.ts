// The vulnerability list's state in the URL query (filters, sort, page), so back/forward and a
// reload keep it. Pure functions of URLSearchParams, tested in Node.
//
//   q=keyword  levels=1,2  exploit=1,4  eco=npm  source=osv  from=2024-01-01  to=2024-12-31
//   withdrawn=1  sort=published|level|score|modified  order=asc|desc  page=2  size=15
import { DEFAULT_PAGE_SIZE } from '../../../contract/api/kit.ts';
import type { VulnerabilityFilter } from '../../../contract/api/vulnerability.ts';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { isDay } from '../../../contract/format.ts';

export type SortKey = NonNullable<VulnerabilityFilter['sort']>;
export type SortOrder = NonNullable<VulnerabilityFilter['order']>;
export type ExploitCode = 1 | 2 | 4 | 16;
export type SourceCode = NonNullable<VulnerabilityFilter['source']>;

export const EXPLOIT_CODES: readonly ExploitCode[] = [1, 2, 4, 16];
export const SOURCE_CODES: readonly SourceCode[] = ['osv', 'nvd', 'trivy', 'custom'];
export const SORT_KEYS: readonly SortKey[] = ['published', 'level', 'score', 'modified'];
export const PAGE_SIZES: readonly number[] = [15, 30, 50, 100];
/** purl types the ecosystem filter offers (the platform accepts OSV names too). */
export const ECOSYSTEMS: readonly string[] = [
  'npm', 'maven', 'pypi', 'golang', 'cargo', 'gem', 'composer', 'nuget', 'cocoapods', 'swift',
  'pub', 'hex', 'conan', 'conda', 'julia', 'deb', 'apk', 'rpm', 'generic',
];

export interface ListState {
  keyword: string;
  levels: VulnerabilityLevel[];
  exploit: ExploitCode[];
  ecosystem: string;
  source: SourceCode | '';
  from: string;
  to: string;
  /** Also list withdrawn advisories. */
  withdrawn: boolean;
  sort: SortKey;
  order: SortOrder;
  page: number;
  size: number;
}

export const DEFAULT_LIST_STATE: ListState = {
  keyword: '',
  levels: [],
  exploit: [],
  ecosystem: '',
  source: '',
  from: '',
  to: '',
  withdrawn: false,
  sort: 'published',
  order: 'desc',
  page: 1,
  size: DEFAULT_PAGE_SIZE,
};

const codes = <T extends number>(raw: string | null, allowed: readonly T[]): T[] => {
  if (!raw) return [];
  const out: T[] = [];
  for (const part of raw.split(',')) {
    const n = Number(part.trim());
    if ((allowed as readonly number[]).includes(n) && !out.includes(n as T)) out.push(n as T);
  }
  // In the canonical order, so the same filter is always the same URL and the same cache entry.
  return allowed.filter((c) => out.includes(c));
};

const positive = (raw: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
};

/** `page` and `size` of a list's URL query: a malformed page is 1, a size not offered the default. */
export function readPaging(params: URLSearchParams, defaultSize: number = DEFAULT_PAGE_SIZE): { page: number; size: number } {
  const size = Number(params.get('size'));
  return { page: positive(params.get('page'), 1), size: PAGE_SIZES.includes(size) ? size : defaultSize };
}

/** Sets `page` and `size` on `out`, leaving out the defaults (so the same list is the same URL). */
export function writePaging(out: URLSearchParams, paging: { page: number; size: number }, defaultSize: number = DEFAULT_PAGE_SIZE): void {
  out.delete('page');
  out.delete('size');
  if (paging.page !== 1) out.set('page', String(paging.page));
  if (paging.size !== defaultSize) out.set('size', String(paging.size));
}

/** Reads the list state from the URL query; anything unknown or malformed falls back to the default. */
export function readListState(params: URLSearchParams): ListState {
  const sort = params.get('sort') as SortKey | null;
  const order = params.get('order');
  const source = params.get('source') as SourceCode | null;
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const eco = (params.get('eco') ?? '').trim();
  return {
    keyword: (params.get('q') ?? '').slice(0, 200),
    levels: codes(params.get('levels'), LEVEL_CODES),
    exploit: codes(params.get('exploit'), EXPLOIT_CODES),
    ecosystem: ECOSYSTEMS.includes(eco) ? eco : '',
    source: source && SOURCE_CODES.includes(source) ? source : '',
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
    withdrawn: params.get('withdrawn') === '1',
    sort: sort && SORT_KEYS.includes(sort) ? sort : DEFAULT_LIST_STATE.sort,
    order: order === 'asc' || order === 'desc' ? order : DEFAULT_LIST_STATE.order,
    ...readPaging(params, DEFAULT_LIST_STATE.size),
  };
}

/**
 * The URL query of a list state, keeping only what differs from the default (and any foreign
 * parameters of `base`, e.g. the product selector).
 */
export function writeListState(state: ListState, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const key of ['q', 'levels', 'exploit', 'eco', 'source', 'from', 'to', 'withdrawn', 'sort', 'order']) out.delete(key);
  const set = (key: string, value: string, fallback = '') => {
    if (value !== fallback) out.set(key, value);
  };
  set('q', state.keyword.trim());
  set('levels', state.levels.join(','));
  set('exploit', state.exploit.join(','));
  set('eco', state.ecosystem);
  set('source', state.source);
  set('from', state.from);
  set('to', state.to);
  set('withdrawn', state.withdrawn ? '1' : '');
  set('sort', state.sort, DEFAULT_LIST_STATE.sort);
  set('order', state.order, DEFAULT_LIST_STATE.order);
  writePaging(out, state, DEFAULT_LIST_STATE.size);
  return out;
}

/** The body of the list call for a state (empty filters are left out). */
export function filterOf(state: ListState): VulnerabilityFilter {
  const filter: VulnerabilityFilter = { sort: state.sort, order: state.order };
  const keyword = state.keyword.trim();
  if (keyword) filter.keyword = keyword;
  if (state.levels.length) filter.levels = [...state.levels];
  if (state.exploit.length) filter.exploit = [...state.exploit];
  if (state.ecosystem) filter.ecosystem = state.ecosystem;
  if (state.source) filter.source = state.source;
  // A range typed backwards is read the way it was meant.
  const [from, to] = state.from && state.to && state.to < state.from ? [state.to, state.from] : [state.from, state.to];
  if (from) filter.publishedFrom = from;
  if (to) filter.publishedTo = to;
  if (state.withdrawn) filter.includeWithdrawn = true;
  return filter;
}

/** Whether any filter (not sort or paging) is set. */
export const hasFilters = (s: ListState): boolean =>
  Boolean(s.keyword.trim() || s.levels.length || s.exploit.length || s.ecosystem || s.source || s.from || s.to || s.withdrawn);

/** A filter change returns to page 1; sort and size changes do too. */
export function changed(state: ListState, patch: Partial<ListState>): ListState {
  const next = { ...state, ...patch };
  if (!('page' in patch)) next.page = 1;
  return next;
}

/**
 * The order that puts the most important rows first: newest, highest score, and for the level
 * most severe first, which is ascending codes (1 超危 … 16 未知).
 */
export const firstOrder = (key: SortKey): SortOrder => (key === 'level' ? 'asc' : 'desc');

/** Whether the list shows the most important rows of its sort column first (the header's "descending"). */
export const importantFirst = (state: Pick<ListState, 'sort' | 'order'>): boolean => state.order === firstOrder(state.sort);

/** Clicking a sortable header: a new column puts the most important rows first; the same column flips. */
export function toggleSort(state: ListState, key: SortKey): ListState {
  if (state.sort === key) return changed(state, { order: state.order === 'desc' ? 'asc' : 'desc' });
  return changed(state, { sort: key, order: firstOrder(key) });
}

/** Toggles one code in a multi-select. */
export function toggleCode<T extends number>(list: readonly T[], code: T, order: readonly T[]): T[] {
  const next = list.includes(code) ? list.filter((c) => c !== code) : [...list, code];
  return order.filter((c) => next.includes(c));
}

/** Pages in all for a total (at least 1). */
export const pageCount = (total: number, size: number): number => Math.max(1, Math.ceil(total / Math.max(1, size)));
