// The access model of administration (issue 18): what a user may do and see is granted at login.
// A change of their roles, of a role's permissions or of its data permission leaves their open
// sessions as they were and applies at their next login (spec doc 2 §6); the GROUP data
// permission shows the 应用 of the user's organisation groups and every group below them, and
// nothing of a sibling group. Roles and groups are written straight to the tables here: their
// administration calls have their own tests. SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const PASSWORD = 'Pass@12345';

describe.each(databases)('access granted at login on %s', (database) => {
  const server = useServer(database, { scanConcurrency: 0 });
  let admin: TestClient;
  let ada: TestClient;
  let adaId: number;
  const groups: Record<string, number> = {};
  const subjects: Record<string, number> = {};

  const db = () => server.app.cairn.db;
  const subjectNames = async (client: TestClient): Promise<string[]> => {
    const reply = await client.request({ method: 'POST', url: '/api/subject/list?page=1&size=100', body: {} });
    expect(reply.body.code, reply.body.message).toBe(1);
    return (reply.body.data.content as Array<{ name: string }>).map((s) => s.name).sort();
  };
  const self = async (client: TestClient) => (await client.request({ method: 'GET', url: '/api/user/self' })).body.data;

  beforeAll(async () => {
    admin = await adminClient(server);
    ({ client: ada, id: adaId } = await signIn(server, 'ada', PASSWORD));
    // Groups: 总部 > 研发部 > 平台组, and 销售部 beside 研发部.
    const group = async (name: string, pid: number | null) =>
      (groups[name] = (await db().insertInto('subject_groups').values({ name, pid, created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow()).id);
    await group('总部', null);
    await group('研发部', groups['总部']!);
    await group('平台组', groups['研发部']!);
    await group('销售部', groups['总部']!);
    for (const [name, groupName] of [['研发-门户', '研发部'], ['平台-网关', '平台组'], ['销售-CRM', '销售部']] as const) {
      const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name } });
      expect(created.body.code, created.body.message).toBe(1);
      subjects[name] = created.body.data.id;
      await db().updateTable('subjects').set({ group_id: groups[groupName]! }).where('id', '=', created.body.data.id).execute();
    }
    await db().insertInto('user_groups').values({ user_id: adaId, group_id: groups['研发部']! }).execute();
  });

  it('keeps a session\'s permissions and data scope until the next login', async () => {
    expect((await self(ada)).dataPermissionEnum).toBe('SELF');
    expect(await subjectNames(ada)).toEqual([]);
    const ordinary = await db().selectFrom('roles').select('id').where('code', '=', 3).executeTakeFirstOrThrow();
    await db().updateTable('roles').set({ data_permission: 'GROUP' }).where('id', '=', ordinary.id).execute();
    await db().deleteFrom('role_permissions').where('role_id', '=', ordinary.id).where('permission_code', '=', 'project:list').execute();

    // The open session goes on as its login granted it.
    expect(await subjectNames(ada)).toEqual([]);
    expect((await self(ada)).permissionPOS).toContainEqual({ code: 'project:list' });

    // The next login takes the role as it is now: no project list.
    expect((await ada.login('ada', PASSWORD)).body.code).toBe(1);
    const after = await self(ada);
    expect(after.dataPermissionEnum).toBe('GROUP');
    expect(after.permissionPOS).not.toContainEqual({ code: 'project:list' });
    expect((await ada.request({ method: 'POST', url: '/api/subject/list?page=1&size=100', body: {} })).status).toBe(403);

    await db().insertInto('role_permissions').values({ role_id: ordinary.id, permission_code: 'project:list' }).execute();
    expect((await ada.login('ada', PASSWORD)).body.code).toBe(1);
  });

  it('shows a GROUP user the 应用 of their groups and the groups below, never a sibling group\'s', async () => {
    expect(await subjectNames(ada)).toEqual(['平台-网关', '研发-门户']);
    const crm = subjects['销售-CRM']!;
    const gateway = subjects['平台-网关']!;
    expect((await ada.request({ method: 'GET', url: `/api/subject/${gateway}` })).body.code).toBe(1);
    expect((await ada.request({ method: 'GET', url: `/api/subject/${crm}` })).body.code).not.toBe(1);
    // Seeing a group's 应用 is not managing it.
    expect((await ada.request({ method: 'DELETE', url: `/api/subject/${gateway}` })).body.code).not.toBe(1);
    expect((await admin.request({ method: 'GET', url: `/api/subject/${gateway}` })).body.code).toBe(1);
  });

  it('takes a user out of a group\'s scope at their next login too, and SELF shows only their own', async () => {
    await db().deleteFrom('user_groups').where('user_id', '=', adaId).execute();
    // Membership is read per request (only roles are granted at login): the group's 应用 are gone now.
    expect(await subjectNames(ada)).toEqual([]);
    const ordinary = await db().selectFrom('roles').select('id').where('code', '=', 3).executeTakeFirstOrThrow();
    await db().updateTable('roles').set({ data_permission: 'SELF' }).where('id', '=', ordinary.id).execute();
    await db().insertInto('user_groups').values({ user_id: adaId, group_id: groups['总部']! }).execute();
    expect(await subjectNames(ada)).toEqual(['平台-网关', '研发-门户', '销售-CRM']);
    expect((await ada.login('ada', PASSWORD)).body.code).toBe(1);
    expect(await subjectNames(ada)).toEqual([]);
  });
});
