// The library's entries from main (library.list), kept current by `library:progress` events.
// Everything goes through window.desktop (main's own files): nothing here needs the platform.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LibraryEntry } from '../../../contract/ipc/desktop-contract.ts';
import { desktop, desktopErrorMessage, invokeDesktop } from '../../platform/desktop.ts';
import { mergeEntry, type LibraryFilter } from './libraryModel.ts';
import { libraryZh as t } from '../../i18n/library.ts';

export interface LibraryState {
  entries: LibraryEntry[];
  loading: boolean;
  error: string | null;
  reload(): void;
  /** Puts an entry answered by an action (verify, retry, cancel) in place. */
  replace(entry: LibraryEntry): void;
  drop(id: string): void;
}

export function useLibrary(filter: LibraryFilter): LibraryState {
  const [entries, setEntries] = useState<LibraryEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const filterRef = useRef(filter);
  filterRef.current = filter;

  useEffect(() => {
    let live = true;
    setLoading(true);
    const request = { ...(filter.query.trim() ? { query: filter.query.trim() } : {}), ...(filter.profileId ? { profileId: filter.profileId } : {}) };
    invokeDesktop((api) => api.library.list(request)).then(
      (list) => {
        if (!live) return;
        setEntries(list);
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (!live) return;
        setError(desktopErrorMessage(e, t.loadFailed));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [filter.query, filter.profileId, generation]);

  useEffect(() => desktop().library.progress((entry) => setEntries((list) => mergeEntry(list, entry, filterRef.current))), []);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const replace = useCallback((entry: LibraryEntry) => setEntries((list) => mergeEntry(list, entry, filterRef.current)), []);
  const drop = useCallback((id: string) => setEntries((list) => list.filter((e) => e.id !== id)), []);
  return { entries, loading, error, reload, replace, drop };
}
