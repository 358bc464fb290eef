// 敏感信息 area (spec doc 1 §4 "Binary leaks", doc 2 "sensitive leak rule"): every handler of
// contract/api/leak.ts. What a run found is read from its project the user may see (resultScope:
// another user's task is refused as every result call refuses it); the rule commands are in
// server/services/leak-rules.ts.
import { leakCalls, type LeakTypes } from '../../../contract/api/leak.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import { LEAK_TYPES } from '../../../contract/leak-types.ts';
import { parseAnalysisModes } from '../../../contract/enums.ts';
import type { ServerContext } from '../../context.ts';
import { runLeakCounts, runLeakPage } from '../../db/repositories/leaks.ts';
import { resultScope } from '../../db/repositories/results.ts';
import { addLeakRule, enableLeakRule, listLeakRules, removeLeakRule } from '../../services/leak-rules.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

function leakAreaHandlers({ db }: ServerContext): AreaHandlers<typeof leakCalls> {
  return {
    async types({ request, query }) {
      const { run } = await resultScope(db, signedIn(request).userId, query.projectId, query.taskId);
      const empty: LeakTypes = { analysed: false, total: 0, files: 0, types: LEAK_TYPES.map((type) => ({ type, count: 0 })) };
      if (!run) return ok(empty);
      const { byType, files } = await runLeakCounts(db, run.id);
      const types = LEAK_TYPES.map((type) => ({ type, count: byType.get(type) ?? 0 }));
      return ok({ analysed: parseAnalysisModes(run.analysis_modes).includes(9), total: types.reduce((n, t) => n + t.count, 0), files, types });
    },

    async list({ request, query }) {
      const { run } = await resultScope(db, signedIn(request).userId, query.projectId, query.taskId);
      if (!run) return ok({ content: [], total: 0 });
      return ok(await runLeakPage(db, run.id, { type: query.type, file: query.file, keyword: query.keyword }, pagingOf(query)));
    },

    async ruleList({ query, body }) {
      return ok(await listLeakRules(db, body, pagingOf(query)));
    },

    async ruleAdd({ request, body }) {
      return ok(await addLeakRule(db, signedIn(request).userId, body), ADMIN_SUCCESS_MESSAGES.added);
    },

    async ruleDelete({ request, query }) {
      await removeLeakRule(db, signedIn(request).userId, query.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    },

    async ruleEnable({ request, body }) {
      return ok(await enableLeakRule(db, signedIn(request).userId, body.key, body.enabled), ADMIN_SUCCESS_MESSAGES.done);
    },
  };
}

export const leakHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(leakCalls, leakAreaHandlers(ctx));
