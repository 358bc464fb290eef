// A scan root on disk: walks it without following links out of it, and gives extractors a
// read-only view confined to the root (no `..`, no absolute paths, no symlink escape).
import type { Dirent } from 'node:fs';
import { lstat, open, opendir, readFile, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../../worker-url.ts';
import type { ExtractContext, InputFile } from '../model.ts';

/**
 * Folders never worth walking: VCS metadata. A project's node_modules (beside its package.json) is
 * read on demand by the npm extractor; see installedPackages for the other node_modules.
 */
const SKIP_DIRS = new Set(['.git', '.svn', '.hg', 'node_modules', 'bower_components']);

export interface WalkedFile extends InputFile {
  absolute: string;
}

function inputFile(root: string, rel: string, size: number): WalkedFile {
  const absolute = path.join(root, rel);
  return { path: rel, size, absolute, read: () => readFile(absolute), text: () => readFile(absolute, 'utf8'), readAt: (position, length) => readRange(absolute, position, length) };
}

async function readRange(file: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, length));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    return bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface WalkOptions {
  /**
   * Also yield the package.json of each package installed in a node_modules folder that no
   * project owns (installedPackages): what the package scan reads; licence and file listings
   * leave node_modules alone.
   */
  installedPackages?: boolean;
}

/**
 * Folders a walk lists in its own thread; a tree with more is handed to a walk thread
 * (walk-worker.ts), where plain blocking reads cost a fraction of what one promise and one
 * thread-pool hand-off per file do (0.4 s of CPU instead of 1.8 s for 77,000 files). A small
 * tree is done before a thread would have started.
 */
const FOLDERS_IN_THREAD = 128;
/** Folders listed ahead of the one being yielded (each one's files lstat'ed): enough to keep the thread pool busy. */
const DIRS_AHEAD = 16;
/** lstat calls in flight at once for one walk: bounded, so that a folder of 100,000 files does not queue ahead of every other read. */
const LSTATS_IN_FLIGHT = 64;
/** Names a directory stream reads per call (Node's default of 32 is one thread-pool round trip per 32 names). */
export const DIR_BUFFER = 512;

/** How the walk takes a folder's entry: a subfolder to walk, a file, a node_modules whose installed packages it offers (installedPackages), or nothing. */
export function entryKind(entry: Dirent, options: WalkOptions): 'folder' | 'file' | 'installed' | undefined {
  if (entry.isDirectory()) {
    if (!SKIP_DIRS.has(entry.name)) return 'folder';
    return entry.name === 'node_modules' && options.installedPackages ? 'installed' : undefined;
  }
  return entry.isFile() ? 'file' : undefined;
}

