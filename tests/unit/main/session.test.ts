import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../main/services/app-services.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { createVault } from '../../../main/services/vault.ts';
import { fakePlatform, json, memoryKeyring, tinyServer } from './fakes.ts';

type Server = Awaited<ReturnType<typeof tinyServer>>;

const user = { userId: 1, username: 'admin', name: '管理员', roleName: '系统管理员', roleCodes: [1], permissionPOS: [], dataPermissionEnum: 'ALL', updatedPwd: true, userType: 1, email: null, phone: null, passwordPolicy: { length: 8, uppercase: false, lowercase: true, digit: true, special: false } };

describe('session', () => {
  let server: Server;
  let keyring: ReturnType<typeof memoryKeyring>;
  let services: AppServices;
  let events: Array<[string, unknown]>;

  beforeEach(async () => {
    server = await tinyServer((req, res) => {
      if (req.url === '/api/csrf') return json(res, 200, { code: 1, message: 'ok', data: { token: 'T', header: 'x-csrf-token' } });
      if (req.url === '/api/login') {
        const body = JSON.parse(req.body) as { password: string };
        return body.password === 'Cairn@123'
          ? json(res, 200, { code: 1, message: '登录成功', data: user }, { 'Set-Cookie': 'cairn_session=S; Path=/; HttpOnly' })
          : json(res, 200, { code: 0, message: '用户名或密码错误', data: null });
      }
      if (req.url === '/api/logout') return json(res, 200, { code: 1, message: '已退出登录', data: null });
      json(res, 404, {});
    });
    keyring = memoryKeyring();
    services = createAppServices({ shell: 'web', version: '0.1.0', dataDir: '/tmp/x', store: createMemoryStore(), vault: createVault({ backend: keyring }), platform: fakePlatform(server.url) });
    events = [];
    services.onEvent((channel, payload) => events.push([channel, payload]));
  });
  afterEach(() => server.close());

  it('logs in to the active profile and remembers the password in the keychain', async () => {
    const result = await services.session.login({ username: 'admin', password: 'Cairn@123', remember: true });
    expect(result).toEqual({ code: 1, message: '登录成功', data: user, vaultWarning: null });
    expect([...keyring.entries]).toEqual([['Cairn/local:admin', 'Cairn@123']]);
    expect(services.profiles.active()).toMatchObject({ username: 'admin', rememberPassword: true });
    expect(await services.session.saved()).toEqual({ username: 'admin', hasPassword: true });
    expect(server.requests.find((r) => r.url === '/api/login')?.headers['x-csrf-token']).toBe('T');
    expect(events.some(([c]) => c === 'profiles:changed')).toBe(true);
  });

  it('logs in with the saved password, and forgets it', async () => {
    await services.session.login({ username: 'admin', password: 'Cairn@123', remember: true });
    expect((await services.session.login({ username: 'admin', remember: true })).code).toBe(1);
    await services.session.forget();
    expect(keyring.entries.size).toBe(0);
    expect(await services.session.saved()).toEqual({ username: 'admin', hasPassword: false });
    expect(await services.session.login({ username: 'admin', remember: true })).toMatchObject({ code: 0, message: '没有为该账号记住密码，请输入密码' });
  });

  it('still logs in when the keychain is unavailable, with a vault warning and nothing stored', async () => {
    keyring.available = false;
    const result = await services.session.login({ username: 'admin', password: 'Cairn@123', remember: true });
    expect(result.code).toBe(1);
    expect(result.vaultWarning).toContain('系统钥匙串不可用，无法记住密码（未在明文中保存）');
    expect(services.profiles.active().rememberPassword).toBe(false);
    expect(keyring.entries.size).toBe(0);
  });

  it('passes a wrong password through without touching the keychain or emitting expiry', async () => {
    const result = await services.session.login({ username: 'admin', password: 'nope', remember: true });
    expect(result).toEqual({ code: 0, message: '用户名或密码错误', data: null, vaultWarning: null });
    expect(keyring.entries.size).toBe(0);
    expect(events.filter(([c]) => c === 'session:expired')).toEqual([]);
  });

  it('unticking "remember" deletes a password remembered before', async () => {
    await services.session.login({ username: 'admin', password: 'Cairn@123', remember: true });
    await services.session.login({ username: 'admin', password: 'Cairn@123', remember: false });
    expect(keyring.entries.size).toBe(0);
    expect(services.profiles.active().rememberPassword).toBe(false);
  });

  it('logs out (POST /api/logout) and drops the cookies', async () => {
    await services.session.login({ username: 'admin', password: 'Cairn@123', remember: false });
    const { client } = services.clients.active();
    expect(await client.jar.getCookieString(server.url)).toContain('cairn_session=S');
    await services.session.logout();
    expect(server.requests.at(-1)?.url).toBe('/api/logout');
    expect(await client.jar.getCookieString(server.url)).toBe('');
  });

  it('removing a profile forgets its remembered password', async () => {
    const remote = services.profiles.add({ name: '团队', url: server.url });
    services.profiles.activate(remote.id);
    await services.session.login({ username: 'bob', password: 'Cairn@123', remember: true });
    expect(keyring.entries.has(`Cairn/${remote.id}:bob`)).toBe(true);
    await services.removeProfile(remote.id);
    expect(keyring.entries.size).toBe(0);
    expect(services.profiles.active().id).toBe('local');
  });
});
