// `cairn routes` lists every spec route and the desktop-only screens with tabs and built flags.
import { describe, expect, it } from 'vitest';
import { routesCommand, type RouteRow } from '../../../cli/commands/routes.ts';
import { specRoutes } from '../../../contract/spec/routes.ts';
import { builtScreens } from '../../../renderer/app/router/screens.ts';

describe('routesCommand', () => {
  const rows = JSON.parse(routesCommand()) as RouteRow[];

  it('is a JSON array of { path, tabs, built }', () => {
    expect(Array.isArray(rows)).toBe(true);
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(['built', 'path', 'tabs']);
      expect(typeof r.path).toBe('string');
      expect(Array.isArray(r.tabs)).toBe(true);
      expect(typeof r.built).toBe('boolean');
    }
  });

  it('holds every spec route once, with its tabs', () => {
    expect(specRoutes.length).toBe(126);
    const byPath = new Map(rows.map((r) => [r.path, r]));
    expect(byPath.size).toBe(rows.length);
    for (const s of specRoutes) {
      expect(byPath.get(s.path), s.path).toBeDefined();
      expect(byPath.get(s.path)!.tabs).toEqual(s.tabs);
    }
  });

  it('adds the desktop-only screens', () => {
    const paths = rows.map((r) => r.path);
    expect(paths).toContain('/desktop/profiles');
    expect(paths).toContain('/desktop/personal');
    expect(paths).toContain('/project/analysis/compare');
    expect(paths).toContain('/project/repositorySource');
    expect(paths).toContain('/desktop/library');
    expect(paths).toContain('/desktop/review');
    expect(rows.length).toBe(specRoutes.length + 6);
  });

  it('marks exactly the screens the renderer has built', () => {
    expect(rows.filter((r) => r.built).map((r) => r.path).sort()).toEqual(Object.keys(builtScreens).sort());
    for (const path of Object.keys(builtScreens)) expect(rows.map((r) => r.path)).toContain(path);
  });
});
