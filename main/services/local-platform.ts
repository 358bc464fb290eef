// Supervisor of the embedded platform ("本机"): starts server/ on 127.0.0.1 with a random port,
// learns its URL from the listening message, waits for GET /api/health, restarts it with backoff
// when it dies (giving up after too many crashes in a window), and shuts it down cleanly.
//
// How the process is started is injected (PlatformSpawner): Electron forks the built
// dist/server/server.js as a utilityProcess (main/electron/utility-spawner.ts); the web host and
// tests fork server/server.ts with Node (node-spawner.ts). This module is plain Node.
import { EventEmitter } from 'node:events';
import type { PlatformStatus } from '../../contract/ipc/desktop-contract.ts';
import { probeHealth, type HealthOptions, type HealthResult } from './health.ts';
import { makePrivateDirSync } from './private-files.ts';

export interface PlatformChild {
  readonly pid: number | null;
  /** Post a message to the platform; false when the channel is closed. */
  send(message: unknown): boolean;
  kill(signal: 'SIGTERM' | 'SIGKILL'): void;
}

export interface SpawnHandlers {
  onMessage(message: unknown): void;
  onOutput(line: string, stream: 'stdout' | 'stderr'): void;
  /** Exactly once, when the process is gone. */
  onExit(code: number | null, signal: string | null): void;
}

export interface PlatformSpawner {
  /** Start the platform with these variables added to the environment. */
  spawn(env: Record<string, string>, handlers: SpawnHandlers): PlatformChild;
}

export interface LocalPlatformOptions {
  spawner: PlatformSpawner;
  /** `<appData>/platform`: the platform's SQLite file and artifacts. */
  dataDir: string;
  /** Extra environment for the platform (e.g. CAIRN_ADMIN_PASSWORD). */
  env?: Record<string, string>;
  /** From spawn to a healthy /api/health. */
  startTimeoutMs?: number;
  healthIntervalMs?: number;
  /** While running, how often /api/health is checked; a platform that stops answering is restarted. */
  watchIntervalMs?: number;
  watchFailures?: number;
  /** After the shutdown message, before SIGTERM. */
  shutdownGraceMs?: number;
  /** After SIGTERM, before SIGKILL. */
  termGraceMs?: number;
  /** Delay before the n-th automatic restart (the last value repeats). */
  backoffMs?: number[];
  /** This many crashes within crashWindowMs -> state `failed`, no more automatic restarts. */
  maxCrashes?: number;
  crashWindowMs?: number;
  probe?: (url: string, options: HealthOptions) => Promise<HealthResult>;
  log?: (line: string) => void;
}

export interface LocalPlatform {
  status(): PlatformStatus;
  /** Base URL while running, else null. */
  url(): string | null;
  /** Why there is no URL right now, for calls made too early. */
  notReadyMessage(): string;
  /** Start if not started; resolves once running, failed or stopped. */
  start(): Promise<PlatformStatus>;
  /** Stop, forget past crashes, start again. */
  restart(): Promise<PlatformStatus>;
  stop(): Promise<void>;
  onStatus(listener: (status: PlatformStatus) => void): () => void;
}

interface Run {
  child: PlatformChild | null;
  url: string | null;
  exited: Promise<void>;
  markExited: () => void;
  /** Why we killed it, when we did (start timeout, stopped answering). */
  killReason: string | null;
  timers: Array<ReturnType<typeof setTimeout>>;
}

const LISTENING_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

/** `{type:'listening',url}` (IPC) or `{"event":"listening","url"}` (stdout line) -> url. */
export function listeningUrl(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { type?: unknown; event?: unknown; url?: unknown };
  if ((m.type === 'listening' || m.event === 'listening') && typeof m.url === 'string' && LISTENING_URL.test(m.url)) return m.url;
  return null;
}

/** `{type:'error',message}` / `{"event":"error","message"}`: the platform says why it cannot start. */
function platformErrorMessage(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { type?: unknown; event?: unknown; message?: unknown };
  return (m.type === 'error' || m.event === 'error') && typeof m.message === 'string' ? m.message : null;
}

