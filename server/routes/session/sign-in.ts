// Getting in and out: CSRF token, password login, personal-token login, logout.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE, type sessionCalls } from '../../../contract/api/session.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import { CSRF_COOKIE, csrfCookie, sessionCookie } from '../../auth/cookies.ts';
import { csrfTokenFor } from '../../auth/csrf.ts';
import { decoyHash, verifyPassword } from '../../auth/password.ts';
import { loadSessionUser } from '../../auth/session-user.ts';
import { randomToken } from '../../auth/tokens.ts';
import { audit } from '../../db/repositories/audit-log.ts';
import { findTokenOwner } from '../../db/repositories/personal-tokens.ts';
import { createSession, deleteExpiredSessions, deleteSessionByToken, findActiveSession } from '../../db/repositories/sessions.ts';
import { findUserById, findUserByUsername, recordFailedLogin, resetFailedLogins } from '../../db/repositories/users.ts';
import type { ServerContext } from '../../context.ts';
import { MSG } from '../../messages.ts';
import type { AreaHandlers } from '../register.ts';

/** Consecutive wrong passwords before the account locks (design §7 "account lockout"). */
export const MAX_FAILED_LOGINS = 5;

/** A cookie value we issued: 32 random bytes in base64url. Anything else is replaced. */
const isCsrfCookie = (value: string | undefined): value is string => !!value && /^[\w-]{43}$/.test(value);

type Handlers = AreaHandlers<typeof sessionCalls>;

export function signInHandlers({ db, csrfSecret, sessionTtlMinutes }: ServerContext): Pick<Handlers, 'csrf' | 'login' | 'tokenLogin' | 'logout'> {
  /** Replaces any session this browser had (no fixation), then answers with the SessionUser. */
  async function startSession(request: FastifyRequest, reply: FastifyReply, userId: number, action: string) {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await deleteSessionByToken(db, previous);
    await deleteExpiredSessions(db);
    const token = await createSession(db, userId, sessionTtlMinutes);
    reply.setCookie(SESSION_COOKIE, token, sessionCookie(request));
    await audit(db, { userId, action, detail: { ip: request.ip } });
    return ok(await loadSessionUser(db, userId), MSG.loggedIn);
  }

  return {
    async csrf({ request, reply }) {
      let cookie = request.cookies[CSRF_COOKIE];
      if (!isCsrfCookie(cookie)) {
        cookie = randomToken();
        reply.setCookie(CSRF_COOKIE, cookie, csrfCookie(request));
      }
      return ok({ token: csrfTokenFor(csrfSecret, cookie), header: CSRF_HEADER });
    },

    async login({ request, reply, body }) {
      const user = await findUserByUsername(db, body.username);
      if (!user) {
        // Same work as a wrong password, so response time does not reveal which usernames exist.
        await verifyPassword(body.password, await decoyHash());
        await audit(db, { userId: null, action: 'login.failed', detail: { username: body.username, ip: request.ip } });
        return fail(MSG.badCredentials);
      }
      if (user.locked) {
        await audit(db, { userId: user.id, action: 'login.refused.locked', detail: { ip: request.ip } });
        return fail(MSG.accountLocked);
      }
      if (!(await verifyPassword(body.password, user.passwordHash))) {
        const { locked } = await recordFailedLogin(db, user.id, MAX_FAILED_LOGINS);
        await audit(db, { userId: user.id, action: locked ? 'user.locked' : 'login.failed', detail: { ip: request.ip } });
        return fail(locked ? MSG.accountLocked : MSG.badCredentials);
      }
      await resetFailedLogins(db, user.id);
      return startSession(request, reply, user.id, 'login');
    },

    async tokenLogin({ request, reply, query }) {
      const userId = await findTokenOwner(db, query.key);
      const user = userId === undefined ? undefined : await findUserById(db, userId);
      if (!user) {
        await audit(db, { userId: null, action: 'login.token.failed', detail: { ip: request.ip } });
        return fail(MSG.tokenInvalid);
      }
      if (user.locked) return fail(MSG.accountLocked);
      return startSession(request, reply, user.id, 'login.token');
    },

    async logout({ request, reply }) {
      const token = request.cookies[SESSION_COOKIE];
      if (token) {
        const session = await findActiveSession(db, token);
        await deleteSessionByToken(db, token);
        if (session) await audit(db, { userId: session.userId, action: 'logout' });
        reply.clearCookie(SESSION_COOKIE, sessionCookie(request));
      }
      return ok(null, MSG.loggedOut);
    },
  };
}
