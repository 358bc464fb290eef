// User area (spec doc 2 §7 "Members, users, roles", permission setup:user:user:list): locking and
// unlocking accounts, and the auto-lock configuration that locks one for a while after wrong
// passwords. The spec names the calls, the query `?userIds&isLock` and isLock Y/N; the
// configuration's fields are the ones its screen needs.
//
// Two locks, kept apart:
// - automatic: `maxFailures` wrong passwords in a row (since the last successful login, automatic
//   lock or unlock) lock the account for `lockMinutes`; it ends by itself. Existing sessions keep
//   working: it only refuses new logins.
// - an administrator's (isLock Y, `PATCH /api/user/lock`): lasts until unlocked, and ends the
//   user's sessions when it is set.
// `PATCH /api/user/unlock` lifts both at once.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { IdCsv } from './kit.ts';

export const LOCK_FLAG = { LOCKED: 'Y', UNLOCKED: 'N' } as const;
export const LockFlagSchema = Type.Union([Type.Literal(LOCK_FLAG.LOCKED), Type.Literal(LOCK_FLAG.UNLOCKED)]);

/** The auto-lock configuration's bounds; `maxFailures` 0 means wrong passwords never lock an account. */
export const AUTO_LOCK_LIMITS = {
  maxFailures: { min: 0, max: 100 },
  lockMinutes: { min: 1, max: 1440 },
} as const;

/** Until an administrator saves another: 5 wrong passwords lock the account for 15 minutes. */
export const DEFAULT_AUTO_LOCK = { maxFailures: 5, lockMinutes: 15 } as const;

/** Whole numbers; their bounds are checked by validateAutoLockConfig, for its message beside the field. */
export const AutoLockConfigSchema = Type.Object({
  /** Wrong passwords in a row that lock the account (0: never). */
  maxFailures: Type.Integer(),
  /** How long the automatic lock lasts, in minutes. */
  lockMinutes: Type.Integer(),
});
export type AutoLockConfig = Static<typeof AutoLockConfigSchema>;

/** The first field out of bounds and what to say about it, or null when the configuration is valid. */
export function validateAutoLockConfig(config: AutoLockConfig): { field: keyof AutoLockConfig; message: string } | null {
  const { maxFailures, lockMinutes } = AUTO_LOCK_LIMITS;
  if (!Number.isInteger(config.maxFailures) || config.maxFailures < maxFailures.min || config.maxFailures > maxFailures.max) {
    return { field: 'maxFailures', message: `登录失败次数须为 ${maxFailures.min}–${maxFailures.max} 的整数（0 表示不自动锁定）` };
  }
  if (!Number.isInteger(config.lockMinutes) || config.lockMinutes < lockMinutes.min || config.lockMinutes > lockMinutes.max) {
    return { field: 'lockMinutes', message: `锁定时长须为 ${lockMinutes.min}–${lockMinutes.max} 分钟的整数` };
  }
  return null;
}

/** `?userIds=1,2&isLock=Y|N`: the spec reads the query as shared by lock and unlock. */
export const LockQuerySchema = Type.Object({
  userIds: IdCsv(4000, { minLength: 1 }),
  /** Y locks, N unlocks; absent: what the path says (lock Y, unlock N). */
  isLock: Type.Optional(LockFlagSchema),
});

/** An administrator's lock: the users cannot log in until unlocked, and their sessions end now. */
export const lock = defineCall({
  name: 'user.lock',
  method: 'PATCH',
  path: '/api/user/lock',
  summary: '锁定用户',
  query: LockQuerySchema,
  response: Type.Null(),
  permission: 'setup:user:user:list',
});

/** Lifts both locks (the administrator's and the automatic one) and clears the failure count. */
export const unlock = defineCall({
  name: 'user.unlock',
  method: 'PATCH',
  path: '/api/user/unlock',
  summary: '解锁用户',
  query: LockQuerySchema,
  response: Type.Null(),
  permission: 'setup:user:user:list',
});

export const autoLockConfig = defineCall({
  name: 'user.autoLockConfig',
  method: 'GET',
  path: '/api/user/query/autoLockConfig',
  summary: '查询自动锁定配置',
  response: AutoLockConfigSchema,
  permission: 'setup:user:user:list',
});

export const saveAutoLockConfig = defineCall({
  name: 'user.saveAutoLockConfig',
  method: 'POST',
  path: '/api/user/add/autoLockConfig',
  summary: '保存自动锁定配置',
  body: AutoLockConfigSchema,
  response: AutoLockConfigSchema,
  permission: 'setup:user:user:list',
});

export const userCalls = { lock, unlock, autoLockConfig, saveAutoLockConfig };
