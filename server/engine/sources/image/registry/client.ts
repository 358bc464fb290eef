// One repository on one registry, for one pull: the v2 API's manifest and blob requests with
// authentication (anonymous, Basic, Bearer tokens from the registry's token service, reused until
// they expire), status codes turned into RegistryErrors in Chinese, and transient failures retried.
import { createHash } from 'node:crypto';

import { pickChallenge, parseChallenges, type Challenge } from './auth.ts';
import { RegistryError, type Secrets } from './errors.ts';
import { Transport, withRetryAfter, type Response } from './http.ts';
import { MANIFEST_ACCEPT } from './manifest.ts';
import { apiHost, formatImageReference, type ImageReference } from './reference.ts';

export interface RegistryAuth {
  username?: string;
  password?: string;
}

export interface ClientOptions {
  auth?: RegistryAuth;
  caPem?: string;
  insecureHttp?: boolean;
  timeoutMs: number;
  signal: AbortSignal;
  secrets: Secrets;
  proxy?: string | null;
}

/** Manifests are small; the distribution registry refuses ones over 4 MiB. */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

interface Token {
  value: string;
  expiresAt: number;
}

export interface FetchedManifest {
  body: Buffer;
  contentType: string | undefined;
  /** sha256 of the body as received. */
  digest: string;
}

export class RegistryClient {
  readonly ref: ImageReference;
  readonly transport: Transport;
  private readonly base: URL;
  private readonly auth: RegistryAuth | undefined;
  private readonly secrets: Secrets;
  private authorization: string | null = null;
  private readonly tokens = new Map<string, Promise<Token>>();

  constructor(ref: ImageReference, options: ClientOptions) {
    this.ref = ref;
    this.secrets = options.secrets;
    const username = options.auth?.username?.trim() ? options.auth.username : undefined;
    this.auth = username || options.auth?.password ? { username: username ?? '', password: options.auth?.password ?? '' } : undefined;
    if (this.auth) {
      this.secrets.add(this.auth.password);
      this.secrets.add(Buffer.from(`${this.auth.username}:${this.auth.password}`).toString('base64'));
    }
    if (options.proxy) {
      try {
        const proxy = new URL(options.proxy);
        this.secrets.add(decodeURIComponent(proxy.password));
        this.secrets.add(proxy.password);
      } catch {
        // refused by the transport below
      }
    }
    this.transport = new Transport(options);
    this.base = new URL(`${options.insecureHttp ? 'http' : 'https'}://${apiHost(ref)}/`);
  }

  close(): void {
    this.transport.close();
  }

  private get name(): string {
    return `${this.ref.registry}/${this.ref.repository}`;
  }

  private url(kind: 'manifests' | 'blobs', reference: string): URL {
    return new URL(`/v2/${this.ref.repository}/${kind}/${reference}`, this.base);
  }

  /** The manifest (or index) for a tag or digest, checked against the digest it is asked by. */
  async manifest(reference: string): Promise<FetchedManifest> {
    return this.transport.retrying(async () => {
      const res = await this.send(this.url('manifests', reference), { Accept: MANIFEST_ACCEPT }, 'manifest');
      if (res.status === 404) {
        res.body.resume();
        const shown = reference.includes(':') ? `${this.name}@${reference}` : `${this.name}:${reference}`;
        throw new RegistryError('not-found', `镜像不存在：${shown}（仓库返回 HTTP 404）`);
      }
      if (res.status !== 200) throw await this.unexpected(res, '镜像清单');
      const body = await this.transport.readBody(res, MAX_MANIFEST_BYTES, '镜像清单');
      const contentType = headerValue(res.headers['content-type']);
      const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
      if (reference.includes(':')) {
        const [alg] = reference.split(':');
        const actual = alg === 'sha256' ? digest : `${alg}:${createHash(alg!).update(body).digest('hex')}`;
        if (actual !== reference) throw new RegistryError('digest', `镜像清单摘要不符：请求的是 ${reference}，收到的内容摘要为 ${actual}`);
      } else {
        const claimed = headerValue(res.headers['docker-content-digest']);
        if (claimed?.startsWith('sha256:') && claimed !== digest) {
          throw new RegistryError('digest', `镜像清单摘要不符：仓库声明 ${claimed}，收到的内容摘要为 ${digest}`);
        }
      }
      return { body, contentType, digest };
    });
  }

