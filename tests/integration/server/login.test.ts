// Password login, injection attempts, personal-token login and logout (the lock after wrong
// passwords: lockout.test.ts; the throttle: login-throttle.test.ts).
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPersonalToken } from '../../../server/db/repositories/personal-tokens.ts';
import { databases, useServer } from './harness.ts';

describe.each(databases)('login on $name', (database) => {
  const server = useServer(database);
  beforeAll(async () => {
    await server.addUser('bob', 'Bob@12345');
  });

  it('signs in, sets a hardened session cookie and returns the session user', async () => {
    const client = server.client();
    const reply = await client.login('bob', 'Bob@12345');
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(1);
    expect(reply.body.data).toMatchObject({ username: 'bob', roleCodes: [3], roleName: '普通用户', dataPermissionEnum: 'SELF', updatedPwd: true });
    expect(reply.body.data.permissionPOS).toContainEqual({ code: 'project:list' });
    expect(reply.body.data.permissionPOS).not.toContainEqual({ code: 'setup:user:user:list' });
    expect(reply.body.data.passwordPolicy).toEqual({ length: 8, uppercase: true, lowercase: true, digit: true, special: true });
    expect(reply.body.data).not.toHaveProperty('password_hash');
    const cookie = reply.setCookies.find((c) => c.startsWith('cairn_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('stores only a digest of the session token', async () => {
    const client = server.client();
    await client.login('bob', 'Bob@12345');
    const token = client.cookies.get('cairn_session')!;
    const rows = await server.app.cairn.db.selectFrom('sessions').select('id').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).not.toContain(token);
  });

  it('rotates the session on a new login', async () => {
    const client = server.client();
    await client.login('bob', 'Bob@12345');
    const first = client.cookies.get('cairn_session')!;
    await client.login('bob', 'Bob@12345');
    expect(client.cookies.get('cairn_session')).not.toBe(first);
    const stale = await client.request({ method: 'GET', url: '/api/user/self', headers: { cookie: `cairn_session=${first}` } });
    expect(stale.status).toBe(401);
  });

  it('answers 用户名或密码错误 for a wrong password or an unknown user', async () => {
    const client = server.client();
    for (const [username, password] of [['bob', 'wrong-Pass1!'], ['nobody', 'Bob@12345']]) {
      const reply = await client.login(username!, password!);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ code: 0, message: '用户名或密码错误', data: null });
    }
    expect(client.cookies.has('cairn_session')).toBe(false);
  });

  it('resets the failure count after a successful login', async () => {
    const client = server.client();
    await client.login('bob', 'nope');
    await client.login('bob', 'Bob@12345');
    const row = await server.app.cairn.db.selectFrom('users').select('failed_logins').where('username', '=', 'bob').executeTakeFirstOrThrow();
    expect(row.failed_logins).toBe(0);
  });

  it('refuses SQL injection in username and password and leaves the users table intact', async () => {
    const db = server.app.cairn.db;
    const count = async () => Number((await db.selectFrom('users').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const client = server.client();
    const attempts = [`' OR '1'='1`, `admin'--`, `"; DROP TABLE users; --`, `admin' OR 1=1 --`];
    for (const attack of attempts) {
      for (const body of [{ username: attack, password: 'x' }, { username: 'admin', password: attack }, { username: attack, password: attack }]) {
        const reply = await client.login(body.username, body.password);
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ code: 0, message: '用户名或密码错误', data: null });
      }
    }
    expect(client.cookies.has('cairn_session')).toBe(false);
    expect(await count()).toBe(before);
    const admin = await db.selectFrom('users').select(['username', 'is_lock']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect(admin.username).toBe('admin');
  });

  it('logs in with a personal token, and refuses an unknown or expired one', async () => {
    const db = server.app.cairn.db;
    const bob = await db.selectFrom('users').select('id').where('username', '=', 'bob').executeTakeFirstOrThrow();
    const key = await createPersonalToken(db, { userId: bob.id, name: 'ci', expiresAt: null });
    const expired = await createPersonalToken(db, { userId: bob.id, name: 'old', expiresAt: '2000-01-01T00:00:00.000Z' });

    const client = server.client();
    // Token login needs no CSRF token: open-API callers have no browser cookie to bind it to.
    const reply = await client.request({ method: 'POST', url: `/api/token/login?key=${encodeURIComponent(key)}` });
    expect(reply.body).toMatchObject({ code: 1, data: { username: 'bob', userId: bob.id } });
    expect((await client.request({ method: 'GET', url: '/api/user/self' })).body.data.username).toBe('bob');

    // An unknown key is told nothing more; a real but expired token is told it expired.
    for (const [bad, message] of [['not-a-token', '令牌无效或已过期'], [expired, '令牌已过期']] as const) {
      const refused = await server.client().request({ method: 'POST', url: `/api/token/login?key=${encodeURIComponent(bad)}` });
      expect(refused.body).toEqual({ code: 0, message, data: null });
    }
    const missing = await server.client().request({ method: 'POST', url: '/api/token/login' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/^请求参数错误：.*key/);
  });

  it('logs out: the session is gone and the cookie cleared; fine without a session', async () => {
    const client = server.client();
    await client.login('bob', 'Bob@12345');
    const token = client.cookies.get('cairn_session')!;
    const reply = await client.request({ method: 'POST', url: '/api/logout' });
    expect(reply.body.code).toBe(1);
    expect(reply.setCookies.some((c) => c.startsWith('cairn_session=;'))).toBe(true);
    const after = await client.request({ method: 'GET', url: '/api/user/self', headers: { cookie: `cairn_session=${token}` } });
    expect(after.status).toBe(401);

    const anonymous = server.client();
    await anonymous.fetchCsrf();
    expect((await anonymous.request({ method: 'POST', url: '/api/logout' })).body.code).toBe(1);
  });
});
