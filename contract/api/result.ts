// Result area (issue 6, spec doc 1 §7 "Task", "Batch", "Mark", "VEX", "History", "Home"): every
// read and audit call of an analysis's results. The spec names the calls but gives no payloads;
// these are the ones the task-detail tabs, the comparison screens and the home dashboard need.
//
// Terms: a project's analysis is a run (`runs`); the spec's `taskId` is a run id and the spec's
// `projectId` (and `{id}` of /api/project-task-view/… and /api/resultTree/file|dependence/{id}) is a
// PROJECT id. A project-scoped read answers from the project's latest SUCCEEDED run unless a
// `taskId` of that project is given; without any succeeded run a list answers an empty page and the
// header/overview carry `run: null`. Component ids are `run_components.id`, finding ids
// `run_vulnerabilities.id` (both belong to exactly one run).
import { Type, type Static, type TSchema } from 'typebox';
import { PageSchema } from '../envelope.ts';
import { defineCall } from './define.ts';
import { LevelSchema, ExploitSchema, PagingQuerySchema, VulnerabilityRowSchema } from './vulnerability.ts';
import { CopyleftSchema } from './license.ts';

const L = Type.Literal;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Id = () => Type.Integer({ minimum: 1 });
/** Comma-separated codes in a query string (`?marks=0,1`): query arrays are ambiguous with one item. */
const Csv = (codes: string) => Type.String({ maxLength: 200, pattern: `^(${codes})(,(${codes}))*$` });
const Keyword = Type.Optional(Type.String({ maxLength: 200 }));

// ---- codes (labels in contract/enums.ts) --------------------------------------------------------

/** COMPONENT_MARK_LABEL: N 未标记, F 误报, L 遗留, W 白名单, Y 其他. */
export const ComponentMarkSchema = Type.Union([L('N'), L('F'), L('L'), L('W'), L('Y')]);
/** VULNERABILITY_MARK_LABEL: 0 待审核 … 7 其他. */
export const VulnerabilityMarkSchema = Type.Union([L(0), L(1), L(2), L(3), L(4), L(5), L(6), L(7)]);
/** VEX_LABEL: 0 待定, 1 不受影响, 2 受影响, 3 已修复, 4 调查中. */
export const VexSchema = Type.Union([L(0), L(1), L(2), L(3), L(4)]);
/** TASK_STATUS_LABEL: -1 重新发送, 0 排队中, 1 分析中, 2 分析成功, 3 分析失败, 4 已暂停. */
export const TaskStatusSchema = Type.Union([L(-1), L(0), L(1), L(2), L(3), L(4)]);
/** COMPONENT_RISK_LABEL: the component's worst finding level, 32 无漏洞, 64 未知版本. */
export const RiskLevelSchema = Type.Union([L(1), L(2), L(4), L(8), L(16), L(32), L(64)]);
/** COMPONENT_TYPE_LABEL: 0 开源组件, 1 私有组件, -1 未知. */
export const ComponentTypeSchema = Type.Union([L(0), L(1), L(-1)]);
/** runtime: shipped with the product; development: build, test and tooling only. */
export const ScopeSchema = Type.Union([L('runtime'), L('development')]);
/** How a licence was recognised: package metadata, full text, file header, SPDX tag, a reference (URL/name). */
export const LicenseSourceSchema = Type.Union([L('declared'), L('text'), L('header'), L('tag'), L('reference')]);
export const ConflictVerdictSchema = Type.Union([L('compatible'), L('incompatible'), L('unknown')]);
/** A comparison row: only in the compared side, only in the base side, in both but different, identical. */
export const ChangeSchema = Type.Union([L('added'), L('removed'), L('changed'), L('same')]);
/** mark_logs.kind: component mark, vulnerability mark, custom level, VEX statement. */
export const MarkLogKindSchema = Type.Union([L('component'), L('vulnerability'), L('level'), L('vex')]);

const RISK_CSV = '1|2|4|8|16|32|64';

/** Counts by finding/licence level, keyed by LevelSchema code. */
export const LevelCountsSchema = Type.Object({ 1: Type.Integer(), 2: Type.Integer(), 4: Type.Integer(), 8: Type.Integer(), 16: Type.Integer() });
export type LevelCounts = Static<typeof LevelCountsSchema>;
/** Counts of components by RiskLevelSchema code. */
export const RiskCountsSchema = Type.Object({
  1: Type.Integer(), 2: Type.Integer(), 4: Type.Integer(), 8: Type.Integer(), 16: Type.Integer(), 32: Type.Integer(), 64: Type.Integer(),
});
export type RiskCounts = Static<typeof RiskCountsSchema>;

// ---- shared parameters ---------------------------------------------------------------------------

const ProjectParams = Type.Object({ projectId: Id() });
/** `{id}` is the PROJECT id. */
const ProjectIdParams = Type.Object({ id: Id() });
/** A run of the project other than its latest succeeded one (history, comparison). */
const TaskQuery = Type.Object({ taskId: Type.Optional(Id()) });
const TaskPagingQuery = Type.Object({ ...PagingQuerySchema.properties, taskId: Type.Optional(Id()) });
const sortOf = (fields: string) => Type.Optional(Type.String({ maxLength: 40, pattern: `^(${fields}),(asc|desc)$` }));

