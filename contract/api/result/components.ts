// Result area, a run's components and findings (spec doc 1 §7 "Task"): the task-detail header and
// overview, the component list and detail, the findings by level, where a component is declared,
// and the component export.
import { Type, type Static } from 'typebox';
import { defineCall } from '../define.ts';
import { Id, IdParams, Keyword, Nullable, PackageFields, PageSchema, PagingQuerySchema } from '../kit.ts';
import {
  ExploitSchema, FixStateSchema, LevelCountsSchema, LevelSchema, RiskCountsSchema, RiskLevelSchema, VulnerabilityAllIdFields, VulnerabilityDetailSchema,
} from '../vulnerability.ts';
import {
  ComponentMarkSchema, ComponentRatingFields, ComponentTypeSchema, CountRowSchema, Csv, FindingComponentFields,
  LicenseSourceSchema, PathStepSchema, ProjectIdParams, ProjectParams, ProjectTaskViewSchema, RESULT_PERMISSION,
  ScopeSchema, sortOf, TaskQuery, VexSchema, VUL_PERMISSION, VulnerabilityMarkSchema,
} from './common.ts';

const L = Type.Literal;

// ---- components ----------------------------------------------------------------------------------

/** Where a component is declared: a manifest/lockfile/SBOM/binary relative to the scan root. */
export const LocationSchema = Type.Object({
  file: Type.String(),
  startLine: Nullable(Type.Integer()),
  endLine: Nullable(Type.Integer()),
});
export type Location = Static<typeof LocationSchema>;

export const ComponentRowSchema = Type.Object({
  /** run_components.id: the `{id}`/`moduleId` of the detail calls and the ids of the mark calls. */
  id: Type.Integer(),
  taskId: Type.Integer(),
  ...PackageFields,
  /** Declared by the project itself, not pulled in by another component. */
  direct: Type.Boolean(),
  scope: ScopeSchema,
  ...ComponentRatingFields,
  locationCount: Type.Integer(),
  /** For an image run, the index of the layer the component first appeared in (RunImage.layers); null otherwise. */
  layer: Nullable(Type.Integer()),
  /**
   * 声明的版本范围: what the manifest declares when it pins no version (`>=2.0,<3`, `^1.2`), as
   * written; the version is then '' (risk 未知版本). Null when the version is exact or nothing was declared.
   */
  constraint: Nullable(Type.String()),
  mark: ComponentMarkSchema,
  markRemark: Type.String(),
});
export type ComponentRow = Static<typeof ComponentRowSchema>;

export const ComponentFilterSchema = Type.Object({
  /** Name, purl or version, case-insensitive substring. */
  keyword: Keyword,
  /**
   * Risk codes; 32 (无漏洞) leaves out the components shown 未覆盖 (contract/coverage.ts
   * isComponentNotCovered: no knowledge-base data for their ecosystem when the run was analysed).
   */
  riskLevels: Type.Optional(Type.Array(RiskLevelSchema, { maxItems: 7 })),
  /** true: the components shown 未覆盖 too — one more choice of the risk filter, alone or besides riskLevels. */
  notCovered: Type.Optional(Type.Boolean()),
  ecosystems: Type.Optional(Type.Array(Type.String({ maxLength: 30 }), { maxItems: 30 })),
  scope: Type.Optional(ScopeSchema),
  direct: Type.Optional(Type.Boolean()),
  marks: Type.Optional(Type.Array(ComponentMarkSchema, { maxItems: 5 })),
  componentTypes: Type.Optional(Type.Array(ComponentTypeSchema, { maxItems: 3 })),
  licenseLevels: Type.Optional(Type.Array(LevelSchema, { maxItems: 5 })),
  /** Image runs: the layers (RunImage.layers index) the components first appeared in. */
  layers: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 10_000 }), { maxItems: 200 })),
  taskId: Type.Optional(Id()),
});
export type ComponentFilter = Static<typeof ComponentFilterSchema>;

/** Default order: riskLevel asc (worst first), then name. */
export const ComponentListQuerySchema = Type.Object({
  ...PagingQuerySchema.properties,
  sort: sortOf('name|version|ecosystem|riskLevel|vulCount|licenseLevel|scope|mark'),
});

