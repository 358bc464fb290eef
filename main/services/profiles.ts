// Server profiles: which platform the app talks to. The embedded platform ("本机", id `local`) is
// always first, cannot be removed and is the default; remote profiles point at a team server.
// Kept in a KeyValueStore (electron-store in Electron, conf elsewhere) under `profiles` and
// `activeId`. Passwords are never stored here (see vault.ts): only whether one is remembered.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Compile } from 'typebox/compile';
import { ProfileSchema, type ConnectionTest, type Profile, type ProfileInput, type ProfilesState } from '../../contract/ipc/desktop-contract.ts';
import { DesktopError, invalidInput } from './errors.ts';
import type { KeyValueStore } from './store.ts';
import { probeHealth, type HealthOptions, type HealthResult } from './health.ts';

export const LOCAL_PROFILE_ID = 'local';
const LOCAL_PROFILE_NAME = '本机';
const NAME_MAX = 100;
const URL_MAX = 500;
const USERNAME_MAX = 100;

export interface ProfilesService {
  state(): ProfilesState;
  get(id: string): Profile | null;
  /** The active profile (falls back to local when the stored id is gone). */
  active(): Profile;
  add(input: ProfileInput): Profile;
  update(id: string, patch: Partial<ProfileInput>): Profile;
  remove(id: string): ProfilesState;
  activate(id: string): ProfilesState;
  /** After a successful login: remember the user name, whether the password is in the vault, and when. */
  recordLogin(id: string, login: { username: string; rememberPassword: boolean }): Profile;
  setRememberPassword(id: string, rememberPassword: boolean): Profile;
  /** Test a saved profile (`id`) or an address typed in a form (`url`). */
  test(target: { id?: string; url?: string }): Promise<ConnectionTest>;
  onChanged(listener: (state: ProfilesState) => void): () => void;
}

export interface ProfilesOptions {
  store: KeyValueStore;
  /** URL of the embedded platform while it runs, else null. */
  localUrl: () => string | null;
  /** Why the local platform has no URL right now (shown by the connection test). */
  localNotReadyMessage?: () => string;
  now?: () => Date;
  newId?: () => string;
  testTimeoutMs?: number;
  /** Injected in tests; defaults to GET /api/health. */
  probe?: (url: string, options: HealthOptions) => Promise<HealthResult>;
}

const checkProfile = Compile(ProfileSchema);

/** Validate a profile name: 1–100 characters after trimming. */
function validateName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) throw invalidInput('请输入服务器名称');
  if ([...name].length > NAME_MAX) throw invalidInput(`服务器名称不能超过 ${NAME_MAX} 个字符`);
  return name;
}