// ---- project and run header ----------------------------------------------------------------------

export const RunCountsSchema = Type.Object({
  components: Type.Integer(),
  /** Components with at least one finding. */
  vulnerableComponents: Type.Integer(),
  /** Findings (component × advisory). */
  vulnerabilities: Type.Integer(),
  byLevel: LevelCountsSchema,
  /** Distinct SPDX ids recognised. */
  licenses: Type.Integer(),
});
export type RunCounts = Static<typeof RunCountsSchema>;

/** One run of a project (a 批次 of the spec; `id` is the spec's taskId). */
export const RunRowSchema = Type.Object({
  id: Type.Integer(),
  projectId: Type.Integer(),
  /** The spec's batch number, 1 for the project's first run. */
  seq: Type.Integer(),
  status: TaskStatusSchema,
  /** Engine stage code as stored on the run (task.ts RUN_STAGES: queued, preparing, …, done). */
  stage: Type.String(),
  /** The stage in Chinese (RUN_STAGE_LABEL, e.g. 识别组件, 匹配漏洞); '' for an unknown code. */
  stageLabel: Type.String(),
  /** 0–100. */
  progress: Type.Integer(),
  /** Failure reason or last engine message (Chinese). */
  message: Type.String(),
  /** What started it: manual | timing | batch | resend | api. */
  trigger: Type.String(),
  /** ANALYSIS_MODE codes of this run. */
  analysisModes: Type.Array(Type.Integer()),
  queuedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  createdBy: Nullable(Type.Integer()),
  createdByName: Nullable(Type.String()),
  /** From runs.summary; zeros until the run succeeded. */
  counts: RunCountsSchema,
});
export type RunRow = Static<typeof RunRowSchema>;

export const ProjectHeaderSchema = Type.Object({
  projectId: Type.Integer(),
  projectName: Type.String(),
  subjectId: Type.Integer(),
  subjectUuid: Type.String(),
  subjectName: Type.String(),
  /** 1 source-code product, 2 binary product (chooses /binary paths). */
  product: Type.Integer(),
  versionId: Nullable(Type.Integer()),
  versionName: Nullable(Type.String()),
  /** CODE_TYPE_LABEL code. */
  getCodeType: Type.Integer(),
  projectTags: Type.Array(Type.String()),
  analysisModes: Type.Array(Type.Integer()),
  /** SPDX expression the product is distributed under, the licence-conflict tab's reference. */
  outboundLicense: Nullable(Type.String()),
  retentionAudit: Type.Boolean(),
  /** Status of the newest run, null before the first. */
  status: Nullable(TaskStatusSchema),
  createdAt: Type.String(),
});
export type ProjectHeader = Static<typeof ProjectHeaderSchema>;

export const ProjectTaskViewSchema = Type.Object({
  project: ProjectHeaderSchema,
  /** The run whose results the tabs show (latest succeeded, or the asked taskId); null without one. */
  run: Nullable(RunRowSchema),
  /** The newest run of any status, so the header can show 分析中/排队中 over older results. */
  latestRun: Nullable(RunRowSchema),
});
export type ProjectTaskView = Static<typeof ProjectTaskViewSchema>;

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
  purl: Type.String(),
  /** purl type: npm, maven, pypi, golang, … */
  ecosystem: Type.String(),
  name: Type.String(),
  /** '' when the input pins no version (risk 64 未知版本). */
  version: Type.String(),
  /** Declared by the project itself, not pulled in by another component. */
  direct: Type.Boolean(),
  scope: ScopeSchema,
  componentType: ComponentTypeSchema,
  /** Declared licences as one SPDX expression; null when none is declared. */
  licenseExpression: Nullable(Type.String()),
  /** Riskiest level among the expression's licences (16 when unknown). */
  licenseLevel: LevelSchema,
  riskLevel: RiskLevelSchema,
  /** All findings of this component in the run (VEX 不受影响 included). */
  vulCount: Type.Integer(),
  vulLevels: LevelCountsSchema,
  /** Nearest higher version no known advisory affects; null when none or not vulnerable. */
  recommendVersion: Nullable(Type.String()),
  locationCount: Type.Integer(),
  mark: ComponentMarkSchema,
  markRemark: Type.String(),
});
export type ComponentRow = Static<typeof ComponentRowSchema>;

