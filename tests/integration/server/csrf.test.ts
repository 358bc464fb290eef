// CSRF: every state-changing call needs the x-csrf-token header bound to the browser's cookie.
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, databases, useServer } from './harness.ts';

const CSRF_MESSAGE = 'CSRF 令牌无效或已过期，请刷新页面后重试';

describe.each(databases)('CSRF on $name', (database) => {
  const server = useServer(database);
  beforeAll(async () => {
    await server.addUser('alice', 'Alice@1234');
  });

  it('issues a token bound to an HttpOnly, SameSite=Strict cookie', async () => {
    const client = server.client();
    const reply = await client.request({ method: 'POST', url: '/api/csrf' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ code: 1, data: { header: 'x-csrf-token' } });
    expect(reply.body.data.token).toMatch(/^[\w-]{40,}$/);
    const cookie = reply.setCookies.find((c) => c.startsWith('cairn_csrf='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
  });

  it('refuses login without a token, with a wrong token, or with another browser\'s token', async () => {
    const client = server.client();
    await client.fetchCsrf();
    const body = { username: 'admin', password: ADMIN_PASSWORD };

    const missing = await client.request({ method: 'POST', url: '/api/login', body, csrf: false });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ code: 0, message: CSRF_MESSAGE, data: null });

    const wrong = await client.request({ method: 'POST', url: '/api/login', body, headers: { 'x-csrf-token': 'forged' } });
    expect(wrong.status).toBe(403);

    const other = server.client();
    const othersToken = await other.fetchCsrf();
    const crossed = await client.request({ method: 'POST', url: '/api/login', body, headers: { 'x-csrf-token': othersToken } });
    expect(crossed.status).toBe(403);
    expect(client.cookies.has('cairn_session')).toBe(false);
  });

  it('refuses a PATCH without the token and changes nothing', async () => {
    const client = server.client();
    expect((await client.login('alice', 'Alice@1234')).body.code).toBe(1);

    const refused = await client.request({ method: 'PATCH', url: '/api/user/modifyPersonalInformation', body: { name: '攻击者' }, csrf: false });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(CSRF_MESSAGE);

    const me = await client.request({ method: 'GET', url: '/api/user/self' });
    expect(me.body.data.name).toBe('alice');
  });

  it('keeps the token valid across login', async () => {
    const client = server.client();
    const token = await client.fetchCsrf();
    await client.login('alice', 'Alice@1234');
    const changed = await client.request({ method: 'PATCH', url: '/api/user/modifyPersonalInformation', body: { name: '爱丽丝' }, headers: { 'x-csrf-token': token } });
    expect(changed.body).toMatchObject({ code: 1, message: '修改成功', data: { name: '爱丽丝' } });
  });
});
