// 7z archives through 7z-wasm (7-Zip 24.09 compiled to WebAssembly), under the same limits and
// safety as the other formats:
//  1. LIST (`l -slt -ba`): the declared entries are checked before anything is written (count,
//     sizes, ratio, absolute / `..` / drive-letter paths, encryption: never any `-p`).
//  2. EXTRACT (`x`) into a fresh work folder beside the destination. The archive's folder and the
//     work folder are mounted with NODEFS (the archive is read in place, never copied into memory).
//     The instance's FS is wrapped: nothing under the archive's folder can be written, symbolic
//     links are recorded instead of created, every byte written is counted against the limits
//     (a lying header is stopped while it writes, not after it has filled the disk).
//  3. WALK the work folder: every real file is streamed through the Sink (limits again on the real
//     written sizes, safe names), recorded links go through Sink.symlink (kept only when they stay
//     inside), so nested archives and cleanup-on-failure work as for the other formats.
//
// 7z-wasm's callMain is synchronous: a huge 7z blocks its thread while 7-Zip runs, and an
// AbortSignal is only honoured between the steps (before LIST, between LIST and EXTRACT, and per
// entry of the walk). The platform unpacks uploads off its main thread, in the analysis thread
// (server/engine/analyse-thread.ts). A new WebAssembly instance is created for every 7-Zip command: the
// instances are not reentrant and a C++ exception or an abort leaves one unusable. Emscripten's
// exit handling never ends the process (noExitRuntime) but sets process.exitCode on a non-zero
// exit: it is restored after every call.
import { createReadStream } from 'node:fs';
import { lstat, mkdtemp, readFile, readdir, readlink, rm, stat, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FileSystem, SevenZipModule, SevenZipModuleFactory } from '7z-wasm';
import { formatBytes } from '../limits.ts';
import { UnpackError } from './errors.ts';
import { printable, safeEntryPath } from './names.ts';
import { Sink } from './sink.ts';
import type { Budget } from './sink.ts';

export interface SevenZipEntry {
  path: string;
  /** Declared uncompressed size (0 when absent). */
  size: number;
  folder: boolean;
  link: boolean;
  encrypted: boolean;
}

/** Parses `7zz l -slt -ba` output: blocks of `Key = Value` lines, one block per entry. */
export function parseListing(text: string): SevenZipEntry[] {
  const entries: SevenZipEntry[] = [];
  let current: Record<string, string> | undefined;
  const flush = () => {
    if (!current) return;
    const attributes = current['Attributes'] ?? '';
    const mode = attributes.split(' ')[1] ?? '';
    entries.push({
      path: current['Path'] ?? '',
      size: Number(current['Size'] || 0) || 0,
      folder: current['Folder'] === '+' || attributes.startsWith('D') || mode.startsWith('d'),
      link: mode.startsWith('l') || Boolean(current['Symbolic Link']),
      encrypted: current['Encrypted'] === '+',
    });
    current = undefined;
  };
  for (const raw of text.split('\n')) {
    // Progress output (`\b` redraws) may precede a line; it is turned off, but stay tolerant.
    const line = raw.slice(raw.lastIndexOf('\b') + 1).replace(/\r$/, '');
    const match = /^([A-Za-z][A-Za-z ]*?) = (.*)$/.exec(line);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'Path') {
      flush();
      current = {};
    }
    if (current) current[key] = value;
  }
  flush();
  return entries;
}

const ENCRYPTED = '压缩包已加密，无法解压';
const IN = '/in';
const OUT = '/out';
/** WASI errno values (Emscripten): EPERM, ENOSPC. */
const EPERM = 63;
const ENOSPC = 51;

let wasmBinary: Promise<Buffer> | undefined;

interface Run {
  code: number;
  out: string;
  err: string;
  /** An exception out of 7-Zip (a C++ exception when asked for a password, a WebAssembly trap). */
  thrown?: unknown;
}