export const ComponentFilterSchema = Type.Object({
  /** Name, purl or version, case-insensitive substring. */
  keyword: Keyword,
  riskLevels: Type.Optional(Type.Array(RiskLevelSchema, { maxItems: 7 })),
  ecosystems: Type.Optional(Type.Array(Type.String({ maxLength: 30 }), { maxItems: 30 })),
  scope: Type.Optional(ScopeSchema),
  direct: Type.Optional(Type.Boolean()),
  marks: Type.Optional(Type.Array(ComponentMarkSchema, { maxItems: 5 })),
  componentTypes: Type.Optional(Type.Array(ComponentTypeSchema, { maxItems: 3 })),
  licenseLevels: Type.Optional(Type.Array(LevelSchema, { maxItems: 5 })),
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
  componentId: Type.Integer(),
  componentName: Type.String(),
  componentVersion: Type.String(),
  ecosystem: Type.String(),
  purl: Type.String(),
  direct: Type.Boolean(),
  /** Primary advisory id (GHSA-…, GO-…, CVE-…): the spec's identify; shown with formatVulnerabilityId. */
  identify: Type.String(),
  cve: Nullable(Type.String()),
  cnnvd: Nullable(Type.String()),
  cnvd: Nullable(Type.String()),
  aliases: Type.Array(Type.String()),
  summary: Type.String(),
  /** Effective level: the custom level when one was set, else the advisory's. */
  level: LevelSchema,
  originalLevel: LevelSchema,
  /** Why the level was changed ('' when it was not). */
  levelRemark: Type.String(),
  score: Nullable(Type.Number()),
  exploit: ExploitSchema,
  fixedVersions: Type.Array(Type.String()),
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
  content: Type.Array(FindingRowSchema),
  total: Type.Integer({ minimum: 0 }),
});
export type FindingStatistic = Static<typeof FindingStatisticSchema>;

// ---- trees ---------------------------------------------------------------------------------------

/** A tree level is paged: a directory or component may have thousands of children. Default size 200. */
const TreeQuery = Type.Object({ ...TaskPagingQuery.properties });

export const FileNodeSchema = Type.Object({
  /** Path relative to the scan root, `/`-separated: the `pathId` of list/file. */
  pathId: Type.String(),
  name: Type.String(),
  isDir: Type.Boolean(),
  /** Bytes; 0 for directories. */
  size: Type.Number(),
  /** Components declared in this file or below this directory. */
  componentCount: Type.Integer(),
  hasChildren: Type.Boolean(),
});
export type FileNode = Static<typeof FileNodeSchema>;

/** Dot-joined component ids from a root to the node (`12.57.301`): one occurrence in the tree. */
const DependencyPathId = Type.String({ minLength: 1, maxLength: 4000, pattern: '^\\d+(\\.\\d+)*$' });
const FilePathId = Type.String({ minLength: 1, maxLength: 4096 });

export const DependencyNodeSchema = Type.Object({
  /** This occurrence: the parent's pathId + '.' + id. */
  pathId: Type.String(),
  /** The component row id (detail drawer, marks). */
  id: Type.Integer(),
  purl: Type.String(),
  ecosystem: Type.String(),
  name: Type.String(),
  version: Type.String(),
  direct: Type.Boolean(),
  scope: ScopeSchema,
  riskLevel: RiskLevelSchema,
  vulCount: Type.Integer(),
  licenseExpression: Nullable(Type.String()),
  mark: ComponentMarkSchema,
  /** Distinct direct children. */
  childCount: Type.Integer(),
  /** The component already appears earlier on its own path: shown, never expanded. */
  cycle: Type.Boolean(),
});
export type DependencyNode = Static<typeof DependencyNodeSchema>;

export const TreeLevelSchema = <T extends TSchema>(node: T) => Type.Object({
  /** The run the tree belongs to; null when the project has no succeeded run. */
  taskId: Nullable(Type.Integer()),
  content: Type.Array(node),
  total: Type.Integer({ minimum: 0 }),
});

/** One step of a path from a root, for breadcrumbs and expanding the tree to a node. */
export const PathStepSchema = Type.Object({
  pathId: Type.String(),
  name: Type.String(),
  /** null for files and directories. */
  version: Nullable(Type.String()),
});
export type PathStep = Static<typeof PathStepSchema>;

export const TreeSearchHitSchema = Type.Object({
  pathId: Type.String(),
  name: Type.String(),
  version: Nullable(Type.String()),
  /** Component row id (dependence), null for files. */
  componentId: Nullable(Type.Integer()),
  riskLevel: Nullable(RiskLevelSchema),
  isDir: Type.Boolean(),
  /** From the root down to the hit's parent: the nodes to expand. */
  ancestors: Type.Array(PathStepSchema),
});
export type TreeSearchHit = Static<typeof TreeSearchHitSchema>;

// ---- component detail ----------------------------------------------------------------------------

export const ComponentLicenseSchema = Type.Object({
  spdxId: Type.String(),
  level: LevelSchema,
  source: LicenseSourceSchema,
  /** Known to the licence knowledge base (link to /license/details). */
  known: Type.Boolean(),
});

export const ComponentDetailSchema = Type.Object({
  ...ComponentRowSchema.properties,
  projectId: Type.Integer(),
  locations: Type.Array(LocationSchema),
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

export const CountRowSchema = Type.Object({ key: Type.String(), count: Type.Integer() });

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
    /** 0 开源, 1 私有, -1 未知. */
    byType: Type.Object({ 0: Type.Integer(), 1: Type.Integer(), '-1': Type.Integer() }),
    /** Components per ecosystem, most first. */
    ecosystems: Type.Array(CountRowSchema),
    /** Components marked anything but N. */
    marked: Type.Integer(),
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
    /** Components per licence level. */
    byLevel: LevelCountsSchema,
    /** Components without any declared or recognised licence. */
    unlicensedComponents: Type.Integer(),
    incompatibleComponents: Type.Integer(),
  }),
  /** Inputs the engine could not read (runs.problems), Chinese messages. */
  problems: Type.Array(Type.Object({ file: Type.String(), message: Type.String() })),
});
export type Overview = Static<typeof OverviewSchema>;

