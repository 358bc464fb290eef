// Acquiring an input for a scan: a folder as it is, or an untrusted archive unpacked safely into a
// temporary folder (design.md §4: size, file-count and ratio limits, no path traversal, no symlink
// escape). Also finds OS package databases in a tree (detectOsDatabases), for the container image
// analysis still to come: no scan calls it yet (contract/sources.ts: image sources wait for it).
import { open, rename, rm, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractArchive, unsupported } from './archive/index.ts';
import { detectFormat } from './archive/detect.ts';
import type { ArchiveFormat } from './archive/detect.ts';
import { UnpackError } from './archive/errors.ts';
import type { Budget, UnpackNote, UnpackProblem, UnpackProgress } from './archive/sink.ts';
import { copyPrivateFile, makePrivateDir, makePrivateTempDir } from '../../files/private.ts';
import { resolveLimits } from './limits.ts';
import type { UnpackLimits } from './limits.ts';
import { walkTree } from './tree.ts';
import { emptyOrAbsent } from './destination.ts';

export { UnpackError } from './archive/errors.ts';
export type { UnpackNote, UnpackProblem, UnpackProgress } from './archive/sink.ts';
export type { ArchiveFormat } from './archive/detect.ts';
export { detectFormat } from './archive/detect.ts';
export type { UnpackLimits } from './limits.ts';

export interface UnpackOptions {
  limits?: Partial<UnpackLimits>;
  signal?: AbortSignal;
  onProgress?: (event: UnpackProgress) => void;
  /** The archive's original name (uploads are stored under other names); names a bare .gz's file. */
  name?: string;
  /** Forces the encoding of entry names (`gbk`, `cp437`, ...); detected per name when absent. */
  encoding?: string;
}

export interface UnpackResult {
  format: ArchiveFormat;
  /** Regular files written, nested archives included. */
  files: number;
  bytes: number;
  /** Entries not written (special files, links leaving the folder, duplicates, ...), with why. */
  entries: UnpackNote[];
  /**
   * Nested archives left packed (deeper than `maxDepth`, damaged, unsupported), for the scan's
   * problems: their contents were not scanned.
   */
  problems: UnpackProblem[];
}

/**
 * Unpacks `file` (zip family, tar, gzip, bzip2, xz, 7z; recognised by content) into `dest`, which must
 * not exist or be an empty folder. Works in a temporary folder beside `dest` and renames it at the
 * end: on any error or abort nothing is left behind. Throws UnpackError for a refused archive, the
 * signal's reason when aborted.
 */
