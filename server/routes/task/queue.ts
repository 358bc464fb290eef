// The administrators' task queue (doc 2 §7: /api/task-queue/...): what waits and runs, pause
// (option 1) and resume (option 2), move to the front, remove.
import type { queueDelete, queueList, queueState, queueTop } from '../../../contract/api/task.ts';
import { ok } from '../../../contract/envelope.ts';
import { TASK_QUEUE_OPTION, TASK_STATUS } from '../../../contract/enums.ts';
import type { ServerContext } from '../../context.ts';
import { ACTIVE, CLAIMABLE, findRun, listQueue, moveToQueueHead, setRunStatus, type RunRow } from '../../db/repositories/runs.ts';
import { UserError } from '../../errors.ts';
import { TASK_MSG } from '../../services/task-messages.ts';
import type { CallHandler } from '../register.ts';
import { pagingOf } from '../shared.ts';

export function queueHandlers(ctx: ServerContext): {
  queueList: CallHandler<typeof queueList>;
  queueState: CallHandler<typeof queueState>;
  queueTop: CallHandler<typeof queueTop>;
  queueDelete: CallHandler<typeof queueDelete>;
} {
  const { db } = ctx;
  const runOf = async (checkId: number): Promise<RunRow> => {
    const run = await findRun(db, checkId);
    if (!run) throw new UserError(TASK_MSG.runMissing, 'not-found');
    return run;
  };

  return {
    async queueList({ query }) {
      const { total, rows } = await listQueue(db, pagingOf(query));
      return ok({
        total,
        content: rows.map((r) => ({
          checkId: r.id, projectId: r.project_id, projectName: r.project_name, subjectName: r.subject_name, seq: r.seq,
          status: r.status as never, stage: r.stage as never, progress: r.progress, trigger: r.trigger, worker: r.worker,
          queuedAt: r.queued_at, startedAt: r.started_at, creatorName: r.creator ?? null,
        })),
      });
    },

    async queueState({ query }) {
      const run = await runOf(query.checkId);
      if (query.option === TASK_QUEUE_OPTION.SUSPEND) {
        if (!(await setRunStatus(db, run, [...CLAIMABLE, TASK_STATUS.ANALYSING], TASK_STATUS.PAUSED, '任务已暂停'))) throw new UserError(TASK_MSG.notPausable);
        ctx.runs.abort(run.id);
        return ok({ checkId: run.id, status: TASK_STATUS.PAUSED }, '操作成功！');
      }
      if (!(await setRunStatus(db, run, [TASK_STATUS.PAUSED], TASK_STATUS.QUEUED, ''))) throw new UserError(TASK_MSG.notPaused);
      ctx.runs.wake();
      return ok({ checkId: run.id, status: TASK_STATUS.QUEUED }, '操作成功！');
    },

    async queueTop({ query }) {
      const run = await runOf(query.checkId);
      if (!(CLAIMABLE as readonly number[]).includes(run.status)) throw new UserError(TASK_MSG.notQueued);
      await moveToQueueHead(db, run);
      return ok({ checkId: run.id }, '操作成功！');
    },

    async queueDelete({ query }) {
      const run = await runOf(query.checkId);
      if (!(await setRunStatus(db, run, ACTIVE, TASK_STATUS.FAILED, TASK_MSG.removed))) throw new UserError(TASK_MSG.notRemovable);
      ctx.runs.abort(run.id);
      return ok({ checkId: run.id }, '删除成功！');
    },
  };
}