// ---- licences, copyrights, conflicts -------------------------------------------------------------

export const ComponentRefSchema = Type.Object({ id: Type.Integer(), name: Type.String(), version: Type.String() });
export const LicenseFileRefSchema = Type.Object({
  file: Type.String(),
  startLine: Nullable(Type.Integer()),
  endLine: Nullable(Type.Integer()),
  source: LicenseSourceSchema,
  /** Text-match confidence 0–100; null for declared/tag. */
  score: Nullable(Type.Number()),
});

export const LicenseUsageRowSchema = Type.Object({
  spdxId: Type.String(),
  /** Knowledge-base name; the id itself when unknown. */
  name: Type.String(),
  level: LevelSchema,
  /** Knowledge-base row id for /license/details; null when the id is not in the knowledge base. */
  licenseId: Nullable(Type.Integer()),
  copyleft: Nullable(CopyleftSchema),
  sources: Type.Array(LicenseSourceSchema),
  componentCount: Type.Integer(),
  /** The first 5. */
  components: Type.Array(ComponentRefSchema),
  fileCount: Type.Integer(),
  /** The first 5 places it was recognised in files. */
  files: Type.Array(LicenseFileRefSchema),
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
});
export type ConflictRow = Static<typeof ConflictRowSchema>;

export const ConflictPageSchema = Type.Object({
  /** The project's outbound licence (SPDX expression); null: not set, every verdict is unknown. */
  outboundLicense: Nullable(Type.String()),
  totals: Type.Object({ compatible: Type.Integer(), incompatible: Type.Integer(), unknown: Type.Integer() }),
  content: Type.Array(ConflictRowSchema),
  total: Type.Integer({ minimum: 0 }),
});

// ---- subject-level components and influence ------------------------------------------------------

export const ProjectUseSchema = Type.Object({
  projectId: Type.Integer(),
  projectName: Type.String(),
  taskId: Type.Integer(),
  /** The component's row id in that run (opens the detail). */
  componentId: Type.Integer(),
  direct: Type.Boolean(),
});

/** One component (purl) across several projects' latest succeeded runs. */
export const SubjectComponentRowSchema = Type.Object({
  purl: Type.String(),
  ecosystem: Type.String(),
  name: Type.String(),
  version: Type.String(),
  componentType: ComponentTypeSchema,
  licenseExpression: Nullable(Type.String()),
  licenseLevel: LevelSchema,
  riskLevel: RiskLevelSchema,
  vulCount: Type.Integer(),
  vulLevels: LevelCountsSchema,
  recommendVersion: Nullable(Type.String()),
  projectCount: Type.Integer(),
  /** The first 5 projects using it. */
  projects: Type.Array(ProjectUseSchema),
});
export type SubjectComponentRow = Static<typeof SubjectComponentRowSchema>;

export const SubjectComponentFilterSchema = Type.Object({
  subjectId: Id(),
  /** Only the projects of this subject version. */
  versionId: Type.Optional(Id()),
  keyword: Keyword,
  riskLevels: Type.Optional(Type.Array(RiskLevelSchema, { maxItems: 7 })),
});

export const SubjectComponentStatisticSchema = Type.Object({
  /** Projects with a succeeded run counted. */
  projects: Type.Integer(),
  /** Distinct purls. */
  components: Type.Integer(),
  vulnerableComponents: Type.Integer(),
  byRisk: RiskCountsSchema,
  /** Distinct advisories per level. */
  vulnerabilities: LevelCountsSchema,
  ecosystems: Type.Array(CountRowSchema),
});

export const ModuleInfluenceRowSchema = Type.Object({
  subjectId: Type.Integer(),
  subjectUuid: Type.String(),
  subjectName: Type.String(),
  versionName: Nullable(Type.String()),
  projectId: Type.Integer(),
  projectName: Type.String(),
  taskId: Type.Integer(),
  componentId: Type.Integer(),
  purl: Type.String(),
  version: Type.String(),
  direct: Type.Boolean(),
  riskLevel: RiskLevelSchema,
  vulCount: Type.Integer(),
});
export type ModuleInfluenceRow = Static<typeof ModuleInfluenceRowSchema>;

// ---- comparison ----------------------------------------------------------------------------------

export const ChangeTotalsSchema = Type.Object({ added: Type.Integer(), removed: Type.Integer(), changed: Type.Integer(), same: Type.Integer() });

const CompareFilter = {
  /** Only rows of this change kind; absent = all. */
  change: Type.Optional(ChangeSchema),
  keyword: Keyword,
  ...PagingQuerySchema.properties,
};

/** Components are paired by ecosystem + name: a version change is `changed`, not removed + added. */
export const ComponentSideSchema = Type.Object({
  /** Row id in a task comparison; null in a subject comparison (several projects). */
  componentId: Nullable(Type.Integer()),
  version: Type.String(),
  riskLevel: RiskLevelSchema,
  vulCount: Type.Integer(),
  licenseExpression: Nullable(Type.String()),
  /** Projects containing it (1 in a task comparison). */
  projectCount: Type.Integer(),
});

