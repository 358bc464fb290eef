// Dependency and file trees of a task: root levels, lazily loaded children (pathId), and search.
import type { TreeSearchHit, resultTreeCalls } from '../../../contract/api/result/index.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { likePattern } from '../../db/like.ts';
import { RESULT_MSG, componentView, resultScope } from '../../db/repositories/results.ts';
import {
  dependencyLevel, fileLevel, fileSteps, isRunComponent, loadAncestry, pathSteps, pathsTo, searchComponents, searchFiles,
} from '../../db/repositories/results-trees.ts';
import { UserError } from '../../errors.ts';
import { signedIn, type AreaHandlers } from '../register.ts';
import { TREE_PAGE_SIZE } from './common.ts';

const treePaging = (q: { page?: number; size?: number } | undefined) => ({ page: q?.page ?? 1, size: q?.size ?? TREE_PAGE_SIZE });
const empty = { taskId: null, content: [], total: 0 };

export function treeHandlers({ db }: ServerContext): AreaHandlers<typeof resultTreeCalls> {
  const files = async (userId: number, projectId: number, parent: string, query: { taskId?: number; page?: number; size?: number } | undefined) => {
    const { run } = await resultScope(db, userId, projectId, query?.taskId);
    if (!run) return ok(empty);
    return ok({ taskId: run.id, ...(await fileLevel(db, run.id, parent, treePaging(query))) });
  };

  return {
    fileTree: ({ request, params, query }) => files(signedIn(request).userId, params.id, '', query),
    // A binary product's scan root is the uploaded artefact: its tree is the same file tree.
    binaryTree: ({ request, params, query }) => files(signedIn(request).userId, params.id, '', query),
    fileChildren: ({ request, params, query }) => files(signedIn(request).userId, params.projectId, query.pathId.replace(/\/+$/, ''), query),

    async dependenceTree({ request, params, query }) {
      const { run } = await resultScope(db, signedIn(request).userId, params.id, query?.taskId);
      if (!run) return ok(empty);
      return ok({ taskId: run.id, ...(await dependencyLevel(db, run.id, null, [], treePaging(query))) });
    },

    async dependenceChildren({ request, params, query }) {
      const { run } = await resultScope(db, signedIn(request).userId, params.projectId, query.taskId);
      if (!run) return ok(empty);
      const path = query.pathId.split('.').map(Number);
      const node = path.at(-1)!;
      if (!(await isRunComponent(db, run.id, node))) throw new UserError(RESULT_MSG.nodeNotFound, 'not-found');
      return ok({ taskId: run.id, ...(await dependencyLevel(db, run.id, node, path, treePaging(query))) });
    },

    async treeSearch({ request, params, body }) {
      const { run } = await resultScope(db, signedIn(request).userId, params.projectId, body.taskId);
      if (!run) return ok({ content: [], total: 0, capped: false });
      const limit = body.limit ?? 200;
      const p = likePattern(body.keyword.trim());
      const hits: TreeSearchHit[] = [];
      let total = 0;
      let capped = false;
      if (body.kind === 'file') {
        const found = await searchFiles(db, run.id, p, limit);
        total = found.total;
        for (const r of found.rows) {
          hits.push({ pathId: r.path, name: r.name, version: null, componentId: null, riskLevel: null, isDir: Boolean(Number(r.is_dir)), ancestors: fileSteps(r.path).slice(0, -1) });
        }
        return ok({ content: hits, total, capped: total > hits.length });
      }
      const comps = await searchComponents(db, run.id, p, 1000);
      if (comps.length === 1000) capped = true;
      const graph = await loadAncestry(db, run.id, comps.map((c) => c.id));
      for (const c of comps) {
        const found = pathsTo(graph, c.id, 100);
        total += found.paths.length;
        if (found.capped) capped = true;
        const view = componentView(c);
        for (const path of found.paths.sort((a, b) => a.length - b.length)) {
          if (hits.length >= limit) { capped = true; break; }
          hits.push({
            pathId: path.join('.'), name: c.name, version: c.version, componentId: c.id, riskLevel: view.riskLevel, isDir: false,
            ancestors: pathSteps(graph, path).slice(0, -1),
          });
        }
      }
      return ok({ content: hits, total, capped });
    },
  };
}
