// 7z archives through 7z-wasm (7-Zip 24.09 compiled to WebAssembly), under the same limits and
// safety as the other formats:
//  0. MEMORY: each instance's WebAssembly heap may grow to 256 MiB (7-Zip's build allows 2 GiB):
//     an archive whose dictionary, model or header needs more is refused, never decoded.
//  1. LIST (`l -slt -ba`): the declared entries are checked before anything is written (count,
//     sizes, ratio, absolute / `..` / drive-letter paths, encryption: never any `-p`). The listing
//     is parsed line by line as 7-Zip prints it and stopped once it passes the entry limit.
//  2. EXTRACT (`x`) into a fresh work folder beside the destination. The archive's folder and the
//     work folder are mounted with NODEFS (the archive is read in place, never copied into memory).
//     The instance's FS is wrapped: nothing under the archive's folder can be written, symbolic
//     links are recorded instead of created, every byte written is counted against the limits
//     (a lying header is stopped while it writes, not after it has filled the disk). 7-Zip itself
//     never writes more for a file than the header declares (it reports a data error instead).
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
import { lstat, readFile, readdir, readlink, rm, stat, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FileSystem, SevenZipModule, SevenZipModuleFactory, SevenZipModuleOptions } from '7z-wasm';
import { makePrivateTempDir } from '../../../files/private.ts';
import { formatBytes } from '../limits.ts';
import { decoderMessage, fileTooLarge, ratioTooHigh, totalTooLarge, tooManyEntries, UnpackError } from './errors.ts';
import { printable, safeEntryPath } from './names.ts';
import { archiveLabel, Sink } from './sink.ts';
import type { Budget } from './sink.ts';

export interface SevenZipEntry {
  path: string;
  /** Declared uncompressed size (0 when absent). */
  size: number;
  folder: boolean;
  link: boolean;
  encrypted: boolean;
}

/** The key of a `Key = Value` line. */
const KEY = /^[A-Za-z][A-Za-z ]*$/;

/**
 * Reads `7zz l -slt -ba` output line by line: blocks of `Key = Value` lines, one block per entry.
 * `onEntry` sees each entry as soon as its block ends.
 */
export class ListingParser {
  private current: Record<string, string> | undefined;
  /** Lines that are not `Key = Value` (warnings, errors), the first 200. */
  readonly other: string[] = [];

  private readonly onEntry: (entry: SevenZipEntry) => void;

  constructor(onEntry: (entry: SevenZipEntry) => void) {
    this.onEntry = onEntry;
  }

  line(raw: string): void {
    // Progress output (`\b` redraws) may precede a line; it is turned off, but stay tolerant.
    let line = raw.includes('\b') ? raw.slice(raw.lastIndexOf('\b') + 1) : raw;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const equals = line.indexOf(' = ');
    const key = equals > 0 ? line.slice(0, equals) : '';
    if (!KEY.test(key)) {
      if (line.trim() && this.other.length < 200) this.other.push(line);
      return;
    }
    const value = line.slice(equals + 3);
    if (key === 'Path') {
      this.flush();
      this.current = {};
    }
    if (this.current) this.current[key] = value;
  }

  /** Ends the last block. */
  flush(): void {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    const attributes = current['Attributes'] ?? '';
    const mode = attributes.split(' ')[1] ?? '';
    this.onEntry({
      path: current['Path'] ?? '',
      size: Number(current['Size'] || 0) || 0,
      folder: current['Folder'] === '+' || attributes.startsWith('D') || mode.startsWith('d'),
      link: mode.startsWith('l') || Boolean(current['Symbolic Link']),
      encrypted: current['Encrypted'] === '+',
    });
  }
}

/** Parses a whole `7zz l -slt -ba` output. */
export function parseListing(text: string): SevenZipEntry[] {
  const entries: SevenZipEntry[] = [];
  const parser = new ListingParser((entry) => entries.push(entry));
  for (const line of text.split('\n')) parser.line(line);
  parser.flush();
  return entries;
}

const ENCRYPTED = '压缩包已加密，无法解压';
const IN = '/in';
const OUT = '/out';
/** WASI errno values (Emscripten): EPERM, ENOSPC. */
const EPERM = 63;
const ENOSPC = 51;

