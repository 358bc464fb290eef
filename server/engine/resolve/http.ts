// The one way online resolution talks to a repository: GET with a timeout, a cap on the response
// size, a cap on concurrent requests, Basic credentials when the repository has them, and errors
// worded for the user (Chinese, naming the address without its credentials).

export interface Repository {
  /** Base URL as configured (`https://repo.example.com/maven2/`), no credentials in it. */
  url: string;
  username?: string;
  password?: string;
  /** What the problems call it: the configured name, else the host. */
  name?: string;
}

export interface ResolveLimits {
  /** Per request, milliseconds. */
  timeoutMs: number;
  /** Largest response body read, bytes. */
  maxResponseBytes: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Packages resolved per manifest, beyond which the rest is left out (and said). */
  maxPackages: number;
  /** Depth of the dependency tree below the manifest. */
  maxDepth: number;
}

export const DEFAULT_LIMITS: ResolveLimits = {
  timeoutMs: 15_000,
  maxResponseBytes: 8 * 1024 * 1024,
  concurrency: 8,
  maxPackages: 2_000,
  maxDepth: 30,
};

export class FetchError extends Error {
  readonly status?: number;

  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** The repository as a user reads it in a message: its name, else its address without credentials. */
export function repositoryLabel(repo: Repository): string {
  if (repo.name) return repo.name;
  try {
    const url = new URL(repo.url);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return repo.url;
  }
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  const name = (error as Error).name;
  if (name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT') return '连接超时';
  if (code === 'ECONNREFUSED') return '连接被拒绝';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '无法解析主机名';
  if (code === 'ECONNRESET') return '连接被重置';
  if (code && /CERT|SSL|TLS/i.test(code)) return '证书校验失败';
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A bounded HTTP client of one analysis: requests share the concurrency cap and the abort signal. */
export class RepoClient {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Requests made, for the closing note. */
  requests = 0;

  readonly limits: ResolveLimits;
  private readonly signal: AbortSignal;

  constructor(limits: ResolveLimits, signal: AbortSignal) {
    this.limits = limits;
    this.signal = signal;
  }

  private async slot(): Promise<() => void> {
    if (this.active >= this.limits.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    return () => {
      this.active--;
      this.waiting.shift()?.();
    };
  }

  /**
   * The body of `url` as text; `undefined` for 404/410 (the caller words what is missing). Throws
   * FetchError with a Chinese reason for the rest (timeouts, refusals, oversized bodies).
   */
  async text(repo: Repository, url: string, accept?: string): Promise<string | undefined> {
    this.signal.throwIfAborted();
    const release = await this.slot();
    try {
      this.requests++;
      const headers: Record<string, string> = { 'user-agent': 'Cairn-resolver' };
      if (accept) headers.accept = accept;
      if (repo.username || repo.password) headers.authorization = `Basic ${Buffer.from(`${repo.username ?? ''}:${repo.password ?? ''}`).toString('base64')}`;
      let response: Response;
      try {
        response = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.any([this.signal, AbortSignal.timeout(this.limits.timeoutMs)]) });
      } catch (error) {
        this.signal.throwIfAborted();
        throw new FetchError(`无法连接：${reasonOf(error)}`);
      }
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return undefined;
      }
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        throw new FetchError(`仓库拒绝访问（HTTP ${response.status}），请检查用户名和密码`, response.status);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new FetchError(`仓库返回错误（HTTP ${response.status}）`, response.status);
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > this.limits.maxResponseBytes) {
        await response.body?.cancel();
        throw new FetchError(`响应过大（${declared} 字节，上限 ${this.limits.maxResponseBytes} 字节）`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body ?? []) {
          size += (chunk as Uint8Array).byteLength;
          if (size > this.limits.maxResponseBytes) throw new FetchError(`响应过大（超过 ${this.limits.maxResponseBytes} 字节）`);
          chunks.push(Buffer.from(chunk as Uint8Array));
        }
      } catch (error) {
        if (error instanceof FetchError) throw error;
        this.signal.throwIfAborted();
        throw new FetchError(`读取响应失败：${reasonOf(error)}`);
      }
      return Buffer.concat(chunks).toString('utf8');
    } finally {
      release();
    }
  }
}

/** `base` + `relative`, with exactly one `/` between (base paths keep their own segments). */
export function joinUrl(base: string, relative: string): string {
  return `${base.replace(/\/+$/, '')}/${relative.replace(/^\/+/, '')}`;
}
