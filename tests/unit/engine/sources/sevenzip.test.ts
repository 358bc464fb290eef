// 7z through 7z-wasm: archives are made at test time by 7z-wasm itself (`a` on a folder mounted
// with NODEFS), then unpacked under the same limits and safety as the other formats.
import { chmod, mkdir, readFile, readdir, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { SevenZipModuleFactory } from '7z-wasm';
import { describe, expect, it } from 'vitest';
import { checkListing, extractSevenZip, parseListing } from '../../../../server/engine/sources/archive/sevenzip.ts';
import type { Budget } from '../../../../server/engine/sources/archive/sink.ts';
import { resolveLimits } from '../../../../server/engine/sources/limits.ts';
import { UnpackError, openInput, unpackArchive } from '../../../../server/engine/sources/unpack.ts';
import type { UnpackOptions } from '../../../../server/engine/sources/unpack.ts';
import { gzip, probeScan, tarball, useWorkspace } from './archives.ts';

const MiB = 1024 ** 2;
const REPO = path.resolve('../shared/corpora/trivy/repo');

const ws = useWorkspace();

const dest = () => path.join(ws.dir, 'out');
const text = (rel: string) => readFile(path.join(dest(), rel), 'utf8');

/**
 * Runs 7-Zip (7z-wasm) on the workspace mounted at /w with `cwd` (workspace-relative) as the
 * working folder; returns the exit code. A fresh instance per command.
 */
async function sevenZip(args: string[], cwd = ''): Promise<number> {
  const factory = ((await import('7z-wasm')) as unknown as { default: SevenZipModuleFactory }).default;
  const module = await factory({ print: () => {}, printErr: () => {}, stdin: () => null as unknown as number });
  module.FS.mkdir('/w');
  module.FS.mount(module.NODEFS, { root: ws.dir }, '/w');
  module.FS.chdir(path.posix.join('/w', cwd));
  const exitCode = process.exitCode;
  try {
    return module.callMain(args) as unknown as number;
  } finally {
    process.exitCode = exitCode;
  }
}

/** Packs the workspace folder `folder` (its contents, relative names) into `<name>` in the workspace. */
async function pack(name: string, folder: string, extra: string[] = []): Promise<string> {
  expect(await sevenZip(['a', `/w/${name}`, '-bsp0', '-bso0', '-snl', ...extra, '.'], folder)).toBe(0);
  return path.join(ws.dir, name);
}

/** Writes files (and folders) under a workspace folder. */
async function tree(folder: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, data] of Object.entries(files)) {
    const file = path.join(ws.dir, folder, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }
}

/** Only the archives (and source folders) are left in the workspace: no destination, no work folder. */
async function expectNothingLeft(keep: readonly string[]): Promise<void> {
  expect((await readdir(ws.dir)).sort()).toEqual([...keep].sort());
}

async function refused(file: string, options?: UnpackOptions): Promise<UnpackError> {
  const before = await readdir(ws.dir);
  const error = await unpackArchive(file, dest(), options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnpackError);
  await expectNothingLeft(before);
  return error as UnpackError;
}

describe('7z: round trip', () => {
  it('files with Chinese names in nested folders; a link inside is kept, one leaving is noted', async () => {
    await tree('src', { 'pkg/package.json': '{"name":"demo"}\n', 'pkg/说明/读我.md': '# 示例\n', 'pkg/a/b/c/deep.txt': 'deep' });
    await mkdir(path.join(ws.dir, 'src/pkg/empty'));
    await tree('src', { 'pkg/bin/run.sh': '#!/bin/sh\n' });
    await chmod(path.join(ws.dir, 'src/pkg/bin/run.sh'), 0o4777);
    await symlink('package.json', path.join(ws.dir, 'src/pkg/alias.json'));
    await symlink('../../../../etc/passwd', path.join(ws.dir, 'src/pkg/evil'));
    const archive = await pack('demo*?.bin', 'src'); // wildcards in the name are not patterns
    const result = await unpackArchive(archive, dest());
    expect(result.format).toBe('7z');
    expect(result.files).toBe(4);
    expect((await stat(path.join(dest(), 'pkg/bin/run.sh'))).mode & 0o7777).toBe(0o700);
    expect(await text('pkg/package.json')).toBe('{"name":"demo"}\n');
    expect(await text('pkg/说明/读我.md')).toBe('# 示例\n');
    expect(await text('pkg/a/b/c/deep.txt')).toBe('deep');
    expect(await readdir(path.join(dest(), 'pkg/empty'))).toEqual([]);
    expect(await readlink(path.join(dest(), 'pkg/alias.json'))).toBe('package.json');
    expect(await readdir(path.join(dest(), 'pkg'))).not.toContain('evil');
    expect(result.entries).toEqual([{ entry: 'pkg/evil', reason: '符号链接指向解压目录之外（../../../../etc/passwd），已忽略' }]);
    await expectNothingLeft(['demo*?.bin', 'out', 'src']);
    expect(process.exitCode).toBeUndefined();
  });

  it('a 7z inside a 7z, and a .tgz inside that, are unpacked nested', async () => {
    const tgz = gzip(await tarball([{ name: 'lib/package.json', data: '{"name":"inner"}' }]));
    await tree('src', { 'deps.tgz': tgz, 'top.txt': 'top' });
    await pack('inner.7z', 'src');
    await tree('outer', { 'inner.7z': await readFile(path.join(ws.dir, 'inner.7z')) });
    const archive = await pack('outer.7z', 'outer');
    const result = await unpackArchive(archive, dest());
    expect(await text('inner.7z!/top.txt')).toBe('top');
    expect(await text('inner.7z!/deps.tgz!/lib/package.json')).toBe('{"name":"inner"}');
    expect(result.files).toBe(4); // inner.7z, top.txt, deps.tgz, lib/package.json
  });
});

