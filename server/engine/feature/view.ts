// The writer's view of a local folder as the platform sees the same folder uploaded as a zip: the
// files under `<folder name>/`, and every archive in it (a .jar, a .whl, a .zip of fixtures) also
// unpacked into a `<name>!/` folder beside it, as the platform's unpacker does for nested archives
// (sources/archive/index.ts), down to the same depth. Nothing is written into the folder: the
// archives unpack into a private temporary folder, mounted at their `!` paths. Extractors see this
// view through an ExtractContext confined like the scan's own (sources/tree.ts).
import { readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makePrivateTempDir } from '../../files/private.ts';
import type { ExtractContext } from '../model.ts';
import { NESTED_ARCHIVE } from '../sources/archive/index.ts';
import { DEFAULT_LIMITS } from '../sources/limits.ts';
import { walkTree, type WalkedFile } from '../sources/tree.ts';
import { detectFormat, unpackArchive, UnpackError, type UnpackProblem } from '../sources/unpack.ts';

/** A tree as the writer sees it: what the analysis walks, and a scan context that reports what extractors look at. */
export interface TreeView {
  /** The one folder at the top of the view's paths; '' when paths start at the root (an image). */
  readonly rootName: string;
  /** What could not be read (nested archives left packed), reported by the analysis. */
  readonly problems: UnpackProblem[];
  /** Every file the scan is offered; `walked: false` for those the analysis's file listing leaves out. */
  walk(signal: AbortSignal): AsyncGenerator<WalkedFile & { walked?: boolean }>;
  /** Where a view path is on disk; undefined outside the view. */
  resolve(rel: string): Promise<string | undefined>;
  list(rel: string): Promise<string[]>;
  context(signal: AbortSignal, seen: { read(p: string): void; exists(p: string): void; list(p: string): void }): ExtractContext;
}

export class UploadView implements TreeView {
  /** The folder's own name: the one folder at the top of the view. */
  readonly rootName: string;
  private readonly folder: string;
  /** `name/lib/x.jar!` → where that archive was unpacked. */
  private readonly mounts = new Map<string, string>();
  private temp: string | undefined;
  private count = 0;
  /** Nested archives left packed (damaged, unsupported, too deep), as the platform reports them. */
  readonly problems: UnpackProblem[] = [];

  constructor(folder: string) {
    this.folder = path.resolve(folder);
    this.rootName = path.basename(this.folder) || 'folder';
  }

  async close(): Promise<void> {
    if (this.temp) await rm(this.temp, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Every file of the view, as the analysis walks an upload (VCS folders and node_modules skipped). */
  async *walk(signal: AbortSignal): AsyncGenerator<WalkedFile> {
    for await (const file of walkTree(this.folder, signal)) {
      const rel = `${this.rootName}/${file.path}`;
      yield { ...file, path: rel };
      if (!NESTED_ARCHIVE.test(file.path)) continue;
      const mount = await this.expand(rel, file.absolute, signal);
      if (!mount) continue;
      for await (const inner of walkTree(mount, signal)) yield { ...inner, path: `${rel}!/${inner.path}` };
    }
  }

  /** Unpacks one archive of the folder as the platform would unpack it nested in the upload. */
  private async expand(rel: string, absolute: string, signal: AbortSignal): Promise<string | undefined> {
    if ((await detectFormat(absolute)).kind !== 'archive') return undefined;
    // The upload's own zip is level 0: the archives in the folder are level 1, so one level less here.
    const maxDepth = DEFAULT_LIMITS.maxDepth - 1;
    if (DEFAULT_LIMITS.maxDepth === 0) return undefined;
    this.temp ??= await makePrivateTempDir(path.join(tmpdir(), 'cairn-feature-'));
    const dest = path.join(this.temp, String(this.count++));
    try {
      const unpacked = await unpackArchive(absolute, dest, { signal, name: path.basename(rel), limits: { maxDepth } });
      for (const p of unpacked.problems) this.problems.push({ file: `${rel}!/${p.file}`, message: p.message });
    } catch (error) {
      if (!(error instanceof UnpackError) || error.fatal) throw error;
      this.problems.push({ file: rel, message: `嵌套压缩包 ${rel} 未解压：${error.message}` });
      return undefined;
    }
    this.mounts.set(`${rel}!`, dest);
    return dest;
  }

  /** Where a view path is on disk, inside the folder or an unpacked archive; undefined outside the view. */
  async resolve(rel: string): Promise<string | undefined> {
    const clean = rel.replace(/\/+$/, '');
    if (path.isAbsolute(clean) || clean.split(/[\\/]/).includes('..')) return undefined;
    const parts = clean.split('/').filter((s) => s && s !== '.');
    if (parts[0] !== this.rootName) return undefined;
    let base = this.folder;
    let rest = parts.slice(1);
    // The deepest mounted archive on the path (the mounts themselves hold their own nested ones).
    for (let i = parts.length; i > 1; i--) {
      const mount = this.mounts.get(parts.slice(0, i).join('/'));
      if (mount) {
        base = mount;
        rest = parts.slice(i);
        break;
      }
    }
    const joined = path.join(base, ...rest);
    try {
      const [real, realBase] = await Promise.all([realpath(joined), realpath(base)]);
      return real === realBase || real.startsWith(realBase + path.sep) ? real : undefined;
    } catch {
      return undefined;
    }
  }

  /** The view's folder listing: names on disk plus the `<archive>!` folders mounted in it. */
  async list(rel: string): Promise<string[]> {
    const clean = rel.replace(/\/+$/, '').replace(/^\.$/, '');
    if (!clean) return [this.rootName];
    const dir = await this.resolve(clean);
    if (!dir) return [];
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    for (const key of this.mounts.keys()) if (path.posix.dirname(key) === clean) names.push(path.posix.basename(key));
    return names;
  }

  /** The scan's context over the view, reporting every path an extractor looked at. */
  context(signal: AbortSignal, seen: { read(p: string): void; exists(p: string): void; list(p: string): void }): ExtractContext {
    return {
      signal,
      readText: async (rel) => {
        const file = await this.resolve(rel);
        if (!file || !(await stat(file)).isFile()) return undefined;
        const text = await readFile(file, 'utf8');
        seen.read(rel);
        return text;
      },
      list: async (rel) => {
        const names = await this.list(rel);
        seen.list(rel);
        return names;
      },
      exists: async (rel) => {
        const found = (rel.replace(/\/+$/, '') === '' || rel === '.') ? true : (await this.resolve(rel)) !== undefined;
        if (found) seen.exists(rel);
        return found;
      },
    };
  }
}
