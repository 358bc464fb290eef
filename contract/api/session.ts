// Session area (spec doc 1 §7 "Session", doc 2 §7 "Session").
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Nullable } from './kit.ts';

export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_COOKIE = 'cairn_session';

export const PasswordPolicySchema = Type.Object({
  /** Minimum length; the platform falls back to 6 when the configured value is blank. */
  length: Type.Integer({ minimum: 1 }),
  uppercase: Type.Boolean(),
  lowercase: Type.Boolean(),
  digit: Type.Boolean(),
  special: Type.Boolean(),
});
export type PasswordPolicy = Static<typeof PasswordPolicySchema>;

export const SessionUserSchema = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  roleName: Type.String(),
  /** Role codes held, for the role-code -> module mapping (spec doc 1 §3). */
  roleCodes: Type.Array(Type.Integer()),
  permissionPOS: Type.Array(Type.Object({ code: Type.String() })),
  dataPermissionEnum: Type.String(),
  /** False until the user has changed the initial (or expired) password. */
  updatedPwd: Type.Boolean(),
  userType: Type.Integer(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  passwordPolicy: PasswordPolicySchema,
});
export type SessionUser = Static<typeof SessionUserSchema>;

export const LoginBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});

export const csrf = defineCall({
  name: 'session.csrf',
  method: 'POST',
  path: '/api/csrf',
  summary: '获取 CSRF 令牌',
  response: Type.Object({ token: Type.String(), header: Type.String() }),
  loginExempt: true,
  csrfExempt: true,
});

export const login = defineCall({
  name: 'session.login',
  method: 'POST',
  path: '/api/login',
  summary: '用户名密码登录',
  body: LoginBodySchema,
  response: SessionUserSchema,
  loginExempt: true,
});

export const tokenLogin = defineCall({
  name: 'session.tokenLogin',
  method: 'POST',
  path: '/api/token/login',
  summary: '个人令牌登录（开放接口用户）',
  query: Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) }),
  response: SessionUserSchema,
  loginExempt: true,
  csrfExempt: true,
});

export const self = defineCall({
  name: 'session.self',
  method: 'GET',
  path: '/api/user/self',
  summary: '当前登录用户',
  response: SessionUserSchema,
});

export const modifyPassword = defineCall({
  name: 'session.modifyPassword',
  method: 'PATCH',
  path: '/api/user/modify',
  summary: '修改本人密码',
  body: Type.Object({
    oldPassword: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  }),
  response: Type.Null(),
});

export const modifyPersonalInformation = defineCall({
  name: 'session.modifyPersonalInformation',
  method: 'PATCH',
  path: '/api/user/modifyPersonalInformation',
  summary: '修改个人信息',
  body: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    email: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
  }),
  response: SessionUserSchema,
});

/** Not in the spec's call list (the spec names the /logout screen only): ends the session. */
export const logout = defineCall({
  name: 'session.logout',
  method: 'POST',
  path: '/api/logout',
  summary: '退出登录',
  response: Type.Null(),
  loginExempt: true,
});

/** Spec doc 1 §7 Session: every user as {userId, username, name}, for pickers and user lists. */
export const allUsers = defineCall({
  name: 'session.allUsers',
  method: 'GET',
  path: '/api/system/access/allUser/list',
  summary: '全部用户列表',
  response: Type.Array(Type.Object({ userId: Type.Integer(), username: Type.String(), name: Type.String() })),
  permission: 'setup:user:user:list',
});

/** Not in the spec: lets a supervisor (desktop main, a load balancer) see the platform is up. */
export const health = defineCall({
  name: 'session.health',
  method: 'GET',
  path: '/api/health',
  summary: '平台健康检查',
  response: Type.Object({
    status: Type.Literal('ok'),
    version: Type.String(),
    database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  }),
  loginExempt: true,
});

export const sessionCalls = { csrf, login, tokenLogin, self, modifyPassword, modifyPersonalInformation, logout, allUsers, health };
