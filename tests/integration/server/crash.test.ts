// A crash as it happens (issue 13, items 6 and 7), on SQLite and PostgreSQL: the standalone platform
// runs as a real process under a permissive umask (000) and analyses an upload whose lockfile names
// 60,000 packages (archive entries world-writable and setuid among them); while it saves the results
// — in one transaction, already writing the dependency edges after every component row — it is killed
// with SIGKILL. Then: nothing of the run is saved, its work folder is still on disk and, like every
// file the platform made, readable by its owner only. Restarted on the same data folder and
// database, the platform removes that folder before it listens and gives the run back to the queue
// at once (its process is gone), analyses it again and saves it whole, and leaves no work folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_STATUS } from '../../../contract/enums.ts';
import type { DatabaseConfig } from '../../../server/config.ts';
import { openDatabase } from '../../../server/db/connect.ts';
import type { Database } from '../../../server/db/schema.ts';
import { zip } from '../../unit/engine/sources/archives.ts';
import { databases } from './harness.ts';

const ENTRY = path.resolve(import.meta.dirname, '../../../server/server.ts');
const PACKAGES = 60_000;
const INITIAL_PASSWORD = 'Cairn@123';
const PASSWORD = 'Cairn@456x';

/** package.json and a package-lock.json v3 naming PACKAGES packages, each depending on the next two; odd modes on purpose. */
function largeProject(): Buffer {
  const packages: Record<string, unknown> = { '': { name: 'big-app', version: '1.0.0', dependencies: { 'pkg-0': '^1.0.0', 'pkg-1': '^1.1.0' } } };
  for (let i = 0; i < PACKAGES; i++) {
    const deps = Object.fromEntries([i + 1, i + 2].filter((j) => j < PACKAGES).map((j) => [`pkg-${j}`, `^1.${j}.0`]));
    packages[`node_modules/pkg-${i}`] = { version: `1.${i}.0`, resolved: `https://registry.npmjs.org/pkg-${i}/-/pkg-${i}-1.${i}.0.tgz`, license: 'MIT', ...(i + 1 < PACKAGES && { dependencies: deps }) };
  }
  return zip([
    { name: 'big-app/', mode: 0o040777 },
    { name: 'big-app/package.json', data: JSON.stringify({ name: 'big-app', version: '1.0.0', dependencies: { 'pkg-0': '^1.0.0', 'pkg-1': '^1.1.0' } }), mode: 0o100666 },
    { name: 'big-app/package-lock.json', data: JSON.stringify({ name: 'big-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }), mode: 0o100666 },
    { name: 'big-app/scripts/', mode: 0o040777 },
    { name: 'big-app/scripts/build.sh', data: '#!/bin/sh\necho build\n', mode: 0o104777 },
  ]);
}

interface Platform {
  child: ChildProcess;
  url: string;
  /** Log lines the platform printed (pino JSON on stdout). */
  lines: string[];
}

function startPlatform(config: DatabaseConfig, dataDir: string): Promise<Platform> {
  const child = spawn(process.execPath, [ENTRY], {
    env: {
      ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', CAIRN_DATA_DIR: dataDir, CAIRN_SCAN_CONCURRENCY: '1',
      CAIRN_ADMIN_PASSWORD: INITIAL_PASSWORD, DATABASE_URL: config.kind === 'postgres' ? config.url : '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        try {
          const event = JSON.parse(line) as { event?: string; url?: string };
          if (event.event === 'listening' && event.url) resolve({ child, url: event.url, lines });
        } catch {}
      }
    });
    child.once('exit', (code) => reject(new Error(`platform exited early with ${code}`)));
    // Generous for a loaded machine (it listens within a few seconds); a hang fails with its log.
    setTimeout(() => reject(new Error(`platform did not listen within 120 s:\n${lines.join('\n')}`)), 120_000).unref();
  });
}

/** A browser-like client over real HTTP: session cookie and CSRF token. */
function httpClient(url: string) {
  const cookies = new Map<string, string>();
  let csrf = '';
  const call = async (method: string, route: string, body?: unknown, type = 'application/json') => {
    const headers: Record<string, string> = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (method !== 'GET') headers['x-csrf-token'] = csrf;
    if (body !== undefined) headers['content-type'] = type;
    const res = await fetch(`${url}${route}`, { method, headers, body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body) });
    for (const line of res.headers.getSetCookie()) {
      const [name, ...value] = line.split(';')[0]!.split('=');
      if (value.join('=')) cookies.set(name!.trim(), value.join('='));
      else cookies.delete(name!.trim());
    }
    return (await res.json()) as { code: number; message: string; data: any };
  };
  return {
    call,
    async signIn() {
      csrf = (await call('POST', '/api/csrf')).data.token as string;
      const first = await call('POST', '/api/login', { username: 'admin', password: INITIAL_PASSWORD });
      if (first.code === 1) {
        const changed = await call('PATCH', '/api/user/modify', { oldPassword: INITIAL_PASSWORD, password: PASSWORD });
        expect(changed.code, changed.message).toBe(1);
        csrf = (await call('POST', '/api/csrf')).data.token as string;
      }
      const login = await call('POST', '/api/login', { username: 'admin', password: PASSWORD });
      expect(login.code, login.message).toBe(1);
    },
  };
}

