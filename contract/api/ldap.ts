// 目录登录 / LDAP 集成 (spec doc 2 §7 "Enterprise, mail, messaging, directory": GET /api/ldapConfig,
// POST or PUT /api/ldapConfig[/{id}], POST /ldapConfig/testLogin; screen
// /system/accountIntegration/ldap, permission setup:integration:ldap; and isLdapLogin among the
// login-exempt paths of doc 1 §7 and doc 2 §7). The spec names the calls only; the fields are what
// an LDAP or LDAPS directory (OpenLDAP, Active Directory) needs.
//
// One configuration: POST creates it, PUT /{id} changes it. The service account's password is
// write-only: stored encrypted, answered as `hasBindPassword`. With `enabled` on, /api/login signs
// in directory users: their entry is searched with the service account (the user filter, with the
// typed name escaped per RFC 4515 in place of `{username}`), then bound to with the typed password;
// the first successful login creates the account as user type 2 (LDAP用户) with `defaultRoleId`,
// and each login refreshes its name, e-mail and phone from the mapped attributes. Platform users
// (type 0, the built-in admin among them) keep signing in with their own password.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Id, IdParams, Nullable } from './kit.ts';

export const LDAP_URL_MAX = 500;
export const LDAP_DN_MAX = 500;
export const LDAP_PASSWORD_MAX = 500;
export const LDAP_FILTER_MAX = 1000;
export const LDAP_ATTRIBUTE_MAX = 100;
export const LDAP_CA_MAX = 64 * 1024;
export const LDAP_GROUP_MAPPINGS_MAX = 200;

/** user_type of an account a directory login created (spec: 2 LDAP用户). */
export const DIRECTORY_USER_TYPE = 2;

/** Stands for the typed username (escaped) in the user filter. */
export const LDAP_USERNAME_PLACEHOLDER = '{username}';

/** What a new configuration starts from: OpenLDAP's inetOrgPerson; the screen offers Active Directory's too. */
export const LDAP_DEFAULTS = {
  userFilter: '(&(objectClass=inetOrgPerson)(uid={username}))',
  usernameAttribute: 'uid',
  nameAttribute: 'cn',
  emailAttribute: 'mail',
  phoneAttribute: 'telephoneNumber',
  groupFilter: '(&(objectClass=groupOfNames)(member={dn}))',
  connectTimeoutSeconds: 5,
  timeoutSeconds: 10,
} as const;

/** Active Directory's usual values, offered by the screen as a preset. */
export const LDAP_ACTIVE_DIRECTORY = {
  userFilter: '(&(objectCategory=person)(objectClass=user)(sAMAccountName={username}))',
  usernameAttribute: 'sAMAccountName',
  nameAttribute: 'displayName',
  emailAttribute: 'mail',
  phoneAttribute: 'mobile',
  groupFilter: '(&(objectClass=group)(member={dn}))',
} as const;

/** Stands for the user's DN (escaped) in the group filter. */
export const LDAP_DN_PLACEHOLDER = '{dn}';

/** A directory group whose members join an organisation group at login. */
export const LdapGroupMappingSchema = Type.Object({
  groupDn: Type.String({ minLength: 1, maxLength: LDAP_DN_MAX }),
  groupId: Id(),
});
export type LdapGroupMapping = Static<typeof LdapGroupMappingSchema>;

const AttributeName = Type.String({ minLength: 1, maxLength: LDAP_ATTRIBUTE_MAX });
const OptionalAttributeName = Type.String({ maxLength: LDAP_ATTRIBUTE_MAX });

const fields = {
  enabled: Type.Boolean(),
  /** ldap://host[:389] or ldaps://host[:636]. */
  url: Type.String({ minLength: 1, maxLength: LDAP_URL_MAX }),
  /** Upgrade an ldap:// connection with StartTLS before anything is sent. */
  startTls: Type.Boolean(),
  /** The service account that searches; empty: search anonymously. */
  bindDn: Type.String({ maxLength: LDAP_DN_MAX }),
  baseDn: Type.String({ minLength: 1, maxLength: LDAP_DN_MAX }),
  /** An LDAP filter holding `{username}` once or more. */
  userFilter: Type.String({ minLength: 1, maxLength: LDAP_FILTER_MAX }),
  usernameAttribute: AttributeName,
  nameAttribute: AttributeName,
  /** Empty: the directory gives no e-mail. */
  emailAttribute: OptionalAttributeName,
  /** Empty: the directory gives no phone. */
  phoneAttribute: OptionalAttributeName,
  /** The role a directory user gets when the first login creates the account (a role id). */
  defaultRoleId: Id(),
  /** Where groups are searched; empty: under baseDn. */
  groupBaseDn: Type.String({ maxLength: LDAP_DN_MAX }),
  /** Finds the groups of a user (`{dn}` is the user's DN), searched under groupBaseDn; used by groupMappings. */
  groupFilter: Type.String({ maxLength: LDAP_FILTER_MAX }),
  groupMappings: Type.Array(LdapGroupMappingSchema, { maxItems: LDAP_GROUP_MAPPINGS_MAX }),
  /** The CA certificate(s) (PEM) the server's certificate is checked against; empty: the system's. */
  caCertificate: Type.String({ maxLength: LDAP_CA_MAX }),
  connectTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 60 }),
  /** Per operation (bind, search). */
  timeoutSeconds: Type.Integer({ minimum: 1, maximum: 120 }),
};

