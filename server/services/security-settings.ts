// 安全管控's settings (/system/securityControl): the password policy with its expiry days and the
// session timeout. Each save is checked (ranges, a refusal naming the field), then written with its
// audit row (before and after) in one transaction; the session timeout's cache is dropped after.
import {
  PASSWORD_EXPIRY_RANGE, PASSWORD_LENGTH_RANGE, SESSION_TIMEOUT_RANGE,
  type PasswordPolicySettings, type SessionSettings,
} from '../../contract/api/access.ts';
import { normalizePasswordPolicy } from '../../contract/validation.ts';
import { invalidateSessionTimeout, loadPasswordPolicySettings, savedSessionTimeout, SESSION_TIMEOUT_SETTING, type StoredPasswordPolicy } from '../auth/security-settings.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { rebaseSessionExpiry } from '../db/repositories/sessions.ts';
import { putSetting } from '../db/repositories/settings.ts';
import { SETTING } from '../db/seed.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import type { Actor } from './access-rules.ts';

export const SECURITY_MSG = {
  length: `密码最小长度须为 ${PASSWORD_LENGTH_RANGE.min} 到 ${PASSWORD_LENGTH_RANGE.max} 之间的整数`,
  expiryDays: `密码有效期须为 ${PASSWORD_EXPIRY_RANGE.min} 到 ${PASSWORD_EXPIRY_RANGE.max} 之间的整数（天，0 表示永不过期）`,
  timeout: `会话超时时间须为 ${SESSION_TIMEOUT_RANGE.min} 到 ${SESSION_TIMEOUT_RANGE.max} 之间的整数（分钟）`,
};

const within = (value: number, range: { min: number; max: number }) => Number.isInteger(value) && value >= range.min && value <= range.max;

export const readPasswordPolicy = (db: Db): Promise<PasswordPolicySettings> => loadPasswordPolicySettings(db);

/**
 * Saves the policy as it will be in force (no class ticked is stored as all four, as doc 1 §5 reads
 * it). Passwords set from now on must meet it; existing ones are not re-checked, but expire by the
 * new expiry days at their next password login.
 */
export async function savePasswordPolicy(db: Db, actor: Actor, body: PasswordPolicySettings): Promise<PasswordPolicySettings> {
  if (!within(body.length, PASSWORD_LENGTH_RANGE)) throw new UserError(SECURITY_MSG.length, 'invalid', { field: 'length' });
  if (!within(body.expiryDays, PASSWORD_EXPIRY_RANGE)) throw new UserError(SECURITY_MSG.expiryDays, 'invalid', { field: 'expiryDays' });
  const after: StoredPasswordPolicy = { ...normalizePasswordPolicy(body), expiryDays: body.expiryDays };
  await inTransaction(db, async (trx) => {
    const before = await loadPasswordPolicySettings(trx);
    await putSetting(trx, SETTING.passwordPolicy, after);
    await audit(trx, { userId: actor.userId, action: 'security.passwordPolicy.saved', detail: { before, after, ip: actor.ip } });
  });
  return loadPasswordPolicySettings(db);
}

export async function readSessionSettings(db: Db, defaultMinutes: number): Promise<SessionSettings> {
  const saved = await savedSessionTimeout(db);
  return { timeoutMinutes: saved ?? defaultMinutes, defaultMinutes, saved: saved !== undefined };
}

/**
 * Saves the idle timeout. The sessions already open are given it at once (each ends that long after
 * it was last seen: one idle longer has ended), and each use of a session pushes its end so far.
 */
export async function saveSessionTimeout(db: Db, actor: Actor, minutes: number, defaultMinutes: number): Promise<SessionSettings> {
  if (!within(minutes, SESSION_TIMEOUT_RANGE)) throw new UserError(SECURITY_MSG.timeout, 'invalid', { field: 'timeoutMinutes' });
  await inTransaction(db, async (trx) => {
    const before = (await readSessionSettings(trx, defaultMinutes)).timeoutMinutes;
    await putSetting(trx, SESSION_TIMEOUT_SETTING, minutes);
    const sessions = await rebaseSessionExpiry(trx, minutes);
    await audit(trx, { userId: actor.userId, action: 'security.sessionTimeout.saved', detail: { before, after: minutes, sessions, ip: actor.ip } });
  });
  invalidateSessionTimeout(db);
  return readSessionSettings(db, defaultMinutes);
}