  /** The blob's response (200, or 206 when asked `from` a byte; body unread), after redirects to blob storage. */
  async blob(digest: string, label: string, from?: number): Promise<Response> {
    const res = await this.send(this.url('blobs', digest), from ? { Range: `bytes=${from}-` } : {}, 'blob');
    if (res.status === 404) {
      res.body.resume();
      throw new RegistryError('not-found', `${label}（${digest}）在仓库 ${this.name} 中不存在（HTTP 404）`);
    }
    if (res.status !== 200 && !(from && res.status === 206)) throw await this.unexpected(res, label);
    return res;
  }

  /**
   * A request with the credentials this repository needs, answering one 401 challenge. Requests run
   * in parallel: the credentials compared are the ones this request sent, so a token another
   * request has just refreshed is taken up rather than refreshed again.
   */
  private async send(url: URL, headers: Record<string, string>, what: 'manifest' | 'blob'): Promise<Response> {
    const sent = this.authorization;
    let res = await this.transport.request(url, { headers, authorization: sent, what: '仓库' });
    if (res.status === 401) {
      res.body.resume();
      const challenge = pickChallenge(parseChallenges(res.headers['www-authenticate']));
      if (!challenge) throw this.denied(401, null);
      const next = await this.authenticate(challenge, sent);
      if (next === sent) throw this.denied(401, challenge);
      this.authorization = next;
      res = await this.transport.request(url, { headers, authorization: next, what: '仓库' });
      if (res.status === 401) {
        res.body.resume();
        throw this.denied(401, pickChallenge(parseChallenges(res.headers['www-authenticate'])) ?? challenge);
      }
    }
    if (res.status === 403) {
      res.body.resume();
      throw this.denied(403, null, what);
    }
    return res;
  }

  /** The Authorization for `challenge`: Basic credentials, or a token (cached per realm, service and scope; one fetch at a time). */
  private async authenticate(challenge: Challenge, sent: string | null): Promise<string> {
    if (challenge.scheme === 'basic') {
      if (!this.auth) throw this.denied(401, challenge);
      return `Basic ${Buffer.from(`${this.auth.username}:${this.auth.password}`).toString('base64')}`;
    }
    if (challenge.scheme !== 'bearer') {
      throw new RegistryError('auth', `认证失败：仓库 ${this.ref.registry} 要求的认证方式 ${challenge.scheme} 不受支持（支持 Basic 与 Bearer 令牌）`);
    }
    const scopes = new Set([`repository:${this.ref.repository}:pull`]);
    if (challenge.params.scope) for (const s of challenge.params.scope.split(' ')) if (s) scopes.add(s);
    const key = `${challenge.params.realm}\n${challenge.params.service ?? ''}\n${[...scopes].sort().join(' ')}`;
    const cached = this.tokens.get(key);
    if (cached) {
      const token = await cached.catch(() => null);
      if (token && token.expiresAt > Date.now() && `Bearer ${token.value}` !== sent) return `Bearer ${token.value}`;
    }
    let pending = this.tokens.get(key);
    if (!pending || pending === cached) {
      const fetching = this.fetchToken(challenge, [...scopes]);
      fetching.catch(() => {
        if (this.tokens.get(key) === fetching) this.tokens.delete(key);
      });
      this.tokens.set(key, fetching);
      pending = fetching;
    }
    const token = await pending;
    return `Bearer ${token.value}`;
  }

