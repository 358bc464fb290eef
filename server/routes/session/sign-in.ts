// Getting in and out: CSRF token, password login, personal-token login, logout (the commands are
// services/sessions.ts's; here the cookies and the login throttle: refused logins counted per
// address and per username, answered 429 with Retry-After once either allowance is used up).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE, type sessionCalls } from '../../../contract/api/session.ts';
import { fail, ok, type Envelope } from '../../../contract/envelope.ts';
import { CSRF_COOKIE, csrfCookie, sessionCookie } from '../../auth/cookies.ts';
import { csrfTokenFor } from '../../auth/csrf.ts';
import { LoginThrottle, type LoginAttempt } from '../../auth/rate-limit.ts';
import { loadSessionUser } from '../../auth/session-user.ts';
import { randomToken } from '../../auth/tokens.ts';
import type { ServerContext } from '../../context.ts';
import { isUserError } from '../../errors.ts';
import { MSG } from '../../messages.ts';
import { directoryLogin } from '../../services/ldap.ts';
import { accountRestoredAt, logIn, logInWithToken, logOut, type SignInContext } from '../../services/sessions.ts';
import type { AreaHandlers } from '../register.ts';

/** A cookie value we issued: 32 random bytes in base64url. Anything else is replaced. */
const isCsrfCookie = (value: string | undefined): value is string => !!value && /^[\w-]{43}$/.test(value);

type Handlers = AreaHandlers<typeof sessionCalls>;

export function signInHandlers({ db, dataDir, csrfSecret, sessionTtlMinutes, loginRateLimits }: ServerContext): Pick<Handlers, 'csrf' | 'login' | 'tokenLogin' | 'logout'> {
  const throttle = new LoginThrottle(loginRateLimits);
  // Names that are not a platform user's are asked of the directory, when directory login is on.
  const directory = directoryLogin(db, dataDir);

  /** Where a sign-in comes from: any session this browser had is replaced (no fixation). */
  const signInContext = (request: FastifyRequest): SignInContext =>
    ({ ip: request.ip, previousToken: request.cookies[SESSION_COOKIE], ttlMinutes: sessionTtlMinutes });

  /** Sets the new session's cookie and answers with the SessionUser. */
  async function started(request: FastifyRequest, reply: FastifyReply, session: { userId: number; token: string }) {
    reply.setCookie(SESSION_COOKIE, session.token, sessionCookie(request));
    return ok(await loadSessionUser(db, session.userId), MSG.loggedIn);
  }

  /**
   * Runs a login unless the attempt's address or username has used up its allowance (429 and
   * Retry-After, before the password is even checked); a refusal counts against both. An account
   * given back since (unlocked, or its password reset: in the database, perhaps by `cairn user` in
   * another process) has what was counted before forgiven.
   */
  async function throttled<T>(reply: FastifyReply, attempt: LoginAttempt, signIn: () => Promise<T>): Promise<T | Envelope<null>> {
    let wait = throttle.retryAfter(attempt);
    if (wait > 0 && attempt.username !== undefined) {
      const restoredAt = await accountRestoredAt(db, attempt.username);
      if (restoredAt !== null && throttle.forgive(attempt, restoredAt)) wait = throttle.retryAfter(attempt);
    }
    if (wait > 0) {
      reply.code(429).header('retry-after', String(wait));
      return fail(MSG.loginThrottled(Math.ceil(wait / 60)));
    }
    try {
      return await signIn();
    } catch (error) {
      if (isUserError(error)) throttle.refused(attempt);
      throw error;
    }
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
      return throttled(reply, { ip: request.ip, username: body.username }, async () =>
        started(request, reply, await logIn(db, body.username, body.password, { ...signInContext(request), directory })));
    },

    async tokenLogin({ request, reply, query }) {
      return throttled(reply, { ip: request.ip }, async () => {
        const session = await logInWithToken(db, query.key, signInContext(request));
        // The open-API log starts with the login (plugins/open-api-log.ts).
        request.tokenSignIn = { userId: session.userId, tokenId: session.tokenId };
        return started(request, reply, session);
      });
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
