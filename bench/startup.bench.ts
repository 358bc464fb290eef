// `npm run bench -- startup`: how long the CLI takes to scan one lockfile, and how long the
// platform takes from process start to a 200 from GET /api/health (an existing database, as every
// start but the first), each run as a fresh process, from sources and from the built bundles
// (built first when missing or stale), with Node's compile cache cold (an empty cache folder) and
// warm. Variants run interleaved, BENCH_RUNS times each (default 7); medians and minimums of wall
// time. The machine's load is printed: timings on a shared machine are noisy. BENCH_BASELINE=<another
// checkout> (e.g. `git worktree add /tmp/before main`) adds its entries, run as they run there, to
// the same interleaved series: a before/after in the same minutes.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, isStale } from '../scripts/build.ts';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const LOCKFILE = process.env.BENCH_LOCKFILE ?? path.resolve(root, '../shared/corpora/trivy/repo/npm/package-lock.json');
const BASELINE = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : null;

interface Variant {
  name: string;
  entry: string;
  /** The checkout the entry runs in (default this one). */
  cwd?: string;
  /** Run the sources even when a fresh bundle exists (server/launch.ts). */
  sources?: boolean;
  /** An empty compile cache for every run. */
  cold?: boolean;
}

const variants = (kind: 'cli' | 'server'): Variant[] => {
  const source = kind === 'cli' ? 'cli/cairn.ts' : 'server/server.ts';
  const bundle = kind === 'cli' ? 'dist/cli/cairn.js' : 'dist/server/server.js';
  return [
    { name: `源码 ${source}，编译缓存冷`, entry: source, sources: true, cold: true },
    { name: `源码 ${source}，编译缓存热`, entry: source, sources: true },
    { name: `${source} → 构建产物，编译缓存冷`, entry: source, cold: true },
    { name: `${source} → 构建产物，编译缓存热`, entry: source },
    { name: `直接运行 ${bundle}，编译缓存热`, entry: bundle },
    ...(BASELINE ? [{ name: `对照 ${path.basename(BASELINE)}：${source}`, entry: source, cwd: BASELINE }] : []),
  ];
};

function environment(variant: Variant, cacheRoot: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.CAIRN_FROM_SOURCES;
  if (variant.sources) env.CAIRN_FROM_SOURCES = '1';
  env.NODE_COMPILE_CACHE = variant.cold ? mkdtempSync(path.join(cacheRoot, 'cold-')) : path.join(cacheRoot, 'warm');
  // The other checkout runs as it would there: a version before server/launch.ts used no cache.
  if (variant.cwd) delete env.NODE_COMPILE_CACHE;
  return env;
}

/** Milliseconds from spawn to exit of `node <entry> scan <dir>`. */
function timeScan(variant: Variant, dir: string, cacheRoot: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [variant.entry, 'scan', dir], { cwd: variant.cwd ?? root, env: environment(variant, cacheRoot), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${variant.entry} 退出码 ${code}：${stderr}`))));
  });
}

/** Milliseconds from spawn to the first 200 of GET /api/health; then the platform is stopped. */
function timeHealth(variant: Variant, dataDir: string, cacheRoot: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const env = environment(variant, cacheRoot, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', CAIRN_DATA_DIR: dataDir, DATABASE_URL: '' });
    const child = spawn(process.execPath, [variant.entry], { cwd: variant.cwd ?? root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let polling = false;
    const stop = (result: () => void) => { child.once('exit', result); child.kill('SIGTERM'); };
    child.once('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"event":"listening","url":"([^"]+)"/.exec(output)?.[1];
      if (!url || polling) return;
      polling = true;
      void (async () => {
        for (;;) {
          const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
          if (ok) break;
          await new Promise((r) => setTimeout(r, 2));
        }
        const ms = performance.now() - started;
        stop(() => resolve(ms));
      })();
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function series(title: string, list: Variant[], once: (variant: Variant) => Promise<number>): Promise<void> {
  const times = new Map<Variant, number[]>(list.map((v) => [v, []]));
  for (const variant of list) await once(variant); // warms the shared cache and the file system
  for (let i = 0; i < RUNS; i++) for (const variant of list) times.get(variant)!.push(await once(variant));
  console.log(`\n${title}（每项 ${RUNS} 次，交替运行；负载 ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}）`);
  for (const [variant, values] of times) {
    console.log(`  ${variant.name.padEnd(44)} 中位数 ${median(values).toFixed(0).padStart(5)} ms  最小 ${Math.min(...values).toFixed(0).padStart(5)} ms`);
  }
}

export async function run(): Promise<void> {
  for (const target of ['cli', 'server'] as const) if (isStale(target)) await build([target]);
  const work = mkdtempSync(path.join(os.tmpdir(), 'cairn-startup-bench-'));
  try {
    const scanDir = path.join(work, 'one');
    mkdirSync(scanDir);
    copyFileSync(LOCKFILE, path.join(scanDir, path.basename(LOCKFILE)));
    const cacheRoot = path.join(work, 'cache');
    mkdirSync(cacheRoot);
    await series(`单文件 CLI 扫描（${path.basename(LOCKFILE)}），从启动到退出`, variants('cli'), (v) => timeScan(v, scanDir, cacheRoot));

    const dataDir = path.join(work, 'platform');
    // The first start creates and migrates the database; the figures are for the starts after it.
    await timeHealth({ name: 'setup', entry: 'server/server.ts' }, dataDir, cacheRoot);
    await series('平台从启动到 GET /api/health 返回 200（已有数据库，SQLite）', variants('server'), (v) => timeHealth(v, dataDir, cacheRoot));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
