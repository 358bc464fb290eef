// The entries run from their built bundle only while it was built from the sources as they are
// (server/launch.ts). The real cli/cairn.ts and server/launch.ts are copied into a scratch
// repository with a stand-in bundle, so the choice is seen in what the command prints: the
// bundle's line, or the sources' usage text.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { STAMP_FILE, bundleToRun, freshBundle, type BuildStamp } from '../../../server/launch.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'cairn-launch-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SOURCES = ['cli/cairn.ts', 'server/launch.ts'];
let root: string;

/** A scratch repository: the two real entry sources, and a bundle stamped with their mtimes. */
function scratch(): string {
  const dir = mkdtempSync(path.join(work, 'repo-'));
  for (const file of SOURCES) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    copyFileSync(path.join(repo, file), path.join(dir, file));
  }
  mkdirSync(path.join(dir, 'dist', 'cli'), { recursive: true });
  writeFileSync(path.join(dir, 'dist', 'cli', 'cairn.js'), "console.log('from the bundle', process.argv.slice(2).join(' '));\n");
  const stamp: BuildStamp = { entry: 'cairn.js', inputs: Object.fromEntries(SOURCES.map((file) => [file, statSync(path.join(dir, file)).mtimeMs])) };
  writeFileSync(path.join(dir, 'dist', 'cli', STAMP_FILE), JSON.stringify(stamp));
  return dir;
}

/** Runs the scratch copy of cli/cairn.ts like `npm run cli -- help`. */
function cli(env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(process.execPath, [path.join(root, 'cli', 'cairn.ts'), 'help'], {
    encoding: 'utf8',
    env: { ...process.env, CAIRN_FROM_SOURCES: '', NODE_COMPILE_CACHE: path.join(work, 'cache'), ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

const touch = (file: string) => { const later = new Date(Date.now() + 5_000); utimesSync(path.join(root, file), later, later); };

beforeEach(() => { root = scratch(); });

describe('the CLI entry', () => {
  it('runs the bundle when it was built from the sources as they are', () => {
    expect(freshBundle('cli', root)).toBe(path.join(root, 'dist', 'cli', 'cairn.js'));
    expect(cli()).toBe('from the bundle help\n');
  });

  it('runs the sources once a source changed after the build', () => {
    touch('server/launch.ts');
    expect(freshBundle('cli', root)).toBeNull();
    expect(cli()).toMatch(/^用法：cairn <命令>/);
  });

  it('runs the sources when a source the bundle was built from is gone', () => {
    rmSync(path.join(root, 'cli', 'cairn.ts'));
    expect(freshBundle('cli', root)).toBeNull();
  });

  it('runs the sources when there is no bundle, no stamp or an unreadable stamp', () => {
    rmSync(path.join(root, 'dist', 'cli', 'cairn.js'));
    expect(freshBundle('cli', root)).toBeNull();
    expect(cli()).toMatch(/^用法：cairn <命令>/);
    root = scratch();
    writeFileSync(path.join(root, 'dist', 'cli', STAMP_FILE), '{');
    expect(freshBundle('cli', root)).toBeNull();
    expect(cli()).toMatch(/^用法：cairn <命令>/);
    rmSync(path.join(root, 'dist', 'cli', STAMP_FILE));
    expect(cli()).toMatch(/^用法：cairn <命令>/);
  });

  it('runs the sources when asked to (CAIRN_FROM_SOURCES), and a bundle never hands over again', () => {
    expect(cli({ CAIRN_FROM_SOURCES: '1' })).toMatch(/^用法：cairn <命令>/);
    expect(bundleToRun('cli', path.join(root, 'dist', 'cli', 'cairn.js'))).toBeNull();
  });

  it('still runs when the compile cache cannot be written', () => {
    const file = path.join(work, 'not-a-folder');
    writeFileSync(file, '');
    expect(cli({ NODE_COMPILE_CACHE: file })).toBe('from the bundle help\n');
  });
});
