// Signing in to the active profile's platform. The password passes through here once, on its
// way to POST /api/login (and, when asked, into the OS keychain); it is never written to disk by
// us and never sent back to the renderer.
import { ResultCode } from '../../contract/envelope.ts';
import { login as loginCall, logout as logoutCall } from '../../contract/api/session.ts';
import type { LoginResult, Profile } from '../../contract/ipc/desktop-contract.ts';
import type { ApiClients } from './api-clients.ts';
import type { ProfilesService } from './profiles.ts';
import type { Vault } from './vault.ts';
import { DesktopError } from './errors.ts';
import type { SessionUser } from '../../contract/api/session.ts';

export interface LoginRequest {
  username: string;
  /** Omitted: use the password remembered in the keychain for this profile and user. */
  password?: string;
  remember: boolean;
}

export interface SessionService {
  saved(): Promise<{ username: string | null; hasPassword: boolean }>;
  login(request: LoginRequest): Promise<LoginResult>;
  logout(): Promise<null>;
  forget(): Promise<null>;
  /** Before a profile is removed: forget its remembered password and its session. */
  discardProfile(profile: Profile): Promise<void>;
}

export interface SessionOptions {
  profiles: ProfilesService;
  clients: ApiClients;
  vault: Vault;
}

const NO_SAVED_PASSWORD_MESSAGE = '没有为该账号记住密码，请输入密码';

export function createSession({ profiles, clients, vault }: SessionOptions): SessionService {
  const result = (code: number, message: string, data: SessionUser | null = null, vaultWarning: string | null = null): LoginResult => ({ code, message, data, vaultWarning });

  return {
    async saved() {
      const profile = profiles.active();
      if (!profile.username || !profile.rememberPassword) return { username: profile.username, hasPassword: false };
      const saved = await vault.get(profile.id, profile.username);
      return { username: profile.username, hasPassword: saved.ok && saved.value !== null };
    },

    async login(request) {
      const { profile, client } = clients.active();
      const username = request.username.trim();
      let password = request.password;
      const fromVault = password === undefined;
      if (password === undefined) {
        const saved = await vault.get(profile.id, username);
        if (!saved.ok) return result(ResultCode.FAILURE, `${saved.message}，请输入密码`);
        if (saved.value === null) return result(ResultCode.FAILURE, NO_SAVED_PASSWORD_MESSAGE);
        password = saved.value;
      }

      const env = await client.call({ method: loginCall.method, path: loginCall.path, body: { username, password } }, { expireSession: false });
      if (env.code !== ResultCode.SUCCESS) return result(env.code, env.message);

      // Signed in. Now honour "remember password": keychain or nothing, never a file.
      let vaultWarning: string | null = null;
      let remembered = false;
      if (request.remember && !fromVault) {
        const stored = await vault.set(profile.id, username, password);
        if (stored.ok) remembered = true;
        else vaultWarning = stored.message;
      } else if (request.remember && fromVault) {
        remembered = true;
      } else if (profile.rememberPassword && profile.username === username) {
        // Unticked: a password remembered earlier for this user must not linger.
        await vault.delete(profile.id, username);
      }
      // A different user on this profile: the previous user's remembered password goes.
      if (profile.username && profile.username !== username && profile.rememberPassword) await vault.delete(profile.id, profile.username);
      profiles.recordLogin(profile.id, { username, rememberPassword: remembered });
      return result(env.code, env.message || '登录成功', env.data as SessionUser, vaultWarning);
    },

    async logout() {
      const { client } = clients.active();
      // Best effort: the local session is dropped whatever the platform answers.
      await client.call({ method: logoutCall.method, path: logoutCall.path }, { expireSession: false });
      await client.clearSession();
      return null;
    },

    async forget() {
      const profile = profiles.active();
      profiles.setRememberPassword(profile.id, false);
      if (profile.username) {
        const deleted = await vault.delete(profile.id, profile.username);
        // Say so rather than pretend: the entry may still be in a keychain we cannot reach now.
        if (!deleted.ok) throw new DesktopError('vault-unavailable', `未能从钥匙串中删除密码：${deleted.message}`);
      }
      return null;
    },

    async discardProfile(profile) {
      if (profile.username) await vault.delete(profile.id, profile.username);
      clients.drop(profile.id);
    },
  };
}
