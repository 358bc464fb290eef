// The licence list's state in the URL query (filters and page), so back/forward and a reload keep
// it. Pure functions of URLSearchParams, tested in Node. Paging helpers come from the bug list.
//
//   q=keyword  levels=1,2  copyleft=strong,network  osi=1|0  page=2  size=30
import type { LicenseFilter } from '../../../contract/api/license.ts';
import { DEFAULT_PAGE_SIZE } from '../../../contract/api/kit.ts';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { readPaging, writePaging } from '../bug/listQuery.ts';

export type Copyleft = NonNullable<LicenseFilter['copyleft']>[number];
export const COPYLEFT_CODES: readonly Copyleft[] = ['none', 'weak', 'strong', 'network'];
export type OsiFilter = '' | 'yes' | 'no';

export interface LicenseListState {
  keyword: string;
  levels: VulnerabilityLevel[];
  copyleft: Copyleft[];
  osi: OsiFilter;
  page: number;
  size: number;
}

export const DEFAULT_LICENSE_STATE: LicenseListState = { keyword: '', levels: [], copyleft: [], osi: '', page: 1, size: DEFAULT_PAGE_SIZE };

function pick<T extends string | number>(raw: string | null, allowed: readonly T[], parse: (s: string) => T): T[] {
  if (!raw) return [];
  const seen = new Set(raw.split(',').map((s) => parse(s.trim())));
  // In the canonical order, so the same filter is always the same URL and the same cache entry.
  return allowed.filter((c) => seen.has(c));
}

export function readLicenseState(params: URLSearchParams): LicenseListState {
  const osi = params.get('osi');
  return {
    keyword: (params.get('q') ?? '').slice(0, 200),
    levels: pick(params.get('levels'), LEVEL_CODES, Number) as VulnerabilityLevel[],
    copyleft: pick(params.get('copyleft'), COPYLEFT_CODES, (s) => s as Copyleft),
    osi: osi === '1' ? 'yes' : osi === '0' ? 'no' : '',
    ...readPaging(params),
  };
}

/** The URL query of a state, keeping only what differs from the default (and foreign parameters of `base`). */
export function writeLicenseState(state: LicenseListState, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const key of ['q', 'levels', 'copyleft', 'osi']) out.delete(key);
  const set = (key: string, value: string, fallback = '') => {
    if (value !== fallback) out.set(key, value);
  };
  set('q', state.keyword.trim());
  set('levels', state.levels.join(','));
  set('copyleft', state.copyleft.join(','));
  set('osi', state.osi === 'yes' ? '1' : state.osi === 'no' ? '0' : '');
  writePaging(out, state);
  return out;
}

/** The body of the list call (empty filters left out). */
export function licenseFilterOf(state: LicenseListState): LicenseFilter {
  const filter: LicenseFilter = {};
  const keyword = state.keyword.trim();
  if (keyword) filter.keyword = keyword;
  if (state.levels.length) filter.levels = [...state.levels];
  if (state.copyleft.length) filter.copyleft = [...state.copyleft];
  if (state.osi) filter.osiApproved = state.osi === 'yes';
  return filter;
}

export const hasLicenseFilters = (s: LicenseListState): boolean => Boolean(s.keyword.trim() || s.levels.length || s.copyleft.length || s.osi);

/** A filter or size change returns to page 1. */
export function changedLicense(state: LicenseListState, patch: Partial<LicenseListState>): LicenseListState {
  const next = { ...state, ...patch };
  if (!('page' in patch)) next.page = 1;
  return next;
}

/** Toggles one string code in a multi-select, keeping the canonical order. */
export function toggleText<T extends string>(list: readonly T[], code: T, order: readonly T[]): T[] {
  const next = list.includes(code) ? list.filter((c) => c !== code) : [...list, code];
  return order.filter((c) => next.includes(c));
}
