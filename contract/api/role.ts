// 角色 area (spec doc 2 §6 and §7 "Members, users, roles", screen /system/user/role, permission
// setup:user:role:list): the roles an administrator gives users, each granting permission codes
// (contract/permissions.ts) and a data permission (DATA_PERMISSION). The spec names the calls and
// "Role: id, params, tree"; the fields are the ones the role screen and the user form's role
// picker need. A role's grant reaches its holders at their next login (server/services/sessions.ts).
import { Type, type Static } from 'typebox';
import { DATA_PERMISSION } from '../permissions.ts';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH } from '../validation.ts';
import { defineCall } from './define.ts';
import { IdParams } from './kit.ts';

const L = Type.Literal;

export const DataPermissionSchema = Type.Union([L(DATA_PERMISSION.ALL), L(DATA_PERMISSION.GROUP), L(DATA_PERMISSION.SELF)]);

export const RoleRowSchema = Type.Object({
  id: Type.Integer(),
  /** The spec's role code: 2 域管理员, 3 普通用户, custom roles from 100 (server/services/roles.ts). */
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

/**
 * A node of the permission tree (contract/permission-tree.ts): a permission code (grant) or a
 * grouping node, with the nodes below it.
 */
export const PermissionNodeSchema = Type.Cyclic({
  PermissionNode: Type.Object({
    code: Type.String(),
    name: Type.String(),
    grant: Type.Boolean(),
    children: Type.Array(Type.Ref('PermissionNode')),
  }),
}, 'PermissionNode');

export const tree = defineCall({
  name: 'role.tree',
  method: 'GET',
  path: '/api/role/tree',
  summary: '权限树',
  response: Type.Array(PermissionNodeSchema),
  permission: 'setup:user:role:list',
});

/** Name and remark are checked against contract/validation.ts in the service, for its message. */
export const RoleFormSchema = Type.Object({
  name: Type.String({ maxLength: NAME_MAX_LENGTH * 2 }),
  remark: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH * 2 })),
  /** Permission codes (contract/permissions.ts); their granting ancestors are added. */
  permissions: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 500 }),
  dataPermissionEnum: DataPermissionSchema,
});
export type RoleForm = Static<typeof RoleFormSchema>;

export const add = defineCall({
  name: 'role.add',
  method: 'POST',
  path: '/api/role',
  summary: '添加角色',
  body: RoleFormSchema,
  response: RoleRowSchema,
  permission: 'setup:user:role:list',
});

/**
 * Answers 若修改角色权限或数据权限，用户需重新登录才可生效 when the codes or the data permission
 * changed: the role's holders keep their grant until they log in again.
 */
export const update = defineCall({
  name: 'role.update',
  method: 'PUT',
  path: '/api/role/{id}',
  summary: '修改角色',
  params: IdParams,
  body: RoleFormSchema,
  response: RoleRowSchema,
  permission: 'setup:user:role:list',
});

/** Refused for the built-in roles and for a role users still hold. */
export const remove = defineCall({
  name: 'role.remove',
  method: 'DELETE',
  path: '/api/role/{id}',
  summary: '删除角色',
  params: IdParams,
  response: Type.Null(),
  permission: 'setup:user:role:list',
});

export const roleCalls = { roleList, tree, add, update, remove };
