// Platform users: lookup, creation with roles, login bookkeeping and profile/password updates.
import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../schema.ts';
import { nowIso } from '../time.ts';

export interface User {
  id: number;
  username: string;
  name: string;
  passwordHash: string;
  userType: number;
  email: string | null;
  phone: string | null;
  updatedPwd: boolean;
  /** An administrator's lock (is_lock 'Y', spec isLock): lasts until unlocked. */
  lockedByAdmin: boolean;
  /** End of the automatic lock after wrong passwords (ISO-8601); null, or past: not locked so. */
  lockedUntil: string | null;
  /** When its user last set the password (ISO-8601); null until they do (the password expiry counts from it). */
  passwordChangedAt: string | null;
}

const toUser = (row: Selectable<UsersTable>): User => ({
  id: row.id,
  username: row.username,
  name: row.name,
  passwordHash: row.password_hash,
  userType: row.user_type,
  email: row.email,
  phone: row.phone,
  updatedPwd: Boolean(row.updated_pwd),
  lockedByAdmin: row.is_lock === 'Y',
  lockedUntil: row.locked_until,
  passwordChangedAt: row.password_changed_at,
});

export async function findUserByUsername(db: Kysely<Database>, username: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserById(db: Kysely<Database>, id: number): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

/** A user's display name (undefined when there is no such user). */
export async function userName(db: Kysely<Database>, id: number): Promise<string | undefined> {
  return (await db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst())?.name;
}

export interface NewUser {
  username: string;
  name: string;
  passwordHash: string;
  roleCodes: number[];
  email?: string | null;
  phone?: string | null;
  updatedPwd?: boolean;
}

/** Creates the user and its role links in one transaction; returns the new id. */
export async function createUser(db: Kysely<Database>, user: NewUser): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const { id } = await trx.insertInto('users').values({
      username: user.username,
      name: user.name,
      password_hash: user.passwordHash,
      email: user.email ?? null,
      phone: user.phone ?? null,
      updated_pwd: user.updatedPwd ? 1 : 0,
      is_lock: 'N',
      created_at: now,
      updated_at: now,
      password_changed_at: user.updatedPwd ? now : null,
    }).returning('id').executeTakeFirstOrThrow();
    if (user.roleCodes.length > 0) {
      const roles = await trx.selectFrom('roles').select('id').where('code', 'in', user.roleCodes).execute();
      if (roles.length !== new Set(user.roleCodes).size) throw new Error(`未知的角色：${user.roleCodes.join(',')}`);
      await trx.insertInto('user_roles').values(roles.map((r) => ({ user_id: id, role_id: r.id }))).execute();
    }
    return id;
  });
}

export async function findUsersByIds(db: Kysely<Database>, ids: readonly number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', ids).orderBy('id').execute();
  return rows.map(toUser);
}

/**
 * Counts one wrong password of a user not locked automatically at `now`; the count reaching
 * `lockAfter` (0: never) locks the account until `lockUntil` and starts the count afresh. Run it
 * in the command's transaction: on PostgreSQL the first update holds the row, so two failures at
 * once are counted one after the other. `counted` is false when the account was already locked.
 */
export async function recordFailedLogin(
  db: Kysely<Database>,
  id: number,
  rule: { lockAfter: number; lockUntil: string; now: string },
): Promise<{ counted: boolean; failures: number; lockedUntil: string | null }> {
  const counted = await db.updateTable('users')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', rule.now)]))
    .returning('failed_logins')
    .executeTakeFirst();
  if (!counted) return { counted: false, failures: 0, lockedUntil: null };
  if (rule.lockAfter <= 0 || counted.failed_logins < rule.lockAfter) return { counted: true, failures: counted.failed_logins, lockedUntil: null };
  await db.updateTable('users').set({ failed_logins: 0, locked_until: rule.lockUntil }).where('id', '=', id).execute();
  return { counted: true, failures: counted.failed_logins, lockedUntil: rule.lockUntil };
}

/** After a successful login: no failures counted, no automatic lock left over. */
export async function resetFailedLogins(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('users').set({ failed_logins: 0, locked_until: null })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('failed_logins', '>', 0), eb('locked_until', 'is not', null)]))
    .execute();
}

/** Sets the automatic lock's end as is (null lifts it): for tests and recovery tools. */
export async function setLockedUntil(db: Kysely<Database>, id: number, lockedUntil: string | null): Promise<void> {
  await db.updateTable('users').set({ locked_until: lockedUntil }).where('id', '=', id).execute();
}

/** An administrator's lock on these users (is_lock 'Y'); it lasts until unlockUsers. */
export async function lockUsers(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('users').set({ is_lock: 'Y', updated_at: nowIso() }).where('id', 'in', ids).execute();
}

/**
 * Lifts both locks, the administrator's and the automatic one, and clears the failure count; the
 * time goes to restored_at, so the login throttle forgives what it counted before.
 */
export async function unlockUsers(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const now = nowIso();
  await db.updateTable('users').set({ is_lock: 'N', locked_until: null, failed_logins: 0, restored_at: now, updated_at: now }).where('id', 'in', ids).execute();
}

/** When the account of this name was last given back (unlocked, or its password reset); null: never. */
export async function findRestoredAt(db: Kysely<Database>, username: string): Promise<string | null> {
  return (await db.selectFrom('users').select('restored_at').where('username', '=', username).executeTakeFirst())?.restored_at ?? null;
}

/**
 * A password set for the user by someone else (`cairn user reset-password`): it is temporary, so
 * the user must change it at the next login (updated_pwd 0), and the failures counted against the
 * old one, with the automatic lock they caused, are forgotten (restored_at, as unlockUsers).
 */
export async function setTemporaryPassword(db: Kysely<Database>, id: number, passwordHash: string): Promise<void> {
  const now = nowIso();
  await db.updateTable('users')
    .set({ password_hash: passwordHash, updated_pwd: 0, password_changed_at: null, failed_logins: 0, locked_until: null, restored_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** A changed password counts as the user's own: the first-login change requirement is met. */
export async function updatePassword(db: Kysely<Database>, id: number, passwordHash: string): Promise<void> {
  const now = nowIso();
  await db.updateTable('users')
    .set({ password_hash: passwordHash, updated_pwd: 1, password_changed_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function updateProfile(
  db: Kysely<Database>,
  id: number,
  profile: { name: string; email: string | null; phone: string | null },
): Promise<void> {
  await db.updateTable('users').set({ ...profile, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function listUsers(db: Kysely<Database>): Promise<Array<{ userId: number; username: string; name: string }>> {
  return db.selectFrom('users').select(['id as userId', 'username', 'name']).orderBy('id').execute();
}

/** The password outlived the policy's expiry days: the user must change it before anything else. */
export async function expirePassword(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('users').set({ updated_pwd: 0, updated_at: nowIso() }).where('id', '=', id).execute();
}