export const LdapConfigSchema = Type.Object({
  id: Type.Integer(),
  ...fields,
  /** Whether the service account's password is stored (it is never answered). */
  hasBindPassword: Type.Boolean(),
  defaultRoleName: Nullable(Type.String()),
  updatedBy: Nullable(Type.String()),
  updatedAt: Type.String(),
});
export type LdapConfig = Static<typeof LdapConfigSchema>;

export const LdapConfigFormSchema = Type.Object({
  ...fields,
  /** A new service-account password; omitted or '' keeps the stored one. */
  bindPassword: Type.Optional(Type.String({ maxLength: LDAP_PASSWORD_MAX })),
  /** Removes the stored password. */
  clearBindPassword: Type.Optional(Type.Boolean()),
});
export type LdapConfigForm = Static<typeof LdapConfigFormSchema>;

/** What testLogin found: the entry and what a login would make of it. */
export const LdapTestResultSchema = Type.Object({
  userDn: Type.String(),
  username: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  /** DNs of the directory groups the user is in (groupFilter); empty without one. */
  groups: Type.Array(Type.String()),
  /** The organisation groups the mappings would put the user in. */
  mappedGroupIds: Type.Array(Type.Integer()),
  /** The platform account of that name: null when the first login would create it. */
  account: Nullable(Type.Object({ userId: Type.Integer(), userType: Type.Integer() })),
  /** Milliseconds the whole test took. */
  elapsedMs: Type.Integer(),
});
export type LdapTestResult = Static<typeof LdapTestResultSchema>;

export const LdapTestLoginSchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  /** The form's values, tested before they are saved (a blank password: the stored one); omitted: the saved configuration. */
  config: Type.Optional(LdapConfigFormSchema),
});
export type LdapTestLogin = Static<typeof LdapTestLoginSchema>;

export const get = defineCall({
  name: 'ldap.get',
  method: 'GET',
  path: '/api/ldapConfig',
  summary: 'LDAP 配置（未配置时为 null）',
  response: Nullable(LdapConfigSchema),
  permission: 'setup:integration:ldap',
});

export const create = defineCall({
  name: 'ldap.create',
  method: 'POST',
  path: '/api/ldapConfig',
  summary: '新建 LDAP 配置',
  body: LdapConfigFormSchema,
  response: LdapConfigSchema,
  permission: 'setup:integration:ldap',
});

export const update = defineCall({
  name: 'ldap.update',
  method: 'PUT',
  path: '/api/ldapConfig/{id}',
  summary: '修改 LDAP 配置',
  params: IdParams,
  body: LdapConfigFormSchema,
  response: LdapConfigSchema,
  permission: 'setup:integration:ldap',
});

export const testLogin = defineCall({
  name: 'ldap.testLogin',
  method: 'POST',
  path: '/api/ldapConfig/testLogin',
  summary: '测试 LDAP 登录',
  body: LdapTestLoginSchema,
  response: LdapTestResultSchema,
  permission: 'setup:integration:ldap',
});

/** A choice of the configuration screen: a role, or an organisation group with its path. */
export const LdapChoiceSchema = Type.Object({ id: Type.Integer(), name: Type.String() });
export const LdapChoicesSchema = Type.Object({
  roles: Type.Array(LdapChoiceSchema),
  /** Named by their path from the top (上级 / 下级). */
  groups: Type.Array(LdapChoiceSchema),
});
export type LdapChoices = Static<typeof LdapChoicesSchema>;

/**
 * Not in the spec: the roles and organisation groups the screen's pickers offer (the default role,
 * the group mappings), under the screen's own permission, since whoever configures the directory
 * need not hold the role or group lists' permissions.
 */
export const choices = defineCall({
  name: 'ldap.choices',
  method: 'GET',
  path: '/api/ldapConfig/choices',
  summary: 'LDAP 配置可选的角色与组织',
  response: LdapChoicesSchema,
  permission: 'setup:integration:ldap',
});

/**
 * Login-exempt (spec: isLdapLogin): whether directory accounts may sign in, for the login screen's
 * hint. Nothing else of the configuration is told to a caller without a session.
 */
export const isLdapLogin = defineCall({
  name: 'ldap.isLdapLogin',
  method: 'GET',
  path: '/api/isLdapLogin',
  summary: '是否启用 LDAP 登录',
  response: Type.Boolean(),
  loginExempt: true,
});

export const ldapCalls = { get, create, update, testLogin, choices, isLdapLogin };
