// A scan root on disk: walks it without following links out of it, and gives extractors a
// read-only view confined to the root (no `..`, no absolute paths, no symlink escape).
import { lstat, open, opendir, readFile, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
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

/** Yields every regular file under root (root-relative, `/`-separated); symlinks are not followed. */
export async function* walkTree(root: string, signal?: AbortSignal, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const pending = [''];
  while (pending.length) {
    signal?.throwIfAborted();
    const rel = pending.pop()!;
    const dir = await opendir(path.join(root, rel));
    for await (const entry of dir) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) pending.push(childRel);
        else if (entry.name === 'node_modules' && options.installedPackages) yield* installedPackages(root, rel, childRel);
      } else if (entry.isFile()) {
        const info = await lstat(path.join(root, childRel));
        yield inputFile(root, childRel, info.size);
      }
    }
  }
}

/** A folder holding one of these is a JavaScript project whose extractor reads its node_modules. */
const PROJECT_FILES = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb'];

/**
 * A node_modules folder with no package.json or lockfile beside it belongs to no project the npm extractor
 * would read it for: the global packages of `npm install -g` (/usr/local/lib/node_modules) or an
 * application copied into an image without its manifest. Its top-level packages' package.json
 * files are offered as files (what lies under each package is read on demand by the npm extractor).
 */
async function* installedPackages(root: string, parent: string, nodeModules: string): AsyncGenerator<WalkedFile> {
  const owned = await Promise.all(PROJECT_FILES.map((f) => lstat(path.join(root, parent, f)).then(() => true, () => false)));
  if (owned.some(Boolean)) return;
  const manifestOf = async (rel: string): Promise<WalkedFile | undefined> => {
    const info = await lstat(path.join(root, rel, 'package.json')).catch(() => undefined);
    return info?.isFile() ? inputFile(root, `${rel}/package.json`, info.size) : undefined;
  };
  const names = await readdir(path.join(root, nodeModules), { withFileTypes: true }).catch(() => []);
  for (const entry of names.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const rel = `${nodeModules}/${entry.name}`;
    if (entry.name.startsWith('@')) {
      const scoped = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
      for (const inner of scoped.sort((a, b) => a.name.localeCompare(b.name))) {
        const file = inner.isDirectory() ? await manifestOf(`${rel}/${inner.name}`) : undefined;
        if (file) yield file;
      }
    } else {
      const file = await manifestOf(rel);
      if (file) yield file;
    }
  }
}

/** Resolves a root-relative path, refusing anything that would leave the root. */
export async function confinedPath(root: string, rel: string): Promise<string | undefined> {
  if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) return undefined;
  const joined = path.join(root, rel);
  try {
    const [real, realRoot] = await Promise.all([realpath(joined), realpath(root)]);
    return real === realRoot || real.startsWith(realRoot + path.sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

export function treeContext(root: string, signal: AbortSignal): ExtractContext {
  return {
    signal,
    async readText(rel) {
      const file = await confinedPath(root, rel);
      if (!file) return undefined;
      const info = await stat(file);
      return info.isFile() ? readFile(file, 'utf8') : undefined;
    },
    async list(rel) {
      const dir = await confinedPath(root, rel || '.');
      if (!dir) return [];
      try {
        return await readdir(dir);
      } catch {
        return [];
      }
    },
    async exists(rel) {
      return (await confinedPath(root, rel)) !== undefined;
    },
  };
}
