// Small helpers shared by everything in main/ that speaks HTTP to a platform.
import https from 'node:https';
import http from 'node:http';
import axios, { type AxiosInstance } from 'axios';

/** `http://h:1/base/` + `/api/x` -> `http://h:1/base/api/x` (a base path is kept for reverse proxies). */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host === '::1';
  } catch {
    return false;
  }
}

export interface HttpClientOptions {
  baseUrl?: string;
  /** Accept a self-signed (or otherwise unverifiable) certificate: an explicit per-profile choice. */
  allowSelfSigned?: boolean;
  timeoutMs: number;
  /** Keep connections open between calls (API clients); one-off probes leave it off. */
  keepAlive?: boolean;
}

/**
 * An axios instance that never throws on an HTTP status and hands back the raw text: the
 * callers decide what an answer means (envelope, health document, error page from a proxy).
 */
export function createHttp(options: HttpClientOptions): AxiosInstance {
  return axios.create({
    baseURL: options.baseUrl,
    timeout: options.timeoutMs,
    // A platform on loopback must never be reached through an HTTP(S)_PROXY from the environment.
    proxy: options.baseUrl && isLoopbackUrl(options.baseUrl) ? false : undefined,
    httpAgent: new http.Agent({ keepAlive: options.keepAlive ?? false }),
    httpsAgent: new https.Agent({ keepAlive: options.keepAlive ?? false, rejectUnauthorized: !options.allowSelfSigned }),
    validateStatus: () => true,
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    maxRedirects: 0,
    headers: { Accept: 'application/json' },
  });
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
