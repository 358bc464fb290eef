// Getting in and out and the signed-in user's own account: password login with lockout, token
// login, logout, changing one's password and details. Each command writes its audit row in its own
// transaction; a refusal is a UserError (or, for a failed login, the answer with its audit row).
import { TOKEN_MSG } from '../../contract/api/token.ts';
import { validateName, validatePassword } from '../../contract/validation.ts';
import { loadAutoLockConfig } from '../auth/auto-lock.ts';
import { decoyHash, hashPassword, verifyPassword } from '../auth/password.ts';
import { loadPasswordPolicy } from '../auth/session-user.ts';
import { audit, auditRefusal } from '../db/repositories/audit-log.ts';
import { grantAtLogin } from '../db/repositories/roles.ts';
import { findTokenByKey, markTokenUsed } from '../db/repositories/personal-tokens.ts';
import { createSession, deleteExpiredSessions, deleteSessionByToken, deleteUserSessions, findActiveSession } from '../db/repositories/sessions.ts';
import { findRestoredAt, findUserById, findUserByUsername, recordFailedLogin, resetFailedLogins, updatePassword, updateProfile, type User } from '../db/repositories/users.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { MSG } from '../messages.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s()-]{3,30}$/;

/** Blank means "none"; undefined means "leave as it is". */
const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

/** Where a sign-in comes from and what it replaces. */
export interface SignInContext {
  ip: string;
  /** The session cookie this browser still had: it ends (no fixation). */
  previousToken?: string;
  ttlMinutes: number;
  /** The time of the attempt in ms (default now): tests move it past a lock's end. */
  now?: number;
  /** The personal token signing in (token login): the session remembers it, its calls are logged as its. */
  personalToken?: { id: number; name: string };
}

/**
 * Opens a session for the user, replacing the browser's old one, with its audit row; the new token.
 * Every way in comes through here: it takes the login's grant (roles.ts grantAtLogin), which the
 * guard and the data-scope checks read until the next login.
 */
export async function openSession(db: Db, userId: number, action: string, context: SignInContext, work?: (trx: Db) => Promise<void>): Promise<string> {
  return inTransaction(db, async (trx) => {
    await work?.(trx);
    await grantAtLogin(trx, userId);
    if (context.previousToken) await deleteSessionByToken(trx, context.previousToken);
    await deleteExpiredSessions(trx);
    const token = await createSession(trx, userId, context.ttlMinutes, context.personalToken?.id ?? null);
    const via = context.personalToken && { tokenId: context.personalToken.id, tokenName: context.personalToken.name };
    await audit(trx, { userId, action, detail: { ip: context.ip, ...via } });
    return token;
  });
}

/**
 * Why a user who proved who they are (the right password, a valid token) may still not log in:
 * an administrator's lock, or the automatic lock with the minutes it has left. Null: they may.
 */
function lockRefusal(user: User, now: number): string | null {
  if (user.lockedByAdmin) return MSG.accountLocked;
  const until = user.lockedUntil === null ? NaN : Date.parse(user.lockedUntil);
  return until > now ? MSG.accountLockedFor(Math.ceil((until - now) / 60_000)) : null;
}

/**
 * Password login: the user's id and new session token.
 *
 * Every refusal but one answers 用户名或密码错误, alike for an unknown name, a wrong password and a
 * locked account, and costs the same work (an unknown name is checked against a decoy hash), so
 * neither the answer nor its time tells which names exist or are locked. Only the right password
 * of a locked account hears that it is locked (and, for the automatic lock, for how long).
 *
 * Wrong passwords are counted in a row: the auto-lock configuration's `maxFailures` of them since
 * the last successful login (or lock, or unlock) lock the account for `lockMinutes`; wrong
 * passwords during a lock are not counted and do not lengthen it. A lock refuses new logins only:
 * the user's sessions go on. Every refusal is audited, then thrown as a UserError.
 */
export async function logIn(db: Db, username: string, password: string, context: SignInContext): Promise<{ userId: number; token: string }> {
  const now = context.now ?? Date.now();
  const user = await findUserByUsername(db, username);
  if (!user) {
    await verifyPassword(password, await decoyHash());
    await auditRefusal(db, { userId: null, action: 'login.failed', detail: { username, ip: context.ip } });
    throw new UserError(MSG.badCredentials);
  }
  const rightPassword = await verifyPassword(password, user.passwordHash);
  const refusal = lockRefusal(user, now);
  if (!rightPassword) {
    const rule = await loadAutoLockConfig(db);
    await inTransaction(db, async (trx) => {
      const counted = refusal
        ? { counted: false, failures: 0, lockedUntil: null }
        : await recordFailedLogin(trx, user.id, { lockAfter: rule.maxFailures, lockUntil: new Date(now + rule.lockMinutes * 60_000).toISOString(), now: new Date(now).toISOString() });
      await audit(trx, counted.lockedUntil
        ? { userId: user.id, action: 'user.locked', detail: { ip: context.ip, failures: counted.failures, until: counted.lockedUntil } }
        : { userId: user.id, action: 'login.failed', detail: { ip: context.ip, ...(counted.counted ? { failures: counted.failures } : { locked: true }) } });
    });
    throw new UserError(MSG.badCredentials);
  }
  if (refusal) {
    await auditRefusal(db, { userId: user.id, action: 'login.refused.locked', detail: { ip: context.ip } });
    throw new UserError(refusal);
  }
  const token = await openSession(db, user.id, 'login', context, (trx) => resetFailedLogins(trx, user.id));
  return { userId: user.id, token };
}

