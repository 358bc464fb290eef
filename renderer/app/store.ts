// The Redux store: RTK Query for server state (platformApi) and main's state (desktopApi),
// slices for UI state only (session, ui), and a listener middleware for the side effects of
// events (storage, cache resets, toasts).
import { combineReducers, configureStore, createListenerMiddleware, isAnyOf, isRejectedWithValue } from '@reduxjs/toolkit';
import { platformApi } from '../api/platformApi.ts';
import { desktopApi } from '../api/desktopApi.ts';
import { isApiError, type ApiMeta } from '../api/baseQuery.ts';
import { initialSessionState, sessionActions, sessionSlice } from './sessionSlice.ts';
import { initialUiState, uiSlice } from './uiSlice.ts';
import { BATCH_SELECTION_KEYS, KEEP_ON_SESSION_END, STORAGE_KEYS, clearStorageExcept, readProduct, removeItems, writeItem, type Product } from './storage.ts';
import { silentNotifier, type Notifier } from './notifier.ts';
import { zh } from '../i18n/zh-CN.ts';

const rootReducer = combineReducers({
  session: sessionSlice.reducer,
  ui: uiSlice.reducer,
  [platformApi.reducerPath]: platformApi.reducer,
  [desktopApi.reducerPath]: desktopApi.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

interface StoreOptions {
  notifier?: Notifier;
  product?: Product;
  dark?: boolean;
}

export function createAppStore(options: StoreOptions = {}) {
  const notifier = options.notifier ?? silentNotifier;
  const listener = createListenerMiddleware<RootState>();

  // The session ended (expired, logged out, password changed, other server): clear local
  // storage except the product selector, drop every cached platform answer. The reminder poll
  // stops by itself: its subscription is skipped once no user is signed in.
  listener.startListening({
    matcher: isAnyOf(sessionActions.expired, sessionActions.loggedOut, sessionActions.passwordChanged, sessionActions.profileSwitched),
    effect: async (_action, api) => {
      clearStorageExcept(KEEP_ON_SESSION_END);
      // (The login screen shows why the session ended: session.endedReason.)
      // After the call that reported the expiry has settled (its answer must not land in the
      // fresh cache, nor be lost by its caller), drop every cached answer of the old session.
      await api.delay(0);
      api.dispatch(platformApi.util.resetApiState());
    },
  });

  // Product selector: persisted, and every product-dependent answer is refetched.
  listener.startListening({
    actionCreator: sessionActions.productChanged,
    effect: (action, api) => {
      writeItem(STORAGE_KEYS.product, String(action.payload));
      api.dispatch(platformApi.util.invalidateTags(['Product']));
    },
  });

  // Failures of platform calls show their message once (spec §8), unless the endpoint is quiet
  // (background polls, screens that show the error in place) or the session just expired.
  listener.startListening({
    predicate: (action) => isRejectedWithValue(action) && (action.type.startsWith(`${platformApi.reducerPath}/`)),
    effect: (action) => {
      if (!isRejectedWithValue(action)) return;
      const meta = (action.meta as { baseQueryMeta?: ApiMeta }).baseQueryMeta;
      const error = action.payload;
      if (meta?.quiet || !isApiError(error) || error.sessionExpired) return;
      notifier.error(error.message || zh.messages.requestFailed);
    },
  });

  return configureStore({
    reducer: rootReducer,
    preloadedState: {
      session: initialSessionState(options.product ?? readProduct()),
      ui: initialUiState(options.dark ?? false),
    },
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(platformApi.middleware, desktopApi.middleware),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];

/** Clears the stored batch-reanalysis selections (spec §2: leaving those screens). */
export const clearBatchSelections = (): void => removeItems(BATCH_SELECTION_KEYS);
