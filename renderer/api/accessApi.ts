// 安全管控 (contract/api/access.ts): the IP access rules, the caller's own address, the password
// policy and the session timeout. (The user picker of a rule reads taskApi's list of all users.) A saved policy changes the hint of every password form: the
// session user (and so the policy it carries) is read again at the next login.
import { add, edit, ip, list, passwordPolicy, remove, savePasswordPolicy, saveSessionSettings, sessionSettings } from '../../contract/api/access.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

const accessApi = platformApi.enhanceEndpoints({ addTagTypes: ['AccessRule', 'SecuritySettings'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'access', {
      provides: ['AccessRule'],
      invalidates: ['AccessRule'],
      endpoints: {
        accessRuleList: query(list),
        addAccessRule: mutation(add),
        editAccessRule: mutation(edit),
        removeAccessRule: mutation(remove, { args: (id: number) => ({ query: { id } }) }),
        myAddress: query(ip, { tags: [] }),
        passwordPolicySettings: query(passwordPolicy, { tags: ['SecuritySettings'] }),
        savePasswordPolicySettings: mutation(savePasswordPolicy, { tags: ['SecuritySettings'] }),
        sessionTimeoutSettings: query(sessionSettings, { tags: ['SecuritySettings'] }),
        saveSessionTimeoutSettings: mutation(saveSessionSettings, { tags: ['SecuritySettings'] }),
      },
    }),
});

export const {
  useAccessRuleListQuery, useAddAccessRuleMutation, useEditAccessRuleMutation, useRemoveAccessRuleMutation, useMyAddressQuery,
  usePasswordPolicySettingsQuery, useSavePasswordPolicySettingsMutation, useSessionTimeoutSettingsQuery,
  useSaveSessionTimeoutSettingsMutation,
} = accessApi;
