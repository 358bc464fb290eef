// Conan lockfiles. v1 (`graph_lock.nodes`, lockfile version 0.4): every node has a `ref`
// (`name/version@user/channel#rrev:package_id#prev`) and `requires` / `build_requires` lists of
// node ids; node "0" (or the node with a `path`) is the consumer project. v2 (lockfile 0.5):
// flat `requires`, `build_requires` and `python_requires` lists of `name/version#rev%time`,
// without edges.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import type { JsonNode } from '../common/json-positions.ts';
import { member, parseJsonFile, str } from '../common/json-positions.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export interface ConanRef { name: string; version: string; user?: string; channel?: string }

/** `pkg/1.0@user/channel#rrev:pid#prev` -> name, version, user, channel; undefined when not a reference. */
export function parseConanRef(ref: string): ConanRef | undefined {
  const withoutRev = ref.split('#')[0]!.split('%')[0]!.trim();
  const [nameVersion, userChannel] = withoutRev.split('@') as [string, string | undefined];
  const parts = nameVersion.split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  const [user, channel] = userChannel ? userChannel.split('/') : [];
  return { name: parts[0], version: parts[1], user: user && user !== '_' ? user : undefined, channel: channel && channel !== '_' ? channel : undefined };
}

/** purl-spec conan: the user is the namespace and then the channel qualifier is required, so a
 * reference with a user but no channel is written without them. */
export function conanPurl(ref: ConanRef): string {
  const qualified = Boolean(ref.user && ref.channel);
  return purlOf('conan', {
    namespace: qualified ? ref.user : null,
    name: ref.name,
    version: ref.version,
    qualifiers: qualified ? { channel: ref.channel! } : null,
  });
}

/** A reference string → the reference and its purl; undefined when it is not one a purl can name. */
function resolveRef(text: string | undefined): { ref: ConanRef; purl: string } | undefined {
  const ref = text ? parseConanRef(text) : undefined;
  if (!ref) return undefined;
  try {
    return { ref, purl: conanPurl(ref) };
  } catch {
    return undefined;
  }
}

function idList(node: JsonNode | undefined): string[] {
  if (node?.kind !== 'array') return [];
  return node.items.flatMap((x) => (x.kind === 'string' ? [x.value] : x.kind === 'number' ? [String(x.value)] : []));
}

export function parseConanLock(text: string, file: string): Target {
  const root = parseJsonFile(text, file);
  if (root.kind !== 'object') throw new ExtractError(`${file} 不是 conan.lock 格式：顶层应为对象`);
  const nodes = member(member(root, 'graph_lock'), 'nodes');
  if (nodes) return parseV1(nodes, file);
  if (member(root, 'requires') || member(root, 'build_requires') || member(root, 'python_requires')) return parseV2(root, file);
  throw new ExtractError(`${file} 不是 conan.lock 格式：既没有 graph_lock.nodes，也没有 requires`);
}

