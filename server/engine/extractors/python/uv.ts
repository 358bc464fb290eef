// uv.lock: `[[package]]` with `dependencies`, `optional-dependencies` and `dev-dependencies`
// (dependency groups) edges. The project itself is the package whose source is the lock's own
// folder (`virtual = "."` or `editable = "."`); its dependencies are the roots, and what only its
// dev dependencies reach is development scope. Other workspace members stay components; in a
// virtual workspace (no package at ".") the `[manifest] members` are the roots.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import {
  classifyScopes, component, indexByName, isTable, lockPackages, projectOf, resolveChild, str, tables, TargetBuilder,
} from './common.ts';

type Raw = Record<string, unknown>;

const isRootSource = (source: unknown) => isTable(source) && (source.virtual === '.' || source.editable === '.');

function depsOf(value: unknown): Raw[] {
  if (Array.isArray(value)) return tables(value);
  if (isTable(value)) return Object.values(value).flatMap((list) => tables(list));
  return [];
}

export const uv: Extractor = {
  name: 'uv',
  ecosystem: 'pypi',
  reads: ['uv.lock'],
  matches: (p) => path.posix.basename(p) === 'uv.lock',
  async extract(file: InputFile, _ctx: ExtractContext): Promise<Target[]> {
    const text = await file.text();
    const builder = new TargetBuilder();
    const { doc, packages } = lockPackages(text, file.path, 'uv.lock', builder.problems);
    const entries: Array<{ c: Component; raw: Raw }> = [];
    let root: { c: Component; raw: Raw } | undefined;
    for (const { raw, name, span } of packages) {
      const c = component({ name, version: str(raw.version), location: { file: file.path, ...span } });
      if (!root && isRootSource(raw.source)) root = { c, raw };
      else entries.push({ c: builder.add(c), raw });
    }
    const all = root ? [...builder.components, root.c] : builder.components;
    const byName = indexByName(all);
    const edges = (list: Raw[]) => list.flatMap((d) => resolveChild(byName, str(d.name), str(d.version) || undefined).map((x) => x.purl));
    for (const { c, raw } of entries) {
      c.dependsOn = [...new Set([...c.dependsOn, ...edges(depsOf(raw.dependencies)), ...edges(depsOf(raw['optional-dependencies'])), ...edges(depsOf(raw['dev-dependencies']))])];
    }
    if (!root) {
      // A virtual workspace root is not a package: its members (`[manifest] members`) are the roots.
      const manifest = isTable(doc.manifest) ? doc.manifest : {};
      const memberNames = Array.isArray(manifest.members) ? manifest.members.map((m) => ({ name: String(m) })) : [];
      const roots = edges(memberNames);
      for (const p of roots) builder.byPurl.get(p)!.direct = true;
      return [builder.target(file.path, 'uv', null, roots)];
    }

    const rootPurl = root.c.purl;
    const main = edges([...depsOf(root.raw.dependencies), ...depsOf(root.raw['optional-dependencies'])]).filter((p) => p !== rootPurl);
    const dev = edges(depsOf(root.raw['dev-dependencies'])).filter((p) => p !== rootPurl);
    for (const p of [...main, ...dev]) {
      const c = builder.byPurl.get(p);
      if (c) c.direct = true;
    }
    // Workspace members and what they pull in belong to the runtime of the workspace.
    const members = entries.filter((e) => isTable(e.raw.source) && (e.raw.source.editable !== undefined || e.raw.source.virtual !== undefined)).map((e) => e.c.purl);
    classifyScopes(builder.components, [...main, ...members], dev);
    return [builder.target(file.path, 'uv', projectOf(root.c.name, root.c.version), [...new Set([...main, ...dev])])];
  },
};