export async function unpackArchive(file: string, dest: string, options: UnpackOptions = {}): Promise<UnpackResult> {
  const limits = resolveLimits(options.limits);
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const detected = await detectFormat(file);
  const refused = unsupported(detected);
  if (refused) throw refused;
  const format = (detected as { format: ArchiveFormat }).format;

  const target = path.resolve(dest);
  const emptyDir = await emptyOrAbsent(target, () => new UnpackError('destination', `解压目录 ${target} 已存在且不为空`));
  const temp = await makePrivateTempDir(path.join(path.dirname(target), `.${path.basename(target)}.unpacking-`));
  const name = options.name ?? path.basename(file);
  const budget: Budget = { limits, signal, name, entries: 0, files: 0, bytes: 0, notes: [], problems: [], onProgress: options.onProgress };
  try {
    await extractArchive(file, temp, { budget, depth: 0, prefix: '', name, encoding: options.encoding });
    signal.throwIfAborted();
    if (emptyDir) await rmdir(target);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
  return { format, files: budget.files, bytes: budget.bytes, entries: budget.notes, problems: budget.problems };
}

export interface Input {
  /** The folder to scan. */
  root: string;
  /** Set when the input was an archive: what unpacking it produced. */
  unpacked?: UnpackResult;
  /** Removes the temporary folder of an unpacked archive; does nothing for a folder input. */
  cleanup(): Promise<void>;
}

export interface OpenInputOptions extends UnpackOptions {
  /** Where temporary folders go (default: the OS temp folder). */
  tempDir?: string;
}

/**
 * Built artefacts the binary extractors identify whole — Java archives and their kin, package files
 * of Debian, RPM, Alpine, Python and NuGet. Given alone they are analysed as a folder
 * holding the file, never unpacked: their own metadata (pom.properties, control, METADATA) then
 * names them, where unpacked a jar's packaged pom.xml would read as a project with its build's
 * test dependencies. (Inside an uploaded zip they are both kept and unpacked beside themselves.)
 */
export const PACKAGED_ARTEFACT = /\.(jar|war|ear|aar|hpi|jpi|whl|egg|nupkg|deb|udeb|ipk|rpm|apk)$/i;

/**
 * What the CLI calls before `scanTree` (a platform analysis unpacks its upload with unpackArchive,
 * analyse.ts): a folder is used as it is; an archive is unpacked into a temporary folder that
 * `cleanup()` removes. Anything else is refused.
 */
export async function openInput(input: string, options: OpenInputOptions = {}): Promise<Input> {
  // The path itself comes from the user or the platform (trusted): a link to a folder is fine.
  const info = await stat(input).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new UnpackError('not-archive', `输入 ${input} 不存在`);
    throw error;
  });
  if (info.isDirectory()) return { root: input, cleanup: async () => {} };
  if (!info.isFile()) throw new UnpackError('not-archive', `输入 ${input} 既不是文件夹也不是压缩包`);
  const parent = await makePrivateTempDir(path.join(options.tempDir ?? tmpdir(), 'cairn-input-'));
  const root = path.join(parent, 'root');
  const name = options.name ?? path.basename(input);
  if (PACKAGED_ARTEFACT.test(name)) {
    await makePrivateDir(root);
    await copyPrivateFile(input, path.join(root, path.basename(name)));
    return { root, cleanup: () => rm(parent, { recursive: true, force: true, maxRetries: 3 }) };
  }
  try {
    const unpacked = await unpackArchive(input, root, { ...options, name: options.name ?? path.basename(input) });
    return { root, unpacked, cleanup: () => rm(parent, { recursive: true, force: true, maxRetries: 3 }) };
  } catch (error) {
    await rm(parent, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}

// ---- OS package databases ----------------------------------------------------------------------

export type OsPackageManager = 'dpkg' | 'opkg' | 'apk' | 'rpm' | 'pacman';
export type OsDatabaseFormat = 'dpkg-status' | 'apk-installed' | 'rpm-bdb' | 'rpm-ndb' | 'rpm-sqlite' | 'pacman-desc';

export interface OsDatabase {
  /** Root-relative, `/`-separated. */
  path: string;
  manager: OsPackageManager;
  format: OsDatabaseFormat;
  /** Found at the manager's own location (as opposed to a bare file recognised by name and content). */
  atLocation: boolean;
  /** The content looks like the format (an empty or damaged database is still reported, as false). */
  content: boolean;
}

interface Rule {
  manager: OsPackageManager;
  format: OsDatabaseFormat;
  /** The database's own location, anywhere in the tree (images unpack layers into sub-folders). */
  location: RegExp;
  /** The file name that, with matching content, is a database outside its usual location. */
  name: RegExp;
}

const RULES: readonly Rule[] = [
  { manager: 'dpkg', format: 'dpkg-status', location: /(^|\/)var\/lib\/dpkg\/(status|status\.d\/[^/]+)$/, name: /^status$/ },
  { manager: 'opkg', format: 'dpkg-status', location: /(^|\/)(usr\/lib|var\/lib)\/opkg\/status$/, name: /^$/ },
  { manager: 'apk', format: 'apk-installed', location: /(^|\/)lib\/apk\/db\/installed$/, name: /^installed$/ },
  { manager: 'rpm', format: 'rpm-bdb', location: /(^|\/)(var\/lib|usr\/lib\/sysimage)\/rpm\/Packages$/, name: /^Packages$/ },
  { manager: 'rpm', format: 'rpm-ndb', location: /(^|\/)(var\/lib|usr\/lib\/sysimage)\/rpm\/Packages\.db$/, name: /^Packages\.db$/ },
  { manager: 'rpm', format: 'rpm-sqlite', location: /(^|\/)(var\/lib|usr\/lib\/sysimage)\/rpm\/rpmdb\.sqlite$/, name: /^rpmdb\.sqlite$/ },
  // One record per package folder; `desc` alone is too common a name to mean pacman elsewhere.
  { manager: 'pacman', format: 'pacman-desc', location: /(^|\/)var\/lib\/pacman\/local\/[^/]+\/desc$/, name: /^$/ },
];

/**
 * By path only (cheap, for a walker): the database a root-relative path would be, if any.
 * `status.d/*.md5sums` (distroless) are checksum lists, not package records.
 */
export function matchOsDatabase(rel: string): { rule: Rule; atLocation: boolean } | undefined {
  if (rel.endsWith('.md5sums')) return undefined;
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  for (const rule of RULES) if (rule.location.test(rel)) return { rule, atLocation: true };
  for (const rule of RULES) if (rule.name.test(base)) return { rule, atLocation: false };
  return undefined;
}

/** Whether the first bytes of a file look like the database format. */
function looksLike(format: OsDatabaseFormat, head: Buffer): boolean {
  const text = () => head.toString('utf8');
  switch (format) {
    case 'dpkg-status':
      return /^Package:\s*\S/m.test(text());
    case 'apk-installed':
      return /^P:\S/m.test(text()) && /^V:\S/m.test(text());
    case 'rpm-bdb': {
      // Berkeley DB hash (0x061561) or btree (0x053162) magic at offset 12, either byte order.
      if (head.length < 16) return false;
      const le = head.readUInt32LE(12);
      const be = head.readUInt32BE(12);
      return [0x061561, 0x053162].some((m) => m === le || m === be);
    }
    case 'rpm-ndb':
      return head.length >= 4 && head.toString('latin1', 0, 4) === 'RpmP';
    case 'rpm-sqlite':
      return head.length >= 16 && head.toString('latin1', 0, 16) === 'SQLite format 3\0';
    case 'pacman-desc':
      return /^%NAME%\r?\n\S/m.test(text()) && /^%VERSION%\r?\n\S/m.test(text());
  }
}

/**
 * Finds the OS package databases in a tree: files at a package manager's own location, and files
 * named like one whose content matches. A later reader extracts their packages.
 */
export async function detectOsDatabases(root: string, signal?: AbortSignal): Promise<OsDatabase[]> {
  const found: OsDatabase[] = [];
  for await (const file of walkTree(root, signal)) {
    const match = matchOsDatabase(file.path);
    if (!match) continue;
    const content = looksLike(match.rule.format, await readHead(file.absolute, 4096));
    if (!match.atLocation && !content) continue;
    found.push({ path: file.path, manager: match.rule.manager, format: match.rule.format, atLocation: match.atLocation, content });
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

async function readHead(file: string, n: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
