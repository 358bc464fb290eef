// Result area, marks (spec doc 1 §7 "Mark", "VEX"): marking components and findings, custom
// levels, VEX statements, and the logs of each.
import { Type, type Static } from 'typebox';
import { defineCall } from '../define.ts';
import { AuthorFields, Id, Nullable, pagedList } from '../kit.ts';
import { LevelSchema } from '../vulnerability.ts';
import {
  ComponentMarkSchema, MarkLogKindSchema, RESULT_PERMISSION, VexSchema, VUL_PERMISSION, VulnerabilityMarkSchema,
} from './common.ts';

// ---- marks and logs ------------------------------------------------------------------------------

const Remark = Type.String({ maxLength: 500 });
const MarkIds = Type.Array(Id(), { minItems: 1, maxItems: 5000 });

/** The rows a mark call changes: `ids` must be rows of `taskId`, and `taskId` a run of `projectId`. */
const MarkTarget = {
  projectId: Id(),
  taskId: Id(),
  ids: MarkIds,
};

/** `ids` are component row ids. */
export const ComponentMarkBodySchema = Type.Object({
  ...MarkTarget,
  mark: ComponentMarkSchema,
  remark: Remark,
});
export type ComponentMarkBody = Static<typeof ComponentMarkBodySchema>;

/** `ids` are finding row ids. */
export const VulnerabilityMarkBodySchema = Type.Object({
  ...MarkTarget,
  mark: VulnerabilityMarkSchema,
  remark: Remark,
  /** Sets the effective level (logged as kind `level`); absent keeps it. */
  customLevel: Type.Optional(LevelSchema),
  /** Required with customLevel. */
  levelRemark: Type.Optional(Remark),
});
export type VulnerabilityMarkBody = Static<typeof VulnerabilityMarkBodySchema>;

/** `ids` are finding row ids. */
export const VexMarkBodySchema = Type.Object({
  ...MarkTarget,
  vex: VexSchema,
  remark: Remark,
});
export type VexMarkBody = Static<typeof VexMarkBodySchema>;

export const MarkResultSchema = Type.Object({
  /** Rows changed (rows already carrying the mark count too). */
  updated: Type.Integer(),
});

export const MarkLogRowSchema = Type.Object({
  id: Type.Integer(),
  kind: MarkLogKindSchema,
  /** The run the mark was made on, and its seq; a retained mark's earlier entries keep their run. */
  taskId: Nullable(Type.Integer()),
  seq: Nullable(Type.Integer()),
  /** Codes as strings (N/F/…, 0–7, level 1–16, VEX 0–4) with their labels. */
  oldValue: Type.String(),
  newValue: Type.String(),
  oldLabel: Type.String(),
  newLabel: Type.String(),
  remark: Type.String(),
  /** userName is '系统' for marks carried over by retention audit. */
  ...AuthorFields,
});
export type MarkLogRow = Static<typeof MarkLogRowSchema>;

/**
 * `{id}`: a component or finding row id of the project. The log covers the same component (purl) or
 * finding (purl + advisory) across all runs of the project, newest first, since marks are retained.
 */
const MarkLogParams = Type.Object({ projectId: Id(), id: Id() });

// ---- calls: marks, VEX and their logs ------------------------------------------------------------

export const markComponentSource = defineCall({
  name: 'result.markComponentSource',
  method: 'POST',
  path: '/api/mark/component/source',
  summary: '标记组件（源码检测）',
  body: ComponentMarkBodySchema,
  response: MarkResultSchema,
  permission: 'analysis:result:cominfo:check',
});

export const markComponentBinary = defineCall({
  name: 'result.markComponentBinary',
  method: 'POST',
  path: '/api/mark/component/binary',
  summary: '标记组件（二进制检测）',
  body: ComponentMarkBodySchema,
  response: MarkResultSchema,
  permission: 'analysis:result:cominfo:check',
});

export const componentMarkLog = defineCall({
  name: 'result.componentMarkLog',
  method: 'GET',
  path: '/api/mark/component/log/{projectId}/{id}',
  summary: '组件标记记录',
  params: MarkLogParams,
  ...pagedList(MarkLogRowSchema),
  permission: RESULT_PERMISSION,
});

export const markVulnerabilitySource = defineCall({
  name: 'result.markVulnerabilitySource',
  method: 'POST',
  path: '/api/mark/vulnerability/source',
  summary: '标记漏洞（源码检测），可同时自定义等级',
  body: VulnerabilityMarkBodySchema,
  response: MarkResultSchema,
  permission: VUL_PERMISSION,
});

export const markVulnerabilityBinary = defineCall({
  name: 'result.markVulnerabilityBinary',
  method: 'POST',
  path: '/api/mark/vulnerability/binary',
  summary: '标记漏洞（二进制检测），可同时自定义等级',
  body: VulnerabilityMarkBodySchema,
  response: MarkResultSchema,
  permission: VUL_PERMISSION,
});

export const vulnerabilityMarkLog = defineCall({
  name: 'result.vulnerabilityMarkLog',
  method: 'GET',
  path: '/api/mark/vulnerability/log/{projectId}/{id}',
  summary: '漏洞标记与等级修改记录',
  params: MarkLogParams,
  ...pagedList(MarkLogRowSchema),
  permission: VUL_PERMISSION,
});

export const vexMark = defineCall({
  name: 'result.vexMark',
  method: 'POST',
  path: '/api/vex/mark/vulnerability',
  summary: '设置漏洞 VEX 状态',
  body: VexMarkBodySchema,
  response: MarkResultSchema,
  permission: VUL_PERMISSION,
});

export const vexMarkLog = defineCall({
  name: 'result.vexMarkLog',
  method: 'GET',
  path: '/api/vex/mark/vulnerability/log/{projectId}/{id}',
  summary: 'VEX 状态修改记录',
  params: MarkLogParams,
  ...pagedList(MarkLogRowSchema),
  permission: VUL_PERMISSION,
});

/** The mark and VEX calls (server/routes/result/marks.ts answers them). */
export const resultMarkCalls = { markComponentSource, markComponentBinary, componentMarkLog, markVulnerabilitySource, markVulnerabilityBinary, vulnerabilityMarkLog, vexMark, vexMarkLog };
