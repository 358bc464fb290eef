// Report area (issue 7): generate calls queue one report row per format and wake the report
// queue; the lists answer per kind with the data scope of reports.ts; deletes mark rows 已删除
// and remove their files; `download` streams a generated file with its SHA-256 and resumes with
// `Range: bytes=N-`.
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import {
  CHECKSUM_HEADER, COMPONENT_EXPORT_REPORT_TYPE, REPORT_SUBMITTED_MESSAGE, VEX_REPORT_TYPE, reportCalls, type ReportKind,
} from '../../../contract/api/report.ts';
import { fail, ok, type Envelope } from '../../../contract/envelope.ts';
import { EXPORT_EXTENSION, EXPORT_STATUS, TASK_STATUS, VEX_EXTENSION, formatOfReportType, type VexFormat } from '../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import type { ServerContext } from '../../context.ts';
import {
  findReport, findReports, insertReports, listReports, markDeleted, mayView, reportViewer, type NewReport, type ReportRecord,
} from '../../db/repositories/reports.ts';
import { RESULT_MSG, accessibleProject, chunks } from '../../db/repositories/results.ts';
import type { Database } from '../../db/schema.ts';
import { canAccessSubject, visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

export const REPORT_MSG = {
  noRun: '该项目还没有分析成功的任务, 报告无法生成',
  runNotSucceeded: '该任务尚未分析成功，报告无法生成',
  subjectNoRun: '该应用还没有分析成功的任务, 报告无法生成',
  statisticNoRun: '可见的项目中还没有分析成功的任务, 报告无法生成',
  notFound: '报告不存在',
  notReady: '报告尚未生成完成',
  deleted: '报告已删除',
  failed: '报告生成失败，请重新生成',
  fileMissing: '报告文件不存在，请重新生成',
  badRange: '请求的下载范围无效',
} as const;

/** `yyyyMMddHHmmss` in the platform's local time, the time part of report file names. */
export function fileStamp(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** The extension of a report row's file. */
export function extensionOf(kind: string, reportType: number): string {
  if (kind === 'vex') return reportType === VEX_REPORT_TYPE[2] ? VEX_EXTENSION[2] : VEX_EXTENSION[1];
  if (kind === 'component') return reportType === COMPONENT_EXPORT_REPORT_TYPE.csv ? '.csv' : '.xlsx';
  return EXPORT_EXTENSION[formatOfReportType(reportType) ?? 'pdf'];
}

const CONTENT_TYPES: Record<string, string> = {
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pdf': 'application/pdf',
  '.spdx.json': 'application/spdx+json',
  '.CycloneDX.json': 'application/vnd.cyclonedx+json',
  '.vex.cdx.json': 'application/vnd.cyclonedx+json',
  '.openvex.json': 'application/json',
  '.zip': 'application/zip',
  '.csv': 'text/csv; charset=utf-8',
};

/** `attachment` with an ASCII fallback and the RFC 5987 UTF-8 name (Chinese project names). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `bytes=N-`, `bytes=N-M` or `bytes=-N` of a file of `size` bytes; null to send it whole, 'invalid' for 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: a server may answer with the whole file (RFC 9110 §14.2).
  if (!m || (!m[1] && !m[2])) return null;
  if (!m[1]) {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'invalid';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  if (start >= size || (m[2] && Number(m[2]) < start)) return 'invalid';
  return { start, end };
}

type Db = Kysely<Database>;
interface SucceededRun { id: number; seq: number; projectId: number }

/** The latest succeeded run of each project. */
async function latestSucceeded(db: Db, projectIds: number[]): Promise<Map<number, SucceededRun>> {
  const out = new Map<number, SucceededRun>();
  for (const part of chunks(projectIds, 500)) {
    const latest = db.selectFrom('runs').select((eb) => eb.fn.max('id').as('id'))
      .where('status', '=', TASK_STATUS.SUCCEEDED).where('project_id', 'in', part).groupBy('project_id');
    const rows = await db.selectFrom('runs').select(['id', 'seq', 'project_id']).where('id', 'in', latest).execute();
    for (const r of rows) out.set(Number(r.project_id), { id: Number(r.id), seq: Number(r.seq), projectId: Number(r.project_id) });
  }
  return out;
}

interface TaskTarget { project: { id: number; name: string; subject_id: number }; subjectName: string; run: SucceededRun }

/** The project (visible to the user) and the succeeded run a task report is made of. */
async function taskTarget(db: Db, userId: number, projectId: number, taskId?: number): Promise<{ ok: true; value: TaskTarget } | { ok: false; message: string }> {
  const project = await accessibleProject(db, userId, projectId);
  if (!project.ok) return project;
  let run: SucceededRun | undefined;
  if (taskId !== undefined) {
    const row = await db.selectFrom('runs').select(['id', 'seq', 'project_id', 'status']).where('id', '=', taskId).executeTakeFirst();
    if (!row || Number(row.project_id) !== projectId) return { ok: false, message: RESULT_MSG.taskNotFound };
    if (Number(row.status) !== TASK_STATUS.SUCCEEDED) return { ok: false, message: REPORT_MSG.runNotSucceeded };
    run = { id: Number(row.id), seq: Number(row.seq), projectId };
  } else {
    run = (await latestSucceeded(db, [projectId])).get(projectId);
  }
  if (!run) return { ok: false, message: REPORT_MSG.noRun };
  const subject = await db.selectFrom('subjects').select('name').where('id', '=', project.value.subject_id).executeTakeFirst();
  return { ok: true, value: { project: project.value, subjectName: subject?.name ?? '', run } };
}

/** One row of a task-based report (task, licence, VEX, component export). */
function taskReport(t: TaskTarget, kind: ReportKind, reportType: number, userId: number, stamp: string): NewReport {
  const suffix = kind === 'vex' ? '_VEX' : kind === 'license' ? '_许可证报告' : kind === 'component' ? '_组件清单' : '';
  return {
    kind, reportType, name: `${t.project.name}_任务#${t.run.seq}_${stamp}${suffix}${extensionOf(kind, reportType)}`,
    subjectId: t.project.subject_id, subjectName: t.subjectName, projectId: t.project.id, projectName: t.project.name,
    runId: t.run.id, runSeq: t.run.seq, params: { runIds: [t.run.id] }, createdBy: userId,
  };
}

/** Inserts the rows, wakes the queue and answers the spec's message with their ids. */
async function submit(ctx: ServerContext, rows: NewReport[]): Promise<Envelope<{ reportIds: number[] }>> {
  const reportIds = await ctx.db.transaction().execute((trx) => insertReports(trx, rows));
  ctx.reports.wake();
  return ok({ reportIds }, REPORT_SUBMITTED_MESSAGE);
}

/** Queues a task's reports of one kind (also the component export of the result area). */
export async function submitTaskReports(
  ctx: ServerContext, userId: number, target: { projectId: number; taskId?: number }, kind: ReportKind, reportTypes: number[],
): Promise<Envelope<{ reportIds: number[] } | null>> {
  const t = await taskTarget(ctx.db, userId, target.projectId, target.taskId);
  if (!t.ok) return fail(t.message);
  const stamp = fileStamp();
  return submit(ctx, reportTypes.map((type) => taskReport(t.value, kind, type, userId, stamp)));
}

/** The component export of GET /api/component/export (xlsx → 21, csv → 22). */
export async function submitComponentExport(
  ctx: ServerContext, userId: number, query: { projectId: number; taskId?: number; format: 'xlsx' | 'csv' },
): Promise<Envelope<{ reportId: number } | null>> {
  const answer = await submitTaskReports(ctx, userId, query, 'component', [COMPONENT_EXPORT_REPORT_TYPE[query.format]]);
  return answer.data ? ok({ reportId: answer.data.reportIds[0]! }, answer.message) : fail(answer.message);
}

export function reportAreaHandlers(ctx: ServerContext): AreaHandlers<typeof reportCalls> {
  const { db, dataDir } = ctx;

  const list = (kinds: readonly ReportKind[]) => async ({ request, query }: { request: import('fastify').FastifyRequest; query: Parameters<typeof listReports>[3] & { page?: number; size?: number } }) => {
    const viewer = await reportViewer(db, signedIn(request).userId);
    return ok(await listReports(db, viewer, kinds, query ?? {}, pagingOf(query)));
  };

  /** Deletes reports of the given kinds the user may see: status 3, files removed. */
  const remove = async (userId: number, ids: number[], kinds: readonly ReportKind[]) => {
    const unique = [...new Set(ids)];
    const rows = await findReports(db, unique);
    if (rows.length !== unique.length || rows.some((r) => !kinds.includes(r.kind as ReportKind))) return fail(REPORT_MSG.notFound);
    const viewer = await reportViewer(db, userId);
    if (rows.some((r) => !mayView(viewer, r))) return fail(RESULT_MSG.forbidden);
    const deleted = await db.transaction().execute((trx) => markDeleted(trx, unique));
    // The queue drops a file written for a report deleted meanwhile; these are the written ones.
    for (const r of rows) await rm(path.join(dataDir, 'reports', String(r.id)), { recursive: true, force: true });
    return ok({ deleted: deleted.length }, SUCCESS_MESSAGES.deleted);
  };
  const idsOf = (csv: string) => csv.split(',').map(Number);

  return {
    async generate({ request, body }) {
      return submitTaskReports(ctx, signedIn(request).userId, body, body.scope === 'license' ? 'license' : 'task', body.reportTypes);
    },

    async batch({ request, body }) {
      const userId = signedIn(request).userId;
      const targets: TaskTarget[] = [];
      for (const projectId of body.projectIds) {
        const t = await taskTarget(db, userId, projectId);
        if (!t.ok) {
          if (t.message !== REPORT_MSG.noRun) return fail(t.message);
          const name = (await db.selectFrom('projects').select('name').where('id', '=', projectId).executeTakeFirst())?.name ?? String(projectId);
          return fail(`项目“${name}”还没有分析成功的任务, 报告无法生成`);
        }
        targets.push(t.value);
      }
      const stamp = fileStamp();
      return submit(ctx, targets.flatMap((t) => body.reportTypes.map((type) => taskReport(t, 'task', type, userId, stamp))));
    },

    async subjectGenerate({ request, body }) {
      const userId = signedIn(request).userId;
      const subject = await db.selectFrom('subjects').select(['id', 'name']).where('id', '=', body.subjectId).executeTakeFirst();
      if (!subject) return fail(RESULT_MSG.subjectNotFound);
      if (!(await canAccessSubject(db, userId, subject.id))) return fail(RESULT_MSG.subjectForbidden);
      const projects = await db.selectFrom('projects').select('id').where('subject_id', '=', subject.id).orderBy('id').execute();
      const runs = await latestSucceeded(db, projects.map((p) => Number(p.id)));
      if (!runs.size) return fail(REPORT_MSG.subjectNoRun);
      const runIds = projects.map((p) => runs.get(Number(p.id))?.id).filter((id): id is number => id !== undefined);
      const stamp = fileStamp();
      return submit(ctx, body.reportTypes.map((type) => ({
        kind: 'subject', reportType: type, name: `${subject.name}_${stamp}${extensionOf('subject', type)}`,
        subjectId: subject.id, subjectName: subject.name, projectId: null, projectName: '', runId: null, runSeq: null, params: { runIds }, createdBy: userId,
      })));
    },

    async statisticGenerate({ request, body }) {
      const userId = signedIn(request).userId;
      const visible = await visibleSubjectIds(db, userId);
      let projectsQuery = db.selectFrom('projects').select('id').orderBy('subject_id').orderBy('id');
      if (visible !== 'all') projectsQuery = visible.length ? projectsQuery.where('subject_id', 'in', visible) : projectsQuery.where('id', '<', 0);
      const projects = await projectsQuery.execute();
      const runs = await latestSucceeded(db, projects.map((p) => Number(p.id)));
      if (!runs.size) return fail(REPORT_MSG.statisticNoRun);
      const runIds = projects.map((p) => runs.get(Number(p.id))?.id).filter((id): id is number => id !== undefined);
      const stamp = fileStamp();
      return submit(ctx, body.reportTypes.map((type) => ({
        kind: 'statistic', reportType: type, name: `统计报告_${stamp}${extensionOf('statistic', type)}`,
        subjectId: null, subjectName: '全部应用', projectId: null, projectName: '', runId: null, runSeq: null, params: { runIds }, createdBy: userId,
      })));
    },

    async vexExport({ request, body }) {
      return submitTaskReports(ctx, signedIn(request).userId, body, 'vex', body.vexTypes.map((t: VexFormat) => VEX_REPORT_TYPE[t]));
    },

    list: list(['task', 'subject']),
    statisticList: list(['statistic']),
    vexList: list(['vex']),
    componentExportList: list(['component']),
    licenseList: list(['license']),

    async remove({ request, query }) {
      return remove(signedIn(request).userId, idsOf(query.reportIds), ['task', 'subject']);
    },
    async statisticRemove({ request, params }) {
      return remove(signedIn(request).userId, [params.id], ['statistic']);
    },
    async vexRemove({ request, params }) {
      return remove(signedIn(request).userId, [params.id], ['vex']);
    },
    async componentExportRemove({ request, query }) {
      return remove(signedIn(request).userId, idsOf(query.ids), ['component']);
    },
    async licenseRemove({ request, params }) {
      return remove(signedIn(request).userId, [params.id], ['license']);
    },

    async download({ request, reply, params }) {
      const report = await findReport(db, params.id);
      if (!report) return fail(REPORT_MSG.notFound);
      if (!mayView(await reportViewer(db, signedIn(request).userId), report)) return fail(RESULT_MSG.forbidden);
      const refused = refusal(report);
      if (refused) return fail(refused);
      const file = path.join(dataDir, report.file!);
      const size = await stat(file).then((s) => s.size, () => null);
      if (size === null) return fail(REPORT_MSG.fileMissing);
      const etag = `"${report.sha256}"`;
      // If-Range: resume only when the client's partial copy is of this very file.
      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, size);
      reply.header('accept-ranges', 'bytes').header('etag', etag).header(CHECKSUM_HEADER, report.sha256!);
      if (range === 'invalid') {
        reply.code(416).header('content-range', `bytes */${size}`);
        return fail(REPORT_MSG.badRange);
      }
      const ext = extensionOf(report.kind, Number(report.report_type));
      reply.header('content-type', CONTENT_TYPES[ext] ?? 'application/octet-stream').header('content-disposition', contentDisposition(report.name));
      if (range) {
        reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
        return reply.send(createReadStream(file, { start: range.start, end: range.end }));
      }
      reply.header('content-length', size);
      return reply.send(createReadStream(file));
    },
  };
}

/** Why a report cannot be downloaded, or null when it can. */
function refusal(report: ReportRecord): string | null {
  const status = Number(report.status);
  if (status === EXPORT_STATUS.DELETED) return REPORT_MSG.deleted;
  if (status === EXPORT_STATUS.FAILED) return report.message ? `${REPORT_MSG.failed}（${report.message}）` : REPORT_MSG.failed;
  if (status !== EXPORT_STATUS.SUCCEEDED || !report.file || !report.sha256) return REPORT_MSG.notReady;
  return null;
}

export const reportHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(reportCalls, reportAreaHandlers(ctx));
