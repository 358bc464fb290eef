// The licence list state kept in the URL query (see licenseQuery.ts); every change pushes a history entry.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readLicenseState, writeLicenseState, type LicenseListState } from './licenseQuery.ts';

export function useLicenseListState(): [LicenseListState, (next: LicenseListState) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readLicenseState(params), [params]);
  const update = useCallback((next: LicenseListState) => setParams((old) => writeLicenseState(next, old)), [setParams]);
  return [state, update];
}
