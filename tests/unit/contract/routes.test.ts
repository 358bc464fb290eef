import { describe, expect, it } from 'vitest';
import { specRoutes } from '../../../contract/spec/routes.ts';
import { PERMISSIONS } from '../../../contract/permissions.ts';
import {
  DESKTOP_ROUTES,
  MENU,
  REMIND_MENU,
  ROUTES,
  ROUTE_PERMISSIONS,
  ROUTE_TITLES,
  USER_MENU,
  menuPaths,
  permissionOf,
  routeInfo,
  routeTitle,
  visibleMenu,
  type MenuItem,
} from '../../../contract/routes.ts';

const HAN = /[\u4e00-\u9fff]/;
const holding = (...codes: string[]) => (code: string) => codes.includes(code);

describe('route table', () => {
  it('gives every spec route a Chinese title', () => {
    expect(specRoutes).toHaveLength(126);
    for (const r of specRoutes) {
      const info = routeInfo(r.path);
      expect(info, r.path).toBeDefined();
      expect(info!.title, r.path).toMatch(HAN);
    }
  });

  it('has no title for a route the spec does not have', () => {
    const paths = new Set(specRoutes.map((r) => r.path));
    for (const p of Object.keys(ROUTE_TITLES)) expect(paths.has(p), p).toBe(true);
  });

  it('adds the desktop-only screens', () => {
    expect(ROUTES).toHaveLength(specRoutes.length + DESKTOP_ROUTES.length);
    expect(routeInfo('/desktop/profiles')).toMatchObject({ title: '服务器配置', desktopOnly: true });
    expect(routeInfo('/desktop/personal')).toMatchObject({ title: '个人设置', desktopOnly: true });
    // Screens the spec implies without naming a route (the comparison) sit in their area.
    expect(routeInfo('/project/analysis/compare')).toMatchObject({ title: '任务对比', desktopOnly: true, permission: 'analysis:task:list' });
    expect(routeInfo('/project/repositorySource')).toMatchObject({ title: '代码仓库源', desktopOnly: true, permission: 'project:list' });
    const spec = new Set(specRoutes.map((r) => r.path));
    expect(ROUTES.filter((r) => r.desktopOnly).every((r) => !spec.has(r.path))).toBe(true);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('uses the expected titles', () => {
    expect(routeTitle('/project/projectList')).toBe('项目列表');
    expect(routeTitle('/project/taskList')).toBe('任务列表');
    expect(routeTitle('/project/analysis/details')).toBe('任务详情');
    expect(routeTitle('/subassembly/componentList')).toBe('组件列表');
    expect(routeTitle('/nowhere')).toBe('');
  });

  it('ignores query, hash marks and trailing slashes when looking up', () => {
    expect(routeInfo('/project/projectList?product=2')?.path).toBe('/project/projectList');
    expect(routeInfo('#/project/analysis/details')?.path).toBe('/project/analysis/details');
    expect(routeInfo('/bug/bugList/')?.path).toBe('/bug/bugList');
    expect(routeInfo('/nowhere')).toBeUndefined();
  });

  it('labels every tab in Chinese, with the task details tabs as specified', () => {
    for (const r of ROUTES) for (const t of r.tabs) expect(t.label, `${r.path}#${t.key}`).toMatch(HAN);
    const details = routeInfo('/project/analysis/details')!;
    const labels = Object.fromEntries(details.tabs.map((t) => [t.key, t.label]));
    expect(labels).toEqual({
      overview: '概览',
      component: '组件',
      source: '文件树',
      bug: '漏洞',
      bugInfo: '漏洞',
      license: '许可证',
      sensitiveInfo: '敏感信息',
      historyComponent: '历史组件',
      codeSnippetComponent: '代码片段',
    });
    expect(details.tabs.find((t) => t.key === 'bugInfo')?.aliasOf).toBe('bug');
    expect(routeInfo('/privateService/component/details')!.tabs.find((t) => t.key === 'bugInfo')).toEqual({ key: 'bugInfo', label: '漏洞信息' });
  });

  it('gates screens with known codes, inherited by child screens', () => {
    const paths = specRoutes.map((r) => r.path);
    for (const [p, code] of Object.entries(ROUTE_PERMISSIONS)) {
      expect(paths.some((q) => q === p || q.startsWith(`${p}/`)), p).toBe(true);
      if (code) expect(Object.keys(PERMISSIONS)).toContain(code);
    }
    expect(permissionOf('/bug/bugList/details')).toBe('vul');
    expect(permissionOf('/project/analysis/details')).toBe('analysis:task:list');
    expect(permissionOf('/system/log/scan')).toBe('setup:log');
    expect(permissionOf('/system/log/system')).toBe('setup:log:system');
    expect(permissionOf('/system/strategy/controlStrategy/details/addRule')).toBe('setup:strategy:list');
    expect(permissionOf('/remind')).toBe('risk:vul:list');
    expect(permissionOf('/remind/control')).toBeUndefined();
    expect(permissionOf('/knowledge')).toBeUndefined();
    expect(routeInfo('/project/projectList')?.permission).toBe('project:list');
    expect(routeInfo('/login')?.public).toBe(true);
    expect(routeInfo('/project/projectList')?.public).toBeUndefined();
  });
});

describe('menu', () => {
  const allItems = (menu: readonly MenuItem[]): MenuItem[] => menu.flatMap((m) => [m, ...(m.children ? allItems(m.children) : [])]);

  it('has the top-level groups in Chinese', () => {
    expect(MENU.map((m) => m.title)).toEqual(['首页', '项目', '组件', '漏洞', '许可证', '知识库', '统计', '私服安全', '克隆检测', '系统管理']);
  });

  it('points every entry at a known route, with unique keys', () => {
    for (const menu of [MENU, USER_MENU, REMIND_MENU]) {
      for (const p of menuPaths(menu)) expect(routeInfo(p), p).toBeDefined();
      for (const item of allItems(menu)) {
        expect(item.title, item.key).toMatch(HAN);
        if (item.permission) expect(Object.keys(PERMISSIONS)).toContain(item.permission);
        expect(item.path || item.children?.length, item.key).toBeTruthy();
      }
    }
    const keys = allItems(MENU).map((m) => m.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('takes an entry\'s permission from its route', () => {
    for (const item of allItems(MENU)) if (item.path && !item.children) expect(item.permission, item.key).toBe(routeInfo(item.path)?.permission);
  });

  it('filters by permission and product', () => {
    expect(visibleMenu(MENU, () => false, 1).map((m) => m.key)).toEqual(['knowledge', 'cloneDetection']);
    expect(visibleMenu(MENU, () => false, 3).map((m) => m.key)).toEqual(['knowledge']);
    expect(visibleMenu(MENU, () => true, 3).map((m) => m.key)).toEqual(['knowledge', 'privateService', 'system']);
    expect(visibleMenu(MENU, () => true, 2).map((m) => m.key)).toEqual(['home', 'project', 'subassembly', 'bug', 'license', 'knowledge', 'statistics', 'cloneDetection', 'system']);
    const project = visibleMenu(MENU, holding('report:list'), 1).find((m) => m.key === 'project')!;
    expect(project.path).toBe('/project/report');
    expect(menuPaths([project])).toEqual(['/project/report']);
    const system = visibleMenu(MENU, holding('setup:log:op'), 1).find((m) => m.key === 'system')!;
    expect(menuPaths([system])).toEqual(['/system/log/operation']);
    expect(system.path).toBe('/system/log/operation');
  });
});
