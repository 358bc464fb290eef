// Result area handlers (issue 6): task detail reads, trees, licences, marks, comparisons, history
// and the home dashboard. Each module answers the calls of its namesake in contract/api/result/.
import { resultCalls } from '../../../contract/api/result/index.ts';
import type { ServerContext } from '../../context.ts';
import { indexHandlers, type HandlerIndex } from '../register.ts';
import type { ResultHandlers } from './common.ts';
import { compareHandlers } from './compare.ts';
import { componentHandlers } from './components.ts';
import { historyHandlers } from './history.ts';
import { homeHandlers } from './home.ts';
import { licenceHandlers } from './licences.ts';
import { markHandlers } from './marks.ts';
import { treeHandlers } from './trees.ts';

function resultAreaHandlers(ctx: ServerContext): ResultHandlers {
  return {
    ...treeHandlers(ctx), ...componentHandlers(ctx), ...licenceHandlers(ctx), ...markHandlers(ctx),
    ...compareHandlers(ctx), ...historyHandlers(ctx), ...homeHandlers(ctx),
  };
}

export const resultHandlers = (ctx: ServerContext): HandlerIndex =>
  indexHandlers(resultCalls, resultAreaHandlers(ctx));