  /** A token from the realm (docker distribution token spec), with the credentials when there are some. */
  private async fetchToken(challenge: Challenge, scopes: string[]): Promise<Token> {
    let realm: URL;
    try {
      realm = new URL(challenge.params.realm!);
    } catch {
      throw new RegistryError('server', `仓库 ${this.ref.registry} 给出的令牌服务地址无效`);
    }
    if (challenge.params.service) realm.searchParams.set('service', challenge.params.service);
    for (const scope of scopes) realm.searchParams.append('scope', scope);
    if (this.auth?.username) realm.searchParams.set('account', this.auth.username);
    const basic = this.auth ? `Basic ${Buffer.from(`${this.auth.username}:${this.auth.password}`).toString('base64')}` : null;
    const started = Date.now();
    const res = await this.transport.retrying(async () => {
      const r = await this.transport.request(realm, { headers: { Accept: 'application/json' }, authorization: basic, what: '令牌服务' });
      if (r.status === 429 || (r.status >= 500 && r.status !== 501 && r.status !== 505)) throw await this.unexpected(r, '令牌服务');
      return r;
    });
    if (res.status === 401 || res.status === 403) {
      res.body.resume();
      throw this.denied(401, challenge);
    }
    if (res.status !== 200) throw await this.unexpected(res, '令牌服务');
    const body = await this.transport.readBody(res, 1024 * 1024, '令牌服务的应答');
    let json: { token?: unknown; access_token?: unknown; expires_in?: unknown };
    try {
      json = JSON.parse(body.toString('utf8')) as typeof json;
    } catch {
      throw new RegistryError('server', `令牌服务 ${realm.host} 的应答不是有效的 JSON`);
    }
    const value = typeof json.token === 'string' && json.token ? json.token : typeof json.access_token === 'string' ? json.access_token : '';
    if (!value) throw new RegistryError('server', `令牌服务 ${realm.host} 的应答中没有令牌`);
    this.secrets.add(value);
    const lifetime = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 60;
    return { value, expiresAt: started + Math.max(0, lifetime - 10) * 1000 };
  }

  private denied(status: 401 | 403, challenge: Challenge | null, what: 'manifest' | 'blob' = 'manifest'): RegistryError {
    if (status === 403) return new RegistryError('auth', `认证失败：没有拉取 ${this.name} 的权限（HTTP 403${what === 'blob' ? '，下载镜像层时' : ''}）`);
    if (!this.auth) {
      const maybeMissing = challenge?.params.error === 'insufficient_scope' ? `；也可能是镜像 ${this.name} 不存在` : '';
      return new RegistryError('auth', `认证失败：仓库 ${this.ref.registry} 要求登录（HTTP 401），请填写用户名和密码${maybeMissing}`);
    }
    const scope = challenge?.params.error === 'insufficient_scope' ? `，或用户无权拉取 ${this.name}（也可能是镜像不存在）` : '';
    return new RegistryError('auth', `认证失败：仓库 ${this.ref.registry} 拒绝了用户“${this.auth.username}”的登录（HTTP 401），请检查用户名和密码${scope}`);
  }

  /** A status we did not expect, as an error naming it and the registry's own error code. */
  private async unexpected(res: Response, what: string): Promise<RegistryError> {
    let detail = '';
    let text = '';
    try {
      text = (await this.transport.readBody(res, 64 * 1024, what)).toString('utf8');
    } catch {
      res.body.destroy();
    }
    if (res.status === 400 && res.url.protocol === 'http:' && /HTTP request to an HTTPS server/i.test(text)) {
      return new RegistryError('tls', `${res.url.host} 只接受 HTTPS：请关闭“允许不安全的 HTTP”（该仓库可能只提供 HTTPS）`);
    }
    try {
      const json = JSON.parse(text) as { errors?: { code?: string; message?: string }[] };
      const first = json.errors?.[0];
      if (first?.code || first?.message) detail = `：${[first.code, first.message].filter(Boolean).join(' ').slice(0, 200)}`;
    } catch {
      // not the registry's JSON error: the status says it
    }
    const status = `HTTP ${res.status}${res.body.statusMessage ? ` ${res.body.statusMessage}` : ''}`;
    const error = new RegistryError('server', `${res.url.host} 在获取${what}时返回 ${status}${this.secrets.redact(detail)}`);
    if (res.status === 429 || (res.status >= 500 && res.status !== 501 && res.status !== 505)) return withRetryAfter(error, res.headers['retry-after']);
    return error;
  }

  describe(): string {
    return formatImageReference(this.ref);
  }
}

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
