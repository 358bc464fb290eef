// npm: package-lock.json (lockfileVersion 1, 2, 3), npm-shrinkwrap.json, and — for a project that
// ships package.json with node_modules but no lockfile — the installed tree itself (through npm's
// hidden lockfile node_modules/.package-lock.json when present, else by reading each installed
// package.json). Entries are keyed by install path and `requires`/`dependencies` are resolved the
// way Node resolves modules: the nearest node_modules folder upwards wins.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { npmPurl } from '../../purl.ts';
import { assemble, newNode, readInstalledLicenses } from '../js-common/graph.ts';
import type { Assembly, JsNode } from '../js-common/graph.ts';
import { parseJsonValues } from '../common/json-positions.ts';
import type { JsonRevive, JsonSpan as Span } from '../common/json-positions.ts';
import { isObject, stringMap } from '../common/values.ts';
import { declared, licensesOf, manifestOf, readManifest } from '../js-common/manifest.ts';
import type { Manifest } from '../js-common/manifest.ts';
import { baseOf, dirOf, joinPath, mapLimit } from '../js-common/paths.ts';
import { expandWorkspaces } from '../js-common/workspaces.ts';
import { lockText } from '../js-common/lock-text.ts';

const LOCKFILES = new Set(['package-lock.json', 'npm-shrinkwrap.json']);
/** Any of these beside (or above) a package.json means a lockfile extractor owns the project. */
const ANY_LOCKFILE = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb'];

const inNodeModules = (p: string) => p.startsWith('node_modules/') || p.includes('/node_modules/');

/** One lockfile entry normalised across versions, keyed by install path relative to the lockfile. */
interface Entry {
  path: string;
  name: string;
  version: string;
  dev: boolean;
  link?: string;
  deps: string[];
  licenses: string[];
  span?: Span;
  /** Declarations of the root project and workspace / local packages (not of installed ones). */
  manifest?: Manifest;
}

