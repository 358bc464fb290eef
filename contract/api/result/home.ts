// Result area, home dashboard (spec doc 1 §7 "Home"): counts, the most used components and the
// latest findings over the projects the user may see, and the knowledge base's latest advisories.
import { Type } from 'typebox';
import { defineCall } from '../define.ts';
import { filteredList, Keyword, Nullable, PackageFields, ProjectRefFields, SubjectRefFields } from '../kit.ts';
import { LevelCountsSchema, LevelSchema, RiskCountsSchema, VulnerabilityIdFields, VulnerabilityRowSchema } from '../vulnerability.ts';
import { ComponentRiskFields, FindingComponentFields } from './common.ts';

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
  /**
   * Of byRisk[32] (无漏洞), the packages shown 未覆盖: their ecosystem had no knowledge-base data when
   * analysed (contract/coverage.ts), in every latest run that has them. The risk chart shows them apart.
   */
  notCovered: Type.Integer(),
  /**
   * Projects whose latest succeeded run was analysed with an incomplete knowledge base (漏洞结果不完整):
   * how many, and the first few with their reasons, so the figures above are not read as an all-clear.
   */
  incomplete: Type.Object({
    projects: Type.Integer(),
    examples: Type.Array(Type.Object({ projectId: Type.Integer(), projectName: Type.String(), reasons: Type.Array(Type.String()) })),
  }),
});

export const TopComponentRowSchema = Type.Object({
  ...PackageFields,
  ...ComponentRiskFields,
  /** Visible projects whose latest run contains it. */
  projectCount: Type.Integer(),
});

export const HomeFindingRowSchema = Type.Object({
  findingId: Type.Integer(),
  taskId: Type.Integer(),
  ...ProjectRefFields,
  ...SubjectRefFields,
  ...FindingComponentFields,
  ...VulnerabilityIdFields,
  summary: Type.String(),
  level: LevelSchema,
  published: Nullable(Type.String()),
});

/** The knowledge base's latest advisories, as the dashboard's 开源情报 panel filters them. */
export const IntelligenceFilterSchema = Type.Object({
  /** Published within the last N days (default 30). */
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  levels: Type.Optional(Type.Array(LevelSchema, { maxItems: 5 })),
  ecosystem: Type.Optional(Type.String({ maxLength: 30 })),
  keyword: Keyword,
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
  /** Knowledge-base rows; involvedSubjects counts the caller's visible projects affected. */
  ...filteredList(IntelligenceFilterSchema, VulnerabilityRowSchema),
});

/** The home dashboard calls (server/routes/result/home.ts answers them). */
export const resultHomeCalls = { homeStatistics, homeTop10, homeLatestVulnerabilities, homeIntelligence };
