// Crash leftovers (issue 13, item 7), on SQLite and PostgreSQL: a platform starting on a data folder
// that dead processes left work folders and half-written report files in removes those of runs and
// reports no live worker holds — a worker elsewhere that went silent, a process of this machine that
// is gone (its run goes back to the queue at once), a run that has finished or was claimed again,
// an older version's folder — and keeps those of a worker elsewhere that is still beating and of a
// run this process is running. The real kill -9 of a platform mid-save is crash.test.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TASK_STATUS, EXPORT_STATUS } from '../../../contract/enums.ts';
import { buildApp } from '../../../server/app.ts';
import { openRunFolder, sweepWorkFolders, workRoot } from '../../../server/jobs/leftovers.ts';
import { databases, type TestDatabase } from './harness.ts';

const MINUTE = 60_000;
const tag = (worker: string) => createHash('sha256').update(worker).digest('hex').slice(0, 12);
const pidNamespace = (() => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
})();

/** A process id that existed and is gone: a child that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

/** A work folder as a process of `host` running as `pid` would have made it for `worker`'s claim of `runId`. */
function leftFolder(dataDir: string, runId: number, worker: string, owner?: { host: string; pid: number }): string {
  const dir = path.join(workRoot(dataDir), `run-${runId}-${tag(worker)}-${Math.random().toString(36).slice(2, 8)}`);
  fs.mkdirSync(path.join(dir, 'analysis-x/root/src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'analysis-x/root/src/package-lock.json'), '{}');
  if (owner) fs.writeFileSync(path.join(dir, 'owner.json'), JSON.stringify({ runId, worker, ...owner, pidNamespace, createdAt: new Date().toISOString() }));
  return dir;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function platformOn(database: TestDatabase) {
  const { config, drop } = await database.create();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-leftovers-'));
  // Analyses nothing itself: the runs stay as the sweep leaves them.
  const app = await buildApp({ database: config, dataDir, logLevel: 'silent', scanConcurrency: 0 });
  cleanups.push(async () => {
    await app.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const { db } = app.cairn;
  const now = new Date().toISOString();
  const subject = await db.insertInto('subjects').values({ uuid: `s-${Date.now()}`, name: '遗留', owner_id: null, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const project = await db.insertInto('projects').values({ subject_id: subject.id, name: 'p', get_code_type: 0, analysis_modes: '1', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  let seq = 0;
  const run = async (status: number, worker: string | null, beatAgoMs: number | null) => (await db.insertInto('runs').values({
    project_id: project.id, seq: ++seq, status, analysis_modes: '1', worker, queued_at: now, started_at: now,
    heartbeat_at: beatAgoMs === null ? null : new Date(Date.now() - beatAgoMs).toISOString(),
  }).returning('id').executeTakeFirstOrThrow()).id;
  const report = async (status: number, worker: string | null, beatAgoMs: number | null) => Number((await db.insertInto('reports').values({
    kind: 'task', report_type: 3, status, name: `r${++seq}.pdf`, worker, created_at: now,
    heartbeat_at: beatAgoMs === null ? null : new Date(Date.now() - beatAgoMs).toISOString(),
  }).returning('id').executeTakeFirstOrThrow()).id);
  return { app, db, dataDir, run, report };
}

describe.each(databases)('crash leftovers on $name', (database) => {
  it('start-up removes the work folders of dead runs only, and gives a dead local worker\'s run back at once', async () => {
    const { app, db, dataDir, run } = await platformOn(database);
    const far = 'far-host#4242#0a1b2c';
    const beating = 'far-host#4343#0d0e0f';
    const here = `${os.hostname()}#${deadPid()}#a1b2c3`;
    const silentRun = await run(TASK_STATUS.ANALYSING, far, 10 * MINUTE);
    const liveRun = await run(TASK_STATUS.ANALYSING, beating, 5_000);
    const killedRun = await run(TASK_STATUS.ANALYSING, here, 5_000);
    const finishedRun = await run(TASK_STATUS.SUCCEEDED, null, null);
    const reclaimedRun = await run(TASK_STATUS.ANALYSING, beating, 5_000);
    const folders = {
      silent: leftFolder(dataDir, silentRun, far, { host: 'far-host', pid: 4242 }),
      live: leftFolder(dataDir, liveRun, beating, { host: 'far-host', pid: 4343 }),
      killed: leftFolder(dataDir, killedRun, here, { host: os.hostname(), pid: Number(here.split('#')[1]) }),
      finished: leftFolder(dataDir, finishedRun, far),
      // The run was given back and claimed again by another worker: the first claim's folder is dead.
      reclaimed: leftFolder(dataDir, reclaimedRun, far),
      oldVersion: path.join(workRoot(dataDir), 'run-Ab12Cd'),
      recentUnknown: path.join(workRoot(dataDir), 'run-Xy34Zw'),
    };
    fs.mkdirSync(path.join(folders.oldVersion, 'root'), { recursive: true });
    fs.mkdirSync(folders.recentUnknown);
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    fs.utimesSync(folders.oldVersion, twoDaysAgo, twoDaysAgo);

    await app.ready();

    const left = fs.readdirSync(workRoot(dataDir)).map((name) => path.join(workRoot(dataDir), name)).sort();
    expect(left).toEqual([folders.live, folders.recentUnknown].sort());
    const status = async (id: number) => db.selectFrom('runs').select(['status', 'worker', 'message']).where('id', '=', id).executeTakeFirstOrThrow();
    // Its process is gone: back in the queue now, not after the two-minute silence limit.
    expect(await status(killedRun)).toEqual({ status: TASK_STATUS.RESEND, worker: null, message: '分析进程中断，任务已重新排队' });
    // Silent for ten minutes: the job loop gave it back.
    expect((await status(silentRun)).status).toBe(TASK_STATUS.RESEND);
    expect(await status(liveRun)).toMatchObject({ status: TASK_STATUS.ANALYSING, worker: beating });

    // Once that worker goes silent too, its folder is a leftover.
    const later = await sweepWorkFolders(db, dataDir, { staleMs: 2 * MINUTE, now: Date.now() + 3 * MINUTE });
    expect(later.removed).toEqual([folders.live]);
    expect(later.deadWorkers).toEqual([]);
  });

  it('never sweeps the folder of a run this process is running, and the folder is owner-only', async () => {
    const { app, db, dataDir, run } = await platformOn(database);
    await app.ready();
    // Whatever the database says (here: nobody holds the run), a folder of this process is kept.
    const runId = await run(TASK_STATUS.FAILED, null, null);
    const umask = process.umask(0o000);
    let folder;
    try {
      folder = await openRunFolder(dataDir, runId, 'this-process#1#ffffff');
    } finally {
      process.umask(umask);
    }
    expect(fs.statSync(folder.dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder.dir, 'owner.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(workRoot(dataDir)).mode & 0o777).toBe(0o700);
    expect((await sweepWorkFolders(db, dataDir, { staleMs: 2 * MINUTE })).removed).toEqual([]);
    expect(fs.existsSync(folder.dir)).toBe(true);
    await folder.close();
    expect(fs.existsSync(folder.dir)).toBe(false);
  });

  it('start-up removes half-written report files of reports no longer being generated', async () => {
    const { app, dataDir, report } = await platformOn(database);
    const failed = await report(EXPORT_STATUS.FAILED, null, null);
    const generating = await report(EXPORT_STATUS.GENERATING, 'far-host#4343#0d0e0f', 5_000);
    const done = await report(EXPORT_STATUS.SUCCEEDED, null, null);
    const put = (id: number, name: string) => {
      fs.mkdirSync(path.join(dataDir, 'reports', String(id)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'reports', String(id), name), 'x');
    };
    put(failed, 'a.pdf.part');
    put(generating, 'b.pdf.part');
    put(done, 'c.pdf');
    put(done, 'c.pdf.part');

    await app.ready();

    expect(fs.existsSync(path.join(dataDir, 'reports', String(failed)))).toBe(false);
    expect(fs.readdirSync(path.join(dataDir, 'reports', String(generating)))).toEqual(['b.pdf.part']);
    expect(fs.readdirSync(path.join(dataDir, 'reports', String(done)))).toEqual(['c.pdf']);
  });
});
