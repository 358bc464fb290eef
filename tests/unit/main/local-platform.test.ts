import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlatformStatus } from '../../../contract/ipc/desktop-contract.ts';
import { createLocalPlatform, listeningUrl, type PlatformChild, type SpawnHandlers } from '../../../main/services/local-platform.ts';

interface FakeChild extends PlatformChild {
  env: Record<string, string>;
  handlers: SpawnHandlers;
  sent: unknown[];
  signals: string[];
  exit(code: number | null, signal?: string | null): void;
}

/** A spawner whose children do what the test says; `behaviour` decides how each child reacts. */
function fakeSpawner(behaviour: (child: FakeChild, index: number) => void) {
  const children: FakeChild[] = [];
  return {
    children,
    spawn(env: Record<string, string>, handlers: SpawnHandlers): PlatformChild {
      let alive = true;
      const child: FakeChild = {
        pid: 1000 + children.length,
        env,
        handlers,
        sent: [],
        signals: [],
        send(message) {
          child.sent.push(message);
          return alive;
        },
        kill(signal) {
          child.signals.push(signal);
        },
        exit(code, signal = null) {
          if (!alive) return;
          alive = false;
          setImmediate(() => handlers.onExit(code, signal));
        },
      };
      children.push(child);
      setImmediate(() => behaviour(child, children.length - 1));
      return child;
    },
  };
}

const listen = (child: FakeChild, port: number) => child.handlers.onMessage({ type: 'listening', url: `http://127.0.0.1:${port}` });
const healthy = async () => ({ ok: true, latencyMs: 1, message: 'ok', version: '1.0' });
const dataDir = path.join(os.tmpdir(), 'cairn-platform-unit');
const fast = { dataDir, backoffMs: [10, 20], shutdownGraceMs: 50, termGraceMs: 50, healthIntervalMs: 10, watchIntervalMs: 60_000 };

