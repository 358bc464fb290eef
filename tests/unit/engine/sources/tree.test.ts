// walkTree reads ahead (folders listed and files lstat'ed concurrently, a large tree's rest in a
// walk thread) but must yield exactly what the one-folder-at-a-time walk it replaced yielded, in
// the same order: that walk is kept here, verbatim, as the reference.
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, opendir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { treeContext, walkTree, type WalkOptions } from '../../../../server/engine/sources/tree.ts';

// Every walk thread started, and whether it has ended.
const threads = vi.hoisted(() => [] as Array<{ ended: boolean }>);
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class RecordedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      const thread = { ended: false };
      threads.push(thread);
      this.once('exit', () => { thread.ended = true; });
    }
  }
  return { ...real, Worker: RecordedWorker };
});

// ---- The reference: walkTree as it was, one opendir and one awaited lstat at a time. ----

const SKIP_DIRS = new Set(['.git', '.svn', '.hg', 'node_modules', 'bower_components']);
const PROJECT_FILES = ['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb'];

async function* referenceWalk(root: string, options: WalkOptions = {}): AsyncGenerator<{ path: string; size: number }> {
  const pending = [''];
  while (pending.length) {
    const rel = pending.pop()!;
    const dir = await opendir(path.join(root, rel));
    for await (const entry of dir) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) pending.push(childRel);
        else if (entry.name === 'node_modules' && options.installedPackages) yield* referenceInstalled(root, rel, childRel);
      } else if (entry.isFile()) {
        const info = await lstat(path.join(root, childRel));
        yield { path: childRel, size: info.size };
      }
    }
  }
}

