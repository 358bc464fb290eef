// 用户管理 (contract/api/user.ts): the user list, create/edit/reset/delete, lock and unlock, the
// Excel import with its records. The user form's role options are roleApi's role list.
import type { CallQuery } from '../../contract/api/define.ts';
import {
  create, deleteUsers, importHistorys, importRecords, importTemplateData, importUpload, lock, pageUser, resetPassword, saveSyncSource, syncExternal,
  syncSource, unlock, update,
} from '../../contract/api/user.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

export type UserListArgs = NonNullable<CallQuery<typeof pageUser>>;

const userApi = platformApi.enhanceEndpoints({ addTagTypes: ['User', 'UserImport', 'UserSync'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'user', {
      provides: ['User'],
      invalidates: ['User'],
      endpoints: {
        userList: query(pageUser),
        addUser: mutation(create),
        updateUser: mutation(update),
        resetUserPassword: mutation(resetPassword),
        removeUsers: mutation(deleteUsers, { args: (ids: number[]) => ({ query: { userIds: ids.join(',') } }) }),
        lockUsers: mutation(lock, { args: (ids: number[]) => ({ query: { userIds: ids.join(','), isLock: 'Y' as const } }) }),
        unlockUsers: mutation(unlock, { args: (ids: number[]) => ({ query: { userIds: ids.join(','), isLock: 'N' as const } }) }),
        userImportTemplate: mutation(importTemplateData, { action: true, tags: [] }),
        importUserUpload: mutation(importUpload, { tags: ['User', 'UserImport'] }),
        userImportRecords: query(importRecords, { tags: ['UserImport'] }),
        userImportRows: query(importHistorys, { tags: ['UserImport'] }),
        userSyncSource: query(syncSource, { tags: ['UserSync'] }),
        saveUserSyncSource: mutation(saveSyncSource, { tags: ['UserSync'] }),
        syncExternalUsers: mutation(syncExternal, { action: true, tags: ['User'] }),
      },
    }),
});

export const {
  useUserListQuery, useAddUserMutation, useUpdateUserMutation, useResetUserPasswordMutation,
  useRemoveUsersMutation, useLockUsersMutation, useUnlockUsersMutation, useUserImportTemplateMutation, useImportUserUploadMutation,
  useUserImportRecordsQuery, useUserImportRowsQuery, useUserSyncSourceQuery, useSaveUserSyncSourceMutation, useSyncExternalUsersMutation,
} = userApi;