// ---- findings (run_vulnerabilities) --------------------------------------------------------------

export const FindingRowSchema = Type.Object({
  /** run_vulnerabilities.id: the ids of the vulnerability mark/VEX calls. */
  id: Type.Integer(),
  taskId: Type.Integer(),
  ...FindingComponentFields,
  ecosystem: Type.String(),
  purl: Type.String(),
  direct: Type.Boolean(),
  ...VulnerabilityAllIdFields,
  aliases: Type.Array(Type.String()),
  summary: Type.String(),
  /** Effective level: the custom level when one was set, else the advisory's. */
  level: LevelSchema,
  originalLevel: LevelSchema,
  /** Why the level was changed ('' when it was not). */
  levelRemark: Type.String(),
  score: Nullable(Type.Number()),
  /**
   * Which knowledge-base source set the advisory's level (`CVSS:3.1 NVD 9.8`, `GHSA 数据库评级 HIGH`);
   * '' when no source rates the flaw (未评级) or the run predates the record.
   */
  severitySource: Type.String(),
  exploit: ExploitSchema,
  fixedVersions: Type.Array(Type.String()),
  /**
   * The distribution's fix status for the component's release (contract/enums.ts FIX_STATE_LABEL):
   * fixed with fixedVersions, else affected, will_not_fix, fix_deferred, end_of_life or
   * under_investigation; show 修复版本 with fixedInText (发行版不修复 instead of nothing).
   */
  fixState: FixStateSchema,
  /**
   * The recommended upgrade: the smallest fixed version above the installed one in the
   * ecosystem's version order; `version` null when there is none, `reason` says why in words.
   */
  upgrade: Type.Object({ version: Nullable(Type.String()), reason: Type.String() }),
  published: Nullable(Type.String()),
  mark: VulnerabilityMarkSchema,
  markRemark: Type.String(),
  vex: VexSchema,
  vexRemark: Type.String(),
});
export type FindingRow = Static<typeof FindingRowSchema>;

/** One level tab at a time (or all), paged on the server so a tab can hold 10,000+ findings. */
export const FindingQuerySchema = Type.Object({
  ...PagingQuerySchema.properties,
  taskId: Type.Optional(Id()),
  /** The tab: one level; absent = all levels. */
  level: Type.Optional(LevelSchema),
  /** Advisory id, CVE/CNNVD/CNVD, alias, summary or component name. */
  keyword: Keyword,
  /** e.g. `0,1`. */
  marks: Type.Optional(Csv('0|1|2|3|4|5|6|7')),
  /** e.g. `0,2,4`; `1` (不受影响) shows the findings the overview's vexMark=1 leaves out. */
  vex: Type.Optional(Csv('0|1|2|3|4')),
  /** Only the findings of one component (the component drawer). */
  componentId: Type.Optional(Id()),
  /** Default: level asc, then score desc. */
  sort: sortOf('level|score|published|identify|component|mark|vex'),
});

export const FindingStatisticSchema = Type.Object({
  /** Counts per level under keyword/marks/vex (not level): the tab badges. */
  counts: LevelCountsSchema,
  /** The page of the asked tab. */
  ...PageSchema(FindingRowSchema).properties,
});
export type FindingStatistic = Static<typeof FindingStatisticSchema>;

// ---- component detail ----------------------------------------------------------------------------

export const ComponentLicenseSchema = Type.Object({
  spdxId: Type.String(),
  level: LevelSchema,
  source: LicenseSourceSchema,
  /** Known to the licence knowledge base (link to /license/details). */
  known: Type.Boolean(),
});

/** 识别依据: one observation that identified a component in a built artefact (engine model.ts Evidence). */
export const EvidenceSchema = Type.Object({
  /** The file; inside archives `app.war!/WEB-INF/lib/x.jar!/META-INF/...`. */
  file: Type.String(),
  /** The rule that matched: `pom.properties`, `MANIFEST.MF`, `文件名`, `版本字符串 OpenSSL` ... */
  rule: Type.String(),
  /** The matched bytes as text; null when the rule matched no particular bytes. */
  text: Nullable(Type.String()),
  /** Byte offset of `text` in the file; null when not read at a position. */
  offset: Nullable(Type.Integer()),
});
export type Evidence = Static<typeof EvidenceSchema>;

