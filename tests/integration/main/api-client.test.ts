// The API client and session service against the REAL platform (server/server.ts): CSRF, login,
// the session cookie, code 3 on an ended session, and the login failure message.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../main/services/api-client.ts';
import { createAppServices, type AppServices } from '../../../main/services/app-services.ts';
import { createLocalPlatform, type LocalPlatform } from '../../../main/services/local-platform.ts';
import { createNodeSpawner } from '../../../main/services/node-spawner.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { createVault } from '../../../main/services/vault.ts';
import { memoryKeyring } from '../../unit/main/fakes.ts';
import { ADMIN_PASSWORD, hasServer, repoRoot, serverEntry, tempDir } from './helpers.ts';

describe.skipIf(!hasServer)('api client and session against the real platform', () => {
  const dataDir = tempDir('cairn-api-');
  let platform: LocalPlatform;
  let services: AppServices;
  const events: Array<[string, unknown]> = [];
  const keyring = memoryKeyring();

  beforeAll(async () => {
    platform = createLocalPlatform({ spawner: createNodeSpawner({ entry: serverEntry, cwd: repoRoot }), dataDir, env: { CAIRN_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn' } });
    const status = await platform.start();
    if (status.state !== 'running') throw new Error(status.message);
    services = createAppServices({ shell: 'web', version: 'test', dataDir, store: createMemoryStore(), vault: createVault({ backend: keyring }), platform });
    services.onEvent((channel, payload) => events.push([channel, payload]));
  });
  afterAll(async () => {
    await platform?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST', path: string, body?: unknown) => services.clients.active().client.call({ method, path, body });

  it('answers code 3 before login and emits session:expired', async () => {
    const env = await call('GET', '/api/user/self');
    expect(env.code).toBe(3);
    expect(env.message).toBeTruthy();
    expect(events.filter(([c]) => c === 'session:expired')).toHaveLength(1);
  });

  it('passes 用户名或密码错误 through on a wrong password, without expiring', async () => {
    events.length = 0;
    const result = await services.session.login({ username: 'admin', password: 'wrong-password', remember: true });
    expect(result).toMatchObject({ message: '用户名或密码错误', data: null, vaultWarning: null });
    expect(result.code).not.toBe(1);
    expect(events.filter(([c]) => c === 'session:expired')).toEqual([]);
    expect(keyring.entries.size).toBe(0);
  });

  it('logs in (CSRF token, session cookie), remembers the password, and calls with the session', async () => {
    const result = await services.session.login({ username: 'admin', password: ADMIN_PASSWORD, remember: true });
    expect(result, result.message).toMatchObject({ code: 1, vaultWarning: null, data: { username: 'admin' } });
    expect(keyring.entries.get('Cairn/local:admin')).toBe(ADMIN_PASSWORD);
    const self = await call('GET', '/api/user/self');
    expect(self).toMatchObject({ code: 1, data: { username: 'admin' } });
    const { client } = services.clients.active();
    const url = platform.url()!;
    expect(await client.jar.getCookieString(url)).toMatch(/cairn_session=/);
  });

  it('logs in again with the remembered password', async () => {
    expect(await services.session.login({ username: 'admin', remember: true })).toMatchObject({ code: 1 });
  });

  it('the platform rejects a POST without the CSRF header; our client always sends it', async () => {
    const raw = createApiClient({ baseUrl: () => platform.url() });
    // Our client sends the header: logout (state-changing, login-exempt) succeeds.
    expect((await raw.call({ method: 'POST', path: '/api/logout' })).code).toBe(1);
    // Without it the platform says 403 CSRF.
    const res = await fetch(`${platform.url()}/api/logout`, { method: 'POST' });
    expect(res.status).toBe(403);
  });

  it('logs out; the next call answers code 3 and emits session:expired', async () => {
    events.length = 0;
    await services.session.logout();
    const self = await call('GET', '/api/user/self');
    expect(self.code).toBe(3);
    expect(events.filter(([c]) => c === 'session:expired')).toHaveLength(1);
  });

  it('an unknown path (HTTP 404) shows the platform message: 请求地址出错 and the path', async () => {
    const env = await call('GET', '/api/definitely/not/here');
    expect(env).toMatchObject({ code: 0, data: null });
    expect(env.message).toMatch(/^请求地址出错.*\/api\/definitely\/not\/here/);
  });
});
