// Online resolution (off by default): after the scan, the manifests that declare dependencies
// without locking them — a Maven pom.xml, a package.json without a lockfile, a requirements file —
// are resolved through the repositories the administrator configured (系统设置 → 扫描配置) or the
// CLI names. Each manifest's target is replaced by what resolution found; a package that cannot
// be resolved is a problem naming it and the repository, and the rest goes on. Nothing here runs
// unless repositories are given for the ecosystem.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScanProblem, ScanResult, Target } from '../model.ts';
import { confinedPath } from '../sources/tree.ts';
import { DEFAULT_LIMITS, RepoClient, type Repository, type ResolveLimits } from './http.ts';
import { MavenResolver, resolveMaven } from './maven.ts';
import { NpmResolver, resolveNpm } from './npm.ts';
import { PypiResolver, resolvePypi } from './pypi.ts';
import type { TargetResolution } from './model.ts';
import { isRequirementsFile } from '../extractors/python/requirements.ts';

export type { Repository, ResolveLimits } from './http.ts';

export interface OnlineResolution {
  maven: Repository[];
  npm: Repository[];
  pypi: Repository[];
  limits?: Partial<ResolveLimits>;
}

export interface ResolutionSummary {
  /** Manifests resolved, by ecosystem. */
  manifests: { maven: number; npm: number; pypi: number };
  /** Components found through the repositories. */
  components: number;
  requests: number;
}

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

async function readInRoot(root: string, rel: string): Promise<string | undefined> {
  if (!(await confinedPath(root, rel))) return undefined;
  try {
    const bytes = await readFile(path.join(root, rel));
    return bytes.length > MAX_MANIFEST_BYTES ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

/** Which resolver a target is for: Maven poms of the project (not the ones packed in jars), package.json read without a lockfile, requirements files. */
function kindOf(target: Target): 'maven' | 'npm' | 'pypi' | undefined {
  const base = path.posix.basename(target.file);
  if (target.type === 'pom' && base === 'pom.xml' && !target.file.includes('META-INF/')) return 'maven';
  // A package.json target whose components carry no installed or locked version (declaredOnly).
  if (target.type === 'npm' && base === 'package.json' && !target.file.split('/').includes('node_modules')
    && target.components.every((c) => c.direct && c.locations.every((l) => l.file === target.file))) return 'npm';
  if (target.ecosystem === 'pypi' && isRequirementsFile(target.file)) return 'pypi';
  return undefined;
}

/**
 * Resolves the scan's unlocked manifests online, in place: targets replaced, problems added.
 * Returns what was done, for the closing note.
 */
export async function resolveOnline(root: string, scan: ScanResult, options: OnlineResolution, signal: AbortSignal): Promise<ResolutionSummary> {
  const limits: ResolveLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const client = new RepoClient(limits, signal);
  // The project's own modules (every pom.xml the scan read, by its coordinates): read in the tree.
  const reactor = new Map<string, string>();
  for (const t of scan.targets) {
    if (t.type === 'pom' && t.project?.version && !t.file.includes('META-INF/')) reactor.set(`${t.project.name}:${t.project.version}`, t.file);
  }
  const maven = options.maven.length
    ? new MavenResolver(client, options.maven, async (key) => { const file = reactor.get(key); return file === undefined ? undefined : readInRoot(root, file); })
    : undefined;
  const npm = options.npm.length ? new NpmResolver(client, options.npm) : undefined;
  const pypi = options.pypi.length ? new PypiResolver(client, options.pypi) : undefined;
  const summary: ResolutionSummary = { manifests: { maven: 0, npm: 0, pypi: 0 }, components: 0, requests: 0 };
  const problems: ScanProblem[] = [];
  const base = { maxPackages: limits.maxPackages, maxDepth: limits.maxDepth, signal };
  for (const target of scan.targets) {
    signal.throwIfAborted();
    const kind = kindOf(target);
    if (!kind) continue;
    let result: TargetResolution | undefined;
    if (kind === 'maven' && maven) {
      const text = await readInRoot(root, target.file);
      if (text === undefined) continue;
      result = await resolveMaven(maven, { ...base, target, pomText: text, source: { readTree: (rel) => readInRoot(root, rel) } });
    } else if (kind === 'npm' && npm) {
      result = await resolveNpm(npm, { ...base, target });
    } else if (kind === 'pypi' && pypi) {
      const text = await readInRoot(root, target.file);
      if (text === undefined) continue;
      result = await resolvePypi(pypi, { ...base, target, text });
    }
    if (!result) continue;
    summary.manifests[kind]++;
    summary.components += result.resolved;
    target.components = result.components;
    target.roots = result.roots;
    for (const message of result.problems) problems.push({ file: target.file, message });
  }
  summary.requests = client.requests;
  if (problems.length) scan.problems = [...scan.problems, ...problems];
  return summary;
}