export const ComponentDetailSchema = Type.Object({
  ...ComponentRowSchema.properties,
  projectId: Type.Integer(),
  locations: Type.Array(LocationSchema),
  /** How a component found in a built artefact was identified; empty for manifests, lockfiles and SBOMs. */
  evidence: Type.Array(EvidenceSchema),
  /** 置信度 of that identification, 0–1; null for components a manifest, lockfile or SBOM names. */
  confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  licenses: Type.Array(ComponentLicenseSchema),
  /** All findings of the component in this run (VEX 不受影响 included, flagged by `vex`). */
  vulnerabilities: Type.Array(FindingRowSchema),
  /** Up to 20 shortest paths from a root to this component; the last step is the component. */
  paths: Type.Array(Type.Array(PathStepSchema)),
  /** How many root paths exist (capped at 1000). */
  pathTotal: Type.Integer(),
  /** Components this one depends on / that depend on it directly. */
  dependencies: Type.Integer(),
  dependents: Type.Integer(),
});
export type ComponentDetail = Static<typeof ComponentDetailSchema>;

// ---- overview ------------------------------------------------------------------------------------

export const OverviewSchema = Type.Object({
  ...ProjectTaskViewSchema.properties,
  components: Type.Object({
    total: Type.Integer(),
    vulnerable: Type.Integer(),
    direct: Type.Integer(),
    transitive: Type.Integer(),
    runtime: Type.Integer(),
    development: Type.Integer(),
    byRisk: RiskCountsSchema,
    /** Of byRisk[32] (无漏洞), the components shown 未覆盖 (contract/coverage.ts isComponentNotCovered by the run's coverage). */
    notCovered: Type.Integer(),
    /** 0 开源, 1 私有, -1 未知. */
    byType: Type.Object({ 0: Type.Integer(), 1: Type.Integer(), '-1': Type.Integer() }),
    /** Components per ecosystem, most first. */
    ecosystems: Type.Array(CountRowSchema),
    /** Components marked anything but N. */
    marked: Type.Integer(),
    /** Components marked 误报: listed, but left out of every count (COUNT_RULES). */
    falsePositive: Type.Integer(),
  }),
  vulnerabilities: Type.Object({
    /** Findings counted (VEX 不受影响 left out when vexMark=1). */
    total: Type.Integer(),
    /** Distinct advisories. */
    distinct: Type.Integer(),
    byLevel: LevelCountsSchema,
    /** Findings with mark 0 (待审核). */
    unreviewed: Type.Integer(),
    /** Findings left out because of VEX 不受影响 (0 when vexMark=0). */
    excludedByVex: Type.Integer(),
  }),
  licenses: Type.Object({
    /** Distinct SPDX ids. */
    total: Type.Integer(),
    /** Distinct licences per licence level (as the header, the dashboard and the reports count them). */
    byLevel: LevelCountsSchema,
    /** Components without any declared or recognised licence. */
    unlicensedComponents: Type.Integer(),
    incompatibleComponents: Type.Integer(),
  }),
  /** Inputs the engine could not read (runs.problems), Chinese messages. */
  problems: Type.Array(Type.Object({ file: Type.String(), message: Type.String() })),
  /** Sensitive information found (敏感信息, mode 9); null when the run did not look for it. */
  leaks: Nullable(Type.Integer()),
});
export type Overview = Static<typeof OverviewSchema>;

// ---- calls ---------------------------------------------------------------------------------------

export const componentSource = defineCall({
  name: 'result.componentSource',
  method: 'POST',
  path: '/api/component/source',
  summary: '组件所在位置（文件与行号）',
  body: Type.Object({ projectId: Id(), taskId: Type.Optional(Id()), componentId: Id() }),
  response: Type.Object({ componentId: Type.Integer(), purl: Type.String(), locations: Type.Array(LocationSchema) }),
  permission: RESULT_PERMISSION,
});

