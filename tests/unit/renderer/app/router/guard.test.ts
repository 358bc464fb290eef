// The router's guard wiring (spec doc 1 §2): login, forced password change, key/token
// passthrough, the home redirect for '/' and '/home', batch selections, and the route tree.
import { describe, expect, it } from 'vitest';
import { clearsBatchSelections, decideRoute, homeOf, passthroughToken } from '../../../../../renderer/app/router/guard.ts';
import { BARE_PATHS, buildRouteTree, descendantScreens, treePaths } from '../../../../../renderer/app/router/routeTable.ts';
import type { SessionState } from '../../../../../renderer/app/sessionSlice.ts';
import { specRoutes } from '../../../../../contract/spec/routes.ts';
import { ROUTES } from '../../../../../contract/routes.ts';
import type { Product } from '../../../../../contract/enums.ts';
import { fakeUser } from '../../support.ts';

type S = Pick<SessionState, 'status' | 'user' | 'product'>;
const anonymous: S = { status: 'anonymous', user: null, product: 1 };
const signedIn = (codes: string[], product: Product = 1, updatedPwd = true): S => ({
  status: 'authenticated',
  user: fakeUser({ permissionPOS: codes.map((code) => ({ code })), updatedPwd }),
  product,
});
const at = (pathname: string, search = '') => ({ pathname, search });

