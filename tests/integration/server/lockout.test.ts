// The lock after wrong passwords (issue 13): it lasts the configured time and ends by itself, its
// answers never tell an unknown name, a wrong password and a locked account apart (only the right
// password hears of the lock), it leaves the user's sessions alone, and an administrator lifts it
// at once. The administrator's own lock (isLock Y) lasts until unlocked and ends the sessions. The
// auto-lock configuration's calls, bounds and permission. On SQLite and PostgreSQL.
import { Migrator, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../server/db/connect.ts';
import { migrationsFor } from '../../../server/db/migrations/index.ts';
import { createPersonalToken } from '../../../server/db/repositories/personal-tokens.ts';
import { setLockedUntil } from '../../../server/db/repositories/users.ts';
import { adminClient, databases, signIn, useServer, type Reply, type TestClient } from './harness.ts';

const WRONG = 'Wrong#pass123';

describe.each(databases)('login lockout on $name', (database) => {
  const server = useServer(database);
  let admin: TestClient;
  beforeAll(async () => {
    admin = await adminClient(server);
  });

  const db = () => server.app.cairn.db;
  const userRow = (username: string) =>
    db().selectFrom('users').select(['id', 'is_lock', 'failed_logins', 'locked_until']).where('username', '=', username).executeTakeFirstOrThrow();
  const auditActions = async (userId: number | null) =>
    (await db().selectFrom('audit_log').select('action').where('user_id', userId === null ? 'is' : '=', userId).orderBy('id').execute()).map((r) => r.action);
  /** What a client can see of an answer: status, headers that matter and the body's bytes. */
  const visible = (reply: Reply) => ({
    status: reply.status,
    contentType: reply.raw.headers['content-type'],
    setCookie: reply.raw.headers['set-cookie'] ?? null,
    payload: reply.raw.payload,
  });
  const failTimes = async (client: TestClient, username: string, times: number) => {
    const replies: Reply[] = [];
    for (let i = 0; i < times; i++) replies.push(await client.login(username, `${WRONG}${i}`));
    return replies;
  };
  const addLocked = async (username: string, password: string) => {
    const id = await server.addUser(username, password);
    await failTimes(server.client(), username, 5);
    return id;
  };

  it('five wrong passwords lock the account for 15 minutes; unknown name, wrong password and lock answer byte for byte alike', async () => {
    const id = await server.addUser('carol', 'Carol@12345');
    const client = server.client();
    const unknown = visible(await client.login('nobody-here', 'Carol@12345'));
    expect(unknown.status).toBe(200);
    expect(JSON.parse(unknown.payload)).toEqual({ code: 0, message: '用户名或密码错误', data: null });

    const before = Date.now();
    const wrong = await failTimes(client, 'carol', 5);
    for (const reply of wrong) expect(visible(reply)).toEqual(unknown);
    const row = await userRow('carol');
    expect(row).toMatchObject({ is_lock: 'N', failed_logins: 0 });
    const until = Date.parse(row.locked_until!);
    expect(until).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

    // During the lock a wrong password gets the same answer, and neither counts nor lengthens it.
    expect(visible(await client.login('carol', WRONG))).toEqual(unknown);
    expect(await userRow('carol')).toEqual(row);

    // Only the right password hears of the lock, and for how long.
    const right = await client.login('carol', 'Carol@12345');
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ code: 0, message: '账号已锁定，请 15 分钟后再试', data: null });
    expect(client.cookies.has('cairn_session')).toBe(false);
    expect(await auditActions(id)).toEqual(['login.failed', 'login.failed', 'login.failed', 'login.failed', 'user.locked', 'login.failed', 'login.refused.locked']);
  });

  it('five wrong passwords, then the right one after the lock time: the lock has ended by itself', async () => {
    await server.addUser('abel', 'Abel@12345');
    const client = server.client();
    await failTimes(client, 'abel', 5);
    const lockedAt = Date.now();
    // The platform's clock moves on (in-process: Date only); nothing touches the stored lock.
    try {
      vi.setSystemTime(lockedAt + 14 * 60_000);
      expect((await client.login('abel', 'Abel@12345')).body).toEqual({ code: 0, message: '账号已锁定，请 1 分钟后再试', data: null });
      vi.setSystemTime(lockedAt + 15 * 60_000 + 1000);
      const reply = await client.login('abel', 'Abel@12345');
      expect(reply.body).toMatchObject({ code: 1, data: { username: 'abel' } });
      expect(client.cookies.has('cairn_session')).toBe(true);
      expect((await client.request({ method: 'GET', url: '/api/user/self' })).body).toMatchObject({ code: 1, data: { username: 'abel' } });
      expect(await userRow('abel')).toMatchObject({ failed_logins: 0, locked_until: null });
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the minutes the lock has left, rounded up', async () => {
    const id = await addLocked('cleo', 'Cleo@12345');
    await setLockedUntil(db(), id, new Date(Date.now() + 3.5 * 60_000).toISOString());
    expect((await server.client().login('cleo', 'Cleo@12345')).body.message).toBe('账号已锁定，请 4 分钟后再试');
  });

  it('the lock ends by itself: after its time the right password works, and the count starts afresh', async () => {
    const id = await addLocked('dana', 'Dana@12345');
    await setLockedUntil(db(), id, new Date(Date.now() - 1000).toISOString());
    const client = server.client();
    const reply = await client.login('dana', 'Dana@12345');
    expect(reply.body.code).toBe(1);
    expect(await userRow('dana')).toMatchObject({ failed_logins: 0, locked_until: null });

    // A fresh allowance: four wrong passwords do not lock, the fifth does.
    await failTimes(client, 'dana', 4);
    expect(await userRow('dana')).toMatchObject({ failed_logins: 4, locked_until: null });
    expect((await client.login('dana', 'Dana@12345')).body.code).toBe(1);
    expect((await userRow('dana')).failed_logins).toBe(0);
    await failTimes(client, 'dana', 5);
    expect((await client.login('dana', 'Dana@12345')).body.message).toBe('账号已锁定，请 15 分钟后再试');
  });

  it('an expired lock is counted afresh, not carried over', async () => {
    const id = await addLocked('dirk', 'Dirk@12345');
    await setLockedUntil(db(), id, new Date(Date.now() - 1000).toISOString());
    const client = server.client();
    await failTimes(client, 'dirk', 1);
    expect(await userRow('dirk')).toMatchObject({ failed_logins: 1 });
    expect((await client.login('dirk', 'Dirk@12345')).body.code).toBe(1);
  });

  it('a lock leaves the locked user’s existing sessions working', async () => {
    const { id, client: mine } = await signIn(server, 'eve', 'Eve@123456');
    const sessions = async () => (await db().selectFrom('sessions').select('id').where('user_id', '=', id).execute()).length;
    expect(await sessions()).toBe(1);
    await failTimes(server.client(), 'eve', 5);
    expect((await userRow('eve')).locked_until).not.toBeNull();
    const self = await mine.request({ method: 'GET', url: '/api/user/self' });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ code: 1, data: { username: 'eve' } });
    expect(await sessions()).toBe(1);
  });

  it('an administrator unlocks at once, and the failure count goes with the lock', async () => {
    const id = await addLocked('finn', 'Finn@12345');
    const reply = await admin.request({ method: 'PATCH', url: `/api/user/unlock?userIds=${id}&isLock=N` });
    expect(reply.body).toEqual({ code: 1, message: '操作成功', data: null });
    expect(await userRow('finn')).toMatchObject({ is_lock: 'N', failed_logins: 0, locked_until: null });
    expect((await server.client().login('finn', 'Finn@12345')).body.code).toBe(1);
    const [unlocked] = await db().selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', 'user.unlocked').orderBy('id', 'desc').execute();
    expect(unlocked!.user_id).not.toBeNull();
    expect(JSON.parse(unlocked!.detail)).toMatchObject({ users: [{ id, username: 'finn', lockedByAdmin: false }] });
  });

  it('an administrator’s lock lasts until unlocked and ends the user’s sessions', async () => {
    const { id, client: mine } = await signIn(server, 'gus', 'Gus@123456');
    const { id: other } = await signIn(server, 'hal', 'Hal@123456');
    const locked = await admin.request({ method: 'PATCH', url: `/api/user/lock?userIds=${id},${other}&isLock=Y` });
    expect(locked.body).toEqual({ code: 1, message: '操作成功', data: null });
    expect(await userRow('gus')).toMatchObject({ is_lock: 'Y', locked_until: null });
    expect((await db().selectFrom('sessions').select('id').where('user_id', 'in', [id, other]).execute()).length).toBe(0);
    expect((await mine.request({ method: 'GET', url: '/api/user/self' })).status).toBe(401);

    const client = server.client();
    const unknown = visible(await client.login('nobody-at-all', WRONG));
    expect(visible(await client.login('gus', WRONG))).toEqual(unknown);
    expect((await client.login('gus', 'Gus@123456')).body).toEqual({ code: 0, message: '账号已锁定，请联系管理员', data: null });
    // The automatic lock's end does not lift it.
    await setLockedUntil(db(), id, new Date(Date.now() - 1000).toISOString());
    expect((await client.login('gus', 'Gus@123456')).body.message).toBe('账号已锁定，请联系管理员');

    // The spec's query is shared: isLock decides on either path.
    expect((await admin.request({ method: 'PATCH', url: `/api/user/lock?userIds=${other}&isLock=N` })).body.code).toBe(1);
    expect((await userRow('hal')).is_lock).toBe('N');
    expect((await admin.request({ method: 'PATCH', url: `/api/user/unlock?userIds=${other}&isLock=Y` })).body.code).toBe(1);
    expect((await userRow('hal')).is_lock).toBe('Y');
    expect((await admin.request({ method: 'PATCH', url: `/api/user/unlock?userIds=${id},${other}` })).body.code).toBe(1);
    expect((await client.login('gus', 'Gus@123456')).body.code).toBe(1);
    expect((await client.login('hal', 'Hal@123456')).body.code).toBe(1);
    const lockRow = await db().selectFrom('audit_log').select('detail').where('action', '=', 'user.locked.manual').orderBy('id').executeTakeFirstOrThrow();
    expect(JSON.parse(lockRow.detail)).toMatchObject({ sessionsEnded: 2 });
  });

  it('refuses unknown users, an empty list and locking oneself, changing nothing', async () => {
    const adminId = (await userRow('admin')).id;
    const unknown = await admin.request({ method: 'PATCH', url: '/api/user/lock?userIds=99999' });
    expect(unknown.body).toEqual({ code: 0, message: '用户不存在：99999', data: null, field: 'userIds' });
    const self = await admin.request({ method: 'PATCH', url: `/api/user/lock?userIds=${adminId}` });
    expect(self.body).toMatchObject({ code: 0, message: '不能锁定当前登录的账号' });
    expect((await userRow('admin')).is_lock).toBe('N');
    expect((await admin.request({ method: 'PATCH', url: '/api/user/unlock?userIds=' })).status).toBe(400);
    expect((await admin.request({ method: 'PATCH', url: '/api/user/unlock?userIds=1,x' })).status).toBe(400);
  });

  it('token login of a locked account is told it is locked; a bad token is told nothing more', async () => {
    const id = await addLocked('ivy', 'Ivy@123456');
    const key = await createPersonalToken(db(), { userId: id, name: 'ci', expiresAt: null });
    const login = () => server.client().request({ method: 'POST', url: `/api/token/login?key=${encodeURIComponent(key)}` });
    expect((await login()).body).toEqual({ code: 0, message: '账号已锁定，请 15 分钟后再试', data: null });
    await setLockedUntil(db(), id, null);
    expect((await login()).body.code).toBe(1);
    await admin.request({ method: 'PATCH', url: `/api/user/lock?userIds=${id}` });
    expect((await login()).body).toEqual({ code: 0, message: '账号已锁定，请联系管理员', data: null });
    const bad = await server.client().request({ method: 'POST', url: '/api/token/login?key=not-a-token' });
    expect(bad.body).toEqual({ code: 0, message: '令牌无效或已过期', data: null });
  });

  it('the auto-lock configuration: defaults, bounds, and a saved one is what the next login uses', async () => {
    const get = () => admin.request({ method: 'GET', url: '/api/user/query/autoLockConfig' });
    const save = (body: unknown) => admin.request({ method: 'POST', url: '/api/user/add/autoLockConfig', body });
    expect((await get()).body).toEqual({ code: 1, message: '操作成功', data: { maxFailures: 5, lockMinutes: 15 } });

    for (const [body, field, message] of [
      [{ maxFailures: 101, lockMinutes: 15 }, 'maxFailures', '登录失败次数须为 0–100 的整数（0 表示不自动锁定）'],
      [{ maxFailures: -1, lockMinutes: 15 }, 'maxFailures', '登录失败次数须为 0–100 的整数（0 表示不自动锁定）'],
      [{ maxFailures: 5, lockMinutes: 0 }, 'lockMinutes', '锁定时长须为 1–1440 分钟的整数'],
      [{ maxFailures: 5, lockMinutes: 1441 }, 'lockMinutes', '锁定时长须为 1–1440 分钟的整数'],
    ] as const) {
      expect((await save(body)).body).toEqual({ code: 0, message, data: null, field });
    }
    expect((await save({ maxFailures: 2.5, lockMinutes: 15 })).status).toBe(400);
    expect((await save({ maxFailures: 3 })).status).toBe(400);
    expect((await get()).body.data).toEqual({ maxFailures: 5, lockMinutes: 15 });

    expect((await save({ maxFailures: 2, lockMinutes: 30 })).body).toEqual({ code: 1, message: '保存成功', data: { maxFailures: 2, lockMinutes: 30 } });
    expect((await get()).body.data).toEqual({ maxFailures: 2, lockMinutes: 30 });
    await server.addUser('jade', 'Jade@12345');
    const client = server.client();
    await failTimes(client, 'jade', 2);
    expect((await client.login('jade', 'Jade@12345')).body.message).toBe('账号已锁定，请 30 分钟后再试');

    // 0: wrong passwords never lock.
    expect((await save({ maxFailures: 0, lockMinutes: 30 })).body.code).toBe(1);
    await server.addUser('kai', 'Kai@123456');
    await failTimes(client, 'kai', 8);
    expect(await userRow('kai')).toMatchObject({ failed_logins: 8, locked_until: null });
    expect((await client.login('kai', 'Kai@123456')).body.code).toBe(1);

    expect((await save({ maxFailures: 5, lockMinutes: 15 })).body.code).toBe(1);
    const changes = await db().selectFrom('audit_log').select('detail').where('action', '=', 'settings.autoLock.changed').orderBy('id').execute();
    expect(changes.map((c) => JSON.parse(c.detail).after)).toEqual([{ maxFailures: 2, lockMinutes: 30 }, { maxFailures: 0, lockMinutes: 30 }, { maxFailures: 5, lockMinutes: 15 }]);
  });

  it('locking, unlocking and the configuration need the user-management permission', async () => {
    const { client: ordinary } = await signIn(server, 'lena', 'Lena@12345');
    const { id: target } = await signIn(server, 'milo', 'Milo@12345');
    for (const [method, url, body] of [
      ['PATCH', `/api/user/lock?userIds=${target}`, undefined],
      ['PATCH', `/api/user/unlock?userIds=${target}`, undefined],
      ['GET', '/api/user/query/autoLockConfig', undefined],
      ['POST', '/api/user/add/autoLockConfig', { maxFailures: 1, lockMinutes: 1 }],
    ] as const) {
      const reply = await ordinary.request({ method, url, body });
      expect(reply.status, url).toBe(403);
      expect(reply.body).toEqual({ code: 0, message: 'Permission denied', data: null });
    }
    expect((await userRow('milo')).is_lock).toBe('N');
    const anonymous = server.client();
    await anonymous.fetchCsrf();
    expect((await anonymous.request({ method: 'GET', url: '/api/user/query/autoLockConfig' })).status).toBe(401);
  });
});