/** A failed lstat, in the place of its file until the folder's listing is complete. */
class Failure {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/**
 * One folder, listed: its files in stream order (a node_modules's installed packages' manifests in
 * its place), the subfolders to walk, and the error the walk throws after those files: the first
 * failed lstat, or the directory stream breaking off.
 */
interface Listing {
  files: WalkedFile[];
  dirs: string[];
  error?: unknown;
}

interface Pending {
  rel: string;
  listing?: Promise<Listing>;
}

/**
 * Yields every regular file under root (root-relative, `/`-separated); symlinks are not followed.
 *
 * Order (stable; tests/unit/engine/sources/tree.test.ts holds it to the one-folder-at-a-time walk
 * this replaced): depth first, from a stack. A folder's files come in the order its directory stream
 * (opendir: the file system's order, not sorted) gives them, before anything under its subfolders;
 * a skipped node_modules's installed packages (installedPackages) come where the stream gave it.
 * Then the subfolders are walked, the last one the stream gave first.
 *
 * Reading runs ahead of the caller: while it handles one folder's files, the next folders on the
 * stack are listed and their files lstat'ed (bounded); past FOLDERS_IN_THREAD folders the rest of
 * the stack is walked, in the same order, by a walk thread.
 */
export async function* walkTree(root: string, signal?: AbortSignal, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  // Files come in batches (a folder's, a walk thread message's); one generator hands them out.
  for await (const files of walkBatches(root, signal, options)) {
    for (const file of files) yield file;
  }
}

async function* walkBatches(root: string, signal: AbortSignal | undefined, options: WalkOptions): AsyncGenerator<WalkedFile[]> {
  const lstatLimit = limiter(LSTATS_IN_FLIGHT);
  const listed = (next: Pending): Promise<Listing> => {
    if (!next.listing) {
      next.listing = listFolder(root, next.rel, options, lstatLimit);
      // Read ahead: not awaited if the caller stops, an earlier folder fails or the walk thread takes over (awaited, it still throws).
      next.listing.catch(() => undefined);
    }
    return next.listing;
  };
  const stack: Pending[] = [{ rel: '' }];
  for (let folders = 0; stack.length; folders++) {
    signal?.throwIfAborted();
    if (folders === FOLDERS_IN_THREAD) {
      yield* continueInWalkThread(root, stack.map((p) => p.rel), signal, options);
      return;
    }
    const { files, dirs, error } = await listed(stack.pop()!);
    for (const rel of dirs) stack.push({ rel });
    for (let k = stack.length - 1; k >= 0 && k >= stack.length - DIRS_AHEAD; k--) void listed(stack[k]!);
    yield files;
    if (error !== undefined) throw error;
  }
}

async function listFolder(root: string, rel: string, options: WalkOptions, lstatLimit: Limiter): Promise<Listing> {
  // Each file's place, filled in as its lstat (or a node_modules's installed packages) comes back.
  const places: Array<WalkedFile | WalkedFile[] | Failure> = [];
  const dirs: string[] = [];
  const reads: Array<Promise<unknown>> = [];
  let error: unknown;
  const dir = await opendir(path.join(root, rel), { bufferSize: DIR_BUFFER });
  try {
    for await (const entry of dir) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const kind = entryKind(entry, options);
      if (kind === 'folder') dirs.push(childRel);
      else if (kind === 'installed') {
        const at = places.push([]) - 1;
        reads.push(installedPackages(root, rel, childRel).then((found) => { places[at] = found; }));
      } else if (kind === 'file') {
        const at = places.push([]) - 1;
        reads.push(lstatLimit(() => lstat(path.join(root, childRel))).then(
          (info) => { places[at] = inputFile(root, childRel, info.size); },
          (failure: unknown) => { places[at] = new Failure(failure); },
        ));
      }
    }
  } catch (broken) {
    error = broken;
  }
  await Promise.all(reads);
  const failed = places.findIndex((place) => place instanceof Failure);
  if (failed >= 0) return { files: places.slice(0, failed).flat() as WalkedFile[], dirs, error: (places[failed] as Failure).error };
  return { files: places.flat() as WalkedFile[], dirs, error };
}

/** What a walk thread is given: the root, the stack of folders left (bottom first) and the count of files its caller has taken. */
export interface WalkJob {
  root: string;
  stack: string[];
  installedPackages: boolean;
  /** [0]: files the caller has taken so far (the thread stays at most WALK_AHEAD files ahead). */
  taken: Int32Array;
}

/**
 * The next files in walk order, as a walk thread posts them: each path with its size, or with
 * INSTALLED for a node_modules whose installed packages this thread offers there; then, at the end,
 * done or the error (of a folder or an lstat) that stopped the walk at that point.
 */
export interface WalkBatch {
  paths: string[];
  sizes: number[];
  done?: boolean;
  error?: { message: string; code?: string; errno?: number; syscall?: string; path?: string };
}
export const INSTALLED = -1;
/** Files a walk thread reads ahead of its caller: bounds the memory of a huge tree walked for a slow caller. */
export const WALK_AHEAD = 4096;

