// User area (spec doc 2 §7 "Members, users, roles", permission setup:user:user:list): locking and
// unlocking accounts, and the auto-lock configuration that locks one for a while after wrong
// passwords. The spec names the calls, the query `?userIds&isLock` and isLock Y/N; the
// configuration's fields are the ones its screen needs.
//
// Two locks, kept apart:
// - automatic: `maxFailures` wrong passwords in a row (since the last successful login, automatic
//   lock or unlock) lock the account for `lockMinutes`; it ends by itself. Existing sessions keep
//   working: it only refuses new logins.
// - an administrator's (isLock Y, `PATCH /api/user/lock`): lasts until unlocked, and ends the
//   user's sessions when it is set.
// `PATCH /api/user/unlock` lifts both at once.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Id, IdCsv, Keyword, Nullable, PageSchema, PagingQuerySchema } from './kit.ts';
import { PasswordPolicySchema } from './session.ts';

export const LOCK_FLAG = { LOCKED: 'Y', UNLOCKED: 'N' } as const;
export const LockFlagSchema = Type.Union([Type.Literal(LOCK_FLAG.LOCKED), Type.Literal(LOCK_FLAG.UNLOCKED)]);

/** The auto-lock configuration's bounds; `maxFailures` 0 means wrong passwords never lock an account. */
export const AUTO_LOCK_LIMITS = {
  maxFailures: { min: 0, max: 100 },
  lockMinutes: { min: 1, max: 1440 },
} as const;

/** Until an administrator saves another: 5 wrong passwords lock the account for 15 minutes. */
export const DEFAULT_AUTO_LOCK = { maxFailures: 5, lockMinutes: 15 } as const;

/** Whole numbers; their bounds are checked by validateAutoLockConfig, for its message beside the field. */
export const AutoLockConfigSchema = Type.Object({
  /** Wrong passwords in a row that lock the account (0: never). */
  maxFailures: Type.Integer(),
  /** How long the automatic lock lasts, in minutes. */
  lockMinutes: Type.Integer(),
});
export type AutoLockConfig = Static<typeof AutoLockConfigSchema>;

/** The first field out of bounds and what to say about it, or null when the configuration is valid. */
export function validateAutoLockConfig(config: AutoLockConfig): { field: keyof AutoLockConfig; message: string } | null {
  const { maxFailures, lockMinutes } = AUTO_LOCK_LIMITS;
  if (!Number.isInteger(config.maxFailures) || config.maxFailures < maxFailures.min || config.maxFailures > maxFailures.max) {
    return { field: 'maxFailures', message: `登录失败次数须为 ${maxFailures.min}–${maxFailures.max} 的整数（0 表示不自动锁定）` };
  }
  if (!Number.isInteger(config.lockMinutes) || config.lockMinutes < lockMinutes.min || config.lockMinutes > lockMinutes.max) {
    return { field: 'lockMinutes', message: `锁定时长须为 ${lockMinutes.min}–${lockMinutes.max} 分钟的整数` };
  }
  return null;
}

/** `?userIds=1,2&isLock=Y|N`: the spec reads the query as shared by lock and unlock. */
export const LockQuerySchema = Type.Object({
  userIds: IdCsv(4000, { minLength: 1 }),
  /** Y locks, N unlocks; absent: what the path says (lock Y, unlock N). */
  isLock: Type.Optional(LockFlagSchema),
});

/** An administrator's lock: the users cannot log in until unlocked, and their sessions end now. */
export const lock = defineCall({
  name: 'user.lock',
  method: 'PATCH',
  path: '/api/user/lock',
  summary: '锁定用户',
  query: LockQuerySchema,
  response: Type.Null(),
  permission: 'setup:user:user:list',
});

/** Lifts both locks (the administrator's and the automatic one) and clears the failure count. */
export const unlock = defineCall({
  name: 'user.unlock',
  method: 'PATCH',
  path: '/api/user/unlock',
  summary: '解锁用户',
  query: LockQuerySchema,
  response: Type.Null(),
  permission: 'setup:user:user:list',
});

