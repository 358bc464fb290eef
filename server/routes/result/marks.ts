// Marks, custom levels and VEX statements on a task's rows, and their logs. The rows must belong to
// `taskId` and the task to the project; any run of the project may be marked, not only the latest.
import type { ComponentMarkBody, VulnerabilityMarkBody, resultMarkCalls } from '../../../contract/api/result/index.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { RESULT_MSG, resultScope } from '../../db/repositories/results.ts';
import { markComponents, markFindings, markLog, markTargetOf } from '../../db/repositories/results-marks.ts';
import { UserError } from '../../errors.ts';
import { pagingOf } from '../shared.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

const MARK_MSG = {
  marked: '标记成功！',
  vex: 'VEX 状态设置成功！',
  levelRemark: '修改漏洞等级时请填写修改原因',
  notComponents: '所选组件不存在或不属于该任务',
  notFindings: '所选漏洞不存在或不属于该任务',
} as const;

export function markHandlers({ db }: ServerContext): AreaHandlers<typeof resultMarkCalls> {
  const markComponent = async (userId: number, body: ComponentMarkBody) => {
    await resultScope(db, userId, body.projectId, body.taskId);
    const updated = await markComponents(db, { projectId: body.projectId, runId: body.taskId, ids: body.ids, mark: body.mark, remark: body.remark.trim(), userId });
    if (updated === null) throw new UserError(MARK_MSG.notComponents, 'not-found');
    return ok({ updated }, MARK_MSG.marked);
  };

  const markVulnerability = async (userId: number, body: VulnerabilityMarkBody) => {
    if (body.customLevel !== undefined && !body.levelRemark?.trim()) throw new UserError(MARK_MSG.levelRemark, 'invalid', { field: 'levelRemark' });
    await resultScope(db, userId, body.projectId, body.taskId);
    const updated = await markFindings(db, {
      projectId: body.projectId, runId: body.taskId, ids: body.ids, userId, remark: body.remark.trim(), mark: body.mark,
      ...(body.customLevel !== undefined && { customLevel: body.customLevel, levelRemark: body.levelRemark!.trim() }),
    });
    if (updated === null) throw new UserError(MARK_MSG.notFindings, 'not-found');
    return ok({ updated }, MARK_MSG.marked);
  };

  /** The target of a component or finding row of the project, for its log. */
  const targetOf = async (userId: number, projectId: number, id: number, finding: boolean) => {
    await resultScope(db, userId, projectId);
    const found = await markTargetOf(db, id, finding);
    if (!found || found.projectId !== projectId) throw new UserError(finding ? RESULT_MSG.findingNotFound : RESULT_MSG.componentNotFound, 'not-found');
    return found.target;
  };

  return {
    markComponentSource: ({ request, body }) => markComponent(signedIn(request).userId, body),
    markComponentBinary: ({ request, body }) => markComponent(signedIn(request).userId, body),
    markVulnerabilitySource: ({ request, body }) => markVulnerability(signedIn(request).userId, body),
    markVulnerabilityBinary: ({ request, body }) => markVulnerability(signedIn(request).userId, body),

    async vexMark({ request, body }) {
      const userId = signedIn(request).userId;
      await resultScope(db, userId, body.projectId, body.taskId);
      const updated = await markFindings(db, { projectId: body.projectId, runId: body.taskId, ids: body.ids, userId, remark: body.remark.trim(), vex: body.vex });
      if (updated === null) throw new UserError(MARK_MSG.notFindings, 'not-found');
      return ok({ updated }, MARK_MSG.vex);
    },

    async componentMarkLog({ request, params, query }) {
      const target = await targetOf(signedIn(request).userId, params.projectId, params.id, false);
      return ok(await markLog(db, params.projectId, ['component'], target, pagingOf(query)));
    },

    async vulnerabilityMarkLog({ request, params, query }) {
      const target = await targetOf(signedIn(request).userId, params.projectId, params.id, true);
      return ok(await markLog(db, params.projectId, ['vulnerability', 'level'], target, pagingOf(query)));
    },

    async vexMarkLog({ request, params, query }) {
      const target = await targetOf(signedIn(request).userId, params.projectId, params.id, true);
      return ok(await markLog(db, params.projectId, ['vex'], target, pagingOf(query)));
    },
  };
}
