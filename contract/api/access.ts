// 安全管控 area (spec doc 2 §7 system settings "IP access rule", screen /system/securityControl,
// permission setup:sys): the IP access rules (GET /api/system/access/list, POST /add, /edit,
// DELETE /delete?id), the caller's address as the platform sees it (GET /api/ip), and two settings
// the spec names without a call, defined here: the password policy (doc 1 §5: length, the four
// character-class flags, plus expiry days) and the session timeout, each read and saved under
// /api/system/security/….
//
// How the rules decide (server/auth/access-rules.ts), at every login (password, token and directory
// logins alike) and on every call of a session:
//   1. Only enabled rules that apply to the user count: those for all users, and those naming them.
//   2. If any such DENY rule matches the address, the user is refused, whatever allows it.
//   3. Otherwise, if any such ALLOW rule exists, the address must match one of them.
//   4. Otherwise (no rule applies) the user is let in.
// An IPv4-mapped IPv6 address (::ffff:10.1.2.3) is its IPv4 address: IPv4 rules match it. An IPv6
// range matches IPv6 addresses only. No address is exempt (not even loopback). A change takes
// effect within seconds in every platform process (the rules are cached for 5 s, and at once in the
// process that saved them). An administrator cannot save a rule set (add, edit, enable, disable,
// delete) that would refuse their own current address: the command is refused and nothing is saved.
import { Type, type Static } from 'typebox';
import { DESCRIPTION_MAX_LENGTH } from '../validation.ts';
import { defineCall } from './define.ts';
import { Id, Keyword, Nullable, PageSchema, PagingQuerySchema } from './kit.ts';

const L = Type.Literal;

/** The permission of the 安全管控 calls (the route /system/securityControl is under setup:sys). */
export const SECURITY_PERMISSION = 'setup:sys' as const;

export const ACCESS_ACTION = { ALLOW: 'ALLOW', DENY: 'DENY' } as const;
export const AccessActionSchema = Type.Union([L(ACCESS_ACTION.ALLOW), L(ACCESS_ACTION.DENY)]);
export type AccessAction = Static<typeof AccessActionSchema>;
export const ACCESS_ACTION_LABEL: Readonly<Record<AccessAction, string>> = { ALLOW: '允许', DENY: '拒绝' };

/** Whom a rule is for: every user, or the users it names. */
export const ACCESS_SCOPE = { ALL: 'ALL', USERS: 'USERS' } as const;
export const AccessScopeSchema = Type.Union([L(ACCESS_SCOPE.ALL), L(ACCESS_SCOPE.USERS)]);
export type AccessScope = Static<typeof AccessScopeSchema>;
export const ACCESS_SCOPE_LABEL: Readonly<Record<AccessScope, string>> = { ALL: '全部用户', USERS: '指定用户' };

/** At most this many users named by one rule. */
export const ACCESS_RULE_MAX_USERS = 500;

export const AccessRuleUserSchema = Type.Object({ userId: Type.Integer(), username: Type.String(), name: Type.String() });

export const AccessRuleRowSchema = Type.Object({
  id: Type.Integer(),
  /** Canonical: `192.168.1.5`, `10.0.0.0/8`, `2001:db8::1`, `2001:db8::/32`. */
  address: Type.String(),
  action: AccessActionSchema,
  scope: AccessScopeSchema,
  /** The named users (empty for a rule for all users), by username. */
  users: Type.Array(AccessRuleUserSchema),
  enabled: Type.Boolean(),
  remark: Type.String(),
  /** The display name of who added it (null when that account is gone). */
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type AccessRuleRow = Static<typeof AccessRuleRowSchema>;

export const AccessRuleFilterSchema = Type.Object({
  ...PagingQuerySchema.properties,
  /** Part of the address or the remark, or a named user's username or name, case-insensitive. */
  keyword: Keyword,
  action: Type.Optional(AccessActionSchema),
  enabled: Type.Optional(Type.Boolean()),
});
export type AccessRuleFilter = Static<typeof AccessRuleFilterSchema>;

export const AccessRuleFormSchema = Type.Object({
  /**
   * One IPv4 or IPv6 address, or a CIDR range whose host bits are 0 (`10.0.0.0/8`). Checked in the
   * service, for its message; stored in canonical form.
   */
  address: Type.String({ maxLength: 100 }),
  action: AccessActionSchema,
  scope: AccessScopeSchema,
  /** The users of a USERS rule (at least one); ignored for ALL. */
  userIds: Type.Optional(Type.Array(Id(), { maxItems: ACCESS_RULE_MAX_USERS })),
  /** Default true. */
  enabled: Type.Optional(Type.Boolean()),
  /** Checked against validateDescription in the service (0-200 characters), for its message. */
  remark: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH * 2 })),
});
export type AccessRuleForm = Static<typeof AccessRuleFormSchema>;

