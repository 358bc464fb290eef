// 角色 area (spec doc 2 §6 and §7 "Members, users, roles", screen /system/user/role, permission
// setup:user:role:list): the roles an administrator gives users, each granting permission codes
// (contract/permissions.ts) and a data permission (DATA_PERMISSION). The spec names the calls and
// "Role: id, params, tree"; the fields are the ones the role screen and the user form's role
// picker need. A role's grant reaches its holders at their next login (server/services/sessions.ts).
import { Type, type Static } from 'typebox';
import { DATA_PERMISSION } from '../permissions.ts';
import { defineCall } from './define.ts';

const L = Type.Literal;

export const DataPermissionSchema = Type.Union([L(DATA_PERMISSION.ALL), L(DATA_PERMISSION.GROUP), L(DATA_PERMISSION.SELF)]);

export const RoleRowSchema = Type.Object({
  id: Type.Integer(),
  /** The spec's role code: 2 域管理员, 3 普通用户, custom roles from CUSTOM_ROLE_CODE_START. */
  code: Type.Integer(),
  name: Type.String(),
  remark: Type.String(),
  dataPermissionEnum: DataPermissionSchema,
  /** 域管理员 and 普通用户: cannot be deleted. */
  builtin: Type.Boolean(),
  /** Users holding the role. */
  users: Type.Integer({ minimum: 0 }),
  /** The permission codes the role grants, sorted. */
  permissions: Type.Array(Type.String()),
});
export type RoleRow = Static<typeof RoleRowSchema>;

/**
 * Every role, built-ins first, then by code (the order they were added). Also the user form's role
 * picker: whoever manages users may read it without managing roles.
 */
export const roleList = defineCall({
  name: 'role.roleList',
  method: 'GET',
  path: '/api/role/roleList',
  summary: '角色列表',
  response: Type.Array(RoleRowSchema),
  permission: ['setup:user:role:list', 'setup:user:user:list'],
});

export const roleCalls = { roleList };
