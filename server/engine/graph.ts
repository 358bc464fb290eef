// The dependency graph of one target: for every component, a shortest path from the project
// (through its direct dependencies) — what the UI's dependency tree and "why is this here?" show.
import type { Target } from './model.ts';

/** purl -> [root, ..., purl]: the shortest chain of dependencies leading to it (breadth first). */
export function pathsFromProject(target: Target): Map<string, string[]> {
  const children = new Map(target.components.map((c) => [c.purl, c.dependsOn]));
  const paths = new Map<string, string[]>();
  const queue: string[] = [];
  // Roots first; components nothing reaches (a lockfile without edges) are their own roots.
  for (const root of target.roots) if (!paths.has(root)) { paths.set(root, [root]); queue.push(root); }
  for (let head = 0; head < queue.length; head++) {
    const from = queue[head]!;
    for (const child of children.get(from) ?? []) {
      if (paths.has(child)) continue;
      paths.set(child, [...paths.get(from)!, child]);
      queue.push(child);
    }
  }
  for (const c of target.components) if (!paths.has(c.purl)) paths.set(c.purl, [c.purl]);
  return paths;
}
