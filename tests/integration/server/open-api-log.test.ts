// 开放接口日志 over HTTP (GET /api/open/log/list): every call of a token-opened session is logged
// with its caller, token, call, HTTP status, envelope code, time, duration and address, and none of
// a password session; the filters, paging and their refusals; the permission; the token's last use
// following its calls; the log outliving a deleted token; pruning by age and count.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { putSetting } from '../../../server/db/repositories/settings.ts';
import { OpenApiLogRecorder, OPEN_API_LOG_RETENTION_KEY } from '../../../server/services/open-api-log.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

interface Row { id: number; username: string; tokenId: number; tokenName: string; method: string; path: string; callName: string | null; callSummary: string | null; status: number; resultCode: number | null; outcome: string; durationMs: number; ip: string; at: string }

describe.each(databases)('开放接口日志 on $name', (database) => {
  let admin: TestClient;
  let ann: TestClient;
  let annId: number;
  let robot: TestClient;
  let tokenId: number;
  let key: string;

  const server = useServer(database);
  const db = () => server.app.cairn.db;
  const log = async (query = '', client = admin) => client.request({ method: 'GET', url: `/api/open/log/list${query}` });
  const rows = async (query = '') => {
    const reply = await log(query);
    expect(reply.body.code, reply.body.message).toBe(1);
    return reply.body.data.content as Row[];
  };

  beforeAll(async () => {
    admin = await adminClient(server);
    ({ id: annId, client: ann } = await signIn(server, 'ann', 'Ann@123456'));
    const created = await ann.request({ method: 'POST', url: '/api/personalToken/addPersonalToken', body: { name: '构建机' } });
    tokenId = created.body.data.id;
    key = created.body.data.token;
    robot = server.client();
    const login = await robot.request({ method: 'POST', url: `/api/token/login?key=${encodeURIComponent(created.body.data.token)}`, remoteAddress: '10.1.2.3' });
    expect(login.body.code).toBe(1);
  });

  it('records each call of a token session with its status, and none of a password session', async () => {
    const from = '10.1.2.3';
    expect((await robot.request({ method: 'GET', url: '/api/user/self?x=secret', remoteAddress: from })).status).toBe(200);
    expect((await robot.request({ method: 'GET', url: '/api/subjectType/querySubjectTypeNameList', remoteAddress: from })).status).toBe(200);
    // Refused for want of the permission (403), malformed (400), refused by the service (200, code 0).
    expect((await robot.request({ method: 'GET', url: '/api/open/log/list', remoteAddress: from })).status).toBe(403);
    expect((await robot.request({ method: 'GET', url: '/api/personalToken/queryPersonalTokenList?size=9999', remoteAddress: from })).status).toBe(400);
    // Calls exempt from login (the CSRF token here) are not the session's: not logged.
    await robot.fetchCsrf();
    const refused = await robot.request({ method: 'PATCH', url: '/api/personalToken/updatePersonalToken', body: { id: 999_999, name: 'x' }, remoteAddress: from });
    expect(refused.status).toBe(403);
    const notFound = await robot.request({ method: 'PATCH', url: '/api/user/modifyPersonalInformation', body: { name: 'bad name' }, remoteAddress: from });
    expect(notFound.body.code).toBe(0);
    // Ann's own password session is not the open API.
    await ann.request({ method: 'GET', url: '/api/user/self' });

    const logged = await rows();
    expect(logged.map((r) => [r.method, r.path, r.callName, r.status, r.resultCode, r.outcome])).toEqual([
      ['PATCH', '/api/user/modifyPersonalInformation', 'session.modifyPersonalInformation', 200, 0, 'failure'],
      ['PATCH', '/api/personalToken/updatePersonalToken', 'token.update', 403, 0, 'failure'],
      ['GET', '/api/personalToken/queryPersonalTokenList', 'token.list', 400, null, 'failure'],
      ['GET', '/api/open/log/list', 'openApiLog.list', 403, null, 'failure'],
      ['GET', '/api/subjectType/querySubjectTypeNameList', 'projectType.names', 200, 1, 'success'],
      ['GET', '/api/user/self', 'session.self', 200, 1, 'success'],
      // The token login itself opens the log, without its key.
      ['POST', '/api/token/login', 'session.tokenLogin', 200, 1, 'success'],
    ]);
    for (const row of logged) {
      expect(row).toMatchObject({ username: 'ann', tokenId, tokenName: '构建机', ip: from });
      expect(row.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(row.at)).not.toBeNaN();
    }
    expect(logged.at(-2)!.callSummary).toBe('当前登录用户');
    // The query string (which may carry secrets, the token login's key) is not kept.
    expect(JSON.stringify(logged)).not.toContain('secret');
    expect(JSON.stringify(logged)).not.toContain(key);

    // The token's last use follows its calls.
    const mine = (await ann.request({ method: 'GET', url: '/api/personalToken/queryPersonalTokenList' })).body.data.content[0];
    expect(mine).toMatchObject({ id: tokenId, lastUsedIp: from, lastUsedAt: logged[0]!.at });
  });

  it('filters by user, token, call, path, status, outcome and time, newest first and paged', async () => {
    const all = await rows();
    expect((await rows(`?userId=${annId}`)).length).toBe(all.length);
    expect((await rows('?userId=99999')).length).toBe(0);
    expect((await rows(`?tokenId=${tokenId}`)).length).toBe(all.length);
    expect((await rows('?username=AN')).length).toBe(all.length);
    expect((await rows('?username=bob')).length).toBe(0);
    expect((await rows(`?tokenName=${encodeURIComponent('构建')}`)).length).toBe(all.length);
    expect((await rows('?callName=session.self')).map((r) => r.path)).toEqual(['/api/user/self']);
    expect((await rows('?path=subjectType')).map((r) => r.callName)).toEqual(['projectType.names']);
    expect((await rows('?status=403')).map((r) => r.callName)).toEqual(['token.update', 'openApiLog.list']);
    expect((await rows('?outcome=success')).map((r) => r.callName)).toEqual(['projectType.names', 'session.self', 'session.tokenLogin']);
    expect((await rows('?outcome=failure')).length).toBe(4);
    // A typed % is a percent sign.
    expect((await rows('?path=%25')).length).toBe(0);

    const newest = all[0]!.at;
    expect((await rows(`?from=${encodeURIComponent(newest)}`)).map((r) => r.id)).toEqual(all.filter((r) => r.at >= newest).map((r) => r.id));
    expect((await rows(`?to=2000-01-01`)).length).toBe(0);
    expect((await rows(`?from=2000-01-01&to=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`)).length).toBe(all.length);

    const page = await log('?page=2&size=3');
    expect(page.body.data.total).toBe(all.length);
    expect(page.body.data.content.map((r: Row) => r.id)).toEqual(all.slice(3, 6).map((r) => r.id));
    expect(page.body.data.retention).toEqual({ days: 180, maxRows: 1_000_000 });
  });

  it('refuses bad filters with a Chinese message, and over-long ones with 400', async () => {
    expect((await log('?from=2030-01-01&to=2020-01-01')).body).toEqual({ code: 0, message: '开始时间不能晚于结束时间', data: null, field: 'from' });
    expect((await log('?from=yesterday')).body).toEqual({ code: 0, message: '时间格式不正确', data: null, field: 'from' });
    expect((await log('?to=2024-02-30T25:00:00Z')).body).toMatchObject({ code: 0, message: '时间格式不正确', field: 'to' });
    for (const query of ['?status=99', '?status=abc', '?outcome=maybe', `?username=${'x'.repeat(101)}`, '?tokenId=0', '?size=501', `?from=${'1'.repeat(41)}`]) {
      expect((await log(query)).status, query).toBe(400);
    }
  });

  it('needs a session and the log permission', async () => {
    const anonymous = await log('', server.client());
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('登录已失效，请重新登录');
    const ordinary = await log('', ann);
    expect(ordinary.status).toBe(403);
  });

  it('keeps a deleted token\'s calls, under the name it had', async () => {
    const before = (await rows(`?tokenId=${tokenId}`)).length;
    expect((await ann.request({ method: 'DELETE', url: `/api/personalToken/delete/${tokenId}` })).body.code).toBe(1);
    const after = await rows(`?tokenId=${tokenId}`);
    expect(after.length).toBe(before);
    expect(after[0]!.tokenName).toBe('构建机');
    // Its session ended with it: nothing more is logged.
    expect((await robot.request({ method: 'GET', url: '/api/user/self' })).status).toBe(401);
    expect((await rows(`?tokenId=${tokenId}`)).length).toBe(before);
  });

  it('writes a full batch at once, and keeps the calls of a failed write for the next', async () => {
    const warnings: string[] = [];
    const recorder = new OpenApiLogRecorder(db(), { warn: (_o, message) => warnings.push(message), info() {} }, { batchSize: 2 });
    const call = (path: string) => ({ at: new Date().toISOString(), userId: annId, tokenId, method: 'GET', path, callName: null, status: 200, resultCode: 1, durationMs: 3, ip: '10.9.9.9' });
    const written = async () => (await db().selectFrom('open_api_log').select('path').where('ip', '=', '10.9.9.9').orderBy('id').execute()).map((r) => r.path);

    await sql`alter table open_api_log rename to open_api_log_away`.execute(db());
    recorder.record(call('/a'));
    await recorder.flush();
    expect(warnings).toEqual(['writing the open-API log failed']);
    await sql`alter table open_api_log_away rename to open_api_log`.execute(db());
    expect(await written()).toEqual([]);
    // The second call fills the batch: it is written without waiting for the timer, with the first.
    recorder.record(call('/b'));
    await expect.poll(written).toEqual(['/a', '/b']);
    // A token deleted meanwhile is named by its id.
    const names = await db().selectFrom('open_api_log').select('token_name').where('ip', '=', '10.9.9.9').execute();
    expect(names.map((r) => r.token_name)).toEqual([`#${tokenId}`, `#${tokenId}`]);
  });

  it('prunes rows older than the retention\'s days and beyond its newest maxRows', async () => {
    const old = { user_id: annId, username: 'ann', token_id: tokenId, token_name: '构建机', method: 'GET', path: '/api/user/self', call_name: 'session.self', status: 200, result_code: 1, duration_ms: 1, ip: '10.0.0.1' };
    await db().insertInto('open_api_log').values([
      { ...old, at: new Date(Date.now() - 200 * 86_400_000).toISOString() },
      { ...old, at: new Date(Date.now() - 100 * 86_400_000).toISOString() },
    ]).execute();
    const total = async () => (await log()).body.data.total as number;
    const count = await total();
    const recorder = new OpenApiLogRecorder(db(), { warn() {}, info() {} });
    expect(await recorder.prune()).toBe(1);
    expect(await total()).toBe(count - 1);

    await putSetting(db(), OPEN_API_LOG_RETENTION_KEY, { days: 30, maxRows: 3 });
    expect((await log()).body.data.retention).toEqual({ days: 30, maxRows: 3 });
    await recorder.prune();
    const kept = await rows();
    expect(kept.length).toBe(3);
    expect(kept.every((r) => Date.parse(r.at) > Date.now() - 30 * 86_400_000)).toBe(true);
  });
});
