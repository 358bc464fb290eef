// Applying an image's layers, in order, into one root folder as overlayfs would show the merged
// tree: whiteouts (`.wh.<name>`) remove the lower entry, opaque folders (`.wh..wh..opq`) hide the
// lower contents, an entry replacing a folder with a file (or the reverse) replaces it. Whiteouts
// only act on lower layers (OCI image spec), so they are applied when the layer's entries are done.
//
// The tree is mirrored in memory (kind, the layer that wrote each entry, link targets), and every
// write goes through it: parent components are resolved in the model with links followed inside
// the root (as in a chroot), so a link in a lower layer never makes a later entry land outside
// the root; a write through a link whose target climbs above the root is refused. On disk, files
// are opened with O_NOFOLLOW and links are stored with targets rewritten relative and lexically
// inside the root (`/usr/lib` from `lib64/x` becomes `../usr/lib`), so that nothing that follows
// them on the host leaves the root, and they mean what they meant in the container.
import { constants as fsConstants } from 'node:fs';
import { link, lstat, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { Header } from 'tar-stream';
import { copyPrivateFile, makePrivateDir, makePrivateDirOnce, openPrivate, privateEntryMode } from '../../../files/private.ts';
import { printable } from '../archive/names.ts';
import { formatBytes } from '../limits.ts';
import type { UnpackLimits } from '../limits.ts';
import { ImageError } from './errors.ts';

type Kind = 'dir' | 'file' | 'link';

interface Node {
  kind: Kind;
  /** The layer that last wrote this entry (folders: last declared or created it). */
  layer: number;
  size: number;
  /** Links: the target as the layer gave it. */
  target?: string;
  children?: Map<string, Node>;
}

export interface LayerBudget {
  limits: UnpackLimits;
  signal: AbortSignal;
  /** Entries of every layer (files, folders, links, whiteouts, skipped ones). */
  entries: number;
  /** Bytes written, every layer together (overwritten files count: they were written). */
  bytes: number;
  notes: Array<{ path: string; reason: string }>;
}

export interface Version {
  layer: number;
  /** The copy of the file as this layer wrote it (relative to the versions folder, `/`-separated); null when the layer removed it (or made it a link or folder). */
  file: string | null;
}

const NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;
const CREATE_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | NOFOLLOW;
const MAX_HOPS = 40;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const WINDOWS_BAD = /[\\<>:"|?*\u0000-\u001f]|[. ]$|^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
/** Files up to this size are read whole and written in parallel with the next entries. */
const SMALL_FILE = 1024 * 1024;
/** Small-file writes in flight at most. */
const PARALLEL = 16;
/** File-system refusals that concern one entry's name, not the whole image. */
const UNWRITABLE = new Set(['EEXIST', 'ENOTDIR', 'EISDIR', 'EINVAL', 'ENAMETOOLONG', 'EILSEQ']);
const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';

type TarHeaders = Omit<Header, 'pax' | 'type'> & { pax?: Record<string, string> | null; type?: string | null };

/** A root-relative path (`usr/lib/x`) as the segments a layer's entry names, `..` refused above the root. */
function entrySegments(name: string, label: string): string[] {
  const out: string[] = [];
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!out.length) throw new ImageError('traversal', `镜像${label}中的条目 ${printable(name)} 试图写到镜像根目录之外，已拒绝`);
      out.pop();
      continue;
    }
    out.push(segment);
  }
  return out;
}

/**
 * A link's target, rewritten for the host: relative to the link's folder, normalised, and never
 * climbing above the root (`..` at the root stays at the root, as in a chroot; absolute targets
 * are read from the root).
 */
export function hostTarget(linkDir: string[], target: string): string {
  const resolved: string[] = target.startsWith('/') ? [] : [...linkDir];
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') resolved.pop();
    else resolved.push(segment);
  }
  let common = 0;
  while (common < linkDir.length && common < resolved.length && linkDir[common] === resolved[common]) common++;
  const up = linkDir.length - common;
  const parts = [...Array<string>(up).fill('..'), ...resolved.slice(common)];
  return parts.length ? parts.join('/') : '.';
}

