import { describe, expect, it } from 'vitest';
import { VAULT_UNAVAILABLE_MESSAGE, createVault, describeKeyringFailure } from '../../../main/services/vault.ts';
import { memoryKeyring } from './fakes.ts';

describe('vault (fake keychain)', () => {
  it('stores, reads and deletes under service Cairn, account <profileId>:<username>', async () => {
    const backend = memoryKeyring();
    const vault = createVault({ backend });
    expect(await vault.status()).toEqual({ available: true, backend: 'Secret Service', message: '密码保存在系统钥匙串（Secret Service）中' });
    expect(await vault.get('p1', 'alice')).toEqual({ ok: true, value: null });
    expect(await vault.set('p1', 'alice', 's3cret!')).toEqual({ ok: true, value: null });
    expect([...backend.entries]).toEqual([['Cairn/p1:alice', 's3cret!']]);
    expect(await vault.get('p1', 'alice')).toEqual({ ok: true, value: 's3cret!' });
    expect(await vault.delete('p1', 'alice')).toEqual({ ok: true, value: true });
    expect(await vault.delete('p1', 'alice')).toEqual({ ok: true, value: false });
    expect(backend.entries.size).toBe(0);
  });

  it('uses a separate service name when asked (a scratch data dir)', async () => {
    const backend = memoryKeyring();
    await createVault({ backend, service: 'Cairn (abc)' }).set('local', 'admin', 'pw');
    expect([...backend.entries.keys()]).toEqual(['Cairn (abc)/local:admin']);
  });

  it('refuses to remember a password without a keychain, and says so in Chinese', async () => {
    const backend = memoryKeyring(false);
    const logged: string[] = [];
    const vault = createVault({ backend, log: (m) => logged.push(m) });
    const status = await vault.status();
    expect(status).toMatchObject({ available: false, message: VAULT_UNAVAILABLE_MESSAGE });
    expect(status.backend).toContain('没有运行密钥环服务');
    const set = await vault.set('p1', 'alice', 'pw');
    expect(set.ok).toBe(false);
    expect(!set.ok && set.message).toContain('系统钥匙串不可用，无法记住密码（未在明文中保存）');
    expect(await vault.get('p1', 'alice')).toMatchObject({ ok: false });
    expect(logged.join('\n')).not.toContain('pw');
    expect(backend.entries.size).toBe(0);
  });

  it('rejects empty keys and passwords', async () => {
    const vault = createVault({ backend: memoryKeyring() });
    expect(await vault.set('p1', '', 'pw')).toMatchObject({ ok: false });
    expect(await vault.set('p1', 'a', '')).toMatchObject({ ok: false, message: '密码为空，无法保存' });
  });

  it('explains common keychain failures', () => {
    expect(describeKeyringFailure(new Error('DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead'), 'Secret Service')).toBe('Secret Service不可用：没有可用的 D-Bus 会话总线');
    expect(describeKeyringFailure(new Error('collection is locked'), 'Secret Service')).toBe('Secret Service已锁定，无法读写');
    expect(describeKeyringFailure(new Error('weird'), 'macOS 钥匙串')).toBe('无法访问macOS 钥匙串');
  });
});
