// Report area (issue 7): reports are generated asynchronously on the platform as jobs with the
// export statuses 0 waiting, 1 generating, 2 succeeded, 3 deleted, 4 failed, then downloaded
// from report management. One report record per file; task reports, subject reports, batch
// reports, licence reports, statistics reports, VEX exports and component exports are kinds of
// it, each listed by its own call (the spec's lists) and all downloaded by one designed call.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { DeletedSchema, Id, IdParams, IdsQuery, Nullable, PageSchema, PagingQuerySchema } from './kit.ts';
import { LicenseSourceSchema } from './result/common.ts';

const L = Type.Literal;

/** The message every generate call answers with (spec doc 1 §9). */
export const REPORT_SUBMITTED_MESSAGE = '报告生成提交成功，生成完成之后可在报告管理中下载。';

/** What a report covers. */
export const ReportKindSchema = Type.Union([
  /** One task (a project's run): every section. */
  L('task'),
  /** Every project of a subject (their latest successful tasks). */
  L('subject'),
  /** One task, licence sections only (the licence reports list). */
  L('license'),
  /** Every project the user may see (the statistics reports). */
  L('statistic'),
  /** VEX statements of one task (CycloneDX VEX or OpenVEX). */
  L('vex'),
  /** One task's component list. */
  L('component'),
]);
export type ReportKind = Static<typeof ReportKindSchema>;

/** reportType codes: 1 Word, 2 Excel, 3 PDF, 4 SPDX, 5 CycloneDX, 6 SWID (contract/enums REPORT_TYPE). */
const ReportTypes = Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { minItems: 1, maxItems: 6, uniqueItems: true });
/** Document formats only (Word, Excel, PDF) for reports that are not a bill of materials. */
const DocumentTypes = Type.Array(Type.Integer({ minimum: 1, maximum: 3 }), { minItems: 1, maxItems: 3, uniqueItems: true });

export const ReportRowSchema = Type.Object({
  id: Type.Integer(),
  kind: ReportKindSchema,
  /** File name as downloaded, extension included. */
  name: Type.String(),
  /** 1–6 for documents and SBOMs (REPORT_TYPE); VEX exports use 11 CycloneDX VEX, 12 OpenVEX; component exports 21 xlsx, 22 csv. */
  reportType: Type.Integer(),
  /** 0 waiting, 1 generating, 2 succeeded, 3 deleted, 4 failed. */
  status: Type.Integer(),
  /** 0–100 while generating. */
  progress: Type.Integer(),
  /** Bytes, once generated. */
  size: Nullable(Type.Number()),
  /** SHA-256 of the file (hex), once generated. */
  sha256: Nullable(Type.String()),
  /** Why it failed, in Chinese. */
  message: Type.String(),
  subjectId: Nullable(Type.Integer()),
  subjectName: Type.String(),
  projectId: Nullable(Type.Integer()),
  projectName: Type.String(),
  taskId: Nullable(Type.Integer()),
  /** The task's number within its project. */
  taskSeq: Nullable(Type.Integer()),
  createdBy: Type.String(),
  createTime: Type.String(),
  finishTime: Nullable(Type.String()),
});
export type ReportRow = Static<typeof ReportRowSchema>;

const SubmittedSchema = Type.Object({ reportIds: Type.Array(Type.Integer()) });

const ListFilters = {
  /** Matches the file, subject or project name. */
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
  reportType: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })),
  subjectId: Type.Optional(Id()),
  projectId: Type.Optional(Id()),
};
const ListQuery = Type.Object({ ...PagingQuerySchema.properties, ...ListFilters });
const ReportPage = PageSchema(ReportRowSchema);

// ---- generate

export const generate = defineCall({
  name: 'report.generate',
  method: 'POST',
  path: '/api/report',
  summary: '生成任务报告（每种格式一个文件）',
  body: Type.Object({
    projectId: Id(),
    /** Omit for the project's latest successful task. */
    taskId: Type.Optional(Id()),
    reportTypes: ReportTypes,
    /** `license`: the licence sections only (listed under 许可证报告). */
    scope: Type.Optional(Type.Union([L('full'), L('license')])),
    /**
     * The licence sections only: findings recognised in one of these ways (识别方式); all when
     * absent. The documents state the filter (仅包含识别方式为…、可信度 ≥ N 的许可证).
     */
    licenceKinds: Type.Optional(Type.Array(LicenseSourceSchema, { minItems: 1, maxItems: 5, uniqueItems: true })),
    /** The licence sections only: findings with a confidence of at least this (0–100; package metadata and SPDX tags count as 100). */
    minScore: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  }),
  response: SubmittedSchema,
  permission: 'report:list',
});

export const batch = defineCall({
  name: 'report.batch',
  method: 'POST',
  path: '/api/report/batch',
  summary: '批量生成多个项目最新任务的报告',
  body: Type.Object({ projectIds: Type.Array(Id(), { minItems: 1, maxItems: 200, uniqueItems: true }), reportTypes: ReportTypes }),
  response: SubmittedSchema,
  permission: 'report:list',
});

