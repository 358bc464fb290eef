// 角色 (spec doc 2 §6): the roles administrators manage and the rows the role screen and the
// user form's role picker read.
import type { RoleRow } from '../../contract/api/role.ts';
import { ROLE } from '../../contract/permissions.ts';
import { allRoles, holderCountsByRole, permissionCodesByRole, type RoleRecord } from '../db/repositories/roles.ts';
import type { Db } from '../db/transaction.ts';

/** 域管理员 and 普通用户 (spec roles 2 and 3): every installation has them; they cannot be deleted. */
export const isBuiltinRoleCode = (code: number): boolean => code === ROLE.DOMAIN_ADMIN || code === ROLE.ORDINARY_USER;

function rowOf(role: RoleRecord, permissions: Map<number, string[]>, holders: Map<number, number>): RoleRow {
  return {
    id: role.id,
    code: role.code,
    name: role.name,
    remark: role.remark,
    dataPermissionEnum: role.dataPermission,
    builtin: isBuiltinRoleCode(role.code),
    users: holders.get(role.id) ?? 0,
    permissions: permissions.get(role.id) ?? [],
  };
}

/** Every role with its holders and codes. */
export async function roleRows(db: Db): Promise<RoleRow[]> {
  const [roles, permissions, holders] = await Promise.all([allRoles(db), permissionCodesByRole(db), holderCountsByRole(db)]);
  return roles.map((role) => rowOf(role, permissions, holders));
}
