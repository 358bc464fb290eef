// 组织 over HTTP (/api/group/*, spec doc 2 §7 "Groups"): root and child groups with their paths,
// names unique among siblings and free of '/', rename and move (a move into the group itself or
// below it refused) keeping every path below right, delete refused while the group holds
// anything, 应用 and members in and out through the has/hasNot pickers, getByGroupPath, the
// scoped filter lists, refusals without a session or the permission, hostile input, and an audit
// row with the caller's address for every change. SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const NAME_RULE = '请输入1-100个字符，不能包含[*?"<>|；《》]及空格';

describe.each(databases)('组织 on $name', (database) => {
  const server = useServer(database, { scanConcurrency: 0 });
  let admin: TestClient;
  let uma: TestClient;
  let umaId: number;
  let bobId: number;
  const ids: Record<string, number> = {};
  const apps: Record<string, number> = {};

  const db = () => server.app.cairn.db;
  const post = (client: TestClient, url: string, body: unknown) => client.request({ method: 'POST', url, body });
  const get = (client: TestClient, url: string) => client.request({ method: 'GET', url });
  const lastAudit = async (action: string) => {
    const row = await db().selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').executeTakeFirst();
    return row ? { userId: row.user_id, detail: JSON.parse(row.detail as string) } : undefined;
  };
  type Node = { id: number; name: string; groupPath: string; children: Node[]; childCount: number; subjectCount: number; userCount: number };
  const outline = (nodes: Node[]): unknown[] => nodes.map((n) => (n.children.length ? { [n.name]: outline(n.children) } : n.name));

  beforeAll(async () => {
    admin = await adminClient(server);
    ({ client: uma, id: umaId } = await signIn(server, 'uma', 'Uma@123456'));
    bobId = await server.addUser('bob', 'Bob@1234567');
    for (const name of ['门户', '网关', 'CRM']) {
      const created = await post(admin, '/api/subject/create', { name });
      expect(created.body.code, created.body.message).toBe(1);
      apps[name] = created.body.data.id;
    }
  });

  it('creates root and child groups with their paths, and refuses bad and duplicate names', async () => {
    const root = await post(admin, '/api/group', { name: '总部' });
    expect(root.body).toMatchObject({ code: 1, message: '添加成功', data: { name: '总部', pid: null, groupPath: '总部', childCount: 0 } });
    ids['总部'] = root.body.data.id;
    for (const [name, parent] of [['研发部', '总部'], ['销售部', '总部'], ['平台组', '研发部']] as const) {
      const child = await post(admin, '/api/group/child', { pid: ids[parent], name });
      expect(child.body.code, child.body.message).toBe(1);
      ids[name] = child.body.data.id;
    }
    expect((await get(admin, `/api/group/${ids['平台组']}`)).body.data).toMatchObject({
      groupPath: '总部/研发部/平台组', path: [{ name: '总部' }, { name: '研发部' }, { name: '平台组' }],
    });
    const tree = (await get(admin, '/api/group/list')).body.data as Node[];
    // Siblings in the Chinese order (by pinyin): 销售 (xiao) before 研发 (yan).
    expect(outline(tree)).toEqual([{ 总部: ['销售部', { 研发部: ['平台组'] }] }]);
    expect(tree[0]!.childCount).toBe(2);

    // Names unique among siblings (any case), the same name elsewhere allowed.
    expect((await post(admin, '/api/group/child', { pid: ids['总部'], name: '研发部' })).body).toEqual({ code: 0, message: '同一级下已有名为“研发部”的分组', data: null, field: 'name' });
    expect((await post(admin, '/api/group', { name: '总部' })).body.message).toBe('同一级下已有名为“总部”的分组');
    const again = await post(admin, '/api/group/child', { pid: ids['销售部'], name: '平台组' });
    expect(again.body.data.groupPath).toBe('总部/销售部/平台组');
    ids['销售平台'] = again.body.data.id;
    // Hostile or malformed names: the name rule, the path separator, no body, a missing parent.
    expect((await post(admin, '/api/group', { name: 'a b' })).body).toMatchObject({ code: 0, message: NAME_RULE, field: 'name' });
    expect((await post(admin, '/api/group', { name: '<script>' })).body).toMatchObject({ code: 0, message: NAME_RULE });
    expect((await post(admin, '/api/group', { name: '' })).body).toMatchObject({ code: 0, message: NAME_RULE });
    expect((await post(admin, '/api/group', { name: '研发/测试' })).body).toMatchObject({ code: 0, message: '分组名称不能包含“/”（分组路径用它分隔各级名称）', field: 'name' });
    expect((await post(admin, '/api/group', {})).status).toBe(400);
    expect((await post(admin, '/api/group', { name: 'x'.repeat(5000) })).status).toBe(400);
    expect((await post(admin, '/api/group/child', { pid: 99999, name: '孤儿' })).body).toMatchObject({ code: 0, message: '上级分组不存在' });
    expect((await post(admin, '/api/group/child', { pid: -1, name: '孤儿' })).status).toBe(400);
    expect((await get(admin, '/api/group/99999')).body).toMatchObject({ code: 0, message: '分组不存在' });
    expect((await get(admin, '/api/group/abc')).status).toBe(400);

    const added = await lastAudit('group.added');
    expect(added).toMatchObject({ detail: { id: ids['销售平台'], groupPath: '总部/销售部/平台组', ip: '127.0.0.1' } });
  });

  it('renames and moves a group, the paths below following, and refuses a move into itself or below', async () => {
    const renamed = await admin.request({ method: 'PUT', url: `/api/group/${ids['研发部']}`, body: { name: '技术部' } });
    expect(renamed.body).toMatchObject({ code: 1, message: '修改成功', data: { groupPath: '总部/技术部' } });
    expect((await get(admin, `/api/group/${ids['平台组']}`)).body.data.groupPath).toBe('总部/技术部/平台组');
    expect(await lastAudit('group.renamed')).toMatchObject({ detail: { from: '总部/研发部', to: '总部/技术部', ip: '127.0.0.1' } });
    expect((await admin.request({ method: 'PUT', url: `/api/group/${ids['研发部']}`, body: { name: '销售部' } })).body.message).toBe('同一级下已有名为“销售部”的分组');

    for (const target of [ids['研发部'], ids['平台组']]) {
      expect((await post(admin, '/api/group/moveGroup', { id: ids['研发部'], pid: target })).body).toEqual({ code: 0, message: '不能将分组移动到其自身或其下级分组中', data: null, field: 'pid' });
    }
    expect((await post(admin, '/api/group/moveGroup', { id: ids['总部'], pid: ids['平台组'] })).body.message).toBe('不能将分组移动到其自身或其下级分组中');
    // 平台组 cannot join 销售部, which has a 平台组 already.
    expect((await post(admin, '/api/group/moveGroup', { id: ids['平台组'], pid: ids['销售部'] })).body.message).toBe('同一级下已有名为“平台组”的分组');
    expect((await post(admin, '/api/group/moveGroup', { id: ids['平台组'], pid: 99999 })).body.message).toBe('上级分组不存在');

    // 技术部 to the top level: its child goes with it.
    const moved = await post(admin, '/api/group/moveGroup', { id: ids['研发部'], pid: null });
    expect(moved.body).toMatchObject({ code: 1, message: '移动成功', data: { pid: null, groupPath: '技术部' } });
    expect((await get(admin, `/api/group/${ids['平台组']}`)).body.data.groupPath).toBe('技术部/平台组');
    expect(await lastAudit('group.moved')).toMatchObject({ detail: { fromPid: ids['总部'], toPid: null, from: '总部/技术部', to: '技术部' } });
    // And back under 总部.
    expect((await post(admin, '/api/group/moveGroup', { id: ids['研发部'], pid: ids['总部'] })).body.data.groupPath).toBe('总部/技术部');
  });

  it('puts 应用 and members in and out of groups through the pickers', async () => {
    const picker = async (kind: string, groupId: number, extra = '') =>
      (await get(admin, `/api/group/${kind}?groupId=${groupId}${extra}`)).body.data as { total: number; content: Array<{ id: number; name?: string; username?: string; groupPath?: string | null; groupPaths?: string[] }> };

    expect((await picker('hasSubjects', ids['平台组']!)).total).toBe(0);
    expect((await picker('hasNotSubjects', ids['平台组']!)).content.map((s) => s.name).sort()).toEqual(['CRM', '网关', '门户']);
    const addedApps = await post(admin, '/api/group/addSubjects', { groupId: ids['平台组'], subjectIds: [apps['网关'], apps['门户']] });
    expect(addedApps.body).toMatchObject({ code: 1, message: '添加成功', data: { changed: 2 } });
    expect((await picker('hasSubjects', ids['平台组']!)).content.map((s) => s.name).sort()).toEqual(['网关', '门户']);
    expect((await picker('hasNotSubjects', ids['平台组']!)).content.map((s) => s.name)).toEqual(['CRM']);
    // Keyword and paging.
    expect((await picker('hasSubjects', ids['平台组']!, '&keyword=网')).content.map((s) => s.name)).toEqual(['网关']);
    const first = await picker('hasSubjects', ids['平台组']!, '&page=1&size=1');
    const second = await picker('hasSubjects', ids['平台组']!, '&page=2&size=1');
    expect([first.total, second.total, second.content.length]).toEqual([2, 2, 1]);
    expect([first.content[0]!.name, second.content[0]!.name].sort()).toEqual(['网关', '门户']);
    expect((await picker('hasSubjects', ids['平台组']!, '&keyword=%25')).total).toBe(0);

    // An 应用 is in one group: adding it elsewhere moves it, and the picker says where it is.
    expect((await picker('hasNotSubjects', ids['销售部']!)).content.find((s) => s.name === '门户')?.groupPath).toBe('总部/技术部/平台组');
    expect((await post(admin, '/api/group/addSubjects', { groupId: ids['销售部'], subjectIds: [apps['门户'], apps['CRM']] })).body.data.changed).toBe(2);
    expect((await picker('hasSubjects', ids['平台组']!)).content.map((s) => s.name)).toEqual(['网关']);
    expect((await get(admin, `/api/subject/${apps['门户']}`)).body.data.groupId).toBe(ids['销售部']);
    const auditRow = await lastAudit('group.subjectsAdded');
    expect(auditRow).toMatchObject({ detail: { groupPath: '总部/销售部', ip: '127.0.0.1' } });
    expect(auditRow!.detail.subjects).toContainEqual({ id: apps['门户'], name: '门户', from: '总部/技术部/平台组' });
    // Adding what is already there changes nothing and writes no row.
    const before = await db().selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect((await post(admin, '/api/group/addSubjects', { groupId: ids['销售部'], subjectIds: [apps['CRM']] })).body.data.changed).toBe(0);
    const after = await db().selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // Ids that do not exist: refused whole, nothing moved.
    expect((await post(admin, '/api/group/addSubjects', { groupId: ids['平台组'], subjectIds: [apps['CRM'], 99999] })).body).toMatchObject({ code: 0, message: '所选应用不存在或已被删除' });
    expect((await get(admin, `/api/subject/${apps['CRM']}`)).body.data.groupId).toBe(ids['销售部']);
    expect((await post(admin, '/api/group/addSubjects', { groupId: 99999, subjectIds: [apps['CRM']] })).body.message).toBe('分组不存在');
    expect((await post(admin, '/api/group/addSubjects', { groupId: ids['销售部'], subjectIds: [] })).status).toBe(400);
    expect((await post(admin, '/api/group/addSubjects', { groupId: ids['销售部'], subjectIds: ['1 or 1=1'] })).status).toBe(400);

    const removed = await post(admin, '/api/group/removeSubjects', { groupId: ids['销售部'], subjectIds: [apps['CRM'], apps['网关']] });
    expect(removed.body).toMatchObject({ code: 1, message: '移除成功', data: { changed: 1 } });
    expect((await get(admin, `/api/subject/${apps['CRM']}`)).body.data.groupId).toBeNull();
    expect((await get(admin, `/api/subject/${apps['网关']}`)).body.data.groupId).toBe(ids['平台组']);
    expect(await lastAudit('group.subjectsRemoved')).toMatchObject({ detail: { subjects: [{ id: apps['CRM'], name: 'CRM' }] } });

    // Members: several groups per user.
    expect((await picker('hasNotUsers', ids['平台组']!)).content.map((u) => u.username)).toEqual(['admin', 'bob', 'uma']);
    expect((await post(admin, '/api/group/addUsers', { groupId: ids['平台组'], userIds: [umaId, bobId, umaId] })).body.data.changed).toBe(2);
    expect((await post(admin, '/api/group/addUsers', { groupId: ids['销售部'], userIds: [umaId] })).body.data.changed).toBe(1);
    const members = await picker('hasUsers', ids['平台组']!);
    expect(members.content.map((u) => u.username)).toEqual(['bob', 'uma']);
    expect(members.content.find((u) => u.username === 'uma')?.groupPaths).toEqual(['总部/技术部/平台组', '总部/销售部']);
    expect((await picker('hasUsers', ids['平台组']!, '&keyword=UM')).content.map((u) => u.username)).toEqual(['uma']);
    expect((await picker('hasNotUsers', ids['平台组']!)).content.map((u) => u.username)).toEqual(['admin']);
    expect(await lastAudit('group.usersAdded')).toMatchObject({ detail: { groupPath: '总部/销售部', users: [{ id: umaId, username: 'uma' }], ip: '127.0.0.1' } });
    expect((await post(admin, '/api/group/addUsers', { groupId: ids['平台组'], userIds: [99999] })).body.message).toBe('所选用户不存在或已被删除');
    expect((await post(admin, '/api/group/removeUsers', { groupId: ids['平台组'], userIds: [bobId] })).body).toMatchObject({ code: 1, message: '移除成功', data: { changed: 1 } });
    expect(await lastAudit('group.usersRemoved')).toMatchObject({ detail: { users: [{ id: bobId, username: 'bob' }] } });
    expect((await get(admin, '/api/group/hasUsers?groupId=99999')).body.message).toBe('分组不存在');
    expect((await get(admin, '/api/group/hasUsers')).status).toBe(400);
    expect((await get(admin, `/api/group/hasUsers?groupId=${ids['平台组']}&size=100000`)).status).toBe(400);

    const tree = (await get(admin, '/api/group/list')).body.data as Node[];
    const platform = tree[0]!.children.find((n) => n.name === '技术部')!.children[0]!;
    expect(platform).toMatchObject({ name: '平台组', subjectCount: 1, userCount: 1, childCount: 0 });
  });

  it('finds a group by its path, filters the tree by keyword, and scopes the filter lists', async () => {
    expect((await get(admin, `/api/group/getByGroupPath?groupPath=${encodeURIComponent('总部/技术部/平台组')}`)).body.data.id).toBe(ids['平台组']);
    expect((await get(admin, `/api/group/getByGroupPath?groupPath=${encodeURIComponent('/总部/销售部/平台组/')}`)).body.data.id).toBe(ids['销售平台']);
    expect((await get(admin, `/api/group/getByGroupPath?groupPath=${encodeURIComponent('总部/研发部')}`)).body).toMatchObject({ code: 0, message: '分组路径“总部/研发部”不存在' });
    expect((await get(admin, `/api/group/getByGroupPath?groupPath=${encodeURIComponent('平台组')}`)).body.code).toBe(0);
    expect((await get(admin, '/api/group/getByGroupPath?groupPath=')).status).toBe(400);

    const filtered = (await get(admin, `/api/group/list?keyword=${encodeURIComponent('平台')}`)).body.data as Node[];
    expect(outline(filtered)).toEqual([{ 总部: [{ 技术部: ['平台组'] }, { 销售部: ['平台组'] }] }]);

    const all = (await get(admin, '/api/group/filter/all/list')).body.data as Array<{ groupPath: string }>;
    expect(all.map((g) => g.groupPath)).toEqual(['总部', '总部/技术部', '总部/技术部/平台组', '总部/销售部', '总部/销售部/平台组']);
    expect(((await get(admin, '/api/group/filter/list')).body.data as unknown[]).length).toBe(5);
    // uma is in 平台组 and 销售部: those and the groups below them.
    const mine = (await get(uma, '/api/group/filter/list')).body.data as Array<{ groupPath: string }>;
    expect(mine.map((g) => g.groupPath)).toEqual(['总部/技术部/平台组', '总部/销售部', '总部/销售部/平台组']);
    expect(outline((await get(uma, '/api/group/filter/tree')).body.data as Node[])).toEqual(['平台组', { 销售部: ['平台组'] }]);
    expect(((await get(uma, '/api/group/filter/all/list')).body.data as unknown[]).length).toBe(5);
  });

  it('refuses to delete a group that still holds anything, then deletes it', async () => {
    expect((await admin.request({ method: 'DELETE', url: `/api/group/${ids['总部']}` })).body).toEqual({ code: 0, message: '该分组下还有 2 个子分组，请先移走后再删除', data: null });
    expect((await admin.request({ method: 'DELETE', url: `/api/group/${ids['平台组']}` })).body.message).toBe('该分组下还有 1 个应用、1 名成员，请先移走后再删除');
    await post(admin, '/api/group/removeSubjects', { groupId: ids['平台组'], subjectIds: [apps['网关']] });
    await post(admin, '/api/group/removeUsers', { groupId: ids['平台组'], userIds: [umaId] });
    expect((await admin.request({ method: 'DELETE', url: `/api/group/${ids['平台组']}` })).body).toMatchObject({ code: 1, message: '删除成功' });
    expect(await lastAudit('group.deleted')).toMatchObject({ detail: { id: ids['平台组'], groupPath: '总部/技术部/平台组', ip: '127.0.0.1' } });
    expect((await admin.request({ method: 'DELETE', url: `/api/group/${ids['平台组']}` })).body.message).toBe('分组不存在');
    expect((await get(admin, `/api/group/${ids['技术部'] ?? ids['研发部']}`)).body.data.childCount).toBe(0);
  });

  it('refuses every call without a session, and the administration calls without the permission', async () => {
    const anonymous = server.client();
    await anonymous.fetchCsrf();
    for (const url of ['/api/group/list', '/api/group/filter/list', '/api/group/filter/all/list', '/api/group/filter/tree', `/api/group/${ids['总部']}`]) {
      expect((await get(anonymous, url)).status, url).toBe(401);
    }
    expect((await post(anonymous, '/api/group', { name: '匿名' })).status).toBe(401);

    const denied: Array<[string, string, unknown?]> = [
      ['GET', '/api/group/list'], ['GET', `/api/group/${ids['总部']}`], ['PUT', `/api/group/${ids['总部']}`, { name: '改名' }],
      ['DELETE', `/api/group/${ids['销售平台']}`], ['POST', '/api/group', { name: '新组' }], ['POST', '/api/group/child', { pid: ids['总部'], name: '新组' }],
      ['POST', '/api/group/moveGroup', { id: ids['销售部'], pid: null }], ['POST', '/api/group/addSubjects', { groupId: ids['销售部'], subjectIds: [apps['CRM']] }],
      ['POST', '/api/group/removeSubjects', { groupId: ids['销售部'], subjectIds: [apps['门户']] }], ['POST', '/api/group/addUsers', { groupId: ids['销售部'], userIds: [umaId] }],
      ['POST', '/api/group/removeUsers', { groupId: ids['销售部'], userIds: [umaId] }], ['GET', `/api/group/hasSubjects?groupId=${ids['总部']}`],
      ['GET', `/api/group/hasNotSubjects?groupId=${ids['总部']}`], ['GET', `/api/group/hasUsers?groupId=${ids['总部']}`],
      ['GET', `/api/group/hasNotUsers?groupId=${ids['总部']}`], ['GET', '/api/group/getByGroupPath?groupPath=%E6%80%BB%E9%83%A8'],
    ];
    for (const [method, url, body] of denied) {
      const reply = await uma.request({ method: method as 'GET', url, ...(body !== undefined && { body }) });
      expect(reply.status, `${method} ${url}`).toBe(403);
    }
    // Nothing changed.
    expect((await get(admin, `/api/group/${ids['销售部']}`)).body.data).toMatchObject({ pid: ids['总部'], name: '销售部', userCount: 1 });
  });
});
