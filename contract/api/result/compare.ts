// Result area, batches and comparison (spec doc 1 §7 "Batch"): a project's runs, and two runs (or
// two subjects' latest runs) compared component by component and finding by finding.
import { Type, type Static, type TProperties, type TSchema } from 'typebox';
import { defineCall } from '../define.ts';
import { Id, Keyword, Nullable, PageSchema, PagingQuerySchema } from '../kit.ts';
import { TaskStatusSchema } from '../task.ts';
import { LevelSchema, VulnerabilityIdFields } from '../vulnerability.ts';
import { ChangeSchema, ComponentRiskFields, RunRowSchema, VexSchema, VulnerabilityMarkSchema } from './common.ts';

// ---- comparison ----------------------------------------------------------------------------------

export const ChangeTotalsSchema = Type.Object({ added: Type.Integer(), removed: Type.Integer(), changed: Type.Integer(), same: Type.Integer() });

const CompareFilter = {
  /** Only rows of this change kind; absent = all. */
  change: Type.Optional(ChangeSchema),
  keyword: Keyword,
  ...PagingQuerySchema.properties,
};

/**
 * A comparison row: how it changed, the fields that pair the two sides (`key`), and each side's
 * values (null when the row is not on that side).
 */
const CompareRowSchema = <K extends TProperties, S extends TSchema>(key: K, side: S) => Type.Object({
  change: ChangeSchema,
  ...key,
  base: Nullable(side),
  compare: Nullable(side),
});

/** Components are paired by ecosystem + name: a version change is `changed`, not removed + added. */
export const ComponentSideSchema = Type.Object({
  /** Row id in a task comparison; null in a subject comparison (several projects). */
  componentId: Nullable(Type.Integer()),
  version: Type.String(),
  ...ComponentRiskFields,
  licenseExpression: Nullable(Type.String()),
  /** Projects containing it (1 in a task comparison). */
  projectCount: Type.Integer(),
});

export const ComponentCompareRowSchema = CompareRowSchema({ ecosystem: Type.String(), name: Type.String() }, ComponentSideSchema);
export type ComponentCompareRow = Static<typeof ComponentCompareRowSchema>;

/** Findings are paired by advisory + component ecosystem/name; `changed`: level, mark, VEX or version differ. */
export const FindingSideSchema = Type.Object({
  findingId: Nullable(Type.Integer()),
  componentVersion: Type.String(),
  level: LevelSchema,
  mark: VulnerabilityMarkSchema,
  vex: VexSchema,
  projectCount: Type.Integer(),
});

export const VulnerabilityCompareRowSchema = CompareRowSchema({
  ...VulnerabilityIdFields,
  summary: Type.String(),
  ecosystem: Type.String(),
  componentName: Type.String(),
}, FindingSideSchema);
export type VulnerabilityCompareRow = Static<typeof VulnerabilityCompareRowSchema>;

export const CompareSideRefSchema = Type.Object({
  /** Task comparison: the run id; subject comparison: the subject id. */
  id: Type.Integer(),
  /** `项目名 #seq` or the subject name, for the column headers. */
  label: Type.String(),
  finishedAt: Nullable(Type.String()),
});

export const ComparePageSchema = <T extends TSchema>(row: T) => Type.Object({
  base: CompareSideRefSchema,
  compare: CompareSideRefSchema,
  /** Over all rows, whatever `change` filters. */
  totals: ChangeTotalsSchema,
  ...PageSchema(row).properties,
});

/** Both runs must be succeeded runs the caller may see (usually of the same project). */
export const TaskCompareBodySchema = Type.Object({ baseTaskId: Id(), compareTaskId: Id(), ...CompareFilter });
/** The latest succeeded runs of all projects of each subject (optionally one subject version each). */
export const SubjectCompareBodySchema = Type.Object({
  baseSubjectId: Id(),
  compareSubjectId: Id(),
  baseVersionId: Type.Optional(Id()),
  compareVersionId: Type.Optional(Id()),
  ...CompareFilter,
});

// ---- calls: batches (runs) and comparison --------------------------------------------------------

export const batchList = defineCall({
  name: 'result.batchList',
  method: 'GET',
  path: '/api/batch/task/batchList',
  summary: '项目的任务批次列表（新的在前）',
  query: Type.Object({ projectId: Id(), ...PagingQuerySchema.properties, status: Type.Optional(TaskStatusSchema) }),
  response: PageSchema(RunRowSchema),
  permission: 'analysis:task:list',
});

export const batchLatest = defineCall({
  name: 'result.batchLatest',
  method: 'GET',
  path: '/api/batch/task/batch',
  summary: '项目最新一次任务批次（任意状态；无任务时为 null）',
  query: Type.Object({ projectId: Id() }),
  response: Nullable(RunRowSchema),
  permission: 'analysis:task:list',
});

export const compareTaskComponent = defineCall({
  name: 'result.compareTaskComponent',
  method: 'POST',
  path: '/api/batch/task/compare/component',
  summary: '任务对比：组件',
  body: TaskCompareBodySchema,
  response: ComparePageSchema(ComponentCompareRowSchema),
  permission: 'analysis:task:list',
});

export const compareTaskVulnerability = defineCall({
  name: 'result.compareTaskVulnerability',
  method: 'POST',
  path: '/api/batch/task/compare/vulnerability',
  summary: '任务对比：漏洞',
  body: TaskCompareBodySchema,
  response: ComparePageSchema(VulnerabilityCompareRowSchema),
  permission: 'analysis:task:list',
});

export const compareSubjectComponent = defineCall({
  name: 'result.compareSubjectComponent',
  method: 'POST',
  path: '/api/batch/subject/compare/component',
  summary: '项目（应用）对比：组件（各工程最新成功任务）',
  body: SubjectCompareBodySchema,
  response: ComparePageSchema(ComponentCompareRowSchema),
  permission: 'analysis:task:list',
});

export const compareSubjectVulnerability = defineCall({
  name: 'result.compareSubjectVulnerability',
  method: 'POST',
  path: '/api/batch/subject/compare/vulnerability',
  summary: '项目（应用）对比：漏洞（各工程最新成功任务）',
  body: SubjectCompareBodySchema,
  response: ComparePageSchema(VulnerabilityCompareRowSchema),
  permission: 'analysis:task:list',
});

/** The batch and comparison calls (server/routes/result/compare.ts answers them). */
export const resultCompareCalls = { batchList, batchLatest, compareTaskComponent, compareTaskVulnerability, compareSubjectComponent, compareSubjectVulnerability };
