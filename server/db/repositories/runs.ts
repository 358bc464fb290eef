// Runs (one analysis of a project) and their life cycle: queue, claim, progress, finish. The runs
// table is also the job queue: any platform process or worker claims the oldest queued run, and a
// run whose worker stopped beating is handed back to the queue as 重新发送 (-1).
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { TASK_STATUS, offeredAnalysisModes } from '../../../contract/enums.ts';
import type { RunStage } from '../../../contract/api/task.ts';
import type { Database, RunsTable } from '../schema.ts';
import { nowIso } from '../time.ts';
import { inTransaction } from '../transaction.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type RunRow = Selectable<RunsTable>;

/** Statuses a run can still be claimed from, and the ones that hold a queue place. */
export const CLAIMABLE = [TASK_STATUS.RESEND, TASK_STATUS.QUEUED] as const;
export const ACTIVE = [TASK_STATUS.RESEND, TASK_STATUS.QUEUED, TASK_STATUS.ANALYSING, TASK_STATUS.PAUSED] as const;

/** The project's status column mirrors its latest run, so lists filter without a join. */
async function mirrorOnProject(db: Db, run: { id: number; project_id: number; status: number }): Promise<void> {
  await db.updateTable('projects')
    .set({ status: run.status, updated_at: nowIso() })
    .where('id', '=', run.project_id)
    .where('last_run_id', '=', run.id)
    .execute();
}

/**
 * Queues a new run of a project; refuses (null) when one is already queued, running or paused. In
 * its own transaction, or in the caller's when handed one.
 */
export async function queueRun(db: Db, input: { projectId: number; analysisModes: string; trigger: string; userId: number | null; outboundLicense: string | null }): Promise<RunRow | null> {
  return inTransaction(db, async (trx) => {
    // Locks the project row on PostgreSQL so two launches cannot both pass the check below.
    await trx.updateTable('projects').set({ updated_at: nowIso() }).where('id', '=', input.projectId).execute();
    const busy = await trx.selectFrom('runs').select('id').where('project_id', '=', input.projectId)
      .where('status', 'in', [...ACTIVE]).executeTakeFirst();
    if (busy) return null;
    const last = await trx.selectFrom('runs').select(sql<number>`max(seq)`.as('seq')).where('project_id', '=', input.projectId).executeTakeFirst();
    const now = nowIso();
    const run = await trx.insertInto('runs').values({
      project_id: input.projectId,
      seq: Number(last?.seq ?? 0) + 1,
      status: TASK_STATUS.QUEUED,
      stage: 'queued',
      trigger: input.trigger,
      // modes stored before the engine's missing ones were refused are not recorded as run;
      // dependency analysis (1) always runs
      analysis_modes: offeredAnalysisModes(input.analysisModes) || '1',
      queued_at: now,
      outbound_license: input.outboundLicense,
      created_by: input.userId,
    }).returningAll().executeTakeFirstOrThrow();
    await trx.updateTable('projects').set({ last_run_id: run.id, status: run.status }).where('id', '=', input.projectId).execute();
    return run;
  });
}

/** Takes the oldest claimable run for `worker`; null when the queue is empty. */
export async function claimNextRun(db: Kysely<Database>, worker: string, postgres: boolean): Promise<RunRow | null> {
  const now = nowIso();
  const lock = postgres ? sql`for update skip locked` : sql``;
  const result = await sql<RunRow>`
    update runs set status = ${TASK_STATUS.ANALYSING}, stage = 'preparing', progress = 0, message = '', worker = ${worker},
      started_at = ${now}, heartbeat_at = ${now}
    where id = (select id from runs where status in (${TASK_STATUS.RESEND}, ${TASK_STATUS.QUEUED}) order by queued_at, id limit 1 ${lock})
      and status in (${TASK_STATUS.RESEND}, ${TASK_STATUS.QUEUED})
    returning *`.execute(db);
  const run = result.rows[0] ?? null;
  if (run) await mirrorOnProject(db, run);
  return run;
}

