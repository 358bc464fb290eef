// Result area, history and influence (spec doc 1 §7 "History"): the components a project's earlier
// runs contained, the components of a subject (or subject version) over its projects' latest runs,
// and which projects a component reaches.
import { Type, type Static } from 'typebox';
import { defineCall } from '../define.ts';
import {
  filteredList, Id, IdParams, Keyword, Nullable, PackageFields, PageSchema, PagingQuerySchema, ProjectRefFields,
} from '../kit.ts';
import { LevelCountsSchema, RiskCountsSchema, RiskLevelSchema } from '../vulnerability.ts';
import {
  ComponentMarkSchema, ComponentRatingFields, ComponentRiskFields, CountRowSchema, Csv, ProjectIdParams, ProjectParams,
  RESULT_PERMISSION,
} from './common.ts';

const L = Type.Literal;

const RISK_CSV = '1|2|4|8|16|32|64';

// ---- subject-level components and influence ------------------------------------------------------

export const ProjectUseSchema = Type.Object({
  ...ProjectRefFields,
  taskId: Type.Integer(),
  /** The component's row id in that run (opens the detail). */
  componentId: Type.Integer(),
  direct: Type.Boolean(),
});

/** One component (purl) across several projects' latest succeeded runs. */
export const SubjectComponentRowSchema = Type.Object({
  ...PackageFields,
  ...ComponentRatingFields,
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
  ...ProjectRefFields,
  taskId: Type.Integer(),
  componentId: Type.Integer(),
  purl: Type.String(),
  version: Type.String(),
  direct: Type.Boolean(),
  ...ComponentRiskFields,
});
export type ModuleInfluenceRow = Static<typeof ModuleInfluenceRowSchema>;

// ---- history components --------------------------------------------------------------------------

export const HistoryStateSchema = Type.Union([L('removed'), L('present'), L('all')]);

/** A component (ecosystem + name + version) as seen over the project's succeeded runs. */
export const HistoryComponentRowSchema = Type.Object({
  /** Its row id in the last run that contained it: the `{id}` of history/info. */
  id: Type.Integer(),
  ...PackageFields,
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
  ...ComponentRiskFields,
  /** Version of the same ecosystem + name in the latest run, null when the package is gone. */
  currentVersion: Nullable(Type.String()),
});
export type HistoryComponentRow = Static<typeof HistoryComponentRowSchema>;

export const HistoryFilterSchema = Type.Object({
  /** removed (default): gone from the latest succeeded run; present; all. */
  state: Type.Optional(HistoryStateSchema),
  keyword: Keyword,
  riskLevels: Type.Optional(Type.Array(RiskLevelSchema, { maxItems: 7 })),
});

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

// ---- calls: subject-level components -------------------------------------------------------------

export const subjectComponentStatistic = defineCall({
  name: 'result.subjectComponentStatistic',
  method: 'POST',
  path: '/api/subject/component/statistic',
  summary: '项目（应用）组件统计：各工程最新成功任务汇总',
  body: SubjectComponentFilterSchema,
  response: SubjectComponentStatisticSchema,
  permission: RESULT_PERMISSION,
});

export const subjectComponentList = defineCall({
  name: 'result.subjectComponentList',
  method: 'POST',
  path: '/api/subject/component/list',
  summary: '项目（应用）组件列表：各工程最新成功任务汇总，按 purl 去重',
  ...filteredList(SubjectComponentFilterSchema, SubjectComponentRowSchema),
  permission: RESULT_PERMISSION,
});

// ---- calls: history components and influence ------------------------------------------------------

export const historyList = defineCall({
  name: 'result.historyList',
  method: 'POST',
  path: '/api/component/history/list/{projectId}',
  summary: '历史组件：曾出现在早先任务中的组件（默认只列已不在最新任务中的）',
  params: ProjectParams,
  ...filteredList(HistoryFilterSchema, HistoryComponentRowSchema),
  permission: RESULT_PERMISSION,
});

export const historyRefresh = defineCall({
  name: 'result.historyRefresh',
  method: 'GET',
  path: '/api/component/history/refresh/{id}',
  summary: '刷新历史组件（{id} 为项目 ID）：按全部成功任务重算，并按当前漏洞库更新其风险',
  params: ProjectIdParams,
  response: Type.Object({ total: Type.Integer(), removed: Type.Integer(), refreshedAt: Type.String() }),
  permission: RESULT_PERMISSION,
});

export const historyInfo = defineCall({
  name: 'result.historyInfo',
  method: 'GET',
  path: '/api/component/history/info/{id}',
  summary: '历史组件详情（{id} 为其最后出现任务中的组件行 ID）：各任务中的版本',
  params: IdParams,
  response: HistoryComponentInfoSchema,
  permission: RESULT_PERMISSION,
});

export const componentInfluence = defineCall({
  name: 'result.componentInfluence',
  method: 'GET',
  path: '/api/project-task-view/component-influence/{subjectUUID}/{versionId}',
  summary: '项目（应用）版本的组件及包含它们的工程（versionId 为 0 时不限版本）',
  params: Type.Object({ subjectUUID: Type.String({ minLength: 1, maxLength: 64 }), versionId: Type.Integer({ minimum: 0 }) }),
  query: Type.Object({ ...PagingQuerySchema.properties, keyword: Keyword, riskLevels: Type.Optional(Csv(RISK_CSV)) }),
  response: PageSchema(SubjectComponentRowSchema),
  permission: RESULT_PERMISSION,
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
  permission: RESULT_PERMISSION,
});

/** The history, subject-component and influence calls (server/routes/result/history.ts answers them). */
export const resultHistoryCalls = { subjectComponentStatistic, subjectComponentList, historyList, historyRefresh, historyInfo, componentInfluence, moduleInfluence };