/** The global WebAssembly object (not in the server's type libraries). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(binary: Uint8Array): Promise<object>; Instance: new (module: object, imports: object) => { exports: object } } }).WebAssembly;

/** 7-Zip's WebAssembly, compiled once per thread; every command gets a fresh instance of it. */
let compiled: Promise<object> | undefined;

/** The most each 7-Zip instance's WebAssembly heap may grow to. */
export const SEVEN_ZIP_MEMORY = 256 * 1024 * 1024;

interface Run {
  code: number;
  out: string;
  err: string;
  /** An exception out of 7-Zip (a C++ exception when asked for a password, a WebAssembly trap). */
  thrown?: unknown;
  /** 7-Zip asked for more memory than SEVEN_ZIP_MEMORY. */
  memory: boolean;
}

interface RunOptions {
  /** Receives stdout lines instead of keeping them (a listing may be huge). */
  onLine?: (line: string) => void;
}

/** A fresh instance for one command; `prepare` mounts folders and wraps its FS. */
async function sevenZip(args: string[], prepare: (module: SevenZipModule) => void, options: RunOptions = {}): Promise<Run> {
  const require = createRequire(import.meta.url);
  compiled ??= readFile(path.join(path.dirname(require.resolve('7z-wasm')), '7zz.wasm'))
    .then((binary) => wasm.compile(binary))
    .catch((error: unknown) => {
      compiled = undefined;
      throw error;
    });
  // CommonJS under NodeNext: the factory is the module's default export at run time.
  const factory = ((await import('7z-wasm')) as unknown as { default: SevenZipModuleFactory }).default;
  const out: string[] = [];
  const err: string[] = [];
  const code = await compiled;
  let memory = false;
  const module = await factory({
    print: options.onLine ?? ((line: string) => out.push(line)),
    printErr: (line: string) => err.push(line),
    stdin: () => null as unknown as number, // a password prompt reads end of input, never waits
    // Emscripten grows the heap through this import: refusing makes 7-Zip's allocation fail.
    instantiateWasm: (imports: Record<string, Record<string, unknown>>, receive: (instance: object) => void) => {
      const env = imports['env']!;
      const grow = env['emscripten_resize_heap'] as (size: number) => boolean;
      env['emscripten_resize_heap'] = (size: number) => {
        if (size >>> 0 > SEVEN_ZIP_MEMORY) {
          memory = true;
          return false;
        }
        return grow(size);
      };
      const instance = new wasm.Instance(code, imports);
      receive(instance);
      return instance.exports;
    },
  } as Partial<SevenZipModuleOptions>);
  prepare(module);
  const exitCode = process.exitCode;
  try {
    const exit = module.callMain(args) as unknown as number;
    return { code: typeof exit === 'number' ? exit : 0, out: out.join('\n'), err: err.join('\n'), memory };
  } catch (thrown) {
    return { code: -1, out: out.join('\n'), err: err.join('\n'), thrown, memory };
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

function failure(run: Run, label: string): UnpackError {
  if (run.memory) return new UnpackError('unsupported', `压缩包 ${label} 解压所需内存超过 ${formatBytes(SEVEN_ZIP_MEMORY)} 上限，无法解压`);
  if (isEncrypted(run)) return new UnpackError('unsupported', ENCRYPTED);
  return new UnpackError('corrupt', `压缩包已损坏：${decoderMessage(firstError(run))}`, { cause: run.thrown });
}

/** Checks the listing against the limits before anything is extracted. */
export function checkListing(entries: readonly SevenZipEntry[], budget: Budget, archiveBytes: number, prefix = ''): void {
  const { limits } = budget;
  const label = archiveLabel(budget, prefix);
  if (budget.entries + entries.length > limits.maxFiles) throw tooManyEntries(label, limits.maxFiles);
  let total = 0;
  for (const entry of entries) {
    safeEntryPath(entry.path, Number.MAX_SAFE_INTEGER); // throws on an absolute path, a drive letter, a `..` out
    if (entry.encrypted) throw new UnpackError('unsupported', ENCRYPTED);
    if (entry.folder) continue;
    if (entry.size > limits.maxFileBytes) throw fileTooLarge(label, printable(entry.path), limits.maxFileBytes);
    total += entry.size;
  }
  if (budget.bytes + total > limits.maxTotalBytes) throw totalTooLarge(printable(budget.name), limits.maxTotalBytes);
  if (total > limits.ratioGraceBytes && total / Math.max(1, archiveBytes) > limits.maxRatio) throw ratioTooHigh(label, limits.maxRatio);
}

interface FsStream {
  path?: string;
  position?: number;
  flags?: number;
  node?: unknown;
}

interface GuardState {
  /** The first limit a write hit (the write failed with ENOSPC, so 7-Zip stops). */
  tripped?: UnpackError;
  /**
   * Set to stop 7-Zip at its next write, stdout included: thrown from the FS (not as an FS
   * error, which 7-Zip would handle and go on), it unwinds 7-Zip entirely.
   */
  stop?: UnpackError;
  links: { link: string; target: string }[];
}

/**
 * Wraps an instance's FS: the input folder is read-only, links are recorded rather than created,
 * writes under the work folder are counted against the limits (the first limit hit is kept in
 * `state.tripped` and the write fails, so 7-Zip stops), and `state.stop` ends 7-Zip at its next write.
 */
function guard(FS: FileSystem, budget: Budget, archiveBytes: number, prefix: string, state: GuardState): void {
  const fs = FS as unknown as Record<string, (...args: unknown[]) => unknown> & { ErrnoError: new (errno: number) => Error; cwd(): string };
  const { limits } = budget;
  const label = archiveLabel(budget, prefix);
  const entryOf = (file: string) => printable(file.startsWith(`${OUT}/`) ? file.slice(OUT.length + 1) : file);
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
      const stream = fs['getStream']?.(args[0]) as FsStream | undefined;
      state.tripped ??= fileTooLarge(label, entryOf(stream?.path ?? ''), limits.maxFileBytes);
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
      written += length;
      let limit: UnpackError | undefined;
      if (position + length > limits.maxFileBytes) limit = fileTooLarge(label, entryOf(file), limits.maxFileBytes);
      else if (budget.bytes + written > limits.maxTotalBytes) limit = totalTooLarge(printable(budget.name), limits.maxTotalBytes);
      else if (written > limits.ratioGraceBytes && written / Math.max(1, archiveBytes) > limits.maxRatio) limit = ratioTooHigh(label, limits.maxRatio);
      if (limit) {
        state.tripped ??= limit;
        throw new fs.ErrnoError(ENOSPC);
      }
    }
    const result = write(...args);
    if (state.stop) throw state.stop;
    return result;
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

  const label = archiveLabel(budget, prefix);
  // Entries are kept parsed, not as 7-Zip's text, and counting stops the listing at the limit.
  const entries: SevenZipEntry[] = [];
  const room = Math.max(0, budget.limits.maxFiles - budget.entries);
  const listState: GuardState = { links: [] };
  const parser = new ListingParser((entry) => {
    // One entry too many stops 7-Zip at the write that printed it.
    if (entries.length >= room) listState.stop ??= tooManyEntries(label, budget.limits.maxFiles);
    else entries.push(entry);
  });
  const listing = await sevenZip(
    ['l', '-t7z', '-slt', '-ba', '-bsp0', '-sccUTF-8', inside],
    (module) => {
      open(module);
      guard(module.FS, budget, archiveBytes, prefix, listState);
    },
    { onLine: (line) => parser.line(line) },
  );
  if (!listState.stop) parser.flush();
  if (listState.stop) throw listState.stop;
  if (listing.code !== 0 || listing.thrown !== undefined) throw failure({ ...listing, out: parser.other.join('\n') }, label);
  checkListing(entries, budget, archiveBytes, prefix);
  signal.throwIfAborted();

  // 7-Zip writes here with the archive's modes: a 0700 folder keeps them from others until the Sink copies them privately.
  const work = await makePrivateTempDir(path.join(path.dirname(path.resolve(root)), `.${path.basename(root)}.7z-`));
  try {
    const state: GuardState = { links: [] };
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
    if (run.thrown !== undefined || run.code < 0 || (run.code >= 2 && !onlyDangerous)) throw failure(run, label);
    if (run.code === 1) budget.notes.push({ entry: printable(prefix || path.basename(source)), reason: `7-Zip 警告：${decoderMessage(firstError(run))}` });
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
