// The SessionUser the client stores at login (spec doc 1 §3 "Session user").
import type { Kysely } from 'kysely';
import type { PasswordPolicy, SessionUser } from '../../contract/api/session.ts';
import { normalizePasswordPolicy, type RawPasswordPolicy } from '../../contract/validation.ts';
import { grantOf, rolesOfUser } from '../db/repositories/roles.ts';
import { getSetting } from '../db/repositories/settings.ts';
import { findUserById } from '../db/repositories/users.ts';
import { SETTING } from '../db/seed.ts';
import type { Database } from '../db/schema.ts';

export async function loadPasswordPolicy(db: Kysely<Database>): Promise<PasswordPolicy> {
  return normalizePasswordPolicy((await getSetting<RawPasswordPolicy>(db, SETTING.passwordPolicy)) ?? {});
}

export async function loadSessionUser(db: Kysely<Database>, userId: number): Promise<SessionUser> {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`用户不存在：${userId}`);
  const [roles, grant, passwordPolicy] = await Promise.all([
    rolesOfUser(db, userId),
    grantOf(db, userId),
    loadPasswordPolicy(db),
  ]);
  return {
    userId: user.id,
    username: user.username,
    name: user.name,
    roleName: roles.map((r) => r.name).join(','),
    roleCodes: roles.map((r) => r.code),
    // What the last login granted: a role change shows at the next login, as the guard applies it.
    permissionPOS: grant.permissions.map((code) => ({ code })),
    dataPermissionEnum: grant.dataPermission,
    updatedPwd: user.updatedPwd,
    userType: user.userType,
    email: user.email,
    phone: user.phone,
    passwordPolicy,
  };
}