const exitText = (code: number | null, signal: string | null): string => (signal ? `信号 ${signal}` : `退出码 ${code ?? '未知'}`);
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}`;

export function createLocalPlatform(options: LocalPlatformOptions): LocalPlatform {
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const healthIntervalMs = options.healthIntervalMs ?? 250;
  const watchIntervalMs = options.watchIntervalMs ?? 15_000;
  const watchFailures = options.watchFailures ?? 3;
  const shutdownGraceMs = options.shutdownGraceMs ?? 5_000;
  const termGraceMs = options.termGraceMs ?? 3_000;
  const backoffMs = options.backoffMs?.length ? options.backoffMs : [500, 1_000, 2_000, 5_000, 10_000];
  const maxCrashes = options.maxCrashes ?? 5;
  const crashWindowMs = options.crashWindowMs ?? 120_000;
  const probe = options.probe ?? probeHealth;
  const log = options.log ?? (() => {});
  const emitter = new EventEmitter();

  let status: PlatformStatus = { state: 'stopped', url: null, pid: null, restarts: 0, message: '本机平台未启动' };
  let run: Run | null = null;
  let crashes: number[] = [];
  let restartTimer: ReturnType<typeof setTimeout> | null = null;
  let stopping: Promise<void> | null = null;
  let wanted = false;
  const recent: string[] = [];

  function setStatus(next: Partial<PlatformStatus>): void {
    status = { ...status, ...next };
    emitter.emit('status', { ...status });
  }

  /** Resolves at the next settled state: running, failed or stopped. */
  function settled(): Promise<PlatformStatus> {
    if (status.state === 'running' || status.state === 'failed' || status.state === 'stopped') return Promise.resolve({ ...status });
    return new Promise((resolve) => {
      const listener = (s: PlatformStatus) => {
        if (s.state === 'running' || s.state === 'failed' || s.state === 'stopped') {
          emitter.off('status', listener);
          resolve(s);
        }
      };
      emitter.on('status', listener);
    });
  }

  function remember(line: string, stream: 'stdout' | 'stderr'): void {
    recent.push(`${stream === 'stderr' ? '!' : ' '} ${line}`);
    if (recent.length > 30) recent.shift();
    log(`[本机平台] ${line}`);
  }

  /** The last line the platform wrote to stderr, to explain a failure. */
  const lastError = (): string | null => {
    const line = [...recent].reverse().find((l) => l.startsWith('!'));
    return line ? line.slice(2).trim().slice(0, 200) : null;
  };

  function launch(): void {
    restartTimer = null;
    // Each run explains its own failure: older output would mislead.
    recent.length = 0;
    let markExited!: () => void;
    const exited = new Promise<void>((resolve) => (markExited = resolve));
    const current: Run = { child: null, url: null, exited, markExited, killReason: null, timers: [] };
    run = current;
    setStatus({ state: 'starting', url: null, pid: null, message: '本机平台正在启动…' });
    try {
      makePrivateDirSync(options.dataDir);
      current.child = options.spawner.spawn(
        { HOST: '127.0.0.1', PORT: '0', CAIRN_DATA_DIR: options.dataDir, ...options.env },
        {
          onMessage: (message) => {
            const error = platformErrorMessage(message);
            // The same announcement also arrives as a stdout line; keep one copy.
            if (error && run === current && !recent.some((l) => l.includes(error))) remember(error, 'stderr');
            onListening(current, listeningUrl(message));
          },
          onOutput: (line, stream) => {
            let parsed: unknown;
            if (stream === 'stdout' && line.startsWith('{')) {
              try {
                parsed = JSON.parse(line);
              } catch {}
            }
            const error = platformErrorMessage(parsed);
            if (run === current) remember(error ?? line, error ? 'stderr' : stream);
            onListening(current, listeningUrl(parsed));
          },
          onExit: (code, signal) => onExit(current, code, signal),
        },
      );
    } catch (err) {
      remember(`无法启动：${err instanceof Error ? err.message : String(err)}`, 'stderr');
      onExit(current, null, null);
      return;
    }
    setStatus({ pid: current.child.pid });
    current.timers.push(setTimeout(() => {
      if (run === current && status.state === 'starting') kill(current, `启动超时（${seconds(startTimeoutMs)} 秒内未就绪）`);
    }, startTimeoutMs));
  }

  function onListening(current: Run, url: string | null): void {
    if (!url || run !== current || current.url) return;
    current.url = url;
    void waitHealthy(current, url);
  }

  async function waitHealthy(current: Run, url: string): Promise<void> {
    while (run === current && status.state === 'starting') {
      const health = await probe(url, { timeoutMs: 2_000 });
      if (run !== current || status.state !== 'starting') return;
      if (health.ok) {
        setStatus({ state: 'running', url, message: `本机平台运行中${health.version ? `（版本 ${health.version}）` : ''}` });
        watch(current, url);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, healthIntervalMs));
    }
  }

  /** A process can be alive yet deaf (deadlock, full disk); it gets restarted like a crash. */
  function watch(current: Run, url: string): void {
    let failures = 0;
    const tick = async () => {
      if (run !== current || status.state !== 'running') return;
      const health = await probe(url, { timeoutMs: 5_000 });
      if (run !== current || status.state !== 'running') return;
      failures = health.ok ? 0 : failures + 1;
      if (failures >= watchFailures) kill(current, `健康检查连续 ${failures} 次失败`);
      else schedule();
    };
    // One pending check at a time; the slot is reused so a long-running platform collects no timers.
    const slot = current.timers.length;
    const schedule = () => {
      current.timers[slot] = setTimeout(tick, watchIntervalMs);
    };
    schedule();
  }

  /** Kill a run we gave up on; its exit then counts as a crash. */
  function kill(current: Run, reason: string): void {
    current.killReason = reason;
    log(`[本机平台] ${reason}，正在结束进程`);
    current.child?.kill('SIGTERM');
    current.timers.push(setTimeout(() => current.child?.kill('SIGKILL'), termGraceMs));
  }

  function onExit(current: Run, code: number | null, signal: string | null): void {
    for (const t of current.timers) clearTimeout(t);
    current.markExited();
    if (run !== current) return;
    run = null;
    if (stopping || !wanted) return;
    const now = Date.now();
    crashes = [...crashes.filter((t) => now - t < crashWindowMs), now];
    const why = current.killReason ?? exitText(code, signal);
    const detail = lastError();
    if (crashes.length >= maxCrashes) {
      wanted = false;
      setStatus({
        state: 'failed', url: null, pid: null,
        message: `本机平台在 ${seconds(crashWindowMs)} 秒内异常退出 ${crashes.length} 次，已停止自动重启（${why}${detail ? `：${detail}` : ''}）。可手动重启本机平台`,
      });
      return;
    }
    const delay = backoffMs[Math.min(crashes.length - 1, backoffMs.length - 1)]!;
    setStatus({
      state: 'crashed', url: null, pid: null, restarts: status.restarts + 1,
      message: `本机平台意外退出（${why}${detail ? `：${detail}` : ''}），${seconds(delay)} 秒后自动重启`,
    });
    restartTimer = setTimeout(launch, delay);
  }

  async function stopRun(): Promise<void> {
    if (restartTimer) clearTimeout(restartTimer);
    restartTimer = null;
    const current = run;
    if (current?.child) {
      const child = current.child;
      const within = (ms: number) => Promise.race([current.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
      // Polite first (the platform closes its database), then SIGTERM, then SIGKILL.
      const asked = child.send({ type: 'shutdown' });
      if (!asked || !(await within(shutdownGraceMs))) {
        child.kill('SIGTERM');
        if (!(await within(termGraceMs))) {
          log('[本机平台] 未在规定时间内退出，强制结束');
          child.kill('SIGKILL');
          await within(termGraceMs);
        }
      }
    }
    if (run === current) run = null;
    setStatus({ state: 'stopped', url: null, pid: null, message: '本机平台已停止' });
  }

  const api: LocalPlatform = {
    status: () => ({ ...status }),
    url: () => (status.state === 'running' ? status.url : null),
    notReadyMessage() {
      switch (status.state) {
        case 'running':
          return '';
        case 'starting':
          return '本机平台正在启动，请稍候再试';
        case 'crashed':
          return '本机平台正在重启，请稍候再试';
        case 'failed':
          return status.message;
        default:
          return '本机平台未启动';
      }
    },
    async start() {
      if (stopping) await stopping;
      if (!wanted) {
        wanted = true;
        if (status.state === 'failed' || status.state === 'stopped') crashes = [];
        if (!run && !restartTimer) launch();
      }
      return settled();
    },
    async restart() {
      await api.stop();
      crashes = [];
      return api.start();
    },
    async stop() {
      wanted = false;
      if (!stopping) stopping = stopRun().finally(() => (stopping = null));
      await stopping;
    },
    onStatus(listener) {
      emitter.on('status', listener);
      return () => emitter.off('status', listener);
    },
  };
  return api;
}
