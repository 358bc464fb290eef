// The GROUP data permission across the project area (issue 18, Done when): an ordinary user whose
// role has the GROUP data permission and who is a member of group A sees the 应用 of A and of the
// groups below it, and none of group B's, in every list that answers within the caller's data
// scope: the subject list and its group view, the task and project lists, the progress poll and
// the counts, the home statistics, the component influence, the reports, and the licence and
// vulnerability involvement lists and counts. Membership and 应用 placement go through the group
// calls (/api/group/addUsers, /api/group/addSubjects); the other member, of group B, sees the mirror
// image. SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { saveAdvisories } from '../../../server/db/repositories/knowledge-base.ts';
import { osvRecord } from '../../../server/kb/formats/osv.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';
import { seedRun, type SeededRun } from './fixtures/seed-run.ts';

const PASSWORD = 'Pass@12345';
const LOG4SHELL = 'GHSA-jfh8-c2jp-5v3q';
/** qs's flaw, published today: on the home page's intelligence list. */
const QS = 'GHSA-hrpp-h998-j3pp';

const advisory = (id: string, ecosystem: string, name: string, published: string) => osvRecord({
  schema_version: '1.6.0', id, aliases: [], published, modified: published, summary: `${name} flaw`,
  severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
  affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '99' }] }] }],
});

/** 应用 and their projects: two in group A (one in A itself, one in its child group), one in B. */
const A_PORTAL = { subjectName: 'GA-网上银行', projectName: 'ga-portal' };
const A_GATEWAY = { subjectName: 'GA-支付网关', projectName: 'ga-gateway' };
const B_SHOP = { subjectName: 'GB-手机商城', projectName: 'gb-shop' };

