// Entry of the web host: `node main/web-host/cli.ts [--port N]`. Runs the same main-process
// services as the desktop app in plain Node — the embedded platform forked from
// server/server.ts — and serves dist/renderer to a browser on 127.0.0.1 (design.md §1).
//
//   CAIRN_HOME  app data dir: profile store, keychain namespace, platform data
//               (default: where Electron keeps Cairn's userData, e.g. ~/.config/Cairn)
//   --port N    port of the web host (default 0: a free one)
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServices, uploadTempDir } from '../services/app-services.ts';
import { createLocalPlatform } from '../services/local-platform.ts';
import { createNodeSpawner } from '../services/node-spawner.ts';
import { createFeatureWriter } from '../services/feature-writer.ts';
import { createConfStore } from '../services/store.ts';
import { VAULT_SERVICE, createKeyringBackend, createVault } from '../services/vault.ts';
import { createDispatcher } from '../ipc/dispatcher.ts';
import { createHandlers } from '../ipc/handlers.ts';
import { startWebHost, type WebHost } from './host.ts';
import { openLogFile } from './log-file.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Electron's userData for an app named Cairn, so both shells share one data dir by default. */
export function defaultAppDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Cairn');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Cairn');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Cairn');
}

/**
 * Keychain service name for a data dir: `Cairn` for the default one (shared with the desktop
 * app), `Cairn (<hash>)` for any other, so that test or scratch homes never read or overwrite the
 * user's real remembered passwords.
 */
export function vaultServiceFor(home: string, defaultHome: string = defaultAppDataDir()): string {
  if (path.resolve(home) === path.resolve(defaultHome)) return VAULT_SERVICE;
  return `${VAULT_SERVICE} (${createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 12)})`;
}

export function parsePort(argv: string[]): number {
  let raw: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--port') raw = argv[++i];
    else if (arg.startsWith('--port=')) raw = arg.slice('--port='.length);
    else throw new Error(`未知参数：${arg}（可用参数：--port <端口>）`);
  }
  if (raw === undefined) return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`端口无效：${raw}（应为 0–65535 的整数，0 表示自动选择）`);
  return port;
}

interface RunningWebHost {
  host: WebHost;
  stop(): Promise<void>;
}

async function runWebHost(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Promise<RunningWebHost> {
  const port = parsePort(argv);
  const home = path.resolve(env.CAIRN_HOME || defaultAppDataDir());
  const errLog = (line: string) => process.stderr.write(`${line}\n`);
  const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  // The platform's own output goes to the log file; its state changes (below) to the terminal.
  const logFile = openLogFile(home);
  errLog(`日志文件：${logFile.path}`);

  const platform = createLocalPlatform({
    spawner: createNodeSpawner({ entry: env.CAIRN_SERVER_ENTRY || path.join(repoRoot, 'server', 'server.ts'), cwd: repoRoot }),
    dataDir: path.join(home, 'platform'),
    log: logFile.write,
  });
  // Browser files are staged here before upload; only these may be uploaded from a page.
  const stageDir = path.join(uploadTempDir(home), 'web');
  // Staged copies only live for their upload; whatever an earlier run left is stale.
  rmSync(stageDir, { recursive: true, force: true });
  const services = createAppServices({
    uploadRoots: [stageDir],
    shell: 'web',
    version,
    dataDir: home,
    store: createConfStore(home),
    vault: createVault({ backend: createKeyringBackend(), service: vaultServiceFor(home), log: errLog }),
    platform,
    // The engine writes feature files in a child process of its own (main has no engine).
    writeFeature: createFeatureWriter(
      createNodeSpawner({ entry: env.CAIRN_FEATURE_WRITER_ENTRY || path.join(repoRoot, 'server', 'engine', 'feature', 'writer-process.ts'), cwd: repoRoot }),
      { version, log: logFile.write },
    ),
  });
  const dispatcher = createDispatcher(createHandlers(services), {
    checkResponses: true,
    onError: (channel, err) => {
      errLog(`调用 ${channel} 出错：${err instanceof Error ? err.message : String(err)}（详情见日志文件）`);
      logFile.write(`调用 ${channel} 出错：${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    },
  });
  const host = await startWebHost({
    dispatcher,
    onEvent: (listener) => services.onEvent(listener),
    rendererDir: path.join(repoRoot, 'dist', 'renderer'),
    desktopScript: path.join(repoRoot, 'dist', 'web', 'desktop.js'),
    port,
    stageDir,
    log: errLog,
  });

  // Status updates repeat the message when only the pid or url changes: say each once.
  let lastMessage = '';
  platform.onStatus((status) => {
    if (status.message !== lastMessage) {
      errLog(`[本机平台] ${status.message}`);
      logFile.write(`[本机平台] ${status.message}`);
    }
    lastMessage = status.message;
  });
  void platform.start();

  let stopping: Promise<void> | null = null;
  return {
    host,
    stop: () =>
      (stopping ??= (async () => {
        await host.close();
        await platform.stop();
        services.dispose();
        await logFile.close();
      })()),
  };
}

/** Start, print the launch URL (a Chinese line and a JSON line), stop on SIGINT/SIGTERM. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  let running: RunningWebHost;
  try {
    running = await runWebHost(argv);
  } catch (err) {
    process.stderr.write(`Cairn 网页模式启动失败：${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  process.stdout.write(`Cairn 网页模式已启动：${running.host.launchUrl}\n`);
  process.stdout.write(`${JSON.stringify({ event: 'web-host', url: running.host.launchUrl })}\n`);

  let firstSignalAt = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    if (firstSignalAt) {
      // conf's write-on-exit hook (when-exit) re-raises the signal it caught right away; only a
      // second signal from the user (Ctrl+C again) means "stop waiting".
      if (Date.now() - firstSignalAt < 1_000) return;
      process.stderr.write('再次收到退出信号，立即退出\n');
      process.exit(1);
    }
    firstSignalAt = Date.now();
    process.stderr.write(`收到 ${signal}，正在停止本机平台和网页模式…\n`);
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`停止时出错：${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (import.meta.main) void main();