/** Progress of a running run; false when the run is no longer this worker's (paused, stopped, deleted). */
export async function reportProgress(db: Db, runId: number, worker: string, stage: RunStage, progress: number, message = ''): Promise<boolean> {
  const result = await db.updateTable('runs')
    .set({ stage, progress: Math.max(0, Math.min(100, Math.round(progress))), message, heartbeat_at: nowIso() })
    .where('id', '=', runId).where('worker', '=', worker).where('status', '=', TASK_STATUS.ANALYSING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Beats for the runs `worker` is analysing (the other ids are left alone). */
export async function heartbeatRuns(db: Db, ids: number[], worker: string): Promise<void> {
  await db.updateTable('runs').set({ heartbeat_at: nowIso() })
    .where('id', 'in', ids).where('worker', '=', worker).where('status', '=', TASK_STATUS.ANALYSING).execute();
}

/** Which of these runs are no longer `worker`'s: paused or stopped from another process, or given to another worker. */
export async function lostRuns(db: Db, ids: number[], worker: string): Promise<number[]> {
  const gone = await db.selectFrom('runs').select('id').where('id', 'in', ids)
    .where((eb) => eb.or([eb('status', '<>', TASK_STATUS.ANALYSING), eb('worker', '<>', worker)])).execute();
  return gone.map((r) => r.id);
}

/** Ends a run as failed with a message for the user, if it is still this worker's. */
export async function failRun(db: Db, run: { id: number; project_id: number }, worker: string, message: string): Promise<void> {
  const result = await db.updateTable('runs')
    .set({ status: TASK_STATUS.FAILED, message, finished_at: nowIso(), heartbeat_at: null })
    .where('id', '=', run.id).where('worker', '=', worker).where('status', '=', TASK_STATUS.ANALYSING)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) await mirrorOnProject(db, { ...run, status: TASK_STATUS.FAILED });
}

/** Sets a run's status from outside its worker (pause, resume, stop) and mirrors it on the project. */
export async function setRunStatus(db: Db, run: { id: number; project_id: number }, from: readonly number[], status: number, message: string): Promise<boolean> {
  const now = nowIso();
  const finished = status === TASK_STATUS.FAILED || status === TASK_STATUS.SUCCEEDED;
  const result = await db.updateTable('runs')
    .set({
      status,
      message,
      ...(status === TASK_STATUS.QUEUED && { stage: 'queued', progress: 0, queued_at: now, worker: null }),
      ...(status === TASK_STATUS.PAUSED && { worker: null, progress: 0, stage: 'queued' }),
      ...(finished && { finished_at: now }),
    })
    .where('id', '=', run.id).where('status', 'in', [...from])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await mirrorOnProject(db, { ...run, status });
  return true;
}

/**
 * Runs left 分析中 by a worker that stopped beating (a crashed or restarted process) go back to the
 * queue as 重新发送, keeping their place. `olderThan` is an ISO time; the embedded platform passes
 * its own start time for its own runs.
 */
export async function requeueStale(db: Kysely<Database>, olderThan: string, worker?: string): Promise<number> {
  let query = db.updateTable('runs')
    .set({ status: TASK_STATUS.RESEND, stage: 'queued', progress: 0, worker: null, message: '分析进程中断，任务已重新排队' })
    .where('status', '=', TASK_STATUS.ANALYSING);
  query = worker
    ? query.where((eb) => eb.or([eb('worker', '=', worker), eb('heartbeat_at', '<', olderThan)]))
    : query.where('heartbeat_at', '<', olderThan);
  const stale = await query.returning(['id', 'project_id', 'status']).execute();
  for (const run of stale) await mirrorOnProject(db, run);
  return stale.length;
}

/** Place in the queue (1 = next) of each queued run. */
export async function queuePositions(db: Db): Promise<Map<number, number>> {
  const rows = await db.selectFrom('runs').select('id').where('status', 'in', [...CLAIMABLE]).orderBy('queued_at').orderBy('id').execute();
  return new Map(rows.map((r, i) => [r.id, i + 1]));
}

export async function findRun(db: Db, id: number): Promise<RunRow | undefined> {
  return db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface SucceededRun { id: number; seq: number; projectId: number }

/** The latest succeeded run of each project (those without one are absent). */
export async function latestSucceededRuns(db: Db, projectIds: number[]): Promise<Map<number, SucceededRun>> {
  const out = new Map<number, SucceededRun>();
  for (let i = 0; i < projectIds.length; i += 500) {
    const part = projectIds.slice(i, i + 500);
    const latest = db.selectFrom('runs').select((eb) => eb.fn.max('id').as('id'))
      .where('status', '=', TASK_STATUS.SUCCEEDED).where('project_id', 'in', part).groupBy('project_id');
    const rows = await db.selectFrom('runs').select(['id', 'seq', 'project_id']).where('id', 'in', latest).execute();
    for (const r of rows) out.set(Number(r.project_id), { id: Number(r.id), seq: Number(r.seq), projectId: Number(r.project_id) });
  }
  return out;
}

export async function findRuns(db: Db, ids: number[]): Promise<RunRow[]> {
  if (!ids.length) return [];
  return db.selectFrom('runs').selectAll().where('id', 'in', ids).execute();
}

/** How many runs are in each of the given statuses: of every project ('all'), or of the projects of these subjects. */
export async function countRunsByStatus(db: Db, statuses: number[], subjects: number[] | 'all'): Promise<Map<number, number>> {
  if (subjects !== 'all' && !subjects.length) return new Map();
  let query = db.selectFrom('runs').select(['runs.status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('runs.status', 'in', statuses).groupBy('runs.status');
  if (subjects !== 'all') query = query.innerJoin('projects', 'projects.id', 'runs.project_id').where('projects.subject_id', 'in', subjects);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** A page of the queue: running first, then waiting in the order it will be served, then paused. */
export async function listQueue(db: Db, paging: { page: number; size: number }) {
  const base = db.selectFrom('runs as r').where('r.status', 'in', [...ACTIVE]);
  const total = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await base
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .innerJoin('subjects as s', 's.id', 'p.subject_id')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .select(['r.id', 'r.project_id', 'p.name as project_name', 's.name as subject_name', 'r.seq', 'r.status', 'r.stage', 'r.progress', 'r.trigger', 'r.worker', 'r.queued_at', 'r.started_at', 'u.name as creator'])
    .orderBy(sql`case r.status when 1 then 0 when 4 then 2 else 1 end`).orderBy('r.queued_at').orderBy('r.id')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { total: Number(total?.n ?? 0), rows };
}

/** Moves a run to the head of the queue: one millisecond before the run served next. */
export async function moveToQueueHead(db: Db, run: { id: number; queued_at: string }): Promise<void> {
  const first = await db.selectFrom('runs').select(sql<string>`min(queued_at)`.as('t')).where('status', 'in', [...CLAIMABLE]).executeTakeFirst();
  const head = first?.t ? new Date(new Date(first.t).getTime() - 1).toISOString() : run.queued_at;
  await db.updateTable('runs').set({ queued_at: head }).where('id', '=', run.id).execute();
}
