// poetry.lock, lock formats 1.x and 2.x: `[[package]]` with `[package.dependencies]` edges
// (string, table or list-of-tables constraints). Scope: the pyproject.toml beside the lock
// (main vs dev-dependencies / non-main groups) decides by reachability; without it, the lock's
// own `category` (1.x) or `groups` (2.1) does.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import {
  classifyScopes, component, indexByName, isTable, lockPackages, normalizePypiName, projectOf, readPyproject,
  resolveChild, str, TargetBuilder,
} from './common.ts';

/** The version a poetry dependency constraint pins exactly, to pick among several locked versions. */
function constraintVersion(v: unknown): string | undefined {
  const spec = typeof v === 'string' ? v : isTable(v) ? str(v.version) : '';
  const m = /^\s*(?:==)?\s*(\d[\w.!+-]*)\s*$/.exec(spec);
  return m?.[1];
}

export const poetry: Extractor = {
  name: 'poetry',
  ecosystem: 'pypi',
  reads: ['poetry.lock'],
  matches: (p) => path.posix.basename(p) === 'poetry.lock',
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    const text = await file.text();
    const builder = new TargetBuilder();
    const entries: Array<{ c: Component; raw: Record<string, unknown> }> = [];
    for (const { raw, name, span } of lockPackages(text, file.path, 'poetry.lock', builder.problems).packages) {
      const version = str(raw.version);
      const groups = Array.isArray(raw.groups) ? raw.groups.map(String) : undefined;
      const dev = raw.category === 'dev' || (groups !== undefined && groups.length > 0 && !groups.includes('main'));
      const c = builder.add(component({ name, version, scope: dev ? 'development' : 'runtime', location: { file: file.path, ...span } }));
      entries.push({ c, raw });
    }
    const byName = indexByName(builder.components);
    for (const { c, raw } of entries) {
      if (!isTable(raw.dependencies)) continue;
      const deps: string[] = [];
      for (const [dep, spec] of Object.entries(raw.dependencies)) {
        const specs = Array.isArray(spec) ? spec : [spec];
        const versions = specs.map(constraintVersion);
        const found = resolveChild(byName, dep, versions.length === 1 ? versions[0] : undefined);
        for (const child of found) deps.push(child.purl);
      }
      c.dependsOn = [...new Set([...c.dependsOn, ...deps])];
    }

    const declared = await readPyproject(ctx, file.path);
    let roots: string[] = [];
    let project: Target['project'] = null;
    if (declared) {
      const main: string[] = [];
      const dev: string[] = [];
      for (const c of builder.components) {
        const key = normalizePypiName(c.name);
        if (declared.main.has(key)) { c.direct = true; main.push(c.purl); }
        if (declared.dev.has(key)) { c.direct = true; dev.push(c.purl); }
      }
      classifyScopes(builder.components, main, dev);
      roots = [...new Set([...main, ...dev])];
      if (declared.name) project = projectOf(declared.name, declared.version);
    }
    return [builder.target(file.path, 'poetry', project, roots)];
  },
};
