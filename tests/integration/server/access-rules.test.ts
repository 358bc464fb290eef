// 安全管控 IP rules over HTTP (/api/system/access/*, /api/ip): the caller's address, rules refusing
// calls of a session and logins (password and token) from outside them, deny before allow,
// named-user rules, CIDR, IPv6 and IPv4-mapped addresses, the lock-out guard (add, edit, disable,
// delete), bad input with its Chinese messages and field, the permission, and the audit rows.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invalidateAccessRules } from '../../../server/auth/access-rules.ts';
import { createPersonalToken } from '../../../server/db/repositories/personal-tokens.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

type Rule = { address: string; action: 'ALLOW' | 'DENY'; scope?: 'ALL' | 'USERS'; userIds?: number[]; enabled?: boolean; remark?: string };

describe.each(databases)('IP 访问规则 on $name', (database) => {
  let admin: TestClient;
  let user: TestClient;
  let userId: number;
  let other: TestClient;

  const server = useServer(database);
  const db = () => server.app.cairn.db;

  const add = (rule: Rule, client = admin) =>
    client.request({ method: 'POST', url: '/api/system/access/add', body: { scope: 'ALL', ...rule } });
  const edit = (id: number, rule: Rule, client = admin) =>
    client.request({ method: 'POST', url: '/api/system/access/edit', body: { id, scope: 'ALL', ...rule } });
  const remove = (id: number, client = admin) => client.request({ method: 'DELETE', url: `/api/system/access/delete?id=${id}` });
  const list = async (query = '') => (await admin.request({ method: 'GET', url: `/api/system/access/list${query}` })).body.data;
  /** A call any signed-in user may make, from `remoteAddress`. */
  const call = (client: TestClient, remoteAddress?: string) =>
    client.request({ method: 'GET', url: '/api/subjectType/querySubjectTypeNameList', ...(remoteAddress && { remoteAddress }) });
  const loginFrom = async (username: string, password: string, remoteAddress: string) => {
    const client = server.client();
    await client.fetchCsrf();
    return client.request({ method: 'POST', url: '/api/login', body: { username, password }, remoteAddress });
  };
  const refused = (ip: string) => ({ code: 0, message: `当前地址 ${ip} 不允许访问平台，请联系管理员`, data: null });

  beforeAll(async () => {
    admin = await adminClient(server);
    ({ id: userId, client: user } = await signIn(server, 'uma', 'Uma@123456'));
    ({ client: other } = await signIn(server, 'otto', 'Otto@123456'));
  });
  beforeEach(async () => {
    await db().deleteFrom('access_rules').execute();
    invalidateAccessRules(db());
  });

  it('tells the caller their address, IPv4-mapped IPv6 as IPv4', async () => {
    expect((await user.request({ method: 'GET', url: '/api/ip' })).body).toMatchObject({ code: 1, data: { ip: '127.0.0.1' } });
    expect((await user.request({ method: 'GET', url: '/api/ip', remoteAddress: '::ffff:10.1.2.3' })).body.data).toEqual({ ip: '10.1.2.3' });
    expect((await user.request({ method: 'GET', url: '/api/ip', remoteAddress: '2001:db8::7' })).body.data).toEqual({ ip: '2001:db8::7' });
    expect((await server.client().request({ method: 'GET', url: '/api/ip' })).body.code).toBe(3);
  });

  it('adds a deny range that refuses calls and logins from inside it, at once', async () => {
    const added = await add({ address: ' 10.9.0.0/16 ', action: 'DENY', remark: '外包网段' });
    expect(added.body).toMatchObject({
      code: 1, message: '添加成功',
      data: { address: '10.9.0.0/16', action: 'DENY', scope: 'ALL', users: [], enabled: true, remark: '外包网段', createdBy: '系统管理员' },
    });
    // A session's calls from inside the range, also as an IPv4-mapped IPv6 address.
    expect((await call(user, '10.9.1.1')).status).toBe(403);
    expect((await call(user, '10.9.1.1')).body).toEqual(refused('10.9.1.1'));
    expect((await call(user, '::ffff:10.9.200.3')).body).toEqual(refused('10.9.200.3'));
    expect((await call(user, '10.10.0.1')).body.code).toBe(1);
    expect((await call(user)).body.code).toBe(1);

    // The login: the right password hears why; a wrong one hears only 用户名或密码错误.
    expect((await loginFrom('uma', 'Uma@123456', '10.9.3.3')).body).toEqual(refused('10.9.3.3'));
    expect((await loginFrom('uma', 'wrong-password', '10.9.3.3')).body.message).toBe('用户名或密码错误');
    expect((await loginFrom('uma', 'Uma@123456', '10.8.3.3')).body.code).toBe(1);
    const audited = await db().selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', 'login.refused.address').execute();
    expect(audited.map((r) => [r.user_id, JSON.parse(r.detail)])).toContainEqual([userId, { ip: '10.9.3.3', login: 'login' }]);

    // Deleting it lets the address in on the next call (the cache is dropped).
    expect((await remove(added.body.data.id)).body).toMatchObject({ code: 1, message: '删除成功' });
    expect((await call(user, '10.9.1.1')).body.code).toBe(1);
  });

  it('refuses the token login from outside the rules', async () => {
    const key = await createPersonalToken(db(), { userId, name: 'ci', expiresAt: null });
    await add({ address: '198.51.100.0/24', action: 'DENY', scope: 'USERS', userIds: [userId] });
    const client = server.client();
    const from = (remoteAddress: string) => client.request({ method: 'POST', url: `/api/token/login?key=${key}`, remoteAddress });
    expect((await from('198.51.100.20')).body).toEqual(refused('198.51.100.20'));
    expect((await from('198.51.101.20')).body).toMatchObject({ code: 1, data: { username: 'uma' } });
  });

  it('once an allow rule applies, requires the address to match one; deny wins over allow', async () => {
    await add({ address: '127.0.0.1', action: 'ALLOW' });
    await add({ address: '192.168.5.0/24', action: 'ALLOW' });
    expect((await call(user)).body.code).toBe(1);
    expect((await call(user, '192.168.5.77')).body.code).toBe(1);
    expect((await call(user, '192.168.6.1')).body).toEqual(refused('192.168.6.1'));
    expect((await loginFrom('uma', 'Uma@123456', '172.16.0.1')).body).toEqual(refused('172.16.0.1'));

    await add({ address: '192.168.5.77', action: 'DENY' });
    expect((await call(user, '192.168.5.77')).body).toEqual(refused('192.168.5.77'));
    expect((await call(user, '192.168.5.78')).body.code).toBe(1);
  });

  it('applies rules for named users to them only, IPv6 ranges included', async () => {
    await add({ address: '2001:db8::/32', action: 'DENY', scope: 'USERS', userIds: [userId] });
    expect((await call(user, '2001:db8:5::1')).body).toEqual(refused('2001:db8:5::1'));
    expect((await call(user, '2001:db9::1')).body.code).toBe(1);
    expect((await call(other, '2001:db8:5::1')).body.code).toBe(1);

    const allowOnly = await add({ address: '203.0.113.0/24', action: 'ALLOW', scope: 'USERS', userIds: [userId], remark: 'uma 只能在办公网' });
    expect(allowOnly.body.data.users).toEqual([{ userId, username: 'uma', name: 'uma' }]);
    expect((await call(user, '198.51.100.1')).body).toEqual(refused('198.51.100.1'));
    expect((await call(user, '203.0.113.9')).body.code).toBe(1);
    expect((await call(other, '198.51.100.1')).body.code).toBe(1);

    // Disabling the rule lifts it.
    const disabled = await edit(allowOnly.body.data.id, { address: '203.0.113.0/24', action: 'ALLOW', scope: 'USERS', userIds: [userId], enabled: false });
    expect(disabled.body).toMatchObject({ code: 1, message: '修改成功', data: { enabled: false } });
    expect((await call(user, '198.51.100.1')).body.code).toBe(1);
  });

  it('lists newest first with filters and paging', async () => {
    await add({ address: '127.0.0.1', action: 'ALLOW' });
    await add({ address: '10.0.0.0/8', action: 'ALLOW', remark: '内网' });
    await add({ address: '10.66.0.0/16', action: 'DENY', scope: 'USERS', userIds: [userId], enabled: false });
    expect((await list()).content.map((r: { address: string }) => r.address)).toEqual(['10.66.0.0/16', '10.0.0.0/8', '127.0.0.1']);
    expect(await list('?page=2&size=2')).toMatchObject({ total: 3, content: [{ address: '127.0.0.1' }] });
    expect((await list('?action=DENY')).content.map((r: { address: string }) => r.address)).toEqual(['10.66.0.0/16']);
    expect((await list('?enabled=true')).total).toBe(2);
    expect((await list('?keyword=%E5%86%85%E7%BD%91')).content.map((r: { address: string }) => r.address)).toEqual(['10.0.0.0/8']);
    expect((await list('?keyword=UMA')).total).toBe(1);
    expect((await admin.request({ method: 'GET', url: '/api/system/access/list?action=MAYBE' })).status).toBe(400);
  });

  it('will not save a rule set that shuts the administrator out, and writes nothing', async () => {
    // Adding a deny rule over one's own address, for everyone or for oneself.
    expect((await add({ address: '127.0.0.0/8', action: 'DENY' })).body)
      .toEqual({ code: 0, message: '保存后您当前的地址 127.0.0.1 会被拒绝规则 127.0.0.0/8 拦截，您将无法访问平台，未保存', data: null });
    // Adding the first allow rule without one's own address.
    expect((await add({ address: '10.0.0.0/8', action: 'ALLOW' })).body.message)
      .toBe('保存后您当前的地址 127.0.0.1 不在任何允许规则内，您将无法访问平台，未保存；请先添加允许该地址的规则');
    // The same from an IPv4-mapped address.
    expect((await admin.request({ method: 'POST', url: '/api/system/access/add', body: { address: '10.0.0.0/8', action: 'ALLOW', scope: 'ALL' }, remoteAddress: '::ffff:127.0.0.1' })).body.message)
      .toContain('保存后您当前的地址 127.0.0.1 不在任何允许规则内');
    expect((await list()).total).toBe(0);

    // A rule for others only does not shut the administrator out.
    expect((await add({ address: '10.0.0.0/8', action: 'ALLOW', scope: 'USERS', userIds: [userId] })).body.code).toBe(1);
    const own = (await add({ address: '127.0.0.1', action: 'ALLOW' })).body.data;
    const lan = (await add({ address: '192.168.0.0/16', action: 'ALLOW' })).body.data;
    // Editing one's own allow rule away, disabling it, deleting it: each refused while another allow rule stands.
    expect((await edit(own.id, { address: '127.0.0.2', action: 'ALLOW' })).body.message).toContain('不在任何允许规则内');
    expect((await edit(own.id, { address: '127.0.0.1', action: 'ALLOW', enabled: false })).body.message).toContain('不在任何允许规则内');
    expect((await remove(own.id)).body.message).toContain('不在任何允许规则内');
    // Turning an allow rule into a deny rule over oneself.
    expect((await edit(lan.id, { address: '127.0.0.0/8', action: 'DENY' })).body.message).toContain('会被拒绝规则 127.0.0.0/8 拦截');
    const rows = (await list()).content as Array<{ id: number; address: string; enabled: boolean; action: string }>;
    expect(rows.map((r) => [r.address, r.action, r.enabled])).toEqual([['192.168.0.0/16', 'ALLOW', true], ['127.0.0.1', 'ALLOW', true], ['10.0.0.0/8', 'ALLOW', true]]);
    // Once the other allow rule is gone, deleting one's own leaves no allow rule for the administrator.
    expect((await remove(lan.id)).body.code).toBe(1);
    expect((await remove(own.id)).body.code).toBe(1);
    expect((await call(admin)).body.code).toBe(1);
  });

  it('refuses bad input naming the field, and unknown rules', async () => {
    const cases: Array<[Rule, string, string]> = [
      [{ address: 'not-an-ip', action: 'DENY' }, 'address', '“not-an-ip”不是有效的 IP 地址或网段（如 192.168.1.10、10.0.0.0/8、2001:db8::/32）'],
      [{ address: '', action: 'DENY' }, 'address', '请填写 IP 地址或网段'],
      [{ address: '10.0.0.0/33', action: 'DENY' }, 'address', '“10.0.0.0/33”的前缀长度须为 0 到 32 之间的整数'],
      [{ address: '2001:db8::/200', action: 'DENY' }, 'address', '“2001:db8::/200”的前缀长度须为 0 到 128 之间的整数'],
      [{ address: '10.1.2.3/8', action: 'DENY' }, 'address', '网段“10.1.2.3/8”的主机位不为 0，应写作 10.0.0.0/8'],
      [{ address: '10.0.0.0/8', action: 'DENY', scope: 'USERS', userIds: [] }, 'userIds', '请选择规则适用的用户'],
      [{ address: '10.0.0.0/8', action: 'DENY', scope: 'USERS', userIds: [userId, 99999, 99998] }, 'userIds', '用户不存在（ID：99998、99999）'],
      [{ address: '10.0.0.0/8', action: 'DENY', remark: '含有<尖括号>' }, 'remark', '请输入0-200个字符，不能包含[*?"<>|；《》]'],
    ];
    for (const [rule, field, message] of cases) {
      expect((await add(rule)).body, rule.address).toEqual({ code: 0, message, data: null, field });
    }
    await add({ address: '10.0.0.0/8', action: 'DENY' });
    expect((await add({ address: '10.0.0.0/8', action: 'DENY' })).body).toEqual({ code: 0, message: '已有相同的拒绝规则：10.0.0.0/8', data: null, field: 'address' });
    // Schema refusals: no action, an unknown scope, a bad id.
    expect((await admin.request({ method: 'POST', url: '/api/system/access/add', body: { address: '10.0.0.1', scope: 'ALL' } })).status).toBe(400);
    expect((await admin.request({ method: 'POST', url: '/api/system/access/add', body: { address: '10.0.0.1', action: 'DENY', scope: 'SOME' } })).status).toBe(400);
    expect((await admin.request({ method: 'DELETE', url: '/api/system/access/delete?id=abc' })).status).toBe(400);
    expect((await edit(99999, { address: '10.0.0.1', action: 'DENY' })).body).toMatchObject({ code: 0, message: 'IP 访问规则不存在' });
    expect((await remove(99999)).body).toMatchObject({ code: 0, message: 'IP 访问规则不存在' });
    expect((await list()).total).toBe(1);
  });

  it('drops a deleted user from the rules that named them', async () => {
    const { id: gone } = await signIn(server, 'gone', 'Gone@123456');
    const rule = (await add({ address: '10.0.0.0/8', action: 'DENY', scope: 'USERS', userIds: [gone, userId] })).body.data;
    expect(rule.users.map((u: { username: string }) => u.username)).toEqual(['gone', 'uma']);
    await db().deleteFrom('users').where('id', '=', gone).execute();
    expect((await list()).content[0].users.map((u: { username: string }) => u.username)).toEqual(['uma']);
  });

  it('keeps the rules to holders of setup:sys and to signed-in callers', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/system/access/list', undefined],
      ['POST', '/api/system/access/add', { address: '10.0.0.1', action: 'DENY', scope: 'ALL' }],
      ['POST', '/api/system/access/edit', { id: 1, address: '10.0.0.1', action: 'DENY', scope: 'ALL' }],
      ['DELETE', '/api/system/access/delete?id=1', undefined],
    ] as const) {
      const denied = await user.request({ method, url, ...(body !== undefined && { body }) });
      expect(denied.status, `${method} ${url}`).toBe(403);
      const anonymous = server.client();
      await anonymous.fetchCsrf();
      expect((await anonymous.request({ method, url, ...(body !== undefined && { body }) })).body.code, `${method} ${url}`).toBe(3);
    }
    expect((await list()).total).toBe(0);
  });

  it('records each command with before, after and the address', async () => {
    const added = (await add({ address: '10.0.0.0/8', action: 'DENY', scope: 'USERS', userIds: [userId], remark: '审计' })).body.data;
    await edit(added.id, { address: '10.0.0.0/16', action: 'DENY', remark: '审计2' });
    await admin.request({ method: 'DELETE', url: `/api/system/access/delete?id=${added.id}`, remoteAddress: '::ffff:127.0.0.1' });
    const rows = await db().selectFrom('audit_log').select(['action', 'detail', 'user_id']).where('action', 'like', 'accessRule.%').orderBy('id').execute();
    const details = rows.slice(-3).map((r) => [r.action, JSON.parse(r.detail)]);
    const before = { address: '10.0.0.0/8', action: 'DENY', scope: 'USERS', users: ['uma'], enabled: true, remark: '审计' };
    const after = { address: '10.0.0.0/16', action: 'DENY', scope: 'ALL', users: [], enabled: true, remark: '审计2' };
    expect(details).toEqual([
      ['accessRule.added', { id: added.id, after: before, ip: '127.0.0.1' }],
      ['accessRule.modified', { id: added.id, before, after, ip: '127.0.0.1' }],
      ['accessRule.deleted', { id: added.id, before: after, ip: '::ffff:127.0.0.1' }],
    ]);
    expect(new Set(rows.map((r) => r.user_id)).size).toBe(1);
  });
});

