// The per-request guard, in the order a request must pass: CSRF on state-changing calls, then a
// live session, then the IP access rules, then the first-login
// password change, then the call's permission code. It runs
// in onRequest, before the body is even read, so a refused request changes nothing.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { CSRF_HEADER, SESSION_COOKIE, csrf, logout, modifyPassword, self } from '../../contract/api/session.ts';
import { TOKEN_MSG } from '../../contract/api/token.ts';
import { modifyInfo } from '../../contract/api/user.ts';
import { ResultCode, fail } from '../../contract/envelope.ts';
import type { DataPermission } from '../../contract/permissions.ts';
import { grantOf } from '../db/repositories/roles.ts';
import { findSessionAccess, touchSession } from '../db/repositories/sessions.ts';
import type { Database } from '../db/schema.ts';
import { MSG } from '../messages.ts';
import { CSRF_COOKIE, sessionCookie } from './cookies.ts';
import { accessRefusal } from './access-rules.ts';
import { isValidCsrfToken } from './csrf.ts';
import { sessionTimeoutMinutes } from './security-settings.ts';

export interface AuthContext {
  /** Raw session token from the cookie. */
  sessionToken: string;
  userId: number;
  updatedPwd: boolean;
  /** Granted at the user's last login (a role change applies at the next one). */
  permissions: ReadonlySet<string>;
  /** Which 应用 the user sees (subject-access.ts), granted with the permissions. */
  dataPermission: DataPermission;
  /** The personal token that opened the session: its calls go to the open-API log. Null: a password login. */
  tokenId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard on calls that need a session; null on login-exempt calls. */
    auth: AuthContext | null;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a user who must still change the initial password may do. */
const BEFORE_PASSWORD_CHANGE = new Set([self.name, modifyPassword.name, logout.name, csrf.name, modifyInfo.name]);
/** Writing last_seen_at on every request would turn each read into a write; once a minute is enough. */
const touchIntervalMs = (ttlMinutes: number) => Math.min(60_000, (ttlMinutes * 60_000) / 10);

export interface GuardOptions {
  db: Kysely<Database>;
  csrfSecret: string;
  sessionTtlMinutes: number;
}

const deny = (reply: FastifyReply, status: number, message: string, code: number = ResultCode.FAILURE) =>
  reply.code(status).send(fail(message, code));

export function registerGuard(app: FastifyInstance, { db, csrfSecret, sessionTtlMinutes }: GuardOptions): void {
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (request, reply) => {
    // Only contract calls are guarded; docs, 404 and 501 answers carry no data.
    const call = request.routeOptions.config.call;
    if (!call) return;

    if (STATE_CHANGING.has(request.method) && !call.csrfExempt
      && !isValidCsrfToken(csrfSecret, request.cookies[CSRF_COOKIE], request.headers[CSRF_HEADER])) {
      return deny(reply, 403, MSG.csrfInvalid);
    }
    if (call.loginExempt) return;

    // The session, its user and what their last login granted in one statement, read on every
    // request (nothing cached): a logout or a lock applies to the next request, a role change to
    // the next login.
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await findSessionAccess(db, token) : undefined;
    // An administrator's lock ends the user's sessions (services/user-locks.ts); this refuses one
    // that raced it. The automatic lock after wrong passwords refuses new logins only: a session
    // already open goes on (else anyone could sign a user out by typing wrong passwords).
    if (!token || !session || session.lockedByAdmin) {
      if (token) reply.clearCookie(SESSION_COOKIE, sessionCookie(request));
      return deny(reply, 401, MSG.sessionInvalid, ResultCode.INVALID_SESSION);
    }
    // A token session ends with its token: switching it off or deleting it ends the session
    // (services/personal-tokens.ts); its expiry is checked here.
    if (session.tokenExpiresAt !== null && Date.parse(session.tokenExpiresAt) <= Date.now()) {
      reply.clearCookie(SESSION_COOKIE, sessionCookie(request));
      return deny(reply, 401, TOKEN_MSG.expired, ResultCode.INVALID_SESSION);
    }
    // Each use pushes the end by the timeout saved in 安全管控, else the start-up one.
    const ttlMinutes = await sessionTimeoutMinutes(db, sessionTtlMinutes);
    if (Date.now() - Date.parse(session.lastSeenAt) > touchIntervalMs(ttlMinutes)) await touchSession(db, session.id, ttlMinutes);
    // The IP access rules, on every call (auth/access-rules.ts; cached for a few seconds).
    const addressRefusal = await accessRefusal(db, session.userId, request.ip);
    if (addressRefusal) return deny(reply, 403, addressRefusal);

    const grant = session.grant ?? await grantOf(db, session.userId);
    const permissions = new Set(grant.permissions);
    request.auth = { sessionToken: token, userId: session.userId, updatedPwd: session.updatedPwd, permissions, dataPermission: grant.dataPermission, tokenId: session.personalTokenId };

    if (!session.updatedPwd && !BEFORE_PASSWORD_CHANGE.has(call.name)) return deny(reply, 403, MSG.passwordChangeRequired);
    if (call.permission && ![call.permission].flat().some((code) => permissions.has(code))) return deny(reply, 403, MSG.permissionDenied);
  });
}