export const overview = defineCall({
  name: 'result.overview',
  method: 'GET',
  path: '/api/project-task-view/info/{id}/{vexMark}',
  summary: '检测结果概览（{id} 为项目 ID；vexMark=1 时不计 VEX 为不受影响的漏洞）',
  params: Type.Object({ id: Id(), vexMark: Type.Integer({ minimum: 0, maximum: 1 }) }),
  query: TaskQuery,
  response: OverviewSchema,
  permission: 'analysis:result:summary',
});

export const projectTaskView = defineCall({
  name: 'result.projectTaskView',
  method: 'GET',
  path: '/api/project-task-view/{id}',
  summary: '任务详情页头：项目与任务信息（{id} 为项目 ID）',
  params: ProjectIdParams,
  query: TaskQuery,
  response: ProjectTaskViewSchema,
  permission: 'analysis:task:list',
});

export const componentList = defineCall({
  name: 'result.componentList',
  method: 'POST',
  path: '/api/component/list/{projectId}',
  summary: '任务组件列表',
  params: ProjectParams,
  query: ComponentListQuerySchema,
  body: ComponentFilterSchema,
  response: PageSchema(ComponentRowSchema),
  permission: RESULT_PERMISSION,
});

export const vulnerabilityStatistic = defineCall({
  name: 'result.vulnerabilityStatistic',
  method: 'GET',
  path: '/api/vulnerability/list/statistic/{projectId}',
  summary: '任务漏洞列表（按等级分组统计，按页返回当前等级）',
  params: ProjectParams,
  query: FindingQuerySchema,
  response: FindingStatisticSchema,
  permission: VUL_PERMISSION,
});

/**
 * A finding's advisory as the knowledge base holds it now (description, affected ranges, fixed
 * versions, references, CWE, CNNVD/CNVD ids), found by the finding's id or aliases; null when the
 * knowledge base no longer has it. `{id}` is the finding's row id (run_vulnerabilities.id).
 */
export const FindingAdvisorySchema = Type.Object({
  findingId: Type.Integer(),
  advisory: Nullable(VulnerabilityDetailSchema),
});
export type FindingAdvisory = Static<typeof FindingAdvisorySchema>;

export const findingAdvisory = defineCall({
  name: 'result.findingAdvisory',
  method: 'GET',
  path: '/api/vulnerability/finding/{projectId}/{id}',
  summary: '任务漏洞详情（知识库中的描述、影响范围、参考链接与 CWE）',
  params: Type.Object({ projectId: Id(), id: Id() }),
  response: FindingAdvisorySchema,
  permission: VUL_PERMISSION,
});

export const componentDetail = defineCall({
  name: 'result.componentDetail',
  method: 'GET',
  path: '/api/component/{id}',
  summary: '任务组件详情（{id} 为组件行 ID；给出 taskId 时须属于该任务）',
  params: IdParams,
  query: TaskQuery,
  response: ComponentDetailSchema,
  permission: RESULT_PERMISSION,
});

export const moduleDetail = defineCall({
  name: 'result.moduleDetail',
  method: 'GET',
  path: '/api/component/module/{projectId}/{moduleId}',
  summary: '项目内组件详情（moduleId 为组件行 ID）',
  params: Type.Object({ projectId: Id(), moduleId: Id() }),
  response: ComponentDetailSchema,
  permission: RESULT_PERMISSION,
});

export const componentExport = defineCall({
  name: 'result.componentExport',
  method: 'GET',
  path: '/api/component/export',
  summary: '导出任务组件清单（生成 xlsx 或 csv 报告）',
  query: Type.Object({ projectId: Id(), taskId: Type.Optional(Id()), format: Type.Union([L('xlsx'), L('csv')]) }),
  /** The report record that will hold the file (report:list screens). */
  response: Type.Object({ reportId: Type.Integer() }),
  permission: RESULT_PERMISSION,
});

/** The component and finding calls (server/routes/result/components.ts answers them). */
export const resultComponentCalls = { componentSource, overview, projectTaskView, componentList, vulnerabilityStatistic, findingAdvisory, componentDetail, moduleDetail, componentExport };
