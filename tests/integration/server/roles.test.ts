// 角色 over HTTP (/api/role/*, spec doc 2 §6): the role list with holders and codes, the permission
// tree over every code, add / edit / delete with their audit rows (before and after), the
// protection of the built-in roles, deletion while held, unknown codes and duplicate names, who may
// call, and the grant taken at login: a role's holders keep its old permissions and data
// permission until they log in again. SQLite and PostgreSQL.
import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PermissionNode } from '../../../contract/permission-tree.ts';
import { ALL_PERMISSION_CODES } from '../../../contract/permissions.ts';
import type { Database } from '../../../server/db/schema.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const PASSWORD = 'Pass@12345';
const RELOGIN = '若修改角色权限或数据权限，用户需重新登录才可生效';

interface RoleRow { id: number; code: number; name: string; remark: string; dataPermissionEnum: string; builtin: boolean; users: number; permissions: string[] }

describe.each(databases)('角色 on $name', (database) => {
  const server = useServer(database, { scanConcurrency: 0 });
  let admin: TestClient;
  let user: TestClient;
  let db: Kysely<Database>;

  const roles = async (): Promise<RoleRow[]> => {
    const reply = await admin.request({ method: 'GET', url: '/api/role/roleList' });
    expect(reply.body.code, reply.body.message).toBe(1);
    return reply.body.data;
  };
  const roleNamed = async (name: string) => (await roles()).find((r) => r.name === name);
  const add = (client: TestClient, body: object) => client.request({ method: 'POST', url: '/api/role', body });
  const put = (client: TestClient, id: number, body: object) => client.request({ method: 'PUT', url: `/api/role/${id}`, body });
  const del = (client: TestClient, id: number) => client.request({ method: 'DELETE', url: `/api/role/${id}` });
  const lastAudit = async (action: string) => {
    const row = await db.selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', action).orderBy('id', 'desc').executeTakeFirst();
    return row && { userId: row.user_id, detail: JSON.parse(row.detail) as Record<string, any> };
  };
  const auditCount = async () => Number((await db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    db = server.app.cairn.db;
    admin = await adminClient(server);
    user = (await signIn(server, 'uma', PASSWORD)).client;
  });

  it('lists the built-in roles with their holders, codes and data permission', async () => {
    const [domainAdmin, ordinary, ...rest] = await roles();
    expect(rest).toEqual([]);
    expect(domainAdmin).toMatchObject({ code: 2, name: '域管理员', remark: '', dataPermissionEnum: 'ALL', builtin: true, users: 1 });
    expect([...domainAdmin!.permissions].sort()).toEqual([...ALL_PERMISSION_CODES].sort());
    expect(ordinary).toMatchObject({ code: 3, name: '普通用户', dataPermissionEnum: 'SELF', builtin: true, users: 1 });
    expect(ordinary!.permissions).toContain('project:list');
    expect(ordinary!.permissions).not.toContain('setup:user:role:list');
  });

  it('answers a permission tree holding every code exactly once', async () => {
    const reply = await admin.request({ method: 'GET', url: '/api/role/tree' });
    expect(reply.body.code).toBe(1);
    const granted: string[] = [];
    const keys: string[] = [];
    const walk = (n: PermissionNode, depth: number) => {
      expect(typeof n.name).toBe('string');
      expect(n.name.length).toBeGreaterThan(0);
      keys.push(n.code);
      if (n.grant) granted.push(n.code);
      else expect(n.children.length, n.code).toBeGreaterThan(0);
      n.children.forEach((c) => walk(c, depth + 1));
    };
    (reply.body.data as PermissionNode[]).forEach((n) => walk(n, 0));
    expect([...granted].sort()).toEqual([...ALL_PERMISSION_CODES].sort());
    expect(new Set(keys).size).toBe(keys.length);
    const setup = (reply.body.data as PermissionNode[]).find((n) => n.name === '系统管理')!;
    const userNode = setup.children.find((n) => n.code === 'setup:user')!;
    expect(userNode.children.map((n) => n.code)).toEqual(['setup:user:user:list', 'setup:user:role:list']);
  });

  it('adds a role with a code above the spec\'s, its granting parents, and an audit row', async () => {
    const before = await auditCount();
    const reply = await add(admin, { name: '审计员', remark: '只看日志', permissions: ['setup:log:op', 'project:setup:base'], dataPermissionEnum: 'GROUP' });
    expect(reply.body).toMatchObject({ code: 1, message: '添加成功', data: { name: '审计员', remark: '只看日志', dataPermissionEnum: 'GROUP', builtin: false, users: 0 } });
    const row = reply.body.data as RoleRow;
    expect(row.code).toBeGreaterThanOrEqual(100);
    // A screen's code brings its parents' (the menus above it).
    expect(row.permissions).toEqual(['project:list', 'project:setup', 'project:setup:base', 'setup:log', 'setup:log:op']);
    expect(await auditCount()).toBe(before + 1);
    const audited = await lastAudit('role.added');
    expect(audited?.detail).toMatchObject({ id: row.id, code: row.code, after: { name: '审计员', dataPermission: 'GROUP', permissions: row.permissions } });
    expect(audited?.detail.address).toBeTruthy();
    const second = await add(admin, { name: 'auditor-2', permissions: [], dataPermissionEnum: 'SELF' });
    expect(second.body.data.code).toBe(row.code + 1);
    expect(second.body.data.remark).toBe('');
  });

  it('refuses a duplicate or bad name, a bad remark, unknown codes and a bad data permission, writing nothing', async () => {
    const before = await auditCount();
    const count = (await roles()).length;
    expect((await add(admin, { name: 'AUDITOR-2', permissions: [], dataPermissionEnum: 'SELF' })).body)
      .toEqual({ code: 0, message: '角色“AUDITOR-2”已存在', data: null, field: 'name' });
    expect((await add(admin, { name: '普通用户', permissions: [], dataPermissionEnum: 'SELF' })).body).toMatchObject({ code: 0, field: 'name' });
    expect((await add(admin, { name: 'bad name', permissions: [], dataPermissionEnum: 'SELF' })).body)
      .toMatchObject({ code: 0, message: '请输入1-100个字符，不能包含[*?"<>|；《》]及空格', field: 'name' });
    expect((await add(admin, { name: '', permissions: [], dataPermissionEnum: 'SELF' })).body).toMatchObject({ code: 0, field: 'name' });
    expect((await add(admin, { name: '好名字', remark: '<script>', permissions: [], dataPermissionEnum: 'SELF' })).body)
      .toMatchObject({ code: 0, message: '请输入0-200个字符，不能包含[*?"<>|；《》]', field: 'remark' });
    expect((await add(admin, { name: '好名字', permissions: ['project:list', 'root:all', "x'; drop table roles; --"], dataPermissionEnum: 'SELF' })).body)
      .toEqual({ code: 0, message: "未知的权限代码：root:all、x'; drop table roles; --", data: null, field: 'permissions' });
    // A grouping node of the tree is not a code.
    expect((await add(admin, { name: '好名字', permissions: ['group:setup'], dataPermissionEnum: 'SELF' })).body).toMatchObject({ code: 0, field: 'permissions' });
    expect((await add(admin, { name: '好名字', permissions: [], dataPermissionEnum: 'EVERYTHING' })).status).toBe(400);
    expect((await add(admin, { name: '好名字', permissions: 'project:list', dataPermissionEnum: 'SELF' })).status).toBe(400);
    expect((await add(admin, { name: '好名字', dataPermissionEnum: 'SELF' })).status).toBe(400);
    expect((await roles()).length).toBe(count);
    expect(await auditCount()).toBe(before);
  });

  it('edits a role: 修改成功 for name and remark, the re-login message for codes or data permission', async () => {
    const role = (await roleNamed('审计员'))!;
    const renamed = await put(admin, role.id, { name: '审计人员', remark: '看日志', permissions: role.permissions, dataPermissionEnum: 'GROUP' });
    expect(renamed.body).toMatchObject({ code: 1, message: '修改成功', data: { name: '审计人员', remark: '看日志' } });
    const scoped = await put(admin, role.id, { name: '审计人员', remark: '看日志', permissions: role.permissions, dataPermissionEnum: 'ALL' });
    expect(scoped.body).toMatchObject({ code: 1, message: RELOGIN, data: { dataPermissionEnum: 'ALL' } });
    const narrowed = await put(admin, role.id, { name: '审计人员', remark: '看日志', permissions: ['setup:log:system'], dataPermissionEnum: 'ALL' });
    expect(narrowed.body).toMatchObject({ code: 1, message: RELOGIN, data: { permissions: ['setup:log', 'setup:log:system'] } });
    const audited = await lastAudit('role.modified');
    expect(audited?.detail).toMatchObject({
      id: role.id,
      before: { name: '审计人员', dataPermission: 'ALL', permissions: role.permissions },
      after: { name: '审计人员', dataPermission: 'ALL', permissions: ['setup:log', 'setup:log:system'] },
    });
    expect((await put(admin, role.id, { name: 'auditor-2', permissions: [], dataPermissionEnum: 'SELF' })).body).toMatchObject({ code: 0, message: '角色“auditor-2”已存在', field: 'name' });
    // Its own name in another case is not a duplicate.
    const other = (await roleNamed('auditor-2'))!;
    expect((await put(admin, other.id, { name: 'Auditor-2', permissions: [], dataPermissionEnum: 'SELF' })).body).toMatchObject({ code: 1, data: { name: 'Auditor-2' } });
    expect((await put(admin, 99999, { name: '无', permissions: [], dataPermissionEnum: 'SELF' })).body).toMatchObject({ code: 0, message: '角色不存在' });
    expect((await put(admin, role.id, { name: '审计人员', permissions: ['nope'], dataPermissionEnum: 'SELF' })).body).toMatchObject({ code: 0, message: '未知的权限代码：nope' });
  });

  it('protects the built-in roles: no deletion, no rename, 域管理员 never narrowed', async () => {
    const [domainAdmin, ordinary] = await roles();
    const before = await auditCount();
    expect((await del(admin, domainAdmin!.id)).body).toEqual({ code: 0, message: '“域管理员”是内置角色，不能删除', data: null });
    expect((await del(admin, ordinary!.id)).body).toMatchObject({ code: 0, message: '“普通用户”是内置角色，不能删除' });
    const all = [...ALL_PERMISSION_CODES];
    expect((await put(admin, domainAdmin!.id, { name: '域管理员', permissions: all.filter((c) => c !== 'setup:sys:clean'), dataPermissionEnum: 'ALL' })).body)
      .toMatchObject({ code: 0, message: '域管理员拥有全部权限和全部数据，不能缩小其权限或数据权限', field: 'permissions' });
    expect((await put(admin, domainAdmin!.id, { name: '域管理员', permissions: all, dataPermissionEnum: 'GROUP' })).body)
      .toMatchObject({ code: 0, message: '域管理员拥有全部权限和全部数据，不能缩小其权限或数据权限' });
    expect((await put(admin, ordinary!.id, { name: '一般用户', permissions: ordinary!.permissions, dataPermissionEnum: 'SELF' })).body)
      .toMatchObject({ code: 0, message: '“普通用户”是内置角色，不能改名', field: 'name' });
    expect(await auditCount()).toBe(before);
    // A remark is theirs to keep; the ordinary role's codes are the administrators' to change.
    expect((await put(admin, domainAdmin!.id, { name: '域管理员', remark: '全部权限', permissions: all, dataPermissionEnum: 'ALL' })).body)
      .toMatchObject({ code: 1, message: '修改成功', data: { remark: '全部权限' } });
    const widened = await put(admin, ordinary!.id, { name: '普通用户', permissions: [...ordinary!.permissions, 'report:list'], dataPermissionEnum: 'SELF' });
    expect(widened.body.code).toBe(1);
  });

  it('refuses to delete a role users hold, naming how many; deletes it once nobody does', async () => {
    const role = (await add(admin, { name: '临时角色', permissions: ['report:list'], dataPermissionEnum: 'SELF' })).body.data as RoleRow;
    await server.addUser('tess', PASSWORD, [role.code]);
    await server.addUser('theo', PASSWORD, [role.code, 3]);
    expect((await roleNamed('临时角色'))?.users).toBe(2);
    expect((await del(admin, role.id)).body).toEqual({ code: 0, message: '角色“临时角色”仍有 2 个用户使用，不能删除；请先为这些用户改换角色', data: null });
    await db.deleteFrom('users').where('username', 'in', ['tess', 'theo']).execute();
    const before = await auditCount();
    expect((await del(admin, role.id)).body).toEqual({ code: 1, message: '删除成功', data: null });
    expect(await roleNamed('临时角色')).toBeUndefined();
    expect(await db.selectFrom('role_permissions').select('permission_code').where('role_id', '=', role.id).execute()).toEqual([]);
    expect(await auditCount()).toBe(before + 1);
    expect((await lastAudit('role.deleted'))?.detail).toMatchObject({ id: role.id, before: { name: '临时角色', permissions: ['report:list'] } });
    expect((await del(admin, role.id)).body).toMatchObject({ code: 0, message: '角色不存在' });
  });

  it('gives roles added at the same time their own codes, and one of two same names the duplicate message', async () => {
    const added = await Promise.all(['并发-1', '并发-2', '并发-3'].map((name) => add(admin, { name, permissions: [], dataPermissionEnum: 'SELF' })));
    expect(added.map((r) => r.body.code)).toEqual([1, 1, 1]);
    expect(new Set(added.map((r) => r.body.data.code)).size).toBe(3);
    const twins = await Promise.all([1, 2].map(() => add(admin, { name: '并发-同名', permissions: [], dataPermissionEnum: 'SELF' })));
    expect(twins.map((r) => r.body.code).sort()).toEqual([0, 1]);
    expect(twins.find((r) => r.body.code === 0)!.body.message).toBe('角色“并发-同名”已存在');
    for (const name of ['并发-1', '并发-2', '并发-3', '并发-同名']) expect((await del(admin, (await roleNamed(name))!.id)).body.code).toBe(1);
  });

  it('writes nothing when the audit row cannot be written, and goes through once it can', async () => {
    const postgres = database.name === 'postgres';
    const refuse = async (on: boolean) => {
      const statements = postgres
        ? on
          ? [`create or replace function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit_log refused'; end $$`,
            'create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()']
          : ['drop trigger if exists refuse_audit on audit_log', 'drop function if exists refuse_audit()']
        : on
          ? [`create trigger refuse_audit before insert on audit_log begin select raise(abort, 'audit_log refused'); end`]
          : ['drop trigger if exists refuse_audit'];
      for (const statement of statements) await sql.raw(statement).execute(db);
    };
    const ordinary = (await roles())[1]!;
    const form = { name: '半成品', permissions: ['report:list'], dataPermissionEnum: 'SELF' };
    await refuse(true);
    try {
      expect((await add(admin, form)).status).toBe(500);
      expect((await put(admin, ordinary.id, { name: '普通用户', permissions: [], dataPermissionEnum: 'ALL' })).status).toBe(500);
    } finally {
      await refuse(false);
    }
    expect(await roleNamed('半成品')).toBeUndefined();
    expect(await roleNamed('普通用户')).toEqual(ordinary);
    expect((await add(admin, form)).body.code).toBe(1);
    expect((await del(admin, (await roleNamed('半成品'))!.id)).body.code).toBe(1);
  });

  it('refuses every call without a session, and without setup:user:role:list', async () => {
    const anonymous = server.client();
    await anonymous.fetchCsrf();
    for (const call of [
      { method: 'GET', url: '/api/role/roleList' }, { method: 'GET', url: '/api/role/tree' },
      { method: 'POST', url: '/api/role', body: { name: 'x', permissions: [], dataPermissionEnum: 'SELF' } },
      { method: 'PUT', url: '/api/role/1', body: { name: 'x', permissions: [], dataPermissionEnum: 'SELF' } },
      { method: 'DELETE', url: '/api/role/1' },
    ] as const) {
      const none = await anonymous.request(call);
      expect(none.body.code, call.url).toBe(3);
      const refused = await user.request(call);
      expect(refused.status, call.url).toBe(403);
      expect(refused.body).toMatchObject({ code: 0, data: null });
    }
  });

  it('lets whoever manages users read the role list (the user form\'s picker), and nothing more', async () => {
    const picker = (await add(admin, { name: '用户管理员', permissions: ['setup:user:user:list'], dataPermissionEnum: 'SELF' })).body.data as RoleRow;
    const { client } = await signIn(server, 'ulla', PASSWORD, [picker.code]);
    expect((await client.request({ method: 'GET', url: '/api/role/roleList' })).body.code).toBe(1);
    expect((await client.request({ method: 'GET', url: '/api/role/tree' })).status).toBe(403);
    expect((await add(client, { name: 'x', permissions: [], dataPermissionEnum: 'SELF' })).status).toBe(403);
  });

  it('keeps a holder\'s old permissions and data permission until they log in again, then grants the new ones', async () => {
    const manager = (await add(admin, { name: '角色管理员', permissions: ['setup:user:role:list'], dataPermissionEnum: 'GROUP' })).body.data as RoleRow;
    const { client: rolf } = await signIn(server, 'rolf', PASSWORD, [manager.code]);
    const self = async () => (await rolf.request({ method: 'GET', url: '/api/user/self' })).body.data;
    expect((await rolf.request({ method: 'GET', url: '/api/role/tree' })).body.code).toBe(1);
    expect((await self()).dataPermissionEnum).toBe('GROUP');

    const changed = await put(admin, manager.id, { name: '角色管理员', permissions: ['report:list'], dataPermissionEnum: 'SELF' });
    expect(changed.body).toMatchObject({ code: 1, message: RELOGIN });

    // The open session goes on as its login granted it.
    expect((await rolf.request({ method: 'GET', url: '/api/role/tree' })).body.code).toBe(1);
    expect((await self()).dataPermissionEnum).toBe('GROUP');
    expect((await self()).permissionPOS).toContainEqual({ code: 'setup:user:role:list' });

    // The next login takes the role as it is now.
    expect((await rolf.login('rolf', PASSWORD)).body.code).toBe(1);
    expect((await rolf.request({ method: 'GET', url: '/api/role/tree' })).status).toBe(403);
    const after = await self();
    expect(after.dataPermissionEnum).toBe('SELF');
    expect(after.permissionPOS).toEqual([{ code: 'report:list' }]);
  });
});
