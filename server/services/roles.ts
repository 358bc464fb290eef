// 角色 (spec doc 2 §6): the roles administrators manage. Each command checks its input, changes the
// role and writes its audit row (before and after) in one transaction, and refuses with a
// UserError naming the field a form should mark. A role's holders keep what their last login
// granted them (users.granted_*): a change reaches them at their next login.
import type { RoleForm, RoleRow } from '../../contract/api/role.ts';
import { withAncestors } from '../../contract/permission-tree.ts';
import { ALL_PERMISSION_CODES, DATA_PERMISSION, ROLE, type DataPermission } from '../../contract/permissions.ts';
import { validateDescription, validateName } from '../../contract/validation.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  allRoles, deleteRole, findRole, findRoleNamed, highestRoleCode, holderCountsByRole, insertRole,
  permissionCodesByRole, setRolePermissions, updateRole, type RoleRecord,
} from '../db/repositories/roles.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

const ROLE_MSG = {
  notFound: '角色不存在',
  duplicate: (name: string) => `角色“${name}”已存在`,
  unknownCodes: (codes: readonly string[]) => `未知的权限代码：${codes.slice(0, 5).join('、')}${codes.length > 5 ? ` 等 ${codes.length} 个` : ''}`,
  builtinDelete: (name: string) => `“${name}”是内置角色，不能删除`,
  builtinRename: (name: string) => `“${name}”是内置角色，不能改名`,
  adminNarrowed: '域管理员拥有全部权限和全部数据，不能缩小其权限或数据权限',
  inUse: (name: string, users: number) => `角色“${name}”仍有 ${users} 个用户使用，不能删除；请先为这些用户改换角色`,
};

/** 域管理员 and 普通用户 (spec roles 2 and 3): every installation has them; they cannot be deleted. */
const isBuiltinRoleCode = (code: number): boolean => code === ROLE.DOMAIN_ADMIN || code === ROLE.ORDINARY_USER;

/**
 * Codes of the roles administrators add. Spec doc 1 §3 derives a session's authorised modules from
 * its role codes (1→1, 3→2, 4→3, 5→6, 6→7, 7→3, 8→5, 9→5; contract/permissions.ts
 * modulesForRoleCodes): codes 1–9 are the spec's own roles and what they authorise. A custom role
 * is defined by its permission codes, not by a module, so it gets a code from 100 up, which maps
 * to no module: adding a role never silently authorises one, and 4–9 stay free for the roles the
 * spec's modules would bring.
 */
const CUSTOM_ROLE_CODE_START = 100;

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

async function roleRow(db: Db, id: number): Promise<RoleRow> {
  const role = await findRole(db, id);
  if (!role) throw new UserError(ROLE_MSG.notFound, 'not-found');
  const [permissions, holders] = await Promise.all([permissionCodesByRole(db, [id]), holderCountsByRole(db, [id])]);
  return rowOf(role, permissions, holders);
}

/** Who made a change, for the audit row. */
export interface Actor { userId: number; address: string }

interface CheckedForm { name: string; remark: string; permissions: string[]; dataPermission: DataPermission }

/** The form's values, checked: name and remark as every name and description, known codes only. */
async function checked(db: Db, form: RoleForm, exceptId?: number): Promise<CheckedForm> {
  const nameProblem = validateName(form.name);
  if (nameProblem) throw new UserError(nameProblem, 'invalid', { field: 'name' });
  const remark = form.remark ?? '';
  const remarkProblem = validateDescription(remark);
  if (remarkProblem) throw new UserError(remarkProblem, 'invalid', { field: 'remark' });
  const known = new Set<string>(ALL_PERMISSION_CODES);
  const unknown = [...new Set(form.permissions.filter((c) => !known.has(c)))];
  if (unknown.length) throw new UserError(ROLE_MSG.unknownCodes(unknown), 'invalid', { field: 'permissions' });
  if (await findRoleNamed(db, form.name, exceptId)) throw new UserError(ROLE_MSG.duplicate(form.name), 'conflict', { field: 'name' });
  return { name: form.name, remark, permissions: withAncestors(form.permissions), dataPermission: form.dataPermissionEnum };
}

