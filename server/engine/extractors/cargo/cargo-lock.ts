// Cargo.lock (format versions 1 to 4): every `[[package]]` with its resolved dependencies.
// The lock does not say which packages are the project's own or which edges are dev-only, so
// the Cargo.toml beside it (and the manifests of workspace members) are read to find the root
// package, the direct dependencies and the development-only part of the graph.
import { parse as parseToml } from 'smol-toml';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';

interface LockPackage {
  name: string;
  version: string;
  source: string | undefined;
  deps: string[];
  startLine?: number;
  endLine?: number;
}

interface Manifest {
  name?: string;
  version?: string;
  /** Lock names of [dependencies] and [target.*.dependencies]. */
  runtime: Set<string>;
  /** Lock names of dev- and build-dependencies. */
  dev: Set<string>;
  members: string[];
  /** [workspace.dependencies] key -> lock name, for members that inherit. */
  renames: Map<string, string>;
}

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (dir: string, rel: string) => {
  const parts = (dir ? `${dir}/${rel}` : rel).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
};

/** Line spans of each `[[package]]` block, in file order. */
function packageSpans(text: string): Array<{ start: number; end: number }> {
  const lines = text.split('\n');
  const spans: Array<{ start: number; end: number }> = [];
  let current: { start: number; end: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('[')) {
      current = undefined;
      if (/^\[\[\s*package\s*\]\]/.test(line)) {
        current = { start: i + 1, end: i + 1 };
        spans.push(current);
      }
    } else if (current && line && !line.startsWith('#')) {
      current.end = i + 1;
    }
  }
  return spans;
}

const KNOWN_KEYS = new Set(['version', 'package', 'metadata', 'patch', 'root']);

