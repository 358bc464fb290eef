// Server state of the platform, through RTK Query. Every endpoint is derived from a call
// declaration (contract/api/) by endpoints.ts; the areas add theirs with injectEndpoints.
import { createApi } from '@reduxjs/toolkit/query/react';
import { modifyPassword, modifyPersonalInformation, self, tokenLogin } from '../../contract/api/session.ts';
import { desktop } from '../platform/desktop.ts';
import { createEnvelopeBaseQuery } from './baseQuery.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { specCallRef } from './request.ts';

/** `Product`: answers that depend on the product selector (binary-variant calls); refetched when it changes. */
const TAGS = ['Self', 'Reminders', 'Product'] as const;

/**
 * GET /api/user/queryVul: the bug-remind count (spec doc 1 §2). The remind area is not declared
 * in contract/api yet; the server answers 服务未实现 (501) until it is.
 */
const queryVulCall = specCallRef('remind.queryVul', 'GET', '/api/user/queryVul');

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
  endpoints: (build) =>
    defineEndpoints(build, 'session', {
      endpoints: {
        self: query(self, { tags: ['Self'] }),
        modifyPassword: mutation(modifyPassword),
        modifyPersonalInformation: mutation(modifyPersonalInformation, { tags: ['Self'] }),
        tokenLogin: mutation(tokenLogin),
        reminders: query(queryVulCall, { tags: ['Reminders'], transform: reminderCount }),
      },
    }),
});

export const { useSelfQuery, useModifyPasswordMutation, useModifyPersonalInformationMutation, useTokenLoginMutation, useRemindersQuery } = platformApi;
