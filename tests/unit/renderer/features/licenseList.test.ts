// The licence list's URL state and list-call body, the level settings' URL state, and the licence
// endpoints over a fake bridge (paths and bodies from the contract).
import { afterEach, describe, expect, it } from 'vitest';
import { licenseApi } from '../../../../renderer/api/licenseApi.ts';
import { createAppStore } from '../../../../renderer/app/store.ts';
import { installDesktop } from '../../../../renderer/platform/desktop.ts';
import {
  DEFAULT_LICENSE_STATE,
  hasLicenseFilters,
  licenseFilterOf,
  readLicenseState,
  writeLicenseState,
  COPYLEFT_CODES,
} from '../../../../renderer/features/license/licenseQuery.ts';
import { changed as changedLicense, toggleCode as toggleText } from '../../../../renderer/common/list/urlState.ts';
import { readSystemLicenseState, writeSystemLicenseState } from '../../../../renderer/features/system/knowledgeBase/SystemLicenseScreen.tsx';
import { spdxPage } from '../../../../renderer/features/license/LicenseDetailsScreen.tsx';
import { envelope, fakeDesktop } from '../support.ts';

afterEach(() => installDesktop(null));

const read = (q: string) => readLicenseState(new URLSearchParams(q));

describe('licence list state', () => {
  it('defaults to page 1 of 15 with no filters', () => {
    expect(read('')).toEqual(DEFAULT_LICENSE_STATE);
    expect(DEFAULT_LICENSE_STATE.size).toBe(15);
    expect(writeLicenseState(DEFAULT_LICENSE_STATE).toString()).toBe('');
  });

  it('reads every filter, in canonical order, dropping what is unknown', () => {
    expect(read('q=gpl&levels=2,1,3&copyleft=network,weak,viral&osi=1&page=2&size=30')).toEqual({
      keyword: 'gpl',
      levels: [1, 2],
      copyleft: ['weak', 'network'],
      osi: 'yes',
      page: 2,
      size: 30,
    });
    expect(read('osi=0').osi).toBe('no');
    expect(read('osi=maybe&page=-1&size=7')).toEqual(DEFAULT_LICENSE_STATE);
  });

  it('round-trips through the URL and keeps foreign parameters', () => {
    const s = { ...DEFAULT_LICENSE_STATE, keyword: 'MIT', copyleft: ['strong' as const], osi: 'no' as const, page: 3 };
    const q = writeLicenseState(s, new URLSearchParams('product=2&page=9'));
    expect(q.get('product')).toBe('2');
    expect(readLicenseState(q)).toEqual(s);
  });

  it('builds the list body with only the filters set', () => {
    expect(licenseFilterOf(DEFAULT_LICENSE_STATE)).toEqual({});
    expect(licenseFilterOf({ ...DEFAULT_LICENSE_STATE, keyword: ' mit ', levels: [8], copyleft: ['network'], osi: 'yes' })).toEqual({
      keyword: 'mit',
      levels: [8],
      copyleft: ['network'],
      osiApproved: true,
    });
    expect(licenseFilterOf({ ...DEFAULT_LICENSE_STATE, osi: 'no' })).toEqual({ osiApproved: false });
  });

  it('a filter change returns to page 1; toggles keep the canonical order', () => {
    expect(changedLicense({ ...DEFAULT_LICENSE_STATE, page: 4 }, { osi: 'yes' }).page).toBe(1);
    expect(changedLicense(DEFAULT_LICENSE_STATE, { page: 4 }).page).toBe(4);
    expect(toggleText(['network'], 'none', COPYLEFT_CODES)).toEqual(['none', 'network']);
    expect(toggleText(['none', 'network'], 'none', COPYLEFT_CODES)).toEqual(['network']);
    expect(hasLicenseFilters(DEFAULT_LICENSE_STATE)).toBe(false);
    expect(hasLicenseFilters({ ...DEFAULT_LICENSE_STATE, copyleft: ['weak'] })).toBe(true);
  });
});

describe('level settings state', () => {
  it('reads and writes keyword, level, edited and paging', () => {
    const s = readSystemLicenseState(new URLSearchParams('q=MIT&level=2&edited=1&page=2'));
    expect(s).toEqual({ keyword: 'MIT', level: 2, edited: true, page: 2, size: 15 });
    expect(writeSystemLicenseState(s, new URLSearchParams()).toString()).toBe('q=MIT&level=2&edited=1&page=2');
    expect(readSystemLicenseState(new URLSearchParams('level=3&edited=yes'))).toEqual({ keyword: '', level: null, edited: false, page: 1, size: 15 });
  });
});

describe('licenseApi', () => {
  it('uses the contract paths', async () => {
    const { api, calls } = fakeDesktop(() => envelope(1, '', { content: [], total: 0 }));
    installDesktop(api);
    const store = createAppStore();
    await store.dispatch(licenseApi.endpoints.licenseList.initiate({ paging: { page: 1, size: 15 }, filter: { copyleft: ['network'] } }, { subscribe: false }));
    await store.dispatch(licenseApi.endpoints.licenseDetail.initiate('MIT', { subscribe: false }));
    await store.dispatch(licenseApi.endpoints.licenseInvolvedSubjects.initiate({ id: '7', paging: { page: 1, size: 15 } }, { subscribe: false }));
    await store.dispatch(licenseApi.endpoints.systemLicenseList.initiate({ page: 1, size: 15, edited: true }, { subscribe: false }));
    await store.dispatch(licenseApi.endpoints.editLicenseLevel.initiate({ id: 7, level: 2 }));
    expect(calls).toEqual([
      { method: 'POST', path: '/api/license/list', query: { page: 1, size: 15 }, body: { copyleft: ['network'] } },
      { method: 'GET', path: '/api/license/MIT' },
      { method: 'POST', path: '/api/license/7/involvedSubjectsList', query: { page: 1, size: 15 } },
      { method: 'GET', path: '/api/license/system/list', query: { page: 1, size: 15, edited: true } },
      { method: 'POST', path: '/api/license/system/edit', body: { id: 7, level: 2 } },
    ]);
  });

  it('links the SPDX page of a licence', () => {
    expect(spdxPage('Apache-2.0')).toBe('https://spdx.org/licenses/Apache-2.0.html');
  });
});
