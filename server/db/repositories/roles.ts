// Roles and the permission codes they grant.
import type { Kysely } from 'kysely';
import { DATA_PERMISSION, isDataPermission, widestDataPermission, type DataPermission } from '../../../contract/permissions.ts';
import type { Database } from '../schema.ts';
import type { Db } from '../transaction.ts';

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

/** The widest data permission of the user's roles, read live (contract DATA_PERMISSION). */
export async function dataPermissionOfUser(db: Kysely<Database>, userId: number): Promise<DataPermission> {
  const rows = await db.selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.data_permission')
    .where('user_roles.user_id', '=', userId)
    .execute();
  return widestDataPermission(rows.map((r) => r.data_permission));
}

/** What a user was granted: at their last login, or (never snapshotted) their roles' now. */
export interface Grant {
  permissions: string[];
  dataPermission: DataPermission;
}

/**
 * Takes the snapshot at login: the user's permissions and data permission as their roles grant
 * them now. Until the next login the guard and the scope checks read this, not the roles.
 */
export async function grantAtLogin(db: Kysely<Database>, userId: number): Promise<Grant> {
  const [permissions, dataPermission] = await Promise.all([permissionCodesOfUser(db, userId), dataPermissionOfUser(db, userId)]);
  await db.updateTable('users')
    .set({ granted_permissions: permissions.join(','), granted_data_permission: dataPermission })
    .where('id', '=', userId)
    .execute();
  return { permissions, dataPermission };
}

/** The grant of the user's last login, or their roles' now when no login has taken one yet. */
export async function grantOf(db: Kysely<Database>, userId: number): Promise<Grant> {
  const row = await db.selectFrom('users').select(['granted_permissions', 'granted_data_permission']).where('id', '=', userId).executeTakeFirst();
  return grantFromColumns(row?.granted_permissions ?? null, row?.granted_data_permission ?? null)
    ?? { permissions: await permissionCodesOfUser(db, userId), dataPermission: await dataPermissionOfUser(db, userId) };
}

/** The snapshot columns as a grant; null when they were never written. */
export function grantFromColumns(permissions: string | null, dataPermission: string | null): Grant | null {
  if (permissions === null || !isDataPermission(dataPermission)) return null;
  return { permissions: permissions ? permissions.split(',') : [], dataPermission };
}

// ---- the roles administrators manage (/system/user/role) ------------------------------------------

/** A role's own columns, as stored. */
export interface RoleRecord {
  id: number;
  code: number;
  name: string;
  remark: string;
  dataPermission: DataPermission;
}

const roleRecordOf = (r: { id: number; code: number; name: string; remark: string; data_permission: string }): RoleRecord => ({
  id: r.id, code: r.code, name: r.name, remark: r.remark,
  dataPermission: isDataPermission(r.data_permission) ? r.data_permission : DATA_PERMISSION.SELF,
});

/** Every role, by code (the built-ins first, then the custom ones in the order they were added). */
export async function allRoles(db: Db): Promise<RoleRecord[]> {
  const rows = await db.selectFrom('roles').select(['id', 'code', 'name', 'remark', 'data_permission']).orderBy('code').execute();
  return rows.map(roleRecordOf);
}

export async function findRole(db: Db, id: number): Promise<RoleRecord | null> {
  const row = await db.selectFrom('roles').select(['id', 'code', 'name', 'remark', 'data_permission']).where('id', '=', id).executeTakeFirst();
  return row ? roleRecordOf(row) : null;
}

/** Role id → its permission codes, sorted; roles without any are absent. */
export async function permissionCodesByRole(db: Db, roleIds?: readonly number[]): Promise<Map<number, string[]>> {
  if (roleIds && roleIds.length === 0) return new Map();
  let query = db.selectFrom('role_permissions').select(['role_id', 'permission_code']);
  if (roleIds) query = query.where('role_id', 'in', roleIds);
  const rows = await query.orderBy('role_id').orderBy('permission_code').execute();
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const list = out.get(r.role_id);
    if (list) list.push(r.permission_code);
    else out.set(r.role_id, [r.permission_code]);
  }
  return out;
}

/** Role id → how many users hold it; roles nobody holds are absent. */
export async function holderCountsByRole(db: Db, roleIds?: readonly number[]): Promise<Map<number, number>> {
  if (roleIds && roleIds.length === 0) return new Map();
  let query = db.selectFrom('user_roles').select(['role_id', (eb) => eb.fn.countAll<number | string>().as('n')]);
  if (roleIds) query = query.where('role_id', 'in', roleIds);
  const rows = await query.groupBy('role_id').execute();
  return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
}
