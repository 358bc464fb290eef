// Maven pom.xml resolved the way Maven resolves it, through the configured Maven-layout
// repositories (`<repo>/<group as path>/<artifact>/<version>/<artifact>-<version>.pom`):
// - the project's own model from the scanned tree (parents by <relativePath> when they are there,
//   else fetched), each fetched pom's model with its parents fetched, properties interpolated
//   (${project.*}, ${pom.*}, ${project.parent.*}, custom and inherited), dependencyManagement
//   inherited and BOM imports (scope import, type pom) merged, the importing pom's own entries first;
// - the dependency graph breadth first, nearest wins (the first version met at the smallest depth,
//   declaration order within a depth), the project's dependencyManagement pinning the version and
//   scope of transitive dependencies, scopes propagated as Maven's table does (compile/runtime kept,
//   test and provided dependencies' dependencies staying test/provided, test/provided of a
//   dependency dropped), optional dependencies of dependencies skipped, exclusions (with `*`)
//   applied down their branch, version ranges read from maven-metadata.xml;
// - test and provided are Cairn's development scope, the rest runtime.
import type { Component, Scope, Target } from '../model.ts';
import { mavenPurl } from '../purl.ts';
import { childEl, childEls, childText, decodeXmlBytes, parseXml, type XmlElement } from '../extractors/common/xml.ts';
import { mavenScheme } from '../matchers/versions/maven.ts';
import { FetchError, joinUrl, repositoryLabel, type RepoClient, type Repository } from './http.ts';
import { onlineEvidence, type TargetResolution } from './model.ts';

interface Dep {
  groupId: string; artifactId: string; version: string; scope: string; type: string; classifier: string; optional: boolean;
  exclusions: string[];
}

interface RawPom {
  groupId: string; artifactId: string; version: string; packaging: string;
  parent?: { groupId: string; artifactId: string; version: string; relativePath?: string };
  props: Map<string, string>;
  deps: Dep[];
  managed: Dep[];
  licenses: string[];
}

/** A pom with its parents folded in and everything interpolated. */
interface Model {
  groupId: string; artifactId: string; version: string;
  deps: Dep[];
  /** g:a -> managed entry (version, scope, exclusions). */
  managed: Map<string, Dep>;
  licenses: string[];
}

const MAX_PARENTS = 32;
/** Where a module of the scanned project itself comes from (not a repository). */
const LOCAL: Repository = { url: '', name: '本项目模块' };
const ga = (d: { groupId: string; artifactId: string }) => `${d.groupId}:${d.artifactId}`;

function readDep(el: XmlElement): Dep {
  return {
    groupId: childText(el, 'groupId') ?? '',
    artifactId: childText(el, 'artifactId') ?? '',
    version: childText(el, 'version') ?? '',
    scope: childText(el, 'scope') ?? '',
    type: childText(el, 'type') ?? '',
    classifier: childText(el, 'classifier') ?? '',
    optional: (childText(el, 'optional') ?? '') === 'true',
    exclusions: childEls(childEl(el, 'exclusions'), 'exclusion').map((x) => `${childText(x, 'groupId') ?? '*'}:${childText(x, 'artifactId') ?? '*'}`),
  };
}

function parseRawPom(text: string, file: string): RawPom {
  const root = parseXml(text, file);
  if (root.name !== 'project') throw new Error(`${file} 不是 Maven POM`);
  const props = new Map<string, string>();
  const readProps = (el: XmlElement | undefined) => { for (const p of childEl(el, 'properties')?.children ?? []) props.set(p.name, p.text.trim()); };
  readProps(root);
  const deps = childEls(childEl(root, 'dependencies'), 'dependency').map(readDep);
  const managed = childEls(childEl(childEl(root, 'dependencyManagement'), 'dependencies'), 'dependency').map(readDep);
  for (const profile of childEls(childEl(root, 'profiles'), 'profile')) {
    if (childText(childEl(profile, 'activation'), 'activeByDefault') !== 'true') continue;
    readProps(profile);
    deps.push(...childEls(childEl(profile, 'dependencies'), 'dependency').map(readDep));
    managed.push(...childEls(childEl(childEl(profile, 'dependencyManagement'), 'dependencies'), 'dependency').map(readDep));
  }
  const parentEl = childEl(root, 'parent');
  const rel = childEl(parentEl, 'relativePath');
  return {
    groupId: childText(root, 'groupId') ?? '',
    artifactId: childText(root, 'artifactId') ?? '',
    version: childText(root, 'version') ?? '',
    packaging: childText(root, 'packaging') ?? 'jar',
    parent: parentEl && {
      groupId: childText(parentEl, 'groupId') ?? '', artifactId: childText(parentEl, 'artifactId') ?? '', version: childText(parentEl, 'version') ?? '',
      relativePath: rel ? rel.text.trim() : undefined,
    },
    props,
    deps,
    managed,
    licenses: childEls(childEl(root, 'licenses'), 'license').map((l) => childText(l, 'name') ?? '').filter(Boolean),
  };
}