/** Reads the lock's packages; a `[[package]]` without a name or version is passed over and told in `problems`. */
export function parseCargoLock(text: string, file: string, problems: string[] = []): LockPackage[] {
  text = text.replace(/^\uFEFF/, ''); // a byte-order mark is not content
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (error) {
    throw new ExtractError(`无法解析 ${file}：不是有效的 TOML（${(error as Error).message.split('\n')[0]}）`);
  }
  // Cargo reads version, package, metadata and patch (root in very old locks) and ignores any other table.
  for (const key of Object.keys(doc)) {
    if (KNOWN_KEYS.has(key)) continue;
    const line = text.split('\n').findIndex((l) => {
      const t = l.trim().replace(/^\[+\s*/, '').replace(/^"/, '');
      return t.startsWith(key) && /^["\s\].=]/.test(t.slice(key.length));
    });
    problems.push(`${file}${line >= 0 ? ` 第 ${line + 1} 行` : ''}：Cargo 不认识的“${key}”，已跳过`);
  }
  const raw = doc['package'] ?? [];
  if (!Array.isArray(raw)) throw new ExtractError(`无法解析 ${file}：package 应为 [[package]] 数组`);
  const spans = packageSpans(text);
  const useSpans = spans.length === raw.length;
  const packages = raw.flatMap((entry: unknown, index) => {
    if (!isTable(entry) || typeof entry['name'] !== 'string' || typeof entry['version'] !== 'string') {
      const where = useSpans ? `第 ${spans[index]!.start} 行` : `第 ${index + 1} 个 [[package]]`;
      const name = isTable(entry) && typeof entry['name'] === 'string' ? `“${entry['name']}”` : '';
      problems.push(`${file} ${where}：[[package]]${name}缺少 name 或 version，已跳过`);
      return [];
    }
    const deps = Array.isArray(entry['dependencies']) ? entry['dependencies'].filter((d): d is string => typeof d === 'string') : [];
    const pkg: LockPackage = {
      name: entry['name'],
      version: entry['version'],
      source: typeof entry['source'] === 'string' ? entry['source'] : undefined,
      deps,
    };
    if (useSpans) {
      pkg.startLine = spans[index]!.start;
      pkg.endLine = spans[index]!.end;
    }
    return [pkg];
  });
  // Very old lockfiles keep the root package in a `[root]` table.
  const root = doc['root'];
  if (isTable(root) && typeof root['name'] === 'string' && typeof root['version'] === 'string') {
    const deps = Array.isArray(root['dependencies']) ? root['dependencies'].filter((d): d is string => typeof d === 'string') : [];
    packages.unshift({ name: root['name'], version: root['version'], source: undefined, deps });
  }
  return packages;
}

/**
 * Names (as they appear in the lock) declared by one dependency table. `package = "..."` renames;
 * `workspace = true` inherits the entry (and its rename) from [workspace.dependencies].
 */
function depNames(table: unknown, into: Set<string>, inherited: Map<string, string>): void {
  if (!isTable(table)) return;
  for (const [key, value] of Object.entries(table)) {
    if (isTable(value) && typeof value['package'] === 'string') into.add(value['package']);
    else if (isTable(value) && value['workspace'] === true) into.add(inherited.get(key) ?? key);
    else into.add(key);
  }
}

/** [workspace.dependencies] key -> lock name. */
function workspaceRenames(doc: Table): Map<string, string> {
  const out = new Map<string, string>();
  const workspace = isTable(doc['workspace']) ? doc['workspace'] : undefined;
  const deps = isTable(workspace?.['dependencies']) ? workspace['dependencies'] : undefined;
  for (const [key, value] of Object.entries(deps ?? {})) out.set(key, isTable(value) && typeof value['package'] === 'string' ? value['package'] : key);
  return out;
}

function readManifest(text: string, inheritedFrom?: Map<string, string>): Manifest | undefined {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch {
    return undefined;
  }
  const renames = workspaceRenames(doc);
  const inherited = inheritedFrom ?? renames;
  const runtime = new Set<string>();
  const dev = new Set<string>();
  depNames(doc['dependencies'], runtime, inherited);
  depNames(doc['dev-dependencies'], dev, inherited);
  depNames(doc['dev_dependencies'], dev, inherited);
  depNames(doc['build-dependencies'], dev, inherited);
  depNames(doc['build_dependencies'], dev, inherited);
  if (isTable(doc['target'])) {
    for (const platform of Object.values(doc['target'])) {
      if (!isTable(platform)) continue;
      depNames(platform['dependencies'], runtime, inherited);
      depNames(platform['dev-dependencies'], dev, inherited);
      depNames(platform['build-dependencies'], dev, inherited);
    }
  }
  const pkg = isTable(doc['package']) ? doc['package'] : undefined;
  const workspace = isTable(doc['workspace']) ? doc['workspace'] : undefined;
  const members = Array.isArray(workspace?.['members']) ? workspace['members'].filter((m): m is string => typeof m === 'string') : [];
  const version = typeof pkg?.['version'] === 'string' ? pkg['version'] : undefined;
  return { name: typeof pkg?.['name'] === 'string' ? pkg['name'] : undefined, version, runtime, dev, members, renames };
}

/** Reads the root manifest and those of its workspace members (`*` globs in the last segment). */
async function readManifests(dir: string, ctx: ExtractContext): Promise<{ root: Manifest | undefined; byName: Map<string, Manifest> }> {
  const byName = new Map<string, Manifest>();
  const rootText = await ctx.readText(join(dir, 'Cargo.toml')).catch(() => undefined);
  const root = rootText === undefined ? undefined : readManifest(rootText);
  if (!root) return { root, byName };
  if (root.name) byName.set(root.name, root);
  const memberDirs: string[] = [];
  for (const pattern of root.members.slice(0, 1000)) {
    const clean = pattern.replace(/\/+$/, '');
    const star = clean.lastIndexOf('/');
    const last = clean.slice(star + 1);
    if (last.includes('*') || last.includes('?')) {
      const parent = join(dir, clean.slice(0, Math.max(0, star)));
      const re = new RegExp(`^${last.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
      for (const name of await ctx.list(parent)) if (re.test(name)) memberDirs.push(join(parent, name));
    } else if (!clean.includes('*')) {
      memberDirs.push(join(dir, clean));
    }
  }
  for (const memberDir of memberDirs) {
    ctx.signal.throwIfAborted();
    const text = await ctx.readText(join(memberDir, 'Cargo.toml')).catch(() => undefined);
    const manifest = text === undefined ? undefined : readManifest(text, root.renames);
    if (manifest?.name && !byName.has(manifest.name)) byName.set(manifest.name, manifest);
  }
  return { root, byName };
}

async function extractCargoLock(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const text = await file.text();
  const problems: string[] = [];
  const packages = parseCargoLock(text, file.path, problems);
  const dir = dirOf(file.path);
  const { root, byName: manifests } = await readManifests(dir, ctx);

  // Resolve the "name", "name version" and "name version (source)" references of the lock.
  const byName = new Map<string, LockPackage[]>();
  for (const p of packages) {
    const list = byName.get(p.name);
    if (list) list.push(p);
    else byName.set(p.name, [p]);
  }
  const resolve = (ref: string): LockPackage | undefined => {
    const m = /^(\S+)(?:\s+(\S+))?(?:\s+\((.+)\))?\s*$/.exec(ref.trim());
    if (!m) return undefined;
    const candidates = byName.get(m[1]!) ?? [];
    if (!m[2]) return candidates[0];
    const sameVersion = candidates.filter((c) => c.version === m[2]);
    if (m[3] && sameVersion.length > 1) return sameVersion.find((c) => c.source === m[3]) ?? sameVersion[0];
    return sameVersion[0];
  };
  const children = new Map<LockPackage, Array<{ pkg: LockPackage; dev: boolean }>>();
  const isLocal = (p: LockPackage) => p.source === undefined;
  for (const p of packages) {
    const manifest = isLocal(p) ? manifests.get(p.name) : undefined;
    const list: Array<{ pkg: LockPackage; dev: boolean }> = [];
    for (const ref of p.deps) {
      const child = resolve(ref);
      if (!child) continue;
      const dev = manifest ? manifest.dev.has(child.name) && !manifest.runtime.has(child.name) : false;
      list.push({ pkg: child, dev });
    }
    children.set(p, list);
  }

  // Runtime: reachable from the local packages without passing a dev- or build-only edge.
  const locals = packages.filter(isLocal);
  const runtime = new Set<LockPackage>();
  const reached = new Set<LockPackage>();
  const walk = (start: LockPackage[], set: Set<LockPackage>, skipDev: boolean) => {
    const stack = [...start];
    while (stack.length) {
      const p = stack.pop()!;
      if (set.has(p)) continue;
      set.add(p);
      for (const edge of children.get(p) ?? []) if (!(skipDev && edge.dev)) stack.push(edge.pkg);
    }
  };
  walk(locals, runtime, true);
  walk(locals, reached, false);

  const purl = (p: LockPackage) => purlOf('cargo', { name: p.name, version: p.version });
  const direct = new Set<LockPackage>();
  const directRuntime = new Set<LockPackage>();
  for (const local of locals) {
    for (const edge of children.get(local) ?? []) {
      if (isLocal(edge.pkg)) continue;
      direct.add(edge.pkg);
      if (!edge.dev && runtime.has(local)) directRuntime.add(edge.pkg);
    }
  }

  const components = new Map<string, Component>();
  for (const p of packages) {
    if (isLocal(p)) continue;
    const id = purl(p);
    const dependsOn = [...new Set((children.get(p) ?? []).filter((e) => !isLocal(e.pkg)).map((e) => purl(e.pkg)))];
    const existing = components.get(id);
    if (existing) {
      for (const d of dependsOn) if (!existing.dependsOn.includes(d)) existing.dependsOn.push(d);
      continue;
    }
    components.set(id, {
      purl: id,
      ecosystem: 'cargo',
      name: p.name,
      version: p.version,
      direct: direct.has(p),
      scope: reached.has(p) && !runtime.has(p) ? 'development' : 'runtime',
      locations: [{ file: file.path, ...(p.startLine ? { startLine: p.startLine, endLine: p.endLine } : {}) }],
      licenses: [],
      dependsOn,
    });
  }

  // The project: the root manifest's package, else the only local package nothing depends on.
  let project: Target['project'] = null;
  let projectPkg: LockPackage | undefined;
  if (root?.name) projectPkg = locals.find((p) => p.name === root.name && (!root.version || p.version === root.version)) ?? locals.find((p) => p.name === root.name);
  if (!projectPkg && !root) {
    const dependedOn = new Set<LockPackage>();
    for (const list of children.values()) for (const e of list) dependedOn.add(e.pkg);
    const tops = locals.filter((p) => !dependedOn.has(p));
    if (tops.length === 1) projectPkg = tops[0];
  }
  if (projectPkg) project = { purl: purl(projectPkg), name: projectPkg.name, version: projectPkg.version };

  return [{
    file: file.path,
    type: 'cargo',
    ecosystem: 'cargo',
    project,
    roots: [...new Set([...directRuntime].map(purl))],
    components: [...components.values()],
    ...(problems.length ? { problems } : {}),
  }];
}

export const cargoLockExtractor: Extractor = {
  name: 'cargo',
  ecosystem: 'cargo',
  reads: ['Cargo.lock'],
  matches: (path) => path === 'Cargo.lock' || path.endsWith('/Cargo.lock'),
  extract: extractCargoLock,
};
