// Sessions and permissions: code 3 without a live session, 'Permission denied' without the code.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, startServer, useServer } from './harness.ts';

describe.each(databases)('session and permissions on $name', (database) => {
  const server = useServer(database);
  beforeAll(async () => {
    await server.addUser('dave', 'Dave@12345');
  });

  it('answers HTTP 401 code 3 without a session or with an unknown one', async () => {
    const expected = { code: 3, message: '登录已失效，请重新登录', data: null };
    const none = await server.client().request({ method: 'GET', url: '/api/user/self' });
    expect(none.status).toBe(401);
    expect(none.body).toEqual(expected);
    const forged = await server.client().request({ method: 'GET', url: '/api/user/self', headers: { cookie: 'cairn_session=forged' } });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual(expected);
  });

  it('answers code 3 once the session has expired', async () => {
    const client = server.client();
    await client.login('dave', 'Dave@12345');
    expect((await client.request({ method: 'GET', url: '/api/user/self' })).body.code).toBe(1);
    await server.app.cairn.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
    const expired = await client.request({ method: 'GET', url: '/api/user/self' });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe(3);
  });

  it('expires sessions after the idle TTL and slides the expiry while in use', async () => {
    const short = await startServer(database, { sessionTtlMinutes: 1 });
    try {
      await short.addUser('erin', 'Erin@12345');
      const client = short.client();
      await client.login('erin', 'Erin@12345');
      const db = short.app.cairn.db;
      const row = await db.selectFrom('sessions').select(['created_at', 'expires_at']).executeTakeFirstOrThrow();
      expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBeCloseTo(60_000, -3);

      // Seen long ago but not yet expired: the next request pushes the expiry a full TTL ahead.
      const soon = new Date(Date.now() + 5_000).toISOString();
      await db.updateTable('sessions').set({ last_seen_at: '2000-01-01T00:00:00.000Z', expires_at: soon }).execute();
      expect((await client.request({ method: 'GET', url: '/api/user/self' })).body.code).toBe(1);
      const touched = await db.selectFrom('sessions').select('expires_at').executeTakeFirstOrThrow();
      expect(Date.parse(touched.expires_at)).toBeGreaterThan(Date.now() + 50_000);
    } finally {
      await short.close();
    }
  });

  it('denies an ordinary user a call guarded by a permission it lacks', async () => {
    const client = server.client();
    await client.login('dave', 'Dave@12345');
    const denied = await client.request({ method: 'GET', url: '/api/system/access/allUser/list' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 0, message: 'Permission denied', data: null });
  });

  it('lists all users for an administrator', async () => {
    const admin = await adminClient(server);
    const reply = await admin.request({ method: 'GET', url: '/api/system/access/allUser/list' });
    expect(reply.body.code).toBe(1);
    expect(reply.body.data).toEqual(expect.arrayContaining([
      { userId: expect.any(Number), username: 'admin', name: '系统管理员' },
      { userId: expect.any(Number), username: 'dave', name: 'dave' },
    ]));
    expect(JSON.stringify(reply.body)).not.toMatch(/password|scrypt/);
  });

  it('updates personal information with validation', async () => {
    const client = server.client();
    await client.login('dave', 'Dave@12345');
    const patch = (body: object) => client.request({ method: 'PATCH', url: '/api/user/modifyPersonalInformation', body });
    expect((await patch({ name: '大卫', email: 'not-an-email' })).body).toEqual({ code: 0, message: '邮箱格式不正确', data: null });
    expect((await patch({ name: '大 卫' })).body.message).toBe('请输入1-100个字符，不能包含[*?"<>|；《》]及空格');
    const ok = await patch({ name: '大卫', email: 'dave@example.com', phone: '13800000000' });
    expect(ok.body).toMatchObject({ code: 1, message: '修改成功', data: { name: '大卫', email: 'dave@example.com', phone: '13800000000' } });
    const cleared = await patch({ name: '大卫', email: '' });
    expect(cleared.body.data).toMatchObject({ email: null, phone: '13800000000' });
    const audit = await server.app.cairn.db.selectFrom('audit_log').select('action').where('action', '=', 'user.profile.changed').execute();
    expect(audit.length).toBe(2);
  });
});