describe('decideRoute', () => {
  it('waits while the start-up session check is pending', () => {
    expect(decideRoute(at('/project/taskList'), { status: 'unknown', user: null, product: 1 })).toEqual({ kind: 'wait' });
  });

  it('sends visitors without a session to /login', () => {
    for (const p of ['/', '/home', '/home/result', '/project/taskList', '/system/user/user', '/desktop/personal', '/changePassword']) {
      expect(decideRoute(at(p), anonymous), p).toEqual({ kind: 'redirect', to: '/login' });
    }
  });

  it('lets visitors without a session reach login, logout, token login, the licence screen and the server profiles', () => {
    for (const p of ['/login', '/logout', '/handleLogin', '/admin/manage-lic', '/desktop/profiles']) {
      expect(decideRoute(at(p), anonymous), p).toEqual({ kind: 'allow' });
    }
  });

  it('passes key/token visits to the passthrough screens without login', () => {
    expect(decideRoute(at('/project/analysis/details', '?key=abc&id=3'), anonymous)).toEqual({ kind: 'allow' });
    expect(decideRoute(at('/bug/bugList/details', '?token=t1'), anonymous)).toEqual({ kind: 'allow' });
    expect(decideRoute(at('/project/analysis/details', '?key='), anonymous)).toEqual({ kind: 'redirect', to: '/login' });
    expect(decideRoute(at('/project/taskList', '?key=abc'), anonymous)).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('with the password-updated flag false only /login and /changePassword are reachable', () => {
    const s = signedIn(['project:list'], 1, false);
    expect(decideRoute(at('/changePassword'), s)).toEqual({ kind: 'allow' });
    expect(decideRoute(at('/login'), s)).toEqual({ kind: 'allow' });
    for (const p of ['/', '/home', '/project/projectList', '/desktop/personal', '/desktop/profiles']) {
      expect(decideRoute(at(p), s), p).toEqual({ kind: 'redirect', to: '/changePassword' });
    }
  });

  it("'/' and '/home' go to the home redirect: the first permission held wins, per product", () => {
    expect(decideRoute(at('/'), signedIn(['project:list', 'project-summary']))).toEqual({ kind: 'redirect', to: '/project/projectList?product=1' });
    expect(decideRoute(at('/home'), signedIn(['project:list'], 2))).toEqual({ kind: 'redirect', to: '/project/projectList?product=2' });
    expect(decideRoute(at('/'), signedIn(['report:list', 'vul']))).toEqual({ kind: 'redirect', to: '/project/report' });
    expect(decideRoute(at('/'), signedIn(['project:list', 'repository-security:manager'], 3))).toEqual({ kind: 'redirect', to: '/privateService/warehouse' });
    expect(decideRoute(at('/'), signedIn([]))).toEqual({ kind: 'redirect', to: '/knowledge' });
    expect(decideRoute(at('/home/result'), signedIn(['project-summary']))).toEqual({ kind: 'allow' });
  });

  it('homeOf follows the product selector', () => {
    const codes = ['project:list', 'repository-security:manager'];
    expect(homeOf({ ...signedIn(codes), product: 1 })).toBe('/project/projectList?product=1');
    expect(homeOf({ ...signedIn(codes), product: 3 })).toBe('/privateService/warehouse');
  });
});

describe('passthroughToken', () => {
  it('answers the key (or token) of a visit to a passthrough screen, never for /handleLogin', () => {
    expect(passthroughToken(at('/project/analysis/details', '?key=k%201'))).toBe('k 1');
    expect(passthroughToken(at('/project/report', '?token=abc'))).toBe('abc');
    expect(passthroughToken(at('/handleLogin', '?key=abc'))).toBeNull();
    expect(passthroughToken(at('/project/taskList', '?key=abc'))).toBeNull();
    expect(passthroughToken(at('/project/report'))).toBeNull();
  });
});

describe('clearsBatchSelections', () => {
  it('is true when leaving a batch-reanalysis screen, not when moving between them or arriving', () => {
    expect(clearsBatchSelections('/project/taskList/batchReanalysis', '/project/taskList')).toBe(true);
    expect(clearsBatchSelections('/project/analysis/batchReanalysis', '/home/result')).toBe(true);
    expect(clearsBatchSelections('/project/taskList/batchReanalysis', '/project/analysis/batchReanalysis')).toBe(false);
    expect(clearsBatchSelections('/project/taskList', '/project/taskList/batchReanalysis')).toBe(false);
    expect(clearsBatchSelections(null, '/project/taskList')).toBe(false);
  });
});

describe('the route tree', () => {
  const tree = buildRouteTree();
  const paths = treePaths(tree);

  it('registers every spec route and every desktop screen exactly once', () => {
    expect(paths.length).toBe(ROUTES.length);
    expect(new Set(paths).size).toBe(paths.length);
    for (const r of specRoutes) expect(paths, r.path).toContain(r.path);
    expect(paths).toContain('/desktop/profiles');
    expect(paths).toContain('/desktop/personal');
    expect(paths).toContain('/project/repositorySource');
  });

  it('nests every route under its nearest parent route', () => {
    const find = (p: string) => {
      const walk = (nodes: typeof tree): (typeof tree)[number] | undefined => {
        for (const n of nodes) {
          if (n.info.path === p) return n;
          const hit = walk(n.children);
          if (hit) return hit;
        }
        return undefined;
      };
      return walk(tree)!;
    };
    expect(find('/home').children.map((c) => c.info.path)).toEqual(['/home/result']);
    expect(find('/project').children.map((c) => c.info.path)).toContain('/project/analysis/details');
    expect(find('/project/projectSettings').children.map((c) => c.info.path)).toContain('/project/projectSettings/basicSetup');
    expect(find('/subassembly/whiteList').children.map((c) => c.info.path)).toContain('/subassembly/whiteList/list/histtoryVersion');
    // no top-level entry lies below a parent route
    for (const node of tree) expect(ROUTES.some((p) => p.parent && node.info.path.startsWith(`${p.path}/`)), node.info.path).toBe(false);
    expect(descendantScreens(find('/project')).some((n) => n.info.parent)).toBe(false);
  });

  it('draws login, logout and token login without the shell; every other route inside it', () => {
    expect([...BARE_PATHS].sort()).toEqual(['/handleLogin', '/login', '/logout']);
    for (const p of BARE_PATHS) expect(tree.map((n) => n.info.path)).toContain(p);
  });

  it('marks the built screens', () => {
    const built = paths.filter((p) => {
      const walk = (nodes: typeof tree): boolean => nodes.some((n) => (n.info.path === p && n.built) || walk(n.children));
      return walk(tree);
    });
    expect(built.sort()).toEqual([
      '/bug/bugKanban',
      '/bug/bugList',
      '/bug/bugList/details',
      '/changePassword',
      '/desktop/library',
      '/desktop/personal',
      '/desktop/profiles',
      '/desktop/review',
      '/handleLogin',
      '/home/result',
      '/knowledge/bug/details',
      '/license',
      '/license/details',
      '/login',
      '/logout',
      '/project/analysis',
      '/project/analysis/batchLaunch',
      '/project/analysis/batchReanalysis',
      '/project/analysis/compare',
      '/project/analysis/details',
      '/project/analysis/launch',
      '/project/import',
      '/project/newProject',
      '/project/projectList',
      '/project/projectSettings/basicSetup',
      '/project/projectSettings/dataTransfer',
      '/project/projectSettings/defectManagement',
      '/project/projectSettings/memberManagement',
      '/project/projectSettings/noticeSetup',
      '/project/projectSettings/projectPrivateServiceConf',
      '/project/projectSettings/version',
      '/project/report',
      '/project/repositorySource',
      '/project/statistics',
      '/project/taskList',
      '/project/taskList/batchReanalysis',
      '/system/accountIntegration/ldap',
      '/system/group',
      '/system/group/details',
      '/system/knowledgeBase/protocol',
      '/system/knowledgeBase/vul',
      '/system/knowledgeBase/vul/batch',
      '/system/log/openApi',
      '/system/projectType',
      '/system/securityControl',
      '/system/sensitive',
      '/system/systemSettings/scanConfig',
      '/system/user/import',
      '/system/user/record',
      '/system/user/role',
      '/system/user/user',
      '/tokenManagement',
    ]);
  });
});