const auditValues = (row: RoleRow) => ({
  name: row.name, remark: row.remark, dataPermission: row.dataPermissionEnum, permissions: row.permissions,
});

/** A unique index refused a row (PostgreSQL 23505, SQLite's UNIQUE constraint). */
const isUniqueViolation = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && ((e as { code?: unknown }).code === '23505' || /UNIQUE constraint failed/.test(String((e as { message?: unknown }).message)));

/**
 * Administrators saving at once may pick the same next code or name: the unique indexes refuse all
 * but one, and each refused command runs again, finding the name taken (its message) or a free code.
 */
async function againIfTaken<T>(db: Db, command: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await command();
    } catch (e) {
      if (!isUniqueViolation(e) || db.isTransaction || attempt >= 5) throw e;
    }
  }
}

export function addRole(db: Db, actor: Actor, form: RoleForm): Promise<RoleRow> {
  return againIfTaken(db, () => addRoleOnce(db, actor, form));
}

async function addRoleOnce(db: Db, actor: Actor, form: RoleForm): Promise<RoleRow> {
  return inTransaction(db, async (trx) => {
    const values = await checked(trx, form);
    const code = Math.max(CUSTOM_ROLE_CODE_START - 1, (await highestRoleCode(trx)) ?? 0) + 1;
    const id = await insertRole(trx, { code, ...values });
    await setRolePermissions(trx, id, values.permissions);
    const row = await roleRow(trx, id);
    await audit(trx, { userId: actor.userId, action: 'role.added', detail: { id, code, after: auditValues(row), address: actor.address } });
    return row;
  });
}

/** The role as saved, and whether its holders' grant changed (they must log in again to get it). */
export function editRole(db: Db, actor: Actor, id: number, form: RoleForm): Promise<{ row: RoleRow; grantChanged: boolean }> {
  return againIfTaken(db, () => editRoleOnce(db, actor, id, form));
}

async function editRoleOnce(db: Db, actor: Actor, id: number, form: RoleForm): Promise<{ row: RoleRow; grantChanged: boolean }> {
  return inTransaction(db, async (trx) => {
    const before = await roleRow(trx, id);
    const values = await checked(trx, form, id);
    if (isBuiltinRoleCode(before.code) && values.name !== before.name) {
      throw new UserError(ROLE_MSG.builtinRename(before.name), 'invalid', { field: 'name' });
    }
    // The domain administrator holds every code and sees all data (the seed re-grants them at
    // every start, so a narrowing would not even last): refused rather than silently undone.
    if (before.code === ROLE.DOMAIN_ADMIN
      && (values.dataPermission !== DATA_PERMISSION.ALL || ALL_PERMISSION_CODES.some((c) => !values.permissions.includes(c)))) {
      throw new UserError(ROLE_MSG.adminNarrowed, 'invalid', { field: 'permissions' });
    }
    await updateRole(trx, id, values);
    await setRolePermissions(trx, id, values.permissions);
    const after = await roleRow(trx, id);
    const grantChanged = after.dataPermissionEnum !== before.dataPermissionEnum
      || after.permissions.join(',') !== before.permissions.join(',');
    await audit(trx, {
      userId: actor.userId, action: 'role.modified',
      detail: { id, code: before.code, before: auditValues(before), after: auditValues(after), address: actor.address },
    });
    return { row: after, grantChanged };
  });
}

export async function removeRole(db: Db, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = await roleRow(trx, id);
    if (isBuiltinRoleCode(before.code)) throw new UserError(ROLE_MSG.builtinDelete(before.name), 'conflict');
    if (before.users > 0) throw new UserError(ROLE_MSG.inUse(before.name, before.users), 'conflict');
    await deleteRole(trx, id);
    await audit(trx, { userId: actor.userId, action: 'role.deleted', detail: { id, code: before.code, before: auditValues(before), address: actor.address } });
  });
}
