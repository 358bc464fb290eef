// yarn.lock: the classic v1 format (our own parser, classic.ts) and yarn berry (2+: YAML with
// `__metadata`, `npm:`/`patch:`/`workspace:` protocols). Entries are keyed by the `name@range`
// patterns that resolve to them, so dependency ranges find their entry directly. Direct and dev
// come from the project's package.json files (root and workspaces): what the runtime declarations
// reach is runtime, the rest development.
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { assemble, newNode, readInstalledLicenses } from '../js-common/graph.ts';
import type { JsNode } from '../js-common/graph.ts';
import { isObject, stringMap } from '../common/values.ts';
import { parseYamlValues } from '../common/yaml-lines.ts';
import { declared, readManifest } from '../js-common/manifest.ts';
import type { Manifest } from '../js-common/manifest.ts';
import { baseOf, dirOf, joinPath, mapLimit } from '../js-common/paths.ts';
import { expandWorkspaces } from '../js-common/workspaces.ts';
import { lockText } from '../js-common/lock-text.ts';
import { parseClassic, patternName } from './classic.ts';
import type { ClassicObject } from './classic.ts';

/** Protocols whose entries are the project's own packages, not third-party components. */
const LOCAL = /^(workspace|link|portal|file):/;

interface Parsed {
  nodes: Map<string, JsNode>;
  /** pattern (`name@range`) -> node id */
  byPattern: Map<string, string>;
  /** Berry workspace entries: folder -> declared dependency patterns. */
  workspaces: Map<string, Array<[string, string]>>;
  berry: boolean;
}

const rangeOf = (pattern: string) => pattern.slice(patternName(pattern).length + 1);

function lookup(byPattern: Map<string, string>, name: string, range: string): string | undefined {
  return byPattern.get(`${name}@${range}`) ?? byPattern.get(`${name}@npm:${range}`);
}

function fromClassic(text: string, file: string, problems: string[]): Parsed {
  const nodes = new Map<string, JsNode>();
  const byPattern = new Map<string, string>();
  const pendingDeps = new Map<string, Array<[string, string]>>();
  for (const e of parseClassic(text, file, problems)) {
    const version = typeof e.fields.version === 'string' ? e.fields.version : '';
    const first = e.patterns[0];
    if (LOCAL.test(rangeOf(first))) continue;
    if (!version) {
      problems.push(`${file} 第 ${e.startLine} 行：条目“${e.patterns.join(', ')}”没有 version，已跳过`);
      continue;
    }
    let name = patternName(first);
    const range = rangeOf(first);
    if (range.startsWith('npm:')) name = patternName(range.slice(4));
    const id = `${name}@${version}#${e.startLine}`;
    nodes.set(id, newNode(id, name, version, { file, startLine: e.startLine, endLine: e.endLine }));
    for (const p of e.patterns) byPattern.set(p, id);
    const deps: Array<[string, string]> = [];
    for (const key of ['dependencies', 'optionalDependencies']) {
      const d = e.fields[key];
      if (typeof d === 'object') for (const [n, r] of Object.entries(d as ClassicObject)) if (typeof r === 'string') deps.push([n, r]);
    }
    pendingDeps.set(id, deps);
  }
  for (const [id, deps] of pendingDeps) {
    const node = nodes.get(id)!;
    for (const [n, r] of deps) { const t = lookup(byPattern, n, r); if (t) node.deps.push(t); }
  }
  return { nodes, byPattern, workspaces: new Map(), berry: false };
}

/** Line spans of the top-level keys of a berry lockfile (cheap scan, no YAML AST). */
function topLevelSpans(text: string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  const lines = text.split('\n');
  let current: [number, number] | undefined;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    if (!line.trim() || line.startsWith('#')) continue;
    if (line[0] !== ' ' && line.trimEnd().endsWith(':')) {
      let key = line.trimEnd().slice(0, -1);
      if (key.startsWith('"')) { try { key = JSON.parse(key) as string; } catch { /* keep raw */ } }
      current = [k + 1, k + 1];
      out.set(key, current);
    } else if (current) current[1] = k + 1;
  }
  return out;
}