export const autoLockConfig = defineCall({
  name: 'user.autoLockConfig',
  method: 'GET',
  path: '/api/user/query/autoLockConfig',
  summary: '查询自动锁定配置',
  response: AutoLockConfigSchema,
  permission: 'setup:user:user:list',
});

export const saveAutoLockConfig = defineCall({
  name: 'user.saveAutoLockConfig',
  method: 'POST',
  path: '/api/user/add/autoLockConfig',
  summary: '保存自动锁定配置',
  body: AutoLockConfigSchema,
  response: AutoLockConfigSchema,
  permission: 'setup:user:user:list',
});


// ---- users: list, create, edit, reset password, delete (spec doc 2 §7) ----------------------------------------

/** User types (spec doc 2 §3): 0 platform, 2 LDAP, 3 open-API, 6–10 synchronised external users. */
export const USER_TYPE = { PLATFORM: 0, LDAP: 2, OPEN_API: 3, SYNCED: 6 } as const;
/** The types the list's filter offers; 6 stands for every synchronised type (6–10). */
export const USER_TYPE_FILTERS = [0, 2, 3, 6] as const;
/** Types whose password lives elsewhere (the directory, the synchronised source): no local reset. */
export const hasNoLocalPassword = (type: number): boolean => type === USER_TYPE.LDAP || (type >= 6 && type <= 10);

export const USERNAME_MAX_LENGTH = 64;
/** Letters, digits and . _ - @, starting with a letter or digit. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
export const USERNAME_MESSAGE = `用户名须为1-${USERNAME_MAX_LENGTH}个字符，以字母或数字开头，只能包含字母、数字及 . _ - @`;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MESSAGE = '邮箱格式不正确';
export const PHONE_PATTERN = /^\+?[0-9][0-9 -]{2,28}[0-9]$/;
export const PHONE_MESSAGE = '手机号格式不正确';

export const validateUsername = (value: string): string | null => (USERNAME_PATTERN.test(value) ? null : USERNAME_MESSAGE);
export const validateEmail = (value: string | null | undefined): string | null => (!value || (value.length <= 200 && EMAIL_PATTERN.test(value)) ? null : EMAIL_MESSAGE);
export const validatePhone = (value: string | null | undefined): string | null => (!value || PHONE_PATTERN.test(value) ? null : PHONE_MESSAGE);

export const UserListQuerySchema = Type.Object({
  ...PagingQuerySchema.properties,
  /** Part of the username or the name. */
  keyword: Keyword,
  /** USER_TYPE_FILTERS: 6 matches 6–10. */
  userType: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  /** roles.id */
  roleId: Type.Optional(Id()),
  /** subject_groups.id: members of the group itself (not of its children). */
  groupId: Type.Optional(Id()),
  isLock: Type.Optional(LockFlagSchema),
  sort: Type.Optional(Type.Union([Type.Literal('createTime'), Type.Literal('username'), Type.Literal('name')])),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});

const RefSchema = Type.Object({ id: Type.Integer(), name: Type.String() });

export const UserRowSchema = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  userType: Type.Integer(),
  userTypeLabel: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  roles: Type.Array(Type.Object({ id: Type.Integer(), code: Type.Integer(), name: Type.String() })),
  groups: Type.Array(RefSchema),
  /** The administrator's lock (Y/N). */
  isLock: LockFlagSchema,
  /** End of an automatic lock still running (ISO), else null. */
  lockedUntil: Nullable(Type.String()),
  /** False until the user has changed a password someone else set. */
  updatedPwd: Type.Boolean(),
  /** False for LDAP and synchronised users: their password is not the platform's to reset. */
  localPassword: Type.Boolean(),
  createTime: Type.String(),
  updateTime: Type.String(),
});
export type UserRow = Static<typeof UserRowSchema>;

export const pageUser = defineCall({
  name: 'user.pageUser',
  method: 'GET',
  path: '/api/user/pageUser',
  summary: '用户列表（按用户名/姓名、类型、角色、分组、锁定状态筛选）',
  query: UserListQuerySchema,
  response: PageSchema(UserRowSchema),
  permission: 'setup:user:user:list',
});

