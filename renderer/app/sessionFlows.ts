// Session flows that span the bridge and the store: the start-up check, password login through
// desktop.session.login (main keeps the credentials), logout and switching server profiles.
import type { LoginResult } from '../../contract/ipc/desktop-contract.ts';
import { ResultCode } from '../../contract/envelope.ts';
import { messageForEnvelope } from '../../contract/errors.ts';
import { desktopApi } from '../api/desktopApi.ts';
import { platformApi } from '../api/platformApi.ts';
import { sessionActions } from './sessionSlice.ts';
import type { AppDispatch } from './store.ts';
import { zh } from '../i18n/zh-CN.ts';

/** Asks the platform who is signed in (main may still hold a session from before a reload). */
export const checkSession = () => async (dispatch: AppDispatch) => {
  const request = dispatch(platformApi.endpoints.self.initiate(undefined, { subscribe: false, forceRefetch: true }));
  try {
    const user = await request.unwrap();
    dispatch(sessionActions.restored(user));
  } catch {
    dispatch(sessionActions.restoreFailed());
  }
};

export interface LoginOutcome {
  ok: boolean;
  message: string | null;
  /** The login succeeded but the password could not be remembered. */
  vaultWarning: string | null;
  updatedPwd: boolean;
}

/** Password (or keychain) login through main. */
export const signIn =
  (request: { username: string; password?: string; remember: boolean }) =>
  async (dispatch: AppDispatch): Promise<LoginOutcome> => {
    let result: LoginResult;
    try {
      result = await dispatch(desktopApi.endpoints.login.initiate(request)).unwrap();
    } catch (e) {
      const message = typeof e === 'object' && e !== null && 'message' in e ? String((e as { message: unknown }).message) : zh.messages.requestFailed;
      return { ok: false, message: message || zh.messages.requestFailed, vaultWarning: null, updatedPwd: false };
    }
    if (result.code === ResultCode.SUCCESS && result.data) {
      dispatch(sessionActions.loggedIn(result.data));
      return { ok: true, message: null, vaultWarning: result.vaultWarning, updatedPwd: result.data.updatedPwd };
    }
    return { ok: false, message: messageForEnvelope(result), vaultWarning: null, updatedPwd: false };
  };

/** Ends the session in main (best effort: the local state is cleared whatever main answers). */
export const signOut = () => async (dispatch: AppDispatch) => {
  try {
    await dispatch(desktopApi.endpoints.logout.initiate()).unwrap();
  } catch {}
  dispatch(sessionActions.loggedOut());
};

/** Makes another server profile active, then checks whether it already has a session. */
export const switchProfile = (id: string) => async (dispatch: AppDispatch) => {
  const state = await dispatch(desktopApi.endpoints.activateProfile.initiate({ id })).unwrap();
  dispatch(sessionActions.profileSwitched());
  await dispatch(checkSession());
  return state;
};