export const subjectGenerate = defineCall({
  name: 'report.subjectGenerate',
  method: 'POST',
  path: '/api/report/subject/generate',
  summary: '生成应用报告（应用下各项目最新成功任务的汇总）',
  body: Type.Object({ subjectId: Id(), reportTypes: ReportTypes }),
  response: SubmittedSchema,
  permission: 'report:list',
});

export const statisticGenerate = defineCall({
  name: 'report.statisticGenerate',
  method: 'POST',
  path: '/api/report/statistic/generate',
  summary: '生成统计报告（当前用户可见的全部项目）',
  body: Type.Object({ reportTypes: DocumentTypes }),
  response: SubmittedSchema,
  permission: 'statistic-project:summary:report',
});

export const vexExport = defineCall({
  name: 'report.vexExport',
  method: 'POST',
  path: '/api/vex/export',
  summary: '导出任务的 VEX 声明（1 CycloneDX VEX，2 OpenVEX）',
  body: Type.Object({
    projectId: Id(),
    taskId: Type.Optional(Id()),
    vexTypes: Type.Array(Type.Union([L(1), L(2)]), { minItems: 1, maxItems: 2, uniqueItems: true }),
  }),
  response: SubmittedSchema,
  permission: 'analysis:result:vul:list',
});

// ---- lists (one per kind, as the spec has them) and deletes

export const list = defineCall({
  name: 'report.list',
  method: 'GET',
  path: '/api/report/list',
  summary: '报告管理：任务、应用与批量报告（spec: 列表路径由调用方给出）',
  query: ListQuery,
  response: ReportPage,
  permission: 'report:list',
});

export const remove = defineCall({
  name: 'report.remove',
  method: 'DELETE',
  path: '/api/report',
  summary: '删除报告（服务器上的文件删除，记录标为已删除）',
  query: IdsQuery('reportIds'),
  response: DeletedSchema,
  permission: 'report:list',
});

export const statisticList = defineCall({
  name: 'report.statisticList',
  method: 'GET',
  path: '/api/report/statistic/list',
  summary: '统计报告列表',
  query: ListQuery,
  response: ReportPage,
  permission: 'statistic-project:summary:report',
});

export const statisticRemove = defineCall({
  name: 'report.statisticRemove',
  method: 'DELETE',
  path: '/api/report/statistic/{id}',
  summary: '删除统计报告',
  params: IdParams,
  response: DeletedSchema,
  permission: 'statistic-project:summary:report',
});

export const vexList = defineCall({
  name: 'report.vexList',
  method: 'GET',
  path: '/api/vex/report/list',
  summary: 'VEX 导出列表',
  query: ListQuery,
  response: ReportPage,
  permission: 'analysis:result:vul:list',
});

export const vexRemove = defineCall({
  name: 'report.vexRemove',
  method: 'DELETE',
  path: '/api/vex/report/delete/{id}',
  summary: '删除 VEX 导出',
  params: IdParams,
  response: DeletedSchema,
  permission: 'analysis:result:vul:list',
});

export const componentExportList = defineCall({
  name: 'report.componentExportList',
  method: 'GET',
  path: '/api/component/export/list',
  summary: '组件导出列表',
  query: ListQuery,
  response: ReportPage,
  permission: 'analysis:result:cominfo:list',
});

export const componentExportRemove = defineCall({
  name: 'report.componentExportRemove',
  method: 'DELETE',
  path: '/api/component/export',
  summary: '删除组件导出',
  query: IdsQuery('ids'),
  response: DeletedSchema,
  permission: 'analysis:result:cominfo:list',
});

export const licenseList = defineCall({
  name: 'report.licenseList',
  method: 'GET',
  path: '/api/license/report/list',
  summary: '许可证报告列表',
  query: ListQuery,
  response: ReportPage,
  permission: 'statistic-project:license:list',
});

export const licenseRemove = defineCall({
  name: 'report.licenseRemove',
  method: 'DELETE',
  path: '/api/license/report/delete/{id}',
  summary: '删除许可证报告',
  params: IdParams,
  response: DeletedSchema,
  permission: 'statistic-project:license:list',
});

/**
 * The file itself, not an envelope (a failure still answers one). Honours `Range: bytes=N-` with
 * 206 so an interrupted download resumes; the `ETag` and `X-Content-SHA256` headers carry the
 * file's SHA-256, which the desktop checks after the last byte.
 */
export const download = defineCall({
  name: 'report.download',
  method: 'GET',
  path: '/api/report/download/{id}',
  summary: '下载报告文件（支持断点续传）',
  params: IdParams,
  response: Type.Null(),
  raw: true,
});

export const reportCalls = {
  generate, batch, subjectGenerate, statisticGenerate, vexExport,
  list, remove, statisticList, statisticRemove, vexList, vexRemove, componentExportList, componentExportRemove, licenseList, licenseRemove,
  download,
};

/** Header with the file's SHA-256 on a download. */
export const CHECKSUM_HEADER = 'x-content-sha256';
/** reportType of VEX exports (11 CycloneDX VEX, 12 OpenVEX) and component exports (21 xlsx, 22 csv). */
export const VEX_REPORT_TYPE = { 1: 11, 2: 12 } as const;
export const COMPONENT_EXPORT_REPORT_TYPE = { xlsx: 21, csv: 22 } as const;
