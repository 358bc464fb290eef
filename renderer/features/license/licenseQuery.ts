// The licence list's state in the URL query (filters and page), so back/forward and a reload keep
// it, as URL fields (common/list/urlState.ts). Pure, tested in Node.
//
//   q=keyword  levels=1,2  copyleft=strong,network  osi=1|0  page=2  size=30
import type { LicenseFilter } from '../../../contract/api/license.ts';
import { LEVEL_CODES } from '../../../contract/enums.ts';
import { codes, hasFilters, initialUrlState, readUrlState, text, writeUrlState, type UrlField, type UrlState } from '../../common/list/urlState.ts';

export type Copyleft = NonNullable<LicenseFilter['copyleft']>[number];
export const COPYLEFT_CODES: readonly Copyleft[] = ['none', 'weak', 'strong', 'network'];
export type OsiFilter = '' | 'yes' | 'no';
export const OSI_FILTERS: readonly OsiFilter[] = ['', 'yes', 'no'];

const osiField: UrlField<OsiFilter> = {
  key: 'osi',
  initial: '',
  read: (raw) => (raw === '1' ? 'yes' : raw === '0' ? 'no' : ''),
  write: (value) => (value === 'yes' ? '1' : value === 'no' ? '0' : ''),
  filter: true,
};

export const LICENSE_FIELDS = {
  keyword: text('q'),
  levels: codes('levels', LEVEL_CODES),
  copyleft: codes('copyleft', COPYLEFT_CODES),
  osi: osiField,
};

export type LicenseListState = UrlState<typeof LICENSE_FIELDS>;

export const DEFAULT_LICENSE_STATE: LicenseListState = initialUrlState(LICENSE_FIELDS);

export const readLicenseState = (params: URLSearchParams): LicenseListState => readUrlState(LICENSE_FIELDS, params);

/** The URL query of a state, keeping only what differs from the default (and foreign parameters of `base`). */
export const writeLicenseState = (state: LicenseListState, base: URLSearchParams = new URLSearchParams()): URLSearchParams => writeUrlState(LICENSE_FIELDS, state, base);

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

export const hasLicenseFilters = (state: LicenseListState): boolean => hasFilters(LICENSE_FIELDS, state);
