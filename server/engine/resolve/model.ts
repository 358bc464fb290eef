// What resolving one manifest online gives: its components (the declared ones with the versions
// chosen, and everything they pull in), the roots, and what could not be resolved.
import type { Component, Evidence } from '../model.ts';
import { repositoryLabel, type Repository } from './http.ts';

export interface TargetResolution {
  components: Component[];
  roots: string[];
  /** In Chinese, each naming the package and the repository. */
  problems: string[];
  /** Components whose version or dependencies came from a repository. */
  resolved: number;
}

/** The mark of a component found by online resolution: the manifest, and the repository it was resolved from. */
export function onlineEvidence(file: string, repo: Repository): Evidence {
  return { file, rule: '在线解析', text: `从 ${repositoryLabel(repo)} 在线解析` };
}

/**
 * The resolution of one manifest, finished: each component's scope (runtime when reachable from a
 * runtime root, else development), then the declared components that were kept as declared (not
 * resolvable from a registry) added back as roots.
 */
export function finishResolution(components: Map<string, Component>, roots: string[], runtimeRoots: readonly string[], kept: readonly Component[], problems: string[]): TargetResolution {
  const stack = [...runtimeRoots];
  const runtime = new Set<string>();
  while (stack.length) {
    const purl = stack.pop()!;
    if (runtime.has(purl)) continue;
    runtime.add(purl);
    stack.push(...(components.get(purl)?.dependsOn ?? []));
  }
  for (const c of components.values()) c.scope = runtime.has(c.purl) ? 'runtime' : 'development';
  for (const c of kept) {
    if (!components.has(c.purl)) components.set(c.purl, c);
    if (!roots.includes(c.purl)) roots.push(c.purl);
  }
  return { components: [...components.values()], roots, problems, resolved: components.size - kept.length };
}
