// Report rows (issue 7): one row per generated file, queued like runs (status 0 waiting, 1
// generating, 2 succeeded, 3 deleted, 4 failed) and claimed by one process's ReportQueue.
// Data scope: ordinary users see the reports of subjects they may access plus the statistics
// reports they asked for; domain administrators see every report.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ReportKind, ReportRow } from '../../../contract/api/report.ts';
import { EXPORT_STATUS } from '../../../contract/enums.ts';
import type { Database, ReportsTable } from '../schema.ts';
import { likePattern } from '../like.ts';
import { nowIso } from '../time.ts';
import { lowerLike, type Db } from './results.ts';
import { visibleSubjectIds } from './subject-access.ts';
import type { LicenceFilter } from './results-licences.ts';

export type ReportRecord = Selectable<ReportsTable>;

export interface NewReport {
  kind: ReportKind;
  reportType: number;
  name: string;
  subjectId: number | null;
  subjectName: string;
  projectId: number | null;
  projectName: string;
  runId: number | null;
  runSeq: number | null;
  /**
   * What the job needs beyond the columns: the run ids of the model, and for a task or licence
   * report the licence sections' filter (识别方式, 最低可信度) when one was asked for.
   */
  params: { runIds: number[]; licenceFilter?: LicenceFilter };
  createdBy: number;
}

export async function insertReports(db: Db, reports: NewReport[]): Promise<number[]> {
  if (!reports.length) return [];
  const now = nowIso();
  const rows = await db.insertInto('reports').values(reports.map((r) => ({
    kind: r.kind, report_type: r.reportType, status: EXPORT_STATUS.WAITING, name: r.name, subject_id: r.subjectId, subject_name: r.subjectName,
    project_id: r.projectId, project_name: r.projectName, run_id: r.runId, run_seq: r.runSeq, params: JSON.stringify(r.params), created_by: r.createdBy, created_at: now,
  }))).returning('id').execute();
  return rows.map((r) => Number(r.id));
}

export interface ReportFilters {
  keyword?: string;
  status?: number;
  reportType?: number;
  subjectId?: number;
  projectId?: number;
}

/** Who is asking: 'all' for domain administrators, else the subjects they may see. */
export interface ReportViewer {
  userId: number;
  subjects: number[] | 'all';
}

export async function reportViewer(db: Kysely<Database>, userId: number): Promise<ReportViewer> {
  return { userId, subjects: await visibleSubjectIds(db, userId) };
}

/** Whether the viewer may see (download, delete) this report. */
export function mayView(viewer: ReportViewer, r: Pick<ReportRecord, 'kind' | 'subject_id' | 'created_by'>): boolean {
  if (viewer.subjects === 'all') return true;
  if (r.kind === 'statistic') return r.created_by === viewer.userId;
  return r.subject_id !== null && viewer.subjects.includes(Number(r.subject_id));
}

export async function listReports(
  db: Kysely<Database>, viewer: ReportViewer, kinds: readonly ReportKind[], filters: ReportFilters, paging: { page: number; size: number },
): Promise<{ content: ReportRow[]; total: number }> {
  let q = db.selectFrom('reports as r').where('r.kind', 'in', [...kinds]);
  if (viewer.subjects !== 'all') {
    const subjects = viewer.subjects;
    q = q.where((eb) => eb.or([
      eb.and([eb('r.kind', '=', 'statistic'), eb('r.created_by', '=', viewer.userId)]),
      ...(subjects.length ? [eb.and([eb('r.kind', '<>', 'statistic'), eb('r.subject_id', 'in', subjects)])] : []),
    ]));
  }
  const keyword = filters.keyword?.trim();
  if (keyword) {
    const p = likePattern(keyword);
    q = q.where((eb) => eb.or([lowerLike('r.name', p), lowerLike('r.subject_name', p), lowerLike('r.project_name', p)]));
  }
  if (filters.status !== undefined) q = q.where('r.status', '=', filters.status);
  if (filters.reportType !== undefined) q = q.where('r.report_type', '=', filters.reportType);
  if (filters.subjectId !== undefined) q = q.where('r.subject_id', '=', filters.subjectId);
  if (filters.projectId !== undefined) q = q.where('r.project_id', '=', filters.projectId);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await q.leftJoin('users as u', 'u.id', 'r.created_by').selectAll('r').select('u.name as creator')
    .orderBy('r.created_at', 'desc').orderBy('r.id', 'desc')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { content: rows.map((r) => reportView(r, r.creator)), total };
}

