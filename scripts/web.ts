// `npm run web`: build what the web host serves if it is missing or older than its sources
// (renderer -> dist/renderer, preload/web.ts -> dist/web/desktop.js), then run the web host.
// Arguments are passed on to it (e.g. --port 8080).
import { build, isStale, type Target } from './build.ts';

export async function runWeb(argv: string[] = process.argv.slice(2)): Promise<void> {
  // Ctrl+C while building must stop us (the bundlers install signal handlers of their own).
  const abort = (signal: NodeJS.Signals) => {
    process.stderr.write(`收到 ${signal}，已取消\n`);
    process.exit(130);
  };
  process.on('SIGINT', abort);
  process.on('SIGTERM', abort);
  try {
    await buildMissing();
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
  const { main } = await import('../main/web-host/cli.ts');
  await main(argv);
}

async function buildMissing(): Promise<void> {
  for (const target of ['web', 'renderer'] as Target[]) {
    if (!isStale(target)) continue;
    try {
      await build([target]);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Without the bridge script nothing works; without the renderer the host still explains what is missing.
      if (target === 'web') throw new Error(`构建网页桥接脚本失败：${message}`, { cause: err });
      process.stderr.write(`警告：界面构建失败（${message}），网页模式将提示界面尚未构建\n`);
    }
  }
}

if (import.meta.main) {
  runWeb().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
