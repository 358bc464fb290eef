// User-facing server messages in one place. Those the spec quotes come from the contract's error
// catalogue (contract/errors.ts), so client and server cannot drift apart.
import {
  HTTP_STATUS_MESSAGES as HTTP,
  LOGIN_FAILURE_MESSAGE,
  PERMISSION_DENIED_SERVER_MESSAGE,
  SUCCESS_MESSAGES,
} from '../contract/errors.ts';

export const MSG = {
  csrfInvalid: 'CSRF 令牌无效或已过期，请刷新页面后重试',
  sessionInvalid: '登录已失效，请重新登录',
  /** Spec §6: the client shows this server message as 用户无权查看当前项目. */
  permissionDenied: PERMISSION_DENIED_SERVER_MESSAGE,
  passwordChangeRequired: '请先修改初始密码',
  badCredentials: LOGIN_FAILURE_MESSAGE,
  /** An administrator's lock; told only to whoever gives the right password (or a valid token). */
  accountLocked: '账号已锁定，请联系管理员',
  /** The automatic lock after wrong passwords; told only to whoever gives the right password. */
  accountLockedFor: (minutes: number) => `账号已锁定，请 ${minutes} 分钟后再试`,
  /** HTTP 429 from /api/login and /api/token/login (with Retry-After). */
  loginThrottled: (minutes: number) => `登录尝试过于频繁，请 ${minutes} 分钟后再试`,
  tokenInvalid: '令牌无效或已过期',
  oldPasswordWrong: '原密码错误',
  samePassword: '新密码不能与原密码相同',
  passwordChanged: SUCCESS_MESSAGES.passwordModified,
  modified: SUCCESS_MESSAGES.modified,
  loggedIn: '登录成功',
  loggedOut: '已退出登录',
  emailInvalid: '邮箱格式不正确',
  phoneInvalid: '手机号码格式不正确',
  badParameters: '请求参数错误',
  invalidJson: '请求体不是有效的 JSON',
  bodyTooLarge: '请求体过大',
  unsupportedMediaType: '不支持的请求内容类型',
  badRequest: HTTP[400],
  unauthorized: HTTP[401],
  forbidden: HTTP[403],
  notFound: HTTP[404],
  timeout: HTTP[408],
  internalError: HTTP[500],
  notImplemented: HTTP[501],
} as const;
