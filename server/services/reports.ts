// Report commands (issue 7): generating queues one report row per format and wakes the report
// queue; deleting marks rows 已删除 and removes their files; a download is allowed once the file
// is there. The data scope is that of repositories/reports.ts. Refusals are UserErrors.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { COMPONENT_EXPORT_REPORT_TYPE, VEX_REPORT_TYPE, type ReportKind } from '../../contract/api/report.ts';
import { EXPORT_EXTENSION, EXPORT_STATUS, TASK_STATUS, VEX_EXTENSION, formatOfReportType } from '../../contract/enums.ts';
import type { ServerContext } from '../context.ts';
import { projectIdsOf } from '../db/repositories/projects.ts';
import { findReport, findReports, insertReports, markDeleted, mayView, reportViewer, type NewReport, type ReportRecord, type ReportViewer } from '../db/repositories/reports.ts';
import { RESULT_MSG, accessibleProject, type ProjectRecord } from '../db/repositories/results.ts';
import { findRun, latestSucceededRuns, type SucceededRun } from '../db/repositories/runs.ts';
import { canAccessSubject, canManageSubject, visibleSubjectIds } from '../db/repositories/subject-access.ts';
import { subjectHead } from '../db/repositories/subjects.ts';
import { inTransaction } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { unfiltered, type LicenceFilter } from '../db/repositories/results-licences.ts';

export const REPORT_MSG = {
  noRun: '该项目还没有分析成功的任务, 报告无法生成',
  projectNoRun: (name: string) => `项目“${name}”还没有分析成功的任务, 报告无法生成`,
  runNotSucceeded: '该任务尚未分析成功，报告无法生成',
  subjectNoRun: '该应用还没有分析成功的任务, 报告无法生成',
  statisticNoRun: '可见的项目中还没有分析成功的任务, 报告无法生成',
  notFound: '报告不存在',
  notOwn: '只能删除自己生成的报告，应用负责人和管理员可删除该应用的全部报告',
  notReady: '报告尚未生成完成',
  deleted: '报告已删除',
  failed: '报告生成失败，请重新生成',
  fileMissing: '报告文件不存在，请重新生成',
  badRange: '请求的下载范围无效',
} as const;

/** What generating needs: the database and this process's report queue to wake. */
export type ReportDeps = Pick<ServerContext, 'db' | 'reports'>;

