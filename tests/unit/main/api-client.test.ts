import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, serializeQuery } from '../../../main/services/api-client.ts';
import { json, tinyServer, type Route } from './fakes.ts';

type Server = Awaited<ReturnType<typeof tinyServer>>;

/** A platform stand-in: CSRF like the real one (token bound to a cookie), a few routes. */
function platformRoute(state: { token: string; session: string | null; rotateCsrf?: boolean }): Route {
  return (req, res) => {
    const cookies = Object.fromEntries((req.headers.cookie ?? '').split(';').filter(Boolean).map((c) => c.trim().split('=') as [string, string]));
    const path = req.url.split('?')[0];
    if (path === '/api/csrf') {
      if (state.rotateCsrf) state.token = `t${Math.random()}`;
      return json(res, 200, { code: 1, message: 'ok', data: { token: state.token, header: 'x-csrf-token' } }, { 'Set-Cookie': `cairn_csrf=${state.token}; Path=/; HttpOnly; SameSite=Strict` });
    }
    if (req.method !== 'GET' && (req.headers['x-csrf-token'] !== state.token || cookies.cairn_csrf !== state.token)) {
      return json(res, 403, { code: 0, message: 'CSRF 令牌无效或已过期，请刷新页面后重试', data: null });
    }
    if (path === '/api/login') {
      const body = JSON.parse(req.body) as { username: string; password: string };
      if (body.password !== 'right') return json(res, 200, { code: 0, message: '用户名或密码错误', data: null });
      state.session = 'S1';
      return json(res, 200, { code: 1, message: '登录成功', data: { username: body.username } }, { 'Set-Cookie': 'cairn_session=S1; Path=/; HttpOnly; SameSite=Strict' });
    }
    if (path === '/api/user/self') {
      if (!state.session || cookies.cairn_session !== state.session) return json(res, 401, { code: 3, message: '登录已失效，请重新登录', data: null });
      return json(res, 200, { code: 1, message: 'ok', data: { username: 'admin' } });
    }
    if (path === '/api/echo') return json(res, 200, { code: 1, message: 'ok', data: { method: req.method, query: req.url.split('?')[1] ?? '', body: req.body ? JSON.parse(req.body) : null } });
    if (path === '/api/envelope-3') return json(res, 200, { code: 3, message: '', data: null });
    if (path === '/api/denied') return json(res, 403, { code: 0, message: 'Permission denied', data: null });
    if (path === '/api/err-message') return json(res, 500, { errMessage: '数据库不可用' });
    if (path === '/api/fail-empty') return json(res, 200, { code: 0, message: '', data: null });
    if (path === '/api/fail-field') return json(res, 200, { code: 0, message: '名称已存在', data: null, field: 'subjectTypeName' });
    if (path === '/api/html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end('<html></html>');
    }
    const status = Number(/^\/api\/status\/(\d+)$/.exec(path ?? '')?.[1] ?? 404);
    res.writeHead(status, { 'Content-Type': 'text/plain' });
    res.end('nope');
  };
}

