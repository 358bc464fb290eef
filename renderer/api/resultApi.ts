// Analysis results (issue 6): the task-detail header and tabs, trees, marks and VEX, comparisons,
// history components and the home dashboard, through RTK Query. Endpoints are typed from
// contract/api/result/ (and task.ts for progress and relaunch); the screens never see a path.
//
// Tags: `Run` (header, batches, progress-driven data), `Result` (every read of a run's results),
// `Mark` (anything a mark or VEX changes). A mark invalidates Result and Mark so lists, counts and
// logs refresh; a finished run invalidates everything.
import type { CallBody, CallData, CallParams, CallQuery } from '../../contract/api/define.ts';
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
  historyInfo,
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
import { progress, relaunch } from '../../contract/api/task.ts';
import { platformApi } from './platformApi.ts';
import { call } from './request.ts';

type Q<C> = NonNullable<CallQuery<C>>;
type B<C> = CallBody<C>;
type P<C> = CallParams<C>;

/** `?taskId=` only when a run other than the latest succeeded one is asked for. */
const taskQuery = (taskId: number | undefined): Record<string, number> => (taskId ? { taskId } : {});

export interface ProjectScoped<Query> {
  projectId: number;
  query: Query;
}

/** Product 2 (binary) marks through the /binary variants of the mark calls. */
export interface MarkArgs<Body> {
  body: Body;
  binary: boolean;
}

