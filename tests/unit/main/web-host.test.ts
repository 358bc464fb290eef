import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../main/ipc/dispatcher.ts';
import { createHandlers } from '../../../main/ipc/handlers.ts';
import { createAppServices, type AppServices } from '../../../main/services/app-services.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { createVault } from '../../../main/services/vault.ts';
import { DESKTOP_SCRIPT_TAG, LAUNCH_COOKIE, injectDesktopScript, startWebHost, type WebHost } from '../../../main/web-host/host.ts';
import { fakePlatform, memoryKeyring } from './fakes.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: { Host: `127.0.0.1:${port}`, ...options.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('web host', () => {
  let dir: string;
  let host: WebHost;
  let services: AppServices;
  let cookie: string;
  const token = 'launch-token-for-tests';

  const invoke = (channel: string, payload: unknown, headers: Record<string, string> = {}) =>
    request(host.port, { method: 'POST', path: `/__desktop/invoke/${channel}`, headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: host.origin, ...headers }, body: JSON.stringify(payload) });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-web-'));
    const renderer = path.join(dir, 'renderer');
    mkdirSync(path.join(renderer, 'assets'), { recursive: true });
    writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><html><head><title>Cairn</title><script type="module" crossorigin src="./assets/index-abc.js"></script></head><body><div id="root"></div></body></html>');
    writeFileSync(path.join(renderer, 'assets', 'index-abc.js'), 'console.log("app")');
    writeFileSync(path.join(renderer, 'assets', 'style.css'), 'body{}');
    writeFileSync(path.join(dir, 'secret.txt'), 'TOP SECRET');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(renderer, 'assets', 'link.txt'));
    writeFileSync(path.join(dir, 'desktop.js'), 'window.desktop={}');
    services = createAppServices({ shell: 'web', version: '0.1.0', dataDir: dir, store: createMemoryStore(), vault: createVault({ backend: memoryKeyring() }), platform: fakePlatform('http://127.0.0.1:9') });
    host = await startWebHost({
      dispatcher: createDispatcher(createHandlers(services), { checkResponses: true }),
      onEvent: (listener) => services.onEvent(listener),
      rendererDir: renderer,
      desktopScript: path.join(dir, 'desktop.js'),
      launchToken: token,
    });
  });
  afterAll(async () => {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and gives a launch URL with the token', () => {
    expect(host.launchUrl).toBe(`http://127.0.0.1:${host.port}/?launch=${token}`);
  });

  it('without the launch cookie: the page explains itself and the bridge answers 403', async () => {
    const page = await request(host.port, { path: '/' });
    expect(page.status).toBe(403);
    expect(page.body).toContain('请使用启动链接打开 Cairn');
    expect(page.headers['content-type']).toContain('text/html');
    const call = await request(host.port, { method: 'POST', path: '/__desktop/invoke/app:info', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(call.status).toBe(403);
    expect(JSON.parse(call.body)).toMatchObject({ ok: false, error: { code: 'forbidden-sender' } });
    expect((await request(host.port, { path: '/assets/index-abc.js' })).status).toBe(403);
    expect((await request(host.port, { path: '/__desktop/events' })).status).toBe(403);
  });

  it('a wrong token gets 403 and no cookie', async () => {
    const wrong = await request(host.port, { path: '/?launch=wrong' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toContain('启动令牌无效');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('the right token sets an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    // A HEAD (a link checker, a preview) neither signs in nor uses the link up.
    const head = await request(host.port, { method: 'HEAD', path: `/?launch=${token}` });
    expect(head.status).toBe(204);
    expect(head.headers['set-cookie']).toBeUndefined();
    const ok = await request(host.port, { path: `/?launch=${token}` });
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('/');
    const setCookie = ok.headers['set-cookie']![0]!;
    expect(setCookie).toMatch(new RegExp(`^${LAUNCH_COOKIE}=[^;]+; Path=/; HttpOnly; SameSite=Strict$`));
    expect(setCookie).not.toContain(token);
    cookie = setCookie.split(';')[0]!;
  });

  it('the launch URL works once: a second browser gets a page saying so, no cookie, no bridge', async () => {
    for (const method of ['GET', 'HEAD']) {
      const again = await request(host.port, { method, path: `/?launch=${token}` });
      expect(again.status, method).toBe(403);
      expect(again.headers['set-cookie'], method).toBeUndefined();
      if (method === 'GET') {
        expect(again.headers['content-type']).toContain('text/html');
        expect(again.body).toContain('启动链接已被使用');
        expect(again.body).toContain('npm run web');
      }
    }
    // Without the first browser's cookie there is still no app and no bridge.
    expect((await request(host.port, { path: '/' })).body).toContain('请使用启动链接打开 Cairn');
    expect((await request(host.port, { method: 'POST', path: '/__desktop/invoke/app:info', headers: { 'Content-Type': 'application/json', Origin: host.origin }, body: '{}' })).status).toBe(403);
    // A cookie of its own making does not help either.
    expect((await invoke('app:info', {}, { Cookie: `${LAUNCH_COOKIE}=${token}` })).status).toBe(403);
  });

  it('the first browser keeps working: its bridge, a reload, and the launch URL opened again', async () => {
    expect(JSON.parse((await invoke('app:info', {})).body)).toMatchObject({ ok: true, value: { shell: 'web' } });
    const reload = await request(host.port, { path: '/', headers: { Cookie: cookie } });
    expect(reload.status).toBe(200);
    expect(reload.body).toContain(DESKTOP_SCRIPT_TAG);
    // The terminal's link clicked again in the same browser: straight to the app, the cookie unchanged.
    const reopened = await request(host.port, { path: `/?launch=${token}`, headers: { Cookie: cookie } });
    expect(reopened.status).toBe(302);
    expect(reopened.headers.location).toBe('/');
    expect(reopened.headers['set-cookie']).toBeUndefined();
    expect(JSON.parse((await invoke('profiles:list', {})).body)).toMatchObject({ ok: true });
  });

  it('serves index.html with the bridge script injected before the app, and a strict CSP', async () => {
    const page = await request(host.port, { path: '/', headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body.indexOf(DESKTOP_SCRIPT_TAG)).toBeGreaterThan(0);
    expect(page.body.indexOf(DESKTOP_SCRIPT_TAG)).toBeLessThan(page.body.indexOf('index-abc.js'));
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const script = await request(host.port, { path: '/__desktop/desktop.js', headers: { Cookie: cookie } });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('serves static files with their types and falls back to index.html for routes', async () => {
    const js = await request(host.port, { path: '/assets/index-abc.js', headers: { Cookie: cookie } });
    expect([js.status, js.headers['content-type'], js.body]).toEqual([200, 'text/javascript; charset=utf-8', 'console.log("app")']);
    expect((await request(host.port, { path: '/assets/style.css', headers: { Cookie: cookie } })).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await request(host.port, { path: '/project/list', headers: { Cookie: cookie } })).body).toContain(DESKTOP_SCRIPT_TAG);
    expect((await request(host.port, { path: '/assets/missing.js', headers: { Cookie: cookie } })).status).toBe(404);
  });

  it('refuses path traversal and symlinks out of the renderer directory', async () => {
    for (const p of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..\\secret.txt', '/assets/link.txt', '/%00index.html']) {
      const answer = await request(host.port, { path: p, headers: { Cookie: cookie } });
      expect(answer.body, p).not.toContain('TOP SECRET');
      expect([403, 404], p).toContain(answer.status);
    }
  });

  it('checks the Host header (DNS rebinding) and the Origin', async () => {
    const rebound = await request(host.port, { path: '/', headers: { Host: 'evil.example:80', Cookie: cookie } });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('127.0.0.1');
    expect((await request(host.port, { path: '/', headers: { Host: `localhost:${host.port}`, Cookie: cookie } })).status).toBe(200);
    expect((await invoke('app:info', {}, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await invoke('app:info', {}, { Origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await invoke('app:info', {}, { 'Sec-Fetch-Site': 'same-site' })).status).toBe(403);
  });

  it('bridges invokes to the dispatcher: app:info and profiles:list', async () => {
    const info = await invoke('app:info', {});
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toEqual({ ok: true, value: { version: '0.1.0', shell: 'web', platform: process.platform, dataDir: dir } });
    const list = JSON.parse((await invoke('profiles:list', {}, { 'Sec-Fetch-Site': 'same-origin' })).body);
    expect(list).toMatchObject({ ok: true, value: { activeId: 'local', profiles: [{ id: 'local', name: '本机' }] } });
    expect(JSON.parse((await invoke('profiles:add', { name: '' })).body)).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(JSON.parse((await invoke('nope:nope', {})).body)).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    const notJson = await request(host.port, { method: 'POST', path: '/__desktop/invoke/app:info', headers: { Cookie: cookie, 'Content-Type': 'text/plain' }, body: '{}' });
    expect(notJson.status).toBe(415);
  });

  it('streams contract events over SSE', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: host.port, path: '/__desktop/events', headers: { Host: `127.0.0.1:${host.port}`, Cookie: cookie }, agent: false }, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream');
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('profiles:changed')) {
            req.destroy();
            resolve(text);
          }
        });
        setTimeout(() => services.profiles.add({ name: 'SSE', url: 'https://sse.example' }), 50);
      });
      req.on('error', (err) => (err.message.includes('aborted') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
      req.end();
    });
    const line = received.split('\n').find((l) => l.startsWith('data: '))!;
    expect(JSON.parse(line.slice(6))).toMatchObject({ channel: 'profiles:changed', payload: { profiles: [{ id: 'local' }, { name: 'SSE' }] } });
  });
});

describe('injectDesktopScript', () => {
  it('puts the bridge before the first script, or before </head>', () => {
    expect(injectDesktopScript('<head><script src="a.js"></script></head>')).toBe(`<head>${DESKTOP_SCRIPT_TAG}\n    <script src="a.js"></script></head>`);
    expect(injectDesktopScript('<head><title>x</title></head>')).toBe(`<head><title>x</title>${DESKTOP_SCRIPT_TAG}\n</head>`);
    const once = injectDesktopScript('<head><script></script></head>');
    expect(injectDesktopScript(once)).toBe(once);
  });
});
