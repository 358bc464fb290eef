// 目录登录 (contract/api/ldap.ts): the LDAP configuration, its pickers' choices, the test login, and
// the login screen's isLdapLogin switch.
import { ldapCalls as c } from '../../contract/api/ldap.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

const ldapApi = platformApi.enhanceEndpoints({ addTagTypes: ['LdapConfig'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'ldap', {
      provides: ['LdapConfig'],
      invalidates: ['LdapConfig'],
      endpoints: {
        ldapConfig: query(c.get),
        ldapChoices: query(c.choices),
        createLdapConfig: mutation(c.create),
        updateLdapConfig: mutation(c.update),
        // A test changes nothing the screen shows.
        testLdapLogin: mutation(c.testLogin, { tags: [] }),
        isLdapLogin: query(c.isLdapLogin),
      },
    }),
});

export const {
  useLdapConfigQuery, useLdapChoicesQuery, useCreateLdapConfigMutation, useUpdateLdapConfigMutation, useTestLdapLoginMutation, useIsLdapLoginQuery,
} = ldapApi;
