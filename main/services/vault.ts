// Credential vault: remembered passwords live in the OS keychain (macOS Keychain, Windows
// Credential Manager, Secret Service on Linux) through @napi-rs/keyring, under the service name
// `Cairn` and the account `<profileId>:<username>`.
//
// When no keychain is usable the vault REFUSES to remember a password and says so. There is
// deliberately no file fallback: a password in a JSON file next to the profiles is exactly what
// the design forbids (design.md §7).
import type { VaultStatus } from '../../contract/ipc/desktop-contract.ts';

export const VAULT_SERVICE = 'Cairn';
export const VAULT_UNAVAILABLE_MESSAGE = '系统钥匙串不可用，无法记住密码（未在明文中保存）';

/** The keychain itself, one entry per (service, account). Throws when the keychain is unusable. */
export interface KeyringBackend {
  /** Human name of the keychain, e.g. "Secret Service". */
  readonly name: string;
  /** Resolves when the keychain can be used right now; rejects with the reason otherwise. */
  probe(service: string): Promise<void>;
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  /** True when an entry was deleted, false when there was none. */
  delete(service: string, account: string): Promise<boolean>;
}

export type VaultResult<T> = { ok: true; value: T } | { ok: false; message: string };

export interface Vault {
  status(): Promise<VaultStatus>;
  get(profileId: string, username: string): Promise<VaultResult<string | null>>;
  set(profileId: string, username: string, password: string): Promise<VaultResult<null>>;
  delete(profileId: string, username: string): Promise<VaultResult<boolean>>;
}

export interface VaultOptions {
  backend: KeyringBackend;
  /** Keychain service name; `Cairn` unless a separate data dir needs its own namespace. */
  service?: string;
  log?: (message: string) => void;
}

const vaultAccount = (profileId: string, username: string): string => `${profileId}:${username}`;

/** Why the keychain could not be used, in Chinese, from the backend's (English) error. */
export function describeKeyringFailure(err: unknown, backendName: string): string {
  const text = err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : String(err);
  if (/DBUS_SESSION_BUS_ADDRESS|autolaunch|D-?Bus.*(connect|address|socket)|No such file or directory|Connection refused/i.test(text)) {
    return `${backendName}不可用：没有可用的 D-Bus 会话总线`;
  }
  if (/ServiceUnknown|org\.freedesktop\.secrets|was not provided by any \.service files|NoService|no secret service/i.test(text)) {
    return `${backendName}不可用：系统中没有运行密钥环服务（如 gnome-keyring）`;
  }
  if (/lock/i.test(text)) return `${backendName}已锁定，无法读写`;
  if (/abort|timed? ?out/i.test(text)) return `${backendName}没有响应`;
  if (/native binding|Cannot find module|not supported/i.test(text)) return '本机不支持系统钥匙串';
  return `无法访问${backendName}`;
}

export function createVault(options: VaultOptions): Vault {
  const { backend } = options;
  const service = options.service ?? VAULT_SERVICE;
  const log = options.log ?? (() => {});

  const refuse = (err: unknown, action: string): { ok: false; message: string } => {
    const reason = describeKeyringFailure(err, backend.name);
    log(`钥匙串${action}失败：${reason}（${err instanceof Error ? err.message : String(err)}）`);
    return { ok: false, message: `${VAULT_UNAVAILABLE_MESSAGE}：${reason}` };
  };
  const checkKey = (profileId: string, username: string): string | null =>
    profileId && username ? null : '缺少服务器或用户名，无法访问钥匙串';

  return {
    async status() {
      try {
        await backend.probe(service);
        return { available: true, backend: backend.name, message: `密码保存在系统钥匙串（${backend.name}）中` };
      } catch (err) {
        return { available: false, backend: describeKeyringFailure(err, backend.name), message: VAULT_UNAVAILABLE_MESSAGE };
      }
    },
    async get(profileId, username) {
      const bad = checkKey(profileId, username);
      if (bad) return { ok: false, message: bad };
      try {
        return { ok: true, value: await backend.get(service, vaultAccount(profileId, username)) };
      } catch (err) {
        return refuse(err, '读取');
      }
    },
    async set(profileId, username, password) {
      const bad = checkKey(profileId, username) ?? (password ? null : '密码为空，无法保存');
      if (bad) return { ok: false, message: bad };
      try {
        await backend.set(service, vaultAccount(profileId, username), password);
        return { ok: true, value: null };
      } catch (err) {
        return refuse(err, '保存');
      }
    },
    async delete(profileId, username) {
      const bad = checkKey(profileId, username);
      if (bad) return { ok: false, message: bad };
      try {
        return { ok: true, value: await backend.delete(service, vaultAccount(profileId, username)) };
      } catch (err) {
        return refuse(err, '删除');
      }
    },
  };
}

// ---- the real keychain

const PROBE_ACCOUNT = '__cairn_probe__';

function keychainName(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'macOS 钥匙串';
  if (platform === 'win32') return 'Windows 凭据管理器';
  return 'Secret Service';
}

export interface KeyringBackendOptions {
  platform?: NodeJS.Platform;
  /** Upper bound for one keychain call (an unlock prompt may be waiting for the user). */
  timeoutMs?: number;
}

/**
 * The OS keychain via @napi-rs/keyring, loaded lazily so that a missing native binary makes the
 * vault "unavailable" instead of crashing the app at start.
 *
 * On Linux the entry is pinned to Secret Service: the library's default would otherwise fall back
 * to the kernel keyring (keyutils), which forgets everything at logout/reboot — "remember my
 * password" would silently not remember. Pinned, a missing Secret Service is an error we report.
 */
export function createKeyringBackend(options: KeyringBackendOptions = {}): KeyringBackend {
  const platform = options.platform ?? process.platform;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const entryOptions = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  let loaded: Promise<typeof import('@napi-rs/keyring')> | null = null;
  const entry = async (service: string, account: string) => {
    loaded ??= import('@napi-rs/keyring');
    const { AsyncEntry } = await loaded;
    // The constructor itself throws when the pinned store cannot be reached (no D-Bus).
    return new AsyncEntry(service, account, entryOptions);
  };
  const signal = () => AbortSignal.timeout(timeoutMs);
  return {
    name: keychainName(platform),
    async probe(service) {
      await (await entry(service, PROBE_ACCOUNT)).getPassword(AbortSignal.timeout(Math.min(timeoutMs, 10_000)));
    },
    async get(service, account) {
      return (await (await entry(service, account)).getPassword(signal())) ?? null;
    },
    async set(service, account, secret) {
      await (await entry(service, account)).setPassword(secret, signal());
    },
    async delete(service, account) {
      return (await entry(service, account)).deleteCredential(signal());
    },
  };
}