async function* referenceInstalled(root: string, parent: string, nodeModules: string): AsyncGenerator<{ path: string; size: number }> {
  const owned = await Promise.all(PROJECT_FILES.map((f) => lstat(path.join(root, parent, f)).then(() => true, () => false)));
  if (owned.some(Boolean)) return;
  const manifestOf = async (rel: string) => {
    const info = await lstat(path.join(root, rel, 'package.json')).catch(() => undefined);
    return info?.isFile() ? { path: `${rel}/package.json`, size: info.size } : undefined;
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

// ---- Trees to walk. ----

async function listOf(walk: AsyncIterable<{ path: string; size: number }>): Promise<string[]> {
  const out: string[] = [];
  for await (const file of walk) out.push(`${file.path} ${file.size}`);
  return out;
}

async function expectSameWalk(root: string, options: WalkOptions = {}): Promise<string[]> {
  const expected = await listOf(referenceWalk(root, options));
  const walked = await listOf(walkTree(root, undefined, options));
  expect(walked.length).toBe(expected.length);
  expect(walked).toEqual(expected);
  return walked;
}

let base: string;
let tree: string;
let outside: string;

/** Repeatable pseudo-random numbers (the tree is the same on every run). */
function numbers(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

/**
 * A tree of about 400 folders (more than the walk lists in its own thread, so the walk thread
 * takes over) with files of many sizes, a folder of 1,300 files (several directory-stream reads),
 * links of every kind, skipped folders, node_modules with and without a project beside it, and
 * names out of alphabetical order.
 */
async function buildTree(root: string): Promise<void> {
  const random = numbers(19);
  const put = async (rel: string, size: number) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), 'x'.repeat(size));
  };
  const folders = [''];
  for (let k = 0; folders.length < 400; k++) {
    const parent = folders[Math.floor(random() * folders.length)]!;
    const rel = `${parent ? `${parent}/` : ''}${['src', 'lib', 'Zeta', 'αβ', 'docs', '_x', 'b2'][k % 7]}${k}`;
    await mkdir(path.join(root, rel), { recursive: true });
    folders.push(rel);
    for (let f = Math.floor(random() * 6); f > 0; f--) await put(`${rel}/f${Math.floor(random() * 1000)}.${['js', 'json', 'md', 'txt'][f % 4]}`, Math.floor(random() * 3000));
  }
  for (let f = 0; f < 1300; f++) await put(`big/file-${(f * 7919) % 1300}.js`, f % 97);
  await mkdir(path.join(root, 'empty/inner'), { recursive: true });
  // Links are not followed, whatever they point at.
  await symlink(path.join(root, 'big'), path.join(root, 'link-to-folder'));
  await symlink(path.join(root, 'big/file-1.js'), path.join(root, 'link-to-file.js'));
  await symlink(path.join(root, 'missing'), path.join(root, 'dangling'));
  await symlink(outside, path.join(root, 'src0-escape'));
  // Skipped folders.
  await put('.git/HEAD', 23);
  await put('deep/.svn/entries', 4);
  await put('deep/bower_components/x/bower.json', 10);
  // A project's node_modules (read by the npm extractor, not walked) …
  await put('app/package.json', 40);
  await put('app/node_modules/left-pad/package.json', 30);
  // … and node_modules that no project owns: their packages' manifests, sorted by name.
  for (const [name, size] of [['zeta', 11], ['Alpha', 12], ['@scope/b', 13], ['@scope/a', 14], ['no-manifest', 0], ['.hidden', 15]] as const) {
    if (size) await put(`global/lib/node_modules/${name}/package.json`, size);
    else await mkdir(path.join(root, `global/lib/node_modules/${name}`), { recursive: true });
  }
  await put('global/lib/node_modules/@scope/file-not-folder', 3);
  await put('global/lib/node_modules/stray.js', 3);
  await put('image/usr/lib/node_modules/npm/package.json', 77);
  await put('image/usr/lib/node_modules/npm/lib/npm.js', 78);
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'cairn-walk-'));
  tree = path.join(base, 'tree');
  outside = path.join(base, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'outside the root');
  await buildTree(tree);
}, 60_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('walkTree: the same files in the same order as the one-folder-at-a-time walk', () => {
  it('on a generated tree of 400 folders (its rest walked by the walk thread)', async () => {
    const walked = await expectSameWalk(tree);
    expect(walked.length).toBeGreaterThan(1400);
    expect(walked.some((line) => line.startsWith('link-') || line.startsWith('dangling') || line.includes('secret'))).toBe(false);
    expect(walked.some((line) => /(^|\/)(\.git|\.svn|bower_components|node_modules)\//.test(line))).toBe(false);
  });

  it('with installedPackages: the manifests of node_modules that no project owns, in their place', async () => {
    const walked = await expectSameWalk(tree, { installedPackages: true });
    expect(walked.filter((line) => line.startsWith('global/lib/node_modules/'))).toEqual([
      'global/lib/node_modules/@scope/a/package.json 14',
      'global/lib/node_modules/@scope/b/package.json 13',
      'global/lib/node_modules/Alpha/package.json 12',
      'global/lib/node_modules/zeta/package.json 11',
    ]);
    expect(walked.filter((line) => line.includes('/node_modules/') && !line.startsWith('global/'))).toEqual(['image/usr/lib/node_modules/npm/package.json 77']);
  });

  it('on a small tree, walked in the caller\'s thread alone', async () => {
    await expectSameWalk(path.join(tree, 'global'), { installedPackages: true });
    await expectSameWalk(path.join(tree, 'big'));
  });

  // Installed packages as they are on disk: the project's own node_modules.
  const installed = ['@types', 'typescript'].map((name) => path.resolve('node_modules', name)).filter((dir) => existsSync(dir));
  it.each(installed)('on the installed packages in %s', async (dir) => {
    await expectSameWalk(dir, { installedPackages: true });
  });
});

describe('walkTree: stopping', () => {
  // 300 folders of 30 files: the first 128 folders' files come from the caller's thread, the rest
  // from the walk thread, in batches of about 256 and at most WALK_AHEAD (4,096) files ahead.
  const PER_FOLDER = 30;
  let wide: string;
  beforeAll(async () => {
    wide = path.join(base, 'wide');
    for (let k = 0; k < 300; k++) {
      await mkdir(path.join(wide, `d${k}`), { recursive: true });
      await Promise.all(Array.from({ length: PER_FOLDER }, (_, f) => writeFile(path.join(wide, `d${k}`, `f${f}.js`), '')));
    }
  }, 60_000);
  // In the caller's thread; in the walk thread, which then waits with more than WALK_AHEAD files to go.
  const stops = [5, 128 * PER_FOLDER + 100];

  it('a caller that stops early leaves no walk thread behind', async () => {
    for (const after of stops) {
      threads.length = 0;
      let seen = 0;
      for await (const _ of walkTree(wide)) if (++seen === after) break;
      expect(seen).toBe(after);
      expect(threads.length).toBe(after > 128 * PER_FOLDER ? 1 : 0);
      for (let wait = 0; threads.some((t) => !t.ended) && wait < 250; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(threads.every((t) => t.ended)).toBe(true);
    }
  });

  it('an aborted walk throws the abort at its next folder (its next batch in the walk thread)', async () => {
    for (const after of stops) {
      const controller = new AbortController();
      let seen = 0;
      const walking = (async () => {
        for await (const _ of walkTree(wide, controller.signal)) if (++seen === after) controller.abort(new Error('已取消'));
      })();
      await expect(walking).rejects.toThrow('已取消');
      expect(seen).toBeLessThan(after + 260);
    }
  });

  it('a root that is not there fails as before', async () => {
    const missing = path.join(base, 'nothing-here');
    await expect(listOf(walkTree(missing))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(listOf(referenceWalk(missing))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('treeContext: confined to the root', () => {
  it('exists, readText and list stay inside the root and do not follow links out of it', async () => {
    const ctx = treeContext(tree, new AbortController().signal);
    expect(await ctx.exists('big/file-1.js')).toBe(true);
    expect(await ctx.exists('big')).toBe(true);
    expect(await ctx.exists('link-to-file.js')).toBe(true);
    expect(await ctx.exists('big/nothing.js')).toBe(false);
    expect(await ctx.exists('nothing/at/all')).toBe(false);
    expect(await ctx.exists('dangling')).toBe(false);
    expect(await ctx.exists('src0-escape/secret.txt')).toBe(false);
    expect(await ctx.exists('../outside/secret.txt')).toBe(false);
    expect(await ctx.exists(path.join(outside, 'secret.txt'))).toBe(false);
    expect(await ctx.readText('src0-escape/secret.txt')).toBeUndefined();
    expect(await ctx.readText('link-to-file.js')).toBe(await readFile(path.join(tree, 'big/file-1.js'), 'utf8'));
    expect(await ctx.list('src0-escape')).toEqual([]);
    expect((await ctx.list('global/lib/node_modules/@scope')).sort()).toEqual(['a', 'b', 'file-not-folder']);
  });
});
