// The knowledge base's status and its stale threshold (contract/api/kb-status.ts). Any write to
// the knowledge base (custom entries, imports: the Vulnerability and VulnerabilityImport tags)
// reads the status again, and so does saving the threshold.
import { kbSettings, kbStatus } from '../../contract/api/kb-status.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

const kbStatusApi = platformApi.enhanceEndpoints({ addTagTypes: ['KbStatus', 'Vulnerability', 'VulnerabilityImport'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'kbStatus', {
      provides: ['KbStatus'],
      invalidates: ['KbStatus'],
      endpoints: {
        kbStatus: query(kbStatus, { tags: ['KbStatus', 'Vulnerability', 'VulnerabilityImport'] }),
        setKbStaleDays: mutation(kbSettings, { args: (staleDays: number) => ({ body: { staleDays } }) }),
      },
    }),
});

export const { useKbStatusQuery, useSetKbStaleDaysMutation } = kbStatusApi;
