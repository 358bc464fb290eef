// The web host as users start it (node main/web-host/cli.ts), with the REAL embedded platform:
// what it prints, the launch token (good once), the bridge end to end (login, api:call), only staged
// paths accepted, clean exit on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult, PlatformStatus } from '../../../contract/ipc/desktop-contract.ts';
import { ADMIN_PASSWORD, hasServer, isAlive, repoRoot, tempDir, waitFor } from './helpers.ts';

describe.skipIf(!hasServer)('web host (cli) with the real platform', () => {
  const home = tempDir('cairn-home-');
  let child: ChildProcess;
  const stdout: string[] = [];
  let stderr = '';
  let launchUrl: string;
  let origin: string;
  let cookie: string;

  const invoke = async <T>(channel: string, payload: unknown): Promise<IpcResult<T>> => {
    const res = await fetch(`${origin}/__desktop/invoke/${channel}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: origin }, body: JSON.stringify(payload) });
    return (await res.json()) as IpcResult<T>;
  };

  beforeAll(async () => {
    child = spawn(process.execPath, [path.join(repoRoot, 'main', 'web-host', 'cli.ts'), '--port', '0'], {
      cwd: repoRoot,
      env: { ...process.env, CAIRN_HOME: home, CAIRN_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const lines = createInterface({ input: child.stdout! });
    launchUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`web host did not start:\n${stderr}`)), 30_000);
      lines.on('line', (line) => {
        stdout.push(line);
        if (line.startsWith('{')) {
          clearTimeout(timer);
          resolve((JSON.parse(line) as { url: string }).url);
        }
      });
      child.once('exit', (code) => reject(new Error(`web host exited (${code}):\n${stderr}`)));
    });
    origin = new URL(launchUrl).origin;
  });

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  });

  it('prints the Chinese launch line and a JSON line with the same URL', () => {
    expect(launchUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?launch=[\w-]{20,}$/);
    expect(stdout).toEqual([`Cairn 网页模式已启动：${launchUrl}`, JSON.stringify({ event: 'web-host', url: launchUrl })]);
  });

  it('requires the launch token', async () => {
    const denied = await fetch(`${origin}/__desktop/invoke/app:info`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(denied.status).toBe(403);
    const wrong = await fetch(`${origin}/?launch=nope`, { redirect: 'manual' });
    expect(wrong.status).toBe(403);
    const ok = await fetch(launchUrl, { redirect: 'manual' });
    expect(ok.status).toBe(302);
    cookie = ok.headers.get('set-cookie')!.split(';')[0]!;
  });

  it('the launch URL works once: a second browser is refused, the first keeps its bridge', async () => {
    const second = await fetch(launchUrl, { redirect: 'manual' });
    expect(second.status).toBe(403);
    expect(second.headers.get('set-cookie')).toBeNull();
    expect(await second.text()).toContain('启动链接已被使用');
    expect(stderr).toContain('启动链接已被使用过');
    // A reload of the first browser gets the app (503 "not built" where dist/renderer is missing), not the launch page.
    const reload = await fetch(`${origin}/`, { headers: { Cookie: cookie }, redirect: 'manual' });
    expect([200, 503]).toContain(reload.status);
    expect(await reload.text()).not.toContain('请使用启动链接打开 Cairn');
    expect(await invoke('app:info', {})).toMatchObject({ ok: true });
  });

  it('refuses paths that were not staged by the page (uploads:start, review:open)', async () => {
    for (const channel of ['uploads:start', 'review:open']) {
      expect(await invoke(channel, { path: path.join(home, 'profiles.json') }), channel).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
    }
  });

  it('answers app:info and profiles:list over the bridge, with CAIRN_HOME as data dir', async () => {
    expect(await invoke('app:info', {})).toMatchObject({ ok: true, value: { shell: 'web', dataDir: home } });
    expect(await invoke('profiles:list', {})).toMatchObject({ ok: true, value: { activeId: 'local', profiles: [{ id: 'local', name: '本机' }] } });
  });

  it('starts the embedded platform and signs in through the bridge', async () => {
    const running = await waitFor(() => invoke<PlatformStatus>('platform:status', {}), (r) => r.ok && r.value.state === 'running', 30_000);
    expect(running.ok && running.value.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const login = await invoke<{ code: number; message: string }>('session:login', { username: 'admin', password: ADMIN_PASSWORD, remember: false });
    expect(login).toMatchObject({ ok: true, value: { code: 1 } });
    expect(await invoke('api:call', { method: 'GET', path: '/api/user/self' })).toMatchObject({ ok: true, value: { code: 1, data: { username: 'admin' } } });
    expect(existsSync(path.join(home, 'profiles.json'))).toBe(true);
    expect(existsSync(path.join(home, 'platform'))).toBe(true);
  });

  it("keeps the platform's output in the log file and the terminal to what a person reads", async () => {
    const logPath = path.join(home, 'logs', 'web-host.log');
    expect(stderr).toContain(`日志文件：${logPath}`);
    expect(stderr).toContain('[本机平台] 本机平台运行中');
    // The platform's JSON lines (its listening event, its request log) are not on the terminal.
    expect(stderr.split('\n').filter((line) => line.includes('{"'))).toEqual([]);
    const log = await waitFor(async () => readFileSync(logPath, 'utf8'), (text) => text.includes('"event":"listening"'), 10_000);
    expect(log).toContain('[本机平台] 本机平台运行中');
    expect(statSync(logPath).mode & 0o777).toBe(0o600);
  });

  it('stops the platform and exits on SIGTERM', async () => {
    const status = await invoke<PlatformStatus>('platform:status', {});
    const platformPid = status.ok ? status.value.pid : null;
    expect(isAlive(platformPid)).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited, stderr).toBe(0);
    expect(isAlive(platformPid)).toBe(false);
    expect(stderr).toContain('正在停止本机平台');
  });
});
