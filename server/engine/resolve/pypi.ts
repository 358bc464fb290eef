// requirements.txt lines that pin nothing, resolved as pip resolves them through the configured
// package indexes: the Simple API (PEP 691 JSON, else the PEP 503 HTML page) lists the files of a
// project; the version chosen is the highest one that satisfies the specifier (PEP 440), leaving
// out pre-releases (unless the specifier names one), yanked files (PEP 592, unless pinned with
// ==) and files whose Requires-Python excludes the target environment; its Requires-Dist comes
// from the wheel's core metadata (PEP 658/714 `.metadata` files), else from the JSON API of an
// index that has one (pypi.org's `/pypi/<name>/<version>/json`). Requires-Dist is followed
// transitively with markers evaluated for markers.ts's DEFAULT_ENVIRONMENT and the extras asked.
import type { Component, Target } from '../model.ts';
import { normalizePypiName, pypiPurl } from '../purl.ts';
import { pypiScheme } from '../matchers/versions/pypi.ts';
import { parseRequirementHead } from '../extractors/python/common.ts';
import { logicalLines, parseRequirement } from '../extractors/python/requirements.ts';
import { FetchError, joinUrl, repositoryLabel, type RepoClient, type Repository } from './http.ts';
import { DEFAULT_ENVIRONMENT, evaluateMarker } from './markers.ts';
import { finishResolution, onlineEvidence, type TargetResolution } from './model.ts';

interface IndexFile {
  filename: string;
  url: string;
  yanked: boolean;
  requiresPython: string;
  /** Whether `<url>.metadata` exists (PEP 658 / 714). */
  metadata: boolean;
}

interface Release { version: string; files: IndexFile[] }

const SIMPLE_ACCEPT = 'application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.1';
const PRE = /(a|b|c|rc|alpha|beta|pre|preview|dev)\d*/i;

function decodeEntities(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|#39|#x27);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", '#x27': "'" })[e] ?? _);
}

