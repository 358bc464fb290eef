// The administrators' task queue (doc 2 §7: /api/task-queue/...): what waits and runs, pause
// (option 1) and resume (option 2), move to the front, remove.
import { sql } from 'kysely';
import type { queueDelete, queueList, queueState, queueTop } from '../../../contract/api/task.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import { TASK_QUEUE_OPTION, TASK_STATUS } from '../../../contract/enums.ts';
import type { ServerContext } from '../../context.ts';
import { ACTIVE, CLAIMABLE, findRun, setRunStatus } from '../../db/repositories/runs.ts';
import type { CallHandler } from '../register.ts';
import { pagingOf } from '../shared.ts';
import { TASK_MSG } from './form.ts';

export function queueHandlers(ctx: ServerContext): {
  queueList: CallHandler<typeof queueList>;
  queueState: CallHandler<typeof queueState>;
  queueTop: CallHandler<typeof queueTop>;
  queueDelete: CallHandler<typeof queueDelete>;
} {
  const { db } = ctx;
  return {
    async queueList({ query }) {
      const { page, size } = pagingOf(query);
      const base = db.selectFrom('runs as r').where('r.status', 'in', [...ACTIVE]);
      const total = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
      const rows = await base
        .innerJoin('projects as p', 'p.id', 'r.project_id')
        .innerJoin('subjects as s', 's.id', 'p.subject_id')
        .leftJoin('users as u', 'u.id', 'r.created_by')
        .select(['r.id', 'r.project_id', 'p.name as project_name', 's.name as subject_name', 'r.seq', 'r.status', 'r.stage', 'r.progress', 'r.trigger', 'r.worker', 'r.queued_at', 'r.started_at', 'u.name as creator'])
        // Running first, then the queue in the order it will be served, then paused.
        .orderBy(sql`case r.status when 1 then 0 when 4 then 2 else 1 end`).orderBy('r.queued_at').orderBy('r.id')
        .limit(size).offset((page - 1) * size).execute();
      return ok({
        total: Number(total?.n ?? 0),
        content: rows.map((r) => ({
          checkId: r.id, projectId: r.project_id, projectName: r.project_name, subjectName: r.subject_name, seq: r.seq,
          status: r.status as never, stage: r.stage as never, progress: r.progress, trigger: r.trigger, worker: r.worker,
          queuedAt: r.queued_at, startedAt: r.started_at, creatorName: r.creator ?? null,
        })),
      });
    },

    async queueState({ query }) {
      const run = await findRun(db, query.checkId);
      if (!run) return fail(TASK_MSG.runMissing);
      if (query.option === TASK_QUEUE_OPTION.SUSPEND) {
        if (!(await setRunStatus(db, run, [...CLAIMABLE, TASK_STATUS.ANALYSING], TASK_STATUS.PAUSED, '任务已暂停'))) return fail(TASK_MSG.notPausable);
        ctx.runs.abort(run.id);
        return ok({ checkId: run.id, status: TASK_STATUS.PAUSED }, '操作成功！');
      }
      if (!(await setRunStatus(db, run, [TASK_STATUS.PAUSED], TASK_STATUS.QUEUED, ''))) return fail(TASK_MSG.notPaused);
      ctx.runs.wake();
      return ok({ checkId: run.id, status: TASK_STATUS.QUEUED }, '操作成功！');
    },

    async queueTop({ query }) {
      const run = await findRun(db, query.checkId);
      if (!run) return fail(TASK_MSG.runMissing);
      if (!(CLAIMABLE as readonly number[]).includes(run.status)) return fail(TASK_MSG.notQueued);
      const first = await db.selectFrom('runs').select(sql<string>`min(queued_at)`.as('t')).where('status', 'in', [...CLAIMABLE]).executeTakeFirst();
      // One millisecond before the current head of the queue.
      const head = first?.t ? new Date(new Date(first.t).getTime() - 1).toISOString() : run.queued_at;
      await db.updateTable('runs').set({ queued_at: head }).where('id', '=', run.id).execute();
      return ok({ checkId: run.id }, '操作成功！');
    },

    async queueDelete({ query }) {
      const run = await findRun(db, query.checkId);
      if (!run) return fail(TASK_MSG.runMissing);
      if (!(await setRunStatus(db, run, ACTIVE, TASK_STATUS.FAILED, TASK_MSG.removed))) return fail(TASK_MSG.notRemovable);
      ctx.runs.abort(run.id);
      return ok({ checkId: run.id }, '删除成功！');
    },
  };
}
