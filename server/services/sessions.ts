// Getting in and out and the signed-in user's own account: password login with lockout, token
// login, logout, changing one's password and details. Each command writes its audit row in its own
// transaction; a refusal is a UserError (or, for a failed login, the answer with its audit row).
import { DIRECTORY_USER_TYPE } from '../../contract/api/ldap.ts';
import { TOKEN_MSG } from '../../contract/api/token.ts';
import { validateName, validatePassword } from '../../contract/validation.ts';
import { accessRefusal } from '../auth/access-rules.ts';
import { loadAutoLockConfig } from '../auth/auto-lock.ts';
import { USER_FAILURES } from '../auth/ldap.ts';
import { decoyHash, hashPassword, verifyPassword } from '../auth/password.ts';
import { loadPasswordPolicySettings, passwordExpired, sessionTimeoutMinutes } from '../auth/security-settings.ts';
import { loadPasswordPolicy } from '../auth/session-user.ts';
import { audit, auditRefusal } from '../db/repositories/audit-log.ts';
import { insertDirectoryUser, refreshDirectoryProfile, syncDirectoryGroups } from '../db/repositories/ldap-config.ts';
import { grantAtLogin } from '../db/repositories/roles.ts';
import { findTokenByKey, markTokenUsed } from '../db/repositories/personal-tokens.ts';
import { createSession, deleteExpiredSessions, deleteSessionByToken, deleteUserSessions, findActiveSession } from '../db/repositories/sessions.ts';
import { expirePassword, findRestoredAt, findUserById, findUserByUsername, recordFailedLogin, resetFailedLogins, updatePassword, updateProfile, type User } from '../db/repositories/users.ts';
import { inTransaction, type Db, type Trx } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { MSG } from '../messages.ts';
import type { DirectoryLogin } from './ldap.ts';

const DIRECTORY_MSG = {
  /** The directory cannot be asked (down, misconfigured): the details are in the audit row. */
  unavailable: '目录服务暂时无法使用，请稍后再试或联系管理员',
  /** The directory's name is a platform account's: told only to whoever proved the directory password. */
  nameTaken: '该目录账号的用户名已被平台用户使用，请联系管理员',
  /** A directory user's password is the directory's. */
  noPasswordChange: '目录用户的密码由目录服务管理，请在目录中修改',
} as const;

/** No account has id 0: an account a login is about to create is named by no access rule. */
const NOT_YET_A_USER = 0;

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
  /** Directory login (services/ldap.ts): asked for names that are not a platform user's. */
  directory?: DirectoryLogin;
  /** The personal token signing in (token login): the session remembers it, its calls are logged as its. */
  personalToken?: { id: number; name: string };
}

/**
 * Opens a session for the user, replacing the browser's old one, with its audit row; the new token.
 * Every way in comes through here: it takes the login's grant (roles.ts grantAtLogin), which the
 * guard and the data-scope checks read until the next login; the IP access rules
 * (auth/access-rules.ts) refuse a user outside them whatever proved who they are (audited, then a
 * UserError); and the session lasts the saved timeout (auth/security-settings.ts) rather than the
 * start-up one. `who` may be found by the transaction's first step (a directory user's first login
 * creates the account): the rules are then checked as for any user not named by them.
 */
