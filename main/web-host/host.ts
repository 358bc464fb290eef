// The web host's HTTP server: the built renderer and the `window.desktop` bridge, served to a
// browser on loopback only. Everything a page could do through the bridge (sign in, call the
// platform, read profiles) is behind a per-launch token: the terminal prints a URL carrying it,
// visiting that URL swaps it for an HttpOnly SameSite=Strict cookie. The URL works once: the
// bridge stays bound to the first browser, and a second one (or anyone who read the URL from a
// history or a log) gets a page saying so. Host and Origin headers are checked so that a web page
// elsewhere cannot reach the bridge, even through DNS rebinding.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IpcResult } from '../../contract/ipc/desktop-contract.ts';
import type { Dispatcher } from '../ipc/dispatcher.ts';
import { ipcError } from '../ipc/dispatcher.ts';
import { SECURITY_HEADERS, readStatic } from '../static-files.ts';
import { stageFile } from './staging.ts';

const LAUNCH_PARAM = 'launch';
export const LAUNCH_COOKIE = 'cairn_web_launch';
const BRIDGE_PREFIX = '/__desktop/';
const DESKTOP_SCRIPT_PATH = '/__desktop/desktop.js';
/** Raw body = one browser file; ?batch=<uuid>&path=<name or folder/relative/path>. */
export const STAGE_PATH = '/__desktop/files';
export const DESKTOP_SCRIPT_TAG = `<script src="${DESKTOP_SCRIPT_PATH}"></script>`;
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface WebHostOptions {
  dispatcher: Dispatcher;
  /** Subscribe to contract events (forwarded to pages over SSE). */
  onEvent: (listener: (channel: string, payload: unknown) => void) => () => void;
  /** dist/renderer */
  rendererDir: string;
  /** dist/web/desktop.js (the bundled preload/web.ts) */
  desktopScript: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Fixed in tests; random per launch otherwise. */
  launchToken?: string;
  /**
   * Where files the page hands over for upload are staged (POST /__desktop/files). The browser
   * has no local paths: the page streams each File here, then starts the upload of the staged
   * path through `uploads:start` like the desktop app does with a real path: each staged path is
   * added to the dispatcher's chosen paths, the only ones a call may name. Unset: refused.
   */
  stageDir?: string;
  log?: (message: string) => void;
}

export interface WebHost {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The URL to open: origin + /?launch=TOKEN */
  launchUrl: string;
  close(): Promise<void>;
}

/** Insert the bridge script before the first script of the page, so `window.desktop` exists when the app starts. */
export function injectDesktopScript(html: string): string {
  if (html.includes(DESKTOP_SCRIPT_TAG)) return html;
  const at = html.search(/<script\b/i);
  if (at >= 0) return `${html.slice(0, at)}${DESKTOP_SCRIPT_TAG}\n    ${html.slice(at)}`;
  const head = html.search(/<\/head>/i);
  if (head >= 0) return `${html.slice(0, head)}${DESKTOP_SCRIPT_TAG}\n${html.slice(head)}`;
  return DESKTOP_SCRIPT_TAG + html;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (given: string | null | undefined, secret: string): boolean => typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));

function cookieValue(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,"Noto Sans CJK SC","Microsoft YaHei",sans-serif;max-width:40rem;margin:15vh auto;padding:0 1.5rem;color:#1c2127;line-height:1.7}h1{font-size:1.4rem}code{background:#f0f2f5;padding:.1rem .3rem;border-radius:3px}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;
}