describe.each(databases)('migration 0009 on $name', (database) => {
  it('turns the never-ending automatic lock of earlier releases into a timed one', async () => {
    const { config, drop } = await database.create();
    const { db: handle, kind } = openDatabase(config);
    const db = handle as Kysely<any>;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(kind) } });
      expect((await migrator.migrateTo('0008_subject_types')).error).toBeUndefined();
      const now = new Date().toISOString();
      const user = (username: string, is_lock: string) => ({ username, name: username, password_hash: 'x', is_lock, failed_logins: is_lock === 'Y' ? 5 : 2, updated_pwd: 1, created_at: now, updated_at: now });
      await db.insertInto('users').values([user('locked-before', 'Y'), user('free-before', 'N')]).execute();
      const before = Date.now();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db.selectFrom('users').select(['username', 'is_lock', 'failed_logins', 'locked_until']).orderBy('username').execute();
      expect(rows[0]).toEqual({ username: 'free-before', is_lock: 'N', failed_logins: 2, locked_until: null });
      expect(rows[1]).toMatchObject({ username: 'locked-before', is_lock: 'N', failed_logins: 0 });
      expect(Date.parse(rows[1].locked_until)).toBeGreaterThanOrEqual(before + 15 * 60_000);
      expect(Date.parse(rows[1].locked_until)).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    } finally {
      await db.destroy();
      await drop();
    }
  });
});
