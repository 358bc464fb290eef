// Subjects over HTTP on SQLite and PostgreSQL: list (filters, sort, paging, binary product, data
// scope), group view, create, details, setup, custom fields, delete (single and all-or-nothing
// batch), transfer, members and versions — each with its validation, permission (no code / not a
// member / not the owner) and not-found answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/db/time.ts';
import { canAccessSubject, canManageSubject, seesAllSubjects, visibleSubjectIds } from '../../../server/db/repositories/subject-access.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const DENIED = { code: 0, message: 'Permission denied', data: null };

describe.each(databases)('subjects on $name', (database) => {
  let admin: TestClient;
  let owner: TestClient;
  let other: TestClient;
  let limited: TestClient;
  let ids: { owner: number; other: number; limited: number };

  const login = (name: string, roleCodes?: number[]) => signIn(server, name, 'Pass@12345', roleCodes);
  const create = async (client: TestClient, body: Record<string, unknown>, binary = false) =>
    client.request({ method: 'POST', url: binary ? '/api/binary/subject/create' : '/api/subject/create', body });

  const server = useServer(database);
  beforeAll(async () => {
    admin = await adminClient(server);
    // A role holding only project:list: lists and creates, but has no setup codes.
    const db = server.app.cairn.db;
    const { id: roleId } = await db.insertInto('roles').values({ code: 90, name: '只读' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values({ role_id: roleId, permission_code: 'project:list' }).execute();
    const o = await login('olga');
    const p = await login('pavel');
    const l = await login('lisa', [90]);
    owner = o.client;
    other = p.client;
    limited = l.client;
    ids = { owner: o.id, other: p.id, limited: l.id };
  });

  it('creates a subject with the creator as owner, refuses bad names and duplicates', async () => {
    const made = await create(owner, { name: 'payment-gateway', description: '支付网关', importance: 1, memberIds: [ids.other] });
    expect(made.body).toMatchObject({ code: 1, message: '添加成功！', data: { id: expect.any(Number), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const id = made.body.data.id;
    const detail = await owner.request({ method: 'GET', url: `/api/subject/${id}` });
    expect(detail.body.data).toMatchObject({ name: 'payment-gateway', description: '支付网关', importance: 1, ownerId: ids.owner, ownerName: 'olga', memberCount: 2, projectCount: 0, product: 1, canManage: true, versions: [] });
    expect(detail.body.data.settings.bug).toEqual({ enabled: false, type: null, url: '', projectKey: '', username: '', hasPassword: false });

    expect((await create(owner, { name: 'payment-gateway' })).body).toMatchObject({ code: 0, message: '应用名称已存在，请换一个名称' });
    // The same name is free in the binary product.
    expect((await create(owner, { name: 'payment-gateway' }, true)).body.code).toBe(1);
    expect((await create(owner, { name: 'bad name' })).body).toMatchObject({ code: 0, message: '请输入1-100个字符，不能包含[*?"<>|；《》]及空格' });
    expect((await create(owner, { name: 'x'.repeat(101) })).body.code).toBe(0);
    expect((await create(owner, { name: 'ok', description: 'a<b' })).body.message).toBe('请输入0-200个字符，不能包含[*?"<>|；《》]');
    expect((await create(owner, { name: 'ok', importance: 9 })).status).toBe(400);
    expect((await create(owner, { name: 'ok', groupId: 999 })).body.message).toBe('所选分组不存在');
    expect((await create(owner, { name: 'ok', memberIds: [9999] })).body.message).toBe('用户不存在');
    const noCsrf = await owner.request({ method: 'POST', url: '/api/subject/create', body: { name: 'x' }, csrf: false });
    expect(noCsrf.status).toBe(403);
  });

  it('lists only visible subjects of the product, with filters, sort and paging', async () => {
    await create(owner, { name: 'alpha-app', importance: 2, subjectType: 'web' });
    await create(owner, { name: 'Beta-App', importance: 3 });
    await create(admin, { name: 'admin-only' });

    const mine = await owner.request({ method: 'POST', url: '/api/subject/list?page=1&size=15&sort=name,asc', body: {} });
    expect(mine.body.data.content.map((r: { name: string }) => r.name)).toEqual(['alpha-app', 'Beta-App', 'payment-gateway']);
    expect(mine.body.data.total).toBe(3);
    // pavel is a member of payment-gateway only, and may not manage it.
    const member = await other.request({ method: 'POST', url: '/api/subject/list', body: {} });
    expect(member.body.data.content).toEqual([expect.objectContaining({ name: 'payment-gateway', canManage: false, memberCount: 2 })]);
    const all = await admin.request({ method: 'POST', url: '/api/subject/list?size=2&page=2&sort=name,asc', body: {} });
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.content.map((r: { name: string }) => r.name)).toEqual(['Beta-App', 'payment-gateway']);

    const byName = await owner.request({ method: 'POST', url: '/api/subject/list', body: { name: 'APP' } });
    expect(byName.body.data.total).toBe(2);
    const byImportance = await owner.request({ method: 'POST', url: '/api/subject/list', body: { importance: [1, 2] } });
    expect(byImportance.body.data.content.map((r: { name: string }) => r.name).sort()).toEqual(['alpha-app', 'payment-gateway']);
    const byType = await owner.request({ method: 'POST', url: '/api/subject/list', body: { subjectType: 'web' } });
    expect(byType.body.data.content.map((r: { name: string }) => r.name)).toEqual(['alpha-app']);
    const newest = await owner.request({ method: 'POST', url: '/api/subject/list?sort=createdAt,desc', body: {} });
    expect(newest.body.data.content[0].name).toBe('Beta-App');

    const binary = await owner.request({ method: 'POST', url: '/api/binary/subject/list', body: {} });
    expect(binary.body.data.content.map((r: { name: string }) => r.name)).toEqual(['payment-gateway']);

    const allList = await other.request({ method: 'GET', url: '/api/subject/all/list' });
    expect(allList.body.data).toEqual([{ id: expect.any(Number), name: 'payment-gateway', product: 1 }]);

    expect((await owner.request({ method: 'POST', url: '/api/subject/list?sort=owner,asc', body: {} })).status).toBe(400);
    // No project:list code: refused by the guard.
    const db = server.app.cairn.db;
    const { id: roleId } = await db.insertInto('roles').values({ code: 91, name: '无项目' }).returning('id').executeTakeFirstOrThrow();
    void roleId;
    const { client: nobody } = await login('nora', [91]);
    const refused = await nobody.request({ method: 'POST', url: '/api/subject/list', body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(DENIED);
  });

  it('keeps one scope of versionIds, subjectIds and groupIds', async () => {
    const db = server.app.cairn.db;
    const now = nowIso();
    const top = await db.insertInto('subject_groups').values({ pid: null, name: '研发部', created_at: now }).returning('id').executeTakeFirstOrThrow();
    const child = await db.insertInto('subject_groups').values({ pid: top.id, name: '支付组', created_at: now }).returning('id').executeTakeFirstOrThrow();
    const inChild = await create(owner, { name: 'grouped-app', groupId: child.id });
    const list = await owner.request({ method: 'POST', url: '/api/subject/list', body: {} });
    const alpha = list.body.data.content.find((r: { name: string }) => r.name === 'alpha-app');

    // groupIds covers descendants.
    const byGroup = await owner.request({ method: 'POST', url: '/api/subject/list', body: { groupIds: [top.id] } });
    expect(byGroup.body.data.content.map((r: { name: string; groupName: string }) => [r.name, r.groupName])).toEqual([['grouped-app', '支付组']]);
    // subjectIds wins over groupIds.
    const bySubject = await owner.request({ method: 'POST', url: '/api/subject/list', body: { groupIds: [top.id], subjectIds: [alpha.id] } });
    expect(bySubject.body.data.content.map((r: { name: string }) => r.name)).toEqual(['alpha-app']);
    // versionIds wins over both.
    const version = await owner.request({ method: 'POST', url: '/api/version/create', body: { subjectId: inChild.body.data.id, name: 'v1.0' } });
    const byVersion = await owner.request({ method: 'POST', url: '/api/subject/list', body: { versionIds: [version.body.data.id], subjectIds: [alpha.id] } });
    expect(byVersion.body.data.content.map((r: { name: string }) => r.name)).toEqual(['grouped-app']);
    // Empty arrays are dropped.
    expect((await owner.request({ method: 'POST', url: '/api/subject/list', body: { versionIds: [], subjectIds: [] } })).body.data.total).toBe(4);

    // Group view: root shows top groups and ungrouped subjects; a group shows its children and own subjects.
    const root = await owner.request({ method: 'GET', url: '/api/group/groupSubjectList?page=1&size=15' });
    expect(root.body.data.path).toEqual([]);
    expect(root.body.data.groups).toEqual([{ id: top.id, pid: null, name: '研发部', subjectCount: 1, childCount: 1 }]);
    expect(root.body.data.content.map((r: { name: string }) => r.name)).not.toContain('grouped-app');
    const inTop = await owner.request({ method: 'GET', url: `/api/group/groupSubjectList?pid=${top.id}` });
    expect(inTop.body.data).toMatchObject({ path: [{ id: top.id, name: '研发部' }], groups: [{ name: '支付组', subjectCount: 1 }], total: 0 });
    const inChildView = await owner.request({ method: 'GET', url: `/api/group/groupSubjectList?pid=${child.id}` });
    expect(inChildView.body.data.path.map((c: { name: string }) => c.name)).toEqual(['研发部', '支付组']);
    expect(inChildView.body.data.content.map((r: { name: string }) => r.name)).toEqual(['grouped-app']);
    // pavel sees no subject in the group, so the group view does not name it to him.
    expect((await other.request({ method: 'GET', url: `/api/group/groupSubjectList?pid=${child.id}` })).body).toMatchObject({ code: 0, message: '所选分组不存在' });
    expect((await other.request({ method: 'GET', url: '/api/group/groupSubjectList' })).body.data.groups).toEqual([]);
    expect((await other.request({ method: 'GET', url: `/api/group/searchGroupSubjectList?name=${encodeURIComponent('支付')}` })).body.data.groups).toEqual([]);
    expect((await owner.request({ method: 'GET', url: '/api/group/groupSubjectList?pid=9999' })).body).toMatchObject({ code: 0, message: '所选分组不存在' });

    const search = await owner.request({ method: 'GET', url: `/api/group/searchGroupSubjectList?name=${encodeURIComponent('支付')}` });
    expect(search.body.data.groups.map((g: { name: string; path: Array<{ name: string }> }) => g.path.map((p) => p.name))).toEqual([['研发部', '支付组']]);
    const searchApp = await owner.request({ method: 'GET', url: '/api/group/searchGroupSubjectList?name=grouped' });
    expect(searchApp.body.data.subjects).toEqual([{ id: inChild.body.data.id, name: 'grouped-app', groupId: child.id, path: [{ id: top.id, name: '研发部' }, { id: child.id, name: '支付组' }] }]);
    expect((await owner.request({ method: 'GET', url: '/api/group/searchGroupSubjectList' })).status).toBe(400);
    expect((await owner.request({ method: 'GET', url: '/api/binary/group/groupSubjectList' })).body.data.content.map((r: { name: string }) => r.name)).toEqual(['payment-gateway']);
  });

  it('shows details to members only, answers 应用不存在 for unknown ids', async () => {
    const { body } = await owner.request({ method: 'POST', url: '/api/subject/list', body: { name: 'alpha-app' } });
    const id = body.data.content[0].id;
    const outsider = await other.request({ method: 'GET', url: `/api/subject/${id}` });
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual(DENIED);
    expect((await admin.request({ method: 'GET', url: `/api/subject/${id}` })).body.data).toMatchObject({ name: 'alpha-app', canManage: true });
    expect((await owner.request({ method: 'GET', url: '/api/subject/99999' })).body).toEqual({ code: 0, message: '应用不存在', data: null });
    expect((await owner.request({ method: 'GET', url: '/api/subject/abc' })).status).toBe(400);
  });

  it('saves basic setup and custom fields for managers only', async () => {
    const made = await create(owner, { name: 'setup-app', memberIds: [ids.other] });
    const id = made.body.data.id;
    const saved = await owner.request({ method: 'POST', url: '/api/subject/setup', body: { id, name: 'setup-app-2', description: '新描述', importance: 4, subjectType: 'mobile', customFields: { owner: '张三' } } });
    expect(saved.body).toEqual({ code: 1, message: '保存成功！', data: null });
    expect((await owner.request({ method: 'GET', url: `/api/subject/${id}` })).body.data).toMatchObject({ name: 'setup-app-2', description: '新描述', importance: 4, subjectType: 'mobile', customFields: { owner: '张三' } });
    expect((await owner.request({ method: 'POST', url: '/api/subject/setup', body: { id, name: 'alpha-app', importance: 3 } })).body.message).toBe('应用名称已存在，请换一个名称');
    expect((await owner.request({ method: 'POST', url: '/api/subject/setup', body: { id, name: '', importance: 3 } })).body.code).toBe(0);
    expect((await other.request({ method: 'POST', url: '/api/subject/setup', body: { id, name: 'hijack', importance: 3 } })).body).toEqual(DENIED);
    expect((await limited.request({ method: 'POST', url: '/api/subject/setup', body: { id, name: 'x', importance: 3 } })).status).toBe(403);
    expect((await owner.request({ method: 'POST', url: '/api/subject/setup', body: { id: 99999, name: 'x', importance: 3 } })).body.message).toBe('应用不存在');

    const url = `/api/system/customField/update/customField//subject/${id}`;
    const fields = await owner.request({ method: 'POST', url, body: { level: 'A', tags: ['x', 'y'], owner: null } });
    expect(fields.body).toMatchObject({ code: 1, message: '保存成功！', data: { level: 'A', tags: ['x', 'y'] } });
    expect((await owner.request({ method: 'GET', url: `/api/subject/${id}` })).body.data.customFields).toEqual({ level: 'A', tags: ['x', 'y'] });
    expect((await other.request({ method: 'POST', url, body: { level: 'B' } })).body).toEqual(DENIED);
    expect((await owner.request({ method: 'POST', url, body: { level: { deep: 1 } } })).status).toBe(400);
    expect((await owner.request({ method: 'POST', url: '/api/system/customField/update/customField//subject/99999', body: {} })).body.message).toBe('应用不存在');
  });

  it('adds, lists and removes members; the owner stays', async () => {
    const made = await create(owner, { name: 'team-app' });
    const id = made.body.data.id;
    const candidates = await owner.request({ method: 'GET', url: `/api/member/listForAdd?subjectId=${id}` });
    const names = candidates.body.data.map((u: { username: string }) => u.username);
    expect(names).toEqual(expect.arrayContaining(['admin', 'pavel', 'lisa']));
    expect(names).not.toContain('olga');
    expect((await owner.request({ method: 'GET', url: `/api/member/listForAdd?subjectId=${id}&name=pav` })).body.data.map((u: { username: string }) => u.username)).toEqual(['pavel']);

    expect((await owner.request({ method: 'POST', url: '/api/subject/member/add', body: { subjectId: id, userIds: [ids.other, ids.limited] } })).body).toMatchObject({ code: 1, message: '添加成功！', data: { added: 2 } });
    expect((await owner.request({ method: 'POST', url: '/api/subject/member/add', body: { subjectId: id, userIds: [] } })).status).toBe(400);
    expect((await owner.request({ method: 'POST', url: '/api/subject/member/add', body: { subjectId: id, userIds: [99999] } })).body.message).toBe('用户不存在');
    expect((await other.request({ method: 'POST', url: '/api/subject/member/add', body: { subjectId: id, userIds: [ids.other] } })).body).toEqual(DENIED);
    expect((await limited.request({ method: 'POST', url: '/api/subject/member/add', body: { subjectId: id, userIds: [ids.other] } })).status).toBe(403);
    expect((await owner.request({ method: 'POST', url: '/api/subject/member/add', body: { subjectId: 99999, userIds: [ids.other] } })).body.message).toBe('应用不存在');

    const members = await other.request({ method: 'GET', url: `/api/subject/${id}/member?page=1&size=2` });
    expect(members.body.data.total).toBe(3);
    expect(members.body.data.content[0]).toMatchObject({ username: 'olga', role: 1 });
    expect((await admin.request({ method: 'GET', url: `/api/subject/${id}/member` })).body.data.total).toBe(3);
    const stranger = await login('sven');
    expect((await stranger.client.request({ method: 'GET', url: `/api/subject/${id}/member` })).body).toEqual(DENIED);
    expect((await owner.request({ method: 'GET', url: '/api/subject/99999/member' })).body.message).toBe('应用不存在');

    expect((await owner.request({ method: 'DELETE', url: `/api/subject/${id}/member?ids=${ids.owner}` })).body.message).toBe('不能移除应用负责人，请先转移应用');
    expect((await owner.request({ method: 'DELETE', url: `/api/subject/${id}/member?ids=${stranger.id}` })).body.message).toBe('只能选择应用成员');
    expect((await owner.request({ method: 'DELETE', url: `/api/subject/${id}/member` })).body.message).toBe('请选择要移除的成员');
    expect((await other.request({ method: 'DELETE', url: `/api/subject/${id}/member?ids=${ids.limited}` })).body).toEqual(DENIED);
    expect((await owner.request({ method: 'DELETE', url: `/api/subject/${id}/member?ids=${ids.limited}` })).body).toMatchObject({ code: 1, message: '删除成功！', data: { removed: 1 } });
    expect((await owner.request({ method: 'DELETE', url: `/api/subject/${id}/member`, body: { ids: [ids.other] } })).body.data).toEqual({ removed: 1 });
    expect((await owner.request({ method: 'GET', url: `/api/subject/${id}/member` })).body.data.total).toBe(1);
  });

  it('transfers a subject: the new owner manages it, the old one stays a member', async () => {
    const made = await create(owner, { name: 'moving-app' });
    const id = made.body.data.id;
    expect((await other.request({ method: 'POST', url: '/api/subject/transfer', body: { subjectId: id, userId: ids.other } })).body).toEqual(DENIED);
    expect((await limited.request({ method: 'POST', url: '/api/subject/transfer', body: { subjectId: id, userId: ids.other } })).status).toBe(403);
    expect((await owner.request({ method: 'POST', url: '/api/subject/transfer', body: { subjectId: id, userId: 99999 } })).body.message).toBe('用户不存在');
    expect((await owner.request({ method: 'POST', url: '/api/subject/transfer', body: { subjectId: id, userId: ids.owner } })).body.message).toBe('该用户已是应用负责人');
    expect((await owner.request({ method: 'POST', url: '/api/subject/transfer', body: { subjectId: 99999, userId: ids.other } })).body.message).toBe('应用不存在');
    expect((await owner.request({ method: 'POST', url: '/api/subject/transfer', body: { subjectId: id } })).status).toBe(400);

    expect((await owner.request({ method: 'POST', url: '/api/subject/transfer', body: { subjectId: id, userId: ids.other } })).body).toEqual({ code: 1, message: '转移成功！', data: null });
    expect((await other.request({ method: 'GET', url: `/api/subject/${id}` })).body.data).toMatchObject({ ownerId: ids.other, ownerName: 'pavel', canManage: true, memberCount: 2 });
    expect((await owner.request({ method: 'GET', url: `/api/subject/${id}` })).body.data.canManage).toBe(false);
    expect((await owner.request({ method: 'POST', url: '/api/subject/setup', body: { id, name: 'moving-app', importance: 3 } })).body).toEqual(DENIED);

    const db = server.app.cairn.db;
    expect(await seesAllSubjects(db, 1)).toBe(true);
    expect(await seesAllSubjects(db, ids.owner)).toBe(false);
    expect(await canAccessSubject(db, ids.owner, id)).toBe(true);
    expect(await canManageSubject(db, ids.owner, id)).toBe(false);
    expect(await canManageSubject(db, ids.other, id)).toBe(true);
    expect(await canAccessSubject(db, ids.limited, id)).toBe(false);
    expect(await canAccessSubject(db, ids.owner, 99999)).toBe(false);
    expect(await visibleSubjectIds(db, 1)).toBe('all');
    expect(await visibleSubjectIds(db, ids.other)).toContain(id);
  });

  it('keeps versions unique per subject; deleting one detaches its projects', async () => {
    const made = await create(owner, { name: 'versioned-app', memberIds: [ids.other] });
    const id = made.body.data.id;
    const v1 = await owner.request({ method: 'POST', url: '/api/version/create', body: { subjectId: id, name: 'v1.0', remark: '首个版本' } });
    expect(v1.body).toMatchObject({ code: 1, message: '添加成功！', data: { name: 'v1.0', remark: '首个版本', projectCount: 0, subjectId: id } });
    expect((await owner.request({ method: 'POST', url: '/api/version/create', body: { subjectId: id, name: 'v1.0' } })).body.message).toBe('该应用下已存在同名版本');
    expect((await owner.request({ method: 'POST', url: '/api/version/create', body: { subjectId: id, name: 'v 2' } })).body.code).toBe(0);
    expect((await other.request({ method: 'POST', url: '/api/version/create', body: { subjectId: id, name: 'v9' } })).body).toEqual(DENIED);
    expect((await limited.request({ method: 'POST', url: '/api/version/create', body: { subjectId: id, name: 'v9' } })).status).toBe(403);
    expect((await owner.request({ method: 'POST', url: '/api/version/create', body: { subjectId: 99999, name: 'v9' } })).body.message).toBe('应用不存在');
    const v2 = await owner.request({ method: 'POST', url: '/api/version/create', body: { subjectId: id, name: 'v2.0' } });

    expect((await owner.request({ method: 'POST', url: '/api/version/update', body: { id: v2.body.data.id, name: 'v1.0' } })).body.message).toBe('该应用下已存在同名版本');
    expect((await owner.request({ method: 'POST', url: '/api/version/update', body: { id: v2.body.data.id, name: 'v2.1', remark: '修订' } })).body).toMatchObject({ code: 1, message: '保存成功！', data: { name: 'v2.1', remark: '修订' } });
    expect((await owner.request({ method: 'POST', url: '/api/version/update', body: { id: 99999, name: 'x' } })).body.message).toBe('版本不存在');
    expect((await other.request({ method: 'POST', url: '/api/version/update', body: { id: v2.body.data.id, name: 'x' } })).body).toEqual(DENIED);

    const list = await other.request({ method: 'GET', url: `/api/version/list?subjectId=${id}` });
    expect(list.body.data.map((v: { name: string }) => v.name)).toEqual(['v2.1', 'v1.0']);
    expect((await limited.request({ method: 'GET', url: `/api/version/list?subjectId=${id}` })).body).toEqual(DENIED);
    expect((await owner.request({ method: 'GET', url: '/api/version/list' })).status).toBe(400);

    // A project labelled v1.0 keeps existing without the label once v1.0 is deleted.
    const db = server.app.cairn.db;
    const now = nowIso();
    const project = await db.insertInto('projects').values({ subject_id: id, version_id: v1.body.data.id, name: 'core', get_code_type: 0, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    expect((await owner.request({ method: 'GET', url: `/api/version/list?subjectId=${id}` })).body.data[1].projectCount).toBe(1);
    expect((await other.request({ method: 'POST', url: '/api/version/delete', body: { id: v1.body.data.id } })).body).toEqual(DENIED);
    expect((await owner.request({ method: 'POST', url: '/api/version/delete', body: { id: v1.body.data.id } })).body).toEqual({ code: 1, message: '删除成功！', data: { detachedProjects: 1 } });
    const kept = await db.selectFrom('projects').select('version_id').where('id', '=', project.id).executeTakeFirstOrThrow();
    expect(kept.version_id).toBeNull();
    expect((await owner.request({ method: 'POST', url: '/api/version/delete', body: { id: v1.body.data.id } })).body.message).toBe('版本不存在');
  });

  it('sums the latest run of each project into the list row', async () => {
    const made = await create(owner, { name: 'scanned-app' });
    const id = made.body.data.id;
    const db = server.app.cairn.db;
    const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString();
    for (const [name, status, summary, finished] of [
      ['web', 2, { components: 10, vulnerabilities: 3, byLevel: { 1: 1, 2: 2 } }, at(5)],
      ['api', 3, { components: 4, vulnerabilities: 1, byLevel: { 2: 1 } }, at(9)],
    ] as const) {
      const p = await db.insertInto('projects').values({ subject_id: id, name, get_code_type: 0, status, created_at: at(0), updated_at: at(0) }).returning('id').executeTakeFirstOrThrow();
      const r = await db.insertInto('runs').values({ project_id: p.id, seq: 1, status, analysis_modes: '1', queued_at: at(1), finished_at: finished, summary: JSON.stringify(summary) }).returning('id').executeTakeFirstOrThrow();
      await db.updateTable('projects').set({ last_run_id: r.id }).where('id', '=', p.id).execute();
    }
    const row = (await owner.request({ method: 'POST', url: '/api/subject/list', body: { name: 'scanned' } })).body.data.content[0];
    expect(row).toMatchObject({ projectCount: 2, lastStatus: 3, lastAnalysisAt: at(9), counts: { components: 14, vulnerabilities: 4, byLevel: { 1: 1, 2: 3 } } });
  });

  it('deletes one subject or a batch, all or nothing', async () => {
    const a = (await create(owner, { name: 'del-a', memberIds: [ids.other] })).body.data.id;
    const b = (await create(owner, { name: 'del-b' })).body.data.id;
    const c = (await create(other, { name: 'del-c' })).body.data.id;
    const bin = (await create(owner, { name: 'del-bin' }, true)).body.data.id;

    expect((await other.request({ method: 'DELETE', url: `/api/subject/${a}` })).body).toEqual(DENIED);
    expect((await owner.request({ method: 'DELETE', url: '/api/subject/99999' })).body.message).toBe('应用不存在');
    const refused = await owner.request({ method: 'DELETE', url: `/api/subject/list?ids=${a},${c}` });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('无权删除以下应用：del-c，未删除任何应用');
    expect((await owner.request({ method: 'GET', url: `/api/subject/${a}` })).body.code).toBe(1);
    expect((await owner.request({ method: 'DELETE', url: `/api/subject/list?ids=${a},99999` })).body.message).toBe('部分应用不存在或已被删除，未删除任何应用');
    expect((await owner.request({ method: 'DELETE', url: '/api/subject/list?ids=a,b' })).status).toBe(400);

    expect((await owner.request({ method: 'DELETE', url: `/api/subject/list?ids=${a},${b}` })).body).toEqual({ code: 1, message: '删除成功！', data: { deleted: 2 } });
    expect((await owner.request({ method: 'GET', url: `/api/subject/${a}` })).body.message).toBe('应用不存在');
    expect((await other.request({ method: 'DELETE', url: `/api/subject/${c}` })).body).toEqual({ code: 1, message: '删除成功！', data: null });
    expect((await limited.request({ method: 'DELETE', url: `/api/subject/${bin}` })).status).toBe(403);
    expect((await owner.request({ method: 'DELETE', url: `/api/binary/subject/${bin}` })).body.code).toBe(1);
  });
});
