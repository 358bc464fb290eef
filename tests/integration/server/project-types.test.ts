// 项目类型 over HTTP (/api/subjectType/*): add, list with filters and paging, edit (a rename
// follows onto the 应用 that have the type), online/offline, delete refused while in use, the
// online names for the 应用 forms, field-named refusals, the permission, and one transaction per
// command with its audit row.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

describe.each(databases)('项目类型 on $name', (database) => {
  let admin: TestClient;
  let user: TestClient;

  const add = (client: TestClient, subjectTypeName: string, remark?: string) =>
    client.request({ method: 'POST', url: '/api/subjectType/add', body: { subjectTypeName, ...(remark !== undefined && { remark }) } });
  const list = (client: TestClient, body: object = {}, query = '') =>
    client.request({ method: 'POST', url: `/api/subjectType/query${query}`, body });
  const names = async (client: TestClient) => (await client.request({ method: 'GET', url: '/api/subjectType/querySubjectTypeNameList' })).body.data as string[];

  const server = useServer(database);
  beforeAll(async () => {
    admin = await adminClient(server);
    user = (await signIn(server, 'uma', 'Uma@123456')).client;
  });

  it('adds types and lists them online first, by name, with the creator and paging', async () => {
    const web = await add(admin, 'Web应用', '对外网站');
    expect(web.body).toMatchObject({ code: 1, message: '添加成功', data: { subjectTypeName: 'Web应用', remark: '对外网站', status: 0, subjects: 0, createdBy: '系统管理员' } });
    expect((await add(admin, '移动端')).body.data.remark).toBe('');
    await add(admin, 'App-内部');

    const all = await list(admin);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.content.map((r: { subjectTypeName: string }) => r.subjectTypeName)).toEqual(['App-内部', 'Web应用', '移动端']);
    const page2 = await list(admin, {}, '?page=2&size=2');
    expect(page2.body.data).toMatchObject({ total: 3, content: [{ subjectTypeName: '移动端' }] });
    expect((await list(admin, { keyword: 'web' })).body.data.content.map((r: { subjectTypeName: string }) => r.subjectTypeName)).toEqual(['Web应用']);
    expect((await list(admin, { keyword: '网站' })).body.data.total).toBe(1);
    // A typed % is a percent sign, not a wildcard.
    expect((await list(admin, { keyword: '%' })).body.data.total).toBe(0);
  });

  it('refuses a bad or duplicate name and a bad remark, naming the field, and writes nothing', async () => {
    const before = (await list(admin)).body.data.total;
    expect((await add(admin, 'web应用')).body).toEqual({ code: 0, message: '项目类型“web应用”已存在', data: null, field: 'subjectTypeName' });
    expect((await add(admin, 'bad name')).body).toMatchObject({ code: 0, message: '请输入1-100个字符，不能包含[*?"<>|；《》]及空格', field: 'subjectTypeName' });
    expect((await add(admin, '')).body).toMatchObject({ code: 0, field: 'subjectTypeName' });
    expect((await add(admin, 'x'.repeat(101))).body).toMatchObject({ code: 0, field: 'subjectTypeName' });
    expect((await add(admin, '好名字', '含有<尖括号>')).body).toMatchObject({ code: 0, message: '请输入0-200个字符，不能包含[*?"<>|；《》]', field: 'remark' });
    expect((await admin.request({ method: 'POST', url: '/api/subjectType/add', body: { remark: 'x' } })).status).toBe(400);
    expect((await list(admin)).body.data.total).toBe(before);
  });

  it('offers only online types to the 应用 forms; offline and online again say so', async () => {
    expect(await names(user)).toEqual(['App-内部', 'Web应用', '移动端']);
    const internal = (await list(admin, { keyword: 'App-' })).body.data.content[0];
    const off = await admin.request({ method: 'POST', url: '/api/subjectType/delete', body: { id: internal.id, status: 1 } });
    expect(off.body).toMatchObject({ code: 1, message: '已下线', data: { status: 1 } });
    expect(await names(user)).toEqual(['Web应用', '移动端']);
    expect((await list(admin, { status: 1 })).body.data.content.map((r: { id: number }) => r.id)).toEqual([internal.id]);
    // Offline types come after the online ones.
    expect((await list(admin)).body.data.content.at(-1).id).toBe(internal.id);
    const on = await admin.request({ method: 'POST', url: '/api/subjectType/delete', body: { id: internal.id, status: 0 } });
    expect(on.body).toMatchObject({ code: 1, message: '已上线', data: { status: 0 } });
    expect((await admin.request({ method: 'POST', url: '/api/subjectType/delete', body: { id: 99999, status: 1 } })).body).toMatchObject({ code: 0, message: '项目类型不存在' });
    expect((await admin.request({ method: 'POST', url: '/api/subjectType/delete', body: { id: internal.id, status: 7 } })).status).toBe(400);
  });

  it('counts the 应用 of a type, renames it on them, and refuses to delete it while in use', async () => {
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: 'shop-front', subjectType: 'Web应用' } });
    expect(created.body.code).toBe(1);
    const subjectId = created.body.data.id as number;
    const web = (await list(admin, { keyword: 'web' })).body.data.content[0];
    expect(web.subjects).toBe(1);

    const renamed = await admin.request({ method: 'PATCH', url: `/api/subjectType/update/${web.id}`, body: { subjectTypeName: '网站', remark: '对外网站（改）' } });
    expect(renamed.body).toMatchObject({ code: 1, message: '修改成功', data: { subjectTypeName: '网站', remark: '对外网站（改）', subjects: 1 } });
    expect((await admin.request({ method: 'GET', url: `/api/subject/${subjectId}` })).body.data.subjectType).toBe('网站');
    // Renaming onto another type's name (any case) is refused; its own name in another case is not.
    expect((await admin.request({ method: 'PATCH', url: `/api/subjectType/update/${web.id}`, body: { subjectTypeName: '移动端' } })).body).toMatchObject({ code: 0, field: 'subjectTypeName' });
    expect((await admin.request({ method: 'PATCH', url: '/api/subjectType/update/99999', body: { subjectTypeName: '无' } })).body).toMatchObject({ code: 0, message: '项目类型不存在' });

    const refused = await admin.request({ method: 'DELETE', url: `/api/subjectType/delete/${web.id}` });
    expect(refused.body).toMatchObject({ code: 0, message: '该项目类型正被 1 个应用使用，不能删除；可将其下线，不再供新应用选择' });
    expect((await list(admin, { keyword: '网站' })).body.data.total).toBe(1);

    const mobile = (await list(admin, { keyword: '移动' })).body.data.content[0];
    const removed = await admin.request({ method: 'DELETE', url: `/api/subjectType/delete/${mobile.id}` });
    expect(removed.body).toMatchObject({ code: 1, message: '删除成功', data: null });
    expect(await names(user)).not.toContain('移动端');
    expect((await admin.request({ method: 'DELETE', url: `/api/subjectType/delete/${mobile.id}` })).body).toMatchObject({ code: 0, message: '项目类型不存在' });
  });

  it('records each command in the audit log', async () => {
    const rows = await server.app.cairn.db.selectFrom('audit_log').select('action').where('action', 'like', 'subjectType.%').execute();
    const actions = rows.map((r) => r.action);
    expect(actions.filter((a) => a === 'subjectType.added')).toHaveLength(3);
    expect(actions).toEqual(expect.arrayContaining(['subjectType.modified', 'subjectType.status', 'subjectType.deleted']));
  });

  it('keeps the list and the commands to holders of setup:projectType; names need only a session', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/subjectType/query', {}],
      ['POST', '/api/subjectType/add', { subjectTypeName: '越权' }],
      ['PATCH', '/api/subjectType/update/1', { subjectTypeName: '越权' }],
      ['POST', '/api/subjectType/delete', { id: 1, status: 1 }],
      ['DELETE', '/api/subjectType/delete/1', undefined],
    ] as const) {
      const reply = await user.request({ method, url, ...(body !== undefined && { body }) });
      expect(reply.status, `${method} ${url}`).toBe(403);
    }
    const anonymous = server.client();
    expect((await anonymous.request({ method: 'GET', url: '/api/subjectType/querySubjectTypeNameList' })).body.code).toBe(3);
    await anonymous.fetchCsrf();
    expect((await anonymous.request({ method: 'POST', url: '/api/subjectType/query', body: {} })).body.code).toBe(3);
    expect((await list(admin, { keyword: '越权' })).body.data.total).toBe(0);
  });
});
