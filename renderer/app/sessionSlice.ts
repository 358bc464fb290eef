// Session UI state: who is signed in (as the platform told us) and the product selector.
// Actions are events: session/loggedIn, session/expired, session/loggedOut, ...
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUser } from '../../contract/api/session.ts';
import type { Product } from './storage.ts';
import { zh } from '../i18n/zh-CN.ts';

export type SessionStatus = 'unknown' | 'authenticated' | 'anonymous';

export interface SessionState {
  /** `unknown` until the start-up check (GET /api/user/self) has answered. */
  status: SessionStatus;
  user: SessionUser | null;
  product: Product;
  /** Why the last session ended, shown once on the login screen. */
  endedReason: string | null;
}

export const initialSessionState = (product: Product = 1): SessionState => ({
  status: 'unknown',
  user: null,
  product,
  endedReason: null,
});

const signedOut = (state: SessionState, reason: string | null): void => {
  state.status = 'anonymous';
  state.user = null;
  state.endedReason = reason;
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState(),
  reducers: {
    /** A login (password, keychain or token) succeeded. */
    loggedIn(state, action: PayloadAction<SessionUser>) {
      state.status = 'authenticated';
      state.user = action.payload;
      state.endedReason = null;
    },
    /** The start-up check found an open session in main. */
    restored(state, action: PayloadAction<SessionUser>) {
      state.status = 'authenticated';
      state.user = action.payload;
    },
    /** The start-up check found no session. */
    restoreFailed(state) {
      if (state.status === 'unknown') signedOut(state, null);
    },
    /** The platform answered code 3 (or main reported it): back to login. */
    expired(state, action: PayloadAction<{ message: string }>) {
      const wasIn = state.status === 'authenticated';
      signedOut(state, wasIn ? action.payload.message || zh.messages.sessionExpired : state.endedReason);
    },
    loggedOut(state) {
      signedOut(state, null);
    },
    /** The password was changed: the platform ends every session. */
    passwordChanged(state) {
      signedOut(state, null);
    },
    /** Personal information saved; the platform answers with the refreshed user. */
    userUpdated(state, action: PayloadAction<SessionUser>) {
      if (state.user) state.user = action.payload;
    },
    /** Another server profile became active: its session (if any) is checked again. */
    profileSwitched(state) {
      state.status = 'unknown';
      state.user = null;
      state.endedReason = null;
    },
    productChanged(state, action: PayloadAction<Product>) {
      state.product = action.payload;
    },
    endedReasonShown(state) {
      state.endedReason = null;
    },
  },
});

export const sessionActions = sessionSlice.actions;

export const permissionCodes = (user: SessionUser | null): string[] => (user ? user.permissionPOS.map((p) => p.code) : []);
