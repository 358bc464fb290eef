// How the CLI (cli/cairn.ts) and the platform (server/server.ts) start fast. Most of a small run
// is start-up: loading and type-stripping hundreds of modules. So each entry, run from sources,
// hands over to its built bundle (`npm run build`: dist/cli/, dist/server/) when that bundle was
// built from exactly the sources on disk, and every run keeps V8's compiled code in Node's compile
// cache. This module is loaded before anything else: it imports only Node built-ins.
import { readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** The bundles scripts/build.ts stamps: dist/<name>/. */
export type BundleName = 'cli' | 'server';

/** Written by the build beside a bundle: its entry file and the sources it was built from. */
export interface BuildStamp {
  /** The entry file, relative to the bundle's folder. */
  entry: string;
  /** Each repository file the bundle was built from (relative to the repository) with its mtime. */
  inputs: Record<string, number>;
}

export const STAMP_FILE = 'build-stamp.json';

/** The repository root, from this file's place (server/launch.ts, or a bundle in dist/<name>/). */
const REPO_ROOT = path.resolve(import.meta.dirname, '..', ...(import.meta.filename.endsWith('.ts') ? [] : ['..']));

/**
 * The bundle's entry when dist/<name>/ was built from the sources as they are now (every input
 * still has the modification time it had at build time), else null: missing, stale, unreadable.
 * A few hundred stat calls: about a millisecond.
 */
export function freshBundle(name: BundleName, root = REPO_ROOT): string | null {
  const dir = path.join(root, 'dist', name);
  try {
    const stamp = JSON.parse(readFileSync(path.join(dir, STAMP_FILE), 'utf8')) as BuildStamp;
    const entry = path.join(dir, stamp.entry);
    if (!statSync(entry, { throwIfNoEntry: false })) return null;
    for (const [file, mtime] of Object.entries(stamp.inputs)) {
      if (statSync(`${root}/${file}`, { throwIfNoEntry: false })?.mtimeMs !== mtime) return null;
    }
    return entry;
  } catch {
    return null;
  }
}

/**
 * The bundle an entry started from sources (`entryFile`: its import.meta.filename) hands over to,
 * or null to go on from sources: the entry is the bundle already, CAIRN_FROM_SOURCES is set (to
 * try a change without building, or to measure), or there is no bundle built from these sources.
 */
export function bundleToRun(name: BundleName, entryFile: string): string | null {
  if (!entryFile.endsWith('.ts') || process.env.CAIRN_FROM_SOURCES) return null;
  return freshBundle(name);
}

/**
 * Turns on Node's on-disk compile cache (compiled code, and type-stripped TypeScript) for this
 * process, its worker threads and the Node processes it starts, unless the user chose a cache
 * (NODE_COMPILE_CACHE) or turned it off (NODE_DISABLE_COMPILE_CACHE). The cache lives outside the
 * repository; one that cannot be written only costs speed.
 */
export function enableCompileCache(): void {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  // Electron's Node may predate the API.
  if (typeof module.enableCompileCache !== 'function') return;
  try {
    const dir = process.env.NODE_COMPILE_CACHE || path.join(os.tmpdir(), 'cairn-compile-cache');
    // Worker threads and child processes read the variable when they start; this call does not set it.
    process.env.NODE_COMPILE_CACHE = dir;
    module.enableCompileCache(dir);
  } catch {
    // A read-only or foreign temp folder: run without the cache.
  }
}