describe('7z: refused before extracting', () => {
  const budget = (limits = {}): Budget => ({ limits: resolveLimits(limits), signal: new AbortController().signal, name: 'test.7z', entries: 0, files: 0, bytes: 0, notes: [], problems: [] });
  const listing = (...paths: string[]) => paths.map((p) => `Path = ${p}\nSize = 3\nPacked Size = 3\nAttributes = A -rw-r--r--\nEncrypted = -\n`).join('\n');

  it('parses the listing: folders, links, encryption, sizes', () => {
    const parsed = parseListing(
      'Path = pkg\nSize = 0\nPacked Size = 0\nAttributes = D drwxr-xr-x\nEncrypted = -\n\nPath = pkg/l\nSize = 10\nAttributes = A lrwxrwxrwx\nEncrypted = -\n\nPath = pkg/中文 = x.txt\nSize = 6\nAttributes = A -rw-r--r--\nEncrypted = +\n',
    );
    expect(parsed).toEqual([
      { path: 'pkg', size: 0, folder: true, link: false, encrypted: false },
      { path: 'pkg/l', size: 10, folder: false, link: true, encrypted: false },
      { path: 'pkg/中文 = x.txt', size: 6, folder: false, link: false, encrypted: true },
    ]);
  });

  it('traversal, absolute and drive-letter paths in the listing', () => {
    for (const bad of ['../evil', 'a/../../evil', '/etc/passwd', 'C:\\Windows\\x', 'C:/x']) {
      const error = (() => {
        try {
          checkListing(parseListing(listing('ok.txt', bad)), budget(), 100);
        } catch (e) {
          return e;
        }
      })();
      expect(error, bad).toBeInstanceOf(UnpackError);
      expect((error as UnpackError).code).toBe('traversal');
    }
    expect(() => checkListing(parseListing(listing('ok.txt', 'a/../b.txt')), budget(), 100)).not.toThrow();
  });

  it('an absolute path stored with -spf is refused', async () => {
    await tree('src', { 'x.txt': 'x' });
    expect(await sevenZip(['a', '/w/abs.7z', '-bsp0', '-bso0', '-spf', '/w/src/x.txt'])).toBe(0);
    const error = await refused(path.join(ws.dir, 'abs.7z'));
    expect(error.code).toBe('traversal');
    expect(error.message).toMatch(/试图写到解压目录之外/);
  });

  it('encrypted entries (-mhe=off) and encrypted headers (-mhe=on) are refused in Chinese', async () => {
    await tree('src', { 'secret.txt': 'secret' });
    for (const [name, mhe] of [['enc.7z', '-mhe=off'], ['hdr.7z', '-mhe=on']] as const) {
      const archive = await pack(name, 'src', ['-pSecret', mhe]);
      const error = await refused(archive);
      expect(error.code).toBe('unsupported');
      expect(error.message).toBe('压缩包已加密，无法解压');
    }
    expect(process.exitCode).toBeUndefined();
  });

  it('a bomb of zeros: per-file, total and ratio limits from the declared sizes', async () => {
    await tree('src', { 'zeros.bin': Buffer.alloc(8 * MiB) });
    const archive = await pack('bomb.7z', 'src');
    expect((await refused(archive, { limits: { maxFileBytes: MiB } })).message).toBe('压缩包 bomb.7z 中的文件 zeros.bin 解压后超过单个文件 1 MiB 上限，已拒绝');
    expect((await refused(archive, { limits: { maxTotalBytes: 4 * MiB } })).message).toBe('压缩包 bomb.7z 解压后超过 4 MiB 上限，疑似压缩炸弹，已拒绝');
    expect((await refused(archive, { limits: { maxRatio: 50, ratioGraceBytes: MiB } })).code).toBe('ratio');
    expect((await refused(archive, { limits: { maxFiles: 0 } })).code).toBe('too-many-files');
    // Within the limits, the same archive unpacks.
    expect((await unpackArchive(archive, dest())).bytes).toBe(8 * MiB);
  });

  it('an archive needing more than 256 MiB of 7-Zip memory (its dictionary) is refused, not decoded', async () => {
    await tree('src', { 'a.txt': 'hello 7z' });
    const archive = await pack('dict.7z', 'src', ['-mhc=off', '-m0=LZMA2']);
    const data = await readFile(archive);
    const headerAt = 32 + Number(data.readBigUInt64LE(12));
    const header = data.subarray(headerAt, headerAt + Number(data.readBigUInt64LE(20)));
    const coder = header.indexOf(Buffer.from([0x21, 0x21, 0x01])); // LZMA2, one property byte: the dictionary
    expect(coder).toBeGreaterThan(0);
    header[coder + 3] = 34; // 512 MiB
    data.writeUInt32LE(crc32(header), 28);
    data.writeUInt32LE(crc32(data.subarray(12, 32)), 8);
    await writeFile(archive, data);
    const error = await refused(archive);
    expect(error.code).toBe('unsupported');
    expect(error.message).toBe('压缩包 dict.7z 解压所需内存超过 256 MiB 上限，无法解压');
    expect(process.exitCode).toBeUndefined();
  });

  it('the bytes 7-Zip writes are counted too: a header that lies about sizes is stopped while writing', async () => {
    await tree('src', { 'zeros.bin': Buffer.alloc(8 * MiB) });
    const archive = await pack('liar.7z', 'src');
    // The listing check sees a generous per-file limit (as if the header declared a small size);
    // every later read, by the guard around 7-Zip's writes, sees 1 MiB.
    const base = resolveLimits();
    let reads = 0;
    const limits = Object.defineProperty({ ...base }, 'maxFileBytes', { get: () => (reads++ < 1 ? base.maxFileBytes : MiB) });
    const root = path.join(ws.dir, 'root');
    await mkdir(root);
    const error = await extractSevenZip(archive, root, { budget: { ...budget(), limits }, prefix: '' }).catch((e: unknown) => e);
    expect((error as UnpackError).message).toBe('压缩包 test.7z 中的文件 zeros.bin 解压后超过单个文件 1 MiB 上限，已拒绝');
    expect(reads).toBeGreaterThan(1);
    await expectNothingLeft(['liar.7z', 'root', 'src']);
    expect(await readdir(root)).toEqual([]);
  });

  it('a truncated 7z is a corrupt archive, with a Chinese message', async () => {
    await tree('src', { 'a.txt': 'a'.repeat(100_000), 'b.txt': 'b' });
    const whole = await readFile(await pack('whole.7z', 'src'));
    for (const cut of [whole.length - 20, Math.floor(whole.length / 2), 40]) {
      const error = await refused(await ws.put(`cut-${cut}.7z`, whole.subarray(0, cut)));
      expect(error.code).toBe('corrupt');
      expect(error.message).toMatch(/^压缩包已损坏：/);
    }
  });
});