/** `yyyyMMddHHmmss` in the platform's local time, the time part of report file names. */
function fileStamp(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** The extension of a report row's file. */
export function extensionOf(kind: string, reportType: number): string {
  if (kind === 'vex') return reportType === VEX_REPORT_TYPE[2] ? VEX_EXTENSION[2] : VEX_EXTENSION[1];
  if (kind === 'component') return reportType === COMPONENT_EXPORT_REPORT_TYPE.csv ? '.csv' : '.xlsx';
  return EXPORT_EXTENSION[formatOfReportType(reportType) ?? 'pdf'];
}

interface TaskTarget { project: ProjectRecord; subjectName: string; run: SucceededRun }

/**
 * The project (visible to the user) and the succeeded run a task report is made of: `taskId`, or
 * the project's latest succeeded run; `noRun` words the refusal when the project has none.
 */
async function taskTarget(db: ServerContext['db'], userId: number, projectId: number, taskId?: number, noRun: (name: string) => string = () => REPORT_MSG.noRun): Promise<TaskTarget> {
  const project = await accessibleProject(db, userId, projectId);
  let run: SucceededRun | undefined;
  if (taskId !== undefined) {
    const row = await findRun(db, taskId);
    if (!row || Number(row.project_id) !== projectId) throw new UserError(RESULT_MSG.taskNotFound, 'not-found');
    if (Number(row.status) !== TASK_STATUS.SUCCEEDED) throw new UserError(REPORT_MSG.runNotSucceeded);
    run = { id: Number(row.id), seq: Number(row.seq), projectId };
  } else {
    run = (await latestSucceededRuns(db, [projectId])).get(projectId);
  }
  if (!run) throw new UserError(noRun(project.name));
  return { project, subjectName: (await subjectHead(db, project.subject_id))?.name ?? '', run };
}

/** One row of a task-based report (task, licence, VEX, component export). */
function taskReport(t: TaskTarget, kind: ReportKind, reportType: number, userId: number, stamp: string, licenceFilter: LicenceFilter = {}): NewReport {
  const suffix = kind === 'vex' ? '_VEX' : kind === 'license' ? '_许可证报告' : kind === 'component' ? '_组件清单' : '';
  return {
    kind, reportType, name: `${t.project.name}_任务#${t.run.seq}_${stamp}${suffix}${extensionOf(kind, reportType)}`,
    subjectId: t.project.subject_id, subjectName: t.subjectName, projectId: t.project.id, projectName: t.project.name,
    runId: t.run.id, runSeq: t.run.seq, params: { runIds: [t.run.id], ...(unfiltered(licenceFilter) ? {} : { licenceFilter }) }, createdBy: userId,
  };
}

/** Inserts the rows and wakes the queue; the new reports' ids. */
async function queueReports(deps: ReportDeps, rows: NewReport[]): Promise<number[]> {
  const reportIds = await inTransaction(deps.db, (trx) => insertReports(trx, rows));
  deps.reports.wake();
  return reportIds;
}

/** Queues a task's reports of one kind (also the component export of the result area). */
export async function submitTaskReports(
  deps: ReportDeps, userId: number, target: { projectId: number; taskId?: number }, kind: ReportKind, reportTypes: number[], licenceFilter: LicenceFilter = {},
): Promise<number[]> {
  const t = await taskTarget(deps.db, userId, target.projectId, target.taskId);
  const stamp = fileStamp();
  return queueReports(deps, reportTypes.map((type) => taskReport(t, kind, type, userId, stamp, licenceFilter)));
}

/** Task reports of several projects, each from its latest succeeded run: all of them or none. */
export async function submitBatchReports(deps: ReportDeps, userId: number, projectIds: number[], reportTypes: number[]): Promise<number[]> {
  const targets: TaskTarget[] = [];
  for (const projectId of projectIds) targets.push(await taskTarget(deps.db, userId, projectId, undefined, REPORT_MSG.projectNoRun));
  const stamp = fileStamp();
  return queueReports(deps, targets.flatMap((t) => reportTypes.map((type) => taskReport(t, 'task', type, userId, stamp))));
}

/** The succeeded runs a merged report is made of: the latest of each project, in project order. */
async function latestRunIds(db: ServerContext['db'], projectIds: number[]): Promise<number[]> {
  const runs = await latestSucceededRuns(db, projectIds);
  return projectIds.map((id) => runs.get(id)?.id).filter((id): id is number => id !== undefined);
}

/** A subject report over the latest succeeded run of each of its projects. */
export async function submitSubjectReports(deps: ReportDeps, userId: number, subjectId: number, reportTypes: number[]): Promise<number[]> {
  const subject = await subjectHead(deps.db, subjectId);
  if (!subject) throw new UserError(RESULT_MSG.subjectNotFound, 'not-found');
  if (!(await canAccessSubject(deps.db, userId, subject.id))) throw UserError.denied();
  const runIds = await latestRunIds(deps.db, await projectIdsOf(deps.db, [subject.id]));
  if (!runIds.length) throw new UserError(REPORT_MSG.subjectNoRun);
  const stamp = fileStamp();
  return queueReports(deps, reportTypes.map((type) => ({
    kind: 'subject', reportType: type, name: `${subject.name}_${stamp}${extensionOf('subject', type)}`,
    subjectId: subject.id, subjectName: subject.name, projectId: null, projectName: '', runId: null, runSeq: null, params: { runIds }, createdBy: userId,
  })));
}

/** A statistics report over the latest succeeded run of every project the user may see. */
export async function submitStatisticReports(deps: ReportDeps, userId: number, reportTypes: number[]): Promise<number[]> {
  const runIds = await latestRunIds(deps.db, await projectIdsOf(deps.db, await visibleSubjectIds(deps.db, userId)));
  if (!runIds.length) throw new UserError(REPORT_MSG.statisticNoRun);
  const stamp = fileStamp();
  return queueReports(deps, reportTypes.map((type) => ({
    kind: 'statistic', reportType: type, name: `统计报告_${stamp}${extensionOf('statistic', type)}`,
    subjectId: null, subjectName: '全部应用', projectId: null, projectName: '', runId: null, runSeq: null, params: { runIds }, createdBy: userId,
  })));
}

/**
 * Whether the viewer may delete this report they may see (the spec's roles): administrators any,
 * the 应用's owner any of its reports, anyone else only the reports they generated.
 */
async function mayDelete(db: ServerContext['db'], viewer: ReportViewer, r: ReportRecord): Promise<boolean> {
  if (viewer.subjects === 'all' || r.created_by === viewer.userId) return true;
  return r.subject_id !== null && canManageSubject(db, viewer.userId, Number(r.subject_id));
}

/**
 * Deletes reports of the given kinds (status 3) and removes their files, all or none; how many
 * changed. A report the user may not see is refused as the data scope is; one they see but may
 * not delete (another member's) with REPORT_MSG.notOwn (HTTP 403).
 */
export async function removeReports(deps: Pick<ServerContext, 'db' | 'dataDir'>, userId: number, ids: number[], kinds: readonly ReportKind[]): Promise<number> {
  const unique = [...new Set(ids)];
  const rows = await findReports(deps.db, unique);
  if (rows.length !== unique.length || rows.some((r) => !kinds.includes(r.kind as ReportKind))) throw new UserError(REPORT_MSG.notFound, 'not-found');
  const viewer = await reportViewer(deps.db, userId);
  if (rows.some((r) => !mayView(viewer, r))) throw UserError.denied();
  for (const r of rows) if (!(await mayDelete(deps.db, viewer, r))) throw new UserError(REPORT_MSG.notOwn, 'denied');
  const deleted = await inTransaction(deps.db, (trx) => markDeleted(trx, unique));
  // The queue drops a file written for a report deleted meanwhile; these are the written ones.
  for (const r of rows) await rm(path.join(deps.dataDir, 'reports', String(r.id)), { recursive: true, force: true });
  return deleted.length;
}

/** Why a report cannot be downloaded, or null when it can. */
function refusal(report: ReportRecord): string | null {
  const status = Number(report.status);
  if (status === EXPORT_STATUS.DELETED) return REPORT_MSG.deleted;
  if (status === EXPORT_STATUS.FAILED) return report.message ? `${REPORT_MSG.failed}（${report.message}）` : REPORT_MSG.failed;
  if (status !== EXPORT_STATUS.SUCCEEDED || !report.file || !report.sha256) return REPORT_MSG.notReady;
  return null;
}

/** A generated report the user may download (its row says where the file is). */
export async function downloadableReport(db: ServerContext['db'], userId: number, id: number): Promise<ReportRecord & { file: string; sha256: string }> {
  const report = await findReport(db, id);
  if (!report) throw new UserError(REPORT_MSG.notFound, 'not-found');
  if (!mayView(await reportViewer(db, userId), report)) throw UserError.denied();
  const refused = refusal(report);
  if (refused) throw new UserError(refused, Number(report.status) === EXPORT_STATUS.DELETED ? 'not-found' : 'unavailable');
  return report as ReportRecord & { file: string; sha256: string };
}