function parseV1(nodes: JsonNode, file: string): Target {
  if (nodes.kind !== 'object') throw new ExtractError(`${file} 的 graph_lock.nodes 应为对象`);
  let rootId: string | undefined;
  for (const [id, node] of nodes.entries) if (member(node, 'path') && !rootId) rootId = id;
  if (!rootId && nodes.entries.has('0')) rootId = '0';

  const byId = new Map<string, Component>();
  let project: Target['project'] = null;
  // Conan passes over a node it cannot read: so do we, and list it with its line.
  const problems: string[] = [];
  for (const [id, node] of nodes.entries) {
    if (node.kind !== 'object') { problems.push(`${file} 第 ${node.startLine} 行：节点“${id}”不是对象，已跳过`); continue; }
    const refText = str(member(node, 'ref'));
    const resolved = resolveRef(refText);
    if (!resolved) {
      if (refText || id !== rootId) problems.push(`${file} 第 ${node.startLine} 行：节点“${id}”的 ref“${refText}”不是“名称/版本”形式，已跳过`);
      continue;
    }
    const { ref, purl } = resolved;
    if (id === rootId) {
      project = { purl, name: ref.name, version: ref.version };
      continue;
    }
    byId.set(id, {
      purl, ecosystem: 'conan', name: ref.name, version: ref.version, direct: false,
      scope: str(member(node, 'context')) === 'build' ? 'development' : 'runtime',
      locations: [{ file, startLine: node.startLine, endLine: node.endLine }],
      licenses: [], dependsOn: [],
    });
  }

  const rootNode = rootId ? nodes.entries.get(rootId) : undefined;
  const rootRuntime = idList(member(rootNode, 'requires'));
  const rootBuild = idList(member(rootNode, 'build_requires'));
  for (const id of rootRuntime) { const c = byId.get(id); if (c) c.direct = true; }
  for (const id of rootBuild) { const c = byId.get(id); if (c) { c.direct = true; c.scope = 'development'; } }

  for (const [id, node] of nodes.entries) {
    const c = byId.get(id);
    if (!c) continue;
    const deps = [...idList(member(node, 'requires')), ...idList(member(node, 'build_requires'))];
    c.dependsOn = [...new Set(deps.flatMap((d) => (byId.has(d) ? [byId.get(d)!.purl] : [])))].filter((p) => p !== c.purl);
  }

  // Anything reachable from the project's runtime requirements is runtime, whatever its context.
  const runtime = new Set<string>();
  const stack = rootRuntime.filter((id) => byId.has(id));
  while (stack.length) {
    const id = stack.pop()!;
    if (runtime.has(id)) continue;
    runtime.add(id);
    for (const d of idList(member(nodes.entries.get(id), 'requires'))) if (byId.has(d) && !runtime.has(d)) stack.push(d);
  }
  if (rootId) {
    for (const [id, c] of byId) if (!runtime.has(id) && (rootBuild.length || c.scope === 'development')) c.scope = 'development';
    for (const id of runtime) byId.get(id)!.scope = 'runtime';
  }

  const components = dedupe([...byId.values()]);
  const roots = [...new Set([...rootRuntime, ...rootBuild].flatMap((id) => (byId.has(id) ? [byId.get(id)!.purl] : [])))];
  return { file, type: 'conan', ecosystem: 'conan', project, roots, components, ...(problems.length ? { problems } : {}) };
}

function parseV2(root: JsonNode, file: string): Target {
  const components: Component[] = [];
  const problems: string[] = [];
  const lists: Array<[string, Component['scope']]> = [['requires', 'runtime'], ['build_requires', 'development'], ['python_requires', 'development']];
  for (const [key, scope] of lists) {
    const list = member(root, key);
    if (!list) continue;
    if (list.kind !== 'array') { problems.push(`${file} 第 ${list.startLine} 行：${key} 不是数组，已跳过`); continue; }
    for (const item of list.items) {
      const resolved = item.kind === 'string' ? resolveRef(item.value) : undefined;
      if (!resolved) {
        problems.push(`${file} 第 ${item.startLine} 行：${key} 中的条目${item.kind === 'string' ? `“${item.value}”` : ''}不是“名称/版本”形式，已跳过`);
        continue;
      }
      const { ref, purl } = resolved;
      components.push({
        purl, ecosystem: 'conan', name: ref.name, version: ref.version, direct: false, scope,
        locations: [{ file, startLine: item.startLine, endLine: item.endLine }], licenses: [], dependsOn: [],
      });
    }
  }
  return { file, type: 'conan', ecosystem: 'conan', project: null, roots: [], components: dedupe(components), ...(problems.length ? { problems } : {}) };
}

/** One component per purl; a runtime occurrence wins over a development one. */
function dedupe(list: Component[]): Component[] {
  const out = new Map<string, Component>();
  for (const c of list) {
    const seen = out.get(c.purl);
    if (!seen) { out.set(c.purl, c); continue; }
    if (c.scope === 'runtime') seen.scope = 'runtime';
    seen.direct ||= c.direct;
    seen.locations.push(...c.locations);
    seen.dependsOn = [...new Set([...seen.dependsOn, ...c.dependsOn])];
  }
  return [...out.values()];
}

export const conanExtractor: Extractor = {
  name: 'conan',
  ecosystem: 'conan',
  reads: ['conan.lock'],
  matches: (p) => baseName(p) === 'conan.lock',
  async extract(file: InputFile) {
    return [parseConanLock(await file.text(), file.path)];
  },
};
