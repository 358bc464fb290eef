// Result area, shared pieces (issue 6, spec doc 1 §7 "Task", "Batch", "Mark", "VEX", "History",
// "Home"): the codes, counts, parameters and row shapes that several of the result sub-resources
// use. Each sub-resource file of contract/api/result/ declares its own calls, as the server's
// handlers are split in server/routes/result/.
//
// Terms: a project's analysis is a run (`runs`); the spec's `taskId` is a run id and the spec's
// `projectId` (and `{id}` of /api/project-task-view/… and /api/resultTree/file|dependence/{id}) is a
// PROJECT id. A project-scoped read answers from the project's latest SUCCEEDED run unless a
// `taskId` of that project is given; without any succeeded run a list answers an empty page and the
// header/overview carry `run: null`. Component ids are `run_components.id`, finding ids
// `run_vulnerabilities.id` (both belong to exactly one run).
import { Type, type Static } from 'typebox';
import { Id, IdParams, Nullable, PagingQuerySchema, ProjectContextFields } from '../kit.ts';
import { TaskStatusSchema } from '../task.ts';
import { LevelCountsSchema, LevelSchema, RiskLevelSchema } from '../vulnerability.ts';
import { KbCoverageSchema } from '../kb-status.ts';
import { RunImageSchema } from '../image.ts';

// Codes and counts the result calls share with other areas, declared there once.
export { TaskStatusSchema } from '../task.ts';
export {
  LevelCountsSchema, RiskCountsSchema, RiskLevelSchema, type LevelCounts, type RiskCounts,
} from '../vulnerability.ts';

const L = Type.Literal;

/** Comma-separated codes in a query string (`?marks=0,1`): query arrays are ambiguous with one item. */
export const Csv = (codes: string) => Type.String({ maxLength: 200, pattern: `^(${codes})(,(${codes}))*$` });

// ---- codes (labels in contract/enums.ts) --------------------------------------------------------

/** COMPONENT_MARK_LABEL: N 未标记, F 误报, L 遗留, W 白名单, Y 其他. */
export const ComponentMarkSchema = Type.Union([L('N'), L('F'), L('L'), L('W'), L('Y')]);
/** VULNERABILITY_MARK_LABEL: 0 待审核 … 7 其他. */
export const VulnerabilityMarkSchema = Type.Union([L(0), L(1), L(2), L(3), L(4), L(5), L(6), L(7)]);
/** VEX_LABEL: 0 待定, 1 不受影响, 2 受影响, 3 已修复, 4 调查中. */
export const VexSchema = Type.Union([L(0), L(1), L(2), L(3), L(4)]);
/** COMPONENT_TYPE_LABEL: 0 开源组件, 1 私有组件, -1 未知. */
export const ComponentTypeSchema = Type.Union([L(0), L(1), L(-1)]);
/** runtime: shipped with the product; development: build, test and tooling only. */
export const ScopeSchema = Type.Union([L('runtime'), L('development')]);
/** How a licence was recognised: package metadata, full text, file header, SPDX tag, a reference (URL/name). */
export const LicenseSourceSchema = Type.Union([L('declared'), L('text'), L('header'), L('tag'), L('reference')]);
/** The licence kinds as a query's comma-separated codes (`kinds=text,header`). */
export const LICENSE_SOURCE_CODES = 'declared|text|header|tag|reference';
/**
 * CONFLICT_VERDICT_LABEL: compatible 兼容, incompatible 不兼容, check 需核查依赖方式 (OSADL: "Check
 * dependency" — it depends on how the component is combined with the project), unknown 未知.
 */
export const ConflictVerdictSchema = Type.Union([L('compatible'), L('incompatible'), L('check'), L('unknown')]);
/** VERDICT_SOURCE_LABEL: osadl OSADL 兼容性矩阵, cairn Cairn 规则. */
export const VerdictSourceSchema = Type.Union([L('osadl'), L('cairn')]);
/**
 * Whose a licence found in a file is (server/engine/analyzers/license-scope.ts): the project's own,
 * or a text in test code and fixtures, a vendored licence database, a data file.
 */
export const LicenseScopeSchema = Type.Union([L('project'), L('test'), L('licence-data'), L('data')]);
/** The licence tab's two views: the project's own licences, and those found in tests, licence databases and data files. */
export const LicenseViewSchema = Type.Union([L('project'), L('excluded')]);
/** Where a run's outbound licence came from: the project's setting, a root manifest, the root licence file. */
export const OutboundSourceSchema = Type.Union([L('project'), L('manifest'), L('license-file')]);
/** A comparison row: only in the compared side, only in the base side, in both but different, identical. */
export const ChangeSchema = Type.Union([L('added'), L('removed'), L('changed'), L('same')]);
/** mark_logs.kind: component mark, vulnerability mark, custom level, VEX statement. */
export const MarkLogKindSchema = Type.Union([L('component'), L('vulnerability'), L('level'), L('vex')]);