/** Validate and normalise a server address: http(s) only, no credentials, query or fragment. */
export function validateUrl(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) throw invalidInput('请输入服务器地址');
  if (text.length > URL_MAX) throw invalidInput(`服务器地址不能超过 ${URL_MAX} 个字符`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidInput('服务器地址格式不正确，例如 https://cairn.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidInput('服务器地址必须以 http:// 或 https:// 开头');
  if (!url.hostname) throw invalidInput('服务器地址缺少主机名');
  if (url.username || url.password) throw invalidInput('服务器地址中不能包含用户名或密码');
  if (url.search || url.hash) throw invalidInput('服务器地址不能包含查询参数（?）或锚点（#）');
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

function validateUsername(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) return null;
  if ([...name].length > USERNAME_MAX) throw invalidInput(`用户名不能超过 ${USERNAME_MAX} 个字符`);
  return name;
}

export function createProfiles(options: ProfilesOptions): ProfilesService {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? (() => randomUUID());
  const probe = options.probe ?? probeHealth;
  const emitter = new EventEmitter();

  const localDefault = (): Profile => ({
    id: LOCAL_PROFILE_ID,
    name: LOCAL_PROFILE_NAME,
    kind: 'local',
    url: '',
    username: null,
    rememberPassword: false,
    allowSelfSigned: false,
    createdAt: now().toISOString(),
    lastUsedAt: null,
  });

  /** Read the store, repairing what a hand edit or an older version may have left. */
  function load(): ProfilesState {
    const raw = store.get('profiles');
    const list = Array.isArray(raw) ? raw.filter((p): p is Profile => checkProfile.Check(p)) : [];
    const stored = list.find((p) => p.id === LOCAL_PROFILE_ID);
    const local: Profile = stored ? { ...stored, kind: 'local', name: LOCAL_PROFILE_NAME, url: '', allowSelfSigned: false } : localDefault();
    const seen = new Set<string>([LOCAL_PROFILE_ID]);
    const remotes = list.filter((p) => {
      if (p.kind !== 'remote' || seen.has(p.id)) return false;
      seen.add(p.id);
      return true;
    });
    const profiles = [local, ...remotes];
    const activeRaw = store.get('activeId');
    const activeId = typeof activeRaw === 'string' && profiles.some((p) => p.id === activeRaw) ? activeRaw : LOCAL_PROFILE_ID;
    return { profiles, activeId };
  }

  function save(state: ProfilesState): ProfilesState {
    store.set('profiles', state.profiles);
    store.set('activeId', state.activeId);
    const copy = structuredClone(state);
    emitter.emit('changed', copy);
    return structuredClone(state);
  }

  function find(state: ProfilesState, id: string): Profile {
    const profile = state.profiles.find((p) => p.id === id);
    if (!profile) throw new DesktopError('not-found', '找不到该服务器配置，可能已被删除');
    return profile;
  }

  function assertUniqueName(state: ProfilesState, name: string, exceptId?: string): void {
    const clash = state.profiles.find((p) => p.id !== exceptId && p.name === name);
    if (clash) throw invalidInput(clash.kind === 'local' ? `“${LOCAL_PROFILE_NAME}”是内嵌平台的名称，请换一个名称` : `已存在同名的服务器：${name}`);
  }

  function replace(state: ProfilesState, next: Profile): ProfilesState {
    return { ...state, profiles: state.profiles.map((p) => (p.id === next.id ? next : p)) };
  }

  async function test(target: { id?: string; url?: string }): Promise<ConnectionTest> {
    const timeoutMs = options.testTimeoutMs ?? 5000;
    let url: string;
    let allowSelfSigned = false;
    if (target.url !== undefined && target.url !== '') {
      try {
        url = validateUrl(target.url);
      } catch (err) {
        return { ok: false, latencyMs: null, message: (err as Error).message };
      }
      if (target.id) allowSelfSigned = find(load(), target.id).allowSelfSigned;
    } else {
      const profile = target.id ? find(load(), target.id) : api.active();
      if (profile.kind === 'local') {
        const local = options.localUrl();
        if (!local) return { ok: false, latencyMs: null, message: options.localNotReadyMessage?.() ?? '本机平台尚未启动' };
        url = local;
      } else {
        url = profile.url;
        allowSelfSigned = profile.allowSelfSigned;
      }
    }
    const result = await probe(url, { timeoutMs, allowSelfSigned });
    return { ok: result.ok, latencyMs: result.latencyMs, message: result.message };
  }

  const api: ProfilesService = {
    state: () => load(),
    get: (id) => load().profiles.find((p) => p.id === id) ?? null,
    active() {
      const state = load();
      return state.profiles.find((p) => p.id === state.activeId) ?? state.profiles[0]!;
    },
    add(input) {
      const state = load();
      const name = validateName(input.name);
      assertUniqueName(state, name);
      const profile: Profile = {
        id: newId(),
        name,
        kind: 'remote',
        url: validateUrl(input.url),
        username: validateUsername(input.username),
        rememberPassword: false,
        allowSelfSigned: input.allowSelfSigned === true,
        createdAt: now().toISOString(),
        lastUsedAt: null,
      };
      save({ ...state, profiles: [...state.profiles, profile] });
      return structuredClone(profile);
    },
    update(id, patch) {
      const state = load();
      const current = find(state, id);
      const next: Profile = { ...current };
      if (current.kind === 'local') {
        // The embedded platform has a fixed name and no address; only the user name may change.
        if (patch.name !== undefined && patch.name.trim() !== current.name) throw new DesktopError('not-allowed', `“${LOCAL_PROFILE_NAME}”是内嵌平台，不能修改名称`);
        if (patch.url !== undefined && patch.url.trim() !== '') throw new DesktopError('not-allowed', `“${LOCAL_PROFILE_NAME}”是内嵌平台，不能修改地址`);
        if (patch.allowSelfSigned === true) throw new DesktopError('not-allowed', `“${LOCAL_PROFILE_NAME}”是内嵌平台，不使用证书`);
      } else {
        if (patch.name !== undefined) {
          next.name = validateName(patch.name);
          assertUniqueName(state, next.name, id);
        }
        if (patch.url !== undefined) next.url = validateUrl(patch.url);
        if (patch.allowSelfSigned !== undefined) next.allowSelfSigned = patch.allowSelfSigned;
      }
      if (patch.username !== undefined) {
        const username = validateUsername(patch.username);
        // A remembered password belongs to one user name; changing it drops the flag (the
        // caller deletes the keychain entry).
        if (username !== current.username) next.rememberPassword = false;
        next.username = username;
      }
      save(replace(state, next));
      return structuredClone(next);
    },
    remove(id) {
      const state = load();
      const profile = find(state, id);
      if (profile.kind === 'local') throw new DesktopError('not-allowed', `“${LOCAL_PROFILE_NAME}”是内嵌平台，不能删除`);
      const profiles = state.profiles.filter((p) => p.id !== id);
      return save({ profiles, activeId: state.activeId === id ? LOCAL_PROFILE_ID : state.activeId });
    },
    activate(id) {
      const state = load();
      find(state, id);
      return save({ ...state, activeId: id });
    },
    recordLogin(id, login) {
      const state = load();
      const next: Profile = { ...find(state, id), username: validateUsername(login.username), rememberPassword: login.rememberPassword, lastUsedAt: now().toISOString() };
      save(replace(state, next));
      return structuredClone(next);
    },
    setRememberPassword(id, rememberPassword) {
      const state = load();
      const next: Profile = { ...find(state, id), rememberPassword };
      save(replace(state, next));
      return structuredClone(next);
    },
    test,
    onChanged(listener) {
      emitter.on('changed', listener);
      return () => emitter.off('changed', listener);
    },
  };
  return api;
}