/** A fresh instance for one command; `prepare` mounts folders and wraps its FS. */
async function sevenZip(args: string[], prepare: (module: SevenZipModule) => void): Promise<Run> {
  const require = createRequire(import.meta.url);
  wasmBinary ??= readFile(path.join(path.dirname(require.resolve('7z-wasm')), '7zz.wasm')).catch((error: unknown) => {
    wasmBinary = undefined;
    throw error;
  });
  // CommonJS under NodeNext: the factory is the module's default export at run time.
  const factory = ((await import('7z-wasm')) as unknown as { default: SevenZipModuleFactory }).default;
  const out: string[] = [];
  const err: string[] = [];
  const binary = await wasmBinary;
  const module = await factory({
    print: (line: string) => out.push(line),
    printErr: (line: string) => err.push(line),
    stdin: () => null as unknown as number, // a password prompt reads end of input, never waits
    wasmBinary: binary.buffer.slice(binary.byteOffset, binary.byteOffset + binary.byteLength) as ArrayBuffer,
  });
  prepare(module);
  const exitCode = process.exitCode;
  try {
    const code = module.callMain(args) as unknown as number;
    return { code: typeof code === 'number' ? code : 0, out: out.join('\n'), err: err.join('\n') };
  } catch (thrown) {
    return { code: -1, out: out.join('\n'), err: err.join('\n'), thrown };
  } finally {
    process.exitCode = exitCode;
  }
}

function mount(module: SevenZipModule, host: string, at: string): void {
  module.FS.mkdir(at);
  module.FS.mount(module.NODEFS, { root: host }, at);
}

function firstError(run: Run): string {
  const lines = `${run.err}\n${run.out}`
    .split('\n')
    .map((l) => l.slice(l.lastIndexOf('\b') + 1).trim())
    .filter(Boolean);
  const line = lines.find((l) => /^(ERROR|Can not|Cannot|Unexpected|Data Error|CRC Failed|Headers Error|Is not archive)/i.test(l)) ?? lines.find((l) => /error/i.test(l));
  if (line) return line.replace(/^ERROR:\s*/, '');
  if (run.thrown !== undefined) return run.thrown instanceof Error ? run.thrown.message : '7-Zip 异常退出';
  return `7-Zip 退出码 ${run.code}`;
}

const DANGEROUS = /^ERROR: Dangerous link path was ignored : (.*) : (.*)$/;

function errorLines(run: Run): string[] {
  return run.err.split('\n').filter((l) => l.startsWith('ERROR'));
}

function dangerousLinks(run: Run): { name: string; target: string }[] {
  const found = [];
  for (const line of errorLines(run)) {
    const match = DANGEROUS.exec(line);
    if (match) found.push({ name: match[1]!, target: match[2]! });
  }
  return found;
}

function isEncrypted(run: Run): boolean {
  return /Enter password|Wrong password|encrypted archive/i.test(`${run.out}\n${run.err}`);
}

function failure(run: Run): UnpackError {
  if (isEncrypted(run)) return new UnpackError('unsupported', ENCRYPTED);
  return new UnpackError('corrupt', `压缩包已损坏：${printable(firstError(run))}`, { cause: run.thrown });
}

const tooMany = (max: number) => new UnpackError('too-many-files', `压缩包中的条目超过数量上限（${max} 个），疑似压缩炸弹，已拒绝`);
const fileTooLarge = (name: string, max: number) => new UnpackError('too-large', `压缩包中的文件 ${printable(name)} 解压后超过单个文件大小上限（${formatBytes(max)}），已拒绝`);
const totalTooLarge = (max: number) => new UnpackError('too-large', `压缩包解压后超过大小上限（${formatBytes(max)}），疑似压缩炸弹，已拒绝`);
const ratioTooHigh = (max: number) => new UnpackError('ratio', `压缩包的压缩比超过上限（${max}:1），疑似压缩炸弹，已拒绝`);

/** Checks the listing against the limits before anything is extracted. */
export function checkListing(entries: readonly SevenZipEntry[], budget: Budget, archiveBytes: number, prefix = ''): void {
  const { limits } = budget;
  if (budget.entries + entries.length > limits.maxFiles) throw tooMany(limits.maxFiles);
  let total = 0;
  for (const entry of entries) {
    safeEntryPath(entry.path, Number.MAX_SAFE_INTEGER); // throws on an absolute path, a drive letter, a `..` out
    if (entry.encrypted) throw new UnpackError('unsupported', ENCRYPTED);
    if (entry.folder) continue;
    if (entry.size > limits.maxFileBytes) throw fileTooLarge(prefix + entry.path, limits.maxFileBytes);
    total += entry.size;
  }
  if (budget.bytes + total > limits.maxTotalBytes) throw totalTooLarge(limits.maxTotalBytes);
  if (total > limits.ratioGraceBytes && total / Math.max(1, archiveBytes) > limits.maxRatio) throw ratioTooHigh(limits.maxRatio);
}

