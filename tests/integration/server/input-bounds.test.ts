// Input bounds (issue 13, item 8), tried the way an attacker would: ids past the database's
// integer (99999999999) or written as 1e300, in paths, id lists and bodies; paging numbers beyond
// the safe range, negative and absurd page sizes. Each is refused with 400 and a Chinese reason
// (请求参数错误：…), never a 500, on SQLite and PostgreSQL. The sweep covers every call whose
// path takes an integer.
import { describe, expect, it } from 'vitest';
import { implementedCalls } from '../../../contract/api/index.ts';
import type { CallSpec } from '../../../contract/api/define.ts';
import { adminClient, databases, signIn, useServer, type Reply } from './harness.ts';

const HUGE = ['99999999999', '1e300', '9007199254740993', '2147483648'];

/** A refusal of the input: 400 with the validation reason in Chinese. */
function expectRefused(reply: Reply, what: string): void {
  expect(reply.status, `${what}: ${reply.body?.message}`).toBe(400);
  expect(reply.body.code, what).toBe(0);
  expect(reply.body.message, what).toMatch(/^请求参数错误：\p{Script=Han}/u);
  expect(reply.body.data, what).toBeNull();
}

/** The calls whose path names an integer parameter, with those parameters' names. */
const integerPathCalls = (Object.values(implementedCalls) as CallSpec[]).flatMap((call) => {
  const properties = (call.params as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {};
  const names = Object.entries(properties).filter(([, s]) => s.type === 'integer').map(([n]) => n);
  return names.length ? [{ call, names }] : [];
});

describe.each(databases)('input bounds on %s', (database) => {
  const server = useServer(database);

  it('refuses an id past the database integer in every path that takes one', async () => {
    const admin = await adminClient(server);
    expect(integerPathCalls.length).toBeGreaterThan(30);
    for (const { call, names } of integerPathCalls) {
      for (const huge of HUGE) {
        let url = call.path;
        for (const name of names) url = url.replace(`{${name}}`, huge);
        // Whatever else the call wants (a body, a query) is not given: the path is checked first or
        // together, and the answer is the caller's 400 either way, never a 500.
        const reply = await admin.request({ method: call.method, url, body: call.body ? {} : undefined });
        expect(reply.status, `${call.method} ${url}: ${reply.body?.message}`).toBe(400);
        expect(reply.body.message).toMatch(/^请求参数错误：/);
      }
    }
  });

  it('refuses huge ids in id lists, query strings and bodies', async () => {
    const { client: user } = await signIn(server, 'bounds-user', 'Bounds@123');
    for (const huge of HUGE) {
      expectRefused(await user.request({ method: 'GET', url: `/api/project-task-view/progress?projectIds=1,${huge}` }), `progress ${huge}`);
      expectRefused(await user.request({ method: 'DELETE', url: `/api/report?reportIds=${huge}` }), `report delete ${huge}`);
      expectRefused(await user.request({ method: 'DELETE', url: `/api/project-task-view/projects?projectIds=${huge}` }), `project delete ${huge}`);
      const number = Number(huge);
      expectRefused(await user.request({ method: 'POST', url: '/api/project/batch/check', body: { projectIds: [number] } }), `batch check ${huge}`);
      expectRefused(await user.request({ method: 'PATCH', url: '/api/project/batch/cron', body: { projectIds: [number], enableTiming: false } }), `batch cron ${huge}`);
      expectRefused(await user.request({ method: 'POST', url: '/api/project-task-view/list', body: { subjectIds: [number] } }), `task list subjects ${huge}`);
      expectRefused(await user.request({ method: 'POST', url: '/api/project-task-view/list', body: { versionIds: [number] } }), `task list versions ${huge}`);
      expectRefused(await user.request({ method: 'POST', url: '/api/analysis', body: { subjectId: number, projectName: 'x', getCodeType: 0 } }), `launch ${huge}`);
      expectRefused(await user.request({ method: 'POST', url: '/api/subject/list', body: { groupIds: [number] } }), `subject list ${huge}`);
    }
    // The biggest id the database holds is an ordinary id: not there, not a refusal of the input.
    const last = await user.request({ method: 'GET', url: '/api/project-task-view/progress?projectIds=2147483647' });
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
  });

  it('refuses paging numbers beyond the safe range, negative and absurd page sizes, and caps the page size', async () => {
    const { client: user } = await signIn(server, 'paging-user', 'Paging@123');
    const list = (query: string) => user.request({ method: 'POST', url: `/api/project-task-view/list?${query}`, body: {} });
    for (const query of ['page=1e300', 'page=9007199254740993', 'page=99999999999', 'page=-1', 'page=0', 'size=-5', 'size=0', 'size=100000', 'size=501', 'size=1e300', 'page=abc']) {
      expectRefused(await list(query), query);
    }
    expect((await list('page=1000001')).status).toBe(400);
    const biggest = await list('page=1000000&size=500');
    expect(biggest.status).toBe(200);
    expect(biggest.body.data).toEqual({ content: [], total: 0 });
    // Another area's list, with the same paging.
    expectRefused(await user.request({ method: 'POST', url: '/api/subject/list?page=1e300&size=10', body: {} }), 'subject list page');
    expectRefused(await user.request({ method: 'POST', url: '/api/subject/list?page=1&size=100000', body: {} }), 'subject list size');
  });

  it('refuses a negative or absurd upload size, and keeps sizes past the database integer for real files', async () => {
    const { client: user } = await signIn(server, 'upload-bounds', 'Upload@123');
    for (const size of [-1, 0, 1e300, 2 ** 60]) {
      expectRefused(await user.request({ method: 'POST', url: '/api/upload', body: { fileName: 'a.zip', size } }), `upload size ${size}`);
    }
    // 3 GiB is a file, not an attack: past the integer column, within the platform's upload limit.
    const big = await user.request({ method: 'POST', url: '/api/upload', body: { fileName: 'big.zip', size: 3 * 1024 ** 3 } });
    expect(big.status, big.body.message).toBe(200);
    expect(big.body.code).toBe(1);
    const offset = await user.request({ method: 'PUT', url: `/api/upload/${big.body.data.uploadId}?offset=1e300`, headers: { 'content-type': 'application/octet-stream' } });
    expect(offset.status).toBe(400);
  });
});
