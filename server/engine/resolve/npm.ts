// package.json without a lockfile resolved as npm installs it, through the configured registries:
// each package's packument (the abbreviated form npm itself asks for), the version a range selects
// the way npm picks it (the `latest` tag when it satisfies the range, else the highest satisfying
// version, pre-releases only when the range names one), dist-tags as ranges, `npm:` aliases;
// dependencies, optionalDependencies and peerDependencies (npm 7+ installs peers; optional peers
// skipped) breadth first, a version already chosen for the package reused when it satisfies the
// range (npm's dedupe), a second version added only when none does. An optional dependency npm
// could not install, or one for another platform (`os`/`cpu` against Linux x64), is left out
// without a problem, as npm does. Components reachable from the runtime dependencies are runtime,
// the rest (devDependencies' trees) development.
import type { Component, Target } from '../model.ts';
import { npmPurl } from '../purl.ts';
import { compareSemver, npmScheme } from '../matchers/versions/npm.ts';
import { FetchError, joinUrl, repositoryLabel, type RepoClient, type Repository } from './http.ts';
import { finishResolution, onlineEvidence, type TargetResolution } from './model.ts';

interface VersionInfo {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  license?: unknown;
  deprecated?: string;
  os?: string[];
  cpu?: string[];
}

interface Packument {
  'dist-tags'?: Record<string, string>;
  versions?: Record<string, VersionInfo>;
}

