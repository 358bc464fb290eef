// Files of the platform are private to the account it runs as: folders 0700, files 0600, whatever
// the process umask (a mode given at creation is only ever narrowed by the umask, never widened).
// Every folder and file the platform creates (the data folder, the SQLite database, uploads, work
// folders and what archives unpack into them, reports, knowledge-base downloads, the secret key)
// is made through this module; ESLint's cairn/private-files refuses node:fs writers elsewhere in
// server/. On Windows the modes are mostly ignored (chmod only toggles the read-only flag, which
// 0600/0700 leave off): files inherit their folder's ACL, which for the desktop's app data is the
// user's profile (the user, SYSTEM and Administrators only).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** A file unpacked from an archive: owner read/write, and owner execute when the entry had any execute bit. */
export const privateEntryMode = (mode: number | undefined): number => ((mode ?? 0) & 0o111 ? 0o700 : PRIVATE_FILE_MODE);

/** Creates `dir` and any missing parents as 0700 (folders already there are left as they are). */
export async function makePrivateDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export function makePrivateDirSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates the one folder `dir` as 0700; fails with EEXIST like mkdir when it is there. */
export async function makePrivateDirOnce(dir: string): Promise<void> {
  await fsp.mkdir(dir, { mode: PRIVATE_DIR_MODE });
}

/** A new empty folder `<prefix>XXXXXX` (mkdtemp creates it 0700); its parents are created private. */
export async function makePrivateTempDir(prefix: string): Promise<string> {
  await makePrivateDir(path.dirname(prefix));
  return fsp.mkdtemp(prefix);
}

/** Writes a whole file, created 0600 (flag 'wx' to refuse an existing one). */
export async function writePrivateFile(file: string, data: string | Uint8Array, flag: 'w' | 'wx' = 'w'): Promise<void> {
  await fsp.writeFile(file, data, { mode: PRIVATE_FILE_MODE, flag });
}

export function writePrivateFileSync(file: string, data: string | Uint8Array, flag: 'w' | 'wx' = 'w'): void {
  fs.writeFileSync(file, data, { mode: PRIVATE_FILE_MODE, flag });
}

/** A write stream into a file created 0600 ('w' truncates, 'a' appends, 'r+' writes at `start`, 'wx' refuses an existing file). */
export function privateWriteStream(file: string, options: { flags?: 'w' | 'wx' | 'a' | 'r+'; start?: number } = {}): fs.WriteStream {
  return fs.createWriteStream(file, { flags: options.flags ?? 'w', mode: PRIVATE_FILE_MODE, ...(options.start !== undefined && { start: options.start }) });
}

/** Opens a file for writing, creating it with `mode` (0600 unless said otherwise): `flags` as fs.open takes them. */
export function openPrivate(file: string, flags: string | number, mode: number = PRIVATE_FILE_MODE): Promise<fsp.FileHandle> {
  return fsp.open(file, flags, mode);
}

/** Creates an empty 0600 file when there is none; an existing one is tightened. For files a library then opens (SQLite, report writers). */
export function touchPrivateFileSync(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  tightenSync(file);
}

/** Copies a file (copyFile keeps the source's mode bits) and makes the copy 0600, or 0700 when the source was executable. */
export async function copyPrivateFile(from: string, to: string, copyMode?: number): Promise<void> {
  await fsp.copyFile(from, to, copyMode);
  await fsp.chmod(to, privateEntryMode((await fsp.stat(to)).mode));
}

/**
 * Makes an existing folder 0700 or file 0600 (best effort: a file system without modes, or a file
 * owned by someone else, is left as it is and false answered). Links are never followed.
 */
export function tightenSync(target: string): boolean {
  try {
    const info = fs.lstatSync(target);
    if (info.isSymbolicLink()) return false;
    const mode = info.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((info.mode & 0o777) !== mode) fs.chmodSync(target, mode);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates a data folder privately, or tightens one an earlier version (or an operator) made: the
 * folder itself and what sits directly in it. Deeper levels are not walked at every start (uploads
 * and reports can be many thousands of files): they are unreachable by others through a 0700
 * folder, and everything written from now on is private anyway.
 */
export function preparePrivateFolder(dir: string): void {
  makePrivateDirSync(dir);
  tightenSync(dir);
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(dir);
  } catch {}
  for (const name of entries) tightenSync(path.join(dir, name));
}
