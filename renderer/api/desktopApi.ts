// State that main owns (server profiles, the local platform, the keychain, the app) as RTK Query
// endpoints over the bridge. Events from main (profiles:changed, platform:status-changed) update
// the cached entries, so every screen shows the same live state.
import { createApi, fakeBaseQuery } from '@reduxjs/toolkit/query/react';
import type { Static } from 'typebox';
import type {
  AppInfo,
  ConnectionTest,
  LoginResult,
  PlatformStatus,
  Profile,
  ProfileInput,
  ProfilesState,
  SavedLoginSchema,
  VaultStatus,
} from '../../contract/ipc/desktop-contract.ts';
import { desktop, invokeDesktop, DesktopError } from '../platform/desktop.ts';
import { zh } from '../i18n/zh-CN.ts';

export interface BridgeError {
  code: string;
  message: string;
}

export type SavedLogin = Static<typeof SavedLoginSchema>;

const toBridgeError = (e: unknown): BridgeError =>
  e instanceof DesktopError ? { code: e.code, message: e.message } : { code: 'bridge-failed', message: e instanceof Error ? e.message : zh.app.bridgeError };

/** Runs a bridge call as an RTK Query queryFn result. */
async function bridge<T>(run: Parameters<typeof invokeDesktop<T>>[0]): Promise<{ data: T } | { error: BridgeError }> {
  try {
    return { data: await invokeDesktop(run) };
  } catch (e) {
    return { error: toBridgeError(e) };
  }
}

export const desktopApi = createApi({
  reducerPath: 'desktop',
  baseQuery: fakeBaseQuery<BridgeError>(),
  tagTypes: ['Profiles', 'Saved', 'Vault'],
  endpoints: (build) => ({
    appInfo: build.query<AppInfo, void>({
      queryFn: () => bridge((d) => d.app.info({})),
    }),
    profiles: build.query<ProfilesState, void>({
      queryFn: () => bridge((d) => d.profiles.list({})),
      providesTags: ['Profiles'],
      async onCacheEntryAdded(_arg, { updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        let off: (() => void) | undefined;
        try {
          await cacheDataLoaded;
          off = desktop().profiles.changed((state) => updateCachedData(() => state));
        } catch {}
        await cacheEntryRemoved;
        off?.();
      },
    }),
    addProfile: build.mutation<Profile, ProfileInput>({
      queryFn: (input) => bridge((d) => d.profiles.add(input)),
      invalidatesTags: ['Profiles'],
    }),
    updateProfile: build.mutation<Profile, { id: string; patch: Partial<ProfileInput> }>({
      queryFn: (req) => bridge((d) => d.profiles.update(req)),
      invalidatesTags: ['Profiles', 'Saved'],
    }),
    removeProfile: build.mutation<ProfilesState, { id: string }>({
      queryFn: (req) => bridge((d) => d.profiles.remove(req)),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(desktopApi.util.upsertQueryData('profiles', undefined, data));
        } catch {}
      },
    }),
    activateProfile: build.mutation<ProfilesState, { id: string }>({
      queryFn: (req) => bridge((d) => d.profiles.activate(req)),
      invalidatesTags: ['Saved'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(desktopApi.util.upsertQueryData('profiles', undefined, data));
        } catch {}
      },
    }),
    testProfile: build.mutation<ConnectionTest, { id?: string; url?: string }>({
      queryFn: (req) => bridge((d) => d.profiles.test(req)),
    }),
    platformStatus: build.query<PlatformStatus, void>({
      queryFn: () => bridge((d) => d.platform.status({})),
      async onCacheEntryAdded(_arg, { updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        let off: (() => void) | undefined;
        let removed = false;
        let latest: PlatformStatus | undefined;
        const apply = (status: PlatformStatus) => {
          latest = status;
          updateCachedData(() => status);
        };
        try {
          latest = (await cacheDataLoaded).data;
          off = desktop().platform.statusChanged(apply);
          // A change that happens before the event channel is open (the web host's EventSource
          // connects lazily) would be missed, so while the platform is starting we also ask.
          void (async () => {
            while (!removed && latest?.state === 'starting') {
              await new Promise((resolve) => setTimeout(resolve, 1000));
              if (removed) break;
              try { apply(await invokeDesktop((d) => d.platform.status({}))); } catch { /* the next event or poll will do */ }
            }
          })();
        } catch {}
        await cacheEntryRemoved;
        removed = true;
        off?.();
      },
    }),
    restartPlatform: build.mutation<PlatformStatus, void>({
      queryFn: () => bridge((d) => d.platform.restart({})),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(desktopApi.util.upsertQueryData('platformStatus', undefined, data));
        } catch {}
      },
    }),
    vaultStatus: build.query<VaultStatus, void>({
      queryFn: () => bridge((d) => d.vault.status({})),
      providesTags: ['Vault'],
    }),
    savedLogin: build.query<SavedLogin, void>({
      queryFn: () => bridge((d) => d.session.saved({})),
      providesTags: ['Saved'],
    }),
    login: build.mutation<LoginResult, { username: string; password?: string; remember: boolean }>({
      queryFn: (req) => bridge((d) => d.session.login(req)),
      invalidatesTags: ['Saved', 'Profiles'],
    }),
    forgetPassword: build.mutation<null, void>({
      queryFn: () => bridge((d) => d.session.forget({})),
      invalidatesTags: ['Saved', 'Profiles'],
    }),
    logout: build.mutation<null, void>({
      queryFn: () => bridge((d) => d.session.logout({})),
    }),
  }),
});

export const {
  useProfilesQuery,
  useAddProfileMutation,
  useUpdateProfileMutation,
  useRemoveProfileMutation,
  useActivateProfileMutation,
  useTestProfileMutation,
  usePlatformStatusQuery,
  useRestartPlatformMutation,
  useVaultStatusQuery,
  useSavedLoginQuery,
  useForgetPasswordMutation,
} = desktopApi;

/**
 * The shell the renderer runs in: `electron` (native dialogs, files with real paths) or `web` (the
 * web host: browser pickers, files staged through the host); null until main answers, `web` when
 * it cannot.
 */
export function useShell(): AppInfo['shell'] | null {
  const info = desktopApi.useAppInfoQuery();
  return info.data?.shell ?? (info.isError ? 'web' : null);
}

/** The active profile of a profiles state. */
export const activeProfile = (state: ProfilesState | undefined): Profile | undefined =>
  state?.profiles.find((p) => p.id === state.activeId);