function interpolate(text: string, lookup: (key: string) => string | undefined): string {
  let out = text;
  for (let pass = 0; pass < 10 && out.includes('${'); pass++) {
    const next = out.replace(/\$\{([^}]+)\}/g, (whole, key: string) => lookup(key) ?? whole);
    if (next === out) break;
    out = next;
  }
  return out;
}

/** A version a dependency pins, or the range it declares. */
function versionRequest(v: string): { exact: string } | { range: string } | undefined {
  const s = v.trim();
  if (!s || s.includes('${')) return undefined;
  if (/^[[(]/.test(s)) {
    const pinned = /^\[\s*([^,[\]()]+?)\s*\]$/.exec(s);
    return pinned ? { exact: pinned[1]! } : { range: s };
  }
  return { exact: s };
}

export interface MavenSource {
  /** The project's own pom and the poms beside it in the scanned tree (root-relative path -> text). */
  readTree(path: string): Promise<string | undefined>;
}

/** Maven's scope of a dependency reached through a dependency of scope `parent`; null when it is not reached. */
function transitiveScope(parent: string, child: string): string | null {
  if (child === 'test' || child === 'provided' || child === 'system' || child === 'import') return null;
  if (parent === 'compile') return child === 'runtime' ? 'runtime' : 'compile';
  if (parent === 'runtime') return 'runtime';
  return parent; // provided, test
}

const cairnScope = (scope: string): Scope => (scope === 'test' || scope === 'provided' ? 'development' : 'runtime');

function excluded(exclusions: Set<string>, d: { groupId: string; artifactId: string }): boolean {
  for (const x of exclusions) {
    const [g, a] = x.split(':');
    if ((g === '*' || g === d.groupId) && (a === '*' || a === d.artifactId)) return true;
  }
  return false;
}

export class MavenResolver {
  private readonly raw = new Map<string, Promise<{ pom: RawPom; repo: Repository } | undefined>>();
  private readonly models = new Map<string, Promise<Model>>();
  private readonly metadata = new Map<string, Promise<string[]>>();

  private readonly client: RepoClient;
  private readonly repos: Repository[];

  /** The poms of the scanned tree's own modules (reactor), by `g:a:v`: read there, never fetched. */
  private readonly local: (key: string) => Promise<string | undefined>;

  constructor(client: RepoClient, repos: Repository[], local: (key: string) => Promise<string | undefined> = async () => undefined) {
    this.client = client;
    this.repos = repos;
    this.local = local;
  }

  private repoList(): string {
    return this.repos.map(repositoryLabel).join('、');
  }

  /** The pom of g:a:v from the first repository that has it; throws FetchError when none has it. */
  private fetchPom(g: string, a: string, v: string): Promise<{ pom: RawPom; repo: Repository } | undefined> {
    const key = `${g}:${a}:${v}`;
    let hit = this.raw.get(key);
    if (!hit) {
      hit = (async () => {
        const rel = `${g.replace(/\./g, '/')}/${a}/${v}/${a}-${v}.pom`;
        const failures: string[] = [];
        // A module of the project itself: its pom in the tree (the repository need not have it).
        const own = await this.local(key);
        if (own !== undefined) {
          try {
            return { pom: parseRawPom(own, `${key}.pom`), repo: LOCAL };
          } catch { /* unreadable here: try the repositories */ }
        }
        for (const repo of this.repos) {
          try {
            const text = await this.client.text(repo, joinUrl(repo.url, rel));
            if (text === undefined) continue;
            return { pom: parseRawPom(decodeXmlBytes(Buffer.from(text)), `${key}.pom`), repo };
          } catch (error) {
            if (!(error instanceof FetchError)) throw new FetchError(`${repositoryLabel(repo)} 上的 ${key} 的 POM 无法读取：${(error as Error).message}`);
            failures.push(`${repositoryLabel(repo)}：${error.message}`);
          }
        }
        if (failures.length) throw new FetchError(`无法获取 ${key} 的 POM（${failures.join('；')}）`);
        return undefined;
      })();
      this.raw.set(key, hit);
    }
    return hit;
  }

  async requirePom(g: string, a: string, v: string): Promise<{ pom: RawPom; repo: Repository }> {
    const found = await this.fetchPom(g, a, v);
    if (!found) throw new FetchError(`在仓库 ${this.repoList()} 中找不到 ${g}:${a}:${v} 的 POM`);
    return found;
  }

  /** The versions maven-metadata.xml lists for g:a, across the repositories. */
  private versions(g: string, a: string): Promise<string[]> {
    const key = `${g}:${a}`;
    let hit = this.metadata.get(key);
    if (!hit) {
      hit = (async () => {
        const all = new Set<string>();
        for (const repo of this.repos) {
          const text = await this.client.text(repo, joinUrl(repo.url, `${g.replace(/\./g, '/')}/${a}/maven-metadata.xml`)).catch(() => undefined);
          if (!text) continue;
          try {
            const root = parseXml(text, `${key}/maven-metadata.xml`);
            for (const v of childEls(childEl(childEl(root, 'versioning'), 'versions'), 'version')) all.add(v.text.trim());
          } catch { /* a broken metadata file lists nothing */ }
        }
        return [...all];
      })();
      this.metadata.set(key, hit);
    }
    return hit;
  }

  /** The highest version the repositories list inside a Maven range. */
  async pickRange(g: string, a: string, range: string): Promise<string> {
    let test: (v: string) => boolean;
    try {
      test = mavenScheme.constraint(range);
    } catch {
      throw new FetchError(`${g}:${a} 的版本范围 ${range} 无法解析`);
    }
    const fitting = (await this.versions(g, a)).filter((v) => !/SNAPSHOT$/i.test(v) && test(v)).sort(mavenScheme.compare);
    const best = fitting.at(-1);
    if (!best) throw new FetchError(`在仓库 ${this.repoList()} 中没有 ${g}:${a} 符合 ${range} 的版本`);
    return best;
  }

  /** Folds parents in, interpolates, merges BOM imports. `start` is the pom itself (read from the tree or fetched). */
  async modelOf(start: RawPom, parentOf: (p: NonNullable<RawPom['parent']>) => Promise<RawPom>, chain = new Set<string>()): Promise<Model> {
    const lineage: RawPom[] = [start];
    let current = start;
    while (current.parent && lineage.length < MAX_PARENTS) {
      const key = `${current.parent.groupId}:${current.parent.artifactId}:${current.parent.version}`;
      if (chain.has(key)) break;
      chain.add(key);
      current = await parentOf(current.parent);
      lineage.push(current);
    }
    // Eldest first: children override.
    const props = new Map<string, string>();
    const deps = new Map<string, Dep>();
    const managedList: Dep[] = [];
    let groupId = '';
    let version = '';
    let licenses: string[] = [];
    for (const pom of [...lineage].reverse()) {
      for (const [k, v] of pom.props) props.set(k, v);
      for (const d of pom.deps) deps.set(`${ga(d)}:${d.type}:${d.classifier}`, d);
      managedList.unshift(...pom.managed);
      groupId = pom.groupId || pom.parent?.groupId || groupId;
      version = pom.version || pom.parent?.version || version;
      if (pom.licenses.length) licenses = pom.licenses;
    }
    const artifactId = start.artifactId;
    const parent = start.parent;
    const lookup = (key: string): string | undefined => {
      const k = key.replace(/^pom\./, 'project.');
      if (k === 'project.groupId' || k === 'groupId') return groupId;
      if (k === 'project.artifactId' || k === 'artifactId') return artifactId;
      if (k === 'project.version' || k === 'version') return version;
      if (k === 'project.parent.groupId' || k === 'parent.groupId') return parent?.groupId;
      if (k === 'project.parent.version' || k === 'parent.version') return parent?.version;
      if (k === 'project.parent.artifactId') return parent?.artifactId;
      return props.get(key);
    };
    const interp = (s: string) => interpolate(s, lookup);
    const fix = (d: Dep): Dep => ({ ...d, groupId: interp(d.groupId), artifactId: interp(d.artifactId), version: interp(d.version), scope: interp(d.scope), type: interp(d.type), classifier: interp(d.classifier), exclusions: d.exclusions.map(interp) });
    const managed = new Map<string, Dep>();
    const imports: Dep[] = [];
    for (const d of managedList.map(fix)) {
      if (d.scope === 'import' && (d.type === 'pom')) { imports.push(d); continue; }
      if (!managed.has(ga(d))) managed.set(ga(d), d);
    }
    for (const bom of imports) {
      const key = `${ga(bom)}:${bom.version}`;
      if (chain.has(`bom:${key}`)) continue;
      const want = versionRequest(bom.version);
      if (!want) throw new FetchError(`BOM ${ga(bom)} 的版本 ${bom.version} 无法确定`);
      const v = 'exact' in want ? want.exact : await this.pickRange(bom.groupId, bom.artifactId, want.range);
      const imported = await this.remoteModel(bom.groupId, bom.artifactId, v, new Set([...chain, `bom:${key}`]));
      for (const [k, d] of imported.managed) if (!managed.has(k)) managed.set(k, d);
    }
    return { groupId: interp(groupId), artifactId: interp(artifactId), version: interp(version), deps: [...deps.values()].map(fix), managed, licenses };
  }

  /** The effective model of a published artefact. */
  remoteModel(g: string, a: string, v: string, chain = new Set<string>()): Promise<Model> {
    const key = `${g}:${a}:${v}`;
    let hit = this.models.get(key);
    if (!hit) {
      hit = (async () => {
        const { pom } = await this.requirePom(g, a, v);
        return this.modelOf(pom, async (p) => (await this.requirePom(p.groupId, p.artifactId, p.version)).pom, new Set([...chain, key]));
      })();
      this.models.set(key, hit);
    }
    return hit;
  }

  /** Which repository served g:a:v (after remoteModel succeeded). */
  async sourceOf(g: string, a: string, v: string): Promise<Repository | undefined> {
    return (await this.fetchPom(g, a, v).catch(() => undefined))?.repo;
  }
}

export interface MavenRequest {
  target: Target;
  /** The project's pom as read from the tree, and the tree to find its local parents in. */
  pomText: string;
  source: MavenSource;
  maxPackages: number;
  maxDepth: number;
  signal: AbortSignal;
}

function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

function normalise(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

export async function resolveMaven(resolver: MavenResolver, request: MavenRequest): Promise<TargetResolution> {
  const { target, source, signal } = request;
  const problems: string[] = [];
  const root = parseRawPom(request.pomText, target.file);
  // Parents: in the tree at <relativePath> (default ../pom.xml) when the coordinates match, else from the repositories.
  let localFile = target.file;
  const parentOf = async (p: NonNullable<RawPom['parent']>): Promise<RawPom> => {
    if (localFile) {
      const rel = p.relativePath === undefined ? '../pom.xml' : p.relativePath;
      if (rel) {
        const candidate = normalise(`${dirOf(localFile)}/${rel.endsWith('.xml') ? rel : `${rel}/pom.xml`}`);
        const text = await source.readTree(candidate).catch(() => undefined);
        if (text) {
          try {
            const pom = parseRawPom(text, candidate);
            const g = pom.groupId || pom.parent?.groupId;
            const v = pom.version || pom.parent?.version;
            if (pom.artifactId === p.artifactId && g === p.groupId && v === p.version) {
              localFile = candidate;
              return pom;
            }
          } catch { /* not this one */ }
        }
      }
    }
    localFile = '';
    const fetched = await resolver.requirePom(p.groupId, p.artifactId, p.version);
    return fetched.pom;
  };
  let model: Model;
  try {
    model = await resolver.modelOf(root, parentOf);
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    return { components: target.components, roots: target.roots, problems: [`无法确定项目的有效 POM，未在线解析依赖（${error.message}）`], resolved: 0 };
  }
  const rootManaged = model.managed;
  const components = new Map<string, Component>();
  const chosen = new Map<string, string>(); // g:a -> purl, nearest wins
  const roots: string[] = [];
  interface Node { dep: Dep; version: string; scope: string; exclusions: Set<string>; depth: number; parent?: string; direct: boolean }
  let level: Node[] = [];
  // The project's own dependencies: versions and scopes from its dependencyManagement when it gives none.
  for (const d of model.deps) {
    if (d.scope === 'import' || d.type === 'pom' && d.scope === 'import') continue;
    const m = rootManaged.get(ga(d));
    const scope = d.scope || m?.scope || 'compile';
    const versionText = d.version || m?.version || '';
    const exclusions = new Set([...d.exclusions, ...(m?.exclusions ?? [])]);
    level.push({ dep: d, version: versionText, scope, exclusions, depth: 1, direct: true });
  }
  let count = 0;
  let capped = false;
  const failed = new Set<string>();
  while (level.length) {
    signal.throwIfAborted();
    const next: Node[] = [];
    // Versions first (ranges need metadata), in parallel; then nearest-wins in declaration order.
    const versions = await Promise.all(level.map(async (n) => {
      const want = versionRequest(n.version);
      if (!want) return { error: `${ga(n.dep)} 未声明版本，且没有依赖管理为其指定版本` };
      if ('exact' in want) return { version: want.exact };
      try {
        return { version: await resolver.pickRange(n.dep.groupId, n.dep.artifactId, want.range), range: want.range };
      } catch (error) {
        if (error instanceof FetchError) return { error: error.message };
        throw error;
      }
    }));
    const expand: Array<{ node: Node; purl: string; version: string }> = [];
    level.forEach((n, i) => {
      const key = ga(n.dep);
      const v = versions[i]!;
      const existing = chosen.get(key);
      if (existing) {
        const c = components.get(existing)!;
        if (n.parent) { const p = components.get(n.parent); if (p && !p.dependsOn.includes(existing) && existing !== n.parent) p.dependsOn.push(existing); }
        if (cairnScope(n.scope) === 'runtime' && c.scope !== 'runtime' && n.direct) c.scope = 'runtime';
        return;
      }
      if ('error' in v) {
        if (!failed.has(key)) { failed.add(key); problems.push(`无法在线解析 ${key}：${v.error}`); }
        return;
      }
      if (count >= request.maxPackages) { capped = true; return; }
      count++;
      const purl = mavenPurl(n.dep.groupId, n.dep.artifactId, v.version);
      chosen.set(key, purl);
      components.set(purl, {
        purl, ecosystem: 'maven', name: key, version: v.version, direct: n.direct, scope: cairnScope(n.scope),
        locations: [{ file: target.file }], licenses: [], dependsOn: [],
        ...('range' in v && v.range ? { constraint: v.range } : {}),
      });
      if (n.direct) roots.push(purl);
      if (n.parent) { const p = components.get(n.parent); if (p && !p.dependsOn.includes(purl)) p.dependsOn.push(purl); }
      if (n.dep.type === 'pom' || n.scope === 'system') return;
      expand.push({ node: n, purl, version: v.version });
    });
    const models = await Promise.all(expand.map(async ({ node, version }) => {
      try {
        return await resolver.remoteModel(node.dep.groupId, node.dep.artifactId, version);
      } catch (error) {
        if (error instanceof FetchError) return error;
        throw error;
      }
    }));
    for (let i = 0; i < expand.length; i++) {
      const { node, purl, version } = expand[i]!;
      const m = models[i]!;
      const component = components.get(purl)!;
      if (m instanceof FetchError) {
        problems.push(`无法在线解析 ${ga(node.dep)}:${version} 的依赖：${m.message}`);
        continue;
      }
      component.licenses = m.licenses;
      const repo = await resolver.sourceOf(node.dep.groupId, node.dep.artifactId, version);
      if (repo && repo !== LOCAL) component.evidence = [onlineEvidence(target.file, repo)];
      if (node.depth >= request.maxDepth) continue;
      for (const child of m.deps) {
        if (child.optional) continue;
        if (excluded(node.exclusions, child)) continue;
        const pin = rootManaged.get(ga(child));
        const childScope = transitiveScope(node.scope, child.scope || m.managed.get(ga(child))?.scope || 'compile');
        if (!childScope) continue;
        // The project's dependencyManagement wins over the dependency's own version and scope.
        const scope = pin?.scope && pin.scope !== 'import' ? (transitiveScope(node.scope, pin.scope) ?? childScope) : childScope;
        const versionText = pin?.version || child.version || m.managed.get(ga(child))?.version || '';
        const exclusions = new Set([...node.exclusions, ...child.exclusions, ...(pin?.exclusions ?? [])]);
        next.push({ dep: child, version: versionText, scope, exclusions, depth: node.depth + 1, parent: purl, direct: false });
      }
    }
    level = next;
  }
  if (capped) problems.push(`在线解析的组件超过上限 ${request.maxPackages} 个，其余依赖未解析`);
  // Direct components the extractor found that resolution could not (kept as declared).
  for (const c of target.components) if (c.direct && !chosen.has(c.name)) { components.set(c.purl, c); if (!roots.includes(c.purl)) roots.push(c.purl); }
  return { components: [...components.values()], roots, problems, resolved: components.size };
}
