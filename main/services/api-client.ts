// The HTTP client of one server profile. main/ holds the session cookie and the CSRF token so
// the renderer never sees either (design.md §1). Every call resolves to an envelope — an HTTP or
// network failure becomes `{ code, message, data: null }` with the spec's Chinese message — so a
// renderer call can never end in an exception.
import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Readable } from 'node:stream';
import { CookieJar } from 'tough-cookie';
import { ResultCode, type Envelope } from '../../contract/envelope.ts';
import { CSRF_HEADER } from '../../contract/api/session.ts';
import { endsSession, messageForEnvelope, messageForHttpError, serverMessageOf } from '../../contract/errors.ts';
import type { ApiRequest } from '../../contract/ipc/desktop-contract.ts';
import { createHttp, joinUrl, parseJson } from './http.ts';
import { describeNetworkError } from './net-errors.ts';

const UNRECOGNISED_ANSWER_MESSAGE = '平台返回了无法识别的应答';

export interface ApiClientOptions {
  /** Current base URL of the platform, or null while it cannot be reached (local platform starting). */
  baseUrl: () => string | null;
  /** Shown when `baseUrl()` is null. */
  notReadyMessage?: () => string;
  allowSelfSigned?: boolean;
  timeoutMs?: number;
  /** The platform ended the session (code 3 / HTTP 401): the renderer goes back to login. */
  onExpired?: (message: string) => void;
}

export interface CallOptions {
  /** False for the login call itself: a code 3 there is a failed login, not an expired session. */
  expireSession?: boolean;
}

/** A call whose body is raw bytes (an upload chunk), streamed from `body()`. */
export interface RawRequest {
  method: 'PUT' | 'POST';
  path: string;
  query?: ApiRequest['query'];
  /** A fresh stream of the bytes; called again if the call must be repeated (stale CSRF token). */
  body: () => Readable;
  /** Exact byte count of the body (sent as Content-Length). */
  length: number;
  contentType: string;
  signal?: AbortSignal;
  /** The whole request, default 10 minutes: a chunk on a slow link takes longer than a JSON call. */
  timeoutMs?: number;
}

export interface RawResult {
  envelope: Envelope<unknown>;
  /** False when no HTTP answer came back (refused, reset, timeout, aborted): worth retrying. */
  answered: boolean;
}

/** A GET whose answer is a file (a report download), handed back as a stream. */
export interface StreamRequest {
  path: string;
  query?: ApiRequest['query'];
  /** e.g. Range / If-Range to resume. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Longest silence on the connection before it counts as dropped (default one minute). */
  idleTimeoutMs?: number;
  /** Whether an answer is the file (else its body is read as an envelope); default: a 200/206 that is not JSON. */
  isFile?: (status: number, headers: Record<string, string>) => boolean;
}

export type StreamResult =
  | { ok: true; status: number; headers: Record<string, string>; body: Readable }
  /** `answered` false: no HTTP answer came back (refused, reset, timeout, aborted): worth retrying. */
  | { ok: false; envelope: Envelope<unknown>; answered: boolean; status?: number };

/** Failure answers of a download are small envelopes; anything longer is not one. */
const STREAM_ERROR_BODY_MAX = 1024 * 1024;

export interface ApiClient {
  call(request: ApiRequest, options?: CallOptions): Promise<Envelope<unknown>>;
  /** Like `call`, with a streamed raw body; never reads the body into memory. */
  callRaw(request: RawRequest): Promise<RawResult>;
  /** A GET whose answer body is streamed (downloads); failures come back as envelopes like `call`. */
  stream(request: StreamRequest): Promise<StreamResult>;
  /** Forget the session: cookies and the cached CSRF token. */
  clearSession(): Promise<void>;
  readonly jar: CookieJar;
}

type QueryValue = NonNullable<ApiRequest['query']>[string];

/** Repeated keys for arrays (`ids=1&ids=2`), the form Spring-style back ends read. */
export function serializeQuery(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  return params.toString();
}

/** The failed field a platform names beside its message (forms show the message there). */
const fieldOf = (env: { field?: unknown } | null): { field?: string } =>
  typeof env?.field === 'string' && env.field !== '' ? { field: env.field } : {};

const isEnvelope = (value: unknown): value is { code: number; message?: unknown; data?: unknown; field?: unknown } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { code?: unknown }).code === 'number';

/** The CSRF token could not be fetched; its message is already the one to show. */
class CsrfUnavailable extends Error {}

const fail = (message: string, code: number = ResultCode.FAILURE): Envelope<null> => ({ code, message, data: null });

