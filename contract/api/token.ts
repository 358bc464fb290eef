// 令牌 area (spec doc 2 §7 "Tokens", screen /tokenManagement, any signed-in user): each user's own
// personal tokens, the secrets an open-API client signs in with (POST /api/token/login?key=). A
// token is random, answered once by the add call and kept only as a digest; it has a name, an
// optional expiry and an on/off switch, and its last use is shown. Every call here reads and
// changes the caller's own tokens only: another user's token is answered as not existing. A
// session opened with a token cannot manage tokens (a leaked token must not mint new ones).
import { Type, type Static } from 'typebox';
import { NAME_MAX_LENGTH } from '../validation.ts';
import { defineCall } from './define.ts';
import { Id, IdParams, Keyword, Nullable, PageSchema, PagingQuerySchema } from './kit.ts';

/** The most tokens one user may hold. */
export const MAX_TOKENS_PER_USER = 50;
/** The furthest expiry a token may be given, in days from now. */
export const MAX_TOKEN_DAYS = 3650;
/** The expiry choices the create dialog offers, in days (null: never expires). */
export const TOKEN_EXPIRY_CHOICES = [7, 30, 90, 180, 365, null] as const;

export const TOKEN_MSG = {
  notFound: '令牌不存在',
  duplicate: (name: string) => `已有名为“${name}”的令牌`,
  tooMany: `每个用户最多持有 ${MAX_TOKENS_PER_USER} 个令牌，请先删除不再使用的令牌`,
  expiryInvalid: '过期时间格式不正确',
  expiryPast: '过期时间必须晚于当前时间',
  expiryTooFar: `过期时间不能超过 ${MAX_TOKEN_DAYS / 365} 年`,
  nothingToChange: '请指定要修改的名称或状态',
  tokenSession: '令牌登录的会话不能管理令牌，请使用账号密码登录后操作',
  /** Token login (POST /api/token/login) of a token its owner switched off. */
  disabled: '令牌已停用',
  /** Token login with a token past its expiry. */
  expired: '令牌已过期',
} as const;

/** Checked against contract/validation.ts validateName in the service, for its message. */
const NameText = Type.String({ maxLength: NAME_MAX_LENGTH * 2 });

export const PersonalTokenRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The token's last four characters ('…abcd'); null for tokens issued before they were kept. */
  hint: Nullable(Type.String()),
  enabled: Type.Boolean(),
  /** ISO-8601; null: never expires. */
  expiresAt: Nullable(Type.String()),
  /** Past its expiry: it signs nobody in. */
  expired: Type.Boolean(),
  createdAt: Type.String(),
  /** The last token login or call made with it; null: never used. */
  lastUsedAt: Nullable(Type.String()),
  lastUsedIp: Nullable(Type.String()),
});
export type PersonalTokenRow = Static<typeof PersonalTokenRowSchema>;

export const list = defineCall({
  name: 'token.list',
  method: 'GET',
  path: '/api/personalToken/queryPersonalTokenList',
  summary: '我的个人令牌',
  query: Type.Object({
    ...PagingQuerySchema.properties,
    /** Part of the name, case-insensitive. */
    keyword: Keyword,
  }),
  response: PageSchema(PersonalTokenRowSchema),
});

export const AddTokenSchema = Type.Object({
  name: NameText,
  /** ISO-8601 date-time in the future (at most MAX_TOKEN_DAYS away); null or absent: never expires. */
  expiresAt: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
});
export type AddToken = Static<typeof AddTokenSchema>;

/** The new token's row and the token itself: the only time it is ever answered. */
export const add = defineCall({
  name: 'token.add',
  method: 'POST',
  path: '/api/personalToken/addPersonalToken',
  summary: '创建个人令牌',
  body: AddTokenSchema,
  response: Type.Object({ ...PersonalTokenRowSchema.properties, token: Type.String() }),
});

/** Rename, switch on or off (switching off ends the sessions the token opened). */
export const update = defineCall({
  name: 'token.update',
  method: 'PATCH',
  path: '/api/personalToken/updatePersonalToken',
  summary: '修改个人令牌（名称、启用或停用）',
  body: Type.Object({ id: Id(), name: Type.Optional(NameText), enabled: Type.Optional(Type.Boolean()) }),
  response: PersonalTokenRowSchema,
});

/** Deleting a token ends the sessions it opened; its calls stay in the open-API log. */
export const remove = defineCall({
  name: 'token.remove',
  method: 'DELETE',
  path: '/api/personalToken/delete/{id}',
  summary: '删除个人令牌',
  params: IdParams,
  response: Type.Null(),
});

export const tokenCalls = { list, add, update, remove };