describe('7z: abort', () => {
  it('an aborted signal before, or during the unpack leaves nothing behind', async () => {
    await tree('src', { 'a.txt': 'a', 'b/c.txt': 'c', 'b/d.txt': 'd' });
    const archive = await pack('a.7z', 'src');
    const before = new AbortController();
    before.abort(new Error('stop'));
    await expect(unpackArchive(archive, dest(), { signal: before.signal })).rejects.toThrow('stop');
    const during = new AbortController();
    const error = await unpackArchive(archive, dest(), { signal: during.signal, onProgress: () => during.abort(new Error('cancelled')) }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('cancelled');
    await expectNothingLeft(['a.7z', 'src']);
  });
});

describe('7z: openInput + scanTree on a corpus project', () => {
  it('npm packed as 7z unpacks to the same files and is scanned', async () => {
    const archive = path.join(ws.dir, 'npm.7z');
    const factory = ((await import('7z-wasm')) as unknown as { default: SevenZipModuleFactory }).default;
    const module = await factory({ print: () => {}, printErr: () => {} });
    module.FS.mkdir('/src');
    module.FS.mount(module.NODEFS, { root: REPO }, '/src');
    module.FS.mkdir('/w');
    module.FS.mount(module.NODEFS, { root: ws.dir }, '/w');
    module.FS.chdir('/src');
    const exitCode = process.exitCode;
    try {
      expect(module.callMain(['a', '/w/npm.7z', '-bsp0', '-bso0', 'npm'])).toBe(0);
    } finally {
      process.exitCode = exitCode;
    }
    const input = await openInput(archive, { tempDir: ws.dir });
    try {
      expect(input.unpacked?.format).toBe('7z');
      expect(await readFile(path.join(input.root, 'npm/package-lock.json'), 'utf8')).toBe(await readFile(path.join(REPO, 'npm/package-lock.json'), 'utf8'));
      const seen = await probeScan(input.root, (p) => /(^|\/)package-lock\.json$/.test(p));
      expect(seen).toContain('npm/package-lock.json');
    } finally {
      await input.cleanup();
    }
    expect((await readdir(ws.dir)).filter((n) => n.startsWith('cairn-input-'))).toEqual([]);
  });
});
