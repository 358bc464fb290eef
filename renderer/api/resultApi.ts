// Analysis results (contract/api/result/): the task-detail header and tabs, trees, marks and VEX,
// comparisons, history components and the home dashboard. Progress and relaunch are the project
// area's (taskApi.ts).
//
// Tags: `Run` (header, batches, progress-driven data), `Result` (every read of a run's results),
// `Mark` (anything a mark or VEX changes). A mark invalidates Result and Mark so lists, counts and
// logs refresh; a finished run invalidates everything.
import type { CallBody, CallParams, CallQuery } from '../../contract/api/define.ts';
import {
  batchList,
  compareSubjectComponent,
  compareSubjectVulnerability,
  compareTaskComponent,
  compareTaskVulnerability,
  componentDetail,
  componentList,
  componentMarkLog,
  componentSource,
  copyrightList,
  dependenceChildren,
  dependenceTree,
  fileChildren,
  fileTree,
  findingAdvisory,
  historyList,
  historyRefresh,
  homeIntelligence,
  homeLatestVulnerabilities,
  homeStatistics,
  homeTop10,
  licenseConflict,
  licenseList,
  markComponentBinary,
  markComponentSource,
  markVulnerabilityBinary,
  markVulnerabilitySource,
  moduleInfluence,
  overview,
  projectTaskView,
  treeSearch,
  vexMark,
  vexMarkLog,
  vulnerabilityMarkLog,
  vulnerabilityStatistic,
} from '../../contract/api/result/index.ts';
import { defineEndpoints, mutation, mutationOver, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

type Q<C> = NonNullable<CallQuery<C>>;
type B<C> = CallBody<C>;
type P<C> = CallParams<C>;

/** `?taskId=` only when a run other than the latest succeeded one is asked for. */
const taskQuery = (taskId: number | undefined): Record<string, number> => (taskId ? { taskId } : {});

export interface ProjectScoped<Query> {
  projectId: number;
  query: Query;
}

/** `{ projectId, query }` of the calls scoped to a project. */
const scoped = <C,>({ projectId, query }: ProjectScoped<Q<C>>) => ({ params: { projectId }, query });

/** Product 2 (binary) marks through the /binary variants of the mark calls. */
export interface MarkArgs<Body> {
  body: Body;
  binary: boolean;
}

const RM = ['Result', 'Mark'] as const;

export const resultApi = platformApi.enhanceEndpoints({ addTagTypes: ['Run', 'Result', 'Mark'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'result', {
      provides: ['Result'],
      invalidates: [...RM],
      endpoints: {
        // ---- header, runs ----------------------------------------------------------------------------
        projectTaskView: query(projectTaskView, { tags: ['Run', ...RM], args: ({ id, taskId }: { id: number; taskId?: number | undefined }) => ({ params: { id }, query: taskQuery(taskId) }) }),
        batchList: query(batchList, { tags: ['Run'] }),

        // ---- overview and lists ----------------------------------------------------------------------
        resultOverview: query(overview, { tags: RM, args: ({ id, vexMark, taskId }: { id: number; vexMark: 0 | 1; taskId?: number | undefined }) => ({ params: { id, vexMark }, query: taskQuery(taskId) }) }),
        componentList: query(componentList, {
          read: true,
          tags: RM,
          args: ({ projectId, query, filter }: ProjectScoped<Q<typeof componentList>> & { filter: B<typeof componentList> }) => ({ params: { projectId }, query, body: filter }),
        }),
        componentDetail: query(componentDetail, { tags: RM, args: ({ id, taskId }: { id: number; taskId?: number | undefined }) => ({ params: { id }, query: taskQuery(taskId) }) }),
        componentSource: query(componentSource, { read: true }),
        findingStatistic: query(vulnerabilityStatistic, { tags: RM, args: scoped<typeof vulnerabilityStatistic> }),
        // The knowledge base's advisory behind a finding (its description, ranges, references): it
        // follows the knowledge base, not the run, so it is read fresh when the drawer opens.
        findingAdvisory: query(findingAdvisory, { args: ({ projectId, id }: P<typeof findingAdvisory>) => ({ params: { projectId, id } }) }),
        resultLicenseList: query(licenseList, { args: scoped<typeof licenseList> }),
        copyrightList: query(copyrightList, { args: scoped<typeof copyrightList> }),
        licenseConflict: query(licenseConflict, { args: scoped<typeof licenseConflict> }),

        // ---- trees -------------------------------------------------------------------------------------
        dependenceTree: query(dependenceTree, { tags: RM, args: ({ id, query }: { id: number; query: Q<typeof dependenceTree> }) => ({ params: { id }, query }) }),
        fileTree: query(fileTree, { args: ({ id, query }: { id: number; query: Q<typeof fileTree> }) => ({ params: { id }, query }) }),
        dependenceChildren: query(dependenceChildren, { args: scoped<typeof dependenceChildren> }),
        fileChildren: query(fileChildren, { args: scoped<typeof fileChildren> }),
        treeSearch: query(treeSearch, { read: true, args: ({ projectId, body }: { projectId: number; body: B<typeof treeSearch> }) => ({ params: { projectId }, body }) }),

        // ---- marks, VEX, logs ----------------------------------------------------------------------------
        markComponents: mutationOver(
          { source: markComponentSource, binary: markComponentBinary },
          { requests: ({ body, binary }: MarkArgs<B<typeof markComponentSource>>, to) => [(binary ? to.binary : to.source)({ body })], combine: ([answer]) => answer },
        ),
        markFindings: mutationOver(
          { source: markVulnerabilitySource, binary: markVulnerabilityBinary },
          { requests: ({ body, binary }: MarkArgs<B<typeof markVulnerabilitySource>>, to) => [(binary ? to.binary : to.source)({ body })], combine: ([answer]) => answer },
        ),
        vexMark: mutation(vexMark),
        moduleInfluence: query(moduleInfluence, { tags: [] }),
        componentMarkLog: query(componentMarkLog, { tags: ['Mark'], args: ({ projectId, id, query }: P<typeof componentMarkLog> & { query: Q<typeof componentMarkLog> }) => ({ params: { projectId, id }, query }) }),
        vulnerabilityMarkLog: query(vulnerabilityMarkLog, { tags: ['Mark'], args: ({ projectId, id, query }: P<typeof vulnerabilityMarkLog> & { query: Q<typeof vulnerabilityMarkLog> }) => ({ params: { projectId, id }, query }) }),
        vexMarkLog: query(vexMarkLog, { tags: ['Mark'], args: ({ projectId, id, query }: P<typeof vexMarkLog> & { query: Q<typeof vexMarkLog> }) => ({ params: { projectId, id }, query }) }),

        // ---- history components --------------------------------------------------------------------------
        historyList: query(historyList, {
          read: true,
          args: ({ projectId, query, filter }: ProjectScoped<Q<typeof historyList>> & { filter: B<typeof historyList> }) => ({ params: { projectId }, query, body: filter }),
        }),
        /** A GET that re-rates the history (the spec's method): a mutation, run once per click. */
        historyRefresh: mutation(historyRefresh, { action: true, tags: ['Result'], args: (id: number) => ({ params: { id } }) }),

        // ---- comparison ------------------------------------------------------------------------------------
        compareTaskComponent: query(compareTaskComponent, { read: true, tags: RM }),
        compareTaskVulnerability: query(compareTaskVulnerability, { read: true, tags: RM }),
        compareSubjectComponent: query(compareSubjectComponent, { read: true, tags: RM }),
        compareSubjectVulnerability: query(compareSubjectVulnerability, { read: true, tags: RM }),

        // ---- home dashboard --------------------------------------------------------------------------------
        homeStatistics: query(homeStatistics),
        homeTop10: query(homeTop10),
        homeLatestVulnerabilities: query(homeLatestVulnerabilities),
        homeIntelligence: query(homeIntelligence, { read: true, args: ({ query, filter }: { query: Q<typeof homeIntelligence>; filter: B<typeof homeIntelligence> }) => ({ query, body: filter }) }),
      },
    }),
});

export const {
  useProjectTaskViewQuery,
  useBatchListQuery,
  useResultOverviewQuery,
  useComponentListQuery,
  useComponentDetailQuery,
  useComponentSourceQuery,
  useFindingStatisticQuery,
  useFindingAdvisoryQuery,
  useResultLicenseListQuery,
  useCopyrightListQuery,
  useLicenseConflictQuery,
  useMarkComponentsMutation,
  useMarkFindingsMutation,
  useVexMarkMutation,
  useComponentMarkLogQuery,
  useModuleInfluenceQuery,
  useVulnerabilityMarkLogQuery,
  useVexMarkLogQuery,
  useHistoryListQuery,
  useHistoryRefreshMutation,
  useCompareTaskComponentQuery,
  useCompareTaskVulnerabilityQuery,
  useCompareSubjectComponentQuery,
  useCompareSubjectVulnerabilityQuery,
  useHomeStatisticsQuery,
  useHomeTop10Query,
  useHomeLatestVulnerabilitiesQuery,
  useHomeIntelligenceQuery,
} = resultApi;
