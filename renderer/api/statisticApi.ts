// Project statistics (contract/api/statistic.ts): every figure of /project/statistics over one
// filter. The calls are binary variants: the base query sends them to /api/binary/... in the binary
// product, and the `Product` tag refetches them when the product changes.
import type { CallQuery } from '../../contract/api/define.ts';
import {
  compProSorted, componentDistribute, componentSorted, licenseDistribute, licenseProSorted, resultsDate, resultsVersion, summary, taskList,
  taskTagStatusTrend, versionComponentSorted, versionVulSorted, vulDistribute, vulMarkSorted, vulProSorted, vulSorted,
} from '../../contract/api/statistic.ts';
import { projectList } from '../../contract/api/task.ts';
import { defineEndpoints, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

const TAGS = ['Statistic', 'Product', 'Result'] as const;

const statisticApi = platformApi.enhanceEndpoints({ addTagTypes: ['Statistic', 'Result'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'statistic', {
      provides: TAGS,
      endpoints: {
        statisticSummary: query(summary, { read: true }),
        statisticResultsDate: query(resultsDate, { read: true }),
        statisticResultsVersion: query(resultsVersion, { read: true }),
        statisticVersionComponents: query(versionComponentSorted, { read: true }),
        statisticVersionVulnerabilities: query(versionVulSorted, { read: true }),
        statisticTopComponents: query(componentSorted, { read: true }),
        statisticStatusTrend: query(taskTagStatusTrend, { read: true }),
        statisticTopVulnerabilities: query(vulSorted, { read: true }),
        statisticVulMarks: query(vulMarkSorted, { read: true }),
        statisticComponentDistribution: query(componentDistribute, { read: true }),
        statisticComponentProjects: query(compProSorted, { read: true }),
        statisticVulDistribution: query(vulDistribute, { read: true }),
        statisticVulProjects: query(vulProSorted, { read: true }),
        statisticLicenseDistribution: query(licenseDistribute, { read: true }),
        statisticLicenseProjects: query(licenseProSorted, { read: true }),
        statisticTasks: query(taskList, { args: (q: NonNullable<CallQuery<typeof taskList>>) => ({ query: q }) }),
        /** The projects of one 应用, for the screen's project picker. */
        statisticSubjectProjects: query(projectList, { read: true, tags: ['Statistic', 'Product'], args: (subjectId: number) => ({ body: { subjectId } }) }),
      },
    }),
});

export const {
  useStatisticSummaryQuery, useStatisticResultsDateQuery, useStatisticResultsVersionQuery, useStatisticVersionComponentsQuery, useStatisticVersionVulnerabilitiesQuery,
  useStatisticTopComponentsQuery, useStatisticStatusTrendQuery, useStatisticTopVulnerabilitiesQuery, useStatisticVulMarksQuery, useStatisticComponentDistributionQuery,
  useStatisticComponentProjectsQuery, useStatisticVulDistributionQuery, useStatisticVulProjectsQuery, useStatisticLicenseDistributionQuery, useStatisticLicenseProjectsQuery,
  useStatisticTasksQuery, useStatisticSubjectProjectsQuery,
} = statisticApi;
