// Server state of the platform, through RTK Query. Endpoints are typed from the contract's call
// declarations (contract/api/*.ts); later areas add theirs with platformApi.injectEndpoints.
import { createApi } from '@reduxjs/toolkit/query/react';
import type { CallBody, CallData, CallQuery } from '../../contract/api/define.ts';
import { modifyPassword, modifyPersonalInformation, self, tokenLogin } from '../../contract/api/session.ts';
import { desktop } from '../platform/desktop.ts';
import { createEnvelopeBaseQuery } from './baseQuery.ts';
import { call, specCallRef } from './request.ts';

/** `Product`: answers that depend on the product selector (binary-variant calls); refetched when it changes. */
export const TAGS = ['Self', 'Reminders', 'Product'] as const;

/**
 * GET /api/user/queryVul: the bug-remind count (spec doc 1 §2). The vulnerability area is not
 * declared in contract/api yet; the server answers 服务未实现 (501) until it is.
 */
export const queryVulCall = specCallRef('remind.queryVul', 'GET', '/api/user/queryVul');

/** The count in whatever shape the reminder call answers with; null when there is none. */
export function reminderCount(data: unknown): number | null {
  if (typeof data === 'number' && Number.isFinite(data)) return data;
  if (typeof data === 'object' && data !== null) {
    for (const key of ['count', 'total', 'num', 'number']) {
      const v = (data as Record<string, unknown>)[key];
      if (typeof v === 'number' && Number.isFinite(v)) return v;
    }
  }
  return null;
}

export const platformApi = createApi({
  reducerPath: 'platform',
  baseQuery: createEnvelopeBaseQuery((request) => desktop().api.call(request)),
  tagTypes: TAGS,
  endpoints: (build) => ({
    self: build.query<CallData<typeof self>, void>({
      query: () => call(self),
      providesTags: ['Self'],
      extraOptions: { quiet: true },
    }),
    modifyPassword: build.mutation<CallData<typeof modifyPassword>, CallBody<typeof modifyPassword>>({
      query: (body) => call(modifyPassword, { body }),
      extraOptions: { quiet: true },
    }),
    modifyPersonalInformation: build.mutation<CallData<typeof modifyPersonalInformation>, CallBody<typeof modifyPersonalInformation>>({
      query: (body) => call(modifyPersonalInformation, { body }),
      invalidatesTags: ['Self'],
      extraOptions: { quiet: true },
    }),
    tokenLogin: build.mutation<CallData<typeof tokenLogin>, CallQuery<typeof tokenLogin>>({
      query: (query) => call(tokenLogin, { query }),
      extraOptions: { quiet: true },
    }),
    reminders: build.query<number | null, void>({
      query: () => call(queryVulCall),
      transformResponse: (data: unknown) => reminderCount(data),
      providesTags: ['Reminders'],
      extraOptions: { quiet: true },
    }),
  }),
});

export const {
  useSelfQuery,
  useModifyPasswordMutation,
  useModifyPersonalInformationMutation,
  useTokenLoginMutation,
  useRemindersQuery,
} = platformApi;
