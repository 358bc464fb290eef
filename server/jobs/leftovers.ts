// What dead processes leave on disk. An analysis works in `<dataDir>/work/run-<run id>-<claim>-XXXXXX`
// (its upload unpacked, the engine's temporary files), made by the process that claimed the run and
// removed by it when the run ends, whatever the end; `<claim>` is a hash of the claiming worker's
// name, and `owner.json` in the folder says which process on which machine holds it. A process that
// dies with the run (kill -9, out of memory, power loss) leaves its folder: the sweep removes every
// folder whose run is no longer claimed by a live worker, at start-up, when the job loop gives runs
// of silent workers back, and every few hours. Several processes may share the data folder (workers
// on other machines, over PostgreSQL): a folder is alive while the runs table shows its run
// 分析中 for the worker that made it, beating within the job loop's silence limit; a folder whose
// owner was a process of this machine (and of this PID namespace) that no longer exists is dead at
// once, and its run goes back to the queue without waiting for that limit. Report files are written
// as `<name>.part` and renamed when whole: a `.part` beside a report that is not being generated is
// a leftover too.
import { createHash } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { EXPORT_STATUS, TASK_STATUS } from '../../contract/enums.ts';
import { findReports } from '../db/repositories/reports.ts';
import { findRuns } from '../db/repositories/runs.ts';
import type { Database } from '../db/schema.ts';
import { makePrivateTempDir, writePrivateFile } from '../files/private.ts';

/** Where analyses work. */
export const workRoot = (dataDir: string): string => path.join(dataDir, 'work');

/** How often the data folder is swept (abandoned uploads, leftovers). */
export const SWEEP_EVERY_MS = 6 * 3600 * 1000;

/** An entry of the work folder this version did not name (an older version's `run-XXXXXX`): removed once this old. */
const UNKNOWN_AFTER_MS = 24 * 3600 * 1000;
const OWNER_FILE = 'owner.json';
const FOLDER = /^run-(\d+)-([0-9a-f]{12})-/;

interface Owner {
  runId: number;
  worker: string;
  host: string;
  pid: number;
  /** Linux PID namespace (`pid:[4026531836]`): containers sharing a host name do not share PIDs. */
  pidNamespace: string | null;
  createdAt: string;
}

/** Folders of runs this process is running: never swept, whatever the database says. */
const held = new Set<string>();

const claimTag = (worker: string): string => createHash('sha256').update(worker).digest('hex').slice(0, 12);

let namespace: string | null | undefined;
function pidNamespace(): string | null {
  if (namespace === undefined) {
    try {
      namespace = readlinkSync('/proc/self/ns/pid');
    } catch {
      namespace = null;
    }
  }
  return namespace;
}

export interface RunFolder {
  /** The run's folder: the engine makes its work folder in it. */
  dir: string;
  /** Removes the folder, whatever state it is in. */
  close(): Promise<void>;
}

/** Makes the work folder of a run this worker has claimed (0700, with its owner.json). */
export async function openRunFolder(dataDir: string, runId: number, worker: string): Promise<RunFolder> {
  const dir = await makePrivateTempDir(path.join(workRoot(dataDir), `run-${runId}-${claimTag(worker)}-`));
  held.add(dir);
  const close = async () => {
    try {
      await removeFolder(dir);
    } finally {
      held.delete(dir);
    }
  };
  try {
    const owner: Owner = { runId, worker, host: hostname(), pid: process.pid, pidNamespace: pidNamespace(), createdAt: new Date().toISOString() };
    await writePrivateFile(path.join(dir, OWNER_FILE), JSON.stringify(owner));
  } catch (error) {
    await close();
    throw error;
  }
  return { dir, close };
}

const removeFolder = (dir: string) => rm(dir, { recursive: true, force: true, maxRetries: 3 });

/** Whether a process of this machine and PID namespace with this id exists (EPERM: it does, as another user). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when the folder's owner was a process of this machine that is gone: same host name and PID
 * namespace, and no such process (or this very process, which holds none of its live folders
 * unregistered: the PID was reused after a restart).
 */
