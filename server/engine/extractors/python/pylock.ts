// pylock.toml / pylock.<name>.toml (PEP 751): `[[packages]]` with `dependencies` edges (each
// naming a package, and its version when several are locked). A package whose `directory` is the
// lock's own folder is the project itself. A package whose `marker` only selects dependency
// groups outside `default-groups` is development scope. Direct dependencies: the project's, else
// the pyproject.toml beside the lock, else the packages nothing else depends on.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import {
  classifyScopes, component, indexByName, isTable, normalizePypiName, parseTomlFile, projectOf, readPyproject,
  resolveChild, str, TargetBuilder, tableBlocks, tables,
} from './common.ts';

type Raw = Record<string, unknown>;

export const isPylock = (p: string) => /^pylock(\.[^./]+)?\.toml$/.test(path.posix.basename(p));

function devByMarker(marker: string, defaults: Set<string>): boolean {
  const groups = [...marker.matchAll(/['"]([^'"]+)['"]\s+in\s+dependency_groups/g)].map((m) => m[1]);
  return groups.length > 0 && !groups.some((g) => defaults.has(g));
}

export const pylock: Extractor = {
  name: 'pylock',
  ecosystem: 'pypi',
  reads: ['pylock.toml'],
  matches: isPylock,
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    const text = await file.text();
    const doc = parseTomlFile(text, file.path, 'pylock.toml');
    if (doc.packages !== undefined && !Array.isArray(doc.packages)) throw new ExtractError(`pylock.toml 文件 ${file.path} 的 packages 不是表数组`);
    const all: unknown[] = Array.isArray(doc.packages) ? doc.packages : [];
    const blocks = tableBlocks(text, 'packages');
    const defaults = new Set(Array.isArray(doc['default-groups']) ? doc['default-groups'].map(String) : []);
    const builder = new TargetBuilder();
    const entries: Array<{ c: Component; raw: Raw }> = [];
    let root: { c: Component; raw: Raw } | undefined;
    all.forEach((raw, i) => {
      const span = blocks.length === all.length ? blocks[i] : undefined;
      const name = isTable(raw) ? str(raw.name) : '';
      if (!isTable(raw) || !name) {
        // An installer passes over a package it cannot name: so do we, and say where.
        builder.problems.push(`${file.path} ${span ? `第 ${span.startLine} 行` : `第 ${i + 1} 个 [[packages]]`}：[[packages]] 缺少 name，已跳过`);
        return;
      }
      const dev = devByMarker(str(raw.marker), defaults);
      const c = component({ name, version: str(raw.version), scope: dev ? 'development' : 'runtime', location: { file: file.path, ...span } });
      const dir = isTable(raw.directory) ? str(raw.directory.path) : '';
      if (!root && (dir === '.' || dir === './')) root = { c, raw };
      else entries.push({ c: builder.add(c), raw });
    });
    const byName = indexByName(root ? [...builder.components, root.c] : builder.components);
    const edges = (list: unknown) => tables(list).flatMap((d) => resolveChild(byName, str(d.name), str(d.version) || undefined).map((x) => x.purl));
    const depended = new Set<string>();
    for (const { c, raw } of entries) {
      const children = edges(raw.dependencies).filter((p) => p !== c.purl);
      for (const p of children) depended.add(p);
      c.dependsOn = [...new Set([...c.dependsOn, ...children])];
    }

    let project: Target['project'] = null;
    let roots: string[];
    if (root) {
      project = projectOf(root.c.name, root.c.version);
      roots = [...new Set(edges(root.raw.dependencies))].filter((p) => p !== root!.c.purl);
    } else {
      const declared = await readPyproject(ctx, file.path);
      if (declared && (declared.main.size || declared.dev.size)) {
        const main = builder.components.filter((c) => declared.main.has(normalizePypiName(c.name))).map((c) => c.purl);
        const dev = builder.components.filter((c) => declared.dev.has(normalizePypiName(c.name))).map((c) => c.purl);
        classifyScopes(builder.components, main, dev);
        roots = [...new Set([...main, ...dev])];
        if (declared.name) project = projectOf(declared.name, declared.version);
      } else {
        roots = builder.components.filter((c) => !depended.has(c.purl)).map((c) => c.purl);
      }
    }
    for (const p of roots) {
      const c = builder.byPurl.get(p);
      if (c) c.direct = true;
    }
    return [builder.target(file.path, 'pylock', project, roots)];
  },
};
