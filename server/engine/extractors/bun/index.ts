// bun.lock, bun's text lockfile (JSON with trailing commas). `workspaces` holds the project's own
// declarations (root "" and each workspace folder); `packages` maps install paths (`a`, `a/b` for
// b nested under a) to `[name@version, registry, {dependencies...}, integrity]`. Dependencies
// resolve like Node: the nearest nesting level upwards. The binary bun.lockb is lockb.ts.
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { assemble, newNode, readInstalledLicenses } from '../js-common/graph.ts';
import type { JsNode } from '../js-common/graph.ts';
import { parseJsonValues } from '../common/json-positions.ts';
import { isObject, stringMap } from '../common/values.ts';
import { declared, manifestOf, readManifest } from '../js-common/manifest.ts';
import { baseOf, dirOf, joinPath } from '../js-common/paths.ts';
import { bunLockbExtractor } from './lockb.ts';

const LOCAL = /^(workspace|link|file|portal):/;

/** `@scope/a/b/@s/c` -> [`@scope/a`, `b`, `@s/c`] */
function segments(key: string): string[] {
  const parts = key.split('/');
  const out: string[] = [];
  for (let k = 0; k < parts.length; k++) out.push(parts[k].startsWith('@') && k + 1 < parts.length ? `${parts[k]}/${parts[++k]}` : parts[k]);
  return out;
}

/** The packages key `dep` resolves to from the package at `from` ('' = top level). */
function resolve(packages: Record<string, unknown>, from: string[], dep: string): string | undefined {
  for (let k = from.length; k >= 0; k--) {
    const cand = k ? `${from.slice(0, k).join('/')}/${dep}` : dep;
    if (cand in packages) return cand;
  }
  return undefined;
}

async function extractBun(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const { value, spans } = parseJsonValues(await file.text(), file.path, { jsonc: true });
  if (!isObject(value)) throw new ExtractError(`${file.path} 不是有效的 bun.lock：顶层不是对象`);
  if (value.packages !== undefined && !isObject(value.packages)) throw new ExtractError(`${file.path} 不是有效的 bun.lock：packages 不是对象`);
  const packages = isObject(value.packages) ? value.packages : {};
  const workspaces = isObject(value.workspaces) ? value.workspaces : {};
  ctx.signal.throwIfAborted();

  const nodes = new Map<string, JsNode>();
  const pending: Array<[JsNode, string[], string[]]> = [];
  const workspaceNames = new Map<string, string>();
  // bun passes over an entry it cannot read and installs the rest: so do we, and say which.
  const problems: string[] = [];
  const skip = (key: string, raw: unknown, what: string) => {
    const span = isObject(raw) || Array.isArray(raw) ? spans.get(raw) : undefined;
    problems.push(`${file.path}${span ? ` 第 ${span.startLine} 行` : ''}：packages 中的“${key}”${what}，已跳过`);
  };
  for (const [key, raw] of Object.entries(packages)) {
    if (!Array.isArray(raw) || typeof raw[0] !== 'string') { skip(key, raw, '格式不正确'); continue; }
    const ident = raw[0];
    const at = ident.indexOf('@', 1);
    if (at <= 0) { skip(key, raw, `的“${ident}”没有版本`); continue; }
    const name = ident.slice(0, at);
    let version = ident.slice(at + 1);
    if (version.startsWith('workspace:')) { workspaceNames.set(joinPath(version.slice(10)), name); continue; }
    if (LOCAL.test(version)) continue;
    if (version.startsWith('npm:')) version = version.slice(4);
    const span = spans.get(raw);
    const node = newNode(key, name, version, span ? { file: file.path, startLine: span.startLine, endLine: span.endLine } : { file: file.path });
    node.installedManifest = joinPath(dirOf(file.path), 'node_modules', ...segments(key).flatMap((s, k) => (k ? ['node_modules', s] : [s])), 'package.json');
    const meta = raw.find((x, k) => k > 0 && isObject(x)) as Record<string, unknown> | undefined;
    const deps = meta ? [...Object.keys(stringMap(meta.dependencies)), ...Object.keys(stringMap(meta.optionalDependencies)), ...Object.keys(stringMap(meta.peerDependencies))] : [];
    pending.push([node, segments(key), deps]);
    nodes.set(key, node);
  }
  for (const [node, from, deps] of pending) {
    for (const d of deps) {
      const t = resolve(packages, from, d);
      if (t && nodes.has(t) && t !== node.id) node.deps.push(t);
    }
  }

  const runtimeRoots = new Set<string>();
  const devRoots = new Set<string>();
  for (const [folder, ws] of Object.entries(workspaces)) {
    const m = manifestOf(ws);
    if (!m) continue;
    const wsName = m.name || workspaceNames.get(joinPath(folder)) || '';
    const from = folder && wsName ? [wsName] : [];
    const { runtime, dev } = declared(m);
    for (const [n] of runtime) { const t = resolve(packages, from, n); if (t && nodes.has(t)) runtimeRoots.add(t); }
    for (const [n] of dev) { const t = resolve(packages, from, n); if (t && nodes.has(t)) devRoots.add(t); }
  }
  for (const r of runtimeRoots) devRoots.delete(r);

  const rootWs = isObject(workspaces['']) ? workspaces[''] : {};
  let name = typeof rootWs.name === 'string' ? rootWs.name : '';
  let version = '';
  const manifest = await readManifest(ctx.readText, joinPath(dirOf(file.path), 'package.json'));
  if (manifest && (!name || manifest.name === name)) { name = manifest.name; version = manifest.version; }
  await readInstalledLicenses(nodes.values(), ctx);
  const target = assemble(nodes, { file: file.path, type: 'bun', project: name ? { name, version } : null, runtimeRoots, devRoots, explicitDev: false });
  return [problems.length ? { ...target, problems } : target];
}

const bunExtractor: Extractor = {
  name: 'bun',
  ecosystem: 'npm',
  reads: ['bun.lock'],
  matches: (path) => baseOf(path) === 'bun.lock' && !path.split('/').includes('node_modules'),
  extract: extractBun,
};

export const extractors: Extractor[] = [bunExtractor, bunLockbExtractor];
