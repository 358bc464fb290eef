// Starts the web host (the desktop app's main services in plain Node, with a freshly started
// embedded platform) in a throwaway app-data folder, and hands the test its launch URL.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface WebHost {
  launchUrl: string;
  origin: string;
  home: string;
  stop(): Promise<void>;
}

export interface WebHostOptions {
  /** Runs before the host starts, with its empty app-data folder (e.g. to load a knowledge base). */
  prepare?: (home: string) => Promise<void> | void;
  /** Folders of ../shared/corpora/advisories (go, pypi, crates.io) loaded with `cairn kb import` before the host starts. */
  advisories?: string[];
}

/** The shared test corpora, beside the repository. */
export const CORPORA = join(process.cwd(), '..', 'shared', 'corpora');

export async function startWebHost(options: WebHostOptions = {}): Promise<WebHost> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  if (options.advisories?.length) {
    const folders = options.advisories.map((eco) => join(CORPORA, 'advisories', eco));
    execFileSync(process.execPath, ['cli/cairn.ts', 'kb', 'import', '--db', join(home, 'platform', 'cairn.db'), ...folders], { stdio: 'ignore' });
  }
  await options.prepare?.(home);
  const child: ChildProcess = spawn(process.execPath, ['main/web-host/cli.ts', '--port', '0'], {
    env: { ...process.env, CAIRN_HOME: home, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('网页模式 60 秒内未启动')), 60_000);
    child.once('exit', (code) => reject(new Error(`网页模式提前退出（${code}）`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        const msg = JSON.parse(line) as { event?: string; url?: string };
        if (msg.event === 'web-host' && msg.url) { clearTimeout(timer); resolve(msg.url); }
      } catch { /* not ours */ }
    });
  });
  return {
    launchUrl,
    origin: new URL(launchUrl).origin,
    home,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
