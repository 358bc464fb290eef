// A list's URL state declared as fields (common/list/urlState.ts): reading with fallbacks, writing
// only what differs from the initial values, 重置 and "is anything filtered", page handling.
import { describe, expect, it } from 'vitest';
import {
  changed,
  clearFilters,
  code,
  codes,
  day,
  flag,
  hasFilters,
  initialUrlState,
  oneOf,
  pageAfterDelete,
  pageCount,
  readPaging,
  readUrlState,
  text,
  toggleCode,
  writePaging,
  writeUrlState,
} from '../../../../renderer/common/list/urlState.ts';

const FIELDS = {
  name: text('name'),
  levels: codes('levels', [1, 2, 4, 8, 16] as const),
  kinds: codes('kinds', ['a', 'b', 'c'] as const),
  status: oneOf('status', ['1', '0'], ''),
  level: code('level', [1, 2, 4] as const),
  from: day('from'),
  online: flag('online'),
  sort: oneOf('sort', ['name', 'created'], 'created', { filter: false }),
};
const read = (q: string) => readUrlState(FIELDS, new URLSearchParams(q));
const INITIAL = initialUrlState(FIELDS);

describe('URL fields', () => {
  it('start at their initial values, page 1 of 15', () => {
    expect(INITIAL).toEqual({ name: '', levels: [], kinds: [], status: '', level: null, from: '', online: false, sort: 'created', page: 1, size: 15 });
    expect(read('')).toEqual(INITIAL);
    expect(writeUrlState(FIELDS, INITIAL).toString()).toBe('');
  });

  it('read every kind, in canonical order, dropping what is unknown or malformed', () => {
    expect(read('name=abc&levels=4,1,1,x,3&kinds=c,a,z&status=0&level=2&from=2024-05-01&online=1&sort=name&page=3&size=30')).toEqual({
      name: 'abc', levels: [1, 4], kinds: ['a', 'c'], status: '0', level: 2, from: '2024-05-01', online: true, sort: 'name', page: 3, size: 30,
    });
    expect(read('status=2&level=3&level=&from=2024-02-30&online=yes&sort=size&page=0&size=7')).toEqual(INITIAL);
    expect(read(`name=${'x'.repeat(300)}`).name).toHaveLength(200);
  });

  it('write only what differs, trimmed, and keep foreign parameters', () => {
    const q = writeUrlState(FIELDS, { ...INITIAL, name: ' abc ', kinds: ['b'], page: 2 }, new URLSearchParams('product=2&name=old&page=9'));
    expect(q.toString()).toBe('product=2&name=abc&kinds=b&page=2');
    expect(read(q.toString())).toEqual({ ...INITIAL, name: 'abc', kinds: ['b'], page: 2 });
  });

  it('sort is not a filter: 重置 keeps it and the size, and returns to page 1', () => {
    const s = { ...INITIAL, name: 'x', online: true, sort: 'name' as const, page: 4, size: 50 };
    expect(hasFilters(FIELDS, s)).toBe(true);
    expect(hasFilters(FIELDS, { ...INITIAL, sort: 'name', name: '  ' })).toBe(false);
    expect(clearFilters(FIELDS, s)).toEqual({ ...INITIAL, sort: 'name', size: 50 });
  });

  it('a change returns to page 1 unless it is the page', () => {
    const s = { ...INITIAL, page: 4 };
    expect(changed(s, { status: '1' }).page).toBe(1);
    expect(changed(s, { page: 5 })).toEqual({ ...s, page: 5 });
  });
});

describe('paging', () => {
  it('reads and writes page and size, leaving out the defaults', () => {
    expect(readPaging(new URLSearchParams('page=2&size=50'))).toEqual({ page: 2, size: 50 });
    expect(readPaging(new URLSearchParams('page=1.5&size=20'), 30)).toEqual({ page: 1, size: 30 });
    const out = new URLSearchParams('page=3&size=50&q=x');
    writePaging(out, { page: 1, size: 15 });
    expect(out.toString()).toBe('q=x');
  });

  it('steps back a page when the deleted rows were all of a later page', () => {
    expect(pageAfterDelete(3, 2, 2)).toBe(2);
    expect(pageAfterDelete(3, 5, 2)).toBe(3);
    expect(pageAfterDelete(1, 1, 1)).toBe(1);
  });

  it('counts pages and toggles codes in order', () => {
    expect(pageCount(0, 15)).toBe(1);
    expect(pageCount(31, 15)).toBe(3);
    expect(toggleCode(['c'], 'a', ['a', 'b', 'c'])).toEqual(['a', 'c']);
    expect(toggleCode([1, 4], 4, [1, 2, 4])).toEqual([1]);
  });
});