const ABBREVIATED = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';
const NON_REGISTRY = /^(?:git\+|git:|github:|gitlab:|bitbucket:|https?:|file:|link:|workspace:|portal:|[\w.-]+\/[\w.-]+(?:#.*)?$)/;

function licenseOf(value: unknown): string[] {
  if (typeof value === 'string' && value) return [value];
  if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') return [(value as { type: string }).type];
  return [];
}

export class NpmResolver {
  private readonly packuments = new Map<string, Promise<{ doc: Packument; repo: Repository }>>();
  private readonly licences = new Map<string, Promise<string[]>>();

  private readonly client: RepoClient;
  private readonly repos: Repository[];

  constructor(client: RepoClient, repos: Repository[]) {
    this.client = client;
    this.repos = repos;
  }

  private packument(name: string): Promise<{ doc: Packument; repo: Repository }> {
    let hit = this.packuments.get(name);
    if (!hit) {
      hit = (async () => {
        const encoded = name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
        const failures: string[] = [];
        for (const repo of this.repos) {
          try {
            const text = await this.client.text(repo, joinUrl(repo.url, encoded), ABBREVIATED);
            if (text === undefined) continue;
            const doc = JSON.parse(text) as Packument;
            if (!doc || typeof doc !== 'object' || typeof doc.versions !== 'object') throw new FetchError('注册表返回的元数据格式无效');
            return { doc, repo };
          } catch (error) {
            if (error instanceof SyntaxError) { failures.push(`${repositoryLabel(repo)}：注册表返回的元数据不是有效的 JSON`); continue; }
            if (!(error instanceof FetchError)) throw error;
            failures.push(`${repositoryLabel(repo)}：${error.message}`);
          }
        }
        if (failures.length) throw new FetchError(`无法获取 ${name} 的元数据（${failures.join('；')}）`);
        throw new FetchError(`在注册表 ${this.repos.map(repositoryLabel).join('、')} 中找不到 ${name}`);
      })();
      this.packuments.set(name, hit);
    }
    return hit;
  }

  /** The licence the version's own manifest declares (the abbreviated packument leaves it out). */
  licenceOf(name: string, version: string, repo: Repository, info: VersionInfo): Promise<string[]> {
    if (info.license !== undefined) return Promise.resolve(licenseOf(info.license));
    const key = `${name}@${version}`;
    let hit = this.licences.get(key);
    if (!hit) {
      const encoded = name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
      hit = this.client.text(repo, joinUrl(repo.url, `${encoded}/${encodeURIComponent(version)}`), 'application/json')
        .then((text) => (text ? licenseOf((JSON.parse(text) as VersionInfo).license) : []))
        .catch(() => []);
      this.licences.set(key, hit);
    }
    return hit;
  }

  /** The version npm would pick for `range`, with its metadata. */
  async pick(name: string, range: string): Promise<{ version: string; info: VersionInfo; repo: Repository }> {
    const { doc, repo } = await this.packument(name);
    const versions = doc.versions ?? {};
    const tags = doc['dist-tags'] ?? {};
    const wanted = range.trim() === '' ? '*' : range.trim();
    if (tags[wanted] && versions[tags[wanted]]) return { version: tags[wanted], info: versions[tags[wanted]]!, repo };
    let test: (v: string) => boolean;
    try {
      test = npmScheme.constraint(wanted);
    } catch {
      throw new FetchError(`${name} 的版本范围 ${range} 无法解析`);
    }
    const allowPre = /\d-[0-9A-Za-z]/.test(wanted);
    const ok = (v: string) => npmScheme.isValid(v) && (allowPre || !v.includes('-')) && test(v);
    const latest = tags.latest;
    if (latest && versions[latest] && ok(latest)) return { version: latest, info: versions[latest]!, repo };
    const best = Object.keys(versions).filter(ok).sort(compareSemver).at(-1);
    if (!best) throw new FetchError(`在 ${repositoryLabel(repo)} 中没有 ${name} 符合 ${range} 的版本`);
    return { version: best, info: versions[best]!, repo };
  }
}

/** npm's `os`/`cpu` check for the platform resolution assumes (Linux x64); `!x` excludes x. */
function fitsPlatform(info: VersionInfo): boolean {
  const fits = (list: string[] | undefined, value: string) => {
    if (!Array.isArray(list) || !list.length) return true;
    if (list.includes(`!${value}`)) return false;
    const allowed = list.filter((x) => !x.startsWith('!'));
    return !allowed.length || allowed.includes(value);
  };
  return fits(info.os, 'linux') && fits(info.cpu, 'x64');
}

export interface NpmRequest {
  target: Target;
  maxPackages: number;
  maxDepth: number;
  signal: AbortSignal;
}

/** `npm:real@range` aliases: the package really installed and its range. */
function unalias(name: string, range: string): { name: string; range: string } {
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)(?:@(.*))?$/.exec(range.trim());
  return alias ? { name: alias[1]!, range: alias[2] ?? '*' } : { name, range };
}

export async function resolveNpm(resolver: NpmResolver, request: NpmRequest): Promise<TargetResolution> {
  const { target, signal } = request;
  const problems: string[] = [];
  const components = new Map<string, Component>();
  /** name -> versions chosen so far (npm dedupe reuses one that satisfies). */
  const chosen = new Map<string, string[]>();
  const roots: string[] = [];
  const runtimeRoots: string[] = [];
  const failed = new Set<string>();
  interface Node { name: string; range: string; depth: number; parent?: string; direct?: Component; optional?: boolean }
  let level: Node[] = [];
  const kept: Component[] = [];
  for (const c of target.components) {
    if (!c.direct) continue;
    const range = c.version || c.constraint || '*';
    if (NON_REGISTRY.test(range)) { kept.push(c); continue; }
    level.push({ name: c.name, range, depth: 1, direct: c });
  }
  let capped = false;
  const pending: Promise<void>[] = [];
  while (level.length) {
    signal.throwIfAborted();
    const picks = await Promise.all(level.map(async (n) => {
      const existing = (chosen.get(n.name) ?? []).find((v) => { try { return npmScheme.constraint(n.range)(v); } catch { return false; } });
      if (existing) return { reuse: existing };
      try {
        return { pick: await resolver.pick(n.name, n.range) };
      } catch (error) {
        if (error instanceof FetchError) return { error: error.message };
        throw error;
      }
    }));
    const next: Node[] = [];
    for (let i = 0; i < level.length; i++) {
      const n = level[i]!;
      const p = picks[i]!;
      const link = (purl: string) => {
        if (n.parent) { const parent = components.get(n.parent); if (parent && parent.purl !== purl && !parent.dependsOn.includes(purl)) parent.dependsOn.push(purl); }
        if (n.direct) {
          if (!roots.includes(purl)) roots.push(purl);
          if (n.direct.scope === 'runtime' && !runtimeRoots.includes(purl)) runtimeRoots.push(purl);
        }
      };
      // Chosen earlier in this same level (a second request for the same package): reuse when it fits.
      const again = 'pick' in p ? (chosen.get(n.name) ?? []).find((v) => { try { return npmScheme.constraint(n.range)(v); } catch { return false; } }) : undefined;
      const reused = 'reuse' in p ? p.reuse : again;
      if (reused) {
        const purl = npmPurl(n.name, reused);
        const c = components.get(purl);
        if (c && n.direct) { c.direct = true; c.locations = n.direct.locations; }
        link(purl);
        continue;
      }
      if ('error' in p) {
        // npm leaves out an optional dependency it cannot install, without failing.
        if (n.optional) continue;
        if (n.direct) kept.push(n.direct);
        if (!failed.has(`${n.name}@${n.range}`)) { failed.add(`${n.name}@${n.range}`); problems.push(`无法在线解析 ${n.name}@${n.range}：${p.error}`); }
        continue;
      }
      if (components.size >= request.maxPackages) { capped = true; if (n.direct) kept.push(n.direct); continue; }
      if (!p.pick) continue;
      const { version, info, repo } = p.pick;
      // An optional dependency for another platform (fsevents on Linux): npm skips it.
      if (n.optional && !fitsPlatform(info)) continue;
      chosen.set(n.name, [...(chosen.get(n.name) ?? []), version]);
      const purl = npmPurl(n.name, version);
      components.set(purl, {
        purl, ecosystem: 'npm', name: n.name, version, direct: !!n.direct, scope: 'development',
        locations: n.direct ? n.direct.locations : [{ file: target.file }],
        licenses: [], dependsOn: [],
        ...(n.direct && !n.direct.version ? { constraint: n.range } : {}),
        evidence: [onlineEvidence(target.file, repo)],
      });
      link(purl);
      const component = components.get(purl)!;
      pending.push(resolver.licenceOf(n.name, version, repo, info).then((l) => { component.licenses = l; }));
      if (n.depth >= request.maxDepth) continue;
      const optional = new Set(Object.keys(info.optionalDependencies ?? {}));
      const deps: Array<[string, unknown]> = [
        ...Object.entries(info.optionalDependencies ?? {}), ...Object.entries(info.dependencies ?? {}),
        ...Object.entries(info.peerDependencies ?? {}).filter(([name]) => !info.peerDependenciesMeta?.[name]?.optional),
      ];
      const seen = new Set<string>();
      for (const [depName, depRange] of deps) {
        if (seen.has(depName)) continue;
        seen.add(depName);
        if (typeof depRange !== 'string' || NON_REGISTRY.test(depRange.trim())) continue;
        const real = unalias(depName, depRange);
        next.push({ name: real.name, range: real.range, depth: n.depth + 1, parent: purl, ...(optional.has(depName) ? { optional: true } : {}) });
      }
    }
    level = next;
  }
  // Licences asked for in the background: wait for them (their promises never reject).
  await Promise.all(pending);
  if (capped) problems.push(`在线解析的组件超过上限 ${request.maxPackages} 个，其余依赖未解析`);
  // Runtime: reachable from the runtime dependencies; the rest came with devDependencies.
  return finishResolution(components, roots, runtimeRoots, kept, problems);
}