interface FsStream {
  path?: string;
  position?: number;
  flags?: number;
  node?: unknown;
}

/**
 * Wraps an instance's FS: the input folder is read-only, links are recorded rather than created,
 * writes under the work folder are counted against the limits (the first limit hit is kept in
 * `state.tripped` and the write fails, so 7-Zip stops).
 */
function guard(FS: FileSystem, budget: Budget, archiveBytes: number, prefix: string, state: { tripped?: UnpackError; links: { link: string; target: string }[] }): void {
  const fs = FS as unknown as Record<string, (...args: unknown[]) => unknown> & { ErrnoError: new (errno: number) => Error; cwd(): string };
  const { limits } = budget;
  const resolve = (p: unknown) => path.posix.resolve(fs.cwd(), String(p));
  const inInput = (p: unknown) => {
    const full = resolve(p);
    return full === IN || full.startsWith(`${IN}/`);
  };
  const deny = () => new fs.ErrnoError(EPERM);
  const wrap = (name: string, check: (args: unknown[]) => void) => {
    const original = fs[name]!.bind(fs);
    fs[name] = (...args: unknown[]) => {
      check(args);
      return original(...args);
    };
  };
  for (const name of ['mkdir', 'rmdir', 'unlink', 'truncate', 'utime', 'mknod']) {
    if (typeof fs[name] === 'function') {
      wrap(name, (args) => {
        if (inInput(args[0])) throw deny();
      });
    }
  }
  // Modes from the archive (7-Zip even sets 000 at times): the owner keeps read/write (and search
  // on folders) so the walk can read everything back; the Sink normalises modes anyway.
  if (typeof fs['doChmod'] === 'function') {
    const doChmod = fs['doChmod'].bind(fs);
    fs['doChmod'] = (stream: unknown, node: unknown, mode: unknown, ...rest: unknown[]) => {
      if (inInput(fs['getPath']!(node))) throw deny();
      const folder = Boolean(fs['isDir']!((node as { mode: number }).mode));
      return doChmod(stream, node, (Number(mode) & 0o777) | (folder ? 0o700 : 0o600), ...rest);
    };
  }
  wrap('rename', (args) => {
    if (inInput(args[0]) || inInput(args[1])) throw deny();
  });
  wrap('open', (args) => {
    const flags = args[1];
    const writes = typeof flags === 'string' ? /[wa+]/.test(flags) : ((flags as number) & (3 | 64 | 512)) !== 0;
    if (writes && inInput(args[0])) throw deny();
  });
  wrap('ftruncate', (args) => {
    if (Number(args[1]) > limits.maxFileBytes) {
      state.tripped ??= fileTooLarge(prefix, limits.maxFileBytes);
      throw new fs.ErrnoError(ENOSPC);
    }
  });
  // Never create a link: 7-Zip's own dangerous-link check is lexical (and chains of links defeat
  // it); links are recorded and handed to the Sink, which creates them last and checks them.
  fs['symlink'] = (target: unknown, link: unknown) => {
    const full = resolve(link);
    if (!full.startsWith(`${OUT}/`)) throw deny();
    state.links.push({ link: full.slice(OUT.length + 1), target: String(target) });
    return undefined;
  };
  let written = 0;
  const write = fs['write']!.bind(fs);
  fs['write'] = (...args: unknown[]) => {
    const stream = args[0] as FsStream;
    const length = Number(args[3]);
    const file = stream.path ?? '';
    if (file.startsWith(`${IN}/`) || file === IN) throw deny();
    if (file.startsWith(`${OUT}/`)) {
      const position = typeof args[4] === 'number' ? args[4] : (stream.position ?? 0);
      const name = prefix + file.slice(OUT.length + 1);
      written += length;
      let limit: UnpackError | undefined;
      if (position + length > limits.maxFileBytes) limit = fileTooLarge(name, limits.maxFileBytes);
      else if (budget.bytes + written > limits.maxTotalBytes) limit = totalTooLarge(limits.maxTotalBytes);
      else if (written > limits.ratioGraceBytes && written / Math.max(1, archiveBytes) > limits.maxRatio) limit = ratioTooHigh(limits.maxRatio);
      if (limit) {
        state.tripped ??= limit;
        throw new fs.ErrnoError(ENOSPC);
      }
    }
    return write(...args);
  };
}

