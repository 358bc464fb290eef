// 开放接口日志 (spec doc 2 §7 "Versions and logs"): the handler of contract/api/open-api-log.ts.
import { openApiLogCalls } from '../../../contract/api/open-api-log.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { readOpenApiLog } from '../../services/open-api-log.ts';
import { indexHandlers, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

function openApiLogAreaHandlers({ db, openApiLog }: ServerContext): AreaHandlers<typeof openApiLogCalls> {
  return {
    async list({ query }) {
      return ok(await readOpenApiLog(db, openApiLog, query, pagingOf(query)));
    },
  };
}

export const openApiLogHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(openApiLogCalls, openApiLogAreaHandlers(ctx));
