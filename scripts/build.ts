// Builds the app into dist/. Usage: node scripts/build.ts [target ...]  (no target: all)
//   renderer  vite build (renderer/vite.config.ts)        -> dist/renderer/
//   web       preload/web.ts, IIFE for the web host        -> dist/web/desktop.js
//   preload   preload/index.ts, CommonJS for the sandbox   -> dist/preload/index.cjs
//   main      main/index.ts, ESM, electron external        -> dist/main/index.js
//   server    server/server.ts, ESM, native modules external -> dist/server/server.js
//   cli       cli/cairn.ts, ESM, native modules external     -> dist/cli/cairn.js
// The server and cli bundles carry a stamp of the sources they were built from: run from sources,
// their entries use the bundle while it matches them (server/launch.ts).
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { STAMP_FILE, freshBundle, type BuildStamp, type BundleName } from '../server/launch.ts';
import { WORKER_ENTRIES } from '../server/worker-url.ts';

export const root = path.resolve(import.meta.dirname, '..');
const at = (...p: string[]) => path.join(root, ...p);

export const TARGETS = ['renderer', 'web', 'preload', 'main', 'server', 'cli'] as const;
export type Target = (typeof TARGETS)[number];

/** Where each target writes its entry file (used for staleness checks). */
export const OUTPUTS: Record<Target, string> = {
  renderer: at('dist', 'renderer', 'index.html'),
  web: at('dist', 'web', 'desktop.js'),
  preload: at('dist', 'preload', 'index.cjs'),
  main: at('dist', 'main', 'index.js'),
  server: at('dist', 'server', 'server.js'),
  cli: at('dist', 'cli', 'cairn.js'),
};

/** Source trees each target is built from. */
export const INPUTS: Record<Target, string[]> = {
  renderer: [at('renderer'), at('contract'), at('package.json')],
  web: [at('preload'), at('contract')],
  preload: [at('preload'), at('contract')],
  main: [at('main'), at('contract'), at('preload')],
  server: [at('server'), at('contract')],
  cli: [at('cli'), at('server'), at('contract')],
};

// ESM bundles for Node that contain CommonJS dependencies need `require` and friends.
const NODE_ESM_BANNER = [
  "import { createRequire as __cairnCreateRequire } from 'node:module';",
  "import { fileURLToPath as __cairnFileURLToPath } from 'node:url';",
  "import { dirname as __cairnDirname } from 'node:path';",
  'const require = __cairnCreateRequire(import.meta.url);',
  'const __filename = __cairnFileURLToPath(import.meta.url);',
  'const __dirname = __cairnDirname(__filename);',
].join('\n');

