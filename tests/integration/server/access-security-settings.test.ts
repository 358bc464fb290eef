// 安全管控's settings over HTTP (/api/system/security/passwordPolicy, /session): the password
// policy read and saved, feeding the session user's hint and the password checks; its expiry days
// forcing a change at the next password login (not for directory users); the session timeout
// overriding the start-up one, for sessions already open too; refusals with their Chinese
// messages and field; the permission; the audit rows.
import { beforeAll, describe, expect, it } from 'vitest';
import { invalidateSessionTimeout } from '../../../server/auth/security-settings.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe.each(databases)('安全管控设置 on $name', (database) => {
  let admin: TestClient;
  let user: TestClient;
  let userId: number;

  const server = useServer(database, { sessionTtlMinutes: 120 });
  const db = () => server.app.cairn.db;
  const policy = async () => (await admin.request({ method: 'GET', url: '/api/system/security/passwordPolicy' })).body;
  const savePolicy = (body: object) => admin.request({ method: 'PUT', url: '/api/system/security/passwordPolicy', body });
  const saveTimeout = (timeoutMinutes: unknown) => admin.request({ method: 'PUT', url: '/api/system/security/session', body: { timeoutMinutes } });
  const strict = { length: 8, uppercase: true, lowercase: true, digit: true, special: true, expiryDays: 0 };

  beforeAll(async () => {
    admin = await adminClient(server);
    ({ id: userId, client: user } = await signIn(server, 'uma', 'Uma@123456'));
  });

  it('reads the policy in force and saves a new one that the hint and the checks follow', async () => {
    expect(await policy()).toEqual({ code: 1, message: expect.any(String), data: strict });
    const saved = await savePolicy({ length: 10, uppercase: false, lowercase: true, digit: true, special: false, expiryDays: 90 });
    expect(saved.body).toMatchObject({ code: 1, message: '保存成功', data: { length: 10, uppercase: false, lowercase: true, digit: true, special: false, expiryDays: 90 } });
    expect((await user.request({ method: 'GET', url: '/api/user/self' })).body.data.passwordPolicy)
      .toEqual({ length: 10, uppercase: false, lowercase: true, digit: true, special: false });
    // A new password is checked against it.
    expect((await user.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: 'Uma@123456', password: 'abc12345' } })).body)
      .toMatchObject({ code: 0, message: '密码由10位及以上小写字母、数字组成' });
    // No class ticked is saved as all four (doc 1 §5).
    expect((await savePolicy({ ...strict, uppercase: false, lowercase: false, digit: false, special: false })).body.data).toEqual(strict);
  });

  it('refuses lengths and expiry days out of range, naming the field, and keeps the policy', async () => {
    await savePolicy(strict);
    expect((await savePolicy({ ...strict, length: 5 })).body).toEqual({ code: 0, message: '密码最小长度须为 6 到 64 之间的整数', data: null, field: 'length' });
    expect((await savePolicy({ ...strict, length: 65 })).body).toMatchObject({ field: 'length' });
    expect((await savePolicy({ ...strict, expiryDays: -1 })).body)
      .toEqual({ code: 0, message: '密码有效期须为 0 到 3650 之间的整数（天，0 表示永不过期）', data: null, field: 'expiryDays' });
    expect((await savePolicy({ ...strict, expiryDays: 3651 })).body).toMatchObject({ field: 'expiryDays' });
    expect((await savePolicy({ ...strict, length: 8.5 })).status).toBe(400);
    expect((await savePolicy({ length: 8 })).status).toBe(400);
    expect((await policy()).data).toEqual(strict);
  });

  it('makes a password older than the expiry days be changed at the next password login', async () => {
    await savePolicy({ ...strict, expiryDays: 30 });
    const { id: oldId } = await signIn(server, 'olga', 'Olga@123456');
    await db().updateTable('users').set({ password_changed_at: daysAgo(31) }).where('id', '=', oldId).execute();
    const { id: freshId } = await signIn(server, 'fred', 'Fred@123456');
    await db().updateTable('users').set({ password_changed_at: daysAgo(29) }).where('id', '=', freshId).execute();
    // (A directory user's password is the directory's: they sign in through the directory, which
    // the expiry does not apply to — tests/integration/server/ldap.test.ts.)

    const olga = server.client();
    const login = await olga.login('olga', 'Olga@123456');
    expect(login.body).toMatchObject({ code: 1, data: { username: 'olga', updatedPwd: false } });
    expect((await olga.request({ method: 'GET', url: '/api/subjectType/querySubjectTypeNameList' })).body).toMatchObject({ code: 0, message: '请先修改初始密码' });
    const audited = await db().selectFrom('audit_log').select('detail').where('action', '=', 'user.password.expired').where('user_id', '=', oldId).execute();
    expect(audited.map((r) => JSON.parse(r.detail))).toEqual([expect.objectContaining({ ip: '127.0.0.1', expiryDays: 30 })]);
    // Changing it lets the user in again.
    expect((await olga.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: 'Olga@123456', password: 'Olga@654321' } })).body.code).toBe(1);
    expect((await olga.login('olga', 'Olga@654321')).body.data.updatedPwd).toBe(true);

    expect((await server.client().login('fred', 'Fred@123456')).body.data.updatedPwd).toBe(true);
    // 0: passwords never expire.
    await savePolicy({ ...strict, expiryDays: 0 });
    await db().updateTable('users').set({ password_changed_at: daysAgo(4000) }).where('id', '=', freshId).execute();
    expect((await server.client().login('fred', 'Fred@123456')).body.data.updatedPwd).toBe(true);
  });

  it('uses the start-up session timeout until one is saved, then the saved one, for open sessions too', async () => {
    const settings = async () => (await admin.request({ method: 'GET', url: '/api/system/security/session' })).body.data;
    expect(await settings()).toEqual({ timeoutMinutes: 120, defaultMinutes: 120, saved: false });

    // A session idle 100 minutes lives under the start-up 120.
    const idle = (await signIn(server, 'ida', 'Ida@1234567')).client;
    const idleUserId = (await db().selectFrom('users').select('id').where('username', '=', 'ida').executeTakeFirstOrThrow()).id;
    await db().updateTable('sessions').set({ last_seen_at: minutesAgo(100) }).where('user_id', '=', idleUserId).execute();
    expect((await idle.request({ method: 'GET', url: '/api/user/self' })).body.code).toBe(1);

    // Saving a shorter timeout ends the open sessions idle longer than it; one idle less goes on.
    await db().updateTable('sessions').set({ last_seen_at: minutesAgo(31) }).where('user_id', '=', idleUserId).execute();
    await db().updateTable('sessions').set({ last_seen_at: minutesAgo(29) }).where('user_id', '=', userId).execute();
    const saved = await saveTimeout(30);
    expect(saved.body).toMatchObject({ code: 1, message: '保存成功', data: { timeoutMinutes: 30, defaultMinutes: 120, saved: true } });
    expect(await settings()).toEqual({ timeoutMinutes: 30, defaultMinutes: 120, saved: true });
    const ended = await idle.request({ method: 'GET', url: '/api/user/self' });
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ code: 3, message: '登录已失效，请重新登录' });
    expect((await user.request({ method: 'GET', url: '/api/user/self' })).body.code).toBe(1);
    // That use pushed the user's end 30 minutes on.
    const userSession = await db().selectFrom('sessions').select('expires_at').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(Date.parse(userSession.expires_at)).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect(Date.parse(userSession.expires_at)).toBeLessThanOrEqual(Date.now() + 30 * 60_000);

    // A new session, and each use of one, ends 30 minutes on.
    const fresh = server.client();
    await fresh.login('ida', 'Ida@1234567');
    const row = await db().selectFrom('sessions').select(['created_at', 'expires_at']).where('user_id', '=', idleUserId).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(30 * 60_000);
  });

  it('refuses timeouts out of range, naming the field', async () => {
    expect((await saveTimeout(4)).body).toEqual({ code: 0, message: '会话超时时间须为 5 到 43200 之间的整数（分钟）', data: null, field: 'timeoutMinutes' });
    expect((await saveTimeout(43_201)).body).toMatchObject({ field: 'timeoutMinutes' });
    expect((await saveTimeout('abc')).status).toBe(400);
    invalidateSessionTimeout(db());
    expect((await admin.request({ method: 'GET', url: '/api/system/security/session' })).body.data.timeoutMinutes).toBe(30);
  });

  it('keeps the settings to holders of setup:sys and to signed-in callers', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/system/security/passwordPolicy', undefined],
      ['PUT', '/api/system/security/passwordPolicy', { ...strict, length: 6 }],
      ['GET', '/api/system/security/session', undefined],
      ['PUT', '/api/system/security/session', { timeoutMinutes: 5 }],
    ] as const) {
      expect((await user.request({ method, url, ...(body !== undefined && { body }) })).status, `${method} ${url}`).toBe(403);
      const anonymous = server.client();
      await anonymous.fetchCsrf();
      expect((await anonymous.request({ method, url, ...(body !== undefined && { body }) })).body.code, `${method} ${url}`).toBe(3);
    }
    expect((await policy()).data.length).toBe(8);
  });

  it('records each save with before, after and the address', async () => {
    const rows = await db().selectFrom('audit_log').select(['action', 'detail']).where('action', 'like', 'security.%').orderBy('id').execute();
    const policySaves = rows.filter((r) => r.action === 'security.passwordPolicy.saved').map((r) => JSON.parse(r.detail));
    expect(policySaves[0]).toEqual({ before: strict, after: { length: 10, uppercase: false, lowercase: true, digit: true, special: false, expiryDays: 90 }, ip: '127.0.0.1' });
    const timeoutSaves = rows.filter((r) => r.action === 'security.sessionTimeout.saved').map((r) => JSON.parse(r.detail));
    expect(timeoutSaves).toEqual([{ before: 120, after: 30, sessions: expect.any(Number), ip: '127.0.0.1' }]);
  });
});