/** Whether a target, read from the link's folder, climbs above the root. */
function targetEscapes(linkDir: string[], target: string): boolean {
  let depth = target.startsWith('/') ? 0 : linkDir.length;
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (depth === 0) return true;
      depth--;
    } else depth++;
  }
  return false;
}

export class LayerApplier {
  private readonly root: string;
  private readonly versionsRoot: string;
  private readonly budget: LayerBudget;
  private readonly keep: ((path: string) => boolean) | undefined;
  private readonly tree: Node = { kind: 'dir', layer: -1, size: 0, children: new Map() };
  readonly versions = new Map<string, Version[]>();
  private layer = 0;
  private label = '';
  private readonly inflight = new Set<Promise<void>>();
  /** Names are checked against Windows' rules (tests set it on other systems). */
  windows = process.platform === 'win32';
  private failure: { error: unknown } | undefined;

  constructor(root: string, versionsRoot: string, budget: LayerBudget, keep?: (path: string) => boolean) {
    this.root = root;
    this.versionsRoot = versionsRoot;
    this.budget = budget;
    this.keep = keep;
  }

  /** Reads one layer's tar and applies it; `label` names the layer in messages (第 2 层（sha256:…）). */
  async apply(index: number, label: string, source: Readable): Promise<void> {
    this.layer = index;
    this.label = label;
    const whiteouts: string[][] = [];
    const opaques: string[][] = [];
    const extract = tar.extract({ allowUnknownFormat: true } as Parameters<typeof tar.extract>[0]);
    source.on('error', (error) => extract.destroy(error));
    source.pipe(extract as unknown as NodeJS.WritableStream);
    try {
      for await (const entry of extract) {
        const header = entry.header as TarHeaders;
        const type = header.type ?? 'unknown';
        if (type === 'pax-global-header' || type === 'pax-header' || type === 'gnu-long-path' || type === 'gnu-long-link-path') {
          entry.resume();
          continue;
        }
        this.budget.signal.throwIfAborted();
        if (++this.budget.entries > this.budget.limits.maxFiles) {
          throw new ImageError('too-many-files', `镜像的条目超过 ${this.budget.limits.maxFiles} 个上限（在${label}），疑似压缩炸弹，已拒绝`);
        }
        const name = header.pax?.path ?? header.name ?? '';
        const parts = entrySegments(name, label);
        if (Buffer.byteLength(parts.join('/')) > this.budget.limits.maxPathBytes) {
          entry.resume();
          this.note(parts.join('/'), `路径超过 ${this.budget.limits.maxPathBytes} 字节，已忽略`);
          continue;
        }
        const base = parts[parts.length - 1];
        if (base?.startsWith(WHITEOUT)) {
          entry.resume();
          if (base === OPAQUE) opaques.push(parts.slice(0, -1));
          else if (base.length > WHITEOUT.length) whiteouts.push([...parts.slice(0, -1), base.slice(WHITEOUT.length)]);
          continue;
        }
        if (!parts.length) {
          entry.resume();
          continue; // the root folder itself (`./`)
        }
        const long = parts.find((segment) => Buffer.byteLength(segment) > 255);
        if (long !== undefined) {
          entry.resume();
          this.note(parts.join('/'), `路径中的某一级名称超过 255 字节，已忽略（${label}）`);
          continue;
        }
        // On Windows a backslash would split a name into folders (`..\..\x` climbing out).
        if (this.windows && parts.some((segment) => WINDOWS_BAD.test(segment))) {
          entry.resume();
          this.note(parts.join('/'), `名称在 Windows 上不能使用，已忽略（${label}）`);
          continue;
        }
        try {
          if (type === 'file' || type === 'contiguous-file') {
            await this.file(parts, Readable.from(entry, { objectMode: false }), header.mode ?? 0, header.size ?? 0);
            continue;
          }
          entry.resume();
          const linkName = header.pax?.linkpath ?? header.linkname ?? '';
          if (type === 'directory') await this.dir(parts);
          else if (type === 'symlink') await this.symlink(parts, linkName);
          else if (type === 'link') await this.hardlink(parts, linkName);
          else if (type === 'unknown') this.note(parts.join('/'), `不支持的条目类型，已忽略（${label}）`);
          else this.note(parts.join('/'), `设备文件、管道等特殊条目（${type}），已忽略（${label}）`);
        } catch (error) {
          // Names this file system cannot hold (on Windows `aux`, `a:b`; on a case-insensitive one
          // `Foo` beside `foo`): the entry is skipped, the rest applied.
          const code = (error as NodeJS.ErrnoException).code;
          if (!code || !UNWRITABLE.has(code)) throw error;
          entry.resume();
          this.note(parts.join('/'), `此文件系统无法写入该名称（${code}，例如只差大小写的同名文件），已忽略（${label}）`);
        }
      }
      await this.settle();
    } catch (error) {
      // Nothing may still be writing when the caller removes the work folder.
      await Promise.allSettled(this.inflight);
      throw error;
    } finally {
      source.unpipe();
    }
    for (const dir of opaques) await this.opaque(dir);
    for (const parts of whiteouts) await this.whiteout(parts);
  }

