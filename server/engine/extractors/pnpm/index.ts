// pnpm-lock.yaml, lockfile versions 5.x (`/name/1.0.0_peer`), 6.x (`/name@1.0.0(peer@2)`) and 9.x
// (`name@1.0.0(peer@2)`, metadata in `packages`, the graph in `snapshots`). Single projects
// (top-level dependencies) and workspaces (`importers`). Peer suffixes are dropped from versions,
// so peer variants of one package merge into one component; `link:` entries are workspace
// packages (the project), not components. Dev: the lockfile's `dev` flag up to 6.x, reachability
// from the importers' runtime declarations in 9.x.
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { assemble, newNode, readInstalledLicenses } from '../js-common/graph.ts';
import type { JsNode } from '../js-common/graph.ts';
import { isObject } from '../common/values.ts';
import { parseYamlValues } from '../common/yaml-lines.ts';
import { readManifest } from '../js-common/manifest.ts';
import { baseOf, dirOf, joinPath } from '../js-common/paths.ts';
import { lockText } from '../js-common/lock-text.ts';

/** Importer dependency values: `1.0.0` (5.x) or `{ specifier, version }` (6.x, 9.x). */
function refsOf(v: unknown): Array<[string, string]> {
  if (!isObject(v)) return [];
  const out: Array<[string, string]> = [];
  for (const [name, x] of Object.entries(v)) {
    if (typeof x === 'string' || typeof x === 'number') out.push([name, String(x)]);
    else if (isObject(x) && (typeof x.version === 'string' || typeof x.version === 'number')) out.push([name, String(x.version)]);
  }
  return out;
}

/** Strips peer suffixes: `(react@18.0.0)` from 6.x/9.x, `_react@18.0.0` from 5.x. */
function stripPeers(version: string, major: number): string {
  const paren = version.indexOf('(');
  let v = paren >= 0 ? version.slice(0, paren) : version;
  if (major < 6) {
    const underscore = v.indexOf('_');
    if (underscore >= 0) v = v.slice(0, underscore);
  }
  return v;
}

/** name and version of a package key (dependency path), when the key has the registry form. */
export function parsePnpmKey(key: string, major: number): { name: string; version: string } | undefined {
  let k = key.startsWith('/') ? key.slice(1) : key;
  if (major < 6 || (!k.includes('@', 1) && k.includes('/'))) {
    // 5.x: `name/version` or `@scope/name/version`.
    const segs = k.split('/');
    const take = k.startsWith('@') ? 2 : 1;
    if (segs.length <= take) return undefined;
    const version = stripPeers(segs.slice(take).join('/'), major);
    return version && /^\d/.test(version) ? { name: segs.slice(0, take).join('/'), version } : undefined;
  }
  const paren = k.indexOf('(');
  if (paren >= 0) k = k.slice(0, paren);
  const at = k.indexOf('@', 1);
  if (at <= 0) return undefined;
  return { name: k.slice(0, at), version: k.slice(at + 1) };
}

/** The packages/snapshots key a dependency reference points to; undefined for workspace links. */
function keyOf(name: string, ref: string, major: number): string | undefined {
  if (ref.startsWith('link:')) return undefined;
  if (major >= 9) {
    const base = ref.split('(')[0];
    return base.indexOf('@', 1) > 0 && !base.includes(':') ? ref : `${name}@${ref}`;
  }
  if (ref.startsWith('/')) return ref;
  if (!/^\d/.test(ref) && ref.includes('/')) return ref;
  return major < 6 ? `/${name}/${ref}` : `/${name}@${ref}`;
}

/** Line spans of the 2-space-indented keys inside `packages:` and `snapshots:` (cheap scan). */
function entrySpans(text: string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  const lines = text.split('\n');
  let section = '';
  let current: [number, number] | undefined;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k].trimEnd();
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (line[0] !== ' ') { section = line; current = undefined; continue; }
    if (section !== 'packages:') { continue; }
    if (line.startsWith('  ') && line[2] !== ' ' && line.endsWith(':')) {
      let key = line.slice(2, -1);
      if (key.startsWith("'") && key.endsWith("'")) key = key.slice(1, -1).replace(/''/g, "'");
      else if (key.startsWith('"')) { try { key = JSON.parse(key) as string; } catch { /* keep raw */ } }
      current = [k + 1, k + 1];
      out.set(key, current);
    } else if (current) current[1] = k + 1;
  }
  return out;
}