const Email = Type.Optional(Nullable(Type.String({ maxLength: 200 })));
const Phone = Type.Optional(Nullable(Type.String({ maxLength: 30 })));
const RoleIds = Type.Array(Id(), { minItems: 1, maxItems: 50 });
const GroupIds = Type.Optional(Type.Array(Id(), { maxItems: 200 }));

export const UserCreateSchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  /** Checked against the password policy; the user must change it at the first login. */
  password: Type.String({ minLength: 1, maxLength: 200 }),
  email: Email,
  phone: Phone,
  /** roles.id (GET /api/role/roleList) */
  roleIds: RoleIds,
  /** subject_groups.id */
  groupIds: GroupIds,
});
export type UserCreate = Static<typeof UserCreateSchema>;

export const create = defineCall({
  name: 'user.create',
  method: 'POST',
  path: '/api/user',
  summary: '新增用户（首次登录须修改密码）',
  body: UserCreateSchema,
  response: UserRowSchema,
  permission: 'setup:user:user:list',
});

export const UserUpdateSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Email,
  phone: Phone,
  roleIds: RoleIds,
  groupIds: GroupIds,
});
export type UserUpdate = Static<typeof UserUpdateSchema>;

/** Answers 若修改分配角色，用户需重新登录才可生效 when the roles changed, else 修改成功. */
export const update = defineCall({
  name: 'user.update',
  method: 'PATCH',
  path: '/api/user/{userId}',
  summary: '修改用户（资料、角色、分组；角色在用户重新登录后生效）',
  params: Type.Object({ userId: Id() }),
  body: UserUpdateSchema,
  response: UserRowSchema,
  permission: 'setup:user:user:list',
});

/** An administrator's new password for the user: temporary, the user must change it at the next login. */
export const resetPassword = defineCall({
  name: 'user.resetPassword',
  method: 'PATCH',
  path: '/api/user/reset/{userId}',
  summary: '重置用户密码（用户下次登录须修改）',
  params: Type.Object({ userId: Id() }),
  body: Type.Object({ password: Type.String({ minLength: 1, maxLength: 200 }) }),
  response: Type.Null(),
  permission: 'setup:user:user:list',
});

/** The text SUCCESS the spec asks for on success; a refusal's reason is the envelope's message (shown as a warning). */
export const USER_DELETE_SUCCESS = 'SUCCESS';

/**
 * Deletes the users and, with them, their sessions, tokens, memberships and saved repository
 * credentials. What they made stays: 应用 they own keep existing without an owner (owner_id
 * null; a domain administrator can give them a new one), projects, analyses, reports and rules
 * keep their history with the author left empty. Refused (nothing deleted) when the list holds
 * the caller or would leave no domain administrator.
 */
export const deleteUsers = defineCall({
  name: 'user.deleteUsers',
  method: 'DELETE',
  path: '/api/user/deleteUsers',
  summary: '删除用户（成功时答 SUCCESS）',
  query: Type.Object({ userIds: IdCsv(4000, { minLength: 1 }) }),
  response: Type.String(),
  permission: 'setup:user:user:list',
});

/**
 * GET /api/user/modify/info: what the password-change screen needs about the caller — whether a
 * change is required and why, whether the account has a local password at all (LDAP and
 * synchronised users change theirs at the source), and the policy a new one must meet.
 * Reachable before the forced change.
 */
export const ModifyInfoSchema = Type.Object({
  username: Type.String(),
  userType: Type.Integer(),
  localPassword: Type.Boolean(),
  /** True when the password was set by someone else (first login, reset) and must be changed now. */
  mustChange: Type.Boolean(),
  passwordChangedAt: Nullable(Type.String()),
  passwordPolicy: PasswordPolicySchema,
  /** The policy in words, for the field's hint. */
  hint: Type.String(),
});

export const modifyInfo = defineCall({
  name: 'user.modifyInfo',
  method: 'GET',
  path: '/api/user/modify/info',
  summary: '修改密码所需信息（是否须修改、密码策略）',
  response: ModifyInfoSchema,
});

