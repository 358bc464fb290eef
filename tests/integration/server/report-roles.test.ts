// Report deletion follows the spec's roles (issue 13, item 10b), tried as a member deleting a
// colleague's reports: a member deletes only the reports they generated; the 应用's owner and
// administrators delete any of its reports; a user outside the 应用 is refused as its data scope
// is. A refused delete (one report of a batch not the caller's) deletes none. SQLite and PostgreSQL.
// The reports are rows as the queue leaves them once generated (status 2), so no queue runs here.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const NOT_OWN = '只能删除自己生成的报告，应用负责人和管理员可删除该应用的全部报告';

describe.each(databases)('who may delete a report on %s', (database) => {
  const server = useServer(database);
  let admin: TestClient;
  let owner: TestClient;
  let mia: TestClient;
  let max: TestClient;
  let outsider: TestClient;
  let ids: { mia: number; max: number; owner: number; vexMia: number; spare: number };
  const db = () => server.app.cairn.db;

  beforeAll(async () => {
    admin = await adminClient(server);
    const o = await signIn(server, 'report-owner', 'Owner@12345');
    owner = o.client;
    const m1 = await signIn(server, 'mia', 'Mia@1234567');
    const m2 = await signIn(server, 'max', 'Max@1234567');
    mia = m1.client;
    max = m2.client;
    ({ client: outsider } = await signIn(server, 'report-outsider', 'Outsider@123'));
    const created = await owner.request({ method: 'POST', url: '/api/subject/create', body: { name: 'report-roles-app', memberIds: [m1.id, m2.id] } });
    expect(created.body.code, created.body.message).toBe(1);
    const subjectId = created.body.data.id as number;
    const now = new Date().toISOString();
    const report = async (kind: string, createdBy: number) => Number((await db().insertInto('reports').values({
      kind, report_type: 3, status: 2, name: `${kind}-${createdBy}.pdf`, subject_id: subjectId, subject_name: 'report-roles-app', created_by: createdBy, created_at: now, finished_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id);
    ids = { mia: await report('task', m1.id), max: await report('task', m2.id), owner: await report('task', o.id), vexMia: await report('vex', m1.id), spare: await report('task', m1.id) };
  });

  const status = async (id: number) => Number((await db().selectFrom('reports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status);
  const remove = (client: TestClient, reportIds: number[]) => client.request({ method: 'DELETE', url: `/api/report?reportIds=${reportIds.join(',')}` });

  it('lets a member delete none of a colleague\'s or the owner\'s reports, and none of a batch that holds one', async () => {
    for (const id of [ids.max, ids.owner]) {
      const refused = await remove(mia, [id]);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 0, message: NOT_OWN, data: null });
      expect(await status(id)).toBe(2);
    }
    const mixed = await remove(mia, [ids.mia, ids.max]);
    expect(mixed.body.message).toBe(NOT_OWN);
    expect(await status(ids.mia)).toBe(2);
    // The same through another kind's delete.
    const vex = await max.request({ method: 'DELETE', url: `/api/vex/report/delete/${ids.vexMia}` });
    expect(vex.body.message).toBe(NOT_OWN);
    expect(await status(ids.vexMia)).toBe(2);
  });

  it('lets a user outside the 应用 delete nothing', async () => {
    const refused = await remove(outsider, [ids.mia]);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Permission denied');
    expect(await status(ids.mia)).toBe(2);
  });

  it('lets a member delete their own reports, the owner and administrators any', async () => {
    expect((await remove(mia, [ids.mia])).body).toMatchObject({ code: 1, data: { deleted: 1 } });
    expect((await mia.request({ method: 'DELETE', url: `/api/vex/report/delete/${ids.vexMia}` })).body).toMatchObject({ code: 1, data: { deleted: 1 } });
    expect((await remove(owner, [ids.max])).body).toMatchObject({ code: 1, data: { deleted: 1 } });
    expect((await remove(admin, [ids.owner, ids.spare])).body).toMatchObject({ code: 1, data: { deleted: 2 } });
    for (const id of Object.values(ids)) expect(await status(id)).toBe(3);
  });
});
