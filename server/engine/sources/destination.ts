// Where an unpacker may write: a folder that does not exist yet, or an empty one. Shared by the
// archive unpacker (unpack.ts) and the image layer applier (image/index.ts), each refusing in
// its own words.
import { lstat, readdir } from 'node:fs/promises';

/** true when `dest` is an existing empty folder, false when absent; throws `refuse()` when it is anything else. */
export async function emptyOrAbsent(dest: string, refuse: () => Error): Promise<boolean> {
  let info;
  try {
    info = await lstat(dest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (info.isDirectory() && (await readdir(dest)).length === 0) return true;
  throw refuse();
}
