// The error catalogue (spec doc 1 §8, doc 2 §8): what the user is told when a call fails, and
// the success messages the spec quotes. Messages are verbatim; keep them so.
import { ResultCode } from './result-code.ts';
import { snippetMatchedLabel } from './enums.ts';

/** HTTP status -> message. 404 appends the URL (see messageForHttpError). */
export const HTTP_STATUS_MESSAGES = {
  400: '请求错误',
  401: '未授权，请登录',
  403: '拒绝访问',
  404: '请求地址出错',
  408: '请求超时',
  500: '服务器内部错误',
  501: '服务未实现',
  502: '网关错误',
  503: '服务不可用',
  504: '网关超时',
  505: 'HTTP版本不受支持',
} as const;
type CataloguedStatus = keyof typeof HTTP_STATUS_MESSAGES;

/** Envelope failure with no message. */
const ENVELOPE_FALLBACK_MESSAGE = '请求失败，请稍后重试';
/** HTTP failure with neither a catalogued status nor a server message. */
const HTTP_FALLBACK_MESSAGE = '请求失败，请重试！';
/** The server's message for a project the user may not see, and what the user is shown. */
export const PERMISSION_DENIED_SERVER_MESSAGE = 'Permission denied';
const PERMISSION_DENIED_MESSAGE = '用户无权查看当前项目';
/** A code-3 envelope carrying this message is a failed login, not an expired session. */
export const LOGIN_FAILURE_MESSAGE = '用户名或密码错误';
/** Text answers of task launch and user deletion that mean success. */
const SUCCESS_TEXT = 'SUCCESS';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A server message as the user sees it ('Permission denied' -> 用户无权查看当前项目). */
export function displayServerMessage(message: string): string {
  return message.trim() === PERMISSION_DENIED_SERVER_MESSAGE ? PERMISSION_DENIED_MESSAGE : message;
}

/** The server's own message in an error body: errMessage first, then message. */
export function serverMessageOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { errMessage?: unknown; message?: unknown };
  return text(b.errMessage) ?? text(b.message);
}

/**
 * The message for an HTTP failure. A server message takes precedence (mapped); then the status
 * table, 404 with the URL appended (请求地址出错: /api/x); then 请求失败，请重试！.
 */
export function messageForHttpError(status: number, url: string, serverMessage?: string | null): string {
  const server = text(serverMessage);
  if (server) return displayServerMessage(server);
  if (status === 404) return url ? `${HTTP_STATUS_MESSAGES[404]}: ${url}` : HTTP_STATUS_MESSAGES[404];
  if (Object.prototype.hasOwnProperty.call(HTTP_STATUS_MESSAGES, status)) {
    return HTTP_STATUS_MESSAGES[status as CataloguedStatus];
  }
  return HTTP_FALLBACK_MESSAGE;
}

/**
 * Where a 401 goes: the address in the response data when it is a non-empty string, else the
 * stored failure URL, else null (the caller then goes to /login).
 */
export function unauthorizedRedirect(responseData: unknown, storedFailureUrl?: string | null): string | null {
  return text(responseData) ?? text(storedFailureUrl);
}

export interface EnvelopeLike {
  code: number;
  message?: string | null;
}

/** Code 3: the session is invalid. */
export const isSessionInvalid = (code: number): boolean => code === ResultCode.INVALID_SESSION;

/**
 * Code 3 that means "session over": clear storage, stop the reminder timer, go to login. A code 3
 * with 用户名或密码错误 is a login failure whose message is shown instead.
 */
export const endsSession = (env: EnvelopeLike): boolean =>
  isSessionInvalid(env.code) && (env.message ?? '').trim() !== LOGIN_FAILURE_MESSAGE;

/** The message to show for a failed envelope: its message (mapped) or 请求失败，请稍后重试. */
export function messageForEnvelope(env: EnvelopeLike): string {
  const m = text(env.message);
  return m ? displayServerMessage(m) : ENVELOPE_FALLBACK_MESSAGE;
}

/** Task launch shows its success message only when the returned message is SUCCESS. */
export const taskLaunchSucceeded = (env: EnvelopeLike): boolean =>
  env.code === ResultCode.SUCCESS && env.message === SUCCESS_TEXT;

/** User deletion answers SUCCESS, or a text shown as a warning. null means success. */
export const userDeletionWarning = (answer: string | null | undefined): string | null =>
  answer === SUCCESS_TEXT ? null : (text(answer) ?? ENVELOPE_FALLBACK_MESSAGE);

/** Success text of updateMatchedStatus: 已忽略 (2), 已确认 (3), else 已取消. */
export const snippetMatchedMessage = (matched: number | string | null | undefined): string => snippetMatchedLabel(matched);

// ---------------------------------------------------------------------------------------------
// Success messages, verbatim. Document 1 (project side) and document 2 (administration) word
// some of them differently (with or without ！ or 。); each screen uses its document's wording.

/** Document 1 §8. */
export const SUCCESS_MESSAGES = {
  saved: '保存成功！',
  modified: '修改成功',
  passwordModified: '修改成功，请用新密码登录',
  deleted: '删除成功！',
  added: '添加成功！',
  taskLaunched: '任务发起成功！',
  submitted: '提交成功！',
  done: '操作成功！',
  transferred: '转移成功！',
  reportSubmitted: '报告生成提交成功，生成完成之后可在报告管理中下载。',
  /** Document 1 prints it with an ASCII comma ("操作成功, 请在…"); document 2's wording is used. */
  changeLogExported: '操作成功，请在离线变更影响记录中查看！',
} as const;

/** Document 2 §8. */
export const ADMIN_SUCCESS_MESSAGES = {
  done: '操作成功',
  deleted: '删除成功',
  added: '添加成功',
  modified: '修改成功',
  saved: '保存成功',
  sent: '发送成功',
  synced: '同步成功',
  removed: '移除成功',
  transferred: '转移成功',
  checkStarted: '已发起检查',
  taskLaunched: '任务发起成功',
  online: '已上线',
  offline: '已下线',
  restarted: '重启成功',
  membersAdded: '已添加选中成员',
  interceptConfigured: '入库拦截配置成功',
  templateImported: '模板导入成功，导入结果请查看导入记录',
  reportSubmitted: '报告生成提交成功，生成完成之后可在报告管理中下载',
  roleAssignmentNeedsRelogin: '若修改分配角色，用户需重新登录才可生效',
  rolePermissionNeedsRelogin: '若修改角色权限或数据权限，用户需重新登录才可生效',
  changeLogExported: '操作成功，请在离线变更影响记录中查看！',
} as const;

const count = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/** 批量导入项目完成，成功：N个， 失败：M个 (batch project import; successNum, failNum). */
export const batchImportResultMessage = (successNum: number, failNum: number): string =>
  `批量导入项目完成，成功：${count(successNum)}个， 失败：${count(failNum)}个`;

/** 批量任务发起完成，成功：N个， 失败：M个 (batch task launch). */
export const batchLaunchResultMessage = (successNum: number, failNum: number): string =>
  `批量任务发起完成，成功：${count(successNum)}个， 失败：${count(failNum)}个`;