/** The install path `dep` resolves to from `from` (Node's upward node_modules lookup). */
function resolveFrom(entries: Map<string, Entry>, from: string, dep: string): string | undefined {
  let base = from;
  for (;;) {
    const cand = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`;
    if (entries.has(cand)) return cand;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut >= 0 ? base.slice(0, cut) : '';
  }
}

function nameFromPath(p: string): string {
  const cut = p.lastIndexOf('node_modules/');
  return cut < 0 ? baseOf(p) : p.slice(cut + 'node_modules/'.length);
}

/** `npm:real@1.2.3` aliases name the real package. */
function unalias(name: string, version: string): [string, string] {
  if (version.startsWith('npm:')) {
    const spec = version.slice(4);
    const at = spec.lastIndexOf('@');
    if (at > 0) return [spec.slice(0, at), spec.slice(at + 1)];
  }
  return [name, version];
}

/** The names an entry depends on (its maps' keys with a string value), in an array of the exact size it keeps. */
function depNames(e: Record<string, unknown>): string[] {
  const out: string[] = [];
  // Not through stringMap: a copy of every dependencies map of a huge lockfile costs V8 a hidden class per new key order.
  for (const map of [e.dependencies, e.optionalDependencies, e.peerDependencies]) {
    if (!isObject(map)) continue;
    // '__proto__' would not survive stringMap's copy either.
    for (const [name, spec] of Object.entries(map)) if (typeof spec === 'string' && name !== '__proto__') out.push(name);
  }
  return out.length ? out.slice() : [];
}

/** A `packages` entry npm passes over (not an object, no version), with why and where. */
interface Skipped { skip: string; span?: Span }

/** One entry of the lockfileVersion 2 and 3 `packages` map, read as the parser meets it (JsonRevive). */
function entryV2(path: string, raw: unknown, span: Span | undefined): Entry | Skipped {
  if (!isObject(raw)) return { skip: '不是对象' };
  if (inNodeModules(path) && typeof raw.version !== 'string' && raw.link !== true) return { skip: '没有 version', span };
  const name = typeof raw.name === 'string' ? raw.name : nameFromPath(path);
  const version = typeof raw.version === 'string' ? raw.version : '';
  return {
    path, name, version,
    dev: raw.dev === true,
    link: raw.link === true && typeof raw.resolved === 'string' ? joinPath(raw.resolved) : undefined,
    deps: depNames(raw),
    licenses: licensesOf(raw),
    span,
    manifest: inNodeModules(path) ? undefined : manifestOf(raw),
  };
}

/** The `packages` map turned into entries member by member while it is parsed (see entriesV2). */
const REVIVE_PACKAGES: JsonRevive = { of: 'packages', revive: (key, raw, span) => entryV2(key, raw, span) };

/** lockfileVersion 2 and 3: the flat `packages` map, its members already entries (REVIVE_PACKAGES). */
function entriesV2(packages: Record<string, unknown>, skip: (key: string, what: string, span: Span | undefined) => void): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const [path, read] of Object.entries(packages) as Array<[string, Entry | Skipped]>) {
    if ('skip' in read) skip(path, read.skip, read.span);
    else out.set(path, read);
  }
  return out;
}

/** lockfileVersion 1: the nested `dependencies` tree, flattened to install paths. */
function entriesV1(deps: Record<string, unknown>, spans: WeakMap<object, Span>, skip: (key: string, what: string, span: Span | undefined) => void): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const stack: Array<[string, Record<string, unknown>]> = [['', deps]];
  while (stack.length) {
    const [parent, level] = stack.pop()!;
    for (const [key, raw] of Object.entries(level)) {
      const path = parent ? `${parent}/node_modules/${key}` : `node_modules/${key}`;
      if (!isObject(raw)) { skip(path, '不是对象', undefined); continue; }
      if (typeof raw.version !== 'string') { skip(path, '没有 version', spans.get(raw)); continue; }
      const version = typeof raw.version === 'string' ? raw.version : '';
      const [name, v] = unalias(key, version);
      out.set(path, {
        path, name, version: v, dev: raw.dev === true,
        link: version.startsWith('file:') ? joinPath(version.slice(5)) : undefined,
        deps: Object.keys(stringMap(raw.requires)),
        licenses: [],
        span: spans.get(raw),
      });
      if (isObject(raw.dependencies)) stack.push([path, raw.dependencies]);
    }
  }
  return out;
}

interface Built { nodes: Map<string, JsNode>; runtimeRoots: string[]; devRoots: string[] }

/** Turns entries into graph nodes: third-party packages only; links and workspaces are the project. */
function build(entries: Map<string, Entry>, file: string, installBase: string, rootManifest: Manifest | undefined): Built {
  const nodes = new Map<string, JsNode>();
  const isPackage = (e: Entry) => !e.link && inNodeModules(e.path) && e.version !== '' && !e.version.startsWith('file:');
  const target = (from: string, dep: string): string | undefined => {
    let hit = resolveFrom(entries, from, dep);
    if (!hit) return undefined;
    let e = entries.get(hit)!;
    // A link to another installed entry (e.g. a store folder) stands for that entry.
    if (e.link && entries.has(e.link)) { hit = e.link; e = entries.get(hit)!; }
    return isPackage(e) ? hit : undefined;
  };
  for (const e of entries.values()) {
    if (!isPackage(e)) continue;
    const node = newNode(e.path, e.name, e.version, e.span ? { file, startLine: e.span.startLine, endLine: e.span.endLine } : { file });
    node.dev = e.dev;
    node.licenses = e.licenses;
    node.installedManifest = joinPath(installBase, e.path, 'package.json');
    const deps: string[] = [];
    for (const d of e.deps) {
      const t = target(e.path, d);
      if (t) deps.push(t);
    }
    // Exact size: kept until assembly, for every entry.
    if (deps.length) node.deps = deps.slice();
    nodes.set(e.path, node);
  }

  // Direct dependencies: what the root and every workspace / linked local package declare.
  const runtimeRoots = new Set<string>();
  const devRoots = new Set<string>();
  const declare = (from: string, m: Manifest) => {
    const { runtime, dev } = declared(m);
    for (const [name] of runtime) { const t = target(from, name); if (t) runtimeRoots.add(t); }
    for (const [name] of dev) { const t = target(from, name); if (t && !runtimeRoots.has(t)) devRoots.add(t); }
  };
  if (rootManifest) declare('', rootManifest);
  for (const e of entries.values()) if (e.path && !inNodeModules(e.path) && e.manifest) declare(e.path, e.manifest);
  if (!rootManifest) {
    // Without the project's manifest, the top-level entries nobody requires are what it declared.
    const required = new Set<string>();
    for (const n of nodes.values()) for (const d of n.deps) required.add(d);
    for (const n of nodes.values()) {
      if (n.id.indexOf('/node_modules/') >= 0 || required.has(n.id)) continue;
      (n.dev ? devRoots : runtimeRoots).add(n.id);
    }
  }
  for (const r of runtimeRoots) devRoots.delete(r);
  return { nodes, runtimeRoots: [...runtimeRoots], devRoots: [...devRoots] };
}

/** What a lockfile says, its parsed text already let go: entries by install path, the project it names, the entries skipped. */
interface Lock { entries: Map<string, Entry>; name?: string; version?: string; problems: string[] }

function readLock(text: string, file: string): Lock {
  const { value, spans } = parseJsonValues(text, file, { jsonc: true }, REVIVE_PACKAGES);
  if (!isObject(value)) throw new ExtractError(`${file} 不是有效的 npm 锁文件：顶层不是对象`);
  const lockVersion = typeof value.lockfileVersion === 'number' ? value.lockfileVersion : 1;
  let entries: Map<string, Entry>;
  // npm passes over an entry it cannot use (not an object, no version) and installs the rest: so do we, and say so.
  const problems: string[] = [];
  const skip = (key: string, what: string, span: Span | undefined) => {
    problems.push(`${file}${span ? ` 第 ${span.startLine} 行` : ''}：条目“${key}”${what}，已跳过`);
  };
  if (lockVersion >= 2 && isObject(value.packages)) entries = entriesV2(value.packages, skip);
  else if (isObject(value.dependencies) || value.dependencies === undefined) entries = entriesV1(isObject(value.dependencies) ? value.dependencies : {}, spans, skip);
  else throw new ExtractError(`${file} 不是有效的 npm 锁文件：dependencies 不是对象`);
  return {
    entries, problems,
    name: typeof value.name === 'string' ? value.name : undefined,
    version: typeof value.version === 'string' ? value.version : undefined,
  };
}

/** The lockfile's graph; its entries are let go before the caller assembles components. */
async function readLockGraph(file: InputFile, ctx: ExtractContext): Promise<Built & { project: Assembly['project']; problems: string[] }> {
  const lock = readLock(await lockText(file), file.path);
  ctx.signal.throwIfAborted();
  const dir = dirOf(file.path);
  const rootManifest = lock.entries.get('')?.manifest ?? (await readManifest(ctx.readText, joinPath(dir, 'package.json')));
  const built = build(lock.entries, file.path, dir, rootManifest);
  const name = lock.name ?? rootManifest?.name ?? '';
  const version = lock.version ?? rootManifest?.version ?? '';
  return { ...built, project: name ? { name, version } : null, problems: lock.problems };
}

async function extractLockfile(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const { nodes, runtimeRoots, devRoots, project, problems } = await readLockGraph(file, ctx);
  await readInstalledLicenses(nodes.values(), ctx);
  const target = assemble(nodes, { file: file.path, type: 'npm', project, runtimeRoots, devRoots, explicitDev: true });
  return [problems.length ? { ...target, problems } : target];
}

/** Installed packages under `<dir>/node_modules`, recursively, keyed by install path. `own` are
 *  the project's workspace package names: their node_modules entries are links, not components. */
async function walkInstalled(ctx: ExtractContext, dir: string, own: ReadonlySet<string>): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  let pending = [''];
  while (pending.length) {
    ctx.signal.throwIfAborted();
    const next: string[] = [];
    await mapLimit(pending, 16, async (parent) => {
      const nm = parent ? `${parent}/node_modules` : 'node_modules';
      const names: string[] = [];
      for (const n of await ctx.list(joinPath(dir, nm))) {
        if (n.startsWith('.')) continue;
        if (n.startsWith('@')) for (const s of await ctx.list(joinPath(dir, nm, n))) names.push(`${n}/${s}`);
        else names.push(n);
      }
      await mapLimit(names, 16, async (n) => {
        const path = `${nm}/${n}`;
        const manifestPath = joinPath(dir, path, 'package.json');
        let text: string | undefined;
        try { text = await ctx.readText(manifestPath); } catch { return; }
        if (text === undefined) return;
        let pkg: unknown;
        try { pkg = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); } catch { return; }
        if (!isObject(pkg) || typeof pkg.version !== 'string') return;
        if (!parent && typeof pkg.name === 'string' && own.has(pkg.name)) return;
        entries.set(path, {
          path, name: typeof pkg.name === 'string' ? pkg.name : n, version: pkg.version, dev: false,
          deps: depNames(pkg), licenses: licensesOf(pkg),
          span: { startLine: 1, endLine: text.split('\n').length },
        });
        next.push(path);
      });
    });
    pending = next;
  }
  return entries;
}

/**
 * Whether a folder holds any lockfile, asked once per folder and scan: the package.json files of a
 * large installed tree share their folders above (each asks about every one of them). Asked with
 * exists, not by listing the folder: a feature file records what an extractor lists (feature/write.ts).
 */
function hasLockfile(ctx: ExtractContext, dir: string): Promise<boolean> {
  let known = lockfileFolders.get(ctx);
  if (!known) lockfileFolders.set(ctx, (known = new Map()));
  let found = known.get(dir);
  if (!found) {
    found = Promise.all(ANY_LOCKFILE.map((l) => ctx.exists(joinPath(dir, l)))).then((each) => each.some(Boolean));
    known.set(dir, found);
  }
  return found;
}
const lockfileFolders = new WeakMap<ExtractContext, Map<string, Promise<boolean>>>();

async function extractInstalled(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const dir = dirOf(file.path);
  // A lockfile here or in a folder above describes this project better than node_modules does.
  for (let d = dir; ; d = dirOf(d)) {
    if (await hasLockfile(ctx, d)) return [];
    if (!d) break;
  }
  const installed = await ctx.exists(joinPath(dir, 'node_modules'));
  const text = await file.text();
  let manifest: Manifest | undefined;
  try {
    manifest = manifestOf(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  } catch {
    throw new ExtractError(`${file.path} 不是有效的 package.json`);
  }
  if (!manifest) throw new ExtractError(`${file.path} 不是有效的 package.json：顶层不是对象`);
  // Neither a lockfile nor installed packages: what the manifest declares, each with the range it declares.
  if (!installed) return declaredOnly(file.path, text, manifest);

  // npm (7+) keeps a hidden lockfile of what it installed: exact, and cheaper than the walk.
  const hidden = await ctx.readText(joinPath(dir, 'node_modules/.package-lock.json')).catch(() => undefined);
  let entries: Map<string, Entry> | undefined;
  let nodesFile = '';
  if (hidden !== undefined) {
    try {
      const { value } = parseJsonValues(hidden, 'node_modules/.package-lock.json', { jsonc: true }, REVIVE_PACKAGES);
      if (isObject(value) && isObject(value.packages)) { entries = entriesV2(value.packages, () => undefined); nodesFile = joinPath(dir, 'node_modules/.package-lock.json'); }
    } catch {
      entries = undefined;
    }
  }
  if (!entries) {
    const own = new Set<string>();
    if (manifest.workspaces.length) {
      const folders = await expandWorkspaces(ctx, dir, manifest.workspaces);
      for (const m of await mapLimit(folders, 16, (f) => readManifest(ctx.readText, joinPath(dir, f, 'package.json')))) if (m?.name) own.add(m.name);
    }
    entries = await walkInstalled(ctx, dir, own);
  }
  const { nodes, runtimeRoots, devRoots } = build(entries, nodesFile || file.path, dir, manifest);
  if (!nodes.size) return [];
  if (!nodesFile) for (const n of nodes.values()) n.location = { ...n.location, file: n.installedManifest! };
  await readInstalledLicenses(nodes.values(), ctx);
  return [assemble(nodes, {
    file: file.path, type: 'npm', project: manifest.name ? { name: manifest.name, version: manifest.version } : null,
    runtimeRoots, devRoots, explicitDev: false,
  })];
}

/** An exact npm version (`1.2.3`, `=1.2.3`, `v1.2.3-beta.1`): what a range that pins one names. */
const EXACT = /^(?:=|v)?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;
/** Protocols that point at the project's own code, not at a package. */
const OWN_CODE = /^(?:workspace|file|link|portal):/;

/**
 * A package.json without a lockfile and without node_modules: each declared dependency is a
 * direct component with the version it pins, else version '' (未知版本) and the range it declares.
 */
function declaredOnly(path: string, text: string, manifest: Manifest): Target[] {
  const lines = text.split('\n');
  const lineOf = (section: string, name: string): number | undefined => {
    const start = lines.findIndex((l) => l.includes(`"${section}"`));
    if (start < 0) return undefined;
    const at = lines.findIndex((l, k) => k > start && l.includes(`"${name}"`));
    return at < 0 ? undefined : at + 1;
  };
  const components = new Map<string, Component>();
  const sections: Array<[string, Record<string, string>, Component['scope']]> = [
    ['dependencies', manifest.dependencies, 'runtime'], ['optionalDependencies', manifest.optionalDependencies, 'runtime'],
    ['peerDependencies', manifest.peerDependencies, 'runtime'], ['devDependencies', manifest.devDependencies, 'development'],
  ];
  for (const [section, deps, scope] of sections) {
    for (const [declaredName, rawRange] of Object.entries(deps)) {
      let name = declaredName;
      let range = rawRange.trim();
      if (OWN_CODE.test(range)) continue;
      const alias = /^npm:((?:@[^/@]+\/)?[^@]+)(?:@(.*))?$/.exec(range);
      if (alias) { name = alias[1]!; range = alias[2] ?? ''; }
      const exact = EXACT.exec(range)?.[1];
      const version = exact ?? '';
      const purl = npmPurl(name, version);
      const existing = components.get(purl);
      if (existing) { if (scope === 'runtime') existing.scope = 'runtime'; continue; }
      const line = lineOf(section, declaredName);
      components.set(purl, {
        purl, ecosystem: 'npm', name, version, direct: true, scope,
        locations: [{ file: path, ...(line ? { startLine: line, endLine: line } : {}) }],
        licenses: [], dependsOn: [],
        ...(exact ? {} : { constraint: range || '*' }),
      });
    }
  }
  if (!components.size) return [];
  const list = [...components.values()];
  return [{
    file: path, type: 'npm', ecosystem: 'npm',
    project: manifest.name ? { purl: npmPurl(manifest.name, manifest.version), name: manifest.name, version: manifest.version } : null,
    roots: list.filter((c) => c.scope === 'runtime').map((c) => c.purl),
    components: list,
  }];
}

/** `<dir>/node_modules/<name>/package.json` (or `@scope/name`) under no other node_modules. */
const TOP_INSTALLED = /^(?:(.*)\/)?node_modules\/((?:@[^/]+\/)?[^/@.][^/]*)\/package\.json$/;

function topInstalled(p: string): { owner: string; dir: string } | undefined {
  const m = TOP_INSTALLED.exec(p);
  if (!m || (m[1] ?? '').split('/').includes('node_modules')) return undefined;
  return { owner: m[1] ?? '', dir: dirOf(p) };
}

/**
 * A package installed in a node_modules folder that no project owns (`npm install -g` puts them in
 * /usr/local/lib/node_modules; an image may carry an application's node_modules without its
 * package.json): the package itself, direct, and the packages installed under it, resolved the
 * way Node resolves them (its own node_modules first, then the folder it sits in).
 */
async function extractTopInstalled(file: InputFile, ctx: ExtractContext, where: { owner: string; dir: string }): Promise<Target[]> {
  // A project's node_modules is read through its package.json or lockfile instead.
  const owned = await Promise.all(['package.json', ...ANY_LOCKFILE].map((f) => ctx.exists(joinPath(where.owner, f))));
  if (owned.some(Boolean)) return [];
  let pkg: unknown;
  try {
    const text = await file.text();
    pkg = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new ExtractError(`${file.path} 不是有效的 package.json`);
  }
  if (!isObject(pkg) || typeof pkg.version !== 'string' || !pkg.version) return [];
  const manifest = manifestOf(pkg);
  const name = typeof pkg.name === 'string' && pkg.name ? pkg.name : where.dir.slice(where.dir.lastIndexOf('node_modules/') + 'node_modules/'.length);
  // Its own node_modules, then its siblings: keyed as install paths relative to the owner folder.
  const selfPath = where.dir.slice(where.owner ? where.owner.length + 1 : 0);
  const own = await walkInstalled(ctx, where.dir, new Set());
  const entries = new Map<string, Entry>();
  for (const [p, e] of own) entries.set(`${selfPath}/${p}`, { ...e, path: `${selfPath}/${p}` });
  const self: Entry = { path: selfPath, name, version: pkg.version, dev: false, deps: depNames(pkg), licenses: licensesOf(pkg), span: { startLine: 1, endLine: 1 } };
  entries.set(selfPath, self);
  const siblings = new Set(depNames(pkg));
  // Dependencies hoisted next to it (a flattened install without its package.json).
  for (const dep of siblings) {
    const sibling = `node_modules/${dep}`;
    if (entries.has(sibling) || sibling === selfPath) continue;
    const text = await ctx.readText(joinPath(where.owner, sibling, 'package.json')).catch(() => undefined);
    if (text === undefined) continue;
    try {
      const sp = JSON.parse(text) as unknown;
      if (isObject(sp) && typeof sp.version === 'string') {
        entries.set(sibling, { path: sibling, name: typeof sp.name === 'string' ? sp.name : dep, version: sp.version, dev: false, deps: depNames(sp), licenses: licensesOf(sp), span: { startLine: 1, endLine: 1 } });
      }
    } catch {
      // An unreadable sibling manifest is not this package's problem.
    }
  }
  const { nodes } = build(entries, file.path, where.owner, manifest);
  if (!nodes.has(selfPath)) return [];
  for (const n of nodes.values()) n.location = { file: n.installedManifest! };
  await readInstalledLicenses(nodes.values(), ctx);
  return [assemble(nodes, { file: file.path, type: 'npm', project: null, runtimeRoots: [selfPath], devRoots: [], explicitDev: false })];
}

const npmExtractor: Extractor = {
  name: 'npm',
  ecosystem: 'npm',
  reads: ['package-lock.json', 'npm-shrinkwrap.json', 'package.json'],
  matches(path) {
    if (inNodeModules(path)) return topInstalled(path) !== undefined;
    const base = baseOf(path);
    return LOCKFILES.has(base) || base === 'package.json';
  },
  async extract(file, ctx) {
    const installed = inNodeModules(file.path) ? topInstalled(file.path) : undefined;
    if (installed) return extractTopInstalled(file, ctx, installed);
    return baseOf(file.path) === 'package.json' ? extractInstalled(file, ctx) : extractLockfile(file, ctx);
  },
};

export const extractors: Extractor[] = [npmExtractor];
