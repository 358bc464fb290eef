// Licence area (spec doc 2 §7 "Licence"): the licence knowledge base — every SPDX licence with
// its risk level and attributes — the administrators' level settings, and the knowledge-base
// licence check. The spec names the calls but gives no payloads; these are the ones the screens
// (/license, /license/details, /system/knowledgeBase/protocol) need. Project-scoped licence
// results (/api/license/list/{projectId}, …) are result calls (contract/api/result/licences.ts).
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import {
  filteredList, Id, Keyword, Nullable, pagedList, PageSchema, PagingQuerySchema, ProjectRefFields, SubjectRefFields,
} from './kit.ts';
import { LevelSchema } from './vulnerability.ts';

const L = Type.Literal;

export const CopyleftSchema = Type.Union([L('none'), L('weak'), L('strong'), L('network')]);

export const LicenseAttributesSchema = Type.Object({
  copyleft: CopyleftSchema,
  osiApproved: Type.Boolean(),
  /** On the FSF's free licence list (null: not recorded). */
  fsfLibre: Nullable(Type.Boolean()),
  patentGrant: Type.Boolean(),
  attribution: Type.Boolean(),
  sourceDisclosure: Type.Boolean(),
});

export const LicenseRowSchema = Type.Object({
  /** Row id, the `{id}` of the detail calls (an SPDX id is accepted there too). */
  id: Type.Integer(),
  spdxId: Type.String(),
  name: Type.String(),
  level: LevelSchema,
  defaultLevel: LevelSchema,
  /** An administrator changed the level from the shipped default. */
  levelEdited: Type.Boolean(),
  copyleft: CopyleftSchema,
  osiApproved: Type.Boolean(),
  deprecated: Type.Boolean(),
  isException: Type.Boolean(),
});
export type LicenseRow = Static<typeof LicenseRowSchema>;

export const LicenseFilterSchema = Type.Object({
  /** SPDX id or name, case-insensitive. */
  keyword: Keyword,
  levels: Type.Optional(Type.Array(LevelSchema, { maxItems: 5 })),
  copyleft: Type.Optional(Type.Array(CopyleftSchema, { maxItems: 4 })),
  osiApproved: Type.Optional(Type.Boolean()),
  /** Deprecated ids and exceptions are left out unless asked for. */
  includeDeprecated: Type.Optional(Type.Boolean()),
  includeExceptions: Type.Optional(Type.Boolean()),
});
export type LicenseFilter = Static<typeof LicenseFilterSchema>;

export const list = defineCall({
  name: 'license.list',
  method: 'POST',
  path: '/api/license/list',
  summary: '许可证知识库列表',
  ...filteredList(LicenseFilterSchema, LicenseRowSchema),
});

export const LicenseDetailSchema = Type.Object({
  ...LicenseRowSchema.properties,
  url: Type.String(),
  attributes: Nullable(LicenseAttributesSchema),
  /** The full licence text from the SPDX licence list ('' for exceptions without one). */
  text: Type.String(),
  updatedAt: Type.String(),
});
export type LicenseDetail = Static<typeof LicenseDetailSchema>;

/** `{id}`: the row id or an SPDX id. */
const IdOrSpdxParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const detail = defineCall({
  name: 'license.detail',
  method: 'GET',
  path: '/api/license/{id}',
  summary: '许可证详情',
  params: IdOrSpdxParams,
  response: LicenseDetailSchema,
});

/** A project that uses the licence, with its 应用. */
export const InvolvedSubjectSchema = Type.Object({ ...SubjectRefFields, ...ProjectRefFields });

export const involvedSubjects = defineCall({
  name: 'license.involvedSubjects',
  method: 'POST',
  path: '/api/license/{id}/involvedSubjectsList',
  summary: '使用该许可证的项目',
  params: IdOrSpdxParams,
  ...pagedList(InvolvedSubjectSchema),
});

/** The binary product's: the projects of 二进制检测 应用 using the licence. */
export const binaryInfluence = defineCall({
  name: 'license.binaryInfluence',
  method: 'POST',
  path: '/api/binary/influence/license/{id}',
  summary: '使用该许可证的项目（二进制检测）',
  params: IdOrSpdxParams,
  ...pagedList(InvolvedSubjectSchema),
});

export const systemList = defineCall({
  name: 'license.systemList',
  method: 'GET',
  path: '/api/license/system/list',
  summary: '许可证等级设置列表',
  query: Type.Object({
    ...PagingQuerySchema.properties,
    keyword: Keyword,
    level: Type.Optional(LevelSchema),
    edited: Type.Optional(Type.Boolean()),
  }),
  response: PageSchema(LicenseRowSchema),
  permission: 'setup:knowledge:license',
});

export const systemEdit = defineCall({
  name: 'license.systemEdit',
  method: 'POST',
  path: '/api/license/system/edit',
  summary: '修改许可证等级',
  body: Type.Object({
    /** Row id or SPDX id. */
    id: Type.Union([Id(), Type.String({ minLength: 1, maxLength: 100 })]),
    level: LevelSchema,
  }),
  response: LicenseRowSchema,
  permission: 'setup:knowledge:license',
});

export const LicenseCheckRowSchema = Type.Object({
  /** The declaration as asked (free text such as "Apache 2" or an SPDX expression). */
  input: Type.String(),
  /** The normalised SPDX expression, null when it cannot be understood. */
  expression: Nullable(Type.String()),
  /** Licence ids in the expression that the knowledge base knows / does not know. */
  known: Type.Array(Type.String()),
  unknown: Type.Array(Type.String()),
  /** The riskiest level among the known ids (16 when nothing is known). */
  level: LevelSchema,
});

export const check = defineCall({
  name: 'license.check',
  method: 'POST',
  path: '/api/knowledgeBase/license/check',
  summary: '检查许可证声明并规范化为 SPDX 表达式',
  body: Type.Object({ licenses: Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 1000 }) }),
  response: Type.Array(LicenseCheckRowSchema),
});

export const licenseCalls = { list, detail, involvedSubjects, binaryInfluence, systemList, systemEdit, check };
