// Shared pieces of the PyPI extractors: component construction and per-target deduplication,
// TOML parsing with Chinese errors, PEP 508 requirement heads, line ranges of TOML tables,
// pyproject.toml declarations and dev/runtime classification over a dependency graph.
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { Component, ExtractContext, Location, Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { normalizePypiName, pypiPurl } from '../../purl.ts';

export { normalizePypiName, pypiPurl };

export type TomlTable = Record<string, unknown>;

export const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const tables = (v: unknown): TomlTable[] => (Array.isArray(v) ? v.filter(isTable) : []);

export function parseTomlFile(text: string, file: string, what: string): TomlTable {
  try {
    return parseToml(text) as TomlTable;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ExtractError(`${what} 文件 ${file} 不是有效的 TOML：${detail}`);
  }
}

export interface NewComponent {
  name: string;
  version: string;
  direct?: boolean;
  scope?: Scope;
  location?: Location;
  licenses?: string[];
  dependsOn?: string[];
  /** The declared range when no exact version is pinned. */
  constraint?: string;
}

export function component(c: NewComponent): Component {
  return {
    purl: pypiPurl(c.name, c.version),
    ecosystem: 'pypi',
    name: c.name,
    version: c.version,
    direct: c.direct ?? false,
    scope: c.scope ?? 'runtime',
    locations: c.location ? [c.location] : [],
    licenses: c.licenses ?? [],
    dependsOn: c.dependsOn ?? [],
    ...(c.constraint ? { constraint: c.constraint } : {}),
  };
}

const locKey = (l: Location) => `${l.file}:${l.startLine ?? ''}:${l.endLine ?? ''}`;
const union = (a: string[], b: string[]) => (b.length === 0 ? a : [...new Set([...a, ...b])]);

/** Collects components of one target, merging duplicates by purl. */
export class TargetBuilder {
  readonly byPurl = new Map<string, Component>();

  add(c: Component): Component {
    const seen = this.byPurl.get(c.purl);
    if (!seen) {
      this.byPurl.set(c.purl, c);
      return c;
    }
    seen.direct ||= c.direct;
    if (c.scope === 'runtime') seen.scope = 'runtime';
    const keys = new Set(seen.locations.map(locKey));
    for (const l of c.locations) if (!keys.has(locKey(l))) { keys.add(locKey(l)); seen.locations.push(l); }
    seen.licenses = union(seen.licenses, c.licenses);
    seen.dependsOn = union(seen.dependsOn, c.dependsOn);
    return seen;
  }

  /** What was passed over while reading the file (an entry the tool cannot use), in Chinese with file and line. */
  readonly problems: string[] = [];

  get components(): Component[] {
    return [...this.byPurl.values()];
  }

  target(file: string, type: string, project: Target['project'], roots?: string[]): Target {
    const components = this.components;
    for (const c of components) c.dependsOn = c.dependsOn.filter((d) => d !== c.purl);
    return {
      file,
      type,
      ecosystem: 'pypi',
      project,
      roots: roots ?? components.filter((c) => c.direct).map((c) => c.purl),
      components,
      ...(this.problems.length ? { problems: this.problems } : {}),
    };
  }
}

export function projectOf(name: string, version: string): NonNullable<Target['project']> {
  return { purl: pypiPurl(name, version), name, version };
}

/** PEP 508 head: `name[extra1,extra2] rest` (rest = specifiers, `@ url` and `; markers`). */
export interface RequirementHead { name: string; extras: string[]; rest: string }

const HEAD = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[([^\]]*)\])?\s*(.*)$/s;