export const ComponentCompareRowSchema = Type.Object({
  change: ChangeSchema,
  ecosystem: Type.String(),
  name: Type.String(),
  /** null when the component is not on that side. */
  base: Nullable(ComponentSideSchema),
  compare: Nullable(ComponentSideSchema),
});
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

export const VulnerabilityCompareRowSchema = Type.Object({
  change: ChangeSchema,
  identify: Type.String(),
  cve: Nullable(Type.String()),
  cnnvd: Nullable(Type.String()),
  summary: Type.String(),
  ecosystem: Type.String(),
  componentName: Type.String(),
  base: Nullable(FindingSideSchema),
  compare: Nullable(FindingSideSchema),
});
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
  content: Type.Array(row),
  total: Type.Integer({ minimum: 0 }),
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

// ---- marks and logs ------------------------------------------------------------------------------

const Remark = Type.String({ maxLength: 500 });
const MarkIds = Type.Array(Id(), { minItems: 1, maxItems: 5000 });

/** The ids must be rows of `taskId`, and `taskId` a run of `projectId`. */
export const ComponentMarkBodySchema = Type.Object({
  projectId: Id(),
  taskId: Id(),
  /** Component row ids. */
  ids: MarkIds,
  mark: ComponentMarkSchema,
  remark: Remark,
});
export type ComponentMarkBody = Static<typeof ComponentMarkBodySchema>;

export const VulnerabilityMarkBodySchema = Type.Object({
  projectId: Id(),
  taskId: Id(),
  /** Finding row ids. */
  ids: MarkIds,
  mark: VulnerabilityMarkSchema,
  remark: Remark,
  /** Sets the effective level (logged as kind `level`); absent keeps it. */
  customLevel: Type.Optional(LevelSchema),
  /** Required with customLevel. */
  levelRemark: Type.Optional(Remark),
});
export type VulnerabilityMarkBody = Static<typeof VulnerabilityMarkBodySchema>;

export const VexMarkBodySchema = Type.Object({
  projectId: Id(),
  taskId: Id(),
  ids: MarkIds,
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
  userId: Nullable(Type.Integer()),
  /** null when the user was deleted, '系统' for marks carried over by retention audit. */
  userName: Nullable(Type.String()),
  createdAt: Type.String(),
});
export type MarkLogRow = Static<typeof MarkLogRowSchema>;

/**
 * `{id}`: a component or finding row id of the project. The log covers the same component (purl) or
 * finding (purl + advisory) across all runs of the project, newest first, since marks are retained.
 */
const MarkLogParams = Type.Object({ projectId: Id(), id: Id() });

// ---- history components --------------------------------------------------------------------------

export const HistoryStateSchema = Type.Union([L('removed'), L('present'), L('all')]);

/** A component (ecosystem + name + version) as seen over the project's succeeded runs. */
export const HistoryComponentRowSchema = Type.Object({
  /** Its row id in the last run that contained it: the `{id}` of history/info. */
  id: Type.Integer(),
  purl: Type.String(),
  ecosystem: Type.String(),
  name: Type.String(),
  version: Type.String(),
  /** Still in the latest succeeded run. */
  present: Type.Boolean(),
  firstTaskId: Type.Integer(),
  firstSeq: Type.Integer(),
  lastTaskId: Type.Integer(),
  lastSeq: Type.Integer(),
  lastSeenAt: Nullable(Type.String()),
  /** Succeeded runs that contained it. */
  runCount: Type.Integer(),
  /** As of the last run containing it (or of the latest refresh). */
  riskLevel: RiskLevelSchema,
  vulCount: Type.Integer(),
  /** Version of the same ecosystem + name in the latest run, null when the package is gone. */
  currentVersion: Nullable(Type.String()),
});
export type HistoryComponentRow = Static<typeof HistoryComponentRowSchema>;

export const HistoryComponentInfoSchema = Type.Object({
  ...HistoryComponentRowSchema.properties,
  projectId: Type.Integer(),
  /** Every succeeded run of the project, oldest first, with this package's version there (null: absent). */
  appearances: Type.Array(Type.Object({
    taskId: Type.Integer(),
    seq: Type.Integer(),
    finishedAt: Nullable(Type.String()),
    componentId: Nullable(Type.Integer()),
    version: Nullable(Type.String()),
    riskLevel: Nullable(RiskLevelSchema),
    mark: Nullable(ComponentMarkSchema),
  })),
});

// ---- home ----------------------------------------------------------------------------------------

export const HomeStatisticsSchema = Type.Object({
  subjects: Type.Integer(),
  projects: Type.Integer(),
  runs: Type.Integer(),
  /** Distinct purls over the visible projects' latest succeeded runs. */
  components: Type.Integer(),
  vulnerableComponents: Type.Integer(),
  /** Distinct advisories per level over the same runs. */
  vulnerabilities: LevelCountsSchema,
  /** Distinct licences per level. */
  licenses: LevelCountsSchema,
  byRisk: RiskCountsSchema,
});

