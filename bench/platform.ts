// What the platform benchmarks over HTTP share: the knowledge base of the corpora's advisories as a
// cached SQLite template, a database prepared in-process before the platform starts, the platform
// as a child process (bench/platform-child.ts, with its event-loop diagnostic), a keep-alive HTTP
// client that signs in like the desktop's API client, and latency percentiles.
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import type { DatabaseConfig } from '../server/config.ts';
import { migrationsFor } from '../server/db/migrations/index.ts';
import { importKnowledge } from '../server/kb/import.ts';
import { openKnowledgeBase } from '../server/kb/open.ts';

export const CORPORA = path.resolve(import.meta.dirname, '../../shared/corpora');
/** The corpora's advisories (about 8,000): what the platform's knowledge base holds in the benchmarks. */
export const ADVISORY_SOURCES = ['advisories/go', 'advisories/crates.io', 'advisories/pypi'];

// ---- databases ----------------------------------------------------------------------------------

/**
 * A SQLite file holding the corpora's advisories, imported once and kept in the temp folder (keyed
 * by the migrations, so a schema change imports again): copy it to start a platform with them.
 */
export async function knowledgeBaseTemplate(): Promise<string> {
  const key = createHash('sha256').update(Object.keys(migrationsFor('sqlite')).join(',')).update(ADVISORY_SOURCES.join(',')).digest('hex').slice(0, 12);
  const file = path.join(tmpdir(), `cairn-bench-kb-${key}.db`);
  if (existsSync(file)) return file;
  const started = performance.now();
  const work = `${file}.${process.pid}`;
  const kb = await openKnowledgeBase(work);
  try {
    for (const source of ADVISORY_SOURCES) await importKnowledge(kb.db, path.join(CORPORA, source));
  } finally {
    await kb.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(work + suffix, { force: true });
  renameSync(work, file);
  console.log(`知识库模板：导入 ${ADVISORY_SOURCES.join('、')} 用时 ${((performance.now() - started) / 1000).toFixed(1)} 秒（缓存于 ${file}）`);
  return file;
}

export interface BenchDatabase {
  config: DatabaseConfig;
  /** Platform data folder (uploads, work files). */
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one benchmark: a SQLite file copied from the knowledge-base template, or,
 * when CAIRN_BENCH_PG_URL names a PostgreSQL server (an administrator's URL), a new database there
 * with the advisories imported into it.
 */
export async function benchDatabase(): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cairn-bench-platform-'));
  const adminUrl = process.env.CAIRN_BENCH_PG_URL?.trim();
  if (!adminUrl) {
    const file = path.join(dataDir, 'cairn.db');
    copyFileSync(await knowledgeBaseTemplate(), file);
    return { config: { kind: 'sqlite', file }, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `cairn_bench_${Date.now().toString(36)}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try { await client.query(text); } finally { await client.end(); }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const config: DatabaseConfig = { kind: 'postgres', url: url.toString() };
  await prepareDatabase(config, dataDir, async (app) => {
    for (const source of ADVISORY_SOURCES) await importKnowledge(app.cairn.db, path.join(CORPORA, source));
  });
  return {
    config, dataDir,
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the database in this process as the platform would (migrated, seeded), lets `work` fill
 * it, and closes it again before the platform starts. The administrator's first-login password
 * change is recorded as done.
 */
export async function prepareDatabase(config: DatabaseConfig, dataDir: string, work: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<void> = async () => {}): Promise<void> {
  const app = await buildApp({ database: config, dataDir, logLevel: 'silent', scanConcurrency: 0 });
  try {
    await app.cairn.db.updateTable('users').set({ updated_pwd: 1 }).where('username', '=', 'admin').execute();
    await work(app);
  } finally {
    await app.close();
  }
}

// ---- the platform in a child process ------------------------------------------------------------

export interface LoopWindow {
  /** End of the 250 ms window (epoch ms). */
  at: number;
  max: number;
  p99: number;
  mean: number;
}

export interface Stall {
  /** When the loop stopped turning (epoch ms). */
  at: number;
  ms: number;
}

export interface Platform {
  url: string;
  child: ChildProcess;
  windows: LoopWindow[];
  stalls: Stall[];
  stop(): Promise<void>;
}

/**
 * Starts the platform on `database` in a child process (bench/platform-child.ts). CAIRN_BENCH_CPU_PROF
 * names a folder for a CPU profile of it (node --cpu-prof), written when it stops.
 */
export async function startPlatform(database: BenchDatabase, options: { scanConcurrency?: number } = {}): Promise<Platform> {
  const profDir = process.env.CAIRN_BENCH_CPU_PROF?.trim();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CAIRN_DATA_DIR: database.dataDir,
    CAIRN_SCAN_CONCURRENCY: String(options.scanConcurrency ?? 1),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  if (database.config.kind === 'postgres') env.DATABASE_URL = database.config.url;
  else delete env.DATABASE_URL;
  const child = fork(path.join(import.meta.dirname, 'platform-child.ts'), [], {
    env,
    execArgv: profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const windows: LoopWindow[] = [];
  const stalls: Stall[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { type: string } & Record<string, any>) => {
      if (message.type === 'listening') resolve(message.url as string);
      else if (message.type === 'loop') windows.push(message as unknown as LoopWindow);
      else if (message.type === 'stall') stalls.push(message as unknown as Stall);
    });
    child.once('exit', (code) => reject(new Error(`平台进程退出（${code}）`)));
  });
  return {
    url, child, windows, stalls,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.send({ type: 'shutdown' });
      setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
    }),
  };
}

// ---- an HTTP client --------------------------------------------------------------------------------

export interface Answer<T = any> {
  status: number;
  body: { code: number; message: string; data: T };
  ms: number;
}

/**
 * One signed-in user agent over keep-alive HTTP: its cookies and CSRF token, as main/'s API client
 * keeps them. Requests from many clients may share one agent (one connection pool).
 */
export class BenchClient {
  private readonly cookies = new Map<string, string>();
  private csrf = '';
  private readonly base: URL;
  private readonly agent: http.Agent;

  constructor(base: string, agent: http.Agent) {
    this.base = new URL(base);
    this.agent = agent;
  }

  /** Sends one request; `raw` is sent as is (an upload chunk), anything else as JSON. */
  request<T = any>(method: string, url: string, body?: unknown, raw?: Buffer): Promise<Answer<T>> {
    const payload = raw ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
    const headers: Record<string, string | number> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (payload) {
      headers['content-type'] = raw ? 'application/octet-stream' : 'application/json';
      headers['content-length'] = payload.length;
    }
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request({ host: this.base.hostname, port: this.base.port, method, path: url, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const line of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
            const [pair] = line.split(';');
            const [k, ...v] = pair!.split('=');
            if (/max-age=0/i.test(line)) this.cookies.delete(k!.trim());
            else this.cookies.set(k!.trim(), v.join('='));
          }
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Answer<T>['body'];
          try {
            parsed = JSON.parse(text) as Answer<T>['body'];
          } catch {
            parsed = { code: -1, message: text.slice(0, 200), data: undefined as T };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, ms: performance.now() - started });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A call that must succeed: its data. */
  async call<T = any>(method: string, url: string, body?: unknown): Promise<T> {
    const answer = await this.request<T>(method, url, body);
    if (answer.body.code !== 1) throw new Error(`${method} ${url}: ${answer.status} ${answer.body.message}`);
    return answer.body.data;
  }

  async signIn(username: string, password: string): Promise<void> {
    this.csrf = (await this.call<{ token: string }>('POST', '/api/csrf')).token;
    await this.call('POST', '/api/login', { username, password });
  }

  /** Uploads a file in 16 MiB chunks; its upload id. */
  async upload(file: string): Promise<string> {
    const bytes = readFileSync(file);
    const { uploadId } = await this.call<{ uploadId: string }>('POST', '/api/upload', { fileName: path.basename(file), size: bytes.length });
    const CHUNK = 16 * 1024 * 1024;
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      const answer = await this.request('PUT', `/api/upload/${uploadId}?offset=${offset}`, undefined, bytes.subarray(offset, offset + CHUNK));
      if (answer.body.code !== 1) throw new Error(`上传失败：${answer.body.message}`);
    }
    return uploadId;
  }
}

// ---- figures ----------------------------------------------------------------------------------------

/** The q-quantile (0..1) of `values` (nearest rank); 0 when there are none. */
export function quantile(values: number[], q: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/** The machine's load average now, for the figures' record. */
export const loadAverage = () => (process.platform === 'linux' ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'n/a');