export const MailSchema = Type.Object({
  userId: Type.Integer(),
  /** Where notices go; null: the account's e-mail. */
  mail: Nullable(Type.String()),
  /** The address notices actually go to (mail, else the account's e-mail), null when neither. */
  effective: Nullable(Type.String()),
});

/** The user's notification address: the user themself, or a holder of setup:user:user:list. */
export const mail = defineCall({
  name: 'user.mail',
  method: 'GET',
  path: '/api/user/mail/{userId}',
  summary: '查询通知邮箱',
  params: Type.Object({ userId: Id() }),
  response: MailSchema,
});

export const saveMail = defineCall({
  name: 'user.saveMail',
  method: 'POST',
  path: '/api/user/mail/{userId}',
  summary: '设置通知邮箱（空：使用账号邮箱）',
  params: Type.Object({ userId: Id() }),
  body: Type.Object({ mail: Nullable(Type.String({ maxLength: 200 })) }),
  response: MailSchema,
});

// ---- Excel import -----------------------------------------------------------------------------------------------

/** The template's columns, in order (the import reads them by header, so a re-ordered sheet works). */
export const USER_IMPORT_HEADERS = ['用户名', '姓名', '初始密码', '邮箱', '手机号', '角色', '分组'] as const;
export const USER_IMPORT_TEMPLATE_NAME = '用户导入模板.xlsx';
/** Rows one import takes; the rest of a longer sheet is refused as a whole. */
/** Rows one import takes (it runs within the request: a password hash per row). */
export const USER_IMPORT_MAX_ROWS = 500;
export const USER_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** The multipart field the import reads. */
export const USER_IMPORT_FILE_FIELD = 'file';

/** Import record status, as the spec's (1 importing, 2 success, 3 failed). */
export const USER_IMPORT_STATUS = { IMPORTING: 1, SUCCEEDED: 2, FAILED: 3 } as const;
export const USER_IMPORT_OUTCOME = { IMPORTED: 1, REFUSED: 2 } as const;
export const USER_IMPORT_OUTCOME_LABEL = { 1: '导入成功', 2: '导入失败' } as const;

/** POST /api/user/importTemplate: the .xlsx template (the spec's name for its download). */
export const importTemplate = defineCall({
  name: 'user.importTemplate',
  method: 'POST',
  path: '/api/user/importTemplate',
  summary: '下载用户导入模板（.xlsx）',
  response: Type.Null(),
  permission: 'setup:user:user:list',
  raw: true,
});

/**
 * Ours: the same template as JSON for the app (whose bridge carries envelopes, not files): the
 * file name and its bytes in base64; the screen saves it.
 */
export const importTemplateData = defineCall({
  name: 'user.importTemplateData',
  method: 'GET',
  path: '/api/user/importTemplate/data',
  summary: '用户导入模板（base64，供客户端保存）',
  response: Type.Object({ fileName: Type.String(), base64: Type.String() }),
  permission: 'setup:user:user:list',
});

export const UserImportRecordSchema = Type.Object({
  id: Type.Integer(),
  fileName: Type.String(),
  status: Type.Integer(),
  statusLabel: Type.String(),
  total: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  /** Why the whole file was refused (unreadable, wrong headers, too many rows); empty otherwise. */
  message: Type.String(),
  createdBy: Nullable(Type.String()),
  createTime: Type.String(),
  finishTime: Nullable(Type.String()),
});
export type UserImportRecord = Static<typeof UserImportRecordSchema>;

/**
 * Ours (the spec names the template, the records and the history, not the upload): the filled
 * template as multipart/form-data, one field `file` (.xlsx). Each good row becomes a platform user
 * who must change the password at the first login; each bad row is kept with its reason. Answers
 * the record (message 模板导入成功，导入结果请查看导入记录).
 */
export const importUsers = defineCall({
  name: 'user.importUsers',
  method: 'POST',
  path: '/api/user/import',
  summary: '导入用户（上传填写好的模板，multipart 字段 file）',
  response: UserImportRecordSchema,
  permission: 'setup:user:user:list',
});

