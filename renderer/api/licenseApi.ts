// The licence knowledge base and the administrators' licence level settings, through RTK Query.
// Endpoints are typed from contract/api/license.ts; the screens never see a path string.
import type { CallBody, CallData, CallQuery } from '../../contract/api/define.ts';
import { detail, involvedSubjects, list, systemEdit, systemList } from '../../contract/api/license.ts';
import { platformApi } from './platformApi.ts';
import { call } from './request.ts';

type Paging = NonNullable<CallQuery<typeof list>>;
export interface LicenseListArgs {
  paging: Paging;
  filter: CallBody<typeof list>;
}
export type LicenseSystemListArgs = NonNullable<CallQuery<typeof systemList>>;

const api = platformApi.enhanceEndpoints({ addTagTypes: ['License'] }).injectEndpoints({
  endpoints: (build) => ({
    licenseList: build.query<CallData<typeof list>, LicenseListArgs>({
      query: ({ paging, filter }) => call(list, { query: paging, body: filter }),
      providesTags: ['License'],
      extraOptions: { quiet: true },
    }),
    licenseDetail: build.query<CallData<typeof detail>, string>({
      query: (id) => call(detail, { params: { id } }),
      providesTags: ['License'],
      extraOptions: { quiet: true },
    }),
    licenseInvolvedSubjects: build.query<CallData<typeof involvedSubjects>, { id: string; paging: Paging }>({
      query: ({ id, paging }) => call(involvedSubjects, { params: { id }, query: paging }),
      providesTags: ['License'],
      extraOptions: { quiet: true },
    }),
    systemLicenseList: build.query<CallData<typeof systemList>, LicenseSystemListArgs>({
      query: (query) => call(systemList, { query }),
      providesTags: ['License'],
      extraOptions: { quiet: true },
    }),
    editLicenseLevel: build.mutation<CallData<typeof systemEdit>, CallBody<typeof systemEdit>>({
      query: (body) => call(systemEdit, { body }),
      invalidatesTags: ['License'],
      extraOptions: { quiet: true },
    }),
  }),
});

export const licenseApi = api;

export const {
  useLicenseListQuery,
  useLicenseDetailQuery,
  useLicenseInvolvedSubjectsQuery,
  useSystemLicenseListQuery,
  useEditLicenseLevelMutation,
} = api;
