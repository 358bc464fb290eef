// A list's state kept in the URL query of the current route (see urlState.ts): reading it, and
// pushing a new history entry on every change, so back/forward walk through the filters.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readUrlState, writeUrlState, type UrlFields, type UrlState } from './urlState.ts';

/** The state a list reads from and writes to the URL with its own pair of (module-level) functions. */
export function useListState<S>(read: (params: URLSearchParams) => S, write: (state: S, base: URLSearchParams) => URLSearchParams): [S, (next: S) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => read(params), [read, params]);
  const update = useCallback((next: S) => setParams((old) => write(next, old)), [write, setParams]);
  return [state, update];
}

/** The state of a list declared as URL fields (a module-level constant). */
export function useUrlState<F extends UrlFields>(fields: F): [UrlState<F>, (next: UrlState<F>) => void] {
  const read = useCallback((params: URLSearchParams) => readUrlState(fields, params), [fields]);
  const write = useCallback((state: UrlState<F>, base: URLSearchParams) => writeUrlState(fields, state, base), [fields]);
  return useListState(read, write);
}