function fromBerry(text: string, file: string, problems: string[]): Parsed {
  const doc = parseYamlValues(text, file);
  if (!isObject(doc)) throw new ExtractError(`${file} 不是有效的 yarn.lock：顶层不是映射`);
  const spans = topLevelSpans(text);
  const nodes = new Map<string, JsNode>();
  const byPattern = new Map<string, string>();
  const workspaces = new Map<string, Array<[string, string]>>();
  const pendingDeps = new Map<string, Array<[string, string]>>();
  const where = (key: string) => { const span = spans.get(key); return span ? ` 第 ${span[0]} 行` : ''; };
  for (const [key, raw] of Object.entries(doc)) {
    if (key === '__metadata') continue;
    if (!isObject(raw)) {
      problems.push(`${file}${where(key)}：条目“${key}”不是映射，已跳过`);
      continue;
    }
    const patterns = key.split(',').map((p) => p.trim()).filter(Boolean);
    const resolution = typeof raw.resolution === 'string' ? raw.resolution : patterns[0];
    const version = raw.version === undefined || raw.version === null ? '' : String(raw.version);
    const name = patternName(resolution);
    const protocol = rangeOf(resolution);
    const deps: Array<[string, string]> = [
      ...Object.entries(stringMap(raw.dependencies)),
      ...Object.entries(stringMap(raw.optionalDependencies)),
    ];
    if (protocol.startsWith('workspace:')) {
      workspaces.set(joinPath(protocol.slice('workspace:'.length)), deps);
      continue;
    }
    if (LOCAL.test(protocol)) continue;
    if (!version) {
      problems.push(`${file}${where(key)}：条目“${key}”没有 version，已跳过`);
      continue;
    }
    const span = spans.get(key);
    const id = `${name}@${version}#${key}`;
    nodes.set(id, newNode(id, name, version, span ? { file, startLine: span[0], endLine: span[1] } : { file }));
    for (const p of patterns) byPattern.set(p, id);
    pendingDeps.set(id, deps);
  }
  for (const [id, deps] of pendingDeps) {
    const node = nodes.get(id)!;
    for (const [n, r] of deps) { const t = lookup(byPattern, n, r); if (t) node.deps.push(t); }
  }
  return { nodes, byPattern, workspaces, berry: true };
}

const isBerry = (text: string) => /^__metadata:/m.test(text);

async function extractYarn(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const text = await lockText(file);
  const problems: string[] = [];
  const parsed = isBerry(text) ? fromBerry(text, file.path, problems) : fromClassic(text, file.path, problems);
  ctx.signal.throwIfAborted();
  const dir = dirOf(file.path);
  const root = await readManifest(ctx.readText, joinPath(dir, 'package.json'));

  // The project's own packages: the root, its workspaces (package.json globs, or berry's
  // workspace entries) — their declarations are the direct dependencies.
  const folders = new Set<string>(parsed.workspaces.keys());
  if (root?.workspaces.length) for (const w of await expandWorkspaces(ctx, dir, root.workspaces)) folders.add(w);
  folders.delete('');
  const manifests: Manifest[] = root ? [root] : [];
  const undeclared: Array<Array<[string, string]>> = [];
  const folderList = [...folders];
  const read = await mapLimit(folderList, 16, (f) => readManifest(ctx.readText, joinPath(dir, f, 'package.json')));
  folderList.forEach((f, k) => {
    const m = read[k];
    if (m) manifests.push(m);
    else if (parsed.workspaces.has(f)) undeclared.push(parsed.workspaces.get(f)!);
  });
  if (!root && parsed.workspaces.has('')) undeclared.push(parsed.workspaces.get('')!);

  const runtimeRoots = new Set<string>();
  const devRoots = new Set<string>();
  for (const m of manifests) {
    const { runtime, dev } = declared(m);
    for (const [n, r] of runtime) { const t = lookup(parsed.byPattern, n, r); if (t) runtimeRoots.add(t); }
    for (const [n, r] of dev) { const t = lookup(parsed.byPattern, n, r); if (t) devRoots.add(t); }
  }
  for (const deps of undeclared) for (const [n, r] of deps) { const t = lookup(parsed.byPattern, n, r); if (t) runtimeRoots.add(t); }
  for (const r of runtimeRoots) devRoots.delete(r);

  for (const n of parsed.nodes.values()) n.installedManifest = joinPath(dir, 'node_modules', n.name, 'package.json');
  await readInstalledLicenses(parsed.nodes.values(), ctx);
  const target = assemble(parsed.nodes, {
    file: file.path, type: 'yarn', project: root?.name ? { name: root.name, version: root.version } : null,
    runtimeRoots, devRoots, explicitDev: false,
  });
  return [problems.length ? { ...target, problems } : target];
}

const yarnExtractor: Extractor = {
  name: 'yarn',
  ecosystem: 'npm',
  reads: ['yarn.lock'],
  matches: (path) => baseOf(path) === 'yarn.lock' && !path.split('/').includes('node_modules'),
  extract: extractYarn,
};

export const extractors: Extractor[] = [yarnExtractor];
