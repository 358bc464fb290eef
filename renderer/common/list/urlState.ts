// A list screen's state in the URL query (filters, sort, page and size), so back/forward, a reload
// and a shared link keep it. Pure functions of URLSearchParams, tested in Node.
//
// A list declares its fields once (`{ keyword: text('q'), levels: codes('levels', LEVEL_CODES) }`);
// reading, writing, "is anything filtered" and 重置 follow from the declaration. Only what differs
// from a field's initial value is written, so the same list is always the same URL (and the same
// cache entry), and parameters the list does not own (the product selector) are kept.
import { DEFAULT_PAGE_SIZE } from '../../../contract/api/kit.ts';
import { isDay } from '../../../contract/format.ts';

/** Rows a page offers, smallest first; the default is DEFAULT_PAGE_SIZE (15). */
export const PAGE_SIZES: readonly number[] = [15, 30, 50, 100];

export interface Paging {
  page: number;
  size: number;
}

/** One value of a list's state and its query parameter. */
export interface UrlField<T> {
  key: string;
  /** The value when the parameter is absent or malformed; never written. */
  initial: T;
  read(raw: string | null): T;
  /** The parameter's text: '' (or the initial value's text) leaves the parameter out. */
  write(value: T): string;
  /** False for sort and order: they are kept by 重置 and do not make a list "filtered". */
  filter: boolean;
}

export type UrlFields = Record<string, UrlField<any>>;
export type FieldValues<F extends UrlFields> = { [K in keyof F]: F[K] extends UrlField<infer T> ? T : never };
export type UrlState<F extends UrlFields> = FieldValues<F> & Paging;

const positive = (raw: string | null, fallback: number): number => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= Number.MAX_SAFE_INTEGER ? n : fallback;
};

/** `page` and `size` of a list's URL query: a malformed page is 1, a size not offered the default. */
export function readPaging(params: URLSearchParams, defaultSize: number = DEFAULT_PAGE_SIZE): Paging {
  const size = Number(params.get('size'));
  return { page: positive(params.get('page'), 1), size: PAGE_SIZES.includes(size) ? size : defaultSize };
}

/** Sets `page` and `size` on `out`, leaving out the defaults. */
export function writePaging(out: URLSearchParams, paging: Paging, defaultSize: number = DEFAULT_PAGE_SIZE): void {
  out.delete('page');
  out.delete('size');
  if (paging.page !== 1) out.set('page', String(paging.page));
  if (paging.size !== defaultSize) out.set('size', String(paging.size));
}

/** Pages in all for a total (at least 1). */
export const pageCount = (total: number, size: number): number => Math.max(1, Math.ceil(total / Math.max(1, size)));

// ---- fields ------------------------------------------------------------------------------------

/** A keyword: at most `max` characters read, written trimmed. */
export const text = (key: string, max = 200): UrlField<string> => ({
  key,
  initial: '',
  read: (raw) => (raw ?? '').slice(0, max),
  write: (value) => value.trim(),
  filter: true,
});

/** A multi-select of codes (`levels=1,4`), unknown ones dropped, in the order of `allowed`. */
export function codes<C extends string | number>(key: string, allowed: readonly C[]): UrlField<C[]> {
  return {
    key,
    initial: [],
    read: (raw) => {
      const parts = (raw ?? '').split(',').map((part) => part.trim()).filter(Boolean);
      // In the canonical order, so the same filter is always the same URL and the same cache entry.
      return allowed.filter((code) => parts.some((part) => (typeof code === 'number' ? Number(part) === code : part === code)));
    },
    write: (value) => value.join(','),
    filter: true,
  };
}

/** One of `allowed` (trimmed), else `initial` ('' for "all"); `filter: false` for sort and order. */
export function oneOf<V extends string, I extends string = V>(key: string, allowed: readonly V[], initial: I, options: { filter?: boolean } = {}): UrlField<V | I> {
  return {
    key,
    initial,
    read: (raw) => {
      const value = (raw ?? '').trim();
      return (allowed as readonly string[]).includes(value) ? (value as V) : initial;
    },
    write: (value) => value,
    filter: options.filter ?? true,
  };
}

