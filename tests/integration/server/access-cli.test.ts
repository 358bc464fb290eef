// `cairn access list|disable` as an operator runs them (a real process each time) against the
// database of a running platform (SQLite: --data-dir; PostgreSQL: DATABASE_URL): an administrator
// the IP rules shut out gets back in without any other administrator, the change audited.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalidateAccessRules } from '../../../server/auth/access-rules.ts';
import { adminClient, databases, useServer, type TestClient } from './harness.ts';

const NODE = path.resolve('node_modules/.bin/node');

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'CAIRN_DATA_DIR', 'CAIRN_HOME']) delete env[name];
  return { ...env, ...extra };
}

describe.each(databases)('cairn access on $name', (database) => {
  const server = useServer(database);
  let admin: TestClient;
  const run = (args: string[]) => {
    const where = server.database.kind === 'sqlite'
      ? { args: ['--data-dir', path.dirname(server.database.file)], env: cleanEnv() }
      : { args: [], env: cleanEnv({ DATABASE_URL: server.database.url }) };
    const result = spawnSync(NODE, ['cli/cairn.ts', 'access', ...args, ...where.args], { encoding: 'utf8', env: where.env, timeout: 60_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  beforeAll(async () => {
    admin = await adminClient(server);
    const add = (body: object) => admin.request({ method: 'POST', url: '/api/system/access/add', body: { scope: 'ALL', ...body } });
    expect((await add({ address: '127.0.0.1', action: 'ALLOW', remark: '本机' })).body.code).toBe(1);
    expect((await add({ address: '10.0.0.0/8', action: 'DENY' })).body.code).toBe(1);
  });

  it('lists the rules', () => {
    const listed = run(['list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split('\n').filter(Boolean).map((line) => line.split('\t').slice(1))).toEqual([
      ['127.0.0.1', '允许', '全部用户', '已启用', '本机'],
      ['10.0.0.0/8', '拒绝', '全部用户', '已启用', ''],
    ]);
  });

  it('refuses bad usage and unknown rules, changing nothing', () => {
    expect(run(['disable']).code).toBe(2);
    expect(run(['disable', 'abc']).code).toBe(2);
    expect(run(['disable', '1', '--all']).code).toBe(2);
    expect(run(['frobnicate']).code).toBe(2);
    const unknown = run(['disable', '99999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('IP 访问规则不存在（ID：99999）');
  });

  it('disable --all lets an administrator who moved to another address back in, audited', async () => {
    // The administrator now calls from an address the rules refuse: locked out.
    const moved = server.client();
    await moved.fetchCsrf();
    const refused = await moved.request({ method: 'POST', url: '/api/login', body: { username: 'admin', password: 'Cairn@456x' }, remoteAddress: '192.0.2.50' });
    expect(refused.body.message).toBe('当前地址 192.0.2.50 不允许访问平台，请联系管理员');

    const result = run(['disable', '--all']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^已停用 2 条规则：\d+ 127\.0\.0\.1（允许）、\d+ 10\.0\.0\.0\/8（拒绝）/);
    // A running platform sees it once its few seconds of cache are over (here: dropped at once).
    invalidateAccessRules(server.app.cairn.db);
    const back = await moved.request({ method: 'POST', url: '/api/login', body: { username: 'admin', password: 'Cairn@456x' }, remoteAddress: '192.0.2.50' });
    expect(back.body.code).toBe(1);
    const rows = await server.app.cairn.db.selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', 'accessRule.disabled.cli').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBeNull();
    expect(JSON.parse(rows[0]!.detail).rules.map((r: { address: string }) => r.address)).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(run(['disable', '--all']).stderr).toMatch(/^没有需要停用的规则/);
    expect(run(['list']).stdout).not.toContain('已启用');
  });
});
