// The dependency and file trees of a run. A tree level is one indexed query (run_edges by
// (run_id, parent_id), run_files by (run_id, parent)), paged, so expanding a node stays fast at
// 10,000+ components. Paths to a node (detail drawer, search) walk the edges upward in memory.
import { sql } from 'kysely';
import type { DependencyNode, FileNode, PathStep } from '../../../contract/api/result/index.ts';
import { chunks, componentView, lowerLike, type Db } from './results.ts';

export interface Paged { page: number; size: number }

/** Children of `parent` (null: the roots) in a run, with their own child counts. */
export async function dependencyLevel(db: Db, runId: number, parent: number | null, path: number[], paging: Paged): Promise<{ content: DependencyNode[]; total: number }> {
  const base = db.selectFrom('run_edges as e').where('e.run_id', '=', runId)
    .where('e.parent_id', parent === null ? 'is' : '=', parent);
  const counted = await base.select((eb) => eb.fn.count<number>('e.child_id').distinct().as('n')).executeTakeFirst();
  const rows = await base.innerJoin('run_components as c', 'c.id', 'e.child_id')
    .selectAll('c').distinct()
    .orderBy('c.risk_level').orderBy('c.name').orderBy('c.id')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  // Child counts of just this page, in one grouped query over the (run_id, parent_id) index.
  const counts = new Map<number, number>();
  if (rows.length) {
    const grouped = await db.selectFrom('run_edges').select(['parent_id', sql<number>`count(distinct child_id)`.as('n')])
      .where('run_id', '=', runId).where('parent_id', 'in', rows.map((r) => r.id)).groupBy('parent_id').execute();
    for (const g of grouped) counts.set(Number(g.parent_id), Number(g.n));
  }
  const onPath = new Set(path);
  const prefix = path.length ? `${path.join('.')}.` : '';
  return {
    total: Number(counted?.n ?? 0),
    content: rows.map((r) => {
      const c = componentView(r);
      return {
        pathId: `${prefix}${c.id}`, id: c.id, purl: c.purl, ecosystem: c.ecosystem, name: c.name, version: c.version,
        direct: c.direct, scope: c.scope, riskLevel: c.riskLevel, vulCount: c.vulCount, licenseExpression: c.licenseExpression,
        mark: c.mark, childCount: counts.get(c.id) ?? 0, cycle: onPath.has(c.id),
      };
    }),
  };
}

/** One level of the file tree: the entries whose parent is `parent` ('' for the root). */
export async function fileLevel(db: Db, runId: number, parent: string, paging: Paged): Promise<{ content: FileNode[]; total: number }> {
  const base = db.selectFrom('run_files').where('run_id', '=', runId).where('parent', '=', parent);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base.selectAll().orderBy('is_dir', 'desc').orderBy('name').orderBy('id')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(counted?.n ?? 0),
    content: rows.map((r) => ({
      pathId: r.path, name: r.name, isDir: Boolean(Number(r.is_dir)), size: Number(r.size),
      // Directories are only written for files below them, so a directory always has children.
      componentCount: Number(r.component_count), hasChildren: Boolean(Number(r.is_dir)),
    })),
  };
}

/** Steps of a file path: each ancestor directory, then the entry itself. */
export const fileSteps = (path: string): PathStep[] => {
  const parts = path.split('/');
  return parts.map((name, i) => ({ pathId: parts.slice(0, i + 1).join('/'), name, version: null }));
};

/** Whether `componentId` is a component of the run (a tree node to expand). */
export async function isRunComponent(db: Db, runId: number, componentId: number): Promise<boolean> {
  return (await db.selectFrom('run_components').select('id').where('id', '=', componentId).where('run_id', '=', runId).executeTakeFirst()) !== undefined;
}

/** Files and folders of the run whose name matches the LIKE pattern: how many, and the first `limit` by path. */
export async function searchFiles(db: Db, runId: number, pattern: string, limit: number) {
  const base = db.selectFrom('run_files').where('run_id', '=', runId).where(lowerLike('name', pattern));
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base.select(['path', 'name', 'is_dir']).orderBy('path').limit(limit).execute();
  return { total, rows };
}

/** Components of the run whose name or purl matches the LIKE pattern, worst risk first (at most `limit`). */
export async function searchComponents(db: Db, runId: number, pattern: string, limit: number) {
  return db.selectFrom('run_components').selectAll().where('run_id', '=', runId)
    .where((eb) => eb.or([lowerLike('name', pattern), lowerLike('purl', pattern)])).orderBy('risk_level').orderBy('name').limit(limit).execute();
}

// ---- paths through the dependency graph -----------------------------------------------------------

export interface Graph {
  /** child → its parents; a root edge has parent null. */
  parents: Map<number, Array<number | null>>;
  names: Map<number, { name: string; version: string }>;
}

/**
 * The part of a run's graph above `targets`: their parent edges, the parents' parent edges and so
 * on, fetched a level at a time over the (run_id, child_id) index, so a node deep in a 10,000
 * component tree costs its ancestors, not the whole graph.
 */
export async function loadAncestry(db: Db, runId: number, targets: number[]): Promise<Graph> {
  const parents = new Map<number, Array<number | null>>();
  let frontier = [...new Set(targets)];
  const seen = new Set(frontier);
  while (frontier.length) {
    const next: number[] = [];
    for (const part of chunks(frontier, 500)) {
      const edges = await db.selectFrom('run_edges').select(['parent_id', 'child_id']).where('run_id', '=', runId).where('child_id', 'in', part).execute();
      for (const e of edges) {
        const list = parents.get(e.child_id) ?? [];
        list.push(e.parent_id);
        parents.set(e.child_id, list);
        if (e.parent_id !== null && !seen.has(e.parent_id)) {
          seen.add(e.parent_id);
          next.push(e.parent_id);
        }
      }
    }
    frontier = next;
  }
  const names = new Map<number, { name: string; version: string }>();
  for (const part of chunks([...seen], 500)) {
    const rows = await db.selectFrom('run_components').select(['id', 'name', 'version']).where('id', 'in', part).execute();
    for (const r of rows) names.set(r.id, { name: r.name, version: r.version });
  }
  return { parents, names };
}

/**
 * Paths from a root down to `target` (each a list of component ids, root first), found by walking
 * parents upward without revisiting a node on the current path. Stops after `max` paths or a step
 * budget, so a densely connected graph cannot stall the call; `capped` says so.
 */
export function pathsTo(graph: Graph, target: number, max: number): { paths: number[][]; capped: boolean } {
  const paths: number[][] = [];
  let budget = 200_000;
  const walk = (node: number, below: number[], seen: Set<number>): boolean => {
    if (--budget <= 0 || paths.length >= max) return false;
    for (const parent of graph.parents.get(node) ?? []) {
      if (parent === null) {
        paths.push([node, ...below]);
        if (paths.length >= max) return false;
      } else if (!seen.has(parent)) {
        seen.add(parent);
        const go = walk(parent, [node, ...below], seen);
        seen.delete(parent);
        if (!go) return false;
      }
    }
    return true;
  };
  const finished = walk(target, [], new Set([target]));
  return { paths, capped: !finished };
}

export const pathSteps = (graph: Graph, ids: number[]): PathStep[] =>
  ids.map((id, i) => ({ pathId: ids.slice(0, i + 1).join('.'), name: graph.names.get(id)?.name ?? '', version: graph.names.get(id)?.version ?? '' }));