describe.each(databases)('IP 访问规则 behind a proxy on $name', (database) => {
  // The platform believes X-Forwarded-For only from the proxy it is told of (CAIRN_TRUST_PROXY).
  const server = useServer(database, { trustProxy: ['10.0.0.1'] });
  let admin: TestClient;
  let user: TestClient;

  beforeAll(async () => {
    admin = await adminClient(server);
    user = (await signIn(server, 'pia', 'Pia@1234567')).client;
    const added = await admin.request({ method: 'POST', url: '/api/system/access/add', body: { address: '203.0.113.0/24', action: 'DENY', scope: 'ALL' } });
    expect(added.body.code).toBe(1);
  });

  const via = (remoteAddress: string, forwardedFor: string) =>
    user.request({ method: 'GET', url: '/api/ip', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  it('judges the client the trusted proxy names', async () => {
    expect((await via('10.0.0.1', '203.0.113.5')).body).toMatchObject({ code: 0, message: '当前地址 203.0.113.5 不允许访问平台，请联系管理员' });
    expect((await via('10.0.0.1', '198.51.100.5')).body).toMatchObject({ code: 1, data: { ip: '198.51.100.5' } });
  });

  it('ignores X-Forwarded-For from anyone else: it can neither dodge nor frame a rule', async () => {
    expect((await via('203.0.113.9', '198.51.100.5')).body).toMatchObject({ code: 0, message: '当前地址 203.0.113.9 不允许访问平台，请联系管理员' });
    expect((await via('198.51.100.7', '203.0.113.5')).body).toMatchObject({ code: 1, data: { ip: '198.51.100.7' } });
  });
});
