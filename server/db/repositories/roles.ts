// Roles and the permission codes they grant.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function rolesOfUser(db: Kysely<Database>, userId: number): Promise<Array<{ code: number; name: string }>> {
  return db.selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['roles.code', 'roles.name'])
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.code')
    .execute();
}

export async function permissionCodesOfUser(db: Kysely<Database>, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('user_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .select('role_permissions.permission_code')
    .distinct()
    .where('user_roles.user_id', '=', userId)
    .orderBy('role_permissions.permission_code')
    .execute();
  return rows.map((r) => r.permission_code);
}
