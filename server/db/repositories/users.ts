// Platform users: lookup, creation with roles, login bookkeeping and profile/password updates.
import { sql, type Kysely, type Selectable } from 'kysely';
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
  locked: boolean;
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
  locked: row.is_lock === 'Y',
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

/** Counts a failed password and locks the account once `lockAfter` failures are reached, atomically. */
export async function recordFailedLogin(db: Kysely<Database>, id: number, lockAfter: number): Promise<{ locked: boolean }> {
  const row = await db.updateTable('users')
    .set((eb) => ({
      failed_logins: eb('failed_logins', '+', 1),
      is_lock: sql<'Y' | 'N'>`case when failed_logins + 1 >= ${lockAfter} then 'Y' else is_lock end`,
    }))
    .where('id', '=', id)
    .returning('is_lock')
    .executeTakeFirst();
  return { locked: row?.is_lock === 'Y' };
}

export async function resetFailedLogins(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('users').set({ failed_logins: 0 }).where('id', '=', id).where('failed_logins', '>', 0).execute();
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
