// The supervisor against the REAL embedded platform: node server/server.ts forked on loopback.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlatformStatus } from '../../../contract/ipc/desktop-contract.ts';
import { probeHealth } from '../../../main/services/health.ts';
import { createLocalPlatform, type LocalPlatform } from '../../../main/services/local-platform.ts';
import { createNodeSpawner } from '../../../main/services/node-spawner.ts';
import { ADMIN_PASSWORD, hasServer, isAlive, repoRoot, serverEntry, tempDir, waitFor } from './helpers.ts';

describe.skipIf(!hasServer)('local platform supervisor with the real server', () => {
  const dataDir = tempDir('cairn-platform-');
  const logs: string[] = [];
  let platform: LocalPlatform;

  afterAll(async () => {
    await platform?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts server/server.ts on 127.0.0.1 with a random port and reaches /api/health', async () => {
    platform = createLocalPlatform({
      spawner: createNodeSpawner({ entry: serverEntry, cwd: repoRoot }),
      dataDir,
      env: { CAIRN_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn' },
      backoffMs: [200],
      log: (line) => logs.push(line),
    });
    const status = await platform.start();
    expect(status, logs.join('\n')).toMatchObject({ state: 'running', restarts: 0 });
    expect(status.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(isAlive(status.pid)).toBe(true);
    const health = await probeHealth(status.url!);
    expect(health).toMatchObject({ ok: true });
  });

  it('restarts the platform after its process is killed', async () => {
    const before = platform.status();
    const states: PlatformStatus['state'][] = [];
    platform.onStatus((s) => states.push(s.state));
    process.kill(before.pid!, 'SIGKILL');
    const after = await waitFor(() => platform.status(), (s) => s.state === 'running' && s.pid !== before.pid, 30_000);
    expect(states[0]).toBe('crashed');
    expect(after.restarts).toBe(1);
    expect(after.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await probeHealth(after.url!)).ok).toBe(true);
    expect(isAlive(before.pid)).toBe(false);
  });

  it('shuts down cleanly: the process exits on the shutdown message and nothing restarts it', async () => {
    const { pid, url } = platform.status();
    await platform.stop();
    expect(platform.status()).toMatchObject({ state: 'stopped', url: null, pid: null });
    expect(isAlive(pid)).toBe(false);
    // The polite path, not the SIGKILL one (timings are figures, never assertions: the log says which path ran).
    expect(logs.join('\n')).not.toContain('强制结束');
    expect((await probeHealth(url!, { timeoutMs: 1_000 })).ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(platform.status().state).toBe('stopped');
  });
});