/** The version a distribution file name carries, when it belongs to `name`. */
export function versionOfFile(filename: string, name: string): string | undefined {
  const norm = normalizePypiName(name);
  let m = /^(.+?)-(\d[^-]*?)(?:-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$/.exec(filename);
  if (!m) m = /^(.+)-(\d[A-Za-z0-9.!+_]*?)\.(?:tar\.gz|tar\.bz2|tar\.xz|zip|tgz)$/.exec(filename);
  if (!m || normalizePypiName(m[1]!) !== norm) return undefined;
  return m[2]!;
}

function parseSimpleHtml(html: string, base: string): IndexFile[] {
  const out: IndexFile[] = [];
  for (const m of html.matchAll(/<a\s([^>]*)>([^<]*)<\/a>/gi)) {
    const attrs = m[1]!;
    const attr = (n: string) => {
      const a = new RegExp(`(?:^|\\s)${n}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(attrs);
      return a ? decodeEntities(a[1] ?? a[2] ?? '') : undefined;
    };
    const href = attr('href');
    if (!href) continue;
    const url = new URL(href, base);
    url.hash = '';
    out.push({
      filename: decodeEntities(m[2]!.trim()) || decodeURIComponent(url.pathname.split('/').pop() ?? ''),
      url: url.toString(),
      yanked: /(?:^|\s)data-yanked(?:\s|=|$)/i.test(attrs),
      requiresPython: attr('data-requires-python') ?? '',
      metadata: /(?:^|\s)data-(?:core|dist-info)-metadata(?:\s|=|$)/i.test(attrs) && attr('data-core-metadata') !== 'false' && attr('data-dist-info-metadata') !== 'false',
    });
  }
  return out;
}

function parseSimpleJson(text: string, base: string): IndexFile[] {
  const doc = JSON.parse(text) as { files?: Array<Record<string, unknown>> };
  return (doc.files ?? []).map((f) => ({
    filename: String(f.filename ?? ''),
    url: new URL(String(f.url ?? ''), base).toString(),
    yanked: f.yanked !== undefined && f.yanked !== false,
    requiresPython: typeof f['requires-python'] === 'string' ? f['requires-python'] : '',
    metadata: !!(f['core-metadata'] ?? f['dist-info-metadata'] ?? f['data-dist-info-metadata']),
  }));
}

/** Requires-Dist and the licence a METADATA file declares. */
export function parseMetadata(text: string): { requires: string[]; licenses: string[] } {
  const requires: string[] = [];
  const licenses: string[] = [];
  const header = text.split(/\r?\n\r?\n/)[0] ?? '';
  for (const line of header.split(/\r?\n/)) {
    const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    if (key === 'requires-dist') requires.push(m[2]!.trim());
    else if (key === 'license-expression' && m[2]!.trim()) licenses.unshift(m[2]!.trim());
    else if (key === 'license' && m[2]!.trim() && m[2]!.trim().length < 100 && !licenses.length) licenses.push(m[2]!.trim());
  }
  return { requires, licenses: licenses.slice(0, 1) };
}

export class PypiResolver {
  private readonly projects = new Map<string, Promise<{ releases: Release[]; repo: Repository }>>();
  private readonly metadata = new Map<string, Promise<{ requires: string[]; licenses: string[] }>>();
  private readonly python = DEFAULT_ENVIRONMENT.python_full_version!;

  private readonly client: RepoClient;
  private readonly repos: Repository[];

  constructor(client: RepoClient, repos: Repository[]) {
    this.client = client;
    this.repos = repos;
  }

  project(name: string): Promise<{ releases: Release[]; repo: Repository }> {
    const norm = normalizePypiName(name);
    let hit = this.projects.get(norm);
    if (!hit) {
      hit = (async () => {
        const failures: string[] = [];
        for (const repo of this.repos) {
          const url = joinUrl(repo.url, `${norm}/`);
          try {
            const text = await this.client.text(repo, url, SIMPLE_ACCEPT);
            if (text === undefined) continue;
            const files = text.trimStart().startsWith('{') ? parseSimpleJson(text, url) : parseSimpleHtml(text, url);
            const byVersion = new Map<string, IndexFile[]>();
            for (const f of files) {
              const v = versionOfFile(f.filename, name);
              if (!v || !pypiScheme.isValid(v)) continue;
              byVersion.set(v, [...(byVersion.get(v) ?? []), f]);
            }
            return { releases: [...byVersion].map(([version, list]) => ({ version, files: list })), repo };
          } catch (error) {
            if (error instanceof SyntaxError) { failures.push(`${repositoryLabel(repo)}：索引返回的 JSON 无效`); continue; }
            if (!(error instanceof FetchError)) throw error;
            failures.push(`${repositoryLabel(repo)}：${error.message}`);
          }
        }
        if (failures.length) throw new FetchError(`无法获取 ${name} 的文件列表（${failures.join('；')}）`);
        throw new FetchError(`在索引 ${this.repos.map(repositoryLabel).join('、')} 中找不到 ${name}`);
      })();
      this.projects.set(norm, hit);
    }
    return hit;
  }

  /** The version pip would choose for `specifier`. */
  async pick(name: string, specifier: string): Promise<{ release: Release; repo: Repository }> {
    const { releases, repo } = await this.project(name);
    let test: (v: string) => boolean = () => true;
    if (specifier.trim()) {
      try {
        test = pypiScheme.constraint(specifier.replace(/^\s*\(|\)\s*$/g, ''));
      } catch {
        throw new FetchError(`${name} 的版本约束 ${specifier} 无法解析`);
      }
    }
    const allowPre = PRE.test(specifier.replace(/[a-z_]+\s*\(/gi, ''));
    const pinned = /^\s*\(?\s*===?/.test(specifier);
    const python = (f: IndexFile) => {
      if (!f.requiresPython) return true;
      try { return pypiScheme.constraint(f.requiresPython)(this.python); } catch { return true; }
    };
    const candidates = releases.filter((r) => test(r.version) && (allowPre || !PRE.test(r.version.replace(/^\d+!/, '').replace(/^[\d.]+/, '').replace(/^\.?post\d*/, ''))));
    const usable = (r: Release, yanked: boolean) => r.files.some((f) => (yanked || !f.yanked) && python(f));
    const sorted = candidates.sort((a, b) => pypiScheme.compare(b.version, a.version));
    const best = sorted.find((r) => usable(r, false)) ?? (pinned ? sorted.find((r) => usable(r, true)) : undefined);
    if (!best) throw new FetchError(`在 ${repositoryLabel(repo)} 中没有 ${name} 符合 ${specifier || '任意版本'} 且适用于 Python ${this.python} 的版本`);
    return { release: best, repo };
  }

  /** Requires-Dist and licence of one release. */
  requirements(name: string, release: Release, repo: Repository): Promise<{ requires: string[]; licenses: string[] }> {
    const key = `${normalizePypiName(name)}==${release.version}`;
    let hit = this.metadata.get(key);
    if (!hit) {
      hit = (async () => {
        const wheels = release.files.filter((f) => f.filename.endsWith('.whl') && f.metadata);
        const withMeta = wheels.find((f) => /-none-any\.whl$/.test(f.filename)) ?? wheels[0] ?? release.files.find((f) => f.metadata);
        if (withMeta) {
          const text = await this.client.text(repo, `${withMeta.url}.metadata`);
          if (text !== undefined) return parseMetadata(text);
        }
        // An index beside a JSON API (pypi.org, devpi, Nexus's pypi proxy): <root>/pypi/<name>/<version>/json.
        const root = repo.url.replace(/\/+$/, '').replace(/\/simple$/, '');
        const json = await this.client.text(repo, joinUrl(root, `pypi/${encodeURIComponent(normalizePypiName(name))}/${encodeURIComponent(release.version)}/json`), 'application/json').catch(() => undefined);
        if (json) {
          try {
            const info = (JSON.parse(json) as { info?: { requires_dist?: string[] | null; license?: string | null; license_expression?: string | null } }).info;
            const licence = info?.license_expression || (info?.license && info.license.length < 100 ? info.license : '');
            return { requires: info?.requires_dist ?? [], licenses: licence ? [licence] : [] };
          } catch { /* fall through */ }
        }
        throw new FetchError(`${repositoryLabel(repo)} 没有提供 ${name} ${release.version} 的元数据（既无 .metadata 文件也无 JSON 接口），其依赖未解析`);
      })();
      this.metadata.set(key, hit);
    }
    return hit;
  }
}

export interface PypiRequest {
  target: Target;
  /** The requirements file's text, for the extras and markers of its lines. */
  text: string;
  maxPackages: number;
  maxDepth: number;
  signal: AbortSignal;
}

interface Want { name: string; specifier: string; extras: string[] }

/** One Requires-Dist entry: name, specifier, extras; undefined when its marker excludes it. */
function readRequiresDist(entry: string, extras: readonly string[]): Want | undefined {
  const head = parseRequirementHead(entry);
  if (!head) return undefined;
  let rest = head.rest;
  let marker = '';
  const semi = rest.indexOf(';');
  if (semi >= 0) { marker = rest.slice(semi + 1).trim(); rest = rest.slice(0, semi); }
  if (marker) {
    try {
      if (!evaluateMarker(marker, extras)) return undefined;
    } catch {
      return undefined;
    }
  }
  rest = rest.trim();
  if (rest.startsWith('@')) return undefined;
  return { name: head.name, specifier: rest.replace(/^\(|\)$/g, '').trim(), extras: head.extras };
}

export async function resolvePypi(resolver: PypiResolver, request: PypiRequest): Promise<TargetResolution> {
  const { target, signal } = request;
  const problems: string[] = [];
  // Extras and markers of the file's own lines (the component keeps only name and range).
  const lines = new Map<number, { extras: string[]; markers: string }>();
  for (const l of logicalLines(request.text)) {
    if (l.text.startsWith('-')) continue;
    const r = parseRequirement(l.text, target.file, l.startLine, l.endLine);
    if (r) lines.set(l.startLine, { extras: r.extras, markers: r.markers });
  }
  const components = new Map<string, Component>();
  const byName = new Map<string, string>(); // normalised name -> purl (pip installs one version of each)
  const extrasDone = new Map<string, Set<string>>();
  const roots: string[] = [];
  const kept: Component[] = [];
  interface Node { want: Want; depth: number; parent?: string; direct?: Component }
  let level: Node[] = [];
  for (const c of target.components) {
    if (!c.direct) continue;
    // Pinned or from a URL: kept as read. Only what pins nothing is resolved; its dependencies too.
    const line = lines.get(c.locations[0]?.startLine ?? -1);
    if (line?.markers) {
      try { if (!evaluateMarker(line.markers, [])) { kept.push(c); continue; } } catch { /* kept below as resolvable */ }
    }
    level.push({ want: { name: c.name, specifier: c.version ? `==${c.version}` : c.constraint ?? '', extras: line?.extras ?? [] }, depth: 1, direct: c });
  }
  const failed = new Set<string>();
  let capped = false;
  while (level.length) {
    signal.throwIfAborted();
    const fresh = level.filter((n) => !byName.has(normalizePypiName(n.want.name)));
    const picks = new Map<string, Awaited<ReturnType<PypiResolver['pick']>> | FetchError>();
    await Promise.all(fresh.map(async (n) => {
      const key = `${normalizePypiName(n.want.name)} ${n.want.specifier}`;
      if (picks.has(key)) return;
      try {
        picks.set(key, await resolver.pick(n.want.name, n.want.specifier));
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        picks.set(key, error);
      }
    }));
    const expand: Array<{ node: Node; purl: string; extras: string[] }> = [];
    for (const n of level) {
      const norm = normalizePypiName(n.want.name);
      const link = (purl: string) => {
        if (n.parent) { const p = components.get(n.parent); if (p && p.purl !== purl && !p.dependsOn.includes(purl)) p.dependsOn.push(purl); }
        if (n.direct && !roots.includes(purl)) roots.push(purl);
      };
      const existing = byName.get(norm);
      if (existing) {
        link(existing);
        const c = components.get(existing)!;
        if (n.direct) { c.direct = true; if (n.direct.scope === 'runtime') c.scope = 'runtime'; }
        // New extras of a package already chosen bring their own dependencies.
        const done = extrasDone.get(existing)!;
        const more = n.want.extras.filter((e) => !done.has(e));
        if (more.length) { more.forEach((e) => done.add(e)); expand.push({ node: n, purl: existing, extras: more }); }
        continue;
      }
      const p = picks.get(`${norm} ${n.want.specifier}`);
      if (!p || p instanceof FetchError) {
        if (n.direct) kept.push(n.direct);
        const label = `${n.want.name}${n.want.specifier}`;
        if (!failed.has(label)) { failed.add(label); problems.push(`无法在线解析 ${label}：${p?.message ?? '未知原因'}`); }
        continue;
      }
      if (components.size >= request.maxPackages) { capped = true; if (n.direct) kept.push(n.direct); continue; }
      const purl = pypiPurl(n.want.name, p.release.version);
      byName.set(norm, purl);
      extrasDone.set(purl, new Set(n.want.extras));
      components.set(purl, {
        purl, ecosystem: 'pypi', name: n.direct?.name ?? n.want.name, version: p.release.version, direct: !!n.direct,
        scope: n.direct?.scope ?? components.get(n.parent ?? '')?.scope ?? 'runtime',
        locations: n.direct ? n.direct.locations : [{ file: target.file }], licenses: [], dependsOn: [],
        ...(n.direct && !n.direct.version && n.want.specifier ? { constraint: n.want.specifier } : {}),
        evidence: [onlineEvidence(target.file, p.repo)],
      });
      link(purl);
      expand.push({ node: n, purl, extras: n.want.extras });
    }
    const next: Node[] = [];
    await Promise.all(expand.map(async ({ node, purl, extras }) => {
      const c = components.get(purl)!;
      const { releases, repo } = await resolver.project(c.name);
      const release = releases.find((r) => r.version === c.version)!;
      try {
        const meta = await resolver.requirements(c.name, release, repo);
        if (meta.licenses.length && !c.licenses.length) c.licenses = meta.licenses;
        if (node.depth >= request.maxDepth) return;
        for (const entry of meta.requires) {
          const want = readRequiresDist(entry, extras);
          if (want && normalizePypiName(want.name) !== normalizePypiName(c.name)) next.push({ want, depth: node.depth + 1, parent: purl });
        }
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        problems.push(`${error.message}`);
      }
    }));
    level = next;
  }
  if (capped) problems.push(`在线解析的组件超过上限 ${request.maxPackages} 个，其余依赖未解析`);
  // Scope: runtime when reachable from a runtime requirement.
  return finishResolution(components, roots, roots.filter((r) => components.get(r)?.scope === 'runtime'), kept, problems);
}