function reportView(r: ReportRecord, creator: string | null): ReportRow {
  return {
    id: Number(r.id), kind: r.kind as ReportKind, name: r.name, reportType: Number(r.report_type), status: Number(r.status), progress: Number(r.progress),
    size: r.size === null ? null : Number(r.size), sha256: r.sha256, message: r.message,
    subjectId: r.subject_id === null ? null : Number(r.subject_id), subjectName: r.subject_name,
    projectId: r.project_id === null ? null : Number(r.project_id), projectName: r.project_name,
    taskId: r.run_id === null ? null : Number(r.run_id), taskSeq: r.run_seq === null ? null : Number(r.run_seq),
    createdBy: creator ?? '--', createTime: r.created_at, finishTime: r.finished_at,
  };
}

export async function findReport(db: Db, id: number): Promise<ReportRecord | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findReports(db: Db, ids: number[]): Promise<ReportRecord[]> {
  if (!ids.length) return [];
  return db.selectFrom('reports').selectAll().where('id', 'in', ids).execute();
}

/** Marks reports deleted (their files are removed by the caller); answers those that changed. */
export async function markDeleted(db: Db, ids: number[]): Promise<ReportRecord[]> {
  if (!ids.length) return [];
  return db.updateTable('reports').set({ status: EXPORT_STATUS.DELETED, progress: 0, worker: null, heartbeat_at: null })
    .where('id', 'in', ids).where('status', '<>', EXPORT_STATUS.DELETED).returningAll().execute();
}

// ---- the queue

/**
 * Claims the oldest waiting report for `worker`: FOR UPDATE SKIP LOCKED lets several PostgreSQL
 * processes share the queue; on SQLite (one writer) the `status = 0` guard is enough.
 */
export async function claimNextReport(db: Kysely<Database>, worker: string, postgres: boolean): Promise<ReportRecord | null> {
  const now = nowIso();
  const lock = postgres ? sql`for update skip locked` : sql``;
  const result = await sql<ReportRecord>`
    update reports set status = ${EXPORT_STATUS.GENERATING}, progress = 0, message = '', worker = ${worker}, started_at = ${now}, heartbeat_at = ${now}
    where id = (select id from reports where status = ${EXPORT_STATUS.WAITING} order by created_at, id limit 1 ${lock})
      and status = ${EXPORT_STATUS.WAITING}
    returning *`.execute(db);
  return result.rows[0] ?? null;
}

/** Progress of a report being generated; false when it is no longer this worker's (deleted, re-queued). */
export async function reportProgress(db: Db, id: number, worker: string, progress: number): Promise<boolean> {
  const result = await db.updateTable('reports').set({ progress: Math.max(0, Math.min(100, Math.round(progress))), heartbeat_at: nowIso() })
    .where('id', '=', id).where('worker', '=', worker).where('status', '=', EXPORT_STATUS.GENERATING).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function finishReport(db: Db, id: number, worker: string, file: { file: string; size: number; sha256: string }): Promise<boolean> {
  const result = await db.updateTable('reports')
    .set({ status: EXPORT_STATUS.SUCCEEDED, progress: 100, file: file.file, size: file.size, sha256: file.sha256, finished_at: nowIso(), heartbeat_at: null, worker: null })
    .where('id', '=', id).where('worker', '=', worker).where('status', '=', EXPORT_STATUS.GENERATING).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function failReport(db: Db, id: number, worker: string, message: string): Promise<void> {
  await db.updateTable('reports').set({ status: EXPORT_STATUS.FAILED, message, finished_at: nowIso(), heartbeat_at: null, worker: null })
    .where('id', '=', id).where('worker', '=', worker).where('status', '=', EXPORT_STATUS.GENERATING).execute();
}

export async function heartbeatReports(db: Db, ids: number[], worker: string): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('reports').set({ heartbeat_at: nowIso() })
    .where('id', 'in', ids).where('worker', '=', worker).where('status', '=', EXPORT_STATUS.GENERATING).execute();
}

/** Which of these reports are no longer `worker`'s: deleted (status 3) or handed to another worker meanwhile. */
export async function lostReports(db: Db, ids: number[], worker: string): Promise<number[]> {
  const gone = await db.selectFrom('reports').select('id').where('id', 'in', ids)
    .where((eb) => eb.or([eb('status', '<>', EXPORT_STATUS.GENERATING), eb('worker', 'is', null), eb('worker', '<>', worker)])).execute();
  return gone.map((r) => Number(r.id));
}

/** Generating reports whose worker went silent (or `worker`'s own, on stop) go back to waiting. */
export async function requeueStaleReports(db: Db, olderThan: string, worker?: string): Promise<number> {
  let q = db.updateTable('reports').set({ status: EXPORT_STATUS.WAITING, progress: 0, worker: null, heartbeat_at: null })
    .where('status', '=', EXPORT_STATUS.GENERATING);
  q = worker
    ? q.where((eb) => eb.or([eb('worker', '=', worker), eb('heartbeat_at', '<', olderThan)]))
    : q.where('heartbeat_at', '<', olderThan);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
