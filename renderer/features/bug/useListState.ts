// The list state kept in the URL query of the current route (see listQuery.ts): reading it, and
// pushing a new history entry on every change, so back/forward walk through the filters.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readListState, writeListState, type ListState } from './listQuery.ts';

export function useListState(): [ListState, (next: ListState) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const update = useCallback((next: ListState) => setParams((old) => writeListState(next, old)), [setParams]);
  return [state, update];
}