export const list = defineCall({
  name: 'access.list',
  method: 'GET',
  path: '/api/system/access/list',
  summary: 'IP 访问规则列表',
  query: AccessRuleFilterSchema,
  response: PageSchema(AccessRuleRowSchema),
  permission: SECURITY_PERMISSION,
});

export const add = defineCall({
  name: 'access.add',
  method: 'POST',
  path: '/api/system/access/add',
  summary: '添加 IP 访问规则',
  body: AccessRuleFormSchema,
  response: AccessRuleRowSchema,
  permission: SECURITY_PERMISSION,
});

/** Also how a rule is turned on or off (the whole form with `enabled` changed). */
export const edit = defineCall({
  name: 'access.edit',
  method: 'POST',
  path: '/api/system/access/edit',
  summary: '修改 IP 访问规则',
  body: Type.Object({ id: Id(), ...AccessRuleFormSchema.properties }),
  response: AccessRuleRowSchema,
  permission: SECURITY_PERMISSION,
});

export const remove = defineCall({
  name: 'access.delete',
  method: 'DELETE',
  path: '/api/system/access/delete',
  summary: '删除 IP 访问规则',
  query: Type.Object({ id: Id() }),
  response: Type.Null(),
  permission: SECURITY_PERMISSION,
});

/**
 * The caller's address as the platform sees it (behind a trusted proxy, the client X-Forwarded-For
 * names; CAIRN_TRUST_PROXY), IPv4-mapped IPv6 shown as IPv4. Any signed-in user.
 */
export const ip = defineCall({
  name: 'access.ip',
  method: 'GET',
  path: '/api/ip',
  summary: '当前访问地址',
  response: Type.Object({ ip: Type.String() }),
});

// ---- password policy (doc 1 §5) and session timeout: not in the spec's call list --------------------

/** The allowed range of the minimum password length. */
export const PASSWORD_LENGTH_RANGE = { min: 6, max: 64 } as const;
/** Days a password lasts (0: never expires). */
export const PASSWORD_EXPIRY_RANGE = { min: 0, max: 3650 } as const;
/** Minutes a session may sit idle. */
export const SESSION_TIMEOUT_RANGE = { min: 5, max: 43_200 } as const;

export const PasswordPolicySettingsSchema = Type.Object({
  /** Minimum length (PASSWORD_LENGTH_RANGE). */
  length: Type.Integer(),
  /** The character classes a password must hold; none ticked means all four (doc 1 §5). */
  uppercase: Type.Boolean(),
  lowercase: Type.Boolean(),
  digit: Type.Boolean(),
  special: Type.Boolean(),
  /**
   * A password older than this many days must be changed at the next password login (the user
   * can then reach only the change-password screen); 0: passwords never expire. Directory (LDAP)
   * users' passwords are the directory's and never expire here.
   */
  expiryDays: Type.Integer(),
});
export type PasswordPolicySettings = Static<typeof PasswordPolicySettingsSchema>;

export const passwordPolicy = defineCall({
  name: 'access.passwordPolicy',
  method: 'GET',
  path: '/api/system/security/passwordPolicy',
  summary: '密码策略',
  response: PasswordPolicySettingsSchema,
  permission: SECURITY_PERMISSION,
});

/** Applies to passwords set from now on, and to logins (expiry) from now on. */
export const savePasswordPolicy = defineCall({
  name: 'access.savePasswordPolicy',
  method: 'PUT',
  path: '/api/system/security/passwordPolicy',
  summary: '保存密码策略',
  body: PasswordPolicySettingsSchema,
  response: PasswordPolicySettingsSchema,
  permission: SECURITY_PERMISSION,
});

export const SessionSettingsSchema = Type.Object({
  /** Minutes a session lasts without a call (SESSION_TIMEOUT_RANGE). */
  timeoutMinutes: Type.Integer(),
  /** What the platform was started with (CAIRN_SESSION_TTL_MINUTES), used until one is saved. */
  defaultMinutes: Type.Integer(),
  /** Whether a saved value overrides the default. */
  saved: Type.Boolean(),
});
export type SessionSettings = Static<typeof SessionSettingsSchema>;

export const sessionSettings = defineCall({
  name: 'access.sessionSettings',
  method: 'GET',
  path: '/api/system/security/session',
  summary: '会话超时设置',
  response: SessionSettingsSchema,
  permission: SECURITY_PERMISSION,
});

/** Applies at once to every session, the open ones included (each ends that long after it was last used). */
export const saveSessionSettings = defineCall({
  name: 'access.saveSessionSettings',
  method: 'PUT',
  path: '/api/system/security/session',
  summary: '保存会话超时设置',
  body: Type.Object({ timeoutMinutes: Type.Integer() }),
  response: SessionSettingsSchema,
  permission: SECURITY_PERMISSION,
});

export const accessCalls = { list, add, edit, remove, ip, passwordPolicy, savePasswordPolicy, sessionSettings, saveSessionSettings };