const NEED_TOKEN_PAGE = page(
  '请使用启动链接打开 Cairn',
  '<p>Cairn 网页模式只接受从启动它的终端中打开的链接。请复制终端里“Cairn 网页模式已启动：”后面的完整地址（包含 <code>?launch=</code> 启动令牌），在浏览器中打开。</p><p>令牌在每次启动时重新生成；重新启动网页模式后，请使用新的链接。</p>',
);
const BAD_TOKEN_PAGE = page('启动令牌无效', '<p>该链接中的启动令牌不正确或已过期（网页模式每次启动都会生成新的令牌）。请使用终端中最新打印的链接。</p>');
const USED_TOKEN_PAGE = page(
  '启动链接已被使用',
  '<p>这个启动链接只能使用一次，它已经在另一个浏览器（或浏览器窗口）中打开过了。为了保护已登录的会话，Cairn 网页模式只与最先打开它的那个浏览器相连：请回到那个浏览器继续使用。</p><p>如需在这个浏览器中使用，请在运行网页模式的终端按 <code>Ctrl+C</code> 停止，再重新运行 <code>npm run web</code>，然后打开终端中新打印的链接。</p>',
);
const NOT_BUILT_PAGE = page('界面尚未构建', '<p>未找到 <code>dist/renderer/index.html</code>。请先运行 <code>npm run build renderer</code>，或直接使用 <code>npm run web</code>（会自动构建）。</p>');

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const launchToken = options.launchToken ?? randomBytes(24).toString('base64url');
  // The cookie carries a different secret than the URL: a token seen in history or a log is
  // not itself a session.
  const cookieSecret = randomBytes(32).toString('base64url');
  const log = options.log ?? (() => {});
  // Set once a browser has been given the cookie: the launch URL does not sign in a second one.
  let launchUsed = false;
  const streams = new Set<ServerResponse>();
  let port = 0;

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
    res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': 'no-store', ...extra });
    res.end(body);
  }
  const sendJson = (res: ServerResponse, status: number, value: IpcResult<unknown>) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
  const sendHtml = (res: ServerResponse, status: number, html: string) => send(res, status, 'text/html; charset=utf-8', html);
  const sendText = (res: ServerResponse, status: number, text: string) => send(res, status, 'text/plain; charset=utf-8', text);

  async function readBody(req: IncomingMessage): Promise<string | null> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return null;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handleInvoke(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return sendJson(res, 415, ipcError('invalid-payload', '请求内容类型必须是 application/json'));
    }
    const text = await readBody(req);
    if (text === null) return sendJson(res, 413, ipcError('invalid-payload', '请求体过大'));
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      return sendJson(res, 400, ipcError('invalid-payload', '请求体不是有效的 JSON'));
    }
    sendJson(res, 200, await options.dispatcher.dispatch(channel, payload));
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.write('retry: 3000\n\n');
    streams.add(res);
    const ping = setInterval(() => res.write(': ping\n\n'), 25_000);
    req.on('close', () => {
      clearInterval(ping);
      streams.delete(res);
    });
  }

  async function handleStatic(res: ServerResponse, pathname: string, head: boolean): Promise<void> {
    const found = await readStatic(options.rendererDir, pathname);
    if (!found) {
      const index = await readStatic(options.rendererDir, '/index.html');
      return index ? sendText(res, 404, `请求地址出错: ${pathname.slice(0, 200)}`) : sendHtml(res, 503, NOT_BUILT_PAGE);
    }
    const isHtml = found.type.startsWith('text/html');
    const body = isHtml ? Buffer.from(injectDesktopScript(found.body.toString('utf8'))) : found.body;
    // Hashed assets may be cached; the HTML (which names them) never is.
    const cache = !isHtml && pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-store';
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': found.type, 'Content-Length': String(body.length), 'Cache-Control': cache });
    res.end(head ? undefined : body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a hostile name resolving to 127.0.0.1 arrives with its own Host header.
    if (!allowedHosts().has(req.headers.host ?? '')) return sendText(res, 403, '拒绝访问：只接受通过 127.0.0.1 或 localhost 的访问');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) return sendText(res, 403, '拒绝访问：请求来源不受信任');

    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const method = req.method ?? 'GET';
    const authenticated = sameSecret(cookieValue(req, LAUNCH_COOKIE), cookieSecret);

    if (url.pathname === '/' && url.searchParams.has(LAUNCH_PARAM) && (method === 'GET' || method === 'HEAD')) {
      if (!sameSecret(url.searchParams.get(LAUNCH_PARAM), launchToken)) return sendHtml(res, 403, BAD_TOKEN_PAGE);
      // The browser that used it opens it again (the terminal's link clicked twice): just the app.
      if (authenticated) return send(res, 302, 'text/plain; charset=utf-8', '', { Location: '/' });
      if (launchUsed) {
        log('启动链接已被使用过，拒绝了又一次使用（网页模式只与最先打开它的浏览器相连）');
        return sendHtml(res, 403, USED_TOKEN_PAGE);
      }
      // A HEAD (a link checker, a preview) neither signs in nor uses the link up.
      if (method === 'HEAD') return send(res, 204, 'text/plain; charset=utf-8', '');
      launchUsed = true;
      return send(res, 302, 'text/plain; charset=utf-8', '', {
        'Set-Cookie': `${LAUNCH_COOKIE}=${cookieSecret}; Path=/; HttpOnly; SameSite=Strict`,
        Location: '/',
      });
    }

    if (url.pathname.startsWith(BRIDGE_PREFIX)) {
      // The bridge only answers our own pages: cookie, plus same-origin fetch metadata when the browser sends it.
      const site = req.headers['sec-fetch-site'];
      if (!authenticated || (site !== undefined && site !== 'same-origin')) {
        return sendJson(res, 403, ipcError('forbidden-sender', '拒绝访问：请使用终端中打印的启动链接打开 Cairn 网页模式'));
      }
      if (url.pathname.startsWith('/__desktop/invoke/')) {
        if (method !== 'POST') return sendJson(res, 405, ipcError('invalid-payload', '只接受 POST 请求'));
        let channel: string;
        try {
          channel = decodeURIComponent(url.pathname.slice('/__desktop/invoke/'.length));
        } catch {
          return sendJson(res, 400, ipcError('unknown-channel', '未知的调用'));
        }
        return handleInvoke(req, res, channel);
      }
      if (url.pathname === '/__desktop/events' && method === 'GET') return handleEvents(req, res);
      if (url.pathname === STAGE_PATH) {
        if (method !== 'POST') return sendJson(res, 405, ipcError('invalid-payload', '只接受 POST 请求'));
        if (!options.stageDir) return sendJson(res, 404, ipcError('unknown-channel', '未启用文件暂存'));
        const staged = await stageFile(options.stageDir, url.searchParams.get('batch'), url.searchParams.get('path'), req);
        // What the page staged is what its user chose: the one kind of path a call may name here.
        if (staged.ok) options.dispatcher.chosenPaths.add(staged.value.path);
        return sendJson(res, staged.ok ? 200 : 400, staged);
      }
      if (url.pathname === DESKTOP_SCRIPT_PATH && (method === 'GET' || method === 'HEAD')) {
        const script = await readFile(options.desktopScript).catch(() => null);
        if (!script) return sendText(res, 503, '未找到 dist/web/desktop.js，请先运行 npm run build web');
        return send(res, 200, 'text/javascript; charset=utf-8', method === 'HEAD' ? '' : script);
      }
      return sendText(res, 404, `请求地址出错: ${url.pathname.slice(0, 200)}`);
    }

    if (method !== 'GET' && method !== 'HEAD') return sendText(res, 405, '不支持的请求方法');
    if (!authenticated) return sendHtml(res, 403, NEED_TOKEN_PAGE);
    return handleStatic(res, url.pathname, method === 'HEAD');
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`网页模式请求出错：${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (!res.headersSent) sendText(res, 500, '服务器内部错误');
      else res.end();
    });
  });
  server.headersTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only, never 0.0.0.0: the bridge holds the user's platform sessions.
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  const unsubscribe = options.onEvent((channel, payload) => {
    const frame = `data: ${JSON.stringify({ channel, payload })}\n\n`;
    for (const stream of streams) stream.write(frame);
  });

  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    launchUrl: `${origin}/?${LAUNCH_PARAM}=${launchToken}`,
    async close() {
      unsubscribe();
      for (const stream of streams) stream.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
