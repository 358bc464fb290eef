// `npm start`: the desktop app when an Electron runtime is present (build everything, launch
// Electron); otherwise say so in Chinese and fall back to the web host (design.md §1). The
// electron package's own index.js is not used to find the binary: when it is missing, that file
// tries to download it, which cannot work on our build machines.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, root } from './build.ts';
import { runWeb } from './web.ts';

/** The Electron binary if it is installed and actually runs, else null with the reason. */
export function findElectron(): { path: string } | { path: null; reason: string } {
  let pkgDir: string;
  try {
    pkgDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { path: null, reason: '未安装 electron 包' };
  }
  const pathFile = path.join(pkgDir, 'path.txt');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  if (!executable && !override) return { path: null, reason: 'Electron 二进制未下载（缺少 path.txt）' };
  const binary = override ? path.join(override, executable || 'electron') : path.join(pkgDir, 'dist', executable!);
  if (!existsSync(binary)) return { path: null, reason: `找不到 ${binary}` };
  const probe = spawnSync(binary, ['--version'], { timeout: 20_000, encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
  if (probe.status !== 0) return { path: null, reason: `Electron 无法运行（${probe.error?.message ?? probe.stderr?.trim() ?? `退出码 ${probe.status}`}）` };
  return { path: binary };
}

async function start(): Promise<void> {
  const electron = findElectron();
  if (electron.path === null) {
    process.stderr.write(`未找到 Electron 运行时（本机无法下载 Electron 二进制），改用网页模式。原因：${electron.reason}\n`);
    await runWeb(process.argv.slice(2));
    return;
  }
  await build();
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(electron.path, [root, ...process.argv.slice(2)], { stdio: 'inherit', env });
  // Let Electron handle Ctrl+C itself (it stops the embedded platform before quitting).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (import.meta.main) {
  start().catch((err: unknown) => {
    process.stderr.write(`启动失败：${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
