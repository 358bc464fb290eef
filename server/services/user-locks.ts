// Locking and unlocking accounts, the auto-lock configuration, and the recovery commands of
// `cairn user` that need no running administrator. Each command writes its audit row in its own
// transaction; refusals are UserErrors.
//
// The two locks (contract/api/user.ts): the automatic one after wrong passwords (locked_until,
// services/sessions.ts logIn) ends by itself and leaves sessions alone; an administrator's
// (is_lock 'Y') lasts until unlocked and, as a separate step of the same command, ends the locked
// users' sessions: an administrator locks an account to stop its use now.
import { validateAutoLockConfig, type AutoLockConfig } from '../../contract/api/user.ts';
import { validatePassword } from '../../contract/validation.ts';
import { forgetAutoLockConfig, loadAutoLockConfig } from '../auth/auto-lock.ts';
import { generatePassword, hashPassword } from '../auth/password.ts';
import { loadPasswordPolicy } from '../auth/session-user.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { deleteUserSessions } from '../db/repositories/sessions.ts';
import { putSetting } from '../db/repositories/settings.ts';
import { findUserByUsername, findUsersByIds, lockUsers, setTemporaryPassword, unlockUsers, type User } from '../db/repositories/users.ts';
import { SETTING } from '../db/seed.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

const USER_LOCK_MSG = {
  noUsers: '请选择用户',
  unknownIds: (ids: number[]) => `用户不存在：${ids.join('、')}`,
  unknownName: (username: string) => `用户不存在：${username}`,
  lockSelf: '不能锁定当前登录的账号',
};

/** How a user stands, for audit rows: the administrator's lock and the automatic lock's end. */
const lockState = (user: User) => ({ id: user.id, username: user.username, lockedByAdmin: user.lockedByAdmin, lockedUntil: user.lockedUntil });

/**
 * `PATCH /api/user/lock` and `/unlock`: `lock` true sets the administrator's lock on the users
 * and ends their sessions; false lifts both locks and clears their failure counts. Idempotent.
 */
export async function setUsersLocked(db: Db, actorId: number, userIds: number[], lock: boolean): Promise<void> {
  if (userIds.length === 0) throw new UserError(USER_LOCK_MSG.noUsers, 'invalid', { field: 'userIds' });
  if (lock && userIds.includes(actorId)) throw new UserError(USER_LOCK_MSG.lockSelf, 'invalid', { field: 'userIds' });
  await inTransaction(db, async (trx) => {
    const users = await findUsersByIds(trx, userIds);
    const missing = userIds.filter((id) => !users.some((u) => u.id === id));
    if (missing.length) throw new UserError(USER_LOCK_MSG.unknownIds(missing), 'not-found', { field: 'userIds' });
    if (lock) {
      await lockUsers(trx, userIds);
      let sessionsEnded = 0;
      for (const id of userIds) sessionsEnded += await deleteUserSessions(trx, id);
      await audit(trx, { userId: actorId, action: 'user.locked.manual', detail: { users: users.map(lockState), sessionsEnded } });
    } else {
      await unlockUsers(trx, userIds);
      await audit(trx, { userId: actorId, action: 'user.unlocked', detail: { users: users.map(lockState) } });
    }
  });
}

export const autoLockConfig = (db: Db): Promise<AutoLockConfig> => loadAutoLockConfig(db);

/** `POST /api/user/add/autoLockConfig`: checks the bounds, stores it, and the next login reads it. */
export async function saveAutoLockConfig(db: Db, actorId: number, config: AutoLockConfig): Promise<AutoLockConfig> {
  const problem = validateAutoLockConfig(config);
  if (problem) throw new UserError(problem.message, 'invalid', { field: problem.field });
  const saved = { maxFailures: config.maxFailures, lockMinutes: config.lockMinutes };
  const before = await loadAutoLockConfig(db);
  await inTransaction(db, async (trx) => {
    await putSetting(trx, SETTING.autoLock, saved);
    await audit(trx, { userId: actorId, action: 'settings.autoLock.changed', detail: { before, after: saved } });
  });
  forgetAutoLockConfig(db);
  return saved;
}

async function named(db: Db, username: string): Promise<User> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new UserError(USER_LOCK_MSG.unknownName(username), 'not-found');
  return user;
}

/** `cairn user unlock <name>`: lifts both locks and the failure count, with no administrator. */
export async function unlockByName(db: Db, username: string): Promise<{ before: ReturnType<typeof lockState> }> {
  return inTransaction(db, async (trx) => {
    const user = await named(trx, username);
    await unlockUsers(trx, [user.id]);
    await audit(trx, { userId: null, action: 'user.unlocked.cli', detail: { users: [lockState(user)] } });
    return { before: lockState(user) };
  });
}

/**
 * `cairn user reset-password <name>`: sets `password` (checked against the password policy), or a
 * generated one, as a temporary password the user must change at the next login. The automatic
 * lock and failure count go, the user's sessions end (as with any password change); an
 * administrator's lock stays (`cairn user unlock` lifts it). Answers the password set.
 */
export async function resetPasswordByName(db: Db, username: string, password?: string): Promise<{ password: string; lockedByAdmin: boolean }> {
  const policy = await loadPasswordPolicy(db);
  if (password !== undefined) {
    const problem = validatePassword(password, policy);
    if (problem) throw new UserError(problem, 'invalid', { field: 'password' });
  }
  const chosen = password ?? generatePassword(policy.length);
  const passwordHash = await hashPassword(chosen);
  return inTransaction(db, async (trx) => {
    const user = await named(trx, username);
    await setTemporaryPassword(trx, user.id, passwordHash);
    const sessionsEnded = await deleteUserSessions(trx, user.id);
    await audit(trx, { userId: null, action: 'user.password.reset.cli', detail: { users: [lockState(user)], generated: password === undefined, sessionsEnded } });
    return { password: chosen, lockedByAdmin: user.lockedByAdmin };
  });
}
