import { describe, expect, it } from 'vitest';
import {
  BATCH_REANALYSIS_ROUTES,
  CLICK_GUARD_MS,
  HOME_REDIRECT_ORDER,
  KEY_PASSTHROUGH_ROUTES,
  PAGE_SIZE,
  PRIVATE_SERVICE_REDIRECT_ORDER,
  REMINDER_POLL_MS,
  guardDecision,
  homeRedirect,
  leavesBatchReanalysis,
  parseQuery,
  shouldPollReminders,
  slicePage,
  subjectListRedirect,
} from '../../../contract/navigation.ts';
import { permissionOf, routeInfo } from '../../../contract/routes.ts';
import { ALL_PERMISSION_CODES } from '../../../contract/permissions.ts';

const holding = (...codes: string[]) => (code: string) => codes.includes(code);
const all = () => true;
const none = () => false;

describe('home redirect', () => {
  it('sends products 1 and 2 with project:list to the project list with ?product=', () => {
    expect(homeRedirect(1, holding('project:list'))).toBe('/project/projectList?product=1');
    expect(homeRedirect(2, holding('project:list', 'report:list'))).toBe('/project/projectList?product=2');
    expect(homeRedirect(1, all)).toBe('/project/projectList?product=1');
  });

  it('otherwise takes the first held target in the spec order', () => {
    expect(HOME_REDIRECT_ORDER.map((t) => t.path)).toEqual([
      '/home/result', '/project/taskList', '/project/report', '/subassembly/componentList', '/subassembly/offlineList',
      '/subassembly/knowledge', '/subassembly/privateComponent', '/bug/bugKanban', '/license', '/statistics',
    ]);
    expect(homeRedirect(1, holding('report:list'))).toBe('/project/report');
    expect(homeRedirect(1, holding('report:list', 'analysis:task:list'))).toBe('/project/taskList');
    expect(homeRedirect(2, holding('vul', 'project-summary'))).toBe('/home/result');
    expect(homeRedirect(1, holding('vul', 'stastistic-system:see'))).toBe('/bug/bugKanban');
    expect(homeRedirect(1, holding('statistic-project:license:list'))).toBe('/license');
    expect(homeRedirect(1, holding('stastistic-system:see'))).toBe('/statistics');
  });

  it('honours the whole order: each target wins over everything after it', () => {
    for (let i = 0; i < HOME_REDIRECT_ORDER.length; i += 1) {
      const codes = HOME_REDIRECT_ORDER.slice(i).map((t) => t.permission);
      const expected = HOME_REDIRECT_ORDER.find((t) => codes.includes(t.permission))!.path;
      expect(homeRedirect(1, holding(...codes))).toBe(expected);
      // offlineList shares the component code, so it is reached through componentList
      if (HOME_REDIRECT_ORDER[i]!.path !== '/subassembly/offlineList') expect(expected).toBe(HOME_REDIRECT_ORDER[i]!.path);
    }
  });

  it('sends product 3 to the private service screens', () => {
    expect(homeRedirect(3, holding('repository-security:manager'))).toBe('/privateService/warehouse');
    expect(homeRedirect(3, holding('project:list', 'vul'))).toBe('/knowledge');
    expect(PRIVATE_SERVICE_REDIRECT_ORDER.map((t) => t.path)).toEqual([
      '/privateService/warehouse', '/privateService/component', '/privateService/statistics', '/privateService/intercept',
    ]);
  });

  it('falls back to /knowledge', () => {
    expect(homeRedirect(1, none)).toBe('/knowledge');
    expect(homeRedirect(2, holding('repository-security:manager'))).toBe('/knowledge');
  });

  it('gates each target with a known code that matches the route table', () => {
    for (const t of [...HOME_REDIRECT_ORDER, ...PRIVATE_SERVICE_REDIRECT_ORDER]) {
      expect(routeInfo(t.path), t.path).toBeDefined();
      expect(ALL_PERMISSION_CODES).toContain(t.permission);
      expect(permissionOf(t.path), t.path).toBe(t.permission);
    }
  });
});

describe('subject list redirect', () => {
  it('goes to projectList, then taskList, then report', () => {
    expect(subjectListRedirect(all)).toBe('/project/projectList');
    expect(subjectListRedirect(holding('report:list', 'analysis:task:list'))).toBe('/project/taskList');
    expect(subjectListRedirect(holding('report:list'))).toBe('/project/report');
    expect(subjectListRedirect(none)).toBeNull();
  });
});