export interface SevenZipOptions {
  budget: Budget;
  prefix: string;
}

/** Unpacks the 7z `file` into the existing empty folder `root`; returns the regular files written. */
export async function extractSevenZip(file: string, root: string, options: SevenZipOptions): Promise<string[]> {
  const { budget, prefix } = options;
  const { signal } = budget;
  signal.throwIfAborted();
  const source = path.resolve(file);
  const archiveBytes = (await stat(source)).size;
  // 7-Zip reads wildcards in an archive name (`*.7z` would open every sibling): it opens a fixed
  // name, a link in the instance's memory file system to the archive in the mounted folder.
  const inside = '/archive.7z';
  const open = (module: SevenZipModule) => {
    mount(module, path.dirname(source), IN);
    module.FS.symlink(`${IN}/${path.basename(source)}`, inside);
  };

  const listing = await sevenZip(['l', '-t7z', '-slt', '-ba', '-bsp0', '-sccUTF-8', inside], (module) => {
    open(module);
    guard(module.FS, budget, archiveBytes, prefix, { links: [] });
  });
  if (listing.code !== 0 || listing.thrown !== undefined) throw failure(listing);
  checkListing(parseListing(listing.out), budget, archiveBytes, prefix);
  signal.throwIfAborted();

  const work = await mkdtemp(path.join(path.dirname(path.resolve(root)), `.${path.basename(root)}.7z-`));
  try {
    const state: { tripped?: UnpackError; links: { link: string; target: string }[] } = { links: [] };
    const run = await sevenZip(['x', '-t7z', `-o${OUT}`, '-y', '-bsp0', '-bso0', '-sccUTF-8', inside], (module) => {
      open(module);
      mount(module, work, OUT);
      guard(module.FS, budget, archiveBytes, prefix, state);
    });
    if (state.tripped) throw state.tripped;
    // 7-Zip itself refuses links with an absolute or `..` target (exit code 2): noted, like the Sink does.
    const dangerous = dangerousLinks(run);
    for (const { name, target } of dangerous) {
      budget.notes.push({ entry: printable(prefix + name), reason: `符号链接指向解压目录之外（${printable(target)}），已忽略` });
    }
    const onlyDangerous = dangerous.length > 0 && run.code === 2 && !errorLines(run).some((l) => !DANGEROUS.test(l));
    if (run.thrown !== undefined || run.code < 0 || (run.code >= 2 && !onlyDangerous)) throw failure(run);
    if (run.code === 1) budget.notes.push({ entry: printable(prefix || path.basename(source)), reason: `7-Zip 警告：${printable(firstError(run))}` });
    signal.throwIfAborted();
    return await collect(work, root, prefix, budget, archiveBytes, state.links);
  } finally {
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Moves what 7-Zip wrote in `work` into `root` through a Sink (limits, names, links). */
async function collect(work: string, root: string, prefix: string, budget: Budget, archiveBytes: number, links: readonly { link: string; target: string }[]): Promise<string[]> {
  const sink = new Sink(root, prefix, budget, () => archiveBytes);
  const walk = async (dir: string, relDir: string): Promise<void> => {
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      const absolute = path.join(dir, name);
      const entry = relDir ? `${relDir}/${name}` : name;
      const info = await lstat(absolute);
      const rel = sink.begin(entry);
      if (rel === undefined) continue;
      if (info.isDirectory()) {
        await sink.directory(entry, rel);
        await walk(absolute, entry);
      } else if (info.isFile()) {
        await sink.file(entry, rel, createReadStream(absolute), info.mode & 0o777);
        await unlink(absolute); // the disk holds each file once, not twice
      } else if (info.isSymbolicLink()) {
        // Not expected (links are never created), but never kept as 7-Zip wrote it.
        const target = await readlink(absolute);
        await unlink(absolute);
        sink.symlink(entry, rel, target);
      } else {
        sink.skip(entry, '设备文件、管道等特殊条目，已忽略');
      }
    }
  };
  await walk(work, '');
  for (const { link, target } of links) {
    const rel = sink.begin(link);
    if (rel !== undefined) sink.symlink(link, rel, target);
  }
  await sink.finish();
  return sink.written;
}
