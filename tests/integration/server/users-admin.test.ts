// User administration (issue 18, /system/user/*): the list and its filters, create, edit, reset a
// password, delete, the notification address, the password-change information, the Excel import
// with its records and per-row history, and the synchronisation of external users from a loopback
// HTTP source. Refusals without a session and without setup:user:user:list, hostile input, each
// Chinese message, the audit rows (never a password). On SQLite and PostgreSQL.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../contract/permissions.ts';
import { NAME_MESSAGE } from '../../../contract/validation.ts';
import { USERNAME_MESSAGE } from '../../../contract/api/user.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const HINT = '密码由8位及以上大写字母、小写字母、数字、特殊字符组成';

function multipart(field: string, filename: string, content: Buffer) {
  const boundary = `----cairn${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function workbook(rows: string[][], headers = ['用户名', '姓名', '初始密码', '邮箱', '手机号', '角色', '分组']): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe.each(databases)('user administration on $name', (database) => {
  const server = useServer(database);
  let admin: TestClient;
  let adminId: number;
  let ordinaryRoleId: number;
  let adminRoleId: number;
  let groupA: number;
  let groupB: number;
  beforeAll(async () => {
    admin = await adminClient(server);
    const db = server.app.cairn.db;
    adminId = (await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    ordinaryRoleId = (await db.selectFrom('roles').select('id').where('code', '=', ROLE.ORDINARY_USER).executeTakeFirstOrThrow()).id;
    adminRoleId = (await db.selectFrom('roles').select('id').where('code', '=', ROLE.DOMAIN_ADMIN).executeTakeFirstOrThrow()).id;
    const now = new Date().toISOString();
    groupA = (await db.insertInto('subject_groups').values({ pid: null, name: '总部', created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
    groupB = (await db.insertInto('subject_groups').values({ pid: groupA, name: '研发部', created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
  });

  const db = () => server.app.cairn.db;
  const audits = async (action: string) =>
    (await db().selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', action).orderBy('id').execute())
      .map((r) => ({ userId: r.user_id, detail: JSON.parse(r.detail) as Record<string, any>, text: r.detail }));
  const create = (client: TestClient, body: Record<string, unknown>) => client.request({ method: 'POST', url: '/api/user', body });
  const newUser = (username: string, extra: Record<string, unknown> = {}) =>
    create(admin, { username, name: `用户${username}`, password: 'Start#Pass1', roleIds: [ordinaryRoleId], ...extra });

  it('refuses without a session and without setup:user:user:list', async () => {
    const anonymous = server.client();
    await anonymous.fetchCsrf();
    const calls = [
      { method: 'GET' as const, url: '/api/user/pageUser' },
      { method: 'POST' as const, url: '/api/user', body: { username: 'x1', name: 'x', password: 'Start#Pass1', roleIds: [ordinaryRoleId] } },
      { method: 'PATCH' as const, url: `/api/user/${adminId}`, body: { name: 'x', roleIds: [ordinaryRoleId] } },
      { method: 'PATCH' as const, url: `/api/user/reset/${adminId}`, body: { password: 'Start#Pass1' } },
      { method: 'DELETE' as const, url: `/api/user/deleteUsers?userIds=${adminId}` },
      { method: 'POST' as const, url: '/api/user/importTemplate' },
      { method: 'GET' as const, url: '/api/user/importRecords' },
      { method: 'GET' as const, url: '/api/user/importHistorys?recordId=1' },
      { method: 'GET' as const, url: '/api/suzhou/import' },
      { method: 'GET' as const, url: '/api/user/sync/source' },
    ];
    const { client: ordinary } = await signIn(server, 'plain1', 'Plain#Pass1');
    for (const call of calls) {
      const none = await anonymous.request(call);
      expect(none.status, call.url).toBe(401);
      const denied = await ordinary.request(call);
      expect(denied.status, call.url).toBe(403);
      expect(denied.body.message).toBe('Permission denied');
    }
    expect((await db().selectFrom('users').select('id').where('username', '=', 'x1').execute())).toEqual([]);
    expect((await anonymous.request({ method: 'GET', url: '/api/user/modify/info' })).status).toBe(401);
  });

  it('creates a platform user who must change the password at the first login; the audit row holds no password', async () => {
    const reply = await newUser('alice', { email: 'alice@example.com', phone: '13800000000', groupIds: [groupB] });
    expect(reply.body).toMatchObject({ code: 1, message: '添加成功', data: { username: 'alice', userType: 0, userTypeLabel: '平台用户', updatedPwd: false, localPassword: true, isLock: 'N' } });
    expect(reply.body.data.roles).toEqual([{ id: ordinaryRoleId, code: 3, name: '普通用户' }]);
    expect(reply.body.data.groups).toEqual([{ id: groupB, name: '研发部' }]);
    const [row] = await audits('user.created');
    expect(row).toMatchObject({ userId: adminId, detail: { address: '127.0.0.1', after: { username: 'alice', roles: ['普通用户'], groups: ['研发部'] } } });
    expect(row!.text).not.toContain('Start#Pass1');
    expect(row!.text).not.toMatch(/scrypt|password_hash|passwordHash/);

    const alice = server.client();
    const login = await alice.login('alice', 'Start#Pass1');
    expect(login.body).toMatchObject({ code: 1, data: { updatedPwd: false } });
    expect((await alice.request({ method: 'GET', url: '/api/subject/list' })).status).toBe(403);
    const info = await alice.request({ method: 'GET', url: '/api/user/modify/info' });
    expect(info.body).toMatchObject({ code: 1, data: { username: 'alice', mustChange: true, localPassword: true, hint: HINT, passwordChangedAt: null } });
  });

  it('refuses a duplicate username (any case), a bad username, name, password, e-mail, unknown roles and groups, with nothing written', async () => {
    await newUser('bob');
    const before = Number((await db().selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ username: 'BOB' }, '用户名已存在：bob', 'username'],
      [{ username: "x' OR 1=1 --" }, USERNAME_MESSAGE, 'username'],
      [{ username: '../etc' }, USERNAME_MESSAGE, 'username'],
      [{ username: 'carl', name: 'a b' }, NAME_MESSAGE, 'name'],
      [{ username: 'carl', name: '<script>' }, NAME_MESSAGE, 'name'],
      [{ username: 'carl', password: 'short' }, HINT, 'password'],
      [{ username: 'carl', password: 'alllowercase1!' }, HINT, 'password'],
      [{ username: 'carl', email: 'not-an-email' }, '邮箱格式不正确', 'email'],
      [{ username: 'carl', phone: 'abc' }, '手机号格式不正确', 'phone'],
      [{ username: 'carl', roleIds: [99999] }, '角色不存在：99999', 'roleIds'],
      [{ username: 'carl', groupIds: [88888] }, '分组不存在：88888', 'groupIds'],
    ];
    for (const [body, message, field] of cases) {
      const reply = await newUser((body.username as string) ?? 'carl', body);
      expect(reply.body, JSON.stringify(body)).toMatchObject({ code: 0, message, field });
    }
    const missingRoles = await create(admin, { username: 'carl', name: 'carl', password: 'Start#Pass1', roleIds: [] });
    expect(missingRoles.status).toBe(400);
    const after = Number((await db().selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before);
  });

  it('lists users with filters by keyword, type, role, group and lock state, sorted and paged', async () => {
    await newUser('dora_x', { groupIds: [groupA] });
    await newUser('dora_y', { roleIds: [adminRoleId] });
    const dy = (await db().selectFrom('users').select('id').where('username', '=', 'dora_y').executeTakeFirstOrThrow()).id;
    await db().updateTable('users').set({ user_type: 7 }).where('username', '=', 'dora_x').execute();
    await admin.request({ method: 'PATCH', url: `/api/user/lock?userIds=${dy}` });
    const list = async (query: string) => {
      const reply = await admin.request({ method: 'GET', url: `/api/user/pageUser?${query}` });
      expect(reply.body.code, query).toBe(1);
      return { total: reply.body.data.total as number, names: (reply.body.data.content as Array<{ username: string }>).map((u) => u.username) };
    };
    expect(await list('keyword=dora&sort=username')).toEqual({ total: 2, names: ['dora_x', 'dora_y'] });
    expect(await list('keyword=DORA&sort=username&order=desc')).toEqual({ total: 2, names: ['dora_y', 'dora_x'] });
    expect(await list('keyword=用户dora_&sort=username')).toEqual({ total: 2, names: ['dora_x', 'dora_y'] });
    // LIKE wildcards are matched as themselves.
    expect((await list('keyword=%25')).total).toBe(0);
    expect((await list('keyword=dora&userType=6')).names).toEqual(['dora_x']);
    expect((await list('keyword=dora&userType=0')).names).toEqual(['dora_y']);
    expect((await list(`keyword=dora&roleId=${adminRoleId}`)).names).toEqual(['dora_y']);
    expect((await list(`groupId=${groupA}`)).names).toEqual(['dora_x']);
    expect((await list('keyword=dora&isLock=Y')).names).toEqual(['dora_y']);
    expect((await list('keyword=dora&isLock=N')).names).toEqual(['dora_x']);
    const paged = await list('page=2&size=1&sort=username');
    expect(paged.names).toHaveLength(1);
    expect(paged.total).toBeGreaterThan(3);
    const synced = await admin.request({ method: 'GET', url: '/api/user/pageUser?keyword=dora_x' });
    expect(synced.body.data.content[0]).toMatchObject({ userTypeLabel: '外部同步用户', localPassword: false });
    expect((await admin.request({ method: 'GET', url: '/api/user/pageUser?userType=11' })).status).toBe(400);
    expect((await admin.request({ method: 'GET', url: '/api/user/pageUser?sort=password_hash' })).status).toBe(400);
  });

  it('edits details, roles and groups: a role change says it applies at the next login, and does so', async () => {
    const { id, client } = await signIn(server, 'erin', 'Erin#Pass12');
    const same = await admin.request({ method: 'PATCH', url: `/api/user/${id}`, body: { name: '艾琳', email: 'erin@example.com', roleIds: [ordinaryRoleId], groupIds: [groupA] } });
    expect(same.body).toMatchObject({ code: 1, message: '修改成功', data: { name: '艾琳', email: 'erin@example.com', groups: [{ id: groupA, name: '总部' }] } });
    const changed = await admin.request({ method: 'PATCH', url: `/api/user/${id}`, body: { name: '艾琳', roleIds: [ordinaryRoleId, adminRoleId] } });
    expect(changed.body).toMatchObject({ code: 1, message: '若修改分配角色，用户需重新登录才可生效', data: { email: null, groups: [] } });
    // Until erin logs in again, her session keeps the old grant.
    expect((await client.request({ method: 'GET', url: '/api/user/pageUser' })).status).toBe(403);
    await client.login('erin', 'Erin#Pass12');
    expect((await client.request({ method: 'GET', url: '/api/user/pageUser' })).body.code).toBe(1);
    const [row] = (await audits('user.updated')).filter((a) => a.detail.after?.username === 'erin' && a.detail.rolesChanged);
    expect(row!.detail).toMatchObject({ before: { roles: ['普通用户'] }, after: { roles: ['域管理员', '普通用户'] }, address: '127.0.0.1' });

    expect((await admin.request({ method: 'PATCH', url: '/api/user/999999', body: { name: 'x', roleIds: [ordinaryRoleId] } })).body).toMatchObject({ code: 0, message: '用户不存在' });
    expect((await admin.request({ method: 'PATCH', url: `/api/user/${id}`, body: { name: 'x y', roleIds: [ordinaryRoleId] } })).body).toMatchObject({ code: 0, message: NAME_MESSAGE });
    // Back to ordinary, so the last-administrator tests below count admin alone (and dora_y).
    await admin.request({ method: 'PATCH', url: `/api/user/${id}`, body: { name: '艾琳', roleIds: [ordinaryRoleId] } });
  });

  it('resets a password: temporary, the sessions end, the user must change it at the next login; LDAP and synchronised users have none', async () => {
    const { id, client } = await signIn(server, 'fred', 'Fred#Pass12');
    expect((await admin.request({ method: 'PATCH', url: `/api/user/reset/${id}`, body: { password: 'weak' } })).body).toMatchObject({ code: 0, message: HINT, field: 'password' });
    const reply = await admin.request({ method: 'PATCH', url: `/api/user/reset/${id}`, body: { password: 'Reset#Pass1' } });
    expect(reply.body).toMatchObject({ code: 1, message: '操作成功' });
    expect((await client.request({ method: 'GET', url: '/api/user/self' })).status).toBe(401);
    expect((await client.login('fred', 'Fred#Pass12')).body.code).toBe(0);
    const login = await client.login('fred', 'Reset#Pass1');
    expect(login.body).toMatchObject({ code: 1, data: { updatedPwd: false } });
    expect((await client.request({ method: 'GET', url: '/api/user/modify/info' })).body.data).toMatchObject({ mustChange: true });
    expect((await client.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: 'Reset#Pass1', password: 'Fred#Pass34' } })).body.code).toBe(1);
    expect((await client.login('fred', 'Fred#Pass34')).body.data.updatedPwd).toBe(true);
    const row = (await audits('user.password.reset')).at(-1)!;
    expect(row.detail).toMatchObject({ user: { id, username: 'fred' }, sessionsEnded: 1, address: '127.0.0.1' });
    expect(row.text).not.toContain('Reset#Pass1');

    for (const type of [2, 6, 10]) {
      await db().updateTable('users').set({ user_type: type }).where('id', '=', id).execute();
      expect((await admin.request({ method: 'PATCH', url: `/api/user/reset/${id}`, body: { password: 'Reset#Pass1' } })).body)
        .toMatchObject({ code: 0, message: 'LDAP 用户和外部同步用户的密码由其来源系统管理，不能在平台重置' });
    }
    await db().updateTable('users').set({ user_type: 0 }).where('id', '=', id).execute();
    expect((await admin.request({ method: 'PATCH', url: '/api/user/reset/999999', body: { password: 'Reset#Pass1' } })).body).toMatchObject({ code: 0, message: '用户不存在' });
  });

  it('deletes users (SUCCESS): owned 应用 stay without an owner; never oneself, never the last domain administrator, all or nothing', async () => {
    await newUser('gina');
    const gina = (await db().selectFrom('users').select('id').where('username', '=', 'gina').executeTakeFirstOrThrow()).id;
    const now = new Date().toISOString();
    const subject = (await db().insertInto('subjects').values({ uuid: randomUUID(), name: 'gina的应用', owner_id: gina, group_id: null, subject_type: null, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow()).id;

    expect((await admin.request({ method: 'DELETE', url: `/api/user/deleteUsers?userIds=${adminId}` })).body).toMatchObject({ code: 0, message: '不能删除当前登录的账号' });
    expect((await admin.request({ method: 'DELETE', url: `/api/user/deleteUsers?userIds=${gina},999999` })).body).toMatchObject({ code: 0, message: '用户不存在：999999' });
    expect(await db().selectFrom('users').select('id').where('id', '=', gina).executeTakeFirst()).toBeDefined();

    const reply = await admin.request({ method: 'DELETE', url: `/api/user/deleteUsers?userIds=${gina}` });
    expect(reply.body).toEqual({ code: 1, message: 'SUCCESS', data: 'SUCCESS' });
    expect(await db().selectFrom('users').select('id').where('id', '=', gina).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom('subjects').select(['name', 'owner_id']).where('id', '=', subject).executeTakeFirst()).toEqual({ name: 'gina的应用', owner_id: null });
    const row = (await audits('user.deleted')).at(-1)!;
    expect(row.detail).toMatchObject({ users: [{ username: 'gina' }], subjectsLeftWithoutOwner: 1, address: '127.0.0.1' });

    // A user manager who is no domain administrator cannot remove the last ones.
    const role = await db().insertInto('roles').values({ code: 901, name: '用户管理员' }).returning('id').executeTakeFirstOrThrow();
    await db().insertInto('role_permissions').values({ role_id: role.id, permission_code: 'setup:user:user:list' }).execute();
    const manager = await server.addUser('manager', 'Mana#Pass12', [901]);
    const client = server.client();
    await client.login('manager', 'Mana#Pass12');
    const admins = (await db().selectFrom('user_roles').select('user_id').where('role_id', '=', adminRoleId).execute()).map((r) => r.user_id);
    expect(admins.length).toBeGreaterThanOrEqual(2);
    const refused = await client.request({ method: 'DELETE', url: `/api/user/deleteUsers?userIds=${admins.join(',')}` });
    expect(refused.body).toMatchObject({ code: 0, message: '不能删除最后一个域管理员' });
    expect((await db().selectFrom('user_roles').select('user_id').where('role_id', '=', adminRoleId).execute())).toHaveLength(admins.length);
    // One of two goes; then the last one stays, and keeps that role.
    const other = admins.find((id) => id !== adminId)!;
    expect((await client.request({ method: 'DELETE', url: `/api/user/deleteUsers?userIds=${other}` })).body.data).toBe('SUCCESS');
    expect((await client.request({ method: 'DELETE', url: `/api/user/deleteUsers?userIds=${adminId}` })).body).toMatchObject({ code: 0, message: '不能删除最后一个域管理员' });
    expect((await client.request({ method: 'PATCH', url: `/api/user/${adminId}`, body: { name: '管理员', roleIds: [ordinaryRoleId] } })).body)
      .toMatchObject({ code: 0, message: '不能取消最后一个域管理员的域管理员角色' });
    expect(manager).toBeGreaterThan(0);
  });

  it('the notification address: the user themself or an administrator', async () => {
    const { id, client } = await signIn(server, 'hana', 'Hana#Pass12');
    const other = await server.addUser('ivan', 'Ivan#Pass12');
    expect((await client.request({ method: 'GET', url: `/api/user/mail/${id}` })).body).toMatchObject({ code: 1, data: { userId: id, mail: null, effective: null } });
    expect((await client.request({ method: 'POST', url: `/api/user/mail/${id}`, body: { mail: 'bad' } })).body).toMatchObject({ code: 0, message: '邮箱格式不正确', field: 'mail' });
    expect((await client.request({ method: 'POST', url: `/api/user/mail/${id}`, body: { mail: 'hana@notice.example' } })).body)
      .toMatchObject({ code: 1, message: '保存成功', data: { mail: 'hana@notice.example', effective: 'hana@notice.example' } });
    expect((await client.request({ method: 'GET', url: `/api/user/mail/${other}` })).body).toMatchObject({ code: 0, message: '只能查看或设置本人的通知邮箱' });
    expect((await client.request({ method: 'POST', url: `/api/user/mail/${other}`, body: { mail: 'x@y.z' } })).status).toBe(403);
    expect((await admin.request({ method: 'GET', url: `/api/user/mail/${id}` })).body.data.mail).toBe('hana@notice.example');
    expect((await admin.request({ method: 'POST', url: `/api/user/mail/${id}`, body: { mail: '' } })).body.data).toMatchObject({ mail: null });
    expect((await audits('user.noticeMail.changed')).at(-1)!.detail).toMatchObject({ user: id, before: 'hana@notice.example', after: null });
  });

  it('the import template is an .xlsx with the columns and the current roles and groups', async () => {
    const raw = await server.app.inject({
      method: 'POST', url: '/api/user/importTemplate',
      headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': admin.csrfToken! },
    });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toContain('spreadsheetml');
    expect(raw.headers['content-disposition']).toContain(encodeURIComponent('用户导入模板.xlsx'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(raw.rawPayload as unknown as ExcelJS.Buffer);
    expect((book.getWorksheet('用户')!.getRow(1).values as unknown[]).slice(1)).toEqual(['用户名', '姓名', '初始密码', '邮箱', '手机号', '角色', '分组']);
    const help = book.getWorksheet('说明')!.getColumn(1).values.join('\n');
    expect(help).toContain('普通用户');
    expect(help).toContain('总部/研发部');
  });

  it('imports good rows and records each bad row with its reason; records and history list them', async () => {
    await newUser('taken');
    const file = await workbook([
      ['imp1', '导入一', 'Imp#Pass111', 'imp1@example.com', '', '', '总部/研发部'],
      ['imp2', '导入二', 'Imp#Pass222', '', '', '域管理员，普通用户', '总部'],
      ['TAKEN', '重复', 'Imp#Pass333', '', '', '', ''],
      ['imp1', '重复行', 'Imp#Pass444', '', '', '', ''],
      ['bad name', '名字', 'Imp#Pass555', '', '', '', ''],
      ['imp6', '名 字', 'Imp#Pass666', '', '', '', ''],
      ['imp7', '弱密码', 'weak', '', '', '', ''],
      ['imp8', '邮箱', 'Imp#Pass888', 'nope', '', '', ''],
      ['imp9', '角色', 'Imp#Pass999', '', '', '审计员', ''],
      ['imp10', '分组', 'Imp#Pass000', '', '', '', '不存在的组'],
      ['', '', '', '', '', '', ''],
      ['imp11', '', 'Imp#Pass111', '', '', '', ''],
    ]);
    const upload = multipart('file', '用户.xlsx', file);
    const reply = await admin.request({ method: 'POST', url: '/api/user/import', body: upload.body, headers: upload.headers });
    expect(reply.body).toMatchObject({ code: 1, message: '模板导入成功，导入结果请查看导入记录', data: { fileName: '用户.xlsx', status: 2, statusLabel: '导入成功', total: 11, succeeded: 2, failed: 9 } });
    const recordId = reply.body.data.id as number;

    const history = await admin.request({ method: 'GET', url: `/api/user/importHistorys?recordId=${recordId}&size=50` });
    expect(history.body.data.total).toBe(11);
    const reasons = Object.fromEntries((history.body.data.content as Array<{ rowNo: number; reason: string; outcome: number }>).map((r) => [r.rowNo, r.reason]));
    expect(reasons).toEqual({
      2: '', 3: '',
      4: '用户名已存在：taken',
      5: '文件中用户名重复（与第 2 行相同）',
      6: USERNAME_MESSAGE,
      7: NAME_MESSAGE,
      8: HINT,
      9: '邮箱格式不正确',
      10: '角色不存在：审计员',
      11: '分组不存在：不存在的组',
      13: '姓名不能为空',
    });
    const refusedOnly = await admin.request({ method: 'GET', url: `/api/user/importHistorys?recordId=${recordId}&outcome=2&size=50` });
    expect(refusedOnly.body.data.total).toBe(9);
    expect(refusedOnly.body.data.content[0]).toMatchObject({ outcomeLabel: '导入失败' });

    const imported = await admin.request({ method: 'GET', url: '/api/user/pageUser?keyword=imp&sort=username' });
    expect(imported.body.data.content.map((u: { username: string }) => u.username)).toEqual(['imp1', 'imp2']);
    expect(imported.body.data.content[0]).toMatchObject({ email: 'imp1@example.com', groups: [{ id: groupB, name: '研发部' }], roles: [{ code: 3 }], updatedPwd: false });
    expect(imported.body.data.content[1].roles.map((r: { code: number }) => r.code)).toEqual([2, 3]);
    // Nothing half-written: a refused row left no user, no roles.
    expect(await db().selectFrom('users').select('id').where('username', 'in', ['imp7', 'imp9', 'imp10']).execute()).toEqual([]);

    const imp = server.client();
    expect((await imp.login('imp1', 'Imp#Pass111')).body.data.updatedPwd).toBe(false);

    const records = await admin.request({ method: 'GET', url: '/api/user/importRecords' });
    expect(records.body.data.content[0]).toMatchObject({ id: recordId, createdBy: '系统管理员', succeeded: 2, failed: 9 });
    const createdByImport = (await audits('user.created')).filter((a) => a.detail.source === 'import');
    expect(createdByImport.map((a) => a.detail.after.username).sort()).toEqual(['imp1', 'imp2']);
    for (const a of createdByImport) expect(a.text).not.toContain('Imp#Pass');

    expect((await admin.request({ method: 'GET', url: '/api/user/importHistorys?recordId=999999' })).body).toMatchObject({ code: 0, message: '导入记录不存在' });
  });

  it('the app imports a chunked upload by its id (the uploader\'s own, consumed) and gets the template as base64', async () => {
    const bytes = await workbook([['upl1', '上传一', 'Upl#Pass111', '', '', '', '']]);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const created = await admin.request({ method: 'POST', url: '/api/upload', body: { fileName: '上传.xlsx', size: bytes.length, sha256 } });
    const uploadId = created.body.data.uploadId as string;
    expect((await admin.request({ method: 'PUT', url: `/api/upload/${uploadId}?offset=0`, body: bytes, headers: { 'content-type': 'application/octet-stream' } })).body.code).toBe(1);

    const { client: other } = await signIn(server, 'uplother', 'Othe#Pass12', [ROLE.DOMAIN_ADMIN]);
    expect((await other.request({ method: 'POST', url: '/api/user/import/upload', body: { uploadId } })).body).toMatchObject({ code: 0, message: '只能导入自己上传的文件' });
    const reply = await admin.request({ method: 'POST', url: '/api/user/import/upload', body: { uploadId } });
    expect(reply.body).toMatchObject({ code: 1, data: { fileName: '上传.xlsx', succeeded: 1, failed: 0 } });
    expect((await admin.request({ method: 'POST', url: '/api/user/import/upload', body: { uploadId } })).body).toMatchObject({ code: 0, message: '上传不存在、已被使用或尚未完成，请重新上传' });

    const data = await admin.request({ method: 'GET', url: '/api/user/importTemplate/data' });
    expect(data.body.data.fileName).toBe('用户导入模板.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(data.body.data.base64, 'base64') as unknown as ExcelJS.Buffer);
    expect(book.getWorksheet('用户')).toBeDefined();
  });

  it('a file refused as a whole leaves a failed record with the reason', async () => {
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('username,name\nx,y\n'), '文件不是有效的 .xlsx 工作簿，请使用下载的模板填写后上传'],
      [await workbook([['a', 'b']], ['账号', '名字']), '模板表头不正确，缺少列：用户名、姓名、初始密码，请使用下载的模板'],
      [await workbook([]), '文件中没有用户数据'],
      [await workbook(Array.from({ length: 501 }, (_, i) => [`many${i}`, '多', 'Many#Pass1'])), '单个文件最多导入 500 个用户，请分批导入'],
    ];
    for (const [content, message] of cases) {
      const upload = multipart('file', 'x.xlsx', content);
      const reply = await admin.request({ method: 'POST', url: '/api/user/import', body: upload.body, headers: upload.headers });
      expect(reply.body.data).toMatchObject({ status: 3, statusLabel: '导入失败', message, total: 0 });
    }
    const wrongField = multipart('other', 'x.xlsx', Buffer.from('x'));
    expect((await admin.request({ method: 'POST', url: '/api/user/import', body: wrongField.body, headers: wrongField.headers })).body).toMatchObject({ code: 0, message: '上传字段应为 file' });
    expect((await admin.request({ method: 'POST', url: '/api/user/import', body: {} })).body).toMatchObject({ code: 0, message: '请以 multipart/form-data 上传文件' });
    const tooBig = multipart('file', 'big.xlsx', Buffer.alloc(6 * 1024 * 1024, 1));
    const big = await admin.request({ method: 'POST', url: '/api/user/import', body: tooBig.body, headers: tooBig.headers });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('文件过大，用户导入文件不能超过 5 MB');
  });

  describe('synchronised users from a loopback source', () => {
    let source: http.Server;
    let base: string;
    const served: Record<string, { type: string; body: string }> = {};
    beforeAll(async () => {
      source = http.createServer((req, res) => {
        const file = served[(req.url ?? '').split('?')[0]!];
        if (!file) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': file.type }).end(file.body);
      });
      await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => source.close(() => resolve())));

    it('says when no source is configured, and checks the settings', async () => {
      expect((await admin.request({ method: 'GET', url: '/api/suzhou/import' })).body).toMatchObject({ code: 0, message: '未配置外部用户同步来源，请先设置同步地址' });
      expect((await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: 'file:///etc/passwd', format: 'json', defaultRoleId: null } })).body)
        .toMatchObject({ code: 0, message: '同步地址须为 http:// 或 https:// 开头的网址' });
      expect((await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: `${base}/u.json`, format: 'xml', defaultRoleId: null } })).status).toBe(400);
      expect((await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: `${base}/u.json`, format: 'json', defaultRoleId: 99999 } })).body)
        .toMatchObject({ code: 0, message: '默认角色不存在' });
    });

    it('creates and updates type-6 users from JSON with the default role; leaves other accounts alone', async () => {
      await newUser('localjoe');
      served['/u.json'] = {
        type: 'application/json',
        body: JSON.stringify({ users: [
          { username: 'sz001', name: '苏一', email: 'sz001@bank.example' },
          { username: 'sz002', name: '苏二', type: 8 },
          { username: 'localjoe', name: '冒名' },
          { username: 'bad user', name: '坏' },
          { username: 'sz001', name: '重复' },
        ] }),
      };
      const saved = await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: `${base}/u.json?token=secret123`, format: 'json', defaultRoleId: null } });
      expect(saved.body).toMatchObject({ code: 1, message: '保存成功' });
      expect((await audits('settings.userSync.changed')).at(-1)!.text).not.toContain('secret123');

      const first = await admin.request({ method: 'GET', url: '/api/suzhou/import' });
      expect(first.body).toMatchObject({ code: 1, message: '同步成功', data: { total: 5, created: 2, updated: 0, unchanged: 0 } });
      expect(first.body.data.skipped).toEqual([
        { username: 'localjoe', reason: '已存在同名的非同步用户（类型 0），未修改' },
        { username: 'bad user', reason: USERNAME_MESSAGE },
        { username: 'sz001', reason: '来源中用户名重复，只同步第一条' },
      ]);
      const rows = await admin.request({ method: 'GET', url: '/api/user/pageUser?userType=6&keyword=sz&sort=username' });
      expect(rows.body.data.content).toMatchObject([
        { username: 'sz001', name: '苏一', userType: 6, email: 'sz001@bank.example', roles: [{ code: 3 }], localPassword: false, updatedPwd: true },
        { username: 'sz002', userType: 8 },
      ]);
      expect((await db().selectFrom('users').select('name').where('username', '=', 'localjoe').executeTakeFirstOrThrow()).name).toBe('用户localjoe');

      served['/u.json'] = { type: 'application/json', body: JSON.stringify([{ username: 'sz001', name: '苏壹' }, { username: 'sz002', name: '苏二', type: 8 }]) };
      const second = await admin.request({ method: 'GET', url: '/api/suzhou/import' });
      expect(second.body.data).toMatchObject({ total: 2, created: 0, updated: 1, unchanged: 1, skipped: [] });
      const updated = (await audits('user.updated')).filter((a) => a.detail.source === 'sync');
      expect(updated.at(-1)!.detail).toMatchObject({ before: { name: '苏一' }, after: { name: '苏壹' } });
    });

    it('reads CSV with the header in any order, and reports an unreachable or broken source', async () => {
      served['/u.csv'] = { type: 'text/csv', body: '\uFEFFname,username,phone\n"苏三, 分行",sz003,13900000000\n苏四,sz004,\n' };
      await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: `${base}/u.csv`, format: 'csv', defaultRoleId: adminRoleId } });
      const reply = await admin.request({ method: 'GET', url: '/api/suzhou/import' });
      expect(reply.body.data).toMatchObject({ total: 2, created: 1 });
      expect(reply.body.data.skipped).toEqual([{ username: 'sz003', reason: NAME_MESSAGE }]);
      const sz004 = await admin.request({ method: 'GET', url: '/api/user/pageUser?keyword=sz004' });
      expect(sz004.body.data.content[0].roles.map((r: { code: number }) => r.code)).toEqual([2]);

      served['/broken.json'] = { type: 'application/json', body: '{"users": 3' };
      await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: `${base}/broken.json`, format: 'json', defaultRoleId: null } });
      expect((await admin.request({ method: 'GET', url: '/api/suzhou/import' })).body).toMatchObject({ code: 0, message: '同步来源返回的不是有效的 JSON（应为用户数组或 { "users": [...] }）' });
      await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: `${base}/missing.json`, format: 'json', defaultRoleId: null } });
      expect((await admin.request({ method: 'GET', url: '/api/suzhou/import' })).body).toMatchObject({ code: 0, message: '同步来源返回 HTTP 404' });
      served['/headless.csv'] = { type: 'text/csv', body: 'a,b\n1,2\n' };
      await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: `${base}/headless.csv`, format: 'csv', defaultRoleId: null } });
      expect((await admin.request({ method: 'GET', url: '/api/suzhou/import' })).body).toMatchObject({ code: 0, message: 'CSV 首行须为列名，至少包含 username 和 name' });
      await admin.request({ method: 'POST', url: '/api/user/sync/source', body: { url: 'http://127.0.0.1:1/none.json', format: 'json', defaultRoleId: null } });
      expect((await admin.request({ method: 'GET', url: '/api/suzhou/import' })).body.message).toMatch(/^无法连接同步来源：/);
    });
  });
});
