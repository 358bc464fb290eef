// Pure helpers of the report library screen: merging `library:progress` events into the listed
// entries, progress, what each state offers, the short SHA-256. Tested in Node.
import type { LibraryEntry, LibraryState } from '../../../contract/ipc/desktop-contract.ts';
import { searchTerms } from './reviewTable.ts';

export interface LibraryFilter {
  query: string;
  /** '' = every profile. */
  profileId: string;
}

/** Whether an entry matches the filter the way main's library.list does (file, subject, project names). */
export function matchesFilter(entry: LibraryEntry, filter: LibraryFilter): boolean {
  if (filter.profileId && entry.profileId !== filter.profileId) return false;
  const text = `${entry.fileName}\u0001${entry.subjectName}\u0001${entry.projectName}`.toLowerCase();
  return searchTerms(filter.query).every((t) => text.includes(t));
}

/**
 * A progress event applied to the list: the entry replaces its row; a new entry (a download just
 * started from the report screens) goes to the top when it matches the filter.
 */
export function mergeEntry(list: readonly LibraryEntry[], entry: LibraryEntry, filter: LibraryFilter): LibraryEntry[] {
  const at = list.findIndex((e) => e.id === entry.id);
  if (at >= 0) return list.map((e, i) => (i === at ? entry : e));
  return matchesFilter(entry, filter) ? [entry, ...list] : [...list];
}

export const isTransferring = (state: LibraryState): boolean => state === 'downloading' || state === 'retrying';

/** 0..1, or undefined while the size is not known (an indeterminate bar). */
export function progressOf(entry: Pick<LibraryEntry, 'received' | 'size' | 'state'>): number | undefined {
  if (entry.state === 'done' || entry.state === 'corrupt') return 1;
  if (entry.size <= 0) return undefined;
  return Math.min(1, entry.received / entry.size);
}

/** First 12 hex digits, for the column (the tooltip shows all 64). */
export const shortSha = (sha: string | null): string | null => (sha ? sha.slice(0, 12) : null);

/** What the row offers in each state. */
export interface EntryActions {
  view: boolean;
  openExternal: boolean;
  reveal: boolean;
  verify: boolean;
  /** 重新下载 (corrupt, done) or 重试 (failed, cancelled). */
  redownload: boolean;
  cancel: boolean;
  remove: boolean;
}

export function actionsFor(state: LibraryState): EntryActions {
  const onDisk = state === 'done' || state === 'corrupt';
  return {
    view: state === 'done',
    openExternal: state === 'done',
    reveal: onDisk,
    verify: onDisk,
    redownload: state === 'corrupt' || state === 'failed' || state === 'cancelled' || state === 'done',
    cancel: isTransferring(state),
    remove: !isTransferring(state),
  };
}

/** The profiles present in the library, by name, for the filter (the profile list itself needs no platform but may lack deleted profiles). */
export function profilesOf(entries: readonly LibraryEntry[]): Array<{ id: string; name: string }> {
  const seen = new Map<string, string>();
  for (const e of entries) if (!seen.has(e.profileId)) seen.set(e.profileId, e.profileName);
  return [...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, 'zh-CN'));
}

/** The offline review of a library entry. */
export const reviewUrl = (id: string): string => `/desktop/review?${new URLSearchParams({ id }).toString()}`;
