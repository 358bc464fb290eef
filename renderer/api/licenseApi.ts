// The licence knowledge base and the administrators' licence level settings (contract/api/license.ts).
import type { CallBody, CallQuery } from '../../contract/api/define.ts';
import { detail, involvedSubjects, list, systemEdit, systemList } from '../../contract/api/license.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

type Paging = NonNullable<CallQuery<typeof list>>;
export interface LicenseListArgs {
  paging: Paging;
  filter: CallBody<typeof list>;
}

export const licenseApi = platformApi.enhanceEndpoints({ addTagTypes: ['License'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'license', {
      provides: ['License'],
      invalidates: ['License'],
      endpoints: {
        licenseList: query(list, { read: true, args: ({ paging, filter }: LicenseListArgs) => ({ query: paging, body: filter }) }),
        licenseDetail: query(detail, { args: (id: string) => ({ params: { id } }) }),
        licenseInvolvedSubjects: query(involvedSubjects, { read: true, args: ({ id, paging }: { id: string; paging: Paging }) => ({ params: { id }, query: paging }) }),
        systemLicenseList: query(systemList),
        editLicenseLevel: mutation(systemEdit),
      },
    }),
});

export const { useLicenseListQuery, useLicenseDetailQuery, useLicenseInvolvedSubjectsQuery, useSystemLicenseListQuery, useEditLicenseLevelMutation } = licenseApi;
