// Starts the web host (the desktop app's main services in plain Node, with a freshly started
// embedded platform) in a throwaway app-data folder, and hands the test its launch URL.
// The platform is the built one (dist/server, as the desktop app runs it), which global-setup.ts
// keeps up to date: loading one bundle is much cheaper than Node stripping the types of every
// server module, in the platform and again in each analysis thread.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
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

/** Names the scratch folder of this e2e run (set by global-setup.ts). */
export const RUN_CACHE_VARIABLE = 'CAIRN_E2E_RUN_CACHE';

const SERVER_BUNDLE = join(process.cwd(), 'dist', 'server');

/**
 * The knowledge base of these advisory folders as a platform database file: imported with
 * `cairn kb import` once per run, then copied, since several specs start from the same one.
 */
function knowledgeBase(ecosystems: string[]): string {
  const cache = process.env[RUN_CACHE_VARIABLE];
  if (!cache) throw new Error(`未设置 ${RUN_CACHE_VARIABLE}：请通过 playwright.config.ts 运行（global-setup.ts）`);
  const file = join(cache, `kb-${ecosystems.join('+')}.db`);
  if (existsSync(file)) return file;
  // Imported beside it and renamed, so a worker never copies a half-written file.
  const partial = `${file}.${process.pid}.partial`;
  const folders = ecosystems.map((eco) => join(CORPORA, 'advisories', eco));
  execFileSync(process.execPath, ['cli/cairn.ts', 'kb', 'import', '--db', partial, ...folders], { stdio: 'ignore' });
  renameSync(partial, file);
  return file;
}

export async function startWebHost(options: WebHostOptions = {}): Promise<WebHost> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  if (options.advisories?.length) {
    mkdirSync(join(home, 'platform'), { recursive: true, mode: 0o700 });
    copyFileSync(knowledgeBase(options.advisories), join(home, 'platform', 'cairn.db'));
  }
  await options.prepare?.(home);
  const child: ChildProcess = spawn(process.execPath, ['main/web-host/cli.ts', '--port', '0'], {
    env: {
      ...process.env,
      CAIRN_HOME: home,
      LOG_LEVEL: 'warn',
      CAIRN_SERVER_ENTRY: join(SERVER_BUNDLE, 'server.js'),
      CAIRN_FEATURE_WRITER_ENTRY: join(SERVER_BUNDLE, 'feature-writer.js'),
    },
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
