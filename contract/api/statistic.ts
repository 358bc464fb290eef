// Project statistics (spec doc 1 §7 "Statistics (B)", screen /project/statistics): figures over the
// projects of the 应用 the caller may see, in the product of the path (the /api/binary/ twin of
// each call counts only 二进制检测 应用, the plain path only 源码检测 ones).
//
// Every POST call takes the same filter (StatisticFilterSchema):
//   subjectId   one 应用 (absent: every visible 应用 of the product);
//   projectIds  projects of that 应用 (absent: all of them); a project outside the caller's scope,
//               of another product or of another 应用 is answered as a missing one (项目不存在);
//   versionIds  应用 versions: only projects labelled with one of them;
//   tags        project tags (项目标签): only projects carrying one of them;
//   startDate / endDate  a range of days (YYYY-MM-DD, both ends included), in the caller's time
//               zone (utcOffset, minutes east of UTC, 480 for China).
// Two kinds of figures follow from it:
//   - the current state ("latest"): each project's latest succeeded analysis finished within the
//     range (any time when no range is given) — summary, distributions, rankings, top lists and
//     the per-version figures. Counts follow level-counts.ts: a package (purl) once, a flaw (purl +
//     vulnerability) once at its most severe level, components marked 误报 left out.
//   - trends (results/date, TaskTagStatusTrend, taskList): analyses per day of the range; an
//     analysis's day is its finishing time, or its queueing time while unfinished. Without a range
//     a trend covers the last 30 days; a trend covers 366 days at most.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Id, IdCsv, Nullable, PackageFields, PageSchema, PagingQuerySchema, ProjectRefFields, SubjectRefFields } from './kit.ts';
import { LevelCountsSchema, LevelSchema, RiskCountsSchema, RiskLevelSchema } from './vulnerability.ts';

/** A day as the screen picks it. */
const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const Day = () => Type.String({ pattern: DAY_PATTERN, maxLength: 10 });

/** The longest trend, in days. */
export const STATISTIC_MAX_DAYS = 366;
/** Days of a trend when the filter names no range. */
export const STATISTIC_DEFAULT_DAYS = 30;
/** Rows of a ranking or top list when the body says none (spec: statistics rankings page 1 size 10). */
export const STATISTIC_DEFAULT_TOP = 10;

const FilterFields = {
  subjectId: Type.Optional(Id()),
  projectIds: Type.Optional(Type.Array(Id(), { maxItems: 500 })),
  versionIds: Type.Optional(Type.Array(Id(), { maxItems: 200 })),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
  startDate: Type.Optional(Day()),
  endDate: Type.Optional(Day()),
  /** Minutes east of UTC of the caller's days (default 0). */
  utcOffset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
};

export const StatisticFilterSchema = Type.Object(FilterFields);
export type StatisticFilter = Static<typeof StatisticFilterSchema>;

/** The filter of a ranking or top list: `size` rows (default 10). */
export const StatisticTopFilterSchema = Type.Object({ ...FilterFields, size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });
export type StatisticTopFilter = Static<typeof StatisticTopFilterSchema>;

/** The projects and days a figure was computed over (echoed so the screen can label its charts). */
const RangeFields = {
  /** First and last day of the range used (null: no bound, for the current-state figures). */
  startDate: Nullable(Type.String()),
  endDate: Nullable(Type.String()),
};

// ---- answers --------------------------------------------------------------------------------------

export const StatisticSummarySchema = Type.Object({
  ...RangeFields,
  /** 应用 with at least one project in scope. */
  subjects: Type.Integer(),
  /** Projects in scope, and those of them with a succeeded analysis in the range. */
  projects: Type.Integer(),
  analysedProjects: Type.Integer(),
  /** Analyses of those projects in the range (any time without one), all and by outcome. */
  runs: Type.Integer(),
  succeededRuns: Type.Integer(),
  failedRuns: Type.Integer(),
  /** Current state: distinct packages, those with counted findings, by risk. */
  components: Type.Integer(),
  vulnerableComponents: Type.Integer(),
  byRisk: RiskCountsSchema,
  /** Current state: counted findings (a flaw of a package), by level; distinct advisories; not reviewed yet (待审核). */
  vulnerabilities: Type.Integer(),
  byLevel: LevelCountsSchema,
  distinctVulnerabilities: Type.Integer(),
  unreviewed: Type.Integer(),
  /** Current state: distinct licences found, by the licence's level. */
  licenses: Type.Integer(),
  licensesByLevel: LevelCountsSchema,
});

