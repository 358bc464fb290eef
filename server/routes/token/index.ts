// 令牌 area (spec doc 2 §7 "Tokens"): every handler of contract/api/token.ts, on the signed-in
// user's own tokens. The commands are services/personal-tokens.ts's.
import { tokenCalls } from '../../../contract/api/token.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { addToken, listTokens, removeToken, updateToken, type TokenCaller } from '../../services/personal-tokens.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

const callerOf = (request: FastifyRequest): TokenCaller => {
  const auth = signedIn(request);
  return { userId: auth.userId, tokenId: auth.tokenId, ip: request.ip };
};

function tokenAreaHandlers({ db }: ServerContext): AreaHandlers<typeof tokenCalls> {
  return {
    async list({ request, query }) {
      return ok(await listTokens(db, signedIn(request).userId, query.keyword, pagingOf(query)));
    },

    async add({ request, body }) {
      return ok(await addToken(db, callerOf(request), body), ADMIN_SUCCESS_MESSAGES.added);
    },

    async update({ request, body }) {
      return ok(await updateToken(db, callerOf(request), body), ADMIN_SUCCESS_MESSAGES.modified);
    },

    async remove({ request, params }) {
      await removeToken(db, callerOf(request), params.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    },
  };
}

export const tokenHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(tokenCalls, tokenAreaHandlers(ctx));
