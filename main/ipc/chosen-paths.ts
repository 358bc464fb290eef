// The local paths a renderer may hand to main: those the user chose in this session. A page that
// went wrong (an XSS, a hostile dependency) must not make main read whatever file it names —
// upload it to a server, open it for review. So main keeps, per launch, the paths that reached it
// through the user's own action, and the dispatcher (dispatcher.ts, the same in both hosts)
// refuses every path field of a call that is not one of them.
//
// Who registers, always main's own code, never a call the page can make with a string:
//   - the native open dialog (uploads:pick, review:pick): the dispatcher registers what they answer;
//   - Electron drops and file inputs: preload's `files.pathFor(file)` hands main the path Electron
//     itself gives for a real File (webUtils.getPathForFile) on FILES_CHOSEN_CHANNEL (electron.ts);
//   - the web host's staged copies of browser files (web-host/host.ts, POST /__desktop/files).
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { desktopContract } from '../../contract/ipc/desktop-contract.ts';

/** Most paths kept; the oldest is forgotten first (a session that chose more is not plausible). */
const MAX_CHOSEN_PATHS = 10_000;

export interface ChosenPaths {
  /** Record a path the user chose (absolute; kept as `path.resolve` gives it). */
  add(file: string): void;
  /**
   * Whether `file` is a chosen path — exactly, or with `within` also anything inside a chosen
   * folder (both as written and where it really leads, so a link cannot point out of the folder).
   */
  allows(file: string, within?: boolean): Promise<boolean>;
  readonly size: number;
}

const isInside = (root: string, target: string): boolean => {
  const rel = path.relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

export function createChosenPaths(max = MAX_CHOSEN_PATHS): ChosenPaths {
  // Insertion order is kept: the first key is the oldest.
  const chosen = new Set<string>();
  return {
    add(file) {
      if (typeof file !== 'string' || !file || !path.isAbsolute(file)) return;
      const key = path.resolve(file);
      chosen.delete(key);
      chosen.add(key);
      while (chosen.size > max) chosen.delete(chosen.values().next().value!);
    },
    async allows(file, within = false) {
      if (typeof file !== 'string' || !file || !path.isAbsolute(file)) return false;
      const target = path.resolve(file);
      if (chosen.has(target)) return true;
      if (!within) return false;
      const roots = [...chosen].filter((root) => isInside(root, target));
      if (roots.length === 0) return false;
      const real = await realpath(target).catch(() => null);
      if (!real) return false;
      for (const root of roots) {
        const realRoot = await realpath(root).catch(() => null);
        if (realRoot && isInside(realRoot, real)) return true;
      }
      return false;
    },
    get size() {
      return chosen.size;
    },
  };
}

// ---- which calls take chosen paths, and which answer them

export interface PathField {
  /** Top-level field of the request that names a local path. */
  field: string;
  /** Also accept a path inside a chosen folder (no call needs it yet). */
  within?: boolean;
  /** The refusal, in Chinese. */
  refused: string;
}

const REFUSED = {
  upload: '只能上传本次运行中通过选择或拖放提供的文件，请重新选择',
  review: '只能查看本次运行中通过选择或拖放提供的文件，请重新选择',
} as const;

/**
 * Every request field of the contract that names a local file or folder. A new call that takes a
 * path is added here (tests/unit/main/chosen-paths.test.ts fails on a path-like field that is
 * neither here nor explained there).
 */
export const PATH_FIELDS: ReadonlyMap<string, readonly PathField[]> = new Map([
  [desktopContract.uploads.start.channel, [{ field: 'path', refused: REFUSED.upload }]],
  [desktopContract.review.open.channel, [{ field: 'path', refused: REFUSED.review }]],
]);

/** Calls whose answer is paths the user chose in main's native open dialog. */
export const CHOOSING_CHANNELS: ReadonlySet<string> = new Set([desktopContract.uploads.pick.channel, desktopContract.review.pick.channel]);

/** The refusal for the first path field of `payload` that is not a chosen path, or null. */
export async function refusedPath(chosen: ChosenPaths, channel: string, payload: unknown): Promise<string | null> {
  const fields = PATH_FIELDS.get(channel);
  if (!fields) return null;
  for (const { field, within, refused } of fields) {
    const value = (payload as Record<string, unknown> | null)?.[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !(await chosen.allows(value, within))) return refused;
  }
  return null;
}

/** Register the paths a choosing call answered. */
export function registerChosen(chosen: ChosenPaths, channel: string, value: unknown): void {
  if (!CHOOSING_CHANNELS.has(channel) || !Array.isArray(value)) return;
  for (const item of value) if (typeof item === 'string') chosen.add(item);
}
