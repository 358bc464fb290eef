// The security settings of 安全管控 besides the IP rules: the password policy with its expiry days
// (settings key SETTING.passwordPolicy, read by session-user.ts loadPasswordPolicy for the hint and
// the checks of doc 1 §5) and the session timeout (settings key SESSION_TIMEOUT_SETTING, overriding
// the CAIRN_SESSION_TTL_MINUTES the platform was started with). The guard reads the timeout on
// every call, so it is kept in memory for a few seconds like the IP rules (dropped at once in the
// process that saves it).
import type { Kysely } from 'kysely';
import type { PasswordPolicySettings } from '../../contract/api/access.ts';
import { normalizePasswordPolicy, type RawPasswordPolicy } from '../../contract/validation.ts';
import { getSetting } from '../db/repositories/settings.ts';
import { SETTING } from '../db/seed.ts';
import type { Database } from '../db/schema.ts';
import { ACCESS_RULES_CACHE_MS } from './access-rules.ts';

export const SESSION_TIMEOUT_SETTING = 'session_timeout_minutes';

/** The stored policy: doc 1 §5's length and flags, and the days a password lasts (0 or absent: for ever). */
export interface StoredPasswordPolicy extends RawPasswordPolicy {
  expiryDays?: number;
}

/** The password policy as in force (normalized: none ticked means all four), with its expiry days. */
export async function loadPasswordPolicySettings(db: Kysely<Database>): Promise<PasswordPolicySettings> {
  const raw = (await getSetting<StoredPasswordPolicy>(db, SETTING.passwordPolicy)) ?? {};
  const expiryDays = Number.isInteger(raw.expiryDays) && raw.expiryDays! > 0 ? raw.expiryDays! : 0;
  return { ...normalizePasswordPolicy(raw), expiryDays };
}

/**
 * Whether a password last set at `changedAt` (ISO; null: never by its user) has outlived
 * `expiryDays` at `now` (ms). 0 days: passwords never expire.
 */
export function passwordExpired(changedAt: string | null, expiryDays: number, now: number): boolean {
  if (expiryDays <= 0 || changedAt === null) return false;
  return now - Date.parse(changedAt) >= expiryDays * 86_400_000;
}

const timeoutCache = new WeakMap<object, { at: number; minutes: Promise<number | undefined> }>();

async function storedTimeout(db: Kysely<Database>): Promise<number | undefined> {
  const value = await getSetting<number>(db, SESSION_TIMEOUT_SETTING);
  return Number.isInteger(value) && value! > 0 ? value : undefined;
}

/** The saved session timeout in minutes, or undefined when none is saved (read at most every few seconds). */
export function savedSessionTimeout(db: Kysely<Database>, now = Date.now()): Promise<number | undefined> {
  const hit = timeoutCache.get(db);
  if (hit && now - hit.at < ACCESS_RULES_CACHE_MS) return hit.minutes;
  const minutes = storedTimeout(db);
  timeoutCache.set(db, { at: now, minutes });
  minutes.catch(() => {
    if (timeoutCache.get(db)?.minutes === minutes) timeoutCache.delete(db);
  });
  return minutes;
}

/** Minutes a session lasts idle: the saved timeout, else what the platform was started with. */
export async function sessionTimeoutMinutes(db: Kysely<Database>, fallback: number): Promise<number> {
  return (await savedSessionTimeout(db)) ?? fallback;
}

export function invalidateSessionTimeout(db: Kysely<Database>): void {
  timeoutCache.delete(db);
}