describe('local platform supervisor', () => {
  it('starts on 127.0.0.1 with a random port, learns the URL and waits for health', async () => {
    let healthCalls = 0;
    const spawner = fakeSpawner((child) => listen(child, 4321));
    const platform = createLocalPlatform({ ...fast, spawner, probe: async () => (++healthCalls < 3 ? { ok: false, latencyMs: null, message: 'no', version: null } : healthy()) });
    const states: string[] = [];
    platform.onStatus((s) => states.push(s.state));
    const status = await platform.start();
    expect(status).toMatchObject({ state: 'running', url: 'http://127.0.0.1:4321', pid: 1000, restarts: 0 });
    expect(spawner.children[0]!.env).toMatchObject({ HOST: '127.0.0.1', PORT: '0', CAIRN_DATA_DIR: dataDir });
    expect(healthCalls).toBe(3);
    expect(platform.url()).toBe('http://127.0.0.1:4321');
    expect(states).toEqual(['starting', 'starting', 'running']);
    await platform.stop();
  });

  it('also learns the URL from the stdout JSON line', async () => {
    const spawner = fakeSpawner((child) => child.handlers.onOutput('{"event":"listening","url":"http://127.0.0.1:5555"}', 'stdout'));
    const platform = createLocalPlatform({ ...fast, spawner, probe: healthy });
    expect((await platform.start()).url).toBe('http://127.0.0.1:5555');
    await platform.stop();
  });

  it('restarts a crashed platform with backoff', async () => {
    const spawner = fakeSpawner((child, i) => listen(child, 6000 + i));
    const platform = createLocalPlatform({ ...fast, spawner, probe: healthy });
    await platform.start();
    const seen: PlatformStatus[] = [];
    platform.onStatus((s) => seen.push(s));
    spawner.children[0]!.handlers.onOutput('boom: disk full', 'stderr');
    spawner.children[0]!.exit(1);
    await new Promise((resolve) => platform.onStatus((s) => s.state === 'running' && resolve(null)));
    expect(seen.map((s) => s.state)).toEqual(['crashed', 'starting', 'starting', 'running']);
    expect(seen[0]!.message).toContain('本机平台意外退出（退出码 1：boom: disk full）');
    expect(platform.status()).toMatchObject({ state: 'running', url: 'http://127.0.0.1:6001', restarts: 1 });
    await platform.stop();
  });

  it('gives up after too many crashes in the window, and a manual restart tries again', async () => {
    let crash = true;
    const spawner = fakeSpawner((child, i) => (crash ? child.exit(1) : listen(child, 7000 + i)));
    const platform = createLocalPlatform({ ...fast, spawner, probe: healthy, maxCrashes: 3 });
    const status = await platform.start();
    expect(status.state).toBe('failed');
    expect(status.message).toContain('异常退出 3 次，已停止自动重启');
    expect(spawner.children).toHaveLength(3);
    expect(platform.notReadyMessage()).toBe(status.message);
    crash = false;
    expect(await platform.restart()).toMatchObject({ state: 'running' });
    await platform.stop();
  });

  it('kills a platform that never becomes healthy (start timeout) and counts it as a crash', async () => {
    const spawner = fakeSpawner((child) => {
      listen(child, 8000);
      child.kill = (signal) => {
        child.signals.push(signal);
        child.exit(null, signal);
      };
    });
    const platform = createLocalPlatform({ ...fast, spawner, probe: async () => ({ ok: false, latencyMs: null, message: 'no', version: null }), startTimeoutMs: 50, maxCrashes: 1 });
    const status = await platform.start();
    expect(status.state).toBe('failed');
    expect(status.message).toContain('启动超时');
    expect(spawner.children[0]!.signals).toEqual(['SIGTERM']);
  });

  it('shuts down politely first, then SIGTERM, then SIGKILL', async () => {
    // 1: obeys the shutdown message.
    const polite = fakeSpawner((child) => {
      listen(child, 9000);
      child.send = (m) => (child.sent.push(m), child.exit(0), true);
    });
    const a = createLocalPlatform({ ...fast, spawner: polite, probe: healthy });
    await a.start();
    await a.stop();
    expect(polite.children[0]!.sent).toEqual([{ type: 'shutdown' }]);
    expect(polite.children[0]!.signals).toEqual([]);
    expect(a.status()).toMatchObject({ state: 'stopped', url: null, pid: null });

    // 2: ignores everything but SIGKILL; no restart follows a stop.
    const stubborn = fakeSpawner((child) => {
      listen(child, 9001);
      child.kill = (signal) => {
        child.signals.push(signal);
        if (signal === 'SIGKILL') child.exit(null, 'SIGKILL');
      };
    });
    const b = createLocalPlatform({ ...fast, spawner: stubborn, probe: healthy });
    await b.start();
    await b.stop();
    expect(stubborn.children[0]!.signals).toEqual(['SIGTERM', 'SIGKILL']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stubborn.children).toHaveLength(1);
    expect(b.status().state).toBe('stopped');
  });

  it('restarts a running platform that stops answering health checks', async () => {
    let answering = true;
    const spawner = fakeSpawner((child, i) => {
      listen(child, 9100 + i);
      child.kill = (signal) => {
        child.signals.push(signal);
        child.exit(null, signal);
      };
    });
    const platform = createLocalPlatform({ ...fast, watchIntervalMs: 10, watchFailures: 2, spawner, probe: async () => (answering ? healthy() : { ok: false, latencyMs: null, message: 'no', version: null }) });
    await platform.start();
    answering = false;
    const crashed = await new Promise<PlatformStatus>((resolve) => platform.onStatus((s) => s.state === 'crashed' && resolve(s)));
    expect(crashed.message).toContain('健康检查连续 2 次失败');
    answering = true;
    await new Promise((resolve) => platform.onStatus((s) => s.state === 'running' && resolve(null)));
    expect(spawner.children).toHaveLength(2);
    await platform.stop();
  });

  it('accepts only loopback listening URLs', () => {
    expect(listeningUrl({ type: 'listening', url: 'http://127.0.0.1:1234' })).toBe('http://127.0.0.1:1234');
    expect(listeningUrl({ event: 'listening', url: 'http://localhost:80' })).toBe('http://localhost:80');
    expect(listeningUrl({ type: 'listening', url: 'http://evil.example:80' })).toBeNull();
    expect(listeningUrl({ type: 'other', url: 'http://127.0.0.1:1' })).toBeNull();
    expect(listeningUrl('listening')).toBeNull();
  });
});