/**
 * Whether the saving transaction is well under way, uncommitted: on PostgreSQL it holds its lock on
 * run_edges (every component row is written, the edges are being written); on SQLite a write
 * transaction is open (another connection cannot start one) and has spilled at least 4 MiB of
 * pages into the WAL since saving began.
 */
async function midSave(config: DatabaseConfig, db: Kysely<Database>, walAtSaving: number): Promise<boolean> {
  if (config.kind === 'postgres') {
    const held = await sql<{ n: number }>`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
      where c.relname = 'run_edges' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`.execute(db);
    return held.rows[0]!.n > 0;
  }
  if (walSize(config) < walAtSaving + 4 * 1024 * 1024) return false;
  const probe = new SQLite(config.file, { timeout: 0 });
  try {
    probe.exec('BEGIN IMMEDIATE');
    probe.exec('ROLLBACK');
    return false;
  } catch {
    return true;
  } finally {
    probe.close();
  }
}

const walSize = (config: DatabaseConfig) => (config.kind === 'sqlite' ? fs.statSync(`${config.file}-wal`, { throwIfNoEntry: false })?.size ?? 0 : 0);

/** Every entry under `dir` with its permission bits. */
function modesUnder(dir: string): Map<string, number> {
  const modes = new Map<string, number>([['.', fs.lstatSync(dir).mode & 0o7777]]);
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    modes.set(path.relative(dir, full), fs.lstatSync(full).mode & 0o7777);
  }
  return modes;
}

const countRows = async (db: Kysely<Database>, table: 'run_components' | 'run_edges' | 'run_licenses' | 'run_files', runId: number) =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('run_id', '=', runId).executeTakeFirstOrThrow()).n);