const api = platformApi.enhanceEndpoints({ addTagTypes: ['Run', 'Result', 'Mark'] }).injectEndpoints({
  endpoints: (build) => ({
    // ---- header, runs, progress ---------------------------------------------------------------
    projectTaskView: build.query<CallData<typeof projectTaskView>, { id: number; taskId?: number | undefined }>({
      query: ({ id, taskId }) => call(projectTaskView, { params: { id }, query: taskQuery(taskId) }),
      providesTags: ['Run'],
      extraOptions: { quiet: true },
    }),
    batchList: build.query<CallData<typeof batchList>, Q<typeof batchList>>({
      query: (query) => call(batchList, { query }),
      providesTags: ['Run'],
      extraOptions: { quiet: true },
    }),
    taskProgress: build.query<CallData<typeof progress>, number>({
      query: (projectId) => call(progress, { query: { projectIds: String(projectId) } }),
      extraOptions: { quiet: true },
    }),
    relaunchProject: build.mutation<CallData<typeof relaunch>, B<typeof relaunch>>({
      query: (body) => call(relaunch, { body }),
      invalidatesTags: ['Run'],
      extraOptions: { quiet: true },
    }),

    // ---- overview and lists --------------------------------------------------------------------
    resultOverview: build.query<CallData<typeof overview>, { id: number; vexMark: 0 | 1; taskId?: number | undefined }>({
      query: ({ id, vexMark, taskId }) => call(overview, { params: { id, vexMark }, query: taskQuery(taskId) }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    componentList: build.query<CallData<typeof componentList>, ProjectScoped<Q<typeof componentList>> & { filter: B<typeof componentList> }>({
      query: ({ projectId, query, filter }) => call(componentList, { params: { projectId }, query, body: filter }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    componentDetail: build.query<CallData<typeof componentDetail>, { id: number; taskId?: number | undefined }>({
      query: ({ id, taskId }) => call(componentDetail, { params: { id }, query: taskQuery(taskId) }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    componentSource: build.query<CallData<typeof componentSource>, B<typeof componentSource>>({
      query: (body) => call(componentSource, { body }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    findingStatistic: build.query<CallData<typeof vulnerabilityStatistic>, ProjectScoped<Q<typeof vulnerabilityStatistic>>>({
      query: ({ projectId, query }) => call(vulnerabilityStatistic, { params: { projectId }, query }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    resultLicenseList: build.query<CallData<typeof licenseList>, ProjectScoped<Q<typeof licenseList>>>({
      query: ({ projectId, query }) => call(licenseList, { params: { projectId }, query }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    copyrightList: build.query<CallData<typeof copyrightList>, ProjectScoped<Q<typeof copyrightList>>>({
      query: ({ projectId, query }) => call(copyrightList, { params: { projectId }, query }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    licenseConflict: build.query<CallData<typeof licenseConflict>, ProjectScoped<Q<typeof licenseConflict>>>({
      query: ({ projectId, query }) => call(licenseConflict, { params: { projectId }, query }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),

    // ---- trees -----------------------------------------------------------------------------------
    dependenceTree: build.query<CallData<typeof dependenceTree>, { id: number; query: Q<typeof dependenceTree> }>({
      query: ({ id, query }) => call(dependenceTree, { params: { id }, query }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    fileTree: build.query<CallData<typeof fileTree>, { id: number; query: Q<typeof fileTree> }>({
      query: ({ id, query }) => call(fileTree, { params: { id }, query }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    dependenceChildren: build.query<CallData<typeof dependenceChildren>, ProjectScoped<Q<typeof dependenceChildren>>>({
      query: ({ projectId, query }) => call(dependenceChildren, { params: { projectId }, query }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    fileChildren: build.query<CallData<typeof fileChildren>, ProjectScoped<Q<typeof fileChildren>>>({
      query: ({ projectId, query }) => call(fileChildren, { params: { projectId }, query }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    treeSearch: build.query<CallData<typeof treeSearch>, { projectId: number; body: B<typeof treeSearch> }>({
      query: ({ projectId, body }) => call(treeSearch, { params: { projectId }, body }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),

    // ---- marks, VEX, logs --------------------------------------------------------------------------
    markComponents: build.mutation<CallData<typeof markComponentSource>, MarkArgs<B<typeof markComponentSource>>>({
      query: ({ body, binary }) => call(binary ? markComponentBinary : markComponentSource, { body }),
      invalidatesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    markFindings: build.mutation<CallData<typeof markVulnerabilitySource>, MarkArgs<B<typeof markVulnerabilitySource>>>({
      query: ({ body, binary }) => call(binary ? markVulnerabilityBinary : markVulnerabilitySource, { body }),
      invalidatesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    vexMark: build.mutation<CallData<typeof vexMark>, B<typeof vexMark>>({
      query: (body) => call(vexMark, { body }),
      invalidatesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    moduleInfluence: build.query<CallData<typeof moduleInfluence>, Q<typeof moduleInfluence>>({
      query: (query) => call(moduleInfluence, { query }),
      extraOptions: { quiet: true },
    }),
    componentMarkLog: build.query<CallData<typeof componentMarkLog>, P<typeof componentMarkLog> & { query: Q<typeof componentMarkLog> }>({
      query: ({ projectId, id, query }) => call(componentMarkLog, { params: { projectId, id }, query }),
      providesTags: ['Mark'],
      extraOptions: { quiet: true },
    }),
    vulnerabilityMarkLog: build.query<CallData<typeof vulnerabilityMarkLog>, P<typeof vulnerabilityMarkLog> & { query: Q<typeof vulnerabilityMarkLog> }>({
      query: ({ projectId, id, query }) => call(vulnerabilityMarkLog, { params: { projectId, id }, query }),
      providesTags: ['Mark'],
      extraOptions: { quiet: true },
    }),
    vexMarkLog: build.query<CallData<typeof vexMarkLog>, P<typeof vexMarkLog> & { query: Q<typeof vexMarkLog> }>({
      query: ({ projectId, id, query }) => call(vexMarkLog, { params: { projectId, id }, query }),
      providesTags: ['Mark'],
      extraOptions: { quiet: true },
    }),

    // ---- history components ----------------------------------------------------------------------
    historyList: build.query<CallData<typeof historyList>, ProjectScoped<Q<typeof historyList>> & { filter: B<typeof historyList> }>({
      query: ({ projectId, query, filter }) => call(historyList, { params: { projectId }, query, body: filter }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    historyRefresh: build.mutation<CallData<typeof historyRefresh>, number>({
      query: (id) => call(historyRefresh, { params: { id } }),
      invalidatesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    historyInfo: build.query<CallData<typeof historyInfo>, number>({
      query: (id) => call(historyInfo, { params: { id } }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),

    // ---- comparison --------------------------------------------------------------------------------
    compareTaskComponent: build.query<CallData<typeof compareTaskComponent>, B<typeof compareTaskComponent>>({
      query: (body) => call(compareTaskComponent, { body }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    compareTaskVulnerability: build.query<CallData<typeof compareTaskVulnerability>, B<typeof compareTaskVulnerability>>({
      query: (body) => call(compareTaskVulnerability, { body }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    compareSubjectComponent: build.query<CallData<typeof compareSubjectComponent>, B<typeof compareSubjectComponent>>({
      query: (body) => call(compareSubjectComponent, { body }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),
    compareSubjectVulnerability: build.query<CallData<typeof compareSubjectVulnerability>, B<typeof compareSubjectVulnerability>>({
      query: (body) => call(compareSubjectVulnerability, { body }),
      providesTags: ['Result', 'Mark'],
      extraOptions: { quiet: true },
    }),

    // ---- home dashboard ----------------------------------------------------------------------------
    homeStatistics: build.query<CallData<typeof homeStatistics>, void>({
      query: () => call(homeStatistics),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    homeTop10: build.query<CallData<typeof homeTop10>, void>({
      query: () => call(homeTop10),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    homeLatestVulnerabilities: build.query<CallData<typeof homeLatestVulnerabilities>, void>({
      query: () => call(homeLatestVulnerabilities),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
    homeIntelligence: build.query<CallData<typeof homeIntelligence>, { query: Q<typeof homeIntelligence>; filter: B<typeof homeIntelligence> }>({
      query: ({ query, filter }) => call(homeIntelligence, { query, body: filter }),
      providesTags: ['Result'],
      extraOptions: { quiet: true },
    }),
  }),
});

export const resultApi = api;

export const {
  useProjectTaskViewQuery,
  useBatchListQuery,
  useTaskProgressQuery,
  useRelaunchProjectMutation,
  useResultOverviewQuery,
  useComponentListQuery,
  useComponentDetailQuery,
  useComponentSourceQuery,
  useFindingStatisticQuery,
  useResultLicenseListQuery,
  useCopyrightListQuery,
  useLicenseConflictQuery,
  useDependenceTreeQuery,
  useFileTreeQuery,
  useLazyDependenceChildrenQuery,
  useLazyFileChildrenQuery,
  useLazyTreeSearchQuery,
  useMarkComponentsMutation,
  useMarkFindingsMutation,
  useVexMarkMutation,
  useComponentMarkLogQuery,
  useModuleInfluenceQuery,
  useVulnerabilityMarkLogQuery,
  useVexMarkLogQuery,
  useHistoryListQuery,
  useHistoryRefreshMutation,
  useHistoryInfoQuery,
  useCompareTaskComponentQuery,
  useCompareTaskVulnerabilityQuery,
  useCompareSubjectComponentQuery,
  useCompareSubjectVulnerabilityQuery,
  useHomeStatisticsQuery,
  useHomeTop10Query,
  useHomeLatestVulnerabilitiesQuery,
  useHomeIntelligenceQuery,
} = api;
