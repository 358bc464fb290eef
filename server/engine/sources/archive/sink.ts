// Where one archive's entries land: a folder we created, written only through real folders (never
// through a link), with the size, count and ratio limits enforced on every chunk. Symbolic links
// are created last and kept only when they resolve inside the folder.
import { constants as fsConstants } from 'node:fs';
import { lstat, realpath, rm, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { copyPrivateFile, makePrivateDirOnce, openPrivate, privateEntryMode } from '../../../files/private.ts';
import type { UnpackLimits } from '../limits.ts';
import { fileTooLarge, ratioTooHigh, totalTooLarge, tooManyEntries } from './errors.ts';
import { printable, safeEntryPath } from './names.ts';

/** An entry that was not written, and why (Chinese, for the user). */
export interface UnpackNote {
  /** The entry as named in the archive; nested archives as `outer.war!/WEB-INF/lib/x.jar!/name`. */
  entry: string;
  reason: string;
}

export interface UnpackProgress {
  entry: string;
  files: number;
  bytes: number;
}

/** Something the scan should report: an archive inside the upload that was not unpacked. */
export interface UnpackProblem {
  /** Root-relative path of the nested archive (`lib/a.jar!/b.zip`). */
  file: string;
  message: string;
}

/** Shared by an archive and every archive nested in it. */
export interface Budget {
  limits: UnpackLimits;
  signal: AbortSignal;
  /** The outer archive's name as the user knows it (an upload's original name), for messages. */
  name: string;
  /** Entries seen (of any kind). */
  entries: number;
  /** Regular files written. */
  files: number;
  bytes: number;
  notes: UnpackNote[];
  /** Nested archives left packed (too deep, damaged, unsupported), for the scan's problems. */
  problems: UnpackProblem[];
  onProgress?: (event: UnpackProgress) => void;
}

/** `app.zip`, or `app.zip!/lib/x.jar` for the archive whose entries get the prefix `lib/x.jar!/`. */
export function archiveLabel(budget: Budget, prefix: string): string {
  return printable(prefix ? `${budget.name}!/${prefix.slice(0, -2)}` : budget.name);
}

type Kind = 'file' | 'dir' | 'link';

const NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;
const WRITE_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | NOFOLLOW;


export class Sink {
  readonly root: string;
  /** Display prefix of this archive's entries (`''` at the top, `lib/x.jar!/` when nested). */
  readonly prefix: string;
  readonly budget: Budget;
  /** Compressed bytes the decoder has consumed so far (the ratio's denominator). */
  readonly compressed: () => number;
  /** This archive's display name in messages. */
  readonly label: string;
  /** Bytes this archive produced: written, or out of the decompressor when larger (the ratio's numerator). */
  uncompressed = 0;
  private decompressed = 0;
  /** Regular files written, destination-relative, in order (candidates for nested unpacking). */
  readonly written: string[] = [];
  private readonly kinds = new Map<string, Kind>();
  private readonly links = new Map<string, { name: string; target: string }>();

  constructor(root: string, prefix: string, budget: Budget, compressed: () => number) {
    this.root = root;
    this.prefix = prefix;
    this.budget = budget;
    this.compressed = compressed;
    this.label = archiveLabel(budget, prefix);
  }

  /** Counts an entry and resolves its name; undefined when it is skipped (a note is added). */
  begin(name: string): string | undefined {
    const { budget } = this;
    budget.signal.throwIfAborted();
    budget.entries++;
    if (budget.entries > budget.limits.maxFiles) throw tooManyEntries(this.label, budget.limits.maxFiles);
    const safe = safeEntryPath(name, budget.limits.maxPathBytes);
    if (!safe.ok) return this.skip(name, safe.reason);
    budget.onProgress?.({ entry: this.prefix + name, files: budget.files, bytes: budget.bytes });
    return safe.path;
  }

  skip(name: string, reason: string): undefined {
    this.budget.notes.push({ entry: this.prefix + printable(name), reason });
    return undefined;
  }

  /** Checks a size announced by a header before any byte is written. */
  announce(name: string, size: number, compressedSize?: number): void {
    const { limits } = this.budget;
    if (size > limits.maxFileBytes) throw this.fileTooLarge(name);
    if (this.budget.bytes + size > limits.maxTotalBytes) throw this.totalTooLarge();
    if (compressedSize !== undefined && size > limits.ratioGraceBytes && size / Math.max(1, compressedSize) > limits.maxRatio) throw this.ratioTooHigh();
  }

  async directory(name: string, rel: string): Promise<void> {
    if (!rel) return;
    const kind = this.kinds.get(rel);
    if (kind === 'dir') return;
    if (kind === 'file') return void this.skip(name, '与同名文件冲突，已忽略该文件夹条目');
    this.links.delete(rel);
    if (!(await this.ensureDir(rel))) this.skip(name, '上级路径不是文件夹');
  }

  /** Streams one regular file to disk through the limits. */
  async file(name: string, rel: string, source: Readable, mode?: number): Promise<void> {
    if (!rel) {
      source.resume();
      return void this.skip(name, '条目名称为空');
    }
    const kind = this.kinds.get(rel);
    if (kind === 'dir') {
      source.resume();
      return void this.skip(name, '与同名文件夹冲突，已忽略');
    }
    if (!(await this.ensureDir(path.posix.dirname(rel)))) {
      source.resume();
      return void this.skip(name, '上级路径不是文件夹');
    }
    if (kind === 'file') this.skip(name, '重复条目，已用后出现的内容覆盖');
    this.links.delete(rel);
    const absolute = this.abs(rel);
    let size = 0;
    const meter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        size += chunk.length;
        try {
          this.count(name, chunk.length, size);
          done(null, chunk);
        } catch (error) {
          done(error as Error);
        }
      },
    });
    // O_NOFOLLOW: never write through a link, even one we did not create.
    // The entry's own mode is not trusted: owner-only (0600), owner-executable (0700) when the entry
    // had any execute bit; no setuid/setgid/sticky, nothing for group or others.
    const handle = await openPrivate(absolute, WRITE_FLAGS, privateEntryMode(mode));
    await pipeline(source, meter, handle.createWriteStream(), { signal: this.budget.signal });
    if (kind !== 'file') {
      this.kinds.set(rel, 'file');
      this.budget.files++;
      this.written.push(rel);
    }
  }

  /** A hard link: the target is an earlier regular file of this archive; it is copied, never linked. */
  async hardlink(name: string, rel: string, targetName: string): Promise<void> {
    let target: string;
    try {
      const safe = safeEntryPath(targetName, this.budget.limits.maxPathBytes);
      if (!safe.ok) return void this.skip(name, `硬链接目标无效：${safe.reason}`);
      target = safe.path;
    } catch {
      return void this.skip(name, `硬链接指向解压目录之外（${printable(targetName)}），已忽略`);
    }
    if (this.kinds.get(target) !== 'file') return void this.skip(name, `硬链接目标 ${printable(targetName)} 不是压缩包中已有的文件，已忽略`);
    if (this.kinds.get(rel) === 'dir' || !rel) return void this.skip(name, '与同名文件夹冲突，已忽略');
    if (!(await this.ensureDir(path.posix.dirname(rel)))) return void this.skip(name, '上级路径不是文件夹');
    if (target === rel) return;
    const info = await lstat(this.abs(target));
    this.announce(name, info.size);
    this.count(name, info.size, info.size);
    this.links.delete(rel);
    await rm(this.abs(rel), { force: true });
    await copyPrivateFile(this.abs(target), this.abs(rel), fsConstants.COPYFILE_EXCL);
    if (this.kinds.get(rel) !== 'file') {
      this.kinds.set(rel, 'file');
      this.budget.files++;
      this.written.push(rel);
    }
  }

  /** Records a symbolic link; it is created by finish() if it stays inside. */
  symlink(name: string, rel: string, target: string): void {
    if (!rel || this.kinds.get(rel) === 'dir') return void this.skip(name, '与同名文件夹冲突，已忽略');
    const escape = linkEscapes(rel, target);
    if (escape) return void this.skip(name, `符号链接指向解压目录之外（${printable(target)}），已忽略`);
    if (this.kinds.get(rel) === 'file') return void this.skip(name, '与先前的同名文件冲突，已保留该文件，忽略此符号链接');
    if (this.links.has(rel)) this.skip(name, '重复条目，已用后出现的内容覆盖');
    this.links.set(rel, { name, target });
  }

  /** Creates the recorded links, then removes any that resolve outside the folder or nowhere. */
  async finish(): Promise<void> {
    const created: [string, string, string][] = [];
    for (const [rel, { name, target }] of this.links) {
      this.budget.signal.throwIfAborted();
      if (this.kinds.has(rel)) continue;
      if (!(await this.ensureDir(path.posix.dirname(rel)))) {
        this.skip(name, '上级路径不是文件夹');
        continue;
      }
      try {
        await symlink(target.replace(/\\/g, '/'), this.abs(rel));
      } catch (error) {
        // The system's English message stays out: its error code says enough (EPERM, EEXIST, ...).
        const code = (error as NodeJS.ErrnoException).code;
        this.skip(name, `无法创建符号链接${code ? `（${code}）` : ''}，已忽略`);
        continue;
      }
      this.kinds.set(rel, 'link');
      created.push([rel, name, target]);
    }
    const realRoot = await realpath(this.root);
    for (const [rel, name, target] of created) {
      let real: string | undefined;
      try {
        real = await realpath(this.abs(rel));
      } catch {}
      if (real !== undefined && (real === realRoot || real.startsWith(realRoot + path.sep))) continue;
      await unlink(this.abs(rel));
      this.kinds.delete(rel);
      this.skip(name, real === undefined ? `符号链接的目标 ${printable(target)} 不存在，已忽略` : `符号链接经由其他链接指向解压目录之外（${printable(target)}），已忽略`);
    }
    this.links.clear();
  }

  kind(rel: string): Kind | undefined {
    return this.kinds.get(rel);
  }

  abs(rel: string): string {
    return rel ? path.join(this.root, ...rel.split('/')) : this.root;
  }

  private count(name: string, chunk: number, fileSoFar: number): void {
    const { budget } = this;
    const { limits } = budget;
    budget.signal.throwIfAborted();
    budget.bytes += chunk;
    this.uncompressed += chunk;
    if (fileSoFar > limits.maxFileBytes) throw this.fileTooLarge(name);
    if (budget.bytes > limits.maxTotalBytes) throw this.totalTooLarge();
    this.checkRatio();
  }

  /**
   * Counts bytes out of a decompressor (gzip, bzip2, xz), so padding and skipped entries count
   * too, and checks the ratio: a bomb is stopped after `ratioGraceBytes`, not at the end. Called
   * for every chunk the decoder produces (at most 64 KiB), against the compressed bytes it has
   * consumed so far.
   */
  decompressedBytes(n: number): void {
    this.decompressed += n;
    this.checkRatio();
  }

  private checkRatio(): void {
    const { limits } = this.budget;
    const produced = Math.max(this.uncompressed, this.decompressed);
    if (produced > limits.ratioGraceBytes && produced / Math.max(1, this.compressed()) > limits.maxRatio) throw this.ratioTooHigh();
  }

  /** Creates the folders of a path; false when a part of it is a file or a link. */
  private async ensureDir(rel: string): Promise<boolean> {
    if (!rel || rel === '.') return true;
    let current = '';
    for (const segment of rel.split('/')) {
      current = current ? `${current}/${segment}` : segment;
      const kind = this.kinds.get(current);
      if (kind === 'dir') continue;
      if (kind === 'file' || kind === 'link') return false;
      if (this.links.has(current)) this.links.delete(current);
      const absolute = this.abs(current);
      try {
        await makePrivateDirOnce(absolute);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const info = await lstat(absolute);
        if (!info.isDirectory()) return false;
      }
      this.kinds.set(current, 'dir');
    }
    return true;
  }

  private fileTooLarge(name: string) {
    return fileTooLarge(this.label, printable(name), this.budget.limits.maxFileBytes);
  }

  private totalTooLarge() {
    return totalTooLarge(printable(this.budget.name), this.budget.limits.maxTotalBytes);
  }

  private ratioTooHigh() {
    return ratioTooHigh(this.label, this.budget.limits.maxRatio);
  }
}

/** Whether a link target, read from the link's folder, leaves the destination (lexically). */
export function linkEscapes(rel: string, target: string): boolean {
  const slashed = target.replace(/\\/g, '/');
  if (!slashed || slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) return true;
  try {
    safeEntryPath(path.posix.join(path.posix.dirname(rel), slashed), Number.MAX_SAFE_INTEGER, 'linux');
    return false;
  } catch {
    return true;
  }
}

