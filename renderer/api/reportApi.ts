// Reports (issue 7) through RTK Query: the five lists of 报告管理 (one per kind, as the spec has
// them), their deletes, the generate calls (task, licence, batch, subject, statistics), the VEX
// export and the component export (declared in contract/api/result/). Endpoints are typed from
// the contract; the screens never see a path.
//
// Tag `Report`: every list provides it and every generate or delete invalidates it, so a report
// submitted from the task details shows up in 报告管理 without a reload.
import type { CallBody, CallData, CallQuery } from '../../contract/api/define.ts';
import {
  batch,
  componentExportList,
  componentExportRemove,
  generate,
  licenseList,
  licenseRemove,
  list,
  remove,
  statisticGenerate,
  statisticList,
  statisticRemove,
  subjectGenerate,
  vexExport,
  vexList,
  vexRemove,
} from '../../contract/api/report.ts';
import { componentExport } from '../../contract/api/result/index.ts';
import { platformApi } from './platformApi.ts';
import { call, type CallArgs } from './request.ts';

type B<C> = CallBody<C>;
type D<C> = CallData<C>;

/** The report lists of 报告管理, one per tab. */
export type ReportListKind = 'project' | 'license' | 'statistic' | 'vex' | 'component';
export type ReportListQuery = NonNullable<CallQuery<typeof list>>;
export type ReportPage = D<typeof list>;

const LIST_CALL = { project: list, license: licenseList, statistic: statisticList, vex: vexList, component: componentExportList } as const;

/** The delete of a kind: the project list deletes many at once, the others one id per call. */
function removeArgs(kind: ReportListKind, ids: readonly number[]): CallArgs[] {
  switch (kind) {
    case 'project':
      return [call(remove, { query: { reportIds: ids.join(',') } })];
    case 'component':
      return [call(componentExportRemove, { query: { ids: ids.join(',') } })];
    case 'license':
      return ids.map((id) => call(licenseRemove, { params: { id } }));
    case 'statistic':
      return ids.map((id) => call(statisticRemove, { params: { id } }));
    case 'vex':
      return ids.map((id) => call(vexRemove, { params: { id } }));
  }
}

const api = platformApi.enhanceEndpoints({ addTagTypes: ['Report'] }).injectEndpoints({
  endpoints: (build) => ({
    reportList: build.query<ReportPage, { kind: ReportListKind; query: ReportListQuery }>({
      query: ({ kind, query }) => call(LIST_CALL[kind], { query }),
      providesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
    reportRemove: build.mutation<{ deleted: number }, { kind: ReportListKind; ids: number[] }>({
      async queryFn({ kind, ids }, _api, _extra, baseQuery) {
        let deleted = 0;
        for (const args of removeArgs(kind, ids)) {
          const answer = await baseQuery(args);
          if (answer.error) return { error: answer.error as never };
          deleted += (answer.data as { deleted?: number } | undefined)?.deleted ?? 0;
        }
        return { data: { deleted } };
      },
      invalidatesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
    reportGenerate: build.mutation<D<typeof generate>, B<typeof generate>>({
      query: (body) => call(generate, { body }),
      invalidatesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
    reportBatch: build.mutation<D<typeof batch>, B<typeof batch>>({
      query: (body) => call(batch, { body }),
      invalidatesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
    reportSubjectGenerate: build.mutation<D<typeof subjectGenerate>, B<typeof subjectGenerate>>({
      query: (body) => call(subjectGenerate, { body }),
      invalidatesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
    reportStatisticGenerate: build.mutation<D<typeof statisticGenerate>, B<typeof statisticGenerate>>({
      query: (body) => call(statisticGenerate, { body }),
      invalidatesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
    reportVexExport: build.mutation<D<typeof vexExport>, B<typeof vexExport>>({
      query: (body) => call(vexExport, { body }),
      invalidatesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
    /** GET that starts a job (the spec's method): a mutation, so it runs once per click and is never cached. */
    reportComponentExport: build.mutation<D<typeof componentExport>, NonNullable<CallQuery<typeof componentExport>>>({
      query: (query) => call(componentExport, { query }),
      invalidatesTags: ['Report'],
      extraOptions: { quiet: true },
    }),
  }),
});

export const reportApi = api;

export const {
  useReportListQuery,
  useReportRemoveMutation,
  useReportGenerateMutation,
  useReportBatchMutation,
  useReportSubjectGenerateMutation,
  useReportStatisticGenerateMutation,
  useReportVexExportMutation,
  useReportComponentExportMutation,
} = api;
