// 敏感信息 (contract/api/leak.ts): what a run found (the task details' 敏感信息 tab) and the rules
// the analyses look with (/system/sensitive).
import type { CallBody, CallQuery } from '../../contract/api/define.ts';
import { list, ruleAdd, ruleDelete, ruleEnable, ruleList, types } from '../../contract/api/leak.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

export interface LeakRuleListArgs {
  paging: NonNullable<CallQuery<typeof ruleList>>;
  filter: CallBody<typeof ruleList>;
}

const leakApi = platformApi.enhanceEndpoints({ addTagTypes: ['LeakRule'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'leak', {
      provides: ['LeakRule'],
      invalidates: ['LeakRule'],
      endpoints: {
        leakTypes: query(types, { tags: [] }),
        leakList: query(list, { tags: [] }),
        leakRuleList: query(ruleList, { read: true, args: ({ paging, filter }: LeakRuleListArgs) => ({ query: paging, body: filter }) }),
        addLeakRule: mutation(ruleAdd),
        enableLeakRule: mutation(ruleEnable),
        removeLeakRule: mutation(ruleDelete, { args: (id: number) => ({ query: { id } }) }),
      },
    }),
});

export const {
  useLeakTypesQuery, useLeakListQuery, useLeakRuleListQuery, useAddLeakRuleMutation, useEnableLeakRuleMutation, useRemoveLeakRuleMutation,
} = leakApi;