export const ResultsByDateSchema = Type.Object({
  ...RangeFields,
  /** Every day of the range, oldest first, zeros included. */
  days: Type.Array(Type.Object({
    date: Type.String(),
    /** Analyses finished that day, succeeded and failed. */
    runs: Type.Integer(),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
    /** What that day's succeeded analyses found (their task summaries added up). */
    components: Type.Integer(),
    vulnerabilities: Type.Integer(),
    byLevel: LevelCountsSchema,
  })),
});

export const VersionFiguresSchema = Type.Object({
  /** null: the projects labelled with no version (未关联版本). */
  versionId: Nullable(Type.Integer()),
  versionName: Nullable(Type.String()),
  ...SubjectRefFields,
  projects: Type.Integer(),
  analysedProjects: Type.Integer(),
  components: Type.Integer(),
  byRisk: RiskCountsSchema,
  vulnerabilities: Type.Integer(),
  byLevel: LevelCountsSchema,
  licenses: Type.Integer(),
});
export type VersionFigures = Static<typeof VersionFiguresSchema>;

export const TopComponentSchema = Type.Object({
  ...PackageFields,
  riskLevel: RiskLevelSchema,
  /** Counted findings of the package. */
  vulCount: Type.Integer(),
  /** Projects in scope whose latest analysis holds it. */
  projectCount: Type.Integer(),
});

export const TopVulnerabilitySchema = Type.Object({
  /** The advisory id (CVE, GHSA, OSV id ...) as the task results name it. */
  vulId: Type.String(),
  cve: Nullable(Type.String()),
  summary: Type.String(),
  /** Most severe effective level among its findings. */
  level: LevelSchema,
  /** Projects and distinct packages it turns up in. */
  projectCount: Type.Integer(),
  componentCount: Type.Integer(),
});

export const StatusTrendSchema = Type.Object({
  ...RangeFields,
  dates: Type.Array(Type.String()),
  /** One series per task status (TASK_STATUS_LABEL) that occurs, counts aligned with `dates`. */
  series: Type.Array(Type.Object({ status: Type.Integer(), total: Type.Integer(), counts: Type.Array(Type.Integer()) })),
  /** Project tags of the projects in scope (before the tag filter), with their analyses in the range. */
  tags: Type.Array(Type.Object({ tag: Type.String(), runs: Type.Integer() })),
});

/**
 * Findings by review state: a project's finding counts in the state its project marked it (a flaw
 * found in two projects counts in each), components marked 误报 left out. Most first.
 */
export const VulMarkRowSchema = Type.Object({
  /** VULNERABILITY_MARK_LABEL code. */
  mark: Type.Integer(),
  count: Type.Integer(),
  byLevel: LevelCountsSchema,
});

export const ComponentDistributionSchema = Type.Object({
  components: Type.Integer(),
  byRisk: RiskCountsSchema,
  /** Of byRisk[32], the packages shown 未覆盖 (no knowledge-base data for their ecosystem). */
  notCovered: Type.Integer(),
  ecosystems: Type.Array(Type.Object({ key: Type.String(), count: Type.Integer() })),
});

export const VulDistributionSchema = Type.Object({
  vulnerabilities: Type.Integer(),
  byLevel: LevelCountsSchema,
  distinctVulnerabilities: Type.Integer(),
  /** Counted findings not reviewed yet (待审核). */
  unreviewed: Type.Integer(),
});

export const LicenseDistributionSchema = Type.Object({
  licenses: Type.Integer(),
  byLevel: LevelCountsSchema,
  /** The most used licences (up to `size`), by projects. */
  top: Type.Array(Type.Object({ spdxId: Type.String(), name: Nullable(Type.String()), level: LevelSchema, projectCount: Type.Integer() })),
});

/** A project of a ranking: its latest analysis in the range and that analysis's figures. */
const ProjectRankFields = {
  ...ProjectRefFields,
  ...SubjectRefFields,
  taskId: Type.Integer(),
  finishedAt: Nullable(Type.String()),
};

export const ComponentProjectRowSchema = Type.Object({ ...ProjectRankFields, components: Type.Integer(), vulnerableComponents: Type.Integer(), byRisk: RiskCountsSchema });
export const VulProjectRowSchema = Type.Object({ ...ProjectRankFields, vulnerabilities: Type.Integer(), byLevel: LevelCountsSchema });
export const LicenseProjectRowSchema = Type.Object({ ...ProjectRankFields, licenses: Type.Integer(), byLevel: LevelCountsSchema });

export const StatisticTaskRowSchema = Type.Object({
  taskId: Type.Integer(),
  ...ProjectRefFields,
  ...SubjectRefFields,
  versionName: Nullable(Type.String()),
  /** The analysis's number within its project. */
  seq: Type.Integer(),
  /** TASK_STATUS_LABEL code. */
  status: Type.Integer(),
  trigger: Type.String(),
  queuedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  components: Type.Integer(),
  vulnerabilities: Type.Integer(),
  byLevel: LevelCountsSchema,
  licenses: Type.Integer(),
});
export type StatisticTaskRow = Static<typeof StatisticTaskRowSchema>;