describe('route guard', () => {
  it('sends an unauthenticated visitor to login', () => {
    expect(guardDecision({ path: '/project/projectList', authenticated: false, updatedPwd: true })).toEqual({ redirect: '/login' });
    expect(guardDecision({ path: '/changePassword', authenticated: false, updatedPwd: false })).toEqual({ redirect: '/login' });
    expect(guardDecision({ path: '/login', authenticated: false, updatedPwd: false })).toEqual({ allow: true });
    expect(guardDecision({ path: '/handleLogin', authenticated: false, updatedPwd: false })).toEqual({ allow: true });
    expect(guardDecision({ path: '/desktop/profiles', authenticated: false, updatedPwd: false })).toEqual({ allow: true });
    expect(guardDecision({ path: '/desktop/personal', authenticated: false, updatedPwd: false })).toEqual({ redirect: '/login' });
  });

  it('allows only login and changePassword while the password is not updated', () => {
    expect(guardDecision({ path: '/project/taskList', authenticated: true, updatedPwd: false })).toEqual({ redirect: '/changePassword' });
    expect(guardDecision({ path: '/home/result', authenticated: true, updatedPwd: false })).toEqual({ redirect: '/changePassword' });
    expect(guardDecision({ path: '/changePassword', authenticated: true, updatedPwd: false })).toEqual({ allow: true });
    expect(guardDecision({ path: '/login', authenticated: true, updatedPwd: false })).toEqual({ allow: true });
  });

  it('allows everything to a signed-in user with an updated password', () => {
    expect(guardDecision({ path: '/project/taskList', authenticated: true, updatedPwd: true })).toEqual({ allow: true });
    expect(guardDecision({ path: '/system/user/user?x=1', authenticated: true, updatedPwd: true })).toEqual({ allow: true });
  });

  it('passes key or token visits to the passthrough routes only', () => {
    expect(KEY_PASSTHROUGH_ROUTES).toContain('/project/analysis/details');
    for (const path of KEY_PASSTHROUGH_ROUTES) expect(routeInfo(path), path).toBeDefined();
    expect(guardDecision({ path: '/project/analysis/details', authenticated: false, updatedPwd: false, query: { key: 'abc' } })).toEqual({ allow: true });
    expect(guardDecision({ path: '/project/analysis/details?token=t1', authenticated: false, updatedPwd: false })).toEqual({ allow: true });
    expect(guardDecision({ path: '/project/analysis/details', authenticated: false, updatedPwd: false, query: { key: '' } })).toEqual({ redirect: '/login' });
    expect(guardDecision({ path: '/project/analysis/details', authenticated: false, updatedPwd: false })).toEqual({ redirect: '/login' });
    expect(guardDecision({ path: '/system/user/user', authenticated: false, updatedPwd: false, query: { key: 'abc' } })).toEqual({ redirect: '/login' });
  });

  it('parses query strings', () => {
    expect(parseQuery('/a?key=x%20y&b=1&b=2&flag')).toEqual({ key: 'x y', b: '1', flag: '' });
    expect(parseQuery('/a')).toEqual({});
  });
});

describe('reminder polling', () => {
  it('polls with risk:vul:list except on login and remind screens', () => {
    const has = holding('risk:vul:list');
    expect(shouldPollReminders('/project/projectList', has)).toBe(true);
    expect(shouldPollReminders('/login', has)).toBe(false);
    expect(shouldPollReminders('/remind', has)).toBe(false);
    expect(shouldPollReminders('/remind/control', has)).toBe(false);
    expect(shouldPollReminders('/reminder', has)).toBe(true);
    expect(shouldPollReminders('/project/projectList', none)).toBe(false);
  });
  it('uses the spec constants', () => {
    expect(REMINDER_POLL_MS).toBe(60000);
    expect(CLICK_GUARD_MS).toBe(2000);
    expect(PAGE_SIZE).toEqual({ statistics: 10, componentLibrary: 15, impactList: 15, addMember: 10 });
  });
});

describe('batch reanalysis', () => {
  it('clears selections only when leaving both batch screens', () => {
    expect([...BATCH_REANALYSIS_ROUTES]).toEqual(['/project/taskList/batchReanalysis', '/project/analysis/batchReanalysis']);
    expect(leavesBatchReanalysis('/project/taskList/batchReanalysis', '/project/taskList')).toBe(true);
    expect(leavesBatchReanalysis('/project/analysis/batchReanalysis', '/home/result')).toBe(true);
    expect(leavesBatchReanalysis('/project/taskList/batchReanalysis', '/project/analysis/batchReanalysis')).toBe(false);
    expect(leavesBatchReanalysis('/project/taskList', '/project/report')).toBe(false);
  });
});

describe('client-side paging', () => {
  it('slices by page and size', () => {
    const rows = Array.from({ length: 32 }, (_, i) => i);
    expect(slicePage(rows, 1, 15)).toEqual(rows.slice(0, 15));
    expect(slicePage(rows, 3, 15)).toEqual([30, 31]);
    expect(slicePage(rows, 4, 15)).toEqual([]);
    expect(slicePage(rows, 0, 10)).toEqual(rows.slice(0, 10));
  });
});
