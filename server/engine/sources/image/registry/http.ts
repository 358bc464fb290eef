// HTTP for the registry client, on node:http/node:https: the system's and the bundled CAs plus an
// optional PEM CA, plain HTTP only when the caller switched it on, an idle timeout per request,
// redirects followed (the Authorization header only to the same origin, never from HTTPS down to
// HTTP), and network and TLS failures turned into RegistryErrors in Chinese.
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncomingMessage } from 'node:http';

import { RegistryError, type Secrets } from './errors.ts';

export interface Response {
  status: number;
  headers: IncomingMessage['headers'];
  /** The URL that answered, after redirects. */
  url: URL;
  body: IncomingMessage;
}

export interface TransportOptions {
  caPem?: string;
  insecureHttp?: boolean;
  /** Per request: no byte (connect, headers or body) for this long ends the request. */
  timeoutMs: number;
  signal: AbortSignal;
  secrets: Secrets;
  /** An HTTP proxy URL for every request; undefined: HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the environment (loopback always direct); null: none. */
  proxy?: string | null;
}

/** The proxy settings node's agents read (`proxyEnv`, node ≥ 24.5; older versions ignore it and connect directly). */
function proxyEnvironment(proxy: string | null | undefined): Record<string, string | undefined> {
  if (proxy === null) return {};
  if (proxy === undefined) {
    // Loopback never goes through the environment's proxy (a registry on this machine).
    const env = process.env;
    const noProxy = [env.NO_PROXY ?? env.no_proxy, 'localhost', '127.0.0.1', '::1'].filter(Boolean).join(',');
    return { HTTPS_PROXY: env.HTTPS_PROXY ?? env.https_proxy, HTTP_PROXY: env.HTTP_PROXY ?? env.http_proxy, NO_PROXY: noProxy };
  }
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    throw new RegistryError('network', '代理地址无效，应为 http://主机:端口');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RegistryError('network', `代理地址的协议 ${url.protocol} 不受支持（支持 http:// 与 https://）`);
  return { HTTPS_PROXY: url.href, HTTP_PROXY: url.href };
}

const MAX_REDIRECTS = 10;

/** Errors a retry may cure (connection resets, timeouts, 429 and 502–504 answers). */
const transient = new WeakSet<Error>();
export const markTransient = <E extends Error>(error: E): E => {
  transient.add(error);
  return error;
};
export const isTransient = (error: unknown): boolean => error instanceof Error && transient.has(error);

/** The PEM's certificates, checked one by one; a broken CA is refused before any connection. */
export function parseCaPem(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new RegistryError('tls', 'CA 证书无效：没有找到 PEM 格式的证书（-----BEGIN CERTIFICATE-----）');
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw new RegistryError('tls', 'CA 证书无效：PEM 内容无法解析为 X.509 证书', { cause: error });
    }
  }
  return blocks;
}

/** The bundled roots, the operating system's store (where node can read it) and the caller's PEM. */
function trustedCas(caPem: string | undefined): string[] | undefined {
  const extra = caPem ? parseCaPem(caPem) : [];
  const roots = new Set<string>(tls.rootCertificates);
  const get = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  if (get) {
    for (const type of ['default', 'system']) {
      try {
        for (const cert of get(type)) roots.add(cert);
      } catch {
        // an unreadable system store leaves the bundled roots
      }
    }
  }
  if (!get && extra.length === 0) return undefined; // node's default: the bundled roots and NODE_EXTRA_CA_CERTS
  return [...roots, ...extra];
}

const TLS_MESSAGES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: '证书是自签名的，不受信任（请提供该仓库的 CA 证书）',
  SELF_SIGNED_CERT_IN_CHAIN: '证书链中有不受信任的自签名根证书（请提供该仓库的 CA 证书）',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '无法验证证书签发者（请提供该仓库的 CA 证书）',
  UNABLE_TO_GET_ISSUER_CERT: '找不到证书的签发者（请提供该仓库的 CA 证书）',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: '找不到证书的签发者（请提供该仓库的 CA 证书）',
  CERT_HAS_EXPIRED: '证书已过期',
  CERT_NOT_YET_VALID: '证书尚未生效',
  CERT_REVOKED: '证书已被吊销',
  CERT_SIGNATURE_FAILURE: '证书签名无效',
  CERT_UNTRUSTED: '证书不受信任',
  INVALID_CA: 'CA 证书无效',
  ERR_TLS_CERT_ALTNAME_INVALID: '证书上的主机名与仓库地址不符',
  HOSTNAME_MISMATCH: '证书上的主机名与仓库地址不符',
};