export const TopComponentRowSchema = Type.Object({
  purl: Type.String(),
  ecosystem: Type.String(),
  name: Type.String(),
  version: Type.String(),
  riskLevel: RiskLevelSchema,
  vulCount: Type.Integer(),
  /** Visible projects whose latest run contains it. */
  projectCount: Type.Integer(),
});

export const HomeFindingRowSchema = Type.Object({
  findingId: Type.Integer(),
  taskId: Type.Integer(),
  projectId: Type.Integer(),
  projectName: Type.String(),
  subjectId: Type.Integer(),
  subjectName: Type.String(),
  componentId: Type.Integer(),
  componentName: Type.String(),
  componentVersion: Type.String(),
  identify: Type.String(),
  cve: Nullable(Type.String()),
  cnnvd: Nullable(Type.String()),
  summary: Type.String(),
  level: LevelSchema,
  published: Nullable(Type.String()),
});

// ---- calls: task area reads ----------------------------------------------------------------------

const RESULT = 'analysis:result:cominfo:list' as const;
const VUL = 'analysis:result:vul:list' as const;

export const fileTree = defineCall({
  name: 'result.fileTree',
  method: 'GET',
  path: '/api/resultTree/file/{id}',
  summary: '文件树根层级（{id} 为项目 ID）',
  params: ProjectIdParams,
  query: TreeQuery,
  response: TreeLevelSchema(FileNodeSchema),
  permission: RESULT,
});

export const binaryTree = defineCall({
  name: 'result.binaryTree',
  method: 'GET',
  path: '/api/binary/tree/{id}',
  summary: '二进制产品的文件树根层级（{id} 为项目 ID）',
  params: ProjectIdParams,
  query: TreeQuery,
  response: TreeLevelSchema(FileNodeSchema),
  permission: RESULT,
});

export const dependenceTree = defineCall({
  name: 'result.dependenceTree',
  method: 'GET',
  path: '/api/resultTree/dependence/{id}',
  summary: '依赖树根层级（{id} 为项目 ID；根为项目直接依赖）',
  params: ProjectIdParams,
  query: TreeQuery,
  response: TreeLevelSchema(DependencyNodeSchema),
  permission: RESULT,
});

export const dependenceChildren = defineCall({
  name: 'result.dependenceChildren',
  method: 'GET',
  path: '/api/resultTree/list/dependence/{projectId}',
  summary: '依赖树节点的子节点（按需加载）',
  params: ProjectParams,
  query: Type.Object({ ...TreeQuery.properties, pathId: DependencyPathId }),
  response: TreeLevelSchema(DependencyNodeSchema),
  permission: RESULT,
});

export const fileChildren = defineCall({
  name: 'result.fileChildren',
  method: 'GET',
  path: '/api/resultTree/list/file/{projectId}',
  summary: '文件树目录的子节点（按需加载）',
  params: ProjectParams,
  query: Type.Object({ ...TreeQuery.properties, pathId: FilePathId }),
  response: TreeLevelSchema(FileNodeSchema),
  permission: RESULT,
});

export const treeSearch = defineCall({
  name: 'result.treeSearch',
  method: 'POST',
  path: '/api/resultTree/search/{projectId}',
  summary: '在依赖树或文件树中搜索，返回命中节点及其路径',
  params: ProjectParams,
  body: Type.Object({
    keyword: Type.String({ minLength: 1, maxLength: 200 }),
    kind: Type.Union([L('dependence'), L('file')]),
    taskId: Type.Optional(Id()),
    /** Hits returned at most (default 200); a component on many paths counts once per path. */
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  }),
  response: Type.Object({
    content: Type.Array(TreeSearchHitSchema),
    /** All hits, which may exceed `content`. */
    total: Type.Integer({ minimum: 0 }),
    capped: Type.Boolean(),
  }),
  permission: RESULT,
});

export const componentSource = defineCall({
  name: 'result.componentSource',
  method: 'POST',
  path: '/api/component/source',
  summary: '组件所在位置（文件与行号）',
  body: Type.Object({ projectId: Id(), taskId: Type.Optional(Id()), componentId: Id() }),
  response: Type.Object({ componentId: Type.Integer(), purl: Type.String(), locations: Type.Array(LocationSchema) }),
  permission: RESULT,
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
  permission: RESULT,
});

export const vulnerabilityStatistic = defineCall({
  name: 'result.vulnerabilityStatistic',
  method: 'GET',
  path: '/api/vulnerability/list/statistic/{projectId}',
  summary: '任务漏洞列表（按等级分组统计，按页返回当前等级）',
  params: ProjectParams,
  query: FindingQuerySchema,
  response: FindingStatisticSchema,
  permission: VUL,
});

export const licenseList = defineCall({
  name: 'result.licenseList',
  method: 'GET',
  path: '/api/license/list/{projectId}',
  summary: '任务许可证列表',
  params: ProjectParams,
  query: Type.Object({ ...TaskPagingQuery.properties, keyword: Keyword, level: Type.Optional(LevelSchema) }),
  response: PageSchema(LicenseUsageRowSchema),
  permission: RESULT,
});