  // ---- entries --------------------------------------------------------------------------------

  private async dir(parts: string[]): Promise<void> {
    const parent = await this.parent(parts);
    if (!parent) return;
    const name = parts[parts.length - 1]!;
    const existing = parent.node.children!.get(name);
    const rel = [...parent.path, name];
    if (existing?.kind === 'dir') {
      existing.layer = this.layer;
      return;
    }
    if (existing) await this.remove(parent.node, rel);
    await this.mkdir(parent.node, rel);
  }

  private async file(parts: string[], source: Readable, mode: number, size: number): Promise<void> {
    const { limits } = this.budget;
    const shown = parts.join('/');
    if (size > limits.maxFileBytes) throw new ImageError('too-large', `镜像${this.label}中的文件 ${printable(shown)} 超过单个文件 ${formatBytes(limits.maxFileBytes)} 上限，已拒绝`);
    if (this.budget.bytes + size > limits.maxTotalBytes) throw this.totalTooLarge();
    const parent = await this.parent(parts);
    if (!parent) {
      source.resume();
      return;
    }
    const name = parts[parts.length - 1]!;
    const rel = [...parent.path, name];
    if (parent.node.children!.has(name)) await this.remove(parent.node, rel);
    const absolute = this.abs(rel);
    const fileMode = privateEntryMode(mode);
    const tooLarge = () => new ImageError('too-large', `镜像${this.label}中的文件 ${printable(shown)} 超过单个文件 ${formatBytes(limits.maxFileBytes)} 上限，已拒绝`);
    if (size <= SMALL_FILE && !this.keep?.(rel.join('/'))) {
      // Most files of an image are small: read whole, written while the next entries are read.
      const chunks: Buffer[] = [];
      let written = 0;
      for await (const chunk of source) {
        written += (chunk as Buffer).length;
        this.budget.bytes += (chunk as Buffer).length;
        if (written > limits.maxFileBytes) throw tooLarge();
        if (this.budget.bytes > limits.maxTotalBytes) throw this.totalTooLarge();
        chunks.push(chunk as Buffer);
      }
      const node: Node = { kind: 'file', layer: this.layer, size: written };
      parent.node.children!.set(name, node);
      await this.spawn(rel, async () => {
        const handle = await openPrivate(absolute, CREATE_FLAGS, fileMode);
        try {
          await handle.writeFile(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        } finally {
          await handle.close();
        }
      }, () => {
        if (parent.node.children!.get(name) === node) parent.node.children!.delete(name);
      });
      return;
    }
    let written = 0;
    const meter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        written += chunk.length;
        this.budget.bytes += chunk.length;
        if (written > limits.maxFileBytes) return done(tooLarge());
        if (this.budget.bytes > limits.maxTotalBytes) return done(this.totalTooLarge());
        done(null, chunk);
      },
    });
    const handle = await openPrivate(absolute, CREATE_FLAGS, fileMode);
    await pipeline(source, meter, handle.createWriteStream(), { signal: this.budget.signal });
    parent.node.children!.set(name, { kind: 'file', layer: this.layer, size: written });
    await this.snapshot(rel, absolute, written);
  }

  /**
   * Runs a small file's write beside the reading of the next entries (at most PARALLEL at once).
   * Anything that removes or reads what may still be in flight waits for it first (settle()). A
   * name the file system refuses is noted and `undo` takes it out of the model.
   */
  private async spawn(rel: string[], write: () => Promise<void>, undo: () => void): Promise<void> {
    while (this.inflight.size >= PARALLEL) await Promise.race(this.inflight);
    this.rethrow();
    const task: Promise<void> = write()
      .catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code && UNWRITABLE.has(code)) {
          undo();
          this.note(rel.join('/'), `此文件系统无法写入该名称（${code}，例如只差大小写的同名文件），已忽略（${this.label}）`);
        } else this.failure ??= { error };
      })
      .finally(() => this.inflight.delete(task));
    this.inflight.add(task);
  }

  /** Waits for the writes in flight; throws the first that failed. */
  async settle(): Promise<void> {
    await Promise.all(this.inflight);
    this.rethrow();
  }

  private rethrow(): void {
    if (this.failure) throw this.failure.error;
  }

  private async symlink(parts: string[], target: string): Promise<void> {
    const parent = await this.parent(parts);
    if (!parent) return;
    const name = parts[parts.length - 1]!;
    const rel = [...parent.path, name];
    if (parent.node.children!.has(name)) await this.remove(parent.node, rel);
    try {
      await symlink(hostTarget(parent.path, target.replace(/\\/g, '/')), this.abs(rel));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.note(rel.join('/'), `无法创建符号链接${code ? `（${code}）` : ''}，已忽略（${this.label}）`);
      return;
    }
    parent.node.children!.set(name, { kind: 'link', layer: this.layer, size: 0, target });
  }

  /** A hard link to an earlier path of the image: linked on disk (copied where linking fails). */
  private async hardlink(parts: string[], targetName: string): Promise<void> {
    const targetParts = entrySegments(targetName, this.label);
    const shown = parts.join('/');
    const found = await this.lookup(targetParts);
    if (!found || found.node.kind === 'dir') {
      return void this.note(shown, `硬链接目标 ${printable(targetName)} 不是镜像中已有的文件，已忽略（${this.label}）`);
    }
    const parent = await this.parent(parts);
    if (!parent) return;
    const name = parts[parts.length - 1]!;
    const rel = [...parent.path, name];
    if (rel.join('/') === found.path.join('/')) return;
    if (parent.node.children!.has(name)) await this.remove(parent.node, rel);
    await this.settle();
    const from = this.abs(found.path);
    const to = this.abs(rel);
    if (found.node.kind === 'link') {
      await symlink(hostTarget(parent.path, found.node.target!), to);
      parent.node.children!.set(name, { kind: 'link', layer: this.layer, size: 0, target: found.node.target! });
      return;
    }
    try {
      await link(from, to);
    } catch {
      await copyPrivateFile(from, to, fsConstants.COPYFILE_EXCL);
    }
    parent.node.children!.set(name, { kind: 'file', layer: this.layer, size: found.node.size });
    await this.snapshot(rel, to, found.node.size);
  }

  // ---- whiteouts ------------------------------------------------------------------------------

  /** `.wh.<name>`: the lower entry goes (what this layer wrote there stays). */
  private async whiteout(parts: string[]): Promise<void> {
    const parent = await this.lookup(parts.slice(0, -1));
    if (!parent || parent.node.kind !== 'dir') return;
    const name = parts[parts.length - 1]!;
    const node = parent.node.children!.get(name);
    if (node) await this.prune(parent.node, [...parent.path, name], node);
  }

  /** `.wh..wh..opq`: the folder's lower contents go. */
  private async opaque(parts: string[]): Promise<void> {
    const found = await this.lookup(parts);
    if (!found || found.node.kind !== 'dir') return;
    for (const [name, child] of [...found.node.children!]) await this.prune(found.node, [...found.path, name], child);
  }

  /** Removes what lower layers wrote under `rel`, keeping this layer's entries and the folders holding them. */
  private async prune(parent: Node, rel: string[], node: Node): Promise<void> {
    if (node.kind === 'dir') {
      for (const [name, child] of [...node.children!]) await this.prune(node, [...rel, name], child);
      if (node.layer < this.layer && node.children!.size === 0) await this.remove(parent, rel);
      return;
    }
    if (node.layer < this.layer) await this.remove(parent, rel);
  }

  // ---- the model ------------------------------------------------------------------------------

  /**
   * Resolves an entry's parent folder in the model, following links inside the root and creating
   * missing folders. Undefined (with a note) when a parent is a file this layer wrote.
   */
  private async parent(parts: string[]): Promise<{ node: Node; path: string[] } | undefined> {
    return this.walk(parts.slice(0, -1), true, parts.join('/'));
  }

  /** Finds an existing entry (its own name not followed), or undefined. */
  private async lookup(parts: string[]): Promise<{ node: Node; path: string[] } | undefined> {
    if (!parts.length) return { node: this.tree, path: [] };
    const parent = await this.walk(parts.slice(0, -1), false, parts.join('/'));
    const name = parts[parts.length - 1]!;
    const node = parent?.node.children!.get(name);
    return node && parent ? { node, path: [...parent.path, name] } : undefined;
  }

  private async walk(parts: string[], create: boolean, shown: string): Promise<{ node: Node; path: string[] } | undefined> {
    const stack: Array<{ node: Node; name: string }> = [];
    const pending = [...parts];
    let hops = 0;
    const current = () => stack[stack.length - 1]?.node ?? this.tree;
    while (pending.length) {
      const segment = pending.shift()!;
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        stack.pop();
        continue;
      }
      const dir = current();
      let node = dir.children!.get(segment);
      const here = [...stack.map((s) => s.name), segment];
      if (node?.kind === 'link') {
        if (++hops > MAX_HOPS) throw new ImageError('symlink-loop', `镜像${this.label}中的条目 ${printable(shown)} 的上级路径符号链接层数超过 ${MAX_HOPS}（可能循环），已拒绝`);
        const linkDir = here.slice(0, -1);
        if (targetEscapes(linkDir, node.target!)) {
          throw new ImageError('traversal', `镜像${this.label}中的条目 ${printable(shown)} 经由符号链接 ${printable(here.join('/'))} 指向镜像根目录之外，已拒绝`);
        }
        const target = node.target!.split('/');
        if (node.target!.startsWith('/')) stack.length = 0;
        pending.unshift(...target);
        continue;
      }
      if (node?.kind === 'file') {
        if (!create) return undefined;
        if (node.layer === this.layer) {
          this.note(shown, `上级路径 ${printable(here.join('/'))} 是文件，已忽略（${this.label}）`);
          return undefined;
        }
        await this.remove(dir, here);
        node = undefined;
      }
      if (!node) {
        if (!create) return undefined;
        node = await this.mkdir(dir, here);
      }
      stack.push({ node, name: segment });
    }
    return { node: current(), path: stack.map((s) => s.name) };
  }

  private async mkdir(parent: Node, rel: string[]): Promise<Node> {
    try {
      await makePrivateDirOnce(this.abs(rel));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // There on disk but not in the model: a name differing only in case on a case-insensitive
      // file system. Only a real folder may be merged with; a link or a file is a conflict.
      const info = await lstat(this.abs(rel));
      if (!info.isDirectory()) throw error;
    }
    const node: Node = { kind: 'dir', layer: this.layer, size: 0, children: new Map() };
    parent.children!.set(rel[rel.length - 1]!, node);
    return node;
  }

  /** Removes an entry (a folder with everything in it) from the model and the disk. */
  private async remove(parent: Node, rel: string[]): Promise<void> {
    const name = rel[rel.length - 1]!;
    const node = parent.children!.get(name);
    if (!node) return;
    await this.settle();
    this.forEachFile(node, rel, (p) => this.recordRemoval(p));
    parent.children!.delete(name);
    await rm(this.abs(rel), { recursive: node.kind === 'dir', force: true, maxRetries: 3 });
  }

  private forEachFile(node: Node, rel: string[], visit: (rel: string[]) => void): void {
    if (node.kind !== 'dir') return visit(rel);
    for (const [name, child] of node.children!) this.forEachFile(child, [...rel, name], visit);
  }

  // ---- snapshots of kept paths ----------------------------------------------------------------

  /** Copies a kept file as this layer left it; the copies count against the total-size limit. */
  private async snapshot(rel: string[], absolute: string, size: number): Promise<void> {
    const key = rel.join('/');
    if (!this.keep?.(key)) return;
    this.budget.bytes += size;
    if (this.budget.bytes > this.budget.limits.maxTotalBytes) throw this.totalTooLarge();
    const copy = path.join(this.versionsRoot, String(this.layer), ...rel);
    await makePrivateDir(path.dirname(copy));
    await rm(copy, { force: true });
    await copyPrivateFile(absolute, copy);
    this.pushVersion(key, { layer: this.layer, file: [String(this.layer), ...rel].join('/') });
  }

  /** A kept path that stops being a file in this layer (removed, or replaced by a link or folder). */
  private recordRemoval(rel: string[]): void {
    const key = rel.join('/');
    if (!this.versions.has(key)) return;
    this.pushVersion(key, { layer: this.layer, file: null });
  }

  /** One version per layer (its last state of the path); a removal only after a file version. */
  private pushVersion(key: string, version: Version): void {
    const list = this.versions.get(key) ?? [];
    if (list[list.length - 1]?.layer === version.layer) list.pop();
    const previous = list[list.length - 1];
    if (version.file !== null || (previous && previous.file !== null)) list.push(version);
    if (list.length) this.versions.set(key, list);
    else this.versions.delete(key);
  }

  // ---- results --------------------------------------------------------------------------------

  /** Every regular file and link of the merged tree with the layer that last wrote it. */
  attribution(): { layers: Map<string, number>; files: number; bytes: number } {
    const layers = new Map<string, number>();
    let files = 0;
    let bytes = 0;
    const visit = (node: Node, rel: string) => {
      for (const [name, child] of node.children!) {
        const p = rel ? `${rel}/${name}` : name;
        if (child.kind === 'dir') visit(child, p);
        else {
          layers.set(p, child.layer);
          if (child.kind === 'file') {
            files++;
            bytes += child.size;
          }
        }
      }
    };
    visit(this.tree, '');
    return { layers, files, bytes };
  }

  private note(p: string, reason: string): void {
    this.budget.notes.push({ path: printable(p), reason });
  }

  private abs(rel: string[]): string {
    return rel.length ? path.join(this.root, ...rel) : this.root;
  }

  private totalTooLarge(): ImageError {
    return new ImageError('too-large', `镜像解压后超过 ${formatBytes(this.budget.limits.maxTotalBytes)} 上限（在${this.label}），疑似压缩炸弹，已拒绝`);
  }
}
