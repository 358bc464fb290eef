// Report area (issue 7): generate calls queue one report row per format (services/reports.ts);
// the lists answer per kind with the data scope of reports.ts; deletes mark rows 已删除 and remove
// their files; `download` streams a generated file with its SHA-256 and resumes with
// `Range: bytes=N-`.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { CHECKSUM_HEADER, REPORT_SUBMITTED_MESSAGE, VEX_REPORT_TYPE, reportCalls, type ReportKind } from '../../../contract/api/report.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import { type VexFormat } from '../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import type { ServerContext } from '../../context.ts';
import { listReports, reportViewer, type ReportFilters } from '../../db/repositories/reports.ts';
import { UserError } from '../../errors.ts';
import {
  REPORT_MSG, downloadableReport, extensionOf, removeReports, submitBatchReports, submitStatisticReports, submitSubjectReports, submitTaskReports,
} from '../../services/reports.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

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
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `bytes=N-`, `bytes=N-M` or `bytes=-N` of a file of `size` bytes; null to send it whole, 'invalid' for 416. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
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

const submitted = (reportIds: number[]) => ok({ reportIds }, REPORT_SUBMITTED_MESSAGE);

function reportAreaHandlers(ctx: ServerContext): AreaHandlers<typeof reportCalls> {
  const { db, dataDir } = ctx;

  const list = (kinds: readonly ReportKind[]) => async ({ request, query }: { request: FastifyRequest; query: ReportFilters & { page?: number; size?: number } }) => {
    const viewer = await reportViewer(db, signedIn(request).userId);
    return ok(await listReports(db, viewer, kinds, query ?? {}, pagingOf(query)));
  };

  /** Deletes reports of the given kinds the user may see. */
  const remove = async (userId: number, ids: number[], kinds: readonly ReportKind[]) =>
    ok({ deleted: await removeReports(ctx, userId, ids, kinds) }, SUCCESS_MESSAGES.deleted);
  const idsOf = (csv: string) => csv.split(',').map(Number);

  return {
    async generate({ request, body }) {
      // The licence sections' filter: 识别方式 and 最低可信度, as the licence tab has them.
      const licenceFilter = { ...(body.licenceKinds && body.licenceKinds.length < 5 ? { kinds: body.licenceKinds } : {}), ...(body.minScore ? { minScore: body.minScore } : {}) };
      return submitted(await submitTaskReports(ctx, signedIn(request).userId, body, body.scope === 'license' ? 'license' : 'task', body.reportTypes, licenceFilter));
    },

    async batch({ request, body }) {
      return submitted(await submitBatchReports(ctx, signedIn(request).userId, body.projectIds, body.reportTypes));
    },

    async subjectGenerate({ request, body }) {
      return submitted(await submitSubjectReports(ctx, signedIn(request).userId, body.subjectId, body.reportTypes));
    },

    async statisticGenerate({ request, body }) {
      return submitted(await submitStatisticReports(ctx, signedIn(request).userId, body.reportTypes));
    },

    async vexExport({ request, body }) {
      return submitted(await submitTaskReports(ctx, signedIn(request).userId, body, 'vex', body.vexTypes.map((t: VexFormat) => VEX_REPORT_TYPE[t])));
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
      const report = await downloadableReport(db, signedIn(request).userId, params.id);
      const file = path.join(dataDir, report.file);
      const size = await stat(file).then((s) => s.size, () => null);
      if (size === null) throw new UserError(REPORT_MSG.fileMissing, 'not-found');
      const etag = `"${report.sha256}"`;
      // If-Range: resume only when the client's partial copy is of this very file.
      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, size);
      reply.header('accept-ranges', 'bytes').header('etag', etag).header(CHECKSUM_HEADER, report.sha256);
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

export const reportHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(reportCalls, reportAreaHandlers(ctx));