async function extractPnpm(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const text = await lockText(file);
  const doc = parseYamlValues(text, file.path);
  if (doc === null || doc === undefined || (isObject(doc) && !Object.keys(doc).length)) return [];
  if (!isObject(doc)) throw new ExtractError(`${file.path} 不是有效的 pnpm-lock.yaml：顶层不是映射`);
  const major = Number.parseFloat(String(doc.lockfileVersion ?? ''));
  if (!Number.isFinite(major)) throw new ExtractError(`${file.path} 不是有效的 pnpm-lock.yaml：缺少 lockfileVersion`);
  if (major < 5) throw new ExtractError(`${file.path} 的 lockfileVersion ${String(doc.lockfileVersion)} 过旧，暂不支持（支持 5.x、6.x、9.x）`);
  ctx.signal.throwIfAborted();

  const dir = dirOf(file.path);
  const packages = isObject(doc.packages) ? doc.packages : {};
  const graph = major >= 9 ? (isObject(doc.snapshots) ? doc.snapshots : {}) : packages;
  const spans = entrySpans(text);
  const nodes = new Map<string, JsNode>();
  let hasDevFlags = false;
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(graph)) {
    const entry = isObject(raw) ? raw : {};
    const metaKey = major >= 9 ? key.split('(')[0] : key;
    const meta = major >= 9 && isObject(packages[metaKey]) ? (packages[metaKey] as Record<string, unknown>) : entry;
    const parsed = parsePnpmKey(key, major);
    const name = typeof meta.name === 'string' ? meta.name : parsed?.name;
    const version = typeof meta.version === 'string' || typeof meta.version === 'number' ? String(meta.version) : parsed?.version;
    const span = spans.get(metaKey);
    if (!name || !version) {
      // pnpm cannot install an entry whose key and fields name no package version: passed over, and told.
      problems.push(`${file.path}${span ? ` 第 ${span[0]} 行` : ''}：条目“${key}”读不出包名或版本，已跳过`);
      continue;
    }
    const node = newNode(key, name, version, span ? { file: file.path, startLine: span[0], endLine: span[1] } : { file: file.path });
    node.dev = entry.dev === true;
    if (typeof entry.dev === 'boolean') hasDevFlags = true;
    node.installedManifest = joinPath(dir, 'node_modules/.pnpm', `${name.replace('/', '+')}@${version}`, 'node_modules', name, 'package.json');
    for (const [dep, ref] of [...refsOf(entry.dependencies), ...refsOf(entry.optionalDependencies)]) {
      const k = keyOf(dep, ref, major);
      if (k) node.deps.push(k);
    }
    nodes.set(key, node);
  }

  const importers: Record<string, unknown>[] = isObject(doc.importers)
    ? Object.values(doc.importers).filter(isObject)
    : [doc];
  const runtimeRoots = new Set<string>();
  const devRoots = new Set<string>();
  for (const imp of importers) {
    for (const [n, ref] of [...refsOf(imp.dependencies), ...refsOf(imp.optionalDependencies)]) {
      const k = keyOf(n, ref, major);
      if (k) runtimeRoots.add(k);
    }
    for (const [n, ref] of refsOf(imp.devDependencies)) {
      const k = keyOf(n, ref, major);
      if (k) devRoots.add(k);
    }
  }
  for (const r of runtimeRoots) devRoots.delete(r);

  const manifest = await readManifest(ctx.readText, joinPath(dir, 'package.json'));
  await readInstalledLicenses(nodes.values(), ctx);
  const target = assemble(nodes, {
    file: file.path, type: 'pnpm', project: manifest?.name ? { name: manifest.name, version: manifest.version } : null,
    // Up to 6.x the lockfile flags dev-only packages; without any flag, reachability decides.
    runtimeRoots, devRoots, explicitDev: major < 9 && hasDevFlags,
  });
  return [problems.length ? { ...target, problems } : target];
}

const pnpmExtractor: Extractor = {
  name: 'pnpm',
  ecosystem: 'npm',
  reads: ['pnpm-lock.yaml'],
  matches: (path) => baseOf(path) === 'pnpm-lock.yaml' && !path.split('/').includes('node_modules'),
  extract: extractPnpm,
};

export const extractors: Extractor[] = [pnpmExtractor];
