// Result area, licences (spec doc 1 §7 "Task"): the licences recognised in a run, the copyright
// holders, and the licence conflicts with the project's outbound licence.
import { Type, type Static } from 'typebox';
import { defineCall } from '../define.ts';
import { Keyword, Nullable, PageSchema } from '../kit.ts';
import { CopyleftSchema } from '../license.ts';
import { LevelSchema } from '../vulnerability.ts';
import {
  ConflictVerdictSchema, VerdictSourceSchema, LicenceConfidenceQuery, LicenseScopeSchema, LicenseSourceSchema, LicenseViewSchema, OutboundSourceSchema, ProjectParams, RESULT_PERMISSION,
  TaskPagingQuery,
} from './common.ts';

// ---- licences, copyrights, conflicts -------------------------------------------------------------

export const ComponentRefSchema = Type.Object({ id: Type.Integer(), name: Type.String(), version: Type.String() });
export const LicenseFileRefSchema = Type.Object({
  file: Type.String(),
  startLine: Nullable(Type.Integer()),
  endLine: Nullable(Type.Integer()),
  source: LicenseSourceSchema,
  /**
   * Confidence 0–100 (可信度): the text match's similarity for full texts and headers, a fixed value
   * for references; 100 for SPDX tags and package metadata, which state the id itself.
   */
  score: Type.Integer(),
  /** The file's own lines that decided it (at most 5 of at most 200 characters); [] when declared or analysed before they were kept. */
  evidence: Type.Array(Type.String()),
  /** For a modified licence text (`LicenseRef-Cairn-modified-<id>`): the standard licence it is nearest to. */
  nearest: Nullable(Type.String()),
});
export type LicenseFileRef = Static<typeof LicenseFileRefSchema>;

export const LicenseUsageRowSchema = Type.Object({
  spdxId: Type.String(),
  /** Knowledge-base name; the id itself when unknown. */
  name: Type.String(),
  level: LevelSchema,
  /** Knowledge-base row id for /license/details; null when the id is not in the knowledge base. */
  licenseId: Nullable(Type.Integer()),
  copyleft: Nullable(CopyleftSchema),
  sources: Type.Array(LicenseSourceSchema),
  /** Where it was found: project, or test / licence-data / data in the `excluded` view. */
  scopes: Type.Array(LicenseScopeSchema),
  componentCount: Type.Integer(),
  /** The first 5. */
  components: Type.Array(ComponentRefSchema),
  fileCount: Type.Integer(),
  /** The first 5 places it was recognised in files. */
  files: Type.Array(LicenseFileRefSchema),
  /** The highest confidence (0–100) among the places it was found. */
  maxScore: Type.Integer(),
  /** For a modified licence text (`LicenseRef-Cairn-modified-<id>`): the standard licence it is nearest to; else null. */
  nearest: Nullable(Type.String()),
});
export type LicenseUsageRow = Static<typeof LicenseUsageRowSchema>;

export const CopyrightRowSchema = Type.Object({
  /** The holder (deduplication key); the statement itself when no holder was parsed. */
  holder: Type.String(),
  /** Distinct statements, the first 5. */
  statements: Type.Array(Type.String()),
  statementCount: Type.Integer(),
  authors: Type.Array(Type.String()),
  fileCount: Type.Integer(),
  /** The first 10 places. */
  files: Type.Array(Type.Object({ file: Type.String(), line: Type.Integer() })),
});
export type CopyrightRow = Static<typeof CopyrightRowSchema>;

export const ConflictRowSchema = Type.Object({
  componentId: Type.Integer(),
  name: Type.String(),
  version: Type.String(),
  purl: Type.String(),
  licenseExpression: Nullable(Type.String()),
  verdict: ConflictVerdictSchema,
  /** One Chinese sentence, e.g. 「GPL-3.0-only 为强传染性许可证，与出站许可证 Apache-2.0 不兼容」. */
  explanation: Type.String(),
  /** The alternative of an OR expression the verdict used; null without a choice. */
  chosen: Nullable(Type.String()),
  /** The licence ids that cause the incompatibility. */
  conflicting: Type.Array(Type.String()),
  /**
   * Who decided: the OSADL compatibility matrix (pairs it decides: Yes, No, Check dependency) or
   * Cairn's own rules (the rest, and verdicts without an outbound or declared licence).
   */
  source: VerdictSourceSchema,
});
export type ConflictRow = Static<typeof ConflictRowSchema>;

export const LicenseUsagePageSchema = Type.Object({
  ...PageSchema(LicenseUsageRowSchema).properties,
  /** Distinct licences in each view, whichever is asked for. */
  views: Type.Object({ project: Type.Integer(), excluded: Type.Integer() }),
});

export const ConflictPageSchema = Type.Object({
  /**
   * The outbound licence the run was judged against (SPDX expression): the project's setting, else
   * what the root project's manifest (or root licence file) declares. null: none anywhere — then no
   * verdict can be given, and no rows are listed (the tab explains how to set one).
   */
  outboundLicense: Nullable(Type.String()),
  /** Where it came from; null for runs analysed before this was recorded, or without one. */
  outboundSource: Nullable(OutboundSourceSchema),
  /** The manifest or licence file it was read from (root-relative). */
  outboundFile: Nullable(Type.String()),
  /** The date of the OSADL compatibility matrix the verdicts come from first (YYYY-MM-DD). */
  osadlVersion: Type.String(),
  /** Components the run found (what would be judged once an outbound licence is set). */
  componentCount: Type.Integer(),
  totals: Type.Object({ compatible: Type.Integer(), incompatible: Type.Integer(), check: Type.Integer(), unknown: Type.Integer() }),
  ...PageSchema(ConflictRowSchema).properties,
});

// ---- calls ---------------------------------------------------------------------------------------

export const licenseList = defineCall({
  name: 'result.licenseList',
  method: 'GET',
  path: '/api/license/list/{projectId}',
  summary: '任务许可证列表',
  params: ProjectParams,
  query: Type.Object({
    ...TaskPagingQuery.properties, keyword: Keyword, level: Type.Optional(LevelSchema),
    /** project (default): the project's own licences; excluded: those in test fixtures, licence databases, data files. */
    view: Type.Optional(LicenseViewSchema),
    ...LicenceConfidenceQuery.properties,
  }),
  response: LicenseUsagePageSchema,
  permission: RESULT_PERMISSION,
});

export const copyrightList = defineCall({
  name: 'result.copyrightList',
  method: 'GET',
  path: '/api/license/copyright/{projectId}',
  summary: '任务版权信息（按版权方去重）',
  params: ProjectParams,
  query: Type.Object({ ...TaskPagingQuery.properties, keyword: Keyword }),
  response: PageSchema(CopyrightRowSchema),
  permission: RESULT_PERMISSION,
});

export const licenseConflict = defineCall({
  name: 'result.licenseConflict',
  method: 'GET',
  path: '/api/license/conflict/{projectId}',
  summary: '许可证冲突（组件许可证与项目出站许可证的兼容性）',
  params: ProjectParams,
  query: Type.Object({ ...TaskPagingQuery.properties, keyword: Keyword, verdict: Type.Optional(ConflictVerdictSchema) }),
  response: ConflictPageSchema,
  permission: RESULT_PERMISSION,
});

/** The licence calls (server/routes/result/licences.ts answers them). */
export const resultLicenceCalls = { licenseList, copyrightList, licenseConflict };
