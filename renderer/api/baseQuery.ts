// RTK Query base: every platform call goes through window.desktop.api.call (main holds the
// session cookie, CSRF token and credentials). The envelope is unwrapped here (spec doc 1 §8):
//   code 1 -> data
//   code 3 -> session/expired (clears the session, stops the reminder poll, back to /login),
//             except when the message is 用户名或密码错误, which is passed through as an error
//   other  -> an error carrying the message, or 请求失败，请稍后重试
// The endpoint's extra options (renderer/api/endpoints.ts sets them) say whether a failure is
// toasted (`quiet`) and whether a success keeps the envelope message (`withMessage`).
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { ApiRequest, IpcResult } from '../../contract/ipc/desktop-contract.ts';
import type { Envelope } from '../../contract/envelope.ts';
import { ResultCode } from '../../contract/envelope.ts';
import { isSessionInvalid, messageForEnvelope } from '../../contract/errors.ts';
import { sessionActions } from '../app/sessionSlice.ts';
import { zh } from '../i18n/zh-CN.ts';
import { toApiRequest, type CallArgs } from './request.ts';

export interface ApiError {
  /** `envelope`: the platform answered with code != 1; `bridge`: the IPC call itself failed. */
  kind: 'envelope' | 'bridge';
  /** Envelope code, or the bridge's error code. */
  code: number | string;
  message: string;
  /** The call exists in the spec but the platform does not implement it yet (服务未实现, HTTP 501). */
  notImplemented: boolean;
  /** The session ended (code 3) and the app is returning to the login screen. */
  sessionExpired: boolean;
  /** The request field the platform says the failure is about (forms show the message there). */
  field?: string;
}

export interface ApiExtraOptions {
  /** Never toast this failure (the screen shows it in place, or it is a background poll). */
  quiet?: boolean;
  /** The envelope message means something (任务发起成功！): a success answers `{ ...data, message }`. */
  withMessage?: boolean;
}

/** Carried on every fulfilled/rejected action (`meta.baseQueryMeta`), read by the error toaster. */
export interface ApiMeta {
  quiet: boolean;
  /** The call's contract name, e.g. `session.self`. */
  call: string;
}

export type ApiTransport = (request: ApiRequest) => Promise<IpcResult<unknown>>;

export type PlatformBaseQuery = BaseQueryFn<CallArgs, unknown, ApiError, ApiExtraOptions, ApiMeta>;

const isEnvelope = (v: unknown): v is Envelope<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as Envelope).code === 'number' && 'data' in v;

const notImplementedMessage = (message: string): boolean => message.trim() === zh.messages.notImplemented;

const error = (kind: ApiError['kind'], code: number | string, message: string, sessionExpired = false): ApiError => ({
  kind,
  code,
  message,
  notImplemented: notImplementedMessage(message) || code === 501 || code === 'http-501',
  sessionExpired,
});

/** The product selector from the store (1 when the store has no session slice, e.g. in tests). */
const productOf = (state: unknown): number => {
  const product = (state as { session?: { product?: unknown } } | undefined)?.session?.product;
  return typeof product === 'number' ? product : 1;
};

/** The base query over a transport (the bridge in the app, a fake in tests). */
export function createEnvelopeBaseQuery(transport: ApiTransport): PlatformBaseQuery {
  return async (args, api, extraOptions) => {
    const meta: ApiMeta = { quiet: extraOptions?.quiet === true, call: args.call.name };
    let request: ApiRequest;
    try {
      request = toApiRequest(args, productOf(api.getState()));
    } catch (e) {
      return { error: error('bridge', 'bad-request', e instanceof Error ? e.message : zh.messages.requestFailed), meta };
    }
    let result: IpcResult<unknown>;
    try {
      result = await transport(request);
    } catch (e) {
      return { error: error('bridge', 'bridge-failed', e instanceof Error && e.message ? e.message : zh.messages.requestFailed), meta };
    }
    if (!result.ok) {
      return { error: error('bridge', result.error.code, result.error.message || zh.messages.requestFailed), meta };
    }
    const envelope = result.value;
    if (!isEnvelope(envelope)) return { error: error('bridge', 'bad-envelope', zh.messages.requestFailed), meta };

    const said = typeof envelope.message === 'string' ? envelope.message : '';
    if (envelope.code === ResultCode.SUCCESS) return { data: extraOptions?.withMessage ? { ...(envelope.data as object), message: said } : envelope.data, meta };

    const message = messageForEnvelope(envelope);
    if (isSessionInvalid(envelope.code) && envelope.message !== zh.messages.wrongCredentials) {
      api.dispatch(sessionActions.expired({ message }));
      return { error: error('envelope', envelope.code, message, true), meta };
    }
    const failed = error('envelope', envelope.code, message);
    return { error: typeof envelope.field === 'string' && envelope.field ? { ...failed, field: envelope.field } : failed, meta };
  };
}

/** Narrowing helper for screens: the message of an RTK Query error. */
export function apiErrorMessage(e: unknown, fallback: string = zh.messages.requestFailed): string {
  if (typeof e === 'object' && e !== null && 'message' in e && typeof (e as { message: unknown }).message === 'string') {
    const m = (e as { message: string }).message;
    if (m) return m;
  }
  return fallback;
}

export const isApiError = (e: unknown): e is ApiError =>
  typeof e === 'object' && e !== null && 'kind' in e && 'notImplemented' in e && 'sessionExpired' in e;
