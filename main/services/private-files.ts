// The desktop's files are private to the user: folders 0700, files 0600, whatever the process umask
// (a mode given at creation is only ever narrowed by the umask). Every folder and file main/
// creates in the app's data folder (the profile store's folder, the report library, upload temp
// files, the web host's staged files, the embedded platform's data folder) is made through here;
// ESLint's cairn/private-files refuses node:fs writers elsewhere in main/. main/ may not import
// server/ code, nor contract/ node:*, so server/files/private.ts keeps its own copy of these few
// lines. On Windows the modes are mostly ignored: files inherit the ACL of the user's profile
// folder that holds the app data (the user, SYSTEM and Administrators only).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parents as 0700 (folders already there are left as they are). */
export async function makePrivateDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export function makePrivateDirSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Writes a whole file, created 0600. */
export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  await fsp.writeFile(file, data, { mode: PRIVATE_FILE_MODE });
}

/** A write stream into a file created 0600 ('w' truncates, 'a' appends, 'wx' refuses an existing file). */
export function privateWriteStream(file: string, flags: 'w' | 'wx' | 'a' = 'w'): fs.WriteStream {
  return fs.createWriteStream(file, { flags, mode: PRIVATE_FILE_MODE });
}

/** Makes an existing folder 0700 or file 0600; best effort (links are not followed, failures ignored). */
function tightenSync(target: string): void {
  try {
    const info = fs.lstatSync(target);
    if (info.isSymbolicLink()) return;
    const mode = info.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((info.mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch {}
}

/**
 * Creates the app's data folder privately, or tightens the one an earlier version left: the folder
 * and what sits directly in it (profiles.json, library/, upload-temp/, platform/, Chromium's own).
 * Deeper files are unreachable for others through a 0700 folder; new ones are private anyway.
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
