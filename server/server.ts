// Standalone entry: `node server/server.ts`, a forked child, or an Electron utilityProcess.
// Announces its URL (the port may be random) on stdout, over the fork IPC channel and over
// Electron's parentPort, and shuts down cleanly on SIGTERM/SIGINT or a {type:'shutdown'} message.
// Run from sources, it hands over to the built bundle (dist/server/server.js, `npm run build`) when
// that was built from the sources as they are (server/launch.ts): the app is imported only after
// that choice, so the sources' modules are not loaded for nothing.
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { buildApp } from './app.ts';
import type { loadConfig } from './config.ts';
import { bundleToRun, enableCompileCache } from './launch.ts';

/** Electron's utilityProcess adds process.parentPort; plain Node does not have it. */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

const isShutdown = (message: unknown) =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'shutdown';

/** Tells the supervisor on every channel it may be listening on; resolves once IPC has sent it. */
function announce(event: { type: 'listening'; url: string } | { type: 'error'; message: string }): Promise<void> {
  const { type, ...rest } = event;
  process.stdout.write(`${JSON.stringify({ event: type, ...rest })}\n`);
  parentPort?.postMessage(event);
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(event, undefined, {}, () => resolve());
  });
}

async function serve(): Promise<void> {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let config: ReturnType<typeof loadConfig>;
  try {
    const [{ buildApp }, { loadConfig }] = await Promise.all([import('./app.ts'), import('./config.ts')]);
    config = loadConfig();
    app = await buildApp({
      database: config.database,
      dataDir: config.dataDir,
      scanConcurrency: config.scanConcurrency,
      adminPassword: config.adminPassword,
      sessionTtlMinutes: config.sessionTtlMinutes,
      logLevel: config.logLevel,
      loginRateLimits: config.loginRateLimits,
      trustProxy: config.trustProxy,
      kbSync: config.kbSync,
    });
  } catch (error) {
    // No logger yet: say why on stderr and to the supervisor, then stop.
    const message = error instanceof Error ? error.message : String(error);
    console.error(error);
    await announce({ type: 'error', message: `平台启动失败：${message}` });
    process.exit(1);
  }

  let closing = false;
  async function shutdown(reason: string): Promise<void> {
    if (closing) return;
    closing = true;
    app.log.info({ reason }, 'shutting down');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  }

  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.on('message', (message) => { if (isShutdown(message)) void shutdown('message'); });
  parentPort?.on('message', (event) => { if (isShutdown(event.data)) void shutdown('parentPort'); });

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    app.log.error({ err: error }, 'listen failed');
    await app.close();
    process.exit(1);
  }

  const { address, port } = app.server.address() as AddressInfo;
  await announce({ type: 'listening', url: `http://${address.includes(':') ? `[${address}]` : address}:${port}` });
}

enableCompileCache();
const bundle = bundleToRun('server', import.meta.filename);
if (bundle) await import(pathToFileURL(bundle).href);
else await serve();