/** A socket or TLS failure as a RegistryError naming the host. */
export function networkError(error: unknown, url: URL, options: { insecureHttp?: boolean; timeoutMs: number }): RegistryError {
  if (error instanceof RegistryError) return error;
  const err = error as NodeJS.ErrnoException;
  const code = err?.code ?? '';
  const host = url.host;
  const tlsReason = TLS_MESSAGES[code];
  if (tlsReason) return new RegistryError('tls', `无法与 ${host} 建立安全连接：${tlsReason}`, { cause: error });
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long|unknown protocol/i.test(err?.message ?? '')) {
    return new RegistryError('tls', `无法与 ${host} 建立 HTTPS 连接：对方似乎只提供 HTTP。若确认该仓库可信，可开启“允许不安全的 HTTP”`, { cause: error });
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO') {
    return new RegistryError('tls', `无法与 ${host} 建立安全连接（TLS 握手失败：${code}）`, { cause: error });
  }
  if (code === 'ERR_PROXY_TUNNEL' || code === 'ERR_PROXY_INVALID_CONFIG') {
    const answer = /(HTTP\/[\d.]+ \d{3}[^\r\n]*)\s*$/.exec(err?.message ?? '')?.[1]?.trim();
    return markTransient(new RegistryError('network', `无法通过代理连接 ${host}${answer ? `（代理返回 ${answer}）` : ''}`, { cause: error }));
  }
  if (code.startsWith('HPE_')) {
    return new RegistryError('network', options.insecureHttp
      ? `${host} 返回的不是 HTTP 应答：该仓库可能只提供 HTTPS，请关闭“允许不安全的 HTTP”`
      : `${host} 返回的应答无法解析（${code}）`, { cause: error });
  }
  if (code === 'ETIMEDOUT' || err?.name === 'TimeoutError') {
    return markTransient(new RegistryError('timeout', `连接超时：${host} 在 ${Math.round(options.timeoutMs / 100) / 10} 秒内没有响应`, { cause: error }));
  }
  if (code === 'ECONNREFUSED') return markTransient(new RegistryError('network', `无法连接 ${host}：连接被拒绝（仓库未运行或端口不对）`, { cause: error }));
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return new RegistryError('network', `无法解析主机名 ${url.hostname}`, { cause: error });
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return markTransient(new RegistryError('network', `无法连接 ${host}：网络不可达`, { cause: error }));
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || /socket hang up|aborted|premature close/i.test(err?.message ?? '')) {
    return markTransient(new RegistryError('network', `与 ${host} 的连接意外中断`, { cause: error }));
  }
  return markTransient(new RegistryError('network', `与 ${host} 通信失败${code ? `（${code}）` : ''}`, { cause: error }));
}

class RequestTimeout extends Error {
  override name = 'TimeoutError';
}

export class Transport {
  private readonly options: TransportOptions;
  private readonly httpsAgent: https.Agent;
  private readonly httpAgent: http.Agent;

