// 扫描配置 (contract/api/scan-config.ts): the repositories online resolution asks, per ecosystem,
// and the switch that turns it on. One endpoint per verb over the three ecosystems' calls.
import type { ScanEcosystem, ScanRepositoryForm, ScanRepositoryRow } from '../../contract/api/scan-config.ts';
import { scanConfigCalls as c } from '../../contract/api/scan-config.ts';
import { defineEndpoints, mutation, mutationOver, query, queryOver } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

const LISTS = { maven: c.mavenList, npm: c.npmList, pypi: c.pypiList };
const ADDS = { maven: c.mavenAdd, npm: c.npmAdd, pypi: c.pypiAdd };
const UPDATES = { maven: c.mavenUpdate, npm: c.npmUpdate, pypi: c.pypiUpdate };
const REMOVES = { maven: c.mavenRemove, npm: c.npmRemove, pypi: c.pypiRemove };

const scanConfigApi = platformApi.enhanceEndpoints({ addTagTypes: ['ScanConfig'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'scanConfig', {
      provides: ['ScanConfig'],
      invalidates: ['ScanConfig'],
      endpoints: {
        scanRepositories: queryOver(LISTS, {
          requests: (ecosystem: ScanEcosystem, to) => [to[ecosystem]({})],
          combine: ([rows]) => rows as ScanRepositoryRow[],
        }),
        addScanRepository: mutationOver(ADDS, {
          requests: ({ ecosystem, form }: { ecosystem: ScanEcosystem; form: ScanRepositoryForm }, to) => [to[ecosystem]({ body: form })],
          combine: ([row]) => row as ScanRepositoryRow,
        }),
        updateScanRepository: mutationOver(UPDATES, {
          requests: ({ ecosystem, id, form }: { ecosystem: ScanEcosystem; id: number; form: ScanRepositoryForm }, to) => [to[ecosystem]({ body: { id, ...form } })],
          combine: ([row]) => row as ScanRepositoryRow,
        }),
        removeScanRepository: mutationOver(REMOVES, {
          requests: ({ ecosystem, id }: { ecosystem: ScanEcosystem; id: number }, to) => [to[ecosystem]({ params: { id } })],
          combine: () => null,
        }),
        subjectMavenRepositories: query(c.subjectMavenList, { args: (subjectId: number) => ({ query: { subjectId } }) }),
        addSubjectMavenRepository: mutation(c.subjectMavenAdd),
        updateSubjectMavenRepository: mutation(c.subjectMavenUpdate),
        removeSubjectMavenRepository: mutation(c.subjectMavenRemove),
        scanSettings: query(c.settings),
        saveScanSettings: mutation(c.saveSettings),
      },
    }),
});

export const {
  useScanRepositoriesQuery, useAddScanRepositoryMutation, useUpdateScanRepositoryMutation, useRemoveScanRepositoryMutation,
  useScanSettingsQuery, useSaveScanSettingsMutation, useSubjectMavenRepositoriesQuery, useAddSubjectMavenRepositoryMutation,
  useUpdateSubjectMavenRepositoryMutation, useRemoveSubjectMavenRepositoryMutation,
} = scanConfigApi;