// ---- shared parameters ---------------------------------------------------------------------------

export const ProjectParams = Type.Object({ projectId: Id() });
/** `{id}` is the PROJECT id. */
export const ProjectIdParams = IdParams;
/** A run of the project other than its latest succeeded one (history, comparison). */
export const TaskQuery = Type.Object({ taskId: Type.Optional(Id()) });
export const TaskPagingQuery = Type.Object({ ...PagingQuerySchema.properties, taskId: Type.Optional(Id()) });
/**
 * The licence list's and licence reports' confidence filters: only findings recognised in one of
 * these ways (识别方式; comma-separated LicenseSource codes), and only those whose confidence is at
 * least minScore (0–100; package metadata and SPDX tags count as 100).
 */
export const LicenceConfidenceQuery = Type.Object({
  kinds: Type.Optional(Csv(LICENSE_SOURCE_CODES)),
  minScore: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
});
export const sortOf = (fields: string) => Type.Optional(Type.String({ maxLength: 40, pattern: `^(${fields}),(asc|desc)$` }));

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
  /** Engine stage code as stored on the run (contract/api/task.ts RUN_STAGES: queued, preparing, …, done). */
  stage: Type.String(),
  /** The stage in Chinese (RUN_STAGE_LABEL, e.g. 识别组件, 匹配漏洞); '' for an unknown code. */
  stageLabel: Type.String(),
  /** 0–100. */
  progress: Type.Integer(),
  /** Failure reason or last engine message (Chinese). */
  message: Type.String(),
  /** What started it: manual | timing | batch | resend | api. */
  trigger: Type.String(),
  /** ANALYSIS_MODE_LABEL codes of this run. */
  analysisModes: Type.Array(Type.Integer()),
  queuedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  createdBy: Nullable(Type.Integer()),
  createdByName: Nullable(Type.String()),
  /** From runs.summary; zeros until the run succeeded. */
  counts: RunCountsSchema,
  /** The knowledge base's coverage when the run was analysed (contract/coverage.ts words it); null on runs analysed before it was recorded. */
  coverage: Nullable(KbCoverageSchema),
  /** The container image analysed, for an image run; null otherwise. */
  image: Nullable(RunImageSchema),
});
export type RunRow = Static<typeof RunRowSchema>;

export const ProjectHeaderSchema = Type.Object({
  ...ProjectContextFields,
  subjectUuid: Type.String(),
  /** 1 source-code product, 2 binary product (chooses /binary paths). */
  product: Type.Integer(),
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

// ---- component fields ----------------------------------------------------------------------------

/** A component's risk: its worst finding's level (COMPONENT_RISK_LABEL code) and how many findings it has. */
export const ComponentRiskFields = {
  riskLevel: RiskLevelSchema,
  vulCount: Type.Integer(),
};

/** What a component row says of a component: its type, licences, findings and the version to move to. */
export const ComponentRatingFields = {
  componentType: ComponentTypeSchema,
  /** Declared licences as one SPDX expression; null when none is declared. */
  licenseExpression: Nullable(Type.String()),
  /** Riskiest level among the expression's licences (16 when unknown). */
  licenseLevel: LevelSchema,
  /** vulCount: in a run's row, all of them, VEX 不受影响 included. */
  ...ComponentRiskFields,
  vulLevels: LevelCountsSchema,
  /** Nearest higher version no known advisory affects; null when none or not vulnerable. */
  recommendVersion: Nullable(Type.String()),
};

/** The component a finding was found in: its row id in the run (run_components.id), name and version. */
export const FindingComponentFields = {
  componentId: Type.Integer(),
  componentName: Type.String(),
  componentVersion: Type.String(),
};

/** One step of a path from a root, for breadcrumbs and expanding the tree to a node. */
export const PathStepSchema = Type.Object({
  pathId: Type.String(),
  name: Type.String(),
  /** null for files and directories. */
  version: Nullable(Type.String()),
});
export type PathStep = Static<typeof PathStepSchema>;

export const CountRowSchema = Type.Object({ key: Type.String(), count: Type.Integer() });

/** Permission to read a run's components, licences and trees (and most result calls). */
export const RESULT_PERMISSION = 'analysis:result:cominfo:list' as const;
/** Permission to read and mark a run's vulnerabilities. */
export const VUL_PERMISSION = 'analysis:result:vul:list' as const;
