// Getting in and out and the signed-in user's own account: password login with lockout, token
// login, logout, changing one's password and details. Each command writes its audit row in its own
// transaction; a refusal is a UserError (or, for a failed login, the answer with its audit row).
import { validateName, validatePassword } from '../../contract/validation.ts';
import { decoyHash, hashPassword, verifyPassword } from '../auth/password.ts';
import { loadPasswordPolicy } from '../auth/session-user.ts';
import { audit, auditRefusal } from '../db/repositories/audit-log.ts';
import { findTokenOwner } from '../db/repositories/personal-tokens.ts';
import { createSession, deleteExpiredSessions, deleteSessionByToken, deleteUserSessions, findActiveSession } from '../db/repositories/sessions.ts';
import { findUserById, findUserByUsername, recordFailedLogin, resetFailedLogins, updatePassword, updateProfile } from '../db/repositories/users.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { MSG } from '../messages.ts';

/** Consecutive wrong passwords before the account locks (design §7 "account lockout"). */
const MAX_FAILED_LOGINS = 5;

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
}

/** Opens a session for the user, replacing the browser's old one, with its audit row; the new token. */
async function openSession(db: Db, userId: number, action: string, context: SignInContext, work?: (trx: Db) => Promise<void>): Promise<string> {
  return inTransaction(db, async (trx) => {
    await work?.(trx);
    if (context.previousToken) await deleteSessionByToken(trx, context.previousToken);
    await deleteExpiredSessions(trx);
    const token = await createSession(trx, userId, context.ttlMinutes);
    await audit(trx, { userId, action, detail: { ip: context.ip } });
    return token;
  });
}

/**
 * Password login: the user's id and new session token. An unknown name costs the same work as a
 * wrong password (response time does not reveal which usernames exist); wrong passwords count
 * towards the lock. Every refusal is audited, then answered as a UserError.
 */
export async function logIn(db: Db, username: string, password: string, context: SignInContext): Promise<{ userId: number; token: string }> {
  const user = await findUserByUsername(db, username);
  if (!user) {
    await verifyPassword(password, await decoyHash());
    await auditRefusal(db, { userId: null, action: 'login.failed', detail: { username, ip: context.ip } });
    throw new UserError(MSG.badCredentials);
  }
  if (user.locked) {
    await auditRefusal(db, { userId: user.id, action: 'login.refused.locked', detail: { ip: context.ip } });
    throw new UserError(MSG.accountLocked);
  }
  if (!(await verifyPassword(password, user.passwordHash))) {
    const locked = await inTransaction(db, async (trx) => {
      const counted = await recordFailedLogin(trx, user.id, MAX_FAILED_LOGINS);
      await audit(trx, { userId: user.id, action: counted.locked ? 'user.locked' : 'login.failed', detail: { ip: context.ip } });
      return counted.locked;
    });
    throw new UserError(locked ? MSG.accountLocked : MSG.badCredentials);
  }
  const token = await openSession(db, user.id, 'login', context, (trx) => resetFailedLogins(trx, user.id));
  return { userId: user.id, token };
}

/** Login with a personal token (`?key=`): the user's id and new session token. */
export async function logInWithToken(db: Db, key: string, context: SignInContext): Promise<{ userId: number; token: string }> {
  const userId = await findTokenOwner(db, key);
  const user = userId === undefined ? undefined : await findUserById(db, userId);
  if (!user) {
    await auditRefusal(db, { userId: null, action: 'login.token.failed', detail: { ip: context.ip } });
    throw new UserError(MSG.tokenInvalid);
  }
  if (user.locked) throw new UserError(MSG.accountLocked);
  return { userId: user.id, token: await openSession(db, user.id, 'login.token', context) };
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
