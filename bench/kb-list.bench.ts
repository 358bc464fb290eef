// Issue 13: the knowledge-base vulnerability list under load. The platform runs in a child process
// (bench/platform.ts; SQLite, or PostgreSQL when CAIRN_BENCH_PG_URL is set) with the corpora's
// advisories (about 8,000); CLIENTS signed-in clients (each its own session and its own keep-alive
// connection, made when it signs in, as 100 browsers would have) call POST /api/vulnerability/list
// back to back, each asking the next of the first 20
// pages of 15 in the default order. The load is bounded: it stops after REQUESTS answers or
// SECONDS seconds, whichever comes first. Recorded: answers per second, latency percentiles,
// failures, the platform's worst event-loop delay. Run: `npm run bench -- kb-list`
// (CAIRN_BENCH_CLIENTS, CAIRN_BENCH_REQUESTS, CAIRN_BENCH_SECONDS change the bounds).
import http from 'node:http';
import { cpus } from 'node:os';
import {
  BenchClient, benchDatabase, fmt, loadAverage, prepareDatabase, quantile, startPlatform, type Platform,
} from './platform.ts';

const CLIENTS = Number(process.env.CAIRN_BENCH_CLIENTS ?? 100);
const REQUESTS = Number(process.env.CAIRN_BENCH_REQUESTS ?? 5000);
const SECONDS = Number(process.env.CAIRN_BENCH_SECONDS ?? 30);
const PAGES = 20;

export async function run(): Promise<void> {
  const database = await benchDatabase();
  let platform: Platform | undefined;
  const agents = Array.from({ length: CLIENTS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    if (database.config.kind === 'sqlite') await prepareDatabase(database.config, database.dataDir);
    platform = await startPlatform(database, { scanConcurrency: 0 });
    const clients = agents.map((agent) => new BenchClient(platform!.url, agent));
    // Signed in one after another (a login is an scrypt check by design), before the clock starts.
    for (const client of clients) await client.signIn('admin', 'Cairn@123');
    const first = await clients[0]!.call<{ total: number }>('POST', '/api/vulnerability/list?page=1&size=15', {});
    console.log(`${database.config.kind}，${cpus().length} 核，负载 ${loadAverage()}；知识库 ${first.total} 条漏洞；${CLIENTS} 个已登录客户端，至多 ${REQUESTS} 次或 ${SECONDS} 秒`);

    const times: number[] = [];
    let failed = 0;
    let sent = 0;
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    const windowsFrom = Date.now();
    await Promise.all(clients.map(async (client, c) => {
      for (let i = 0; sent < REQUESTS && performance.now() < deadline; i++) {
        sent++;
        const page = 1 + ((c + i) % PAGES);
        const answer = await client.request('POST', `/api/vulnerability/list?page=${page}&size=15`, {});
        times.push(answer.ms);
        if (answer.status !== 200 || answer.body.code !== 1) failed++;
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    const loop = platform.windows.filter((w) => w.at >= windowsFrom);
    console.log(`| 并发客户端 | 次数 | 用时 | 次/秒 | p50 | p95 | p99 | 最大 | 失败 | 事件循环最大延迟 | 负载 |`);
    console.log(`|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|`);
    console.log(`| ${CLIENTS} | ${times.length} | ${seconds.toFixed(1)} s | ${(times.length / seconds).toFixed(1)} | ${fmt(quantile(times, 0.5))} | ${fmt(quantile(times, 0.95))} | ${fmt(quantile(times, 0.99))} | ${fmt(Math.max(0, ...times))} | ${failed} | ${fmt(Math.max(0, ...loop.map((w) => w.max)))} | ${loadAverage()} |`);
  } finally {
    for (const agent of agents) agent.destroy();
    await platform?.stop();
    await database.drop();
  }
}