export const copyrightList = defineCall({
  name: 'result.copyrightList',
  method: 'GET',
  path: '/api/license/copyright/{projectId}',
  summary: '任务版权信息（按版权方去重）',
  params: ProjectParams,
  query: Type.Object({ ...TaskPagingQuery.properties, keyword: Keyword }),
  response: PageSchema(CopyrightRowSchema),
  permission: RESULT,
});

export const licenseConflict = defineCall({
  name: 'result.licenseConflict',
  method: 'GET',
  path: '/api/license/conflict/{projectId}',
  summary: '许可证冲突（组件许可证与项目出站许可证的兼容性）',
  params: ProjectParams,
  query: Type.Object({ ...TaskPagingQuery.properties, keyword: Keyword, verdict: Type.Optional(ConflictVerdictSchema) }),
  response: ConflictPageSchema,
  permission: RESULT,
});

export const componentDetail = defineCall({
  name: 'result.componentDetail',
  method: 'GET',
  path: '/api/component/{id}',
  summary: '任务组件详情（{id} 为组件行 ID；给出 taskId 时须属于该任务）',
  params: Type.Object({ id: Id() }),
  query: TaskQuery,
  response: ComponentDetailSchema,
  permission: RESULT,
});

export const moduleDetail = defineCall({
  name: 'result.moduleDetail',
  method: 'GET',
  path: '/api/component/module/{projectId}/{moduleId}',
  summary: '项目内组件详情（moduleId 为组件行 ID）',
  params: Type.Object({ projectId: Id(), moduleId: Id() }),
  response: ComponentDetailSchema,
  permission: RESULT,
});

export const componentExport = defineCall({
  name: 'result.componentExport',
  method: 'GET',
  path: '/api/component/export',
  summary: '导出任务组件清单（仅声明：导出与报告下载在 issue 7 实现）',
  query: Type.Object({ projectId: Id(), taskId: Type.Optional(Id()), format: Type.Union([L('xlsx'), L('csv')]) }),
  /** The report record that will hold the file (report:list screens). */
  response: Type.Object({ reportId: Type.Integer() }),
  permission: RESULT,
});

// ---- calls: subject-level components -------------------------------------------------------------

export const subjectComponentStatistic = defineCall({
  name: 'result.subjectComponentStatistic',
  method: 'POST',
  path: '/api/subject/component/statistic',
  summary: '项目（应用）组件统计：各工程最新成功任务汇总',
  body: SubjectComponentFilterSchema,
  response: SubjectComponentStatisticSchema,
  permission: RESULT,
});

export const subjectComponentList = defineCall({
  name: 'result.subjectComponentList',
  method: 'POST',
  path: '/api/subject/component/list',
  summary: '项目（应用）组件列表：各工程最新成功任务汇总，按 purl 去重',
  query: PagingQuerySchema,
  body: SubjectComponentFilterSchema,
  response: PageSchema(SubjectComponentRowSchema),
  permission: RESULT,
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
  query: PagingQuerySchema,
  response: PageSchema(MarkLogRowSchema),
  permission: RESULT,
});

export const markVulnerabilitySource = defineCall({
  name: 'result.markVulnerabilitySource',
  method: 'POST',
  path: '/api/mark/vulnerability/source',
  summary: '标记漏洞（源码检测），可同时自定义等级',
  body: VulnerabilityMarkBodySchema,
  response: MarkResultSchema,
  permission: VUL,
});

export const markVulnerabilityBinary = defineCall({
  name: 'result.markVulnerabilityBinary',
  method: 'POST',
  path: '/api/mark/vulnerability/binary',
  summary: '标记漏洞（二进制检测），可同时自定义等级',
  body: VulnerabilityMarkBodySchema,
  response: MarkResultSchema,
  permission: VUL,
});

export const vulnerabilityMarkLog = defineCall({
  name: 'result.vulnerabilityMarkLog',
  method: 'GET',
  path: '/api/mark/vulnerability/log/{projectId}/{id}',
  summary: '漏洞标记与等级修改记录',
  params: MarkLogParams,
  query: PagingQuerySchema,
  response: PageSchema(MarkLogRowSchema),
  permission: VUL,
});

export const vexMark = defineCall({
  name: 'result.vexMark',
  method: 'POST',
  path: '/api/vex/mark/vulnerability',
  summary: '设置漏洞 VEX 状态',
  body: VexMarkBodySchema,
  response: MarkResultSchema,
  permission: VUL,
});

export const vexMarkLog = defineCall({
  name: 'result.vexMarkLog',
  method: 'GET',
  path: '/api/vex/mark/vulnerability/log/{projectId}/{id}',
  summary: 'VEX 状态修改记录',
  params: MarkLogParams,
  query: PagingQuerySchema,
  response: PageSchema(MarkLogRowSchema),
  permission: VUL,
});

// ---- calls: history components and influence ------------------------------------------------------

export const historyList = defineCall({
  name: 'result.historyList',
  method: 'POST',
  path: '/api/component/history/list/{projectId}',
  summary: '历史组件：曾出现在早先任务中的组件（默认只列已不在最新任务中的）',
  params: ProjectParams,
  query: PagingQuerySchema,
  body: Type.Object({
    /** removed (default): gone from the latest succeeded run; present; all. */
    state: Type.Optional(HistoryStateSchema),
    keyword: Keyword,
    riskLevels: Type.Optional(Type.Array(RiskLevelSchema, { maxItems: 7 })),
  }),
  response: PageSchema(HistoryComponentRowSchema),
  permission: RESULT,
});