async function* continueInWalkThread(root: string, stack: string[], signal: AbortSignal | undefined, options: WalkOptions): AsyncGenerator<WalkedFile[]> {
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const job: WalkJob = { root, stack, installedPackages: options.installedPackages === true, taken };
  const worker = new Worker(workerUrl(import.meta.url, './walk-worker.ts', 'walk-worker'), { workerData: job });
  const batches: WalkBatch[] = [];
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  worker.on('message', (batch: WalkBatch) => { batches.push(batch); wake?.(); });
  worker.on('error', (error) => { failed ??= error; wake?.(); });
  worker.on('exit', (code) => { failed ??= new Error(`遍历目录的线程意外退出（${code}）`); wake?.(); });
  try {
    for (;;) {
      while (!batches.length) {
        if (failed) throw failed;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const batch = batches.shift()!;
      signal?.throwIfAborted();
      const files: WalkedFile[] = [];
      for (let k = 0; k < batch.paths.length; k++) {
        const rel = batch.paths[k]!;
        if (batch.sizes[k] === INSTALLED) files.push(...(await installedPackages(root, rel.slice(0, Math.max(0, rel.lastIndexOf('/'))), rel)));
        else files.push(inputFile(root, rel, batch.sizes[k]!));
      }
      yield files;
      Atomics.add(taken, 0, batch.paths.length);
      Atomics.notify(taken, 0);
      if (batch.error) throw Object.assign(new Error(batch.error.message), batch.error);
      if (batch.done) return;
    }
  } finally {
    void worker.terminate();
  }
}

type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** Runs tasks with at most `limit` in flight, the rest queued in order. */
function limiter(limit: number): Limiter {
  let running = 0;
  const queue: Array<() => void> = [];
  return async (task) => {
    // A finished task hands its place to the next one queued, so no newcomer slips in between.
    if (running < limit) running++;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next) next();
      else running--;
    }
  };
}

/** A folder holding one of these is a JavaScript project whose extractor reads its node_modules. */
const PROJECT_FILES = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb'];

/**
 * A node_modules folder with no package.json or lockfile beside it belongs to no project the npm extractor
 * would read it for: the global packages of `npm install -g` (/usr/local/lib/node_modules) or an
 * application copied into an image without its manifest. Its top-level packages' package.json
 * files are offered as files, sorted by package name (what lies under each package is read on
 * demand by the npm extractor).
 */
async function installedPackages(root: string, parent: string, nodeModules: string): Promise<WalkedFile[]> {
  const owned = await Promise.all(PROJECT_FILES.map((f) => lstat(path.join(root, parent, f)).then(() => true, () => false)));
  if (owned.some(Boolean)) return [];
  const manifestOf = async (rel: string): Promise<WalkedFile | undefined> => {
    const info = await lstat(path.join(root, rel, 'package.json')).catch(() => undefined);
    return info?.isFile() ? inputFile(root, `${rel}/package.json`, info.size) : undefined;
  };
  const byName = (a: Dirent, b: Dirent) => a.name.localeCompare(b.name);
  const names = await readdir(path.join(root, nodeModules), { withFileTypes: true }).catch(() => []);
  const found = await Promise.all(names.sort(byName).map(async (entry) => {
    if (!entry.isDirectory() || entry.name.startsWith('.')) return [];
    const rel = `${nodeModules}/${entry.name}`;
    if (!entry.name.startsWith('@')) return [await manifestOf(rel)];
    const scoped = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    return Promise.all(scoped.sort(byName).map((inner) => (inner.isDirectory() ? manifestOf(`${rel}/${inner.name}`) : undefined)));
  }));
  return found.flat().filter((file) => file !== undefined);
}

/** Resolves a root-relative path, refusing anything that would leave the root. */
export async function confinedPath(root: string, rel: string): Promise<string | undefined> {
  return confiner(root)(rel);
}

/**
 * confinedPath for many paths under one root (an extraction context's): the root's real path is
 * resolved once. A path that does not exist fails one lstat, not two realpath walks (most paths an
 * extractor asks about, such as lockfiles beside each package.json, do not).
 */
function confiner(root: string): (rel: string) => Promise<string | undefined> {
  let realRoot: Promise<string> | undefined;
  return async (rel) => {
    if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) return undefined;
    const joined = path.join(root, rel);
    try {
      await lstat(joined);
      const [real, top] = await Promise.all([realpath(joined), (realRoot ??= realpath(root))]);
      return real === top || real.startsWith(top + path.sep) ? real : undefined;
    } catch {
      return undefined;
    }
  };
}

export function treeContext(root: string, signal: AbortSignal): ExtractContext {
  const confine = confiner(root);
  return {
    signal,
    async readText(rel) {
      const file = await confine(rel);
      if (!file) return undefined;
      const info = await stat(file);
      return info.isFile() ? readFile(file, 'utf8') : undefined;
    },
    async list(rel) {
      const dir = await confine(rel || '.');
      if (!dir) return [];
      try {
        return await readdir(dir);
      } catch {
        return [];
      }
    },
    async exists(rel) {
      return (await confine(rel)) !== undefined;
    },
  };
}
