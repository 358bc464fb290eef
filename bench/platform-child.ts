// The embedded platform as the benchmarks run it: a child process started by bench/platform.ts,
// built exactly as server/server.ts builds it (buildApp with the environment's settings), plus a
// bench-only diagnostic of the event loop that the platform itself never exposes: every 250 ms the
// delay histogram of perf_hooks.monitorEventLoopDelay (max, p99, mean) and every stall of the loop
// longer than 50 ms, sent to the parent over the fork IPC channel.
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';

const send = (message: unknown) => process.send?.(message);

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
setInterval(() => {
  send({ type: 'loop', at: Date.now(), max: histogram.max / 1e6, p99: histogram.percentile(99) / 1e6, mean: histogram.mean / 1e6 });
  histogram.reset();
}, 250).unref();

// A 20 ms ticker: a tick that comes late by more than 50 ms is one stall of the loop.
const TICK = 20;
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - last - TICK;
  if (late > 50) send({ type: 'stall', at: Date.now() - late, ms: late });
  last = now;
}, TICK).unref();

const config = loadConfig();
const app = await buildApp({
  database: config.database,
  dataDir: config.dataDir,
  scanConcurrency: config.scanConcurrency,
  adminPassword: config.adminPassword,
  sessionTtlMinutes: config.sessionTtlMinutes,
  logLevel: process.env.LOG_LEVEL ?? 'warn',
});

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'shutdown') return;
  void app.close().finally(() => process.exit(0));
});

await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as AddressInfo;
send({ type: 'listening', url: `http://127.0.0.1:${port}` });