describe.each(databases)('kill -9 of the platform mid-save on $name', (database) => {
  let config: DatabaseConfig;
  let drop: () => Promise<void>;
  let dataDir: string;
  let db: Kysely<Database>;
  let umask: number;
  const started: ChildProcess[] = [];
  beforeAll(async () => {
    ({ config, drop } = await database.create());
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-crash-')), 'data');
    // The standalone platform keeps its SQLite database in its data folder.
    if (config.kind === 'sqlite') config = { kind: 'sqlite', file: path.join(dataDir, 'cairn.db') };
    umask = process.umask(0o000);
  });
  afterAll(async () => {
    process.umask(umask);
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await db?.destroy();
    await drop?.();
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  it.skipIf(process.platform === 'win32')('leaves no partial rows; each restart sweeps the work folder, and the run is saved whole in the end', async () => {
    const work = path.join(dataDir, 'work');

    let platform = await startPlatform(config, dataDir);
    started.push(platform.child);
    const client = httpClient(platform.url);
    await client.signIn();
    const subject = await client.call('POST', '/api/subject/create', { name: '崩溃测试' });
    expect(subject.code, subject.message).toBe(1);
    const archive = largeProject();
    const upload = await client.call('POST', '/api/upload', { fileName: 'big-app.zip', size: archive.length });
    expect(upload.code, upload.message).toBe(1);
    const put = await client.call('PUT', `/api/upload/${upload.data.uploadId}?offset=0`, archive, 'application/octet-stream');
    expect(put.code, put.message).toBe(1);
    const launched = await client.call('POST', '/api/analysis', { subjectId: subject.data.id, projectName: 'big-app', getCodeType: 0, uploadId: upload.data.uploadId });
    expect(launched.code, launched.message).toBe(1);

    // The test's own connection to the same database.
    db = openDatabase(config).db;
    const { id: runId } = await db.selectFrom('runs').select(['id']).where('project_id', '=', launched.data.projectId as number).executeTakeFirstOrThrow();
    const runRow = () => db.selectFrom('runs').select(['status', 'stage', 'worker', 'message']).where('id', '=', runId).executeTakeFirstOrThrow();
    /** Polls until `ready` says so; the run must neither fail nor finish meanwhile. */
    const waitUntil = async (ready: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline) {
        const row = await runRow();
        expect(row.status, row.message).not.toBe(TASK_STATUS.FAILED);
        expect(row.status, `the run finished before ${what}`).not.toBe(TASK_STATUS.SUCCEEDED);
        if (await ready()) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    const kill = async () => {
      platform.child.kill('SIGKILL');
      await once(platform.child, 'exit');
    };
    /** Nothing of the run is saved and it still shows 分析中 for the dead worker; its work folder is all that is left. */
    const expectKilledState = async (): Promise<{ folder: string; worker: string | null }> => {
      const row = await runRow();
      expect(row.status).toBe(TASK_STATUS.ANALYSING);
      for (const table of ['run_components', 'run_edges', 'run_licenses', 'run_files'] as const) expect(await countRows(db, table, runId), table).toBe(0);
      const left = fs.readdirSync(work);
      expect(left).toHaveLength(1);
      expect(left[0]).toMatch(new RegExp(`^run-${runId}-[0-9a-f]{12}-`));
      return { folder: left[0]!, worker: row.worker };
    };
    /** Restarted: the dead run's folder is gone before the platform listens, and the run back in the queue at once. */
    const restart = async (killed: { folder: string; worker: string | null }) => {
      platform = await startPlatform(config, dataDir);
      started.push(platform.child);
      expect(fs.readdirSync(work)).not.toContain(killed.folder);
      const swept = platform.lines.map((l) => JSON.parse(l) as { msg?: string }).find((l) => l.msg === 'work folders of interrupted analyses removed');
      expect(swept).toMatchObject({ removed: 1, requeued: 1 });
      const row = await runRow();
      expect(row.worker).not.toBe(killed.worker);
      expect([TASK_STATUS.RESEND, TASK_STATUS.ANALYSING]).toContain(row.status);
    };

    // 1. Killed while the upload lies unpacked in the work folder.
    const lockfile = () => fs.readdirSync(work, { recursive: true }).some((p) => String(p).endsWith(path.join('root', 'big-app', 'package-lock.json')));
    await waitUntil(async () => fs.existsSync(work) && lockfile(), 'the upload was unpacked');
    await kill();
    const unpacked = await expectKilledState();
    // Owner-only through and through, under umask 000 and whatever modes the archive's entries had.
    const modes = modesUnder(path.join(work, unpacked.folder));
    expect([...modes.keys()].some((p) => p.endsWith(path.join('big-app', 'scripts', 'build.sh')))).toBe(true);
    for (const [p, mode] of modes) {
      const isDir = fs.lstatSync(path.join(work, unpacked.folder, p)).isDirectory();
      expect(mode, p).toBe(isDir || p.endsWith('build.sh') ? 0o700 : 0o600);
    }
    // And so are the data folder and what is in it: the database (-wal, -shm), the upload.
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const top = fs.readdirSync(dataDir);
    for (const name of top) expect(fs.lstatSync(path.join(dataDir, name)).mode & 0o777, name).toBe(fs.lstatSync(path.join(dataDir, name)).isDirectory() ? 0o700 : 0o600);
    if (database.name === 'sqlite') expect(top).toEqual(expect.arrayContaining(['cairn.db', 'cairn.db-wal', 'cairn.db-shm', 'uploads', 'work']));
    for (const [p, mode] of modesUnder(path.join(dataDir, 'uploads'))) expect(mode, p).toBe(p === '.' ? 0o700 : 0o600);

    await restart(unpacked);

    // 2. Killed mid-save: the transaction has written every component row and is writing the edges.
    let walAtSaving: number | null = null;
    await waitUntil(async () => {
      if (walAtSaving === null && (await runRow()).stage === 'saving') walAtSaving = walSize(config);
      return walAtSaving !== null && midSave(config, db, walAtSaving);
    }, 'the results were being saved');
    await kill();
    const midSaveKilled = await expectKilledState();
    // The engine's own folder went when the analysis ended; the run's stays until it is saved.
    expect(fs.readdirSync(path.join(work, midSaveKilled.folder))).toEqual(['owner.json']);

    await restart(midSaveKilled);

    // 3. Analysed again and saved whole: every component once; no work folder left.
    const deadline = Date.now() + 240_000;
    let final = await runRow();
    while (final.status !== TASK_STATUS.SUCCEEDED && final.status !== TASK_STATUS.FAILED && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      final = await runRow();
    }
    expect(final).toMatchObject({ status: TASK_STATUS.SUCCEEDED, message: '分析完成' });
    expect(await countRows(db, 'run_components', runId)).toBe(PACKAGES);
    const distinct = await db.selectFrom('run_components').select(sql<number>`count(distinct purl)`.as('n')).where('run_id', '=', runId).executeTakeFirstOrThrow();
    expect(Number(distinct.n)).toBe(PACKAGES);
    // The run's folder goes as its job ends, just after the commit.
    for (let i = 0; i < 600 && fs.readdirSync(work).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.readdirSync(work)).toEqual([]);

    platform.child.kill('SIGTERM');
    const [code] = await once(platform.child, 'exit');
    expect(code).toBe(0);
  }, 720_000);
});
