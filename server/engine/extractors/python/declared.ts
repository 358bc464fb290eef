// What a Python project declares when no lock sits beside it: a Pipfile without Pipfile.lock,
// a pyproject.toml without poetry.lock / uv.lock / pdm.lock / pylock.toml. Each declared
// dependency is a direct component with the version it pins (`==1.2.3`, Poetry's bare `1.2.3`),
// else version '' (未知版本) and the range it declares (`>=2.0,<3`, `^1.2`, `*`): never dropped.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Scope, Target } from '../../model.ts';
import { component, isTable, parseRequirementHead, parseTomlFile, pinnedVersion, projectOf, str, TargetBuilder } from './common.ts';
import type { TomlTable } from './common.ts';

const PYPROJECT_LOCKS = ['poetry.lock', 'uv.lock', 'pdm.lock', 'pylock.toml'];

/** Line of `name` (as a key or inside a string) after the line that opens `section`, 1-based. */
function lineFinder(text: string): (section: string, name: string) => number | undefined {
  const lines = text.split(/\r?\n/);
  return (section, name) => {
    const start = lines.findIndex((l) => l.trim().replace(/\s+/g, '') === `[${section}]` || l.trim().startsWith(`${section.split('.').pop()} =`) || l.trim().startsWith(`${section.split('.').pop()}=`));
    const re = new RegExp(`(^|["'\\s])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(["'\\s=\\[<>!~;]|$)`, 'i');
    const at = lines.findIndex((l, k) => k > Math.max(start, -1) && re.test(l));
    return at < 0 ? undefined : at + 1;
  };
}

/** Poetry / Pipfile constraint: `==1.2.3` or a bare `1.2.3` pins; anything else is a range. */
function pinOf(spec: string): string {
  const m = /^\s*(?:===?)?\s*(\d[\w.!+-]*)\s*$/.exec(spec);
  return m?.[1] ?? '';
}

interface Declaration { name: string; spec: string; scope: Scope; section: string; pinned: string }

function add(builder: TargetBuilder, file: string, line: ReturnType<typeof lineFinder>, d: Declaration): void {
  const c: Component = component({
    name: d.name,
    version: d.pinned,
    direct: true,
    scope: d.scope,
    location: { file, ...(() => { const l = line(d.section, d.name); return l ? { startLine: l, endLine: l } : {}; })() },
    ...(d.pinned ? {} : { constraint: d.spec.trim() || '*' }),
  });
  builder.add(c);
}

/** `name = "spec"` / `name = { version = "spec", ... }` tables of Pipfile and Poetry. */
function fromTable(table: unknown, scope: Scope, section: string, skip: (name: string, value: TomlTable | string) => boolean): Declaration[] {
  if (!isTable(table)) return [];
  const out: Declaration[] = [];
  for (const [name, value] of Object.entries(table)) {
    const spec = typeof value === 'string' ? value : isTable(value) ? str(value.version) : '';
    if ((typeof value === 'string' || isTable(value)) && skip(name, value)) continue;
    out.push({ name, spec, scope, section, pinned: pinOf(spec) });
  }
  return out;
}

/** Local, path and editable sources are the project's own code, not packages. */
const isOwnCode = (_name: string, value: TomlTable | string) => isTable(value) && (value.path !== undefined || value.editable === true && value.git === undefined);

/** PEP 508 strings (`requests>=2.31; python_version >= "3.8"`). */
function fromRequirements(list: unknown, scope: Scope, section: string): Declaration[] {
  if (!Array.isArray(list)) return [];
  const out: Declaration[] = [];
  for (const item of list) {
    if (typeof item !== 'string') continue; // `{ include-group = "..." }` of dependency groups
    const head = parseRequirementHead(item);
    if (!head) continue;
    let rest = head.rest.split(';')[0]!.trim();
    if (rest.startsWith('@')) continue; // a direct URL reference names no version range
    rest = rest.replace(/^\((.*)\)$/, '$1').replace(/\s+/g, '');
    out.push({ name: head.name, spec: rest, scope, section, pinned: pinnedVersion(rest) });
  }
  return out;
}

const dirOf = (p: string) => path.posix.dirname(p);
const sibling = (file: string, name: string) => (dirOf(file) === '.' ? name : `${dirOf(file)}/${name}`);

export const pipfile: Extractor = {
  name: 'pipfile',
  ecosystem: 'pypi',
  reads: ['Pipfile'],
  matches: (p) => path.posix.basename(p) === 'Pipfile',
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    // Pipfile.lock beside it names the exact versions (the pipenv extractor reads it).
    if (await ctx.exists(sibling(file.path, 'Pipfile.lock'))) return [];
    const text = await file.text();
    const doc = parseTomlFile(text, file.path, 'Pipfile');
    const line = lineFinder(text);
    const builder = new TargetBuilder();
    for (const d of [...fromTable(doc.packages, 'runtime', 'packages', isOwnCode), ...fromTable(doc['dev-packages'], 'development', 'dev-packages', isOwnCode)]) add(builder, file.path, line, d);
    return builder.components.length ? [builder.target(file.path, 'pipfile', null)] : [];
  },
};

export const pyproject: Extractor = {
  name: 'pyproject',
  ecosystem: 'pypi',
  reads: ['pyproject.toml'],
  matches: (p) => path.posix.basename(p) === 'pyproject.toml',
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    // A lock beside it names the exact versions (its own extractor reads it, this file included).
    const locks = await Promise.all(PYPROJECT_LOCKS.map((l) => ctx.exists(sibling(file.path, l))));
    if (locks.some(Boolean)) return [];
    const text = await file.text();
    const doc = parseTomlFile(text, file.path, 'pyproject.toml');
    const line = lineFinder(text);
    const project = isTable(doc.project) ? doc.project : {};
    const tool = isTable(doc.tool) ? doc.tool : {};
    const poetry = isTable(tool.poetry) ? tool.poetry : {};
    const pdm = isTable(tool.pdm) ? tool.pdm : {};
    const notPython = (name: string, value: TomlTable | string) => name.toLowerCase() === 'python' || isOwnCode(name, value);
    const declarations: Declaration[] = [
      ...fromRequirements(project.dependencies, 'runtime', 'project'),
      ...Object.values(isTable(project['optional-dependencies']) ? project['optional-dependencies'] : {}).flatMap((l) => fromRequirements(l, 'runtime', 'project.optional-dependencies')),
      ...Object.values(isTable(doc['dependency-groups']) ? doc['dependency-groups'] : {}).flatMap((l) => fromRequirements(l, 'development', 'dependency-groups')),
      ...Object.values(isTable(pdm['dev-dependencies']) ? pdm['dev-dependencies'] : {}).flatMap((l) => fromRequirements(l, 'development', 'tool.pdm.dev-dependencies')),
      ...fromTable(poetry.dependencies, 'runtime', 'tool.poetry.dependencies', notPython),
      ...fromTable(poetry['dev-dependencies'], 'development', 'tool.poetry.dev-dependencies', notPython),
      ...Object.entries(isTable(poetry.group) ? poetry.group : {}).flatMap(([g, group]) => (isTable(group) ? fromTable(group.dependencies, 'development', `tool.poetry.group.${g}.dependencies`, notPython) : [])),
    ];
    const builder = new TargetBuilder();
    for (const d of declarations) add(builder, file.path, line, d);
    if (!builder.components.length) return [];
    const name = str(project.name) || str(poetry.name);
    const version = str(project.version) || str(poetry.version);
    return [builder.target(file.path, 'pyproject', name ? projectOf(name, version) : null)];
  },
};
