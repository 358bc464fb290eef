// The vault against the REAL OS keychain. The round trip runs when CAIRN_TEST_KEYRING=1 (CI runs
// the suite inside dbus-run-session with an unlocked gnome-keyring); the "no keychain" case runs
// everywhere on Linux by pointing D-Bus at a socket that does not exist.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { VAULT_UNAVAILABLE_MESSAGE, createKeyringBackend, createVault } from '../../../main/services/vault.ts';

const withKeyring = process.env.CAIRN_TEST_KEYRING === '1';

describe.skipIf(!withKeyring)('vault with the real keychain (CAIRN_TEST_KEYRING=1)', () => {
  const service = `Cairn test ${randomUUID()}`;
  const vault = createVault({ backend: createKeyringBackend(), service });
  const profileId = randomUUID();

  afterAll(async () => {
    await vault.delete(profileId, 'alice');
  });

  it('is available', async () => {
    expect(await vault.status()).toMatchObject({ available: true });
  });

  it('stores, reads back, overwrites and deletes a password', async () => {
    expect(await vault.get(profileId, 'alice')).toEqual({ ok: true, value: null });
    expect(await vault.set(profileId, 'alice', '密码 with ünïcode & 符号!')).toEqual({ ok: true, value: null });
    expect(await vault.get(profileId, 'alice')).toEqual({ ok: true, value: '密码 with ünïcode & 符号!' });
    expect(await vault.set(profileId, 'alice', 'second')).toMatchObject({ ok: true });
    expect(await vault.get(profileId, 'alice')).toEqual({ ok: true, value: 'second' });
    // A different account of the same profile is a different entry.
    expect(await vault.get(profileId, 'bob')).toEqual({ ok: true, value: null });
    expect(await vault.delete(profileId, 'alice')).toEqual({ ok: true, value: true });
    expect(await vault.get(profileId, 'alice')).toEqual({ ok: true, value: null });
  });
});

describe.skipIf(process.platform !== 'linux')('vault without a keychain', () => {
  it('refuses to store the password and says so (no plain-text fallback)', async () => {
    // A fresh process: the keyring library keeps its D-Bus connection once it has one.
    const script = `
      import { createKeyringBackend, createVault } from ${JSON.stringify(pathToFileURL(path.resolve(import.meta.dirname, '../../../main/services/vault.ts')).href)};
      const vault = createVault({ backend: createKeyringBackend({ timeoutMs: 5000 }), service: 'Cairn test unavailable' });
      const status = await vault.status();
      const set = await vault.set('p1', 'alice', 'pw');
      const get = await vault.get('p1', 'alice');
      process.stdout.write(JSON.stringify({ status, set, get }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=/nonexistent/cairn-${randomUUID()}` },
      timeout: 20_000,
    });
    const { status, set, get } = JSON.parse(stdout) as { status: { available: boolean; message: string; backend: string }; set: { ok: boolean; message?: string }; get: { ok: boolean } };
    expect(status.available).toBe(false);
    expect(status.message).toBe(VAULT_UNAVAILABLE_MESSAGE);
    expect(status.backend).toContain('D-Bus');
    expect(set.ok).toBe(false);
    expect(set.message).toContain('系统钥匙串不可用，无法记住密码（未在明文中保存）');
    expect(get.ok).toBe(false);
  });
});
