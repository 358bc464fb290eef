// One API client per server profile, created on first use. Each profile keeps its own cookie jar,
// so switching between servers does not log the user out of the others. A client is rebuilt when
// its profile's address or certificate choice changes (its session is then gone anyway).
import type { Profile } from '../../contract/ipc/desktop-contract.ts';
import { createApiClient, type ApiClient, type ApiClientOptions } from './api-client.ts';
import type { ProfilesService } from './profiles.ts';

export interface ApiClients {
  forProfile(profile: Profile): ApiClient;
  /** The active profile and its client. */
  active(): { profile: Profile; client: ApiClient };
  /** Forget a profile's client and session (profile removed). */
  drop(profileId: string): void;
}

export interface ApiClientsOptions {
  profiles: ProfilesService;
  localUrl: () => string | null;
  localNotReadyMessage: () => string;
  onExpired: (profileId: string, message: string) => void;
  timeoutMs?: number;
  /** Injected in tests. */
  create?: (options: ApiClientOptions) => ApiClient;
}

export function createApiClients(options: ApiClientsOptions): ApiClients {
  const create = options.create ?? createApiClient;
  const clients = new Map<string, { key: string; client: ApiClient }>();

  const keyOf = (profile: Profile): string => (profile.kind === 'local' ? 'local' : `${profile.url}|${profile.allowSelfSigned}`);

  function forProfile(profile: Profile): ApiClient {
    const key = keyOf(profile);
    const existing = clients.get(profile.id);
    if (existing && existing.key === key) return existing.client;
    const client = create({
      // The local platform's port changes on every restart: the URL is read per call.
      baseUrl: profile.kind === 'local' ? options.localUrl : () => profile.url,
      notReadyMessage: options.localNotReadyMessage,
      allowSelfSigned: profile.allowSelfSigned,
      timeoutMs: options.timeoutMs,
      onExpired: (message) => options.onExpired(profile.id, message),
    });
    clients.set(profile.id, { key, client });
    return client;
  }

  return {
    forProfile,
    active() {
      const profile = options.profiles.active();
      return { profile, client: forProfile(profile) };
    },
    drop(profileId) {
      const existing = clients.get(profileId);
      clients.delete(profileId);
      void existing?.client.clearSession();
    },
  };
}