function ownerIsGone(owner: Owner): boolean {
  if (owner.host !== hostname() || owner.pidNamespace !== pidNamespace()) return false;
  if (!Number.isSafeInteger(owner.pid) || owner.pid <= 0) return false;
  return owner.pid === process.pid || !processExists(owner.pid);
}

async function readOwner(dir: string): Promise<Owner | null> {
  try {
    const owner = JSON.parse(await readFile(path.join(dir, OWNER_FILE), 'utf8')) as Owner;
    return typeof owner.worker === 'string' && typeof owner.host === 'string' && typeof owner.pid === 'number' ? owner : null;
  } catch {
    return null;
  }
}

export interface WorkSweep {
  /** Folders removed. */
  removed: string[];
  /** Workers proven dead (their process is gone): their runs can go back to the queue now. */
  deadWorkers: string[];
}

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Removes the work folders of runs no live worker holds. `staleMs` is the job loop's silence limit:
 * a worker that has not beaten for that long is taken for dead, as the loop takes it.
 */
export async function sweepWorkFolders(db: Kysely<Database>, dataDir: string, options: { staleMs: number; now?: number }): Promise<WorkSweep> {
  const now = options.now ?? Date.now();
  const root = workRoot(dataDir);
  const swept: WorkSweep = { removed: [], deadWorkers: [] };
  // Listed before the runs are read: a folder listed here was made after its run was claimed, so
  // the rows read below already show that claim.
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return swept;
  }
  const folders: Array<{ dir: string; runId: number; tag: string }> = [];
  for (const name of names) {
    const dir = path.join(root, name);
    if (held.has(dir)) continue;
    const match = FOLDER.exec(name);
    if (match) {
      folders.push({ dir, runId: Number(match[1]), tag: match[2]! });
      continue;
    }
    const info = await lstat(dir).catch(() => null);
    if (info && now - info.mtimeMs > UNKNOWN_AFTER_MS) {
      await removeFolder(dir);
      swept.removed.push(dir);
    }
  }
  if (!folders.length) return swept;
  const runs = new Map<number, Awaited<ReturnType<typeof findRuns>>[number]>();
  for (const ids of chunks([...new Set(folders.map((f) => f.runId))], 500)) for (const run of await findRuns(db, ids)) runs.set(run.id, run);
  const dead = new Set<string>();
  for (const folder of folders) {
    if (held.has(folder.dir)) continue;
    const run = runs.get(folder.runId);
    const claimed = run?.status === TASK_STATUS.ANALYSING && run.worker !== null && claimTag(run.worker) === folder.tag;
    if (claimed) {
      const owner = await readOwner(folder.dir);
      if (owner && owner.worker === run.worker && ownerIsGone(owner)) {
        dead.add(run.worker!);
      } else {
        const beat = run.heartbeat_at ? Date.parse(run.heartbeat_at) : NaN;
        if (Number.isFinite(beat) && now - beat <= options.staleMs) continue;
      }
    }
    await removeFolder(folder.dir);
    swept.removed.push(folder.dir);
  }
  swept.deadWorkers = [...dead];
  return swept;
}

/**
 * Removes report `.part` files (and the folders left empty) of reports no longer being generated:
 * a writer that died mid-file leaves one, and a report that then failed or was given up keeps it.
 */
export async function sweepReportParts(db: Kysely<Database>, dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'reports');
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const withParts = new Map<number, { dir: string; parts: string[]; others: number }>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const dir = path.join(root, name);
    const entries = await readdir(dir).catch(() => null);
    if (!entries) continue;
    const parts = entries.filter((e) => e.endsWith('.part'));
    if (parts.length) withParts.set(Number(name), { dir, parts, others: entries.length - parts.length });
  }
  const generating = new Set<number>();
  for (const ids of chunks([...withParts.keys()], 500)) {
    for (const report of await findReports(db, ids)) if (report.status === EXPORT_STATUS.GENERATING) generating.add(Number(report.id));
  }
  const removed: string[] = [];
  for (const [id, { dir, parts, others }] of withParts) {
    if (generating.has(id)) continue;
    if (others === 0) {
      await removeFolder(dir);
      removed.push(dir);
      continue;
    }
    for (const part of parts) {
      await rm(path.join(dir, part), { force: true });
      removed.push(path.join(dir, part));
    }
  }
  return removed;
}