function newestMtime(file: string): number {
  if (!existsSync(file)) return 0;
  const st = statSync(file);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(file)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** True when the target's output is missing or older than any of its sources. */
export function isStale(target: Target): boolean {
  // A stamped bundle knows the exact files it was built from.
  if (target === 'server' || target === 'cli') return freshBundle(target, root) === null;
  const out = OUTPUTS[target];
  if (!existsSync(out)) return true;
  const built = statSync(out).mtimeMs;
  return INPUTS[target].some((input) => newestMtime(input) > built);
}

const log = (message: string) => process.stderr.write(`${message}\n`);

async function buildRenderer(): Promise<void> {
  const configFile = at('renderer', 'vite.config.ts');
  if (!existsSync(configFile)) throw new Error('未找到 renderer/vite.config.ts，无法构建界面');
  const { build } = await import('vite');
  await build({ configFile, logLevel: 'warn' });
}

async function buildWeb(): Promise<void> {
  await esbuild.build({
    entryPoints: [at('preload', 'web.ts')],
    outfile: OUTPUTS.web,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2023',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

async function buildPreload(): Promise<void> {
  // A sandboxed preload can require only `electron` (and a few polyfills): everything else is bundled.
  await esbuild.build({
    entryPoints: [at('preload', 'index.ts')],
    outfile: OUTPUTS.preload,
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    target: 'es2023',
    external: ['electron'],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

async function buildMain(): Promise<void> {
  await esbuild.build({
    entryPoints: [at('main', 'index.ts')],
    outfile: OUTPUTS.main,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    // electron is provided by the runtime; the keychain binding is a native module.
    external: ['electron', '@napi-rs/keyring', '@napi-rs/keyring-*'],
    banner: { js: NODE_ESM_BANNER },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/**
 * A Node bundle of the platform or the CLI, ESM, split into chunks so that a run loads only the
 * code it uses (a command, a route's heavy library), with one bundle per worker thread entry beside
 * it (server/worker-url.ts: a chunk's import.meta.url is in the same folder). Then the stamp.
 */
async function buildNodeBundle(name: BundleName, entry: string): Promise<void> {
  const outdir = path.dirname(OUTPUTS[name]);
  // Until the new stamp is written the entries run from sources, not from a half-written bundle.
  rmSync(path.join(outdir, STAMP_FILE), { force: true });
  const started = Date.now();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      [path.basename(OUTPUTS[name], '.js')]: entry,
      ...Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([worker, file]) => [worker, at('server', file)])),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    // Native modules (and pg's optional native binding) load from node_modules at run time.
    // @fastify/swagger-ui reads its static assets relative to its own folder, so it stays in node_modules.
    // Native addons and packages that read their own data files next to their code stay in
    // node_modules: @resvg/resvg-js (a .node binary), pdfkit (its AFM metrics).
    // libxmljs2 / xmlbuilder2 are optional plug-ins the CycloneDX library tries at run time (we
    // write JSON only); left out, its require fails as it would without them installed.
    external: ['better-sqlite3', 'pg', 'pg-native', '@fastify/swagger-ui', '@resvg/resvg-js', 'pdfkit', 'libxmljs2', 'xmlbuilder2'],
    banner: { js: NODE_ESM_BANNER },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  writeStamp(name, result.metafile, started);
}

/**
 * The repository files the bundle was built from, with their modification times, and the installed
 * packages' lock (npm rewrites node_modules/.package-lock.json on every install): a change to any
 * of them makes the entries run from sources again until the next build.
 */
function writeStamp(name: BundleName, metafile: esbuild.Metafile, started: number): void {
  // Paths relative to the repository, "/"-separated (esbuild writes them so on every platform).
  const files = Object.keys(metafile.inputs).filter((file) => !file.includes('node_modules/') && !file.includes(':'));
  files.push('package.json', 'node_modules/.package-lock.json');
  // A file saved while the build ran may be in the bundle as it was before: recorded as changed.
  const mtime = (file: string) => { const ms = statSync(at(file)).mtimeMs; return ms < started ? ms : -1; };
  const inputs = Object.fromEntries(files.filter((file) => existsSync(at(file))).map((file) => [file, mtime(file)]));
  const stamp: BuildStamp = { entry: path.basename(OUTPUTS[name]), inputs };
  writeFileSync(path.join(path.dirname(OUTPUTS[name]), STAMP_FILE), `${JSON.stringify(stamp, null, 1)}\n`);
}

async function buildServer(): Promise<void> {
  if (!existsSync(at('server', 'server.ts'))) throw new Error('未找到 server/server.ts，无法构建本机平台');
  await buildNodeBundle('server', at('server', 'server.ts'));
}

async function buildCli(): Promise<void> {
  await buildNodeBundle('cli', at('cli', 'cairn.ts'));
}

const BUILDERS: Record<Target, () => Promise<void>> = {
  renderer: buildRenderer,
  web: buildWeb,
  preload: buildPreload,
  main: buildMain,
  server: buildServer,
  cli: buildCli,
};

export async function build(targets: readonly Target[] = TARGETS): Promise<void> {
  for (const target of targets) {
    const started = performance.now();
    log(`构建 ${target} …`);
    await BUILDERS[target]();
    log(`构建 ${target} 完成（${Math.round(performance.now() - started)} 毫秒）→ ${path.relative(root, OUTPUTS[target])}`);
  }
}

export function parseTargets(args: string[]): Target[] {
  for (const arg of args) {
    if (!(TARGETS as readonly string[]).includes(arg)) throw new Error(`未知的构建目标：${arg}（可选：${TARGETS.join('、')}）`);
  }
  return args.length ? (args as Target[]) : [...TARGETS];
}

if (import.meta.main) {
  try {
    await build(parseTargets(process.argv.slice(2)));
  } catch (err) {
    log(`构建失败：${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
