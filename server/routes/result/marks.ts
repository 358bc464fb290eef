// Marks, custom levels and VEX statements on a task's rows, and their logs. The rows must belong to
// `taskId` and the task to the project; any run of the project may be marked, not only the latest.
import type { ComponentMarkBody, VulnerabilityMarkBody } from '../../../contract/api/result/index.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { RESULT_MSG, resultScope } from '../../db/repositories/results.ts';
import { findingTarget, markComponents, markFindings, markLog } from '../../db/repositories/results-marks.ts';
import { pagingOf } from '../shared.ts';
import { signedIn } from '../register.ts';
import type { HandlersOf } from './common.ts';

export const MARK_MSG = {
  marked: '标记成功！',
  vex: 'VEX 状态设置成功！',
  levelRemark: '修改漏洞等级时请填写修改原因',
  notComponents: '所选组件不存在或不属于该任务',
  notFindings: '所选漏洞不存在或不属于该任务',
} as const;

export function markHandlers({ db }: ServerContext): HandlersOf<
  'markComponentSource' | 'markComponentBinary' | 'componentMarkLog' | 'markVulnerabilitySource' | 'markVulnerabilityBinary' | 'vulnerabilityMarkLog' | 'vexMark' | 'vexMarkLog'
> {
  const runOf = async (userId: number, projectId: number, taskId: number) => resultScope(db, userId, projectId, taskId);

  const markComponent = async (userId: number, body: ComponentMarkBody) => {
    const scope = await runOf(userId, body.projectId, body.taskId);
    if (!scope.ok) return fail(scope.message);
    const updated = await markComponents(db, { projectId: body.projectId, runId: body.taskId, ids: body.ids, mark: body.mark, remark: body.remark.trim(), userId });
    return updated === null ? fail(MARK_MSG.notComponents) : ok({ updated }, MARK_MSG.marked);
  };

  const markVulnerability = async (userId: number, body: VulnerabilityMarkBody) => {
    if (body.customLevel !== undefined && !body.levelRemark?.trim()) return fail(MARK_MSG.levelRemark);
    const scope = await runOf(userId, body.projectId, body.taskId);
    if (!scope.ok) return fail(scope.message);
    const updated = await markFindings(db, {
      projectId: body.projectId, runId: body.taskId, ids: body.ids, userId, remark: body.remark.trim(), mark: body.mark,
      ...(body.customLevel !== undefined && { customLevel: body.customLevel, levelRemark: body.levelRemark!.trim() }),
    });
    return updated === null ? fail(MARK_MSG.notFindings) : ok({ updated }, MARK_MSG.marked);
  };

  /** The target of a component or finding row of the project, for its log. */
  const targetOf = async (userId: number, projectId: number, id: number, finding: boolean) => {
    const scope = await resultScope(db, userId, projectId);
    if (!scope.ok) return scope;
    const row = finding
      ? await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id').innerJoin('runs as r', 'r.id', 'v.run_id')
        .select(['c.purl', 'v.vul_id', 'r.project_id']).where('v.id', '=', id).executeTakeFirst()
      : await db.selectFrom('run_components as c').innerJoin('runs as r', 'r.id', 'c.run_id')
        .select(['c.purl', 'r.project_id']).where('c.id', '=', id).executeTakeFirst();
    if (!row || row.project_id !== projectId) return { ok: false as const, message: finding ? RESULT_MSG.findingNotFound : RESULT_MSG.componentNotFound };
    return { ok: true as const, value: 'vul_id' in row ? findingTarget(row.purl, String(row.vul_id)) : row.purl };
  };

  return {
    markComponentSource: ({ request, body }) => markComponent(signedIn(request).userId, body),
    markComponentBinary: ({ request, body }) => markComponent(signedIn(request).userId, body),
    markVulnerabilitySource: ({ request, body }) => markVulnerability(signedIn(request).userId, body),
    markVulnerabilityBinary: ({ request, body }) => markVulnerability(signedIn(request).userId, body),

    async vexMark({ request, body }) {
      const userId = signedIn(request).userId;
      const scope = await runOf(userId, body.projectId, body.taskId);
      if (!scope.ok) return fail(scope.message);
      const updated = await markFindings(db, { projectId: body.projectId, runId: body.taskId, ids: body.ids, userId, remark: body.remark.trim(), vex: body.vex });
      return updated === null ? fail(MARK_MSG.notFindings) : ok({ updated }, MARK_MSG.vex);
    },

    async componentMarkLog({ request, params, query }) {
      const target = await targetOf(signedIn(request).userId, params.projectId, params.id, false);
      if (!target.ok) return fail(target.message);
      return ok(await markLog(db, params.projectId, ['component'], target.value, pagingOf(query)));
    },

    async vulnerabilityMarkLog({ request, params, query }) {
      const target = await targetOf(signedIn(request).userId, params.projectId, params.id, true);
      if (!target.ok) return fail(target.message);
      return ok(await markLog(db, params.projectId, ['vulnerability', 'level'], target.value, pagingOf(query)));
    },

    async vexMarkLog({ request, params, query }) {
      const target = await targetOf(signedIn(request).userId, params.projectId, params.id, true);
      if (!target.ok) return fail(target.message);
      return ok(await markLog(db, params.projectId, ['vex'], target.value, pagingOf(query)));
    },
  };
}
