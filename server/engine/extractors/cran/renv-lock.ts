// R renv's `renv.lock` (JSON, `renv::snapshot()`): `Packages.<name>` with `Package`, `Version`,
// `Source` and the package's dependencies — `Requirements` (renv < 1.0, names) or the
// DESCRIPTION fields `Depends` / `Imports` / `LinkingTo` (renv >= 1.0, `rlang (>= 1.0.6), utils`),
// which give the edges; R itself and its base packages (methods, utils, ...) are not locked and
// get no edge. Sources: `Repository` (CRAN, or a CRAN-like repository such as Posit Package Manager,
// named by `Repository`), `Bioconductor` (kept as pkg:cran with Bioconductor as repository_url, the
// release in `Bioconductor.Version`), `GitHub` / `GitLab` / `Bitbucket` / `git` (the commit as
// vcs_url), `URL` (download_url), `Local` (the user's own package on disk: left out, like a path
// dependency). Which packages the project uses itself: a sibling DESCRIPTION (what renv's
// "explicit" snapshots read) names them; without one, the packages no other locked package
// requires. purl type cran (purl-spec), names case-sensitive as CRAN writes them.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import type { JsonNode } from '../common/json-positions.ts';
import { member, parseJsonFile, str } from '../common/json-positions.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');

export const BIOCONDUCTOR_URL = 'https://bioconductor.org';

/** Package names of a DESCRIPTION dependency field (`R (>= 3.5), rlang (>= 1.0), utils`). */
export function dependencyNames(field: string | undefined): string[] {
  if (!field) return [];
  const names: string[] = [];
  for (const part of field.split(',')) {
    const m = /^\s*([A-Za-z][A-Za-z0-9.]*)/.exec(part);
    if (m) names.push(m[1]!);
  }
  return names;
}

/** A DESCRIPTION file (Debian control format): fields by name, continuation lines joined. */
export function parseDcf(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let current: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s/.test(line) && current) {
      fields.set(current, `${fields.get(current)!} ${line.trim()}`.trim());
      continue;
    }
    const m = /^([A-Za-z0-9/@._-]+):\s*(.*)$/.exec(line);
    if (m) { current = m[1]!; fields.set(current, m[2]!.trim()); } else current = undefined;
  }
  return fields;
}

function remoteQualifiers(pkg: JsonNode, source: string): Record<string, string> | null {
  const s = source.toLowerCase();
  if (s === 'bioconductor') return { repository_url: BIOCONDUCTOR_URL };
  const sha = str(member(pkg, 'RemoteSha'));
  if (s === 'github' || s === 'gitlab' || s === 'bitbucket') {
    const user = str(member(pkg, 'RemoteUsername'));
    const repo = str(member(pkg, 'RemoteRepo'));
    if (!user || !repo) return null;
    const host = { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org' }[s]!;
    const apiHost = str(member(pkg, 'RemoteHost'));
    const web = apiHost && !/^api\.github\.com$/i.test(apiHost) && s === 'github' ? apiHost.replace(/\/api\/v3$/, '') : host;
    return { vcs_url: `git+https://${web}/${user}/${repo}${sha ? `@${sha}` : ''}` };
  }
  if (s === 'git') {
    const url = str(member(pkg, 'RemoteUrl'));
    return url ? { vcs_url: `git+${url}${sha ? `@${sha}` : ''}` } : null;
  }
  if (s === 'url') {
    const url = str(member(pkg, 'RemoteUrl'));
    return url ? { download_url: url } : null;
  }
  return null;
}

export function parseRenvLock(text: string, file: string, declared?: ReadonlySet<string>): Target {
  const target: Target = { file, type: 'renv', ecosystem: 'cran', project: null, roots: [], components: [] };
  if (!text.trim()) return target;
  const root = parseJsonFile(text.replace(/^\uFEFF/, ''), file);
  if (root.kind !== 'object') throw new ExtractError(`${file} 不是 renv.lock 格式：顶层应为对象`);
  const packages = member(root, 'Packages');
  if (!packages) return target;
  if (packages.kind !== 'object') throw new ExtractError(`${file} 的 Packages 应为对象`);

  const byName = new Map<string, { component: Component; requires: string[] }>();
  for (const [key, pkg] of packages.entries) {
    if (pkg.kind !== 'object') continue;
    const source = str(member(pkg, 'Source')) ?? 'Repository';
    if (source.toLowerCase() === 'local') continue;
    const name = str(member(pkg, 'Package')) ?? key;
    const version = str(member(pkg, 'Version'));
    if (!version) {
      // purl-spec's cran type needs a version: the entry is reported rather than guessed at.
      (target.problems ??= []).push(`${file} 第 ${pkg.startLine} 行的包 ${name} 缺少 Version，未列入组件`);
      continue;
    }
    const requirements = member(pkg, 'Requirements');
    const requires = requirements?.kind === 'array'
      ? requirements.items.map((i) => str(i)).filter((n): n is string => !!n)
      : ['Depends', 'Imports', 'LinkingTo'].flatMap((f) => {
        const v = member(pkg, f);
        return v?.kind === 'array' ? v.items.map((i) => str(i) ?? '').flatMap((s) => dependencyNames(s)) : dependencyNames(str(v));
      });
    const purl = purlOf('cran', { name, version, qualifiers: remoteQualifiers(pkg, source) });
    byName.set(name, {
      requires,
      component: {
        purl, ecosystem: 'cran', name, version, direct: false, scope: 'runtime',
        locations: [{ file, startLine: pkg.startLine, endLine: pkg.endLine }], licenses: [], dependsOn: [],
      },
    });
  }
  const required = new Set<string>();
  for (const { component, requires } of byName.values()) {
    for (const dep of new Set(requires)) {
      const child = byName.get(dep);
      if (!child || child.component === component) continue;
      component.dependsOn.push(child.component.purl);
      required.add(dep);
    }
  }
  for (const [name, { component }] of byName) component.direct = declared ? declared.has(name) : !required.has(name);
  target.components = [...byName.values()].map((e) => e.component);
  target.roots = target.components.filter((c) => c.direct).map((c) => c.purl);
  return target;
}

/** The sibling DESCRIPTION: the packages it depends on and the project it names. */
async function description(lockPath: string, ctx: ExtractContext): Promise<{ declared?: Set<string>; project: Target['project'] }> {
  const text = await ctx.readText(`${dirOf(lockPath)}DESCRIPTION`).catch(() => undefined);
  if (!text) return { project: null };
  const fields = parseDcf(text);
  const declared = new Set(['Depends', 'Imports', 'LinkingTo'].flatMap((f) => dependencyNames(fields.get(f))));
  const name = fields.get('Package');
  const version = fields.get('Version') ?? '';
  return { declared, project: name ? { purl: purlOf('cran', { name, version }), name, version } : null };
}

export const renvExtractor: Extractor = {
  name: 'renv',
  ecosystem: 'cran',
  reads: ['renv.lock'],
  matches: (p) => baseName(p) === 'renv.lock',
  async extract(file: InputFile, ctx: ExtractContext) {
    const { declared, project } = await description(file.path, ctx);
    const target = parseRenvLock(await file.text(), file.path, declared);
    target.project = project;
    return [target];
  },
};
