// Reports (contract/api/report.ts): the five lists of 报告管理 (one per kind, as the spec has them),
// their deletes, the generate calls (task, licence, batch, subject, statistics), the VEX export
// and the component export (declared in contract/api/result/).
//
// Tag `Report`: every list provides it and every generate or delete invalidates it, so a report
// submitted from the task details shows up in 报告管理 without a reload.
import type { CallData, CallQuery } from '../../contract/api/define.ts';
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
import { defineEndpoints, mutation, mutationOver, queryOver } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

/** The report lists of 报告管理, one per tab. */
export type ReportListKind = 'project' | 'license' | 'statistic' | 'vex' | 'component';
export type ReportListQuery = NonNullable<CallQuery<typeof list>>;
export type ReportPage = CallData<typeof list>;

const LISTS = { project: list, license: licenseList, statistic: statisticList, vex: vexList, component: componentExportList };
const REMOVES = { project: remove, component: componentExportRemove, license: licenseRemove, statistic: statisticRemove, vex: vexRemove };

export const reportApi = platformApi.enhanceEndpoints({ addTagTypes: ['Report'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'report', {
      provides: ['Report'],
      invalidates: ['Report'],
      endpoints: {
        reportList: queryOver(LISTS, {
          requests: ({ kind, query }: { kind: ReportListKind; query: ReportListQuery }, to) => [to[kind]({ query })],
          combine: ([page]): ReportPage => page as ReportPage,
        }),
        /** The project list deletes many at once (so does the component export list), the others one id per call. */
        reportRemove: mutationOver(REMOVES, {
          requests: ({ kind, ids }: { kind: ReportListKind; ids: number[] }, to) => {
            switch (kind) {
              case 'project':
                return [to.project({ query: { reportIds: ids.join(',') } })];
              case 'component':
                return [to.component({ query: { ids: ids.join(',') } })];
              default:
                return ids.map((id) => to[kind]({ params: { id } }));
            }
          },
          combine: (answers) => ({ deleted: answers.reduce((n, a) => n + ((a as { deleted?: number } | undefined)?.deleted ?? 0), 0) }),
        }),
        reportGenerate: mutation(generate),
        reportBatch: mutation(batch),
        reportSubjectGenerate: mutation(subjectGenerate),
        reportStatisticGenerate: mutation(statisticGenerate),
        reportVexExport: mutation(vexExport),
        /** A GET that starts a job (the spec's method): a mutation, so it runs once per click and is never cached. */
        reportComponentExport: mutation(componentExport, { action: true }),
      },
    }),
});

export const {
  useReportListQuery,
  useReportRemoveMutation,
  useReportGenerateMutation,
  useReportBatchMutation,
  useReportSubjectGenerateMutation,
  useReportStatisticGenerateMutation,
  useReportVexExportMutation,
  useReportComponentExportMutation,
} = reportApi;
