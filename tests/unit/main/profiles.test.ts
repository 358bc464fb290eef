import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LOCAL_PROFILE_ID, createProfiles, validateUrl } from '../../../main/services/profiles.ts';
import { createConfStore } from '../../../main/services/store.ts';
import { hasCommand } from '../../support/commands.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { describeNetworkError } from '../../../main/services/net-errors.ts';
import { DesktopError } from '../../../main/services/errors.ts';
import { json, tinyServer } from './fakes.ts';

const hasOpenssl = hasCommand('openssl', 'version');

const make = (over: Partial<Parameters<typeof createProfiles>[0]> = {}) => {
  let n = 0;
  return createProfiles({ store: createMemoryStore(), localUrl: () => null, newId: () => `p${++n}`, now: () => new Date('2025-01-02T03:04:05Z'), ...over });
};
const errorOf = (fn: () => unknown): DesktopError => {
  try {
    fn();
  } catch (err) {
    return err as DesktopError;
  }
  throw new Error('expected an error');
};

describe('profiles', () => {
  it('starts with the local platform 本机 as the only and active profile', () => {
    const profiles = make();
    const state = profiles.state();
    expect(state.activeId).toBe(LOCAL_PROFILE_ID);
    expect(state.profiles).toHaveLength(1);
    expect(state.profiles[0]).toMatchObject({ id: 'local', kind: 'local', name: '本机', url: '', rememberPassword: false });
    expect(profiles.active().id).toBe('local');
  });

  it('adds, edits, switches and removes remote profiles, emitting each change', () => {
    const profiles = make();
    const seen: string[][] = [];
    profiles.onChanged((s) => seen.push(s.profiles.map((p) => p.name)));
    const added = profiles.add({ name: ' 团队服务器 ', url: 'https://cairn.example.com/base/', username: 'alice' });
    expect(added).toMatchObject({ id: 'p1', kind: 'remote', name: '团队服务器', url: 'https://cairn.example.com/base', username: 'alice', allowSelfSigned: false });
    expect(profiles.state().profiles.map((p) => p.id)).toEqual(['local', 'p1']);

    const edited = profiles.update('p1', { name: '总部', allowSelfSigned: true });
    expect(edited).toMatchObject({ name: '总部', allowSelfSigned: true, url: 'https://cairn.example.com/base' });

    expect(profiles.activate('p1').activeId).toBe('p1');
    expect(profiles.active().name).toBe('总部');

    const after = profiles.remove('p1');
    expect(after.profiles.map((p) => p.id)).toEqual(['local']);
    expect(after.activeId).toBe('local');
    expect(seen).toEqual([['本机', '团队服务器'], ['本机', '总部'], ['本机', '总部'], ['本机']]);
  });

  it('keeps 本机 first and refuses to remove or rename it', () => {
    const profiles = make();
    profiles.add({ name: 'A', url: 'http://a.example' });
    expect(profiles.state().profiles[0]!.id).toBe('local');
    expect(errorOf(() => profiles.remove('local'))).toMatchObject({ code: 'not-allowed', message: '“本机”是内嵌平台，不能删除' });
    expect(errorOf(() => profiles.update('local', { name: '别的' })).message).toContain('不能修改名称');
    expect(errorOf(() => profiles.update('local', { url: 'http://x' })).message).toContain('不能修改地址');
    expect(profiles.update('local', { username: 'admin' }).username).toBe('admin');
  });

  it('validates names and addresses with Chinese messages', () => {
    const profiles = make();
    expect(errorOf(() => profiles.add({ name: '   ', url: 'https://a.example' }))).toMatchObject({ code: 'invalid-input', message: '请输入服务器名称' });
    expect(errorOf(() => profiles.add({ name: 'x'.repeat(101), url: 'https://a.example' })).message).toBe('服务器名称不能超过 100 个字符');
    expect(profiles.add({ name: '名'.repeat(100), url: 'https://a.example' }).name).toHaveLength(100);
    expect(errorOf(() => profiles.add({ name: 'B', url: 'ftp://a.example' })).message).toBe('服务器地址必须以 http:// 或 https:// 开头');
    expect(errorOf(() => profiles.add({ name: 'B', url: 'not a url' })).message).toContain('服务器地址格式不正确');
    expect(errorOf(() => profiles.add({ name: 'B', url: 'https://u:p@a.example' })).message).toBe('服务器地址中不能包含用户名或密码');
    expect(errorOf(() => profiles.add({ name: 'B', url: 'https://a.example/?x=1' })).message).toContain('不能包含查询参数');
    expect(errorOf(() => profiles.add({ name: '本机', url: 'https://a.example' })).message).toContain('内嵌平台的名称');
    profiles.add({ name: 'B', url: 'https://b.example' });
    expect(errorOf(() => profiles.add({ name: 'B', url: 'https://c.example' })).message).toBe('已存在同名的服务器：B');
    expect(errorOf(() => profiles.activate('nope'))).toMatchObject({ code: 'not-found' });
  });

  it('normalises addresses', () => {
    expect(validateUrl('HTTPS://Cairn.Example.com:8443/')).toBe('https://cairn.example.com:8443');
    expect(validateUrl('http://10.0.0.5:8080/cairn//')).toBe('http://10.0.0.5:8080/cairn');
  });

  it('records logins and drops the remembered flag when the user name changes', () => {
    const profiles = make();
    profiles.add({ name: 'A', url: 'https://a.example' });
    const p = profiles.recordLogin('p1', { username: 'alice', rememberPassword: true });
    expect(p).toMatchObject({ username: 'alice', rememberPassword: true, lastUsedAt: '2025-01-02T03:04:05.000Z' });
    expect(profiles.update('p1', { username: 'bob' })).toMatchObject({ username: 'bob', rememberPassword: false });
  });

  it('persists in the conf file format and repairs a damaged store', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-profiles-'));
    try {
      const first = make({ store: createConfStore(dir) });
      first.add({ name: 'A', url: 'https://a.example' });
      first.activate('p1');
      const file = JSON.parse(readFileSync(path.join(dir, 'profiles.json'), 'utf8')) as { profiles: unknown[]; activeId: string };
      expect(file.activeId).toBe('p1');
      expect(file.profiles).toHaveLength(2);
      expect(JSON.stringify(file)).not.toMatch(/"password"/i);

      const second = createProfiles({ store: createConfStore(dir), localUrl: () => null });
      expect(second.active().name).toBe('A');

      const damaged = createMemoryStore({ profiles: [{ id: 'x', junk: true }, null], activeId: 'gone' });
      const repaired = createProfiles({ store: damaged, localUrl: () => null }).state();
      expect(repaired).toMatchObject({ activeId: 'local', profiles: [{ id: 'local' }] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('connection test', () => {
    it('reports latency and version for a Cairn platform', async () => {
      const server = await tinyServer((req, res) => (req.url === '/api/health' ? json(res, 200, { code: 1, message: 'ok', data: { status: 'ok', version: '1.2.3', database: 'sqlite' } }) : json(res, 404, {})));
      try {
        const result = await make().test({ url: server.url });
        expect(result.ok).toBe(true);
        expect(result.latencyMs).toBeGreaterThanOrEqual(0);
        expect(result.message).toContain('连接成功');
        expect(result.message).toContain('1.2.3');
      } finally {
        await server.close();
      }
    });

    it('says when the address is not a Cairn platform', async () => {
      const server = await tinyServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>hello</html>');
      });
      try {
        expect(await make().test({ url: server.url })).toMatchObject({ ok: false, message: expect.stringContaining('不是 Cairn 平台') });
        server.route = (_req, res) => json(res, 404, { error: 'nope' });
        expect((await make().test({ url: server.url })).message).toContain('不是 Cairn 平台');
      } finally {
        await server.close();
      }
    });

    it('says 无法连接 when nothing listens and 超时 when nothing answers', async () => {
      const server = await tinyServer(() => {});
      const url = server.url;
      try {
        const slow = await make({ testTimeoutMs: 200 }).test({ url });
        expect(slow).toMatchObject({ ok: false, latencyMs: null });
        expect(slow.message).toContain('超时');
      } finally {
        await server.close();
      }
      const refused = await make().test({ url });
      expect(refused.ok).toBe(false);
      expect(refused.message).toContain('无法连接');
    });

    it('says 证书无效 for a certificate the system does not trust', () => {
      expect(describeNetworkError(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })).message).toMatch(/^证书无效/);
      expect(describeNetworkError({ message: 'x', cause: { code: 'CERT_HAS_EXPIRED' } }).message).toContain('证书已过期');
    });

    it.skipIf(!hasOpenssl)('refuses a self-signed https server unless the profile allows it', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-cert-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
      const server = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) => json(res, 200, { code: 1, message: 'ok', data: { status: 'ok', version: '9' } }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const profiles = make();
        const strict = profiles.add({ name: 'strict', url });
        const lenient = profiles.add({ name: 'lenient', url, allowSelfSigned: true });
        const refused = await profiles.test({ id: strict.id });
        expect(refused.ok).toBe(false);
        expect(refused.message).toMatch(/^证书无效/);
        expect(await profiles.test({ id: lenient.id })).toMatchObject({ ok: true });
        // A typed address is tested with the saved profile's certificate choice.
        expect(await profiles.test({ id: lenient.id, url })).toMatchObject({ ok: true });
      } finally {
        server.closeAllConnections();
        server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('tests the local platform through its current URL, or says it is not running', async () => {
      let local: string | null = null;
      const calls: string[] = [];
      const profiles = make({ localUrl: () => local, probe: async (url) => (calls.push(url), { ok: true, latencyMs: 3, message: '连接成功', version: null }) });
      expect((await profiles.test({ id: 'local' })).message).toBe('本机平台尚未启动');
      local = 'http://127.0.0.1:5555';
      expect(await profiles.test({})).toMatchObject({ ok: true, latencyMs: 3 });
      expect(calls).toEqual(['http://127.0.0.1:5555']);
      expect((await profiles.test({ url: 'ftp://x' })).message).toContain('http://');
    });
  });
});
