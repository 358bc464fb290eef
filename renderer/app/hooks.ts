// Typed hooks (design §6) and the small selectors every screen uses.
import { useDispatch, useSelector } from 'react-redux';
import { useCallback } from 'react';
import { hasPermission } from '../../contract/permissions.ts';
import type { AppDispatch, RootState } from './store.ts';
import { permissionCodes } from './sessionSlice.ts';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

export const selectUser = (s: RootState) => s.session.user;
export const selectProduct = (s: RootState) => s.session.product;
export const selectSessionStatus = (s: RootState) => s.session.status;

/** `has(code)`: whether the signed-in user holds a permission code (spec §6). */
export function usePermissions(): (code: string) => boolean {
  const user = useAppSelector(selectUser);
  return useCallback((code: string) => hasPermission(permissionCodes(user), code), [user]);
}
