// The auto-lock configuration (GET/POST /api/user/…/autoLockConfig) as the login path reads it:
// from the settings table, the defaults (5 wrong passwords, 15 minutes) until an administrator
// saves another, cached for AUTO_LOCK_CACHE_MS per database handle so a burst of logins does not
// read it each time. A save in this process takes effect at once; other processes of a team
// server see it within the cache time.
import type { Kysely } from 'kysely';
import { DEFAULT_AUTO_LOCK, validateAutoLockConfig, type AutoLockConfig } from '../../contract/api/user.ts';
import { getSetting } from '../db/repositories/settings.ts';
import type { Database } from '../db/schema.ts';
import { SETTING } from '../db/seed.ts';

const AUTO_LOCK_CACHE_MS = 30_000;

const cache = new WeakMap<object, { config: AutoLockConfig; until: number }>();

/** A stored value as a valid configuration: anything unreadable or out of bounds is the default. */
function readable(stored: unknown): AutoLockConfig {
  const value = stored as Partial<AutoLockConfig> | undefined;
  const config = { maxFailures: Number(value?.maxFailures), lockMinutes: Number(value?.lockMinutes) };
  return validateAutoLockConfig(config) ? { ...DEFAULT_AUTO_LOCK } : config;
}

export async function loadAutoLockConfig(db: Kysely<Database>, now = Date.now()): Promise<AutoLockConfig> {
  const hit = cache.get(db);
  if (hit && hit.until > now) return hit.config;
  const config = readable(await getSetting<unknown>(db, SETTING.autoLock));
  cache.set(db, { config, until: now + AUTO_LOCK_CACHE_MS });
  return config;
}

/** After a save: the next login reads the stored configuration again. */
export const forgetAutoLockConfig = (db: Kysely<Database>): void => {
  cache.delete(db);
};
