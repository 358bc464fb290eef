// 令牌 over HTTP (/api/personalToken/*, POST /api/token/login?key=): a user's own tokens — created
// random, answered once, stored as a digest; renamed, switched off and on, deleted — and token
// login refusing a switched-off, expired or unknown token. Nobody reads or changes another user's
// tokens, a token session cannot manage tokens, every change writes its audit row, and bad input is
// refused with its Chinese message naming the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { digestToken } from '../../../server/auth/tokens.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe.each(databases)('个人令牌 on $name', (database) => {
  let ann: TestClient;
  let annId: number;
  let bob: TestClient;

  const server = useServer(database);
  const db = () => server.app.cairn.db;
  const add = (client: TestClient, body: object) => client.request({ method: 'POST', url: '/api/personalToken/addPersonalToken', body });
  const list = (client: TestClient, query = '') => client.request({ method: 'GET', url: `/api/personalToken/queryPersonalTokenList${query}` });
  const update = (client: TestClient, body: object) => client.request({ method: 'PATCH', url: '/api/personalToken/updatePersonalToken', body });
  const remove = (client: TestClient, id: number) => client.request({ method: 'DELETE', url: `/api/personalToken/delete/${id}` });
  const tokenLogin = (key: string) => {
    const client = server.client();
    return { client, reply: client.request({ method: 'POST', url: `/api/token/login?key=${encodeURIComponent(key)}` }) };
  };
  const auditRows = (action: string) => db().selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', action).orderBy('id').execute();

  beforeAll(async () => {
    await adminClient(server);
    ({ id: annId, client: ann } = await signIn(server, 'ann', 'Ann@123456'));
    ({ client: bob } = await signIn(server, 'bob', 'Bob@123456'));
  });

  it('creates a random token, answers it once and keeps only its digest and last characters', async () => {
    const created = await add(ann, { name: 'CI流水线', expiresAt: inDays(30) });
    expect(created.body).toMatchObject({ code: 1, message: '添加成功', data: { name: 'CI流水线', enabled: true, expired: false, lastUsedAt: null } });
    const { token, id, hint } = created.body.data;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(hint).toBe(`…${token.slice(-4)}`);

    const stored = await db().selectFrom('personal_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(digestToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    // The list never answers the token again.
    const listed = await list(ann);
    expect(listed.body.data.total).toBe(1);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(listed.body.data.content[0]).not.toHaveProperty('token');
    // Nor does the audit trail.
    const [row] = await auditRows('personalToken.added');
    expect(row!.user_id).toBe(annId);
    expect(row!.detail).not.toContain(token);
    expect(JSON.parse(row!.detail)).toMatchObject({ id, name: 'CI流水线', ip: '127.0.0.1' });

    // A second token without expiry; a different value each time.
    const other = await add(ann, { name: 'nightly' });
    expect(other.body.data).toMatchObject({ expiresAt: null, expired: false });
    expect(other.body.data.token).not.toBe(token);
    const page = await list(ann, '?page=1&size=1');
    expect(page.body.data).toMatchObject({ total: 2, content: [{ name: 'nightly' }] });
    expect((await list(ann, '?keyword=ci')).body.data.content.map((r: { name: string }) => r.name)).toEqual(['CI流水线']);
  });

  it('signs in with a token, then refuses it once switched off, and again when switched on after expiry', async () => {
    const { token, id } = (await add(ann, { name: 'deploy' })).body.data;
    const first = tokenLogin(token);
    expect((await first.reply).body).toMatchObject({ code: 1, data: { username: 'ann' } });
    expect((await first.client.request({ method: 'GET', url: '/api/user/self' })).body.data.username).toBe('ann');
    const used = (await list(ann)).body.data.content.find((r: { id: number }) => r.id === id);
    expect(used).toMatchObject({ lastUsedIp: '127.0.0.1' });
    expect(used.lastUsedAt).not.toBeNull();
    const [login] = (await auditRows('login.token')).slice(-1);
    expect(JSON.parse(login!.detail)).toMatchObject({ tokenId: id, tokenName: 'deploy', ip: '127.0.0.1' });

    // Switching it off refuses new logins and ends the session it opened.
    const off = await update(ann, { id, enabled: false });
    expect(off.body).toMatchObject({ code: 1, message: '修改成功', data: { id, enabled: false } });
    expect((await first.client.request({ method: 'GET', url: '/api/user/self' })).status).toBe(401);
    expect((await tokenLogin(token).reply).body).toEqual({ code: 0, message: '令牌已停用', data: null });
    const [modified] = (await auditRows('personalToken.modified')).slice(-1);
    expect(JSON.parse(modified!.detail)).toMatchObject({ id, before: { name: 'deploy', enabled: true }, after: { name: 'deploy', enabled: false }, sessionsEnded: 1 });
    expect((await auditRows('login.token.refused.disabled')).length).toBe(1);

    // On again: it signs in again.
    expect((await update(ann, { id, enabled: true })).body.data.enabled).toBe(true);
    expect((await tokenLogin(token).reply).body.code).toBe(1);

    // Expired (moved into the past): refused with its own message, and shown as expired.
    await db().updateTable('personal_tokens').set({ expires_at: '2001-01-01T00:00:00.000Z' }).where('id', '=', id).execute();
    expect((await tokenLogin(token).reply).body).toEqual({ code: 0, message: '令牌已过期', data: null });
    expect((await list(ann)).body.data.content.find((r: { id: number }) => r.id === id)).toMatchObject({ expired: true, enabled: true });
    expect((await auditRows('login.token.refused.expired')).length).toBe(1);
    // Unknown: told nothing more.
    expect((await tokenLogin('not-a-token').reply).body).toEqual({ code: 0, message: '令牌无效或已过期', data: null });
  });

  it('ends a session whose token expires while it is open', async () => {
    const { token, id } = (await add(ann, { name: 'short' })).body.data;
    const { client, reply } = tokenLogin(token);
    expect((await reply).body.code).toBe(1);
    await db().updateTable('personal_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', id).execute();
    const after = await client.request({ method: 'GET', url: '/api/user/self' });
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('令牌已过期');
  });

  it('renames and deletes; deleting ends the sessions the token opened', async () => {
    const { token, id } = (await add(ann, { name: 'temp' })).body.data;
    const { client, reply } = tokenLogin(token);
    expect((await reply).body.code).toBe(1);

    const renamed = await update(ann, { id, name: 'temp-2' });
    expect(renamed.body.data).toMatchObject({ name: 'temp-2', enabled: true });
    const gone = await remove(ann, id);
    expect(gone.body).toEqual({ code: 1, message: '删除成功', data: null });
    expect((await client.request({ method: 'GET', url: '/api/user/self' })).status).toBe(401);
    expect((await tokenLogin(token).reply).body.message).toBe('令牌无效或已过期');
    expect(await db().selectFrom('personal_tokens').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const [deleted] = (await auditRows('personalToken.deleted')).slice(-1);
    expect(JSON.parse(deleted!.detail)).toMatchObject({ id, name: 'temp-2', sessionsEnded: 1, ip: '127.0.0.1' });
    expect((await remove(ann, id)).body).toEqual({ code: 0, message: '令牌不存在', data: null });
  });

  it('never shows, changes or deletes another user\'s token', async () => {
    const { id, token } = (await add(ann, { name: 'private' })).body.data;
    const bobs = await list(bob);
    expect(bobs.body.data).toEqual({ content: [], total: 0 });
    expect((await update(bob, { id, enabled: false })).body).toEqual({ code: 0, message: '令牌不存在', data: null });
    expect((await update(bob, { id, name: 'stolen' })).body.message).toBe('令牌不存在');
    expect((await remove(bob, id)).body).toEqual({ code: 0, message: '令牌不存在', data: null });
    const row = await db().selectFrom('personal_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'private', user_id: annId });
    expect(Boolean(row.enabled)).toBe(true);
    // The same name is fine for another user.
    expect((await add(bob, { name: 'private' })).body.code).toBe(1);
    expect((await tokenLogin(token).reply).body.data.username).toBe('ann');
  });

  it('refuses token management from a token session', async () => {
    const { token, id } = (await add(ann, { name: 'robot' })).body.data;
    const { client, reply } = tokenLogin(token);
    expect((await reply).body.code).toBe(1);
    await client.fetchCsrf();
    // It may read its owner's tokens, but not mint, change or delete any.
    expect((await list(client)).body.code).toBe(1);
    const minted = await add(client, { name: 'minted' });
    expect(minted.status).toBe(403);
    expect(minted.body).toEqual({ code: 0, message: '令牌登录的会话不能管理令牌，请使用账号密码登录后操作', data: null });
    expect((await update(client, { id, name: 'x' })).body.message).toBe('令牌登录的会话不能管理令牌，请使用账号密码登录后操作');
    expect((await remove(client, id)).status).toBe(403);
    expect((await list(ann, '?keyword=minted')).body.data.total).toBe(0);
  });

  it('refuses bad input with its message beside the field, and writes nothing', async () => {
    const count = async () => (await list(ann)).body.data.total as number;
    const before = await count();
    const nameRule = '请输入1-100个字符，不能包含[*?"<>|；《》]及空格';
    for (const [body, message, field] of [
      [{ name: '' }, nameRule, 'name'],
      [{ name: 'has space' }, nameRule, 'name'],
      [{ name: 'x'.repeat(101) }, nameRule, 'name'],
      [{ name: '坏<名>' }, nameRule, 'name'],
      [{ name: 'nightly' }, '已有名为“nightly”的令牌', 'name'],
      [{ name: 'NIGHTLY' }, '已有名为“NIGHTLY”的令牌', 'name'],
      [{ name: 'past', expiresAt: '2020-01-01T00:00:00Z' }, '过期时间必须晚于当前时间', 'expiresAt'],
      [{ name: 'past', expiresAt: new Date(Date.now() - 60_000).toISOString() }, '过期时间必须晚于当前时间', 'expiresAt'],
      [{ name: 'far', expiresAt: inDays(3700) }, '过期时间不能超过 10 年', 'expiresAt'],
      [{ name: 'garbled', expiresAt: 'tomorrow' }, '过期时间格式不正确', 'expiresAt'],
      [{ name: 'garbled', expiresAt: '2099-13-45T99:00:00Z' }, '过期时间格式不正确', 'expiresAt'],
    ] as const) {
      expect((await add(ann, body)).body, JSON.stringify(body)).toEqual({ code: 0, message, data: null, field });
    }
    // Beyond the schema's bounds: 400 before the service.
    expect((await add(ann, { name: 'x'.repeat(201) })).status).toBe(400);
    expect((await add(ann, {})).status).toBe(400);
    expect((await add(ann, { name: 'ok', expiresAt: 'x'.repeat(41) })).status).toBe(400);
    expect((await update(ann, { id: 0, name: 'x' })).status).toBe(400);
    expect((await update(ann, { id: 'abc' })).status).toBe(400);
    expect((await remove(ann, -1 as number)).status).toBe(400);
    expect((await list(ann, '?size=501')).status).toBe(400);
    const mine = (await list(ann)).body.data.content[0];
    expect((await update(ann, { id: mine.id })).body).toEqual({ code: 0, message: '请指定要修改的名称或状态', data: null });
    expect((await update(ann, { id: mine.id, name: 'nightly' })).body).toMatchObject({ code: 0, message: '已有名为“nightly”的令牌', field: 'name' });
    // A bare date is that day's end; an hour ahead is fine.
    expect((await add(ann, { name: 'by-date', expiresAt: inDays(10).slice(0, 10) })).body.data.expiresAt).toMatch(/T23:59:59\.999Z$/);
    expect((await count())).toBe(before + 1);
  });

  it('holds at most 50 tokens per user', async () => {
    const carl = (await signIn(server, 'carl', 'Carl@123456')).client;
    for (let i = 0; i < 50; i++) expect((await add(carl, { name: `t${i}` })).body.code).toBe(1);
    expect((await add(carl, { name: 't50' })).body).toEqual({ code: 0, message: '每个用户最多持有 50 个令牌，请先删除不再使用的令牌', data: null });
  });

  it('refuses every call without a session and a state change without the CSRF header', async () => {
    const anonymous = server.client();
    await anonymous.fetchCsrf();
    for (const reply of [await list(anonymous), await add(anonymous, { name: 'x' }), await update(anonymous, { id: 1, name: 'x' }), await remove(anonymous, 1)]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ code: 3, message: '登录已失效，请重新登录' });
    }
    const noCsrf = await ann.request({ method: 'POST', url: '/api/personalToken/addPersonalToken', body: { name: 'x' }, csrf: false });
    expect(noCsrf.status).toBe(403);
  });
});