export const historyRefresh = defineCall({
  name: 'result.historyRefresh',
  method: 'GET',
  path: '/api/component/history/refresh/{id}',
  summary: '刷新历史组件（{id} 为项目 ID）：按全部成功任务重算，并按当前漏洞库更新其风险',
  params: ProjectIdParams,
  response: Type.Object({ total: Type.Integer(), removed: Type.Integer(), refreshedAt: Type.String() }),
  permission: RESULT,
});

export const historyInfo = defineCall({
  name: 'result.historyInfo',
  method: 'GET',
  path: '/api/component/history/info/{id}',
  summary: '历史组件详情（{id} 为其最后出现任务中的组件行 ID）：各任务中的版本',
  params: Type.Object({ id: Id() }),
  response: HistoryComponentInfoSchema,
  permission: RESULT,
});

export const componentInfluence = defineCall({
  name: 'result.componentInfluence',
  method: 'GET',
  path: '/api/project-task-view/component-influence/{subjectUUID}/{versionId}',
  summary: '项目（应用）版本的组件及包含它们的工程（versionId 为 0 时不限版本）',
  params: Type.Object({ subjectUUID: Type.String({ minLength: 1, maxLength: 64 }), versionId: Type.Integer({ minimum: 0 }) }),
  query: Type.Object({ ...PagingQuerySchema.properties, keyword: Keyword, riskLevels: Type.Optional(Csv(RISK_CSV)) }),
  response: PageSchema(SubjectComponentRowSchema),
  permission: RESULT,
});

export const moduleInfluence = defineCall({
  name: 'result.moduleInfluence',
  method: 'GET',
  path: '/api/project-task-view/module-influence',
  summary: '组件影响范围：最新任务包含该组件的项目与工程（purl，或 name 加可选 version/ecosystem，二者必居其一）',
  query: Type.Object({
    ...PagingQuerySchema.properties,
    /** Exact purl (version included matches that version only). */
    purl: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
    /** Without it every version of `name` matches. */
    version: Type.Optional(Type.String({ maxLength: 200 })),
    ecosystem: Type.Optional(Type.String({ maxLength: 30 })),
  }),
  response: PageSchema(ModuleInfluenceRowSchema),
  permission: RESULT,
});

// ---- calls: home dashboard (any signed-in user; the server limits to visible subjects) -----------

export const homeStatistics = defineCall({
  name: 'result.homeStatistics',
  method: 'GET',
  path: '/api/home-page/component/statistics',
  summary: '首页组件统计',
  response: HomeStatisticsSchema,
});

export const homeTop10 = defineCall({
  name: 'result.homeTop10',
  method: 'GET',
  path: '/api/home-page/component/top10',
  summary: '首页使用最多的 10 个组件',
  response: Type.Array(TopComponentRowSchema, { maxItems: 10 }),
});

export const homeLatestVulnerabilities = defineCall({
  name: 'result.homeLatestVulnerabilities',
  method: 'GET',
  path: '/api/home-page/vulnerability/latest',
  summary: '首页最新漏洞（可见工程最新任务中发布时间最新的 10 条）',
  response: Type.Array(HomeFindingRowSchema, { maxItems: 10 }),
});

export const homeIntelligence = defineCall({
  name: 'result.homeIntelligence',
  method: 'POST',
  path: '/api/home-page/opensource/intelligence',
  summary: '开源情报：漏洞库中最新发布的公告',
  query: PagingQuerySchema,
  body: Type.Object({
    /** Published within the last N days (default 30). */
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
    levels: Type.Optional(Type.Array(LevelSchema, { maxItems: 5 })),
    ecosystem: Type.Optional(Type.String({ maxLength: 30 })),
    keyword: Keyword,
  }),
  /** Knowledge-base rows; involvedSubjects counts the caller's visible projects affected. */
  response: PageSchema(VulnerabilityRowSchema),
});

/** Every result call declared for issue 6. */
export const resultCallDeclarations = {
  fileTree, binaryTree, dependenceTree, dependenceChildren, fileChildren, treeSearch, componentSource,
  overview, projectTaskView, componentList, vulnerabilityStatistic, licenseList, copyrightList, licenseConflict,
  componentDetail, moduleDetail, componentExport,
  subjectComponentStatistic, subjectComponentList,
  batchList, batchLatest, compareTaskComponent, compareTaskVulnerability, compareSubjectComponent, compareSubjectVulnerability,
  markComponentSource, markComponentBinary, componentMarkLog, markVulnerabilitySource, markVulnerabilityBinary, vulnerabilityMarkLog,
  vexMark, vexMarkLog,
  historyList, historyRefresh, historyInfo, componentInfluence, moduleInfluence,
  homeStatistics, homeTop10, homeLatestVulnerabilities, homeIntelligence,
};

/**
 * The calls the server registers: every declared call has its handler (server/routes/result/),
 * and the server refuses to start when one is missing.
 */
export const resultCalls = resultCallDeclarations;