describe('api client', () => {
  let server: Server;
  let state: { token: string; session: string | null; rotateCsrf?: boolean };
  let expired: string[];
  let client: ReturnType<typeof createApiClient>;

  beforeEach(async () => {
    state = { token: 'T1', session: null };
    server = await tinyServer(platformRoute(state));
    expired = [];
    client = createApiClient({ baseUrl: () => server.url, onExpired: (m) => expired.push(m), timeoutMs: 2_000 });
  });
  afterEach(() => server.close());

  it('returns the envelope of a successful call, with query and body', async () => {
    const env = await client.call({ method: 'POST', path: '/api/echo', query: { page: 1, ids: [3, 4], q: '中 文' }, body: { a: 1 } });
    expect(env).toEqual({ code: 1, message: 'ok', data: { method: 'POST', query: 'page=1&ids=3&ids=4&q=%E4%B8%AD+%E6%96%87', body: { a: 1 } } });
  });

  it('sends the CSRF header on state-changing calls only, fetching the token once', async () => {
    await client.call({ method: 'GET', path: '/api/echo' });
    await client.call({ method: 'POST', path: '/api/echo' });
    await client.call({ method: 'DELETE', path: '/api/echo' });
    const seen = server.requests.map((r) => `${r.method} ${r.url.split('?')[0]} ${r.headers['x-csrf-token'] ?? '-'}`);
    expect(seen).toEqual(['GET /api/echo -', 'POST /api/csrf -', 'POST /api/echo T1', 'DELETE /api/echo T1']);
    // A body-less POST carries no Content-Type (axios would default to form encoding, which Fastify refuses).
    expect(server.requests[1]!.headers['content-type']).toBeUndefined();
  });

  it('refetches the CSRF token once when the platform rejects it', async () => {
    await client.call({ method: 'POST', path: '/api/echo' });
    state.token = 'T2'; // the platform forgot the old token
    const env = await client.call({ method: 'PUT', path: '/api/echo' });
    expect(env.code).toBe(1);
    const seen = server.requests.map((r) => `${r.method} ${r.url} ${r.headers['x-csrf-token'] ?? '-'}`);
    expect(seen.slice(2)).toEqual(['PUT /api/echo T1', 'POST /api/csrf -', 'PUT /api/echo T2']);
  });

  it('gives up after one CSRF retry with the server message', async () => {
    state.rotateCsrf = true; // every token is stale by the time it is used
    server.route = (req, res) => {
      if (req.url === '/api/csrf') return platformRoute(state)(req, res);
      return json(res, 403, { code: 0, message: 'CSRF 令牌无效或已过期，请刷新页面后重试', data: null });
    };
    const env = await client.call({ method: 'POST', path: '/api/echo' });
    expect(env).toEqual({ code: 0, message: 'CSRF 令牌无效或已过期，请刷新页面后重试', data: null });
    expect(server.requests.filter((r) => r.url === '/api/echo')).toHaveLength(2);
  });

  it('keeps the session cookie and uses it; code 3 emits session:expired and drops the session', async () => {
    expect(await client.call({ method: 'POST', path: '/api/login', body: { username: 'admin', password: 'right' } })).toMatchObject({ code: 1 });
    expect(await client.call({ method: 'GET', path: '/api/user/self' })).toEqual({ code: 1, message: 'ok', data: { username: 'admin' } });
    state.session = 'S2'; // the platform ended the session
    const env = await client.call({ method: 'GET', path: '/api/user/self' });
    expect(env).toEqual({ code: 3, message: '登录已失效，请重新登录', data: null });
    expect(expired).toEqual(['登录已失效，请重新登录']);
    expect(await client.jar.getCookieString(server.url)).toBe('');
  });

  it('treats a code-3 envelope with 用户名或密码错误 as a failed login, not an expiry', async () => {
    server.route = (_req, res) => json(res, 200, { code: 3, message: '用户名或密码错误', data: null });
    const env = await client.call({ method: 'GET', path: '/api/x' });
    expect(env).toEqual({ code: 3, message: '用户名或密码错误', data: null });
    expect(expired).toEqual([]);
  });

  it('does not expire on calls that opt out (the login call)', async () => {
    const env = await client.call({ method: 'GET', path: '/api/user/self' }, { expireSession: false });
    expect(env.code).toBe(3);
    expect(expired).toEqual([]);
  });

  it('a code-3 envelope without message expires with the fallback message', async () => {
    const env = await client.call({ method: 'GET', path: '/api/envelope-3' });
    expect(env.code).toBe(3);
    expect(expired).toEqual(['请求失败，请稍后重试']);
  });

  it('maps HTTP statuses to the spec catalogue', async () => {
    const cases: Array<[number, string]> = [
      [400, '请求错误'], [403, '拒绝访问'], [408, '请求超时'], [500, '服务器内部错误'], [501, '服务未实现'],
      [502, '网关错误'], [503, '服务不可用'], [504, '网关超时'], [505, 'HTTP版本不受支持'], [418, '请求失败，请重试！'],
    ];
    for (const [status, message] of cases) {
      expect(await client.call({ method: 'GET', path: `/api/status/${status}` }), String(status)).toEqual({ code: 0, message, data: null });
    }
    expect((await client.call({ method: 'GET', path: '/api/missing' })).message).toBe(`请求地址出错: ${server.url}/api/missing`);
    const unauthorized = await client.call({ method: 'GET', path: '/api/status/401' });
    expect(unauthorized).toEqual({ code: 3, message: '未授权，请登录', data: null });
    expect(expired).toEqual(['未授权，请登录']);
  });

  it('prefers the server message, and shows Permission denied as 用户无权查看当前项目', async () => {
    expect(await client.call({ method: 'GET', path: '/api/err-message' })).toEqual({ code: 0, message: '数据库不可用', data: null });
    expect(await client.call({ method: 'GET', path: '/api/denied' })).toEqual({ code: 0, message: '用户无权查看当前项目', data: null });
    expect(await client.call({ method: 'GET', path: '/api/fail-empty' })).toEqual({ code: 0, message: '请求失败，请稍后重试', data: null });
    expect((await client.call({ method: 'GET', path: '/api/html' })).message).toBe('平台返回了无法识别的应答');
  });

  it('never throws: network failures become envelopes with a Chinese message', async () => {
    await server.close();
    const env = await client.call({ method: 'GET', path: '/api/echo' });
    expect(env.code).toBe(0);
    expect(env.message).toContain('无法连接');
    const post = await client.call({ method: 'POST', path: '/api/echo' });
    expect(post.message).toContain('无法连接');
  });

  it('passes on the field a failure names, and no field where none is named', async () => {
    expect(await client.call({ method: 'GET', path: '/api/fail-field' })).toEqual({ code: 0, message: '名称已存在', data: null, field: 'subjectTypeName' });
    expect(await client.call({ method: 'GET', path: '/api/fail-empty' })).not.toHaveProperty('field');
  });

  it('times out with a clear message', async () => {
    server.route = () => {};
    const slow = createApiClient({ baseUrl: () => server.url, timeoutMs: 200 });
    const env = await slow.call({ method: 'GET', path: '/api/echo' });
    expect(env.message).toContain('超时');
  });

  it('answers "not ready" while the platform has no URL', async () => {
    const idle = createApiClient({ baseUrl: () => null, notReadyMessage: () => '本机平台正在启动，请稍候再试' });
    expect(await idle.call({ method: 'GET', path: '/api/echo' })).toEqual({ code: 0, message: '本机平台正在启动，请稍候再试', data: null });
  });
});

describe('serializeQuery', () => {
  it('repeats keys for arrays', () => {
    expect(serializeQuery({ a: [1, 'x'], b: true, c: 0 })).toBe('a=1&a=x&b=true&c=0');
    expect(serializeQuery(undefined)).toBe('');
  });
});
