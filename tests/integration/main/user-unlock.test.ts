// Issue 13's recovery path, as the desktop's user meets it: the embedded platform (the real
// server/server.ts, started by the supervisor with its data under `<app data>/platform`, the
// production login throttle and all) has its administrator locked out by wrong passwords, typed
// until even the throttle holds back the right one; `npm run -s cli -- user unlock admin`, with
// no administrator and no running platform needed, finds that database from CAIRN_HOME and lets the
// right password in at once — the platform left running throughout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalPlatform, type LocalPlatform } from '../../../main/services/local-platform.ts';
import { createNodeSpawner } from '../../../main/services/node-spawner.ts';
import { ADMIN_PASSWORD, hasServer, repoRoot, serverEntry, tempDir } from './helpers.ts';

interface Answer { status: number; code: number; message: string }

/** A browser's login: a CSRF token and its cookie first, then the password. */
async function login(url: string, username: string, password: string): Promise<Answer> {
  const csrf = await fetch(`${url}/api/csrf`, { method: 'POST' });
  const cookie = csrf.headers.getSetCookie().map((line) => line.split(';')[0]!).join('; ');
  const token = ((await csrf.json()) as { data: { token: string } }).data.token;
  const reply = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': token },
    body: JSON.stringify({ username, password }),
  });
  const body = (await reply.json()) as { code: number; message: string };
  return { status: reply.status, code: body.code, message: body.message };
}

describe.skipIf(!hasServer)('cairn user unlock on the desktop’s embedded platform', () => {
  const home = tempDir('cairn-home-');
  let platform: LocalPlatform | undefined;

  afterAll(async () => {
    await platform?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('npm run -s cli -- user unlock admin restores access to a locked embedded platform', async () => {
    const logs: string[] = [];
    platform = createLocalPlatform({
      spawner: createNodeSpawner({ entry: serverEntry, cwd: repoRoot }),
      // Where the desktop and the web host keep it (main/index.ts, main/web-host/cli.ts).
      dataDir: path.join(home, 'platform'),
      env: { CAIRN_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn' },
      log: (line) => logs.push(line),
    });
    const status = await platform.start();
    expect(status.state, logs.join('\n')).toBe('running');
    const url = status.url!;

    // Five wrong passwords lock the account: every answer is the same, the right password hears of the lock.
    for (let i = 0; i < 5; i++) expect(await login(url, 'admin', `Wrong#pass${i}`)).toEqual({ status: 200, code: 0, message: '用户名或密码错误' });
    expect(await login(url, 'admin', ADMIN_PASSWORD)).toEqual({ status: 200, code: 0, message: '账号已锁定，请 15 分钟后再试' });
    // Still trying: ten refusals use up the username's allowance (the default 10 in 5 minutes).
    for (let i = 0; i < 4; i++) await login(url, 'admin', `Wrong#again${i}`);
    expect(await login(url, 'admin', ADMIN_PASSWORD)).toEqual({ status: 429, code: 0, message: '登录尝试过于频繁，请 5 分钟后再试' });

    // The operator's command, as the issue gives it, with only CAIRN_HOME to find the platform.
    const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home };
    for (const name of ['DATABASE_URL', 'CAIRN_DATA_DIR']) delete env[name];
    const result = spawnSync('npm', ['run', '-s', 'cli', '--', 'user', 'unlock', 'admin'], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(`已解锁用户 admin（原为登录失败自动锁定）。数据库：${path.join(home, 'platform', 'cairn.db')}`);

    // The running platform lets the right password in at once: the lock and the throttle's count are gone.
    expect(await login(url, 'admin', ADMIN_PASSWORD)).toEqual({ status: 200, code: 1, message: expect.any(String) });
    expect(platform.status()).toMatchObject({ state: 'running', restarts: 0 });
  }, 120_000);
});