  constructor(options: TransportOptions) {
    this.options = options;
    const ca = trustedCas(options.caPem);
    const proxyEnv = proxyEnvironment(options.proxy);
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 6, proxyEnv, ...(ca && { ca }) } as https.AgentOptions);
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 6, proxyEnv } as http.AgentOptions);
  }

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  get signal(): AbortSignal {
    return this.options.signal;
  }

  close(): void {
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }

  /** Refuses plain HTTP unless the caller switched it on (never a silent fallback). */
  checkScheme(url: URL, what: string): void {
    if (url.protocol === 'https:') return;
    if (url.protocol === 'http:' && this.options.insecureHttp) return;
    if (url.protocol === 'http:') throw new RegistryError('tls', `${what}（${url.host}）使用不安全的 HTTP，已拒绝；若确认该仓库可信，可开启“允许不安全的 HTTP”`);
    throw new RegistryError('server', `${what}的地址协议 ${url.protocol} 不受支持`);
  }

  /**
   * One request with its redirects. The body is left unread: the caller reads or destroys it.
   * `authorization` goes to the first origin only (and to redirects staying on it).
   */
  async request(url: URL, init: { method?: 'GET' | 'HEAD'; headers?: Record<string, string>; authorization?: string | null; what?: string } = {}): Promise<Response> {
    let current = url;
    let authorization = init.authorization ?? null;
    for (let hop = 0; ; hop++) {
      this.checkScheme(current, init.what ?? '仓库');
      const res = await this.once(current, init.method ?? 'GET', { ...init.headers, ...(authorization && { Authorization: authorization }) });
      const location = res.headers.location;
      const status = res.statusCode ?? 0;
      if (![301, 302, 303, 307, 308].includes(status) || !location) return { status, headers: res.headers, url: current, body: res };
      res.resume();
      if (hop >= MAX_REDIRECTS) throw new RegistryError('server', `${current.host} 重定向次数过多（超过 ${MAX_REDIRECTS} 次）`);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new RegistryError('server', `${current.host} 返回了无效的重定向地址`);
      }
      if (current.protocol === 'https:' && next.protocol === 'http:' && !this.options.insecureHttp) {
        throw new RegistryError('tls', `${current.host} 把下载重定向到不安全的 HTTP 地址（${next.host}），已拒绝`);
      }
      if (next.origin !== current.origin) authorization = null;
      current = next;
    }
  }

  private once(url: URL, method: string, headers: Record<string, string>): Promise<IncomingMessage> {
    const { signal, timeoutMs } = this.options;
    signal.throwIfAborted();
    const secure = url.protocol === 'https:';
    const lib = secure ? https : http;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = lib.request(url, {
        method,
        headers: { 'User-Agent': 'Cairn', ...headers },
        agent: secure ? this.httpsAgent : this.httpAgent,
        signal,
      });
      let response: IncomingMessage | null = null;
      req.setTimeout(timeoutMs, () => {
        if (response?.complete) return;
        const error = new RequestTimeout(`no data for ${timeoutMs} ms`);
        if (response) response.destroy(error);
        req.destroy(error);
      });
      req.once('response', (res) => {
        response = res;
        // Whoever reads the body sees its errors; one left unread (drained after a 401, say) must not crash the process.
        res.on('error', () => undefined);
        resolve(res);
      });
      req.on('error', (error) => {
        if (signal.aborted) reject(signal.reason);
        else if (!response) reject(networkError(error, url, this.options));
      });
      req.end();
    });
  }

  /** The body, at most `max` bytes (more is a 'server' error naming what it was). */
  async readBody(res: Response, max: number, what: string): Promise<Buffer> {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      res.body.destroy();
      throw new RegistryError('limits', `${what}过大（${declared} 字节，上限 ${max} 字节）`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > max) {
          res.body.destroy();
          throw new RegistryError('limits', `${what}过大（超过 ${max} 字节上限）`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (this.options.signal.aborted) throw this.options.signal.reason;
      throw networkError(error, res.url, this.options);
    }
    return Buffer.concat(chunks);
  }

  /** Runs `attempt` up to `tries` times while it fails with a transient error, waiting between. */
  async retrying<T>(attempt: () => Promise<T>, tries = 3): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (this.options.signal.aborted) throw this.options.signal.reason;
        if (n >= tries || !isTransient(error)) throw error;
        const wait = retryAfter(error) ?? Math.min(4000, 250 * 2 ** (n - 1));
        await sleep(wait, undefined, { signal: this.options.signal }).catch(() => {
          throw this.options.signal.reason;
        });
      }
    }
  }
}

const retryAfterMs = new WeakMap<Error, number>();
/** A transient error that carries the server's Retry-After (capped at 10 s). */
export function withRetryAfter<E extends Error>(error: E, header: string | string[] | undefined): E {
  const value = Array.isArray(header) ? header[0] : header;
  if (value) {
    const seconds = Number(value);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
    if (Number.isFinite(ms) && ms >= 0) retryAfterMs.set(error, Math.min(ms, 10_000));
  }
  return markTransient(error);
}
const retryAfter = (error: unknown): number | undefined => (error instanceof Error ? retryAfterMs.get(error) : undefined);
