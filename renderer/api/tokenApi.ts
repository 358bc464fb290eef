// 令牌 (contract/api/token.ts): the signed-in user's own personal tokens, and the open-API log of
// the calls made with any user's tokens (contract/api/open-api-log.ts).
import type { CallQuery } from '../../contract/api/define.ts';
import { list as openApiLogList } from '../../contract/api/open-api-log.ts';
import { add, list, remove, update } from '../../contract/api/token.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

export type TokenListArgs = NonNullable<CallQuery<typeof list>>;
export type OpenApiLogArgs = NonNullable<CallQuery<typeof openApiLogList>>;

const tokenApi = platformApi.enhanceEndpoints({ addTagTypes: ['PersonalToken', 'OpenApiLog'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'token', {
      provides: ['PersonalToken'],
      invalidates: ['PersonalToken'],
      endpoints: {
        tokenList: query(list),
        addToken: mutation(add),
        updateToken: mutation(update),
        removeToken: mutation(remove, { args: (id: number) => ({ params: { id } }) }),
        // Calls are logged as they are made: the log is read afresh on each visit and refresh.
        openApiLog: query(openApiLogList, { tags: ['OpenApiLog'] }),
      },
    }),
});

export const { useTokenListQuery, useAddTokenMutation, useUpdateTokenMutation, useRemoveTokenMutation, useOpenApiLogQuery } = tokenApi;