export function parseRequirementHead(spec: string): RequirementHead | undefined {
  const m = HEAD.exec(spec);
  if (!m) return undefined;
  const extras = (m[2] ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  return { name: m[1], extras, rest: m[3] ?? '' };
}

/** The exact version pinned by a specifier list (`==1.0`, `===1.0`, `(==1.0)`), or ''. */
export function pinnedVersion(specifiers: string): string {
  const body = specifiers.replace(/^\s*\(|\)\s*$/g, '');
  for (const part of body.split(',')) {
    const m = /^\s*(===?)\s*([^\s,;]+)\s*$/.exec(part);
    if (m && !m[2].includes('*')) return m[2];
  }
  return '';
}

/** One `[[package]]` entry of a TOML lockfile, with its name checked and its line range. */
export interface LockPackage {
  raw: TomlTable;
  name: string;
  span: { startLine: number; endLine: number } | undefined;
}

/**
 * The `[[package]]` entries of poetry.lock, pdm.lock and uv.lock: parsed, each required to have a
 * name, with the line range of its block (when the blocks line up with the parsed entries).
 */
export function lockPackages(text: string, file: string, what: string, problems: string[] = []): { doc: TomlTable; packages: LockPackage[] } {
  const doc = parseTomlFile(text, file, what);
  if (doc.package !== undefined && !Array.isArray(doc.package)) throw new ExtractError(`${what} 文件 ${file} 的 package 不是表数组`);
  const all: unknown[] = Array.isArray(doc.package) ? doc.package : [];
  const blocks = tableBlocks(text, 'package');
  const packages: LockPackage[] = [];
  all.forEach((raw, i) => {
    const span = blocks.length === all.length ? blocks[i] : undefined;
    const name = isTable(raw) ? str(raw.name) : '';
    // The tool passes over a package it cannot name and locks the rest: so do we, and say where.
    if (!isTable(raw) || !name) {
      problems.push(`${file} ${span ? `第 ${span.startLine} 行` : `第 ${i + 1} 个 [[package]]`}：[[package]] 缺少 name，已跳过`);
      return;
    }
    packages.push({ raw, name, span });
  });
  return { doc, packages };
}

/** Line ranges (1-based, inclusive) of each `[[name]]` array-of-tables entry, in file order. */
export function tableBlocks(text: string, name: string): Array<{ startLine: number; endLine: number }> {
  const lines = text.split(/\r?\n/);
  const header = `[[${name}]]`;
  const own = [`[${name}.`, `[[${name}.`];
  const blocks: Array<{ startLine: number; endLine: number }> = [];
  let open: { startLine: number; endLine: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith('[')) {
      const compact = line.replace(/\s+/g, '');
      if (compact.startsWith(header)) {
        open = { startLine: i + 1, endLine: i + 1 };
        blocks.push(open);
        continue;
      }
      if (!own.some((p) => compact.startsWith(p)) && /^\[\[?[A-Za-z0-9_."'-]+\]\]?(\s*#.*)?$/.test(compact)) open = undefined;
    }
    if (open && line && !line.startsWith('#')) open.endLine = i + 1;
  }
  return blocks;
}

/** What a pyproject.toml declares: the project and its direct dependencies (runtime and dev). */
export interface Declared {
  name: string;
  version: string;
  main: Set<string>;
  dev: Set<string>;
}

const addSpec = (into: Set<string>, spec: unknown) => {
  const head = typeof spec === 'string' ? parseRequirementHead(spec) : undefined;
  if (head) into.add(normalizePypiName(head.name));
};
const addKeys = (into: Set<string>, table: unknown) => {
  if (isTable(table)) for (const k of Object.keys(table)) if (k.toLowerCase() !== 'python') into.add(normalizePypiName(k));
};

/** Reads the pyproject.toml beside a lockfile; undefined when absent or unreadable. */
export async function readPyproject(ctx: ExtractContext, lockPath: string): Promise<Declared | undefined> {
  const dir = path.posix.dirname(lockPath);
  const text = await ctx.readText(dir === '.' ? 'pyproject.toml' : `${dir}/pyproject.toml`).catch(() => undefined);
  if (text === undefined) return undefined;
  let doc: TomlTable;
  try {
    doc = parseToml(text) as TomlTable;
  } catch {
    return undefined;
  }
  const main = new Set<string>();
  const dev = new Set<string>();
  const project = isTable(doc.project) ? doc.project : {};
  const tool = isTable(doc.tool) ? doc.tool : {};
  const poetry = isTable(tool.poetry) ? tool.poetry : {};
  for (const s of Array.isArray(project.dependencies) ? project.dependencies : []) addSpec(main, s);
  if (isTable(project['optional-dependencies'])) for (const list of Object.values(project['optional-dependencies'])) for (const s of Array.isArray(list) ? list : []) addSpec(main, s);
  if (isTable(doc['dependency-groups'])) for (const list of Object.values(doc['dependency-groups'])) for (const s of Array.isArray(list) ? list : []) addSpec(dev, s);
  addKeys(main, poetry.dependencies);
  addKeys(dev, poetry['dev-dependencies']);
  if (isTable(poetry.group)) {
    for (const [groupName, g] of Object.entries(poetry.group)) if (isTable(g)) addKeys(groupName === 'main' ? main : dev, g.dependencies);
  }
  const pdm = isTable(tool.pdm) ? tool.pdm : {};
  if (isTable(pdm['dev-dependencies'])) for (const list of Object.values(pdm['dev-dependencies'])) for (const s of Array.isArray(list) ? list : []) addSpec(dev, s);
  const uv = isTable(tool.uv) ? tool.uv : {};
  for (const s of Array.isArray(uv['dev-dependencies']) ? uv['dev-dependencies'] : []) addSpec(dev, s);
  return { name: str(project.name) || str(poetry.name), version: str(project.version) || str(poetry.version), main, dev };
}

/** Marks components development when only dev roots reach them (runtime reachability wins). */
export function classifyScopes(components: Component[], runtimeRoots: Iterable<string>, devRoots: Iterable<string>): void {
  const byPurl = new Map(components.map((c) => [c.purl, c]));
  const walk = (roots: Iterable<string>) => {
    const seen = new Set<string>();
    const stack = [...roots];
    while (stack.length) {
      const p = stack.pop()!;
      if (seen.has(p)) continue;
      seen.add(p);
      for (const d of byPurl.get(p)?.dependsOn ?? []) if (!seen.has(d)) stack.push(d);
    }
    return seen;
  };
  const runtime = walk(runtimeRoots);
  const dev = walk(devRoots);
  for (const c of components) {
    if (runtime.has(c.purl)) c.scope = 'runtime';
    else if (dev.has(c.purl)) c.scope = 'development';
  }
}

/** Names -> purls of the locked packages, to resolve edges that only name their child. */
export function indexByName(components: Iterable<Component>): Map<string, Component[]> {
  const byName = new Map<string, Component[]>();
  for (const c of components) {
    const key = normalizePypiName(c.name);
    const list = byName.get(key);
    if (list) list.push(c);
    else byName.set(key, [c]);
  }
  return byName;
}

/** Picks the locked package(s) a dependency entry refers to, preferring an exact version match. */
export function resolveChild(byName: Map<string, Component[]>, name: string, version?: string): Component[] {
  const found = byName.get(normalizePypiName(name)) ?? [];
  if (found.length <= 1) return found;
  if (version) {
    const exact = found.filter((c) => c.version === version);
    if (exact.length) return exact;
  }
  return found;
}
