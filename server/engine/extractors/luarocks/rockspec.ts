// LuaRocks rockspecs (`<name>-<version>-<revision>.rockspec`, a Lua file): the rock's `package`
// and `version` and its `dependencies` (`"lualogging >= 1.4.0, < 2.0.0"`, a bare version pinning
// it), `build_dependencies` and `test_dependencies` (build and test tooling). `lua` itself is the
// interpreter the rock runs on, not a rock. A rockspec of a project is the project, its
// dependencies the direct components (exact when pinned with `==`, else with the constraint); a
// rockspec installed in a rocks tree (`lib/luarocks/rocks-5.x/<name>/<version>/`) is an installed
// rock, reported as one component with its licence. purl: pkg:luarocks/<name>@<version> (names
// lower-cased, as LuaRocks stores them).
import type { Component, Extractor, InputFile, Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { asString, evaluateLua, isTable, LuaSyntaxError, type LuaValue } from './lua-table.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** A rocks tree's installed rockspec: `.../rocks[-5.x]/<name>/<version>/<name>-<version>.rockspec`. */
const INSTALLED = /(?:^|\/)rocks(?:-\d+\.\d+)?\/[^/]+\/[^/]+\/[^/]+\.rockspec$/;

export const luarocksPurl = (name: string, version: string): string => purlOf('luarocks', { name: name.toLowerCase(), version });

/** `lualogging >= 1.4.0, < 2.0.0` → name and constraint; `lpeg == 1.0.2` or `lpeg 1.0.2` → an exact version. */
export function parseRockDependency(spec: string): { name: string; version: string; constraint?: string } | null {
  const m = /^\s*([A-Za-z0-9_.\-+]+)\s*(.*?)\s*$/.exec(spec);
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  const rest = m[2]!;
  if (!rest) return { name, version: '' };
  const exact = /^(?:==?\s*)?([0-9][^\s,<>=~]*)$/.exec(rest);
  if (exact) return { name, version: exact[1]! };
  return { name, version: '', constraint: rest.replace(/\s*,\s*/g, ', ') };
}

function stringsOf(value: LuaValue): string[] {
  return isTable(value) ? value.array.map(asString).filter((s): s is string => s !== undefined) : [];
}

/** Line of the first quoted occurrence of `text` at or after `from` (1-based). */
function lineOf(lines: readonly string[], text: string, from: number): number | undefined {
  for (let i = Math.max(0, from - 1); i < lines.length; i++) {
    if (lines[i]!.includes(`"${text}"`) || lines[i]!.includes(`'${text}'`)) return i + 1;
  }
  return undefined;
}

export function parseRockspec(source: string, file: string): Target {
  let globals: Map<string, LuaValue>;
  let assigned: Map<string, number>;
  try {
    ({ globals, lines: assigned } = evaluateLua(source));
  } catch (error) {
    if (error instanceof LuaSyntaxError) throw new ExtractError(`无法解析 ${file}：${error.message}`);
    throw error;
  }
  const name = asString(globals.get('package'));
  const version = asString(globals.get('version')) ?? '';
  if (!name) throw new ExtractError(`${file} 缺少 package（rock 名称）`);
  const description = globals.get('description');
  const license = isTable(description) ? asString(description.fields.get('license')) : undefined;
  const purl = luarocksPurl(name, version);
  const target: Target = { file, type: 'rockspec', ecosystem: 'luarocks', project: { purl, name: name.toLowerCase(), version }, roots: [], components: [] };

  if (INSTALLED.test(file)) {
    target.project = null;
    target.components.push({
      purl, ecosystem: 'luarocks', name: name.toLowerCase(), version, direct: true, scope: 'runtime',
      locations: [{ file, startLine: assigned.get('package') }], licenses: license ? [license] : [], dependsOn: [],
    });
    target.roots = [purl];
    return target;
  }

  const lines = source.split('\n');
  const byPurl = new Map<string, Component>();
  const lists: Array<[string, Scope]> = [['dependencies', 'runtime'], ['build_dependencies', 'development'], ['test_dependencies', 'development']];
  for (const [key, scope] of lists) {
    const from = assigned.get(key) ?? 1;
    for (const spec of stringsOf(globals.get(key))) {
      const dep = parseRockDependency(spec);
      if (!dep || dep.name === 'lua') continue;
      const depPurl = luarocksPurl(dep.name, dep.version);
      const existing = byPurl.get(depPurl);
      if (existing) {
        if (scope === 'runtime') existing.scope = 'runtime';
        continue;
      }
      const line = lineOf(lines, spec, from);
      const component: Component = {
        purl: depPurl, ecosystem: 'luarocks', name: dep.name, version: dep.version, direct: true, scope,
        locations: [line ? { file, startLine: line, endLine: line } : { file }], licenses: [], dependsOn: [],
      };
      if (dep.constraint) component.constraint = dep.constraint;
      byPurl.set(depPurl, component);
    }
  }
  target.components = [...byPurl.values()];
  target.roots = target.components.map((c) => c.purl);
  return target;
}

export const rockspecExtractor: Extractor = {
  name: 'rockspec',
  ecosystem: 'luarocks',
  reads: ['*.rockspec'],
  matches: (p) => baseName(p).endsWith('.rockspec') && baseName(p) !== '.rockspec',
  async extract(file: InputFile) {
    return [parseRockspec(await file.text(), file.path)];
  },
};
