// 安全管控 area (spec doc 2 §7 system settings "IP access rule", /system/securityControl): every
// handler of contract/api/access.ts. Commands are in server/services/access-rules.ts and
// security-settings.ts; each acts for the signed-in administrator from the address the call came from.
import type { FastifyRequest } from 'fastify';
import { accessCalls } from '../../../contract/api/access.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import { displayAddress } from '../../auth/access-rules.ts';
import type { ServerContext } from '../../context.ts';
import { listAccessRules } from '../../db/repositories/access-rules.ts';
import { addAccessRule, editAccessRule, removeAccessRule, type Actor } from '../../services/access-rules.ts';
import { readPasswordPolicy, readSessionSettings, savePasswordPolicy, saveSessionTimeout } from '../../services/security-settings.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

const actorOf = (request: FastifyRequest): Actor => ({ userId: signedIn(request).userId, ip: request.ip });

function accessAreaHandlers({ db, sessionTtlMinutes }: ServerContext): AreaHandlers<typeof accessCalls> {
  return {
    async list({ query }) {
      return ok(await listAccessRules(db, query, pagingOf(query)));
    },

    async add({ request, body }) {
      return ok(await addAccessRule(db, actorOf(request), body), ADMIN_SUCCESS_MESSAGES.added);
    },

    async edit({ request, body }) {
      const { id, ...form } = body;
      return ok(await editAccessRule(db, actorOf(request), id, form), ADMIN_SUCCESS_MESSAGES.modified);
    },

    async remove({ request, query }) {
      await removeAccessRule(db, actorOf(request), query.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    },

    async ip({ request }) {
      return ok({ ip: displayAddress(request.ip) });
    },

    async passwordPolicy() {
      return ok(await readPasswordPolicy(db));
    },

    async savePasswordPolicy({ request, body }) {
      return ok(await savePasswordPolicy(db, actorOf(request), body), ADMIN_SUCCESS_MESSAGES.saved);
    },

    async sessionSettings() {
      return ok(await readSessionSettings(db, sessionTtlMinutes));
    },

    async saveSessionSettings({ request, body }) {
      return ok(await saveSessionTimeout(db, actorOf(request), body.timeoutMinutes, sessionTtlMinutes), ADMIN_SUCCESS_MESSAGES.saved);
    },
  };
}

export const accessHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(accessCalls, accessAreaHandlers(ctx));
