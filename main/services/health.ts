// GET /api/health: the one call that tells a Cairn platform apart from anything else listening
// on an address. Used by the connection test of server profiles and by the local supervisor.
import { createHttp, joinUrl, parseJson } from './http.ts';
import { describeNetworkError } from './net-errors.ts';
import { messageForHttpError } from '../../contract/errors.ts';

export interface HealthResult {
  ok: boolean;
  latencyMs: number | null;
  message: string;
  /** Platform version when it answered as Cairn. */
  version: string | null;
}

export interface HealthOptions {
  timeoutMs?: number;
  allowSelfSigned?: boolean;
}

const NOT_CAIRN = '不是 Cairn 平台：该地址的 /api/health 没有返回 Cairn 的健康检查应答';

export async function probeHealth(baseUrl: string, options: HealthOptions = {}): Promise<HealthResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const url = joinUrl(baseUrl, '/api/health');
  const http = createHttp({ baseUrl, timeoutMs, allowSelfSigned: options.allowSelfSigned });
  const started = performance.now();
  let status: number;
  let body: unknown;
  try {
    const res = await http.get<string>(url);
    status = res.status;
    body = parseJson(res.data);
  } catch (err) {
    return { ok: false, latencyMs: null, message: describeNetworkError(err, timeoutMs).message, version: null };
  }
  const latencyMs = Math.max(0, Math.round(performance.now() - started));
  const env = body as { code?: unknown; message?: unknown; data?: { status?: unknown; version?: unknown } } | undefined;
  const looksLikeCairn = !!env && typeof env === 'object' && typeof env.code === 'number' && !!env.data && typeof env.data === 'object' && 'status' in env.data;
  if (status >= 300 && status < 400) return { ok: false, latencyMs, message: `${NOT_CAIRN}（HTTP ${status} 重定向）`, version: null };
  if (status !== 200) {
    if (status === 404 || !looksLikeCairn) {
      return { ok: false, latencyMs, message: status === 404 ? NOT_CAIRN : `服务器返回 HTTP ${status}：${messageForHttpError(status, url)}`, version: null };
    }
    return { ok: false, latencyMs, message: `平台状态异常（HTTP ${status}）：${messageForHttpError(status, url, typeof env.message === 'string' ? env.message : null)}`, version: null };
  }
  if (!looksLikeCairn) return { ok: false, latencyMs, message: NOT_CAIRN, version: null };
  const version = typeof env.data!.version === 'string' ? env.data!.version : null;
  if (env.code !== 1 || env.data!.status !== 'ok') {
    return { ok: false, latencyMs, message: `平台状态异常：${typeof env.message === 'string' && env.message ? env.message : String(env.data!.status)}`, version };
  }
  return { ok: true, latencyMs, message: `连接成功：Cairn 平台${version ? ` ${version}` : ''}，响应 ${latencyMs} 毫秒`, version };
}