/** One of `allowed` numeric codes (`level=2`), else null. */
export function code<C extends number>(key: string, allowed: readonly C[]): UrlField<C | null> {
  return {
    key,
    initial: null,
    read: (raw) => allowed.find((c) => raw !== null && raw.trim() !== '' && Number(raw) === c) ?? null,
    write: (value) => (value === null ? '' : String(value)),
    filter: true,
  };
}

/** A day (YYYY-MM-DD) or ''. */
export const day = (key: string): UrlField<string> => ({
  key,
  initial: '',
  read: (raw) => (raw && isDay(raw) ? raw : ''),
  write: (value) => value,
  filter: true,
});

/** A switch: `key=1` when on. */
export const flag = (key: string): UrlField<boolean> => ({
  key,
  initial: false,
  read: (raw) => raw === '1',
  write: (value) => (value ? '1' : ''),
  filter: true,
});

// ---- state ---------------------------------------------------------------------------------------

const entries = <F extends UrlFields>(fields: F) => Object.entries(fields) as Array<[keyof F & string, UrlField<unknown>]>;

/** Every field at its initial value, page 1. */
export function initialUrlState<F extends UrlFields>(fields: F, defaultSize: number = DEFAULT_PAGE_SIZE): UrlState<F> {
  const state: Record<string, unknown> = {};
  for (const [name, field] of entries(fields)) state[name] = field.initial;
  return { ...(state as FieldValues<F>), page: 1, size: defaultSize };
}

/** Reads the state from the URL query; anything unknown or malformed falls back to the initial value. */
export function readUrlState<F extends UrlFields>(fields: F, params: URLSearchParams, defaultSize: number = DEFAULT_PAGE_SIZE): UrlState<F> {
  const state: Record<string, unknown> = {};
  for (const [name, field] of entries(fields)) state[name] = field.read(params.get(field.key));
  return { ...(state as FieldValues<F>), ...readPaging(params, defaultSize) };
}

/** The URL query of a state: only what differs from the initial values, plus `base`'s foreign parameters. */
export function writeUrlState<F extends UrlFields>(fields: F, state: UrlState<F>, base: URLSearchParams = new URLSearchParams(), defaultSize: number = DEFAULT_PAGE_SIZE): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const [name, field] of entries(fields)) {
    out.delete(field.key);
    const value = field.write(state[name]);
    if (value !== '' && value !== field.write(field.initial)) out.set(field.key, value);
  }
  writePaging(out, state, defaultSize);
  return out;
}

/** Whether any filter (not sort, order or paging) differs from its initial value. */
export function hasFilters<F extends UrlFields>(fields: F, state: FieldValues<F>): boolean {
  return entries(fields).some(([name, field]) => {
    if (!field.filter) return false;
    const value = field.write(state[name]);
    return value !== '' && value !== field.write(field.initial);
  });
}

/** 重置: every filter back to its initial value and page 1; sort, order and the page size stay. */
export function clearFilters<F extends UrlFields>(fields: F, state: UrlState<F>): UrlState<F> {
  const next: Record<string, unknown> = { ...state, page: 1 };
  for (const [name, field] of entries(fields)) if (field.filter) next[name] = field.initial;
  return next as UrlState<F>;
}

/** A change of anything but the page returns to page 1. */
export function changed<S extends Paging>(state: S, patch: Partial<S>): S {
  const next = { ...state, ...patch };
  if (!('page' in patch)) next.page = 1;
  return next;
}

/** The page to show after deleting rows: the previous one when they were all the rows of a later page. */
export const pageAfterDelete = (page: number, rowsOnPage: number, deleted: number): number => (rowsOnPage <= deleted && page > 1 ? page - 1 : page);

/** Toggles one code in a multi-select, keeping the canonical order. */
export function toggleCode<T extends string | number>(list: readonly T[], code: T, order: readonly T[]): T[] {
  const next = list.includes(code) ? list.filter((c) => c !== code) : [...list, code];
  return order.filter((c) => next.includes(c));
}
