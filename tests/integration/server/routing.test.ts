// The envelope around everything that is not a handled call: 501/404, bad input, docs, health.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, useServer } from './harness.ts';

describe.each(databases)('routing and errors on $name', (database) => {
  const server = useServer(database, { bodyLimit: 4096 });
  beforeAll(async () => {
    // Added before the app is ready, to see what an unexpected failure looks like from outside.
    server.app.get('/api/test/boom', async () => { throw new Error('secret internals at /srv/cairn'); });
  });

  it('answers 501 服务未实现 for spec calls not built yet, binary variants and braces included', async () => {
    const client = server.client();
    for (const [method, url] of [
      ['GET', '/api/ssh/list'],
      ['POST', '/api/binary/statistic/project/detectObjectTypeRank'],
      ['POST', '/api/codeSnippetComponent/updateMatchedStatus?page=1&size=15'],
      ['DELETE', '/api/strategy/warning/projects'],
      ['DELETE', '/api/strategy/42'],
      ['PUT', '/api/score/strategy/7'],
    ] as const) {
      const reply = await client.request({ method, url });
      expect(reply.status, `${method} ${url}`).toBe(501);
      expect(reply.body).toEqual({ code: 0, message: '服务未实现', data: null });
    }
  });

  it('answers 404 请求地址出错 for unknown paths and wrong methods', async () => {
    const client = server.client();
    const unknown = await client.request({ method: 'GET', url: '/api/no/such/thing?x=1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 0, message: '请求地址出错 /api/no/such/thing', data: null });
    expect((await client.request({ method: 'GET', url: '/api/csrf' })).status).toBe(404);
    // /api/user/self has no binary variant in the spec.
    expect((await client.request({ method: 'GET', url: '/api/binary/user/self' })).status).toBe(404);
  });

  it('reports health without login', async () => {
    const reply = await server.client().request({ method: 'GET', url: '/api/health' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 1, message: '操作成功', data: { status: 'ok', version: expect.any(String), database: database.name } });
  });

  it('rejects invalid input with 400 and a field-level Chinese message', async () => {
    const client = server.client();
    await client.fetchCsrf();
    const empty = await client.request({ method: 'POST', url: '/api/login', body: { username: '', password: 'x' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ code: 0, message: '请求参数错误：请求体字段 username 长度不能少于 1 个字符', data: null });

    const missing = await client.request({ method: 'POST', url: '/api/login', body: { username: 'a' } });
    expect(missing.body.message).toBe('请求参数错误：请求体缺少必填字段 password');

    const wrongType = await client.request({ method: 'POST', url: '/api/login', body: { username: 'a', password: 5 } });
    expect(wrongType.body.message).toBe('请求参数错误：请求体字段 password 应为字符串');

    const json = await client.request({ method: 'POST', url: '/api/login', body: '{"username":', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ code: 0, message: '请求体不是有效的 JSON', data: null });

    const big = await client.request({ method: 'POST', url: '/api/login', body: { username: 'a', password: 'x'.repeat(10_000) } });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ code: 0, message: '请求体过大', data: null });
  });

  it('answers 500 服务器内部错误 without leaking details', async () => {
    const reply = await server.client().request({ method: 'GET', url: '/api/test/boom' });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ code: 0, message: '服务器内部错误', data: null });
  });

  it('serves the OpenAPI description at /api/docs to signed-in users only', async () => {
    // Anyone else, with no cookie or a forged or ended session, gets the session envelope: the page,
    // its assets and the JSON/YAML description alike.
    const anonymous = server.client();
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/index.html', '/api/docs/static/swagger-ui.css', '/api/docs/json?x=1']) {
      for (const cookie of [undefined, 'cairn_session=forged-token']) {
        const refused = await server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
        expect(refused.statusCode, `${url} ${cookie ?? ''}`).toBe(401);
        expect(refused.json()).toEqual({ code: 3, message: '登录已失效，请重新登录', data: null });
      }
    }
    expect((await anonymous.request({ method: 'GET', url: '/api/docs/json' })).status).toBe(401);
    const client = await adminClient(server);
    const doc = await client.request({ method: 'GET', url: '/api/docs/json' });
    expect(doc.status).toBe(200);
    expect(doc.body).toHaveProperty('openapi');
    const paths = (doc.body as unknown as { paths: Record<string, Record<string, { operationId: string }>> }).paths;
    expect(paths['/api/login']?.post?.operationId).toBe('session.login');
    expect(paths['/api/system/access/allUser/list']?.get).toBeDefined();
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const ui = await server.app.inject({ method: 'GET', url: '/api/docs', headers: { cookie } });
    expect([200, 302]).toContain(ui.statusCode);
    expect((await server.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css', headers: { cookie } })).statusCode).toBe(200);
    // Signed out, the same session no longer opens it.
    await client.request({ method: 'POST', url: '/api/logout' });
    expect((await server.app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie } })).statusCode).toBe(401);
  });
});
