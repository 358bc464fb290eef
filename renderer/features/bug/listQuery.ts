// The vulnerability list's state in the URL query (filters, sort, page), so back/forward and a
// reload keep it: the vulnerability fields of common/vulnerability/ with the source. Pure, tested
// in Node.
//
//   q=keyword  levels=1,2  exploit=1,4  eco=npm  source=osv  from=2024-01-01  to=2024-12-31
//   withdrawn=1  sort=published|level|score|modified  order=asc|desc  page=2  size=15
import { hasFilters as anyFilter, initialUrlState, readUrlState, writeUrlState, type UrlState } from '../../common/list/urlState.ts';
import {
  ecosystemField, exploitField, fromField, keywordField, levelsField, orderField, sortField, sourceField, toField, withdrawnField,
} from '../../common/vulnerability/fields.ts';

export const LIST_FIELDS = {
  keyword: keywordField,
  levels: levelsField,
  exploit: exploitField,
  ecosystem: ecosystemField,
  source: sourceField,
  from: fromField,
  to: toField,
  withdrawn: withdrawnField,
  sort: sortField,
  order: orderField,
};

export type ListState = UrlState<typeof LIST_FIELDS>;

export const DEFAULT_LIST_STATE: ListState = initialUrlState(LIST_FIELDS);

/** Reads the list state from the URL query; anything unknown or malformed falls back to the default. */
export const readListState = (params: URLSearchParams): ListState => readUrlState(LIST_FIELDS, params);

/**
 * The URL query of a list state, keeping only what differs from the default (and any foreign
 * parameters of `base`, e.g. the product selector).
 */
export const writeListState = (state: ListState, base: URLSearchParams = new URLSearchParams()): URLSearchParams => writeUrlState(LIST_FIELDS, state, base);

/** Whether any filter (not sort or paging) is set. */
export const hasFilters = (state: ListState): boolean => anyFilter(LIST_FIELDS, state);