export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const jar = new CookieJar();
  let http: AxiosInstance | null = null;
  let httpBase = '';
  let csrf: { base: string; header: string; token: string } | null = null;

  const client = (base: string): AxiosInstance => {
    if (!http || httpBase !== base) {
      http = createHttp({ baseUrl: base, allowSelfSigned: options.allowSelfSigned, timeoutMs, keepAlive: true });
      httpBase = base;
    }
    return http;
  };

  /** One request with our cookies; cookies set by the answer go back into the jar. */
  async function send(base: string, method: ApiRequest['method'], path: string, query: ApiRequest['query'], body: unknown, headers: Record<string, string>): Promise<AxiosResponse<string>> {
    const qs = serializeQuery(query);
    const url = joinUrl(base, path) + (qs ? `?${qs}` : '');
    const cookie = await jar.getCookieString(url);
    const res = await client(base).request<string>({
      method,
      url,
      data: body === undefined ? undefined : JSON.stringify(body),
      // No body: no Content-Type at all (axios would default to form encoding, which the platform refuses).
      headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}), 'Content-Type': body !== undefined ? 'application/json' : false },
    });
    const setCookie = res.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [String(setCookie)] : []) {
      await jar.setCookie(line, url, { ignoreError: true });
    }
    return res;
  }

  /** The CSRF token for state-changing calls, fetched once and cached (it survives login). */
  async function csrfHeader(base: string, refresh: boolean): Promise<Record<string, string>> {
    if (!csrf || csrf.base !== base || refresh) {
      csrf = null;
      const res = await send(base, 'POST', '/api/csrf', undefined, undefined, {});
      const env = parseJson(res.data);
      const data = isEnvelope(env) && env.code === ResultCode.SUCCESS ? (env.data as { token?: unknown; header?: unknown } | null) : null;
      if (!data || typeof data.token !== 'string') {
        throw new CsrfUnavailable(res.status >= 400 ? messageForHttpError(res.status, joinUrl(base, '/api/csrf'), serverMessageOf(env)) : UNRECOGNISED_ANSWER_MESSAGE);
      }
      csrf = { base, token: data.token, header: typeof data.header === 'string' && data.header ? data.header : CSRF_HEADER };
    }
    return { [csrf.header]: csrf.token };
  }

  async function expire(message: string): Promise<void> {
    await clearSession();
    options.onExpired?.(message);
  }

  async function clearSession(): Promise<void> {
    // The CSRF cookie goes too; the next state-changing call fetches a fresh token.
    await jar.removeAllCookies();
    csrf = null;
  }

  async function call(request: ApiRequest, callOptions: CallOptions = {}): Promise<Envelope<unknown>> {
    const base = options.baseUrl();
    if (!base) return fail(options.notReadyMessage?.() ?? '平台尚未就绪，请稍候重试');
    const url = joinUrl(base, request.path);
    const mutating = request.method !== 'GET';
    let res: AxiosResponse<string>;
    try {
      const headers = mutating ? await csrfHeader(base, false) : {};
      res = await send(base, request.method, request.path, request.query, request.body, headers);
      if (mutating && res.status === 403 && isCsrfRejection(res)) {
        // The token went stale (cookie expired, platform data reset): fetch a new one, once.
        res = await send(base, request.method, request.path, request.query, request.body, await csrfHeader(base, true));
      }
    } catch (err) {
      if (err instanceof CsrfUnavailable) return fail(err.message);
      return fail(describeNetworkError(err, timeoutMs).message);
    }

    return interpret(res, url, callOptions);
  }

  /** An HTTP answer as an envelope; code 3 / HTTP 401 end the session (except for the login call). */
  async function interpret(res: AxiosResponse<string>, url: string, callOptions: CallOptions): Promise<Envelope<unknown>> {
    const body = parseJson(res.data);
    const env = isEnvelope(body) ? body : null;
    const expireSession = callOptions.expireSession !== false;

    if (res.status >= 200 && res.status < 300) {
      if (!env) return fail(UNRECOGNISED_ANSWER_MESSAGE);
      const envelope: Envelope<unknown> = { code: env.code, message: typeof env.message === 'string' ? env.message : '', data: env.data ?? null };
      if (envelope.code === ResultCode.SUCCESS) return envelope;
      const message = messageForEnvelope(envelope);
      if (expireSession && endsSession(envelope)) await expire(message);
      return { ...envelope, message, ...fieldOf(env) };
    }

    const message = messageForHttpError(res.status, url, serverMessageOf(body));
    const code = env && env.code !== ResultCode.SUCCESS ? env.code : ResultCode.FAILURE;
    if (res.status === 401 || code === ResultCode.INVALID_SESSION) {
      const envelope = { code: ResultCode.INVALID_SESSION, message };
      if (expireSession && endsSession(envelope)) await expire(message);
      return { ...envelope, data: null };
    }
    return { code, message, data: null, ...fieldOf(env) };
  }

  /** One raw request with our cookies and CSRF header; the body streams from `request.body()`. */
  async function sendRaw(base: string, request: RawRequest, headers: Record<string, string>): Promise<AxiosResponse<string>> {
    const qs = serializeQuery(request.query);
    const url = joinUrl(base, request.path) + (qs ? `?${qs}` : '');
    const cookie = await jar.getCookieString(url);
    const res = await client(base).request<string>({
      method: request.method,
      url,
      data: request.body(),
      signal: request.signal,
      timeout: request.timeoutMs ?? 10 * 60_000,
      // axios caps bodies at 10 MB by default; the platform enforces its own chunk limit.
      maxBodyLength: Infinity,
      headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}), 'Content-Type': request.contentType, 'Content-Length': String(request.length) },
    });
    const setCookie = res.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [String(setCookie)] : []) {
      await jar.setCookie(line, url, { ignoreError: true });
    }
    return res;
  }

  async function callRaw(request: RawRequest): Promise<RawResult> {
    const base = options.baseUrl();
    if (!base) return { envelope: fail(options.notReadyMessage?.() ?? '平台尚未就绪，请稍候重试'), answered: false };
    let res: AxiosResponse<string>;
    try {
      res = await sendRaw(base, request, await csrfHeader(base, false));
      if (res.status === 403 && isCsrfRejection(res)) res = await sendRaw(base, request, await csrfHeader(base, true));
    } catch (err) {
      if (err instanceof CsrfUnavailable) return { envelope: fail(err.message), answered: false };
      return { envelope: fail(describeNetworkError(err, request.timeoutMs ?? 10 * 60_000).message), answered: false };
    }
    return { envelope: await interpret(res, joinUrl(base, request.path), {}), answered: true };
  }

  async function stream(request: StreamRequest): Promise<StreamResult> {
    const base = options.baseUrl();
    if (!base) return { ok: false, envelope: fail(options.notReadyMessage?.() ?? '平台尚未就绪，请稍候重试'), answered: false };
    const qs = serializeQuery(request.query);
    const url = joinUrl(base, request.path) + (qs ? `?${qs}` : '');
    const idleTimeoutMs = request.idleTimeoutMs ?? 60_000;
    let res: AxiosResponse<Readable>;
    try {
      const cookie = await jar.getCookieString(url);
      // Same axios instance (agents, proxy and certificate choice) as every other call; only the
      // response type differs. axios' timeout is the socket's idle timeout, so a long download
      // that keeps receiving is never cut.
      res = await client(base).request<Readable>({
        method: 'GET',
        url,
        signal: request.signal,
        timeout: idleTimeoutMs,
        responseType: 'stream',
        decompress: false,
        // Identity: the bytes on disk must be the file's own (its checksum, its byte ranges).
        headers: { ...request.headers, Accept: '*/*', 'Accept-Encoding': 'identity', ...(cookie ? { Cookie: cookie } : {}) },
      });
      const setCookie = res.headers['set-cookie'];
      for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [String(setCookie)] : []) {
        await jar.setCookie(line, url, { ignoreError: true });
      }
    } catch (err) {
      return { ok: false, envelope: fail(describeNetworkError(err, idleTimeoutMs).message), answered: false };
    }
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(res.headers)) if (value !== undefined && value !== null) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    const isFile = request.isFile ?? ((status, h) => (status === 200 || status === 206) && !/^application\/json\b/i.test(h['content-type'] ?? ''));
    if (isFile(res.status, headers)) return { ok: true, status: res.status, headers, body: res.data };
    // Not the file: a failure envelope (or an error page of a proxy), read to interpret it.
    let text: string;
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.data as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > STREAM_ERROR_BODY_MAX) break;
        chunks.push(chunk);
      }
      res.data.destroy();
      text = Buffer.concat(chunks).toString('utf8');
    } catch (err) {
      return { ok: false, envelope: fail(describeNetworkError(err, idleTimeoutMs).message), answered: false };
    }
    const envelope = await interpret({ ...res, data: text } as AxiosResponse<string>, joinUrl(base, request.path), {});
    // A 2xx that is neither the file nor a failure envelope cannot be used.
    return { ok: false, envelope: envelope.code === ResultCode.SUCCESS ? fail(UNRECOGNISED_ANSWER_MESSAGE) : envelope, answered: true, status: res.status };
  }

  return { call, callRaw, stream, clearSession, jar };
}

function isCsrfRejection(res: AxiosResponse<string>): boolean {
  const message = serverMessageOf(parseJson(res.data)) ?? '';
  return /csrf/i.test(message);
}
