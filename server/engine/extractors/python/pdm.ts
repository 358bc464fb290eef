// pdm.lock: `[[package]]` with PEP 508 `dependencies` strings (edges) and `groups` (newer) or
// `sections` (older): a package outside the `default` group is development scope. Entries that
// differ only by `extras` are the same package and merge. Direct dependencies come from the
// pyproject.toml beside the lock; without it, packages nothing else depends on are the roots.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import {
  classifyScopes, component, indexByName, lockPackages, normalizePypiName, parseRequirementHead, pinnedVersion,
  projectOf, readPyproject, resolveChild, str, TargetBuilder,
} from './common.ts';

export const pdm: Extractor = {
  name: 'pdm',
  ecosystem: 'pypi',
  reads: ['pdm.lock'],
  matches: (p) => path.posix.basename(p) === 'pdm.lock',
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    const text = await file.text();
    const builder = new TargetBuilder();
    const entries: Array<{ c: Component; deps: unknown }> = [];
    for (const { raw, name, span } of lockPackages(text, file.path, 'pdm.lock', builder.problems).packages) {
      const groupsRaw = Array.isArray(raw.groups) ? raw.groups : Array.isArray(raw.sections) ? raw.sections : undefined;
      const groups = groupsRaw?.map(String);
      const dev = groups !== undefined && groups.length > 0 && !groups.includes('default');
      const c = builder.add(component({ name, version: str(raw.version), scope: dev ? 'development' : 'runtime', location: { file: file.path, ...span } }));
      entries.push({ c, deps: raw.dependencies });
    }
    const byName = indexByName(builder.components);
    const depended = new Set<string>();
    for (const { c, deps } of entries) {
      if (!Array.isArray(deps)) continue;
      const children: string[] = [];
      for (const spec of deps) {
        const head = typeof spec === 'string' ? parseRequirementHead(spec) : undefined;
        if (!head) continue;
        const version = pinnedVersion(head.rest.split(';')[0]) || undefined;
        for (const child of resolveChild(byName, head.name, version)) if (child.purl !== c.purl) children.push(child.purl);
      }
      for (const p of children) depended.add(p);
      c.dependsOn = [...new Set([...c.dependsOn, ...children])];
    }

    const declared = await readPyproject(ctx, file.path);
    let project: Target['project'] = null;
    let roots: string[];
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
    } else {
      roots = builder.components.filter((c) => !depended.has(c.purl)).map((c) => c.purl);
      for (const p of roots) builder.byPurl.get(p)!.direct = true;
    }
    return [builder.target(file.path, 'pdm', project, roots)];
  },
};