/** GET taskList: the filter in the query (id lists comma-separated), paged, newest first. */
export const StatisticTaskQuerySchema = Type.Object({
  ...PagingQuerySchema.properties,
  subjectId: Type.Optional(Id()),
  projectIds: Type.Optional(IdCsv(4000)),
  versionIds: Type.Optional(IdCsv(2000)),
  tags: Type.Optional(Type.String({ maxLength: 2000 })),
  startDate: Type.Optional(Day()),
  endDate: Type.Optional(Day()),
  utcOffset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
  /** Only analyses in this TASK_STATUS_LABEL status. */
  status: Type.Optional(Type.Integer({ minimum: -1, maximum: 4 })),
});

// ---- calls ----------------------------------------------------------------------------------------

type StatisticPermission = 'statistic' | 'statistic-project:license:list';
type Response = Parameters<typeof defineCall>[0]['response'];

/** A POST call of the area over the shared filter (binary twin under /api/binary/). */
const onFilter = <R extends Response>(name: string, path: string, summary: string, response: R, permission: StatisticPermission = 'statistic') =>
  defineCall({ name: `statistic.${name}`, method: 'POST', path: `/api/statistic/project/${path}`, binaryVariant: true, summary, body: StatisticFilterSchema, response, permission });

/** The same for a ranking or top list (the filter with `size`). */
const onTopFilter = <R extends Response>(name: string, path: string, summary: string, response: R, permission: StatisticPermission = 'statistic') =>
  defineCall({ name: `statistic.${name}`, method: 'POST', path: `/api/statistic/project/${path}`, binaryVariant: true, summary, body: StatisticTopFilterSchema, response, permission });

export const summary = onFilter('summary', 'summary', '项目统计概览', StatisticSummarySchema);
export const resultsDate = onFilter('resultsDate', 'results/date', '检测结果按日期趋势', ResultsByDateSchema);
export const resultsVersion = onFilter('resultsVersion', 'results/version', '检测结果按版本', Type.Array(VersionFiguresSchema));
export const versionComponentSorted = onTopFilter('versionComponentSorted', 'version/componentSorted', '版本组件数排行', Type.Array(VersionFiguresSchema));
export const versionVulSorted = onTopFilter('versionVulSorted', 'version/vulSorted', '版本漏洞数排行', Type.Array(VersionFiguresSchema));
export const componentSorted = onTopFilter('componentSorted', 'componentSorted', '使用最多的组件', Type.Array(TopComponentSchema));
export const taskTagStatusTrend = onFilter('taskTagStatusTrend', 'TaskTagStatusTrend', '任务状态趋势（按项目标签）', StatusTrendSchema);
export const vulSorted = onTopFilter('vulSorted', 'vulSorted', '影响最广的漏洞', Type.Array(TopVulnerabilitySchema));
export const vulMarkSorted = onFilter('vulMarkSorted', 'vulMarkSorted', '漏洞审核状态排行', Type.Array(VulMarkRowSchema));
export const componentDistribute = onFilter('componentDistribute', 'componentDistribute', '组件风险分布', ComponentDistributionSchema);
export const compProSorted = onTopFilter('compProSorted', 'compProSorted', '项目组件数排行', Type.Array(ComponentProjectRowSchema));
export const vulDistribute = onFilter('vulDistribute', 'vulDistribute', '漏洞等级分布', VulDistributionSchema);
export const vulProSorted = onTopFilter('vulProSorted', 'vulProSorted', '项目漏洞数排行', Type.Array(VulProjectRowSchema));
export const licenseDistribute = onTopFilter('licenseDistribute', 'licenseDistribute', '许可证分布', LicenseDistributionSchema, 'statistic-project:license:list');
export const licenseProSorted = onTopFilter('licenseProSorted', 'licenseProSorted', '项目许可证数排行', Type.Array(LicenseProjectRowSchema), 'statistic-project:license:list');

export const taskList = defineCall({
  name: 'statistic.taskList',
  method: 'GET',
  path: '/api/statistic/project/taskList',
  binaryVariant: true,
  summary: '统计范围内的检测记录',
  query: StatisticTaskQuerySchema,
  response: PageSchema(StatisticTaskRowSchema),
  permission: 'statistic',
});

export const statisticCalls = {
  summary, resultsDate, resultsVersion, versionComponentSorted, versionVulSorted, componentSorted, taskTagStatusTrend, vulSorted,
  vulMarkSorted, componentDistribute, compProSorted, vulDistribute, vulProSorted, licenseDistribute, licenseProSorted, taskList,
};