/**
 * Login with a personal token (`?key=`): the user's id and new session token. An unknown key is
 * told nothing more than 令牌无效或已过期; a known one, like the right password, is told why it is
 * refused: switched off, expired, or its account locked. The session remembers the token (its
 * calls go to the open-API log) and the token its last use.
 */
export async function logInWithToken(db: Db, key: string, context: SignInContext): Promise<{ userId: number; token: string; tokenId: number }> {
  const now = context.now ?? Date.now();
  const token = await findTokenByKey(db, key);
  const user = token && await findUserById(db, token.user_id);
  if (!token || !user) {
    await auditRefusal(db, { userId: null, action: 'login.token.failed', detail: { ip: context.ip } });
    throw new UserError(MSG.tokenInvalid);
  }
  const about = { tokenId: token.id, tokenName: token.name, ip: context.ip };
  if (!token.enabled) {
    await auditRefusal(db, { userId: user.id, action: 'login.token.refused.disabled', detail: about });
    throw new UserError(TOKEN_MSG.disabled);
  }
  if (token.expires_at !== null && Date.parse(token.expires_at) <= now) {
    await auditRefusal(db, { userId: user.id, action: 'login.token.refused.expired', detail: about });
    throw new UserError(TOKEN_MSG.expired);
  }
  const refusal = lockRefusal(user, now);
  if (refusal) {
    await auditRefusal(db, { userId: user.id, action: 'login.token.refused.locked', detail: about });
    throw new UserError(refusal);
  }
  const session = await openSession(db, user.id, 'login.token', { ...context, personalToken: { id: token.id, name: token.name } },
    (trx) => markTokenUsed(trx, token.id, new Date(now).toISOString(), context.ip));
  return { userId: user.id, token: session, tokenId: token.id };
}

/**
 * When the account of this name was last given back (an administrator's unlock, `cairn user
 * unlock` or `reset-password`), in ms; null when never or no such account. The login throttle
 * forgives what it counted before then.
 */
export async function accountRestoredAt(db: Db, username: string): Promise<number | null> {
  const at = await findRestoredAt(db, username);
  return at === null ? null : Date.parse(at);
}

/** Ends the session of this token, audited when it was still active. */
export async function logOut(db: Db, token: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const session = await findActiveSession(trx, token);
    await deleteSessionByToken(trx, token);
    if (session) await audit(trx, { userId: session.userId, action: 'logout' });
  });
}

/** Changes the user's password; every session, this one included, ends with the old one. */
export async function changePassword(db: Db, userId: number, oldPassword: string, password: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user || !(await verifyPassword(oldPassword, user.passwordHash))) throw new UserError(MSG.oldPasswordWrong);
  const problem = validatePassword(password, await loadPasswordPolicy(db));
  if (problem) throw new UserError(problem);
  if (password === oldPassword) throw new UserError(MSG.samePassword);

  const passwordHash = await hashPassword(password);
  await inTransaction(db, async (trx) => {
    await updatePassword(trx, userId, passwordHash);
    await deleteUserSessions(trx, userId);
    await audit(trx, { userId, action: 'user.password.changed' });
  });
}

/** Changes the user's name, e-mail and phone (blank clears one, absent keeps it). */
export async function changeProfile(db: Db, userId: number, body: { name: string; email?: string | null; phone?: string | null }): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw new UserError(MSG.sessionInvalid);
  const nameProblem = validateName(body.name);
  if (nameProblem) throw new UserError(nameProblem, 'invalid', { field: 'name' });
  const email = blankToNull(body.email);
  const phone = blankToNull(body.phone);
  if (email && !EMAIL.test(email)) throw new UserError(MSG.emailInvalid);
  if (phone && !PHONE.test(phone)) throw new UserError(MSG.phoneInvalid, 'invalid', { field: 'phone' });

  const profile = { name: body.name, email: email === undefined ? user.email : email, phone: phone === undefined ? user.phone : phone };
  await inTransaction(db, async (trx) => {
    await updateProfile(trx, userId, profile);
    await audit(trx, { userId, action: 'user.profile.changed', detail: { before: { name: user.name, email: user.email, phone: user.phone }, after: profile } });
  });
}
