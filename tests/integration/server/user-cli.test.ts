// `cairn user unlock` and `cairn user reset-password` as an operator runs them (a real process each
// time) against the database of a platform that is running: on SQLite its data folder
// (--data-dir), on PostgreSQL DATABASE_URL. The locked-out administrator gets back in without any
// other administrator. The desktop's embedded platform found under CAIRN_HOME, through
// `npm run -s cli`: tests/integration/main/user-unlock.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, databases, signIn, useServer, type TestServer } from './harness.ts';

const NODE = path.resolve('node_modules/.bin/node');

/** The environment of an operator's shell, without the variables that choose a database. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'CAIRN_DATA_DIR', 'CAIRN_HOME']) delete env[name];
  return { ...env, ...extra };
}

function cairn(args: string[], env: NodeJS.ProcessEnv, input?: string) {
  const result = spawnSync(NODE, ['cli/cairn.ts', ...args], { encoding: 'utf8', env, input, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const lockByWrongPasswords = async (server: TestServer, username: string, password: string) => {
  const client = server.client();
  for (let i = 0; i < 5; i++) await client.login(username, `Wrong#pass${i}`);
  expect((await client.login(username, password)).body.message).toBe('账号已锁定，请 15 分钟后再试');
};

describe.each(databases)('cairn user on $name', (database) => {
  const server = useServer(database);
  /** Where the command finds this server's database, as an operator would point it there. */
  const target = (): { args: string[]; env: NodeJS.ProcessEnv } =>
    server.database.kind === 'sqlite'
      ? { args: ['--data-dir', path.dirname(server.database.file)], env: cleanEnv() }
      : { args: [], env: cleanEnv({ DATABASE_URL: server.database.url }) };
  const run = (args: string[], input?: string) => {
    const where = target();
    return cairn(['user', ...args, ...where.args], where.env, input);
  };
  const cliAudit = async (action: string) =>
    server.app.cairn.db.selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', action).orderBy('id').execute();

  it('unlock restores access to an administrator locked by wrong passwords', async () => {
    await lockByWrongPasswords(server, 'admin', ADMIN_PASSWORD);
    const result = run(['unlock', 'admin']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^已解锁用户 admin（原为登录失败自动锁定）。数据库：/);
    expect(result.stdout).toBe('');
    const reply = await server.client().login('admin', ADMIN_PASSWORD);
    expect(reply.body.code).toBe(1);
    // The throttle of a running platform learns from it that what it counted before is forgiven.
    expect((await server.app.cairn.db.selectFrom('users').select('restored_at').where('username', '=', 'admin').executeTakeFirstOrThrow()).restored_at).not.toBeNull();
    const rows = await cliAudit('user.unlocked.cli');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBeNull();
    expect(JSON.parse(rows[0]!.detail)).toMatchObject({ users: [{ username: 'admin', lockedByAdmin: false }] });
  }, 60_000);

  it('unlock lifts an administrator’s lock too, and says when there was none', async () => {
    const { id } = await signIn(server, 'quinn', 'Quinn@12345');
    await server.app.cairn.db.updateTable('users').set({ is_lock: 'Y' }).where('id', '=', id).execute();
    expect((await server.client().login('quinn', 'Quinn@12345')).body.message).toBe('账号已锁定，请联系管理员');
    const first = run(['unlock', 'quinn']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/已解锁用户 quinn（原为管理员锁定）/);
    expect((await server.client().login('quinn', 'Quinn@12345')).body.code).toBe(1);
    const again = run(['unlock', 'quinn']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/用户 quinn 未被锁定/);
  }, 60_000);

  it('reset-password prints a strong temporary password that must be changed at the next login', async () => {
    const { client: old } = await signIn(server, 'rita', 'Rita@12345');
    await lockByWrongPasswords(server, 'rita', 'Rita@12345');
    const result = run(['reset-password', 'rita']);
    expect(result.code, result.stderr).toBe(0);
    const password = result.stdout.trim();
    expect(result.stdout).toBe(`${password}\n`);
    expect(password).toMatch(/^\S{16}$/);
    expect(result.stderr).toMatch(/已为用户 rita 设置临时密码（见上），下次登录时须修改密码/);

    // The old password is gone with the sessions it opened; the lock went with the reset.
    expect((await old.request({ method: 'GET', url: '/api/user/self' })).status).toBe(401);
    expect((await server.client().login('rita', 'Rita@12345')).body.message).toBe('用户名或密码错误');
    const client = server.client();
    const reply = await client.login('rita', password);
    expect(reply.body).toMatchObject({ code: 1, data: { username: 'rita', updatedPwd: false } });
    const blocked = await client.request({ method: 'GET', url: '/api/system/access/allUser/list' });
    expect(blocked.body.message).toBe('请先修改初始密码');
    const changed = await client.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: password, password: 'Rita#Fresh2026' } });
    expect(changed.body.code).toBe(1);
    expect((await server.client().login('rita', 'Rita#Fresh2026')).body.data.updatedPwd).toBe(true);
    expect((await server.app.cairn.db.selectFrom('users').select('restored_at').where('username', '=', 'rita').executeTakeFirstOrThrow()).restored_at).not.toBeNull();
    const [audit] = await cliAudit('user.password.reset.cli');
    expect(audit!.user_id).toBeNull();
    expect(JSON.parse(audit!.detail)).toMatchObject({ generated: true, sessionsEnded: 1 });
  }, 60_000);

  it('reset-password --password-stdin takes the password given, if the policy allows it', async () => {
    await server.addUser('sami', 'Sami@12345');
    const weak = run(['reset-password', 'sami', '--password-stdin'], 'short\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/密码/);
    expect((await server.client().login('sami', 'Sami@12345')).body.code).toBe(1);

    const chosen = run(['reset-password', 'sami', '--password-stdin'], 'Chosen#Pass2026\n');
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).toBe('');
    expect((await server.client().login('sami', 'Chosen#Pass2026')).body).toMatchObject({ code: 1, data: { updatedPwd: false } });
  }, 60_000);

  it('refuses an unknown user, changing nothing', async () => {
    const before = (await cliAudit('user.unlocked.cli')).length;
    for (const sub of ['unlock', 'reset-password']) {
      const result = run([sub, 'nobody-such']);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe('用户不存在：nobody-such');
    }
    expect(await cliAudit('user.unlocked.cli')).toHaveLength(before);
  }, 60_000);
});

describe('cairn user without a platform to act on', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'cairn-user-cli-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('refuses a folder with no platform database and creates none; usage mistakes exit 2', () => {
    const empty = path.join(work, 'empty');
    const missing = cairn(['user', 'unlock', 'admin', '--data-dir', empty], cleanEnv());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`未找到平台数据库：${path.join(empty, 'cairn.db')}`);
    expect(existsSync(empty)).toBe(false);
    expect(cairn(['user', 'unlock', '--data-dir', empty], cleanEnv()).code).toBe(2);
    expect(cairn(['user', 'lock', 'admin'], cleanEnv()).stderr).toContain('未知的 user 子命令：lock');
    expect(cairn(['user', 'unlock', 'admin', '--password-stdin'], cleanEnv()).code).toBe(2);
    const help = cairn(['user', '--help'], cleanEnv());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('cairn user reset-password <用户名>');
  }, 60_000);
});