describe.each(databases)('GROUP data scope in every list on $name', (database) => {
  const server = useServer(database, { scanConcurrency: 0 });
  let admin: TestClient;
  let ada: TestClient;
  let bo: TestClient;
  const seeded: Record<string, SeededRun> = {};
  const groups: Record<string, number> = {};

  const db = () => server.app.cairn.db;
  const call = async (client: TestClient, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const reply = await client.request({ method, url, ...(body !== undefined ? { body } : method === 'POST' ? { body: {} } : {}) });
    expect(reply.body.code, `${method} ${url}: ${reply.body.message}`).toBe(1);
    return reply.body.data;
  };
  /** Which of the three 应用 an answer names (by 应用 or project name). */
  const named = (data: unknown): string[] => {
    const text = JSON.stringify(data);
    return [A_PORTAL, A_GATEWAY, B_SHOP].filter((s) => text.includes(s.subjectName) || text.includes(s.projectName)).map((s) => s.subjectName).sort();
  };
  const A = [A_GATEWAY.subjectName, A_PORTAL.subjectName].sort();
  const B = [B_SHOP.subjectName];
  const ALL = [...A, ...B].sort();

  beforeAll(async () => {
    await saveAdvisories(db(), [
      advisory(LOG4SHELL, 'Maven', 'org.apache.logging.log4j:log4j-core', '2021-12-10T00:40:56Z'),
      advisory(QS, 'npm', 'qs', new Date().toISOString()),
    ]);
    admin = await adminClient(server);
    const adminId = Number((await db().selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id);
    for (const s of [A_PORTAL, A_GATEWAY, B_SHOP]) seeded[s.subjectName] = await seedRun(db(), { ownerId: adminId, ...s });

    // The ordinary role shows its holders their groups' 应用 (the role screen's data permission).
    await db().updateTable('roles').set({ data_permission: 'GROUP' }).where('code', '=', 3).execute();
    const { id: adaId, client: adaClient } = await signIn(server, 'ada', PASSWORD);
    const { id: boId, client: boClient } = await signIn(server, 'bo', PASSWORD);
    ada = adaClient;
    bo = boClient;

    // 总部 > 研发部 (A) > 平台组; 总部 > 销售部 (B).
    groups['总部'] = (await call(admin, 'POST', '/api/group', { name: '总部' })).id;
    groups.A = (await call(admin, 'POST', '/api/group/child', { pid: groups['总部'], name: '研发部' })).id;
    groups.A1 = (await call(admin, 'POST', '/api/group/child', { pid: groups.A, name: '平台组' })).id;
    groups.B = (await call(admin, 'POST', '/api/group/child', { pid: groups['总部'], name: '销售部' })).id;
    await call(admin, 'POST', '/api/group/addSubjects', { groupId: groups.A, subjectIds: [seeded[A_PORTAL.subjectName]!.subjectId] });
    await call(admin, 'POST', '/api/group/addSubjects', { groupId: groups.A1, subjectIds: [seeded[A_GATEWAY.subjectName]!.subjectId] });
    await call(admin, 'POST', '/api/group/addSubjects', { groupId: groups.B, subjectIds: [seeded[B_SHOP.subjectName]!.subjectId] });
    await call(admin, 'POST', '/api/group/addUsers', { groupId: groups.A, userIds: [adaId] });
    await call(admin, 'POST', '/api/group/addUsers', { groupId: groups.B, userIds: [boId] });
  });

  it('shows the subject list, its group view and the 应用 pickers only the group\'s 应用', async () => {
    for (const [client, mine] of [[admin, ALL], [ada, A], [bo, B]] as const) {
      expect(named(await call(client, 'POST', '/api/subject/list?page=1&size=100')), 'subject list').toEqual(mine);
      expect(named(await call(client, 'GET', '/api/subject/all/list')), 'all list').toEqual(mine);
      expect(named(await call(client, 'GET', '/api/group/searchGroupSubjectList?name=G')), 'group search').toEqual(mine);
    }
    // The group view: ada walks 总部 > 研发部 > 平台组; 销售部 is not named to her, nor its 应用.
    const root = await call(ada, 'GET', '/api/group/groupSubjectList');
    expect(root.groups.map((g: { name: string; subjectCount: number }) => [g.name, g.subjectCount])).toEqual([['总部', 2]]);
    const hq = await call(ada, 'GET', `/api/group/groupSubjectList?pid=${groups['总部']}`);
    expect(hq.groups.map((g: { name: string }) => g.name)).toEqual(['研发部']);
    const a = await call(ada, 'GET', `/api/group/groupSubjectList?pid=${groups.A}`);
    expect(a.groups.map((g: { name: string; subjectCount: number }) => [g.name, g.subjectCount])).toEqual([['平台组', 1]]);
    expect(named(a.content)).toEqual([A_PORTAL.subjectName]);
    expect(named((await call(ada, 'GET', `/api/group/groupSubjectList?pid=${groups.A1}`)).content)).toEqual([A_GATEWAY.subjectName]);
    expect((await ada.request({ method: 'GET', url: `/api/group/groupSubjectList?pid=${groups.B}` })).body).toMatchObject({ code: 0, message: '所选分组不存在' });
    // Filtering by a group outside the scope finds nothing.
    expect(named(await call(ada, 'POST', '/api/subject/list?page=1&size=100', { groupIds: [groups.B] }))).toEqual([]);
    // Her pickers offer her groups, never 销售部.
    expect((await call(ada, 'GET', '/api/group/filter/list')).map((g: { groupPath: string }) => g.groupPath)).toEqual(['总部/研发部', '总部/研发部/平台组']);
    // Details: her groups' 应用 open, the other group's do not.
    expect((await ada.request({ method: 'GET', url: `/api/subject/${seeded[A_GATEWAY.subjectName]!.subjectId}` })).body.code).toBe(1);
    expect((await ada.request({ method: 'GET', url: `/api/subject/${seeded[B_SHOP.subjectName]!.subjectId}` })).body.code).toBe(0);
  });

  it('shows the task list, the project list, the progress poll and the counts only the group\'s projects', async () => {
    const projectIds = Object.values(seeded).map((s) => s.projectId).join(',');
    for (const [client, mine] of [[admin, ALL], [ada, A], [bo, B]] as const) {
      expect(named(await call(client, 'POST', '/api/project-task-view/list?page=1&size=100')), 'task list').toEqual(mine);
      const progress = await call(client, 'GET', `/api/project-task-view/progress?projectIds=${projectIds}`);
      expect(progress.map((p: { projectId: number }) => p.projectId).sort(), 'progress')
        .toEqual(Object.values(seeded).filter((_, i) => mine.includes(Object.keys(seeded)[i]!)).map((s) => s.projectId).sort());
      expect((await call(client, 'GET', '/api/project/available-num')).used, 'available-num').toBe(mine.length);
    }
    expect(named(await call(ada, 'POST', '/api/project/list', { subjectId: seeded[A_GATEWAY.subjectName]!.subjectId }))).toEqual([A_GATEWAY.subjectName]);
    expect((await ada.request({ method: 'POST', url: '/api/project/list', body: { subjectId: seeded[B_SHOP.subjectName]!.subjectId } })).body.code).toBe(0);
    // The task list filtered by the other group: nothing.
    expect(named(await call(ada, 'POST', '/api/project-task-view/list?page=1&size=100', { groupIds: [groups.B] }))).toEqual([]);
  });

  it('counts only the group\'s 应用 on the home page and in the component influence', async () => {
    for (const [client, mine] of [[admin, ALL], [ada, A], [bo, B]] as const) {
      const stats = await call(client, 'GET', '/api/home-page/component/statistics');
      expect([stats.subjects, stats.projects], 'home statistics').toEqual([mine.length, mine.length]);
      const top = await call(client, 'GET', '/api/home-page/component/top10');
      expect(top.find((r: { name: string }) => r.name === 'lodash')?.projectCount, 'top10').toBe(mine.length);
      expect(named(await call(client, 'GET', '/api/home-page/vulnerability/latest')), 'latest vulnerabilities').toEqual(mine);
      const intelligence = await call(client, 'POST', '/api/home-page/opensource/intelligence?page=1&size=50', {});
      expect(intelligence.content.find((r: { identify: string }) => r.identify === QS)?.involvedSubjects, 'intelligence').toBe(mine.length);
      expect(named(await call(client, 'POST', `/api/component/influence/${encodeURIComponent('pkg:npm/lodash@4.17.20')}?page=1&size=50`)), 'component influence').toEqual(mine);
      expect(named(await call(client, 'GET', '/api/project-task-view/module-influence?name=lodash&page=1&size=50')), 'module influence').toEqual(mine);
    }
  });

  it('lists only the group\'s reports', async () => {
    for (const s of Object.values(seeded)) {
      await call(admin, 'POST', '/api/report/subject/generate', { subjectId: s.subjectId, reportTypes: [2] });
    }
    for (const [client, mine] of [[admin, ALL], [ada, A], [bo, B]] as const) {
      expect(named(await call(client, 'GET', '/api/report/list?page=1&size=100')), 'report list').toEqual(mine);
    }
  });

  it('lists and counts only the group\'s 应用 in the licence and vulnerability involvement', async () => {
    for (const [client, mine] of [[admin, ALL], [ada, A], [bo, B]] as const) {
      expect(named(await call(client, 'POST', '/api/license/MIT/involvedSubjectsList?page=1&size=50')), 'licence involvement').toEqual(mine);
      expect(named(await call(client, 'POST', `/api/vulnerability/${LOG4SHELL}/involvedSubjectsList?page=1&size=50`)), 'vulnerability involvement').toEqual(mine);
      const list = await call(client, 'POST', '/api/vulnerability/list?page=1&size=50', {});
      expect(list.content.find((r: { identify: string }) => r.identify === LOG4SHELL)?.involvedSubjects, 'vulnerability list').toBe(mine.length);
      expect((await call(client, 'GET', `/api/vulnerability/${LOG4SHELL}`)).involvedSubjects, 'vulnerability detail').toBe(mine.length);
    }
  });

  it('follows a move at once: the user taken out of the group, or the 应用 moved, leaves the scope', async () => {
    // An 应用 moved from B into A's child group shows for ada and no longer for bo.
    await call(admin, 'POST', '/api/group/addSubjects', { groupId: groups.A1, subjectIds: [seeded[B_SHOP.subjectName]!.subjectId] });
    expect(named(await call(ada, 'POST', '/api/subject/list?page=1&size=100'))).toEqual(ALL);
    expect(named(await call(bo, 'POST', '/api/subject/list?page=1&size=100'))).toEqual([]);
    await call(admin, 'POST', '/api/group/addSubjects', { groupId: groups.B, subjectIds: [seeded[B_SHOP.subjectName]!.subjectId] });
    // The group A moved under B: bo (in B) now sees A's 应用 too, ada still only A's.
    await call(admin, 'POST', '/api/group/moveGroup', { id: groups.A, pid: groups.B });
    expect(named(await call(bo, 'POST', '/api/subject/list?page=1&size=100'))).toEqual(ALL);
    expect(named(await call(ada, 'POST', '/api/subject/list?page=1&size=100'))).toEqual(A);
    // ada out of the group: nothing.
    const adaId = Number((await db().selectFrom('users').select('id').where('username', '=', 'ada').executeTakeFirstOrThrow()).id);
    await call(admin, 'POST', '/api/group/removeUsers', { groupId: groups.A, userIds: [adaId] });
    expect(named(await call(ada, 'POST', '/api/subject/list?page=1&size=100'))).toEqual([]);
    expect(named(await call(ada, 'POST', '/api/project-task-view/list?page=1&size=100'))).toEqual([]);
  });
});
