// 角色 (contract/api/role.ts): the roles with their codes and holders, the permission tree, and
// the role commands.
import { add, remove, roleList, tree, update } from '../../contract/api/role.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

const roleApi = platformApi.enhanceEndpoints({ addTagTypes: ['Role'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'role', {
      provides: ['Role'],
      invalidates: ['Role'],
      endpoints: {
        roleList: query(roleList),
        permissionTree: query(tree),
        addRole: mutation(add),
        updateRole: mutation(update),
        removeRole: mutation(remove, { args: (id: number) => ({ params: { id } }) }),
      },
    }),
});

export const { useRoleListQuery, usePermissionTreeQuery, useAddRoleMutation, useUpdateRoleMutation, useRemoveRoleMutation } = roleApi;
