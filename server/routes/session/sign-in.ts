// Getting in and out: CSRF token, password login, personal-token login, logout (the commands are
// services/sessions.ts's; here the cookies).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE, type sessionCalls } from '../../../contract/api/session.ts';
import { ok } from '../../../contract/envelope.ts';
import { CSRF_COOKIE, csrfCookie, sessionCookie } from '../../auth/cookies.ts';
import { csrfTokenFor } from '../../auth/csrf.ts';
import { loadSessionUser } from '../../auth/session-user.ts';
import { randomToken } from '../../auth/tokens.ts';
import type { ServerContext } from '../../context.ts';
import { MSG } from '../../messages.ts';
import { logIn, logInWithToken, logOut, type SignInContext } from '../../services/sessions.ts';
import type { AreaHandlers } from '../register.ts';

/** A cookie value we issued: 32 random bytes in base64url. Anything else is replaced. */
const isCsrfCookie = (value: string | undefined): value is string => !!value && /^[\w-]{43}$/.test(value);

type Handlers = AreaHandlers<typeof sessionCalls>;

export function signInHandlers({ db, csrfSecret, sessionTtlMinutes }: ServerContext): Pick<Handlers, 'csrf' | 'login' | 'tokenLogin' | 'logout'> {
  /** Where a sign-in comes from: any session this browser had is replaced (no fixation). */
  const signInContext = (request: FastifyRequest): SignInContext =>
    ({ ip: request.ip, previousToken: request.cookies[SESSION_COOKIE], ttlMinutes: sessionTtlMinutes });

  /** Sets the new session's cookie and answers with the SessionUser. */
  async function started(request: FastifyRequest, reply: FastifyReply, session: { userId: number; token: string }) {
    reply.setCookie(SESSION_COOKIE, session.token, sessionCookie(request));
    return ok(await loadSessionUser(db, session.userId), MSG.loggedIn);
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
      return started(request, reply, await logIn(db, body.username, body.password, signInContext(request)));
    },

    async tokenLogin({ request, reply, query }) {
      return started(request, reply, await logInWithToken(db, query.key, signInContext(request)));
    },

    async logout({ request, reply }) {
      const token = request.cookies[SESSION_COOKIE];
      if (token) {
        await logOut(db, token);
        reply.clearCookie(SESSION_COOKIE, sessionCookie(request));
      }
      return ok(null, MSG.loggedOut);
    },
  };
}