/**
 * Ours: the import of a file the app sent through the chunked upload calls (upload.ts), by its
 * uploadId; the uploader's own completed upload only, consumed by the import. Same answer as
 * POST /api/user/import.
 */
export const importUpload = defineCall({
  name: 'user.importUpload',
  method: 'POST',
  path: '/api/user/import/upload',
  summary: '导入用户（已完成的上传）',
  body: Type.Object({ uploadId: Type.String({ minLength: 1, maxLength: 36 }) }),
  response: UserImportRecordSchema,
  permission: 'setup:user:user:list',
});

export const importRecords = defineCall({
  name: 'user.importRecords',
  method: 'GET',
  path: '/api/user/importRecords',
  summary: '用户导入记录',
  query: PagingQuerySchema,
  response: PageSchema(UserImportRecordSchema),
  permission: 'setup:user:user:list',
});

export const UserImportRowSchema = Type.Object({
  rowNo: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  outcome: Type.Integer(),
  outcomeLabel: Type.String(),
  reason: Type.String(),
});

export const importHistorys = defineCall({
  name: 'user.importHistorys',
  method: 'GET',
  path: '/api/user/importHistorys',
  summary: '用户导入记录的逐行结果',
  query: Type.Object({
    ...PagingQuerySchema.properties,
    recordId: Id(),
    /** USER_IMPORT_OUTCOME: only imported or only refused rows. */
    outcome: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
  }),
  response: PageSchema(UserImportRowSchema),
  permission: 'setup:user:user:list',
});

// ---- synchronised external users ----------------------------------------------------------------------------

/**
 * The source GET /api/suzhou/import reads: an http(s) URL answering
 *   - `json`: an array of objects, or `{ "users": [...] }`, each
 *     `{ "username": "zhangsan", "name": "张三", "email"?: "...", "phone"?: "...", "type"?: 6..10 }`;
 *   - `csv`: UTF-8, a header line naming the columns username,name[,email][,phone][,type] in any
 *     order, then one user per line (RFC 4180 quoting).
 * Users are matched by username: new ones are created as type `type` (default 6) with the
 * default role, no usable local password and no forced change (they sign in through the source's
 * directory); existing synchronised users get the source's name, e-mail and phone. A platform,
 * LDAP or open-API account of the same username is left alone and reported. Nobody is deleted.
 */
export const SyncSourceSchema = Type.Object({
  /** http(s) URL; empty: not configured. */
  url: Type.String({ maxLength: 500 }),
  format: Type.Union([Type.Literal('json'), Type.Literal('csv')]),
  /** roles.id given to users the sync creates; null: 普通用户. */
  defaultRoleId: Nullable(Id()),
});
export type SyncSource = Static<typeof SyncSourceSchema>;

export const syncSource = defineCall({
  name: 'user.syncSource',
  method: 'GET',
  path: '/api/user/sync/source',
  summary: '外部用户同步来源设置',
  response: SyncSourceSchema,
  permission: 'setup:user:user:list',
});

export const saveSyncSource = defineCall({
  name: 'user.saveSyncSource',
  method: 'POST',
  path: '/api/user/sync/source',
  summary: '保存外部用户同步来源',
  body: SyncSourceSchema,
  response: SyncSourceSchema,
  permission: 'setup:user:user:list',
});

export const SyncResultSchema = Type.Object({
  total: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  /** Entries not applied, each with its reason. */
  skipped: Type.Array(Type.Object({ username: Type.String(), reason: Type.String() })),
});
export type SyncResult = Static<typeof SyncResultSchema>;

export const syncExternal = defineCall({
  name: 'user.syncExternal',
  method: 'GET',
  path: '/api/suzhou/import',
  summary: '从外部来源同步用户（类型 6–10）',
  response: SyncResultSchema,
  permission: 'setup:user:user:list',
});

export const userCalls = {
  lock, unlock, autoLockConfig, saveAutoLockConfig,
  pageUser, create, update, resetPassword, deleteUsers, modifyInfo, mail, saveMail,
  importTemplate, importTemplateData, importUsers, importUpload, importRecords, importHistorys,
  syncSource, saveSyncSource, syncExternal,
};
