// The login throttle (issue 13): refused logins are counted per client address and per username;
// once either allowance is used up, /api/login and /api/token/login answer 429 with Retry-After and
// a Chinese message, before any password is checked. Successful logins are not counted, the
// client's address is the connection's peer (X-Forwarded-For is believed only from a proxy named
// in trustProxy); an administrator's unlock forgives what was counted before it. On SQLite and
// PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, useServer, type Reply, type TestClient } from './harness.ts';

const LIMITS = { perAddress: 4, perUsername: 3, windowSeconds: 120 };
const THROTTLED = { code: 0, message: '登录尝试过于频繁，请 2 分钟后再试', data: null };

const expectThrottled = (reply: Reply) => {
  expect(reply.status).toBe(429);
  expect(reply.body).toEqual(THROTTLED);
  const wait = Number(reply.raw.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(LIMITS.windowSeconds);
  expect(reply.setCookies.some((c) => c.startsWith('cairn_session='))).toBe(false);
};

describe.each(databases)('login throttle on $name', (database) => {
  const server = useServer(database, { loginRateLimits: LIMITS });
  let client: TestClient;
  beforeAll(async () => {
    await server.addUser('nina', 'Nina@12345');
    await server.addUser('otto', 'Otto@12345');
    await server.addUser('pia', 'Pia@123456');
    client = server.client();
    await client.fetchCsrf();
  });

  const login = (username: string, password: string, remoteAddress: string) =>
    client.request({ method: 'POST', url: '/api/login', body: { username, password }, remoteAddress });
  const auditRows = async () => Number((await server.app.cairn.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('per username: after 3 refused logins from anywhere, even the right password waits', async () => {
    for (const [i, address] of ['10.0.1.1', '10.0.1.2', '10.0.1.3'].entries()) {
      expect((await login('nina', `Wrong#${i}xyz`, address)).body.message).toBe('用户名或密码错误');
    }
    const before = await auditRows();
    const failedBefore = (await server.app.cairn.db.selectFrom('users').select('failed_logins').where('username', '=', 'nina').executeTakeFirstOrThrow()).failed_logins;
    expectThrottled(await login('nina', 'Nina@12345', '10.0.1.4'));
    expectThrottled(await login('NINA ', 'Nina@12345', '10.0.1.5'));
    // Answered before the password is checked: nothing counted, nothing audited.
    expect(await auditRows()).toBe(before);
    expect((await server.app.cairn.db.selectFrom('users').select('failed_logins').where('username', '=', 'nina').executeTakeFirstOrThrow()).failed_logins).toBe(failedBefore);
    // Another user from the same addresses is not held back.
    expect((await login('otto', 'Otto@12345', '10.0.1.1')).body.code).toBe(1);
  });

  it('per address: after 4 refused logins from one address, any login from it waits; other addresses do not', async () => {
    for (const name of ['ghost1', 'ghost2', 'ghost3', 'ghost4']) {
      expect((await login(name, 'Ghost#12345', '10.0.2.1')).body.message).toBe('用户名或密码错误');
    }
    expectThrottled(await login('pia', 'Pia@123456', '10.0.2.1'));
    expect((await login('pia', 'Pia@123456', '10.0.2.2')).body.code).toBe(1);
  });

  it('an unknown name and a known one are throttled alike', async () => {
    for (let i = 0; i < 3; i++) await login('ghost-x', 'Ghost#12345', `10.0.3.${i + 1}`);
    for (let i = 0; i < 3; i++) await login('otto', 'Wrong#12345', `10.0.4.${i + 1}`);
    const unknown = await login('ghost-x', 'Ghost#12345', '10.0.3.9');
    const known = await login('otto', 'Wrong#12345', '10.0.4.9');
    expectThrottled(unknown);
    expectThrottled(known);
    expect(known.raw.payload).toBe(unknown.raw.payload);
  });

  it('successful logins are not counted', async () => {
    for (let i = 0; i < 8; i++) expect((await login('pia', 'Pia@123456', '10.0.5.1')).body.code).toBe(1);
  });

  it('token login is throttled per address', async () => {
    const tokenLogin = (key: string) => client.request({ method: 'POST', url: `/api/token/login?key=${key}`, remoteAddress: '10.0.6.1' });
    for (let i = 0; i < 4; i++) expect((await tokenLogin(`bad-token-${i}`)).body.message).toBe('令牌无效或已过期');
    expectThrottled(await tokenLogin('bad-token-5'));
    // The address's allowance is shared with password login.
    expectThrottled(await login('pia', 'Pia@123456', '10.0.6.1'));
  });

  it('an administrator’s unlock forgives what was counted before: the right password gets in at once', async () => {
    const userId = await server.addUser('quin', 'Quin@12345');
    for (let i = 0; i < 3; i++) await login('quin', `Wrong#${i}xyz`, '10.0.8.1');
    expectThrottled(await login('quin', 'Quin@12345', '10.0.8.1'));
    const admin = await adminClient(server);
    expect((await admin.request({ method: 'PATCH', url: `/api/user/unlock?userIds=${userId}` })).body.code).toBe(1);
    expect((await login('quin', 'Quin@12345', '10.0.8.1')).body.code).toBe(1);
    // Refusals after the unlock count again.
    for (let i = 0; i < 3; i++) await login('quin', `Wrong#${i}abc`, '10.0.8.2');
    expectThrottled(await login('quin', 'Quin@12345', '10.0.8.3'));
  });

  it('X-Forwarded-For is not believed by default: changing it does not get round the address limit', async () => {
    for (let i = 0; i < 4; i++) {
      await client.request({ method: 'POST', url: '/api/login', body: { username: `spoof${i}`, password: 'x' }, headers: { 'x-forwarded-for': `203.0.113.${i}` }, remoteAddress: '10.0.7.1' });
    }
    const reply = await client.request({ method: 'POST', url: '/api/login', body: { username: 'pia', password: 'Pia@123456' }, headers: { 'x-forwarded-for': '203.0.113.99' }, remoteAddress: '10.0.7.1' });
    expectThrottled(reply);
  });
});

describe.each(databases)('login throttle behind a trusted proxy on $name', (database) => {
  const server = useServer(database, { loginRateLimits: LIMITS, trustProxy: ['10.9.0.1'] });

  it('counts the client X-Forwarded-For names when the peer is the trusted proxy, and only then', async () => {
    const client = server.client();
    await client.fetchCsrf();
    const viaProxy = (forwardedFor: string, username = 'ghost', remoteAddress = '10.9.0.1') =>
      client.request({ method: 'POST', url: '/api/login', body: { username: `${username}-${Math.random()}`, password: 'x' }, headers: { 'x-forwarded-for': forwardedFor }, remoteAddress });
    for (let i = 0; i < 4; i++) expect((await viaProxy('198.51.100.7')).status).toBe(200);
    expectThrottled(await viaProxy('198.51.100.7'));
    // Another client behind the same proxy is not held back.
    expect((await viaProxy('198.51.100.8')).status).toBe(200);
    // A peer that is not the proxy is counted by its own address, whatever it claims.
    for (let i = 0; i < 4; i++) await viaProxy(`192.0.2.${i}`, 'ghost', '10.9.0.2');
    expectThrottled(await viaProxy('192.0.2.200', 'ghost', '10.9.0.2'));
  });
});