export async function openSession(db: Db, who: number | ((trx: Trx) => Promise<number>), action: string, context: SignInContext, work?: (trx: Trx) => Promise<void>): Promise<string> {
  const known = typeof who === 'number' ? who : null;
  const refusal = await accessRefusal(db, known ?? NOT_YET_A_USER, context.ip);
  if (refusal) {
    await auditRefusal(db, { userId: known, action: 'login.refused.address', detail: { ip: context.ip, login: action } });
    throw new UserError(refusal);
  }
  const ttlMinutes = await sessionTimeoutMinutes(db, context.ttlMinutes);
  return inTransaction(db, async (trx) => {
    const userId = typeof who === 'number' ? who : await who(trx);
    await work?.(trx);
    await grantAtLogin(trx, userId);
    if (context.previousToken) await deleteSessionByToken(trx, context.previousToken);
    await deleteExpiredSessions(trx);
    const token = await createSession(trx, userId, ttlMinutes, context.personalToken?.id ?? null);
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
  if (context.directory && (!user || user.userType === DIRECTORY_USER_TYPE)) return logInThroughDirectory(db, username, password, context, context.directory, user);
  if (!user) {
    await verifyPassword(password, await decoyHash());
    await auditRefusal(db, { userId: null, action: 'login.failed', detail: { username, ip: context.ip } });
    throw new UserError(MSG.badCredentials);
  }
  const rightPassword = await verifyPassword(password, user.passwordHash);
  const refusal = lockRefusal(user, now);
  if (!rightPassword) await refuseWrongPassword(db, user, refusal !== null, now, context);
  if (refusal) {
    await auditRefusal(db, { userId: user.id, action: 'login.refused.locked', detail: { ip: context.ip } });
    throw new UserError(refusal);
  }
  // A password older than the policy's expiry days must be changed first (the guard then lets the
  // user reach the change-password call only). Directory users' passwords are the directory's.
  const { expiryDays } = await loadPasswordPolicySettings(db);
  const expired = user.updatedPwd && user.userType !== DIRECTORY_USER_TYPE && passwordExpired(user.passwordChangedAt, expiryDays, now);
  const token = await openSession(db, user.id, 'login', context, async (trx) => {
    await resetFailedLogins(trx, user.id);
    if (!expired) return;
    await expirePassword(trx, user.id);
    await audit(trx, { userId: user.id, action: 'user.password.expired', detail: { ip: context.ip, changedAt: user.passwordChangedAt, expiryDays } });
  });
  return { userId: user.id, token };
}

/**
 * A wrong password of an existing account, counted as logIn says (a locked account's are not), with
 * its audit row; always throws 用户名或密码错误.
 */
async function refuseWrongPassword(db: Db, user: User, locked: boolean, now: number, context: SignInContext, detail: Record<string, unknown> = {}): Promise<never> {
  const rule = await loadAutoLockConfig(db);
  await inTransaction(db, async (trx) => {
    const counted = locked
      ? { counted: false, failures: 0, lockedUntil: null }
      : await recordFailedLogin(trx, user.id, { lockAfter: rule.maxFailures, lockUntil: new Date(now + rule.lockMinutes * 60_000).toISOString(), now: new Date(now).toISOString() });
    await audit(trx, counted.lockedUntil
      ? { userId: user.id, action: 'user.locked', detail: { ip: context.ip, ...detail, failures: counted.failures, until: counted.lockedUntil } }
      : { userId: user.id, action: 'login.failed', detail: { ip: context.ip, ...detail, ...(counted.counted ? { failures: counted.failures } : { locked: true }) } });
  });
  throw new UserError(MSG.badCredentials);
}

/**
 * Login of a name that is a directory user's (type 2) or no one's, with directory login configured:
 * the directory checks the password (services/ldap.ts). Answers as logIn does: a name the directory
 * does not know, an ambiguous one and a wrong password are all 用户名或密码错误 (a directory user's
 * wrong passwords counted and locking as a platform user's); only a directory that cannot be asked
 * says so (目录服务暂时无法使用), the same for every name. On success the first login creates the
 * account (type 2, the configured default role), and every login refreshes its name, e-mail and
 * phone and its mapped organisation groups from the directory, in the session's transaction,
 * before the session's grant is taken (openSession).
 */
async function logInThroughDirectory(db: Db, typed: string, password: string, context: SignInContext, directory: DirectoryLogin, user: User | undefined): Promise<{ userId: number; token: string }> {
  const now = context.now ?? Date.now();
  const outcome = await directory.authenticate(typed, password);
  if (!outcome) {
    // Directory login is off: a directory user cannot sign in, and an unknown name is as in logIn.
    await verifyPassword(password, await decoyHash());
    await auditRefusal(db, { userId: user?.id ?? null, action: 'login.failed', detail: { username: typed, ip: context.ip, directory: 'off' } });
    throw new UserError(MSG.badCredentials);
  }
  if (!outcome.ok) {
    if (!USER_FAILURES.has(outcome.failure)) {
      await auditRefusal(db, { userId: user?.id ?? null, action: 'login.directory.unavailable', detail: { username: typed, ip: context.ip, failure: outcome.failure, message: outcome.message } });
      throw new UserError(DIRECTORY_MSG.unavailable, 'unavailable');
    }
    if (user && outcome.failure === 'badPassword') await refuseWrongPassword(db, user, lockRefusal(user, now) !== null, now, context, { directory: outcome.failure });
    await auditRefusal(db, { userId: user?.id ?? null, action: 'login.failed', detail: { username: typed, ip: context.ip, directory: outcome.failure } });
    throw new UserError(MSG.badCredentials);
  }

  const { account } = outcome;
  // The directory's spelling of the name is the account's; the typed one found it.
  const existing = user ?? (await findUserByUsername(db, account.username));
  if (existing && existing.userType !== DIRECTORY_USER_TYPE) {
    await auditRefusal(db, { userId: existing.id, action: 'login.directory.conflict', detail: { username: account.username, dn: account.dn, ip: context.ip } });
    throw new UserError(DIRECTORY_MSG.nameTaken, 'conflict');
  }
  const refusal = existing ? lockRefusal(existing, now) : null;
  if (existing && refusal) {
    await auditRefusal(db, { userId: existing.id, action: 'login.refused.locked', detail: { ip: context.ip, directory: true } });
    throw new UserError(refusal);
  }
  const profile = { name: account.name.slice(0, 100), email: account.email?.slice(0, 200) ?? null, phone: account.phone?.slice(0, 30) ?? null };
  // Before the grant is taken (openSession runs this in the session's transaction): the login's
  // data scope already has the mapped groups.
  const syncGroups = async (trx: Trx, userId: number) => {
    const groups = await syncDirectoryGroups(trx, userId, outcome.mappedGroupIds, outcome.managedGroupIds);
    if (groups.before.join() !== groups.after.join()) {
      await audit(trx, { userId, action: 'user.groups.synced.directory', detail: { ip: context.ip, dn: account.dn, directoryGroups: account.groups, before: groups.before, after: groups.after } });
    }
  };
  if (existing) {
    // A known account: the IP rules that name it apply before anything is written.
    const token = await openSession(db, existing.id, 'login.directory', context, async (trx) => {
      const before = { name: existing.name, email: existing.email, phone: existing.phone };
      await refreshDirectoryProfile(trx, existing.id, profile);
      if (before.name !== profile.name || before.email !== profile.email || before.phone !== profile.phone) {
        await audit(trx, { userId: existing.id, action: 'user.profile.synced.directory', detail: { ip: context.ip, dn: account.dn, before, after: profile } });
      }
      await resetFailedLogins(trx, existing.id);
      await syncGroups(trx, existing.id);
    });
    return { userId: existing.id, token };
  }
  let userId = 0;
  const token = await openSession(db, async (trx) => {
    userId = await insertDirectoryUser(trx, { username: account.username, ...profile }, outcome.defaultRoleId);
    await audit(trx, { userId, action: 'user.created.directory', detail: { ip: context.ip, dn: account.dn, username: account.username, ...profile, roleId: outcome.defaultRoleId } });
    await syncGroups(trx, userId);
    return userId;
  }, 'login.directory', context);
  return { userId, token };
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
  if (user?.userType === DIRECTORY_USER_TYPE) throw new UserError(DIRECTORY_MSG.noPasswordChange);
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
