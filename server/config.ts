// Reads the environment once, so the rest of the server gets plain typed settings.
import path from 'node:path';
import { DEFAULT_LOGIN_RATE_LIMITS, type LoginRateLimits } from './auth/rate-limit.ts';
import { DEFAULT_SYNC_ECOSYSTEMS, type KbSyncConfig } from './kb/sync-schedule.ts';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string };

export interface ServerConfig {
  host: string;
  port: number;
  database: DatabaseConfig;
  /** Uploads, unpacked inputs and other files of the platform (a shared volume for workers). */
  dataDir: string;
  /** Analyses running at once in this process (CAIRN_SCAN_CONCURRENCY, default 2). */
  scanConcurrency: number;
  adminPassword: string;
  sessionTtlMinutes: number;
  logLevel: string;
  /** Periodic knowledge-base sync from an OSV mirror; null when no mirror is configured. */
  kbSync: KbSyncConfig | null;
  /** Refused logins allowed per address and per username (CAIRN_LOGIN_LIMIT_*). */
  loginRateLimits: LoginRateLimits;
  /** Reverse proxies whose X-Forwarded-For is believed (CAIRN_TRUST_PROXY); false: none. */
  trustProxy: TrustProxy;
}

/** Proxy addresses, CIDR ranges or proxy-addr's names (loopback, uniquelocal), or a hop count. */
export type TrustProxy = false | string[] | number;

const positiveInt = (raw: string | undefined, fallback: number, name: string): number => {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`环境变量 ${name} 必须是非负整数，当前为 "${raw}"`);
  return value;
};

/**
 * CAIRN_TRUST_PROXY: the reverse proxies in front of the platform, as a comma-separated list of
 * addresses or CIDR ranges (`10.0.0.5,10.1.0.0/16`, `loopback`) or the number of proxy hops. Unset:
 * the client is the peer of the connection and X-Forwarded-For is ignored. "true" (believe any
 * peer) is refused: a client reaching the platform directly could then claim any address.
 */
export function trustProxyFromEnv(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') throw new Error('环境变量 CAIRN_TRUST_PROXY 不接受 true：请填写反向代理的地址或网段（逗号分隔），或代理层数');
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}

export function loginRateLimitsFromEnv(env: NodeJS.ProcessEnv): LoginRateLimits {
  const d = DEFAULT_LOGIN_RATE_LIMITS;
  return {
    perAddress: positiveInt(env.CAIRN_LOGIN_LIMIT_PER_ADDRESS, d.perAddress, 'CAIRN_LOGIN_LIMIT_PER_ADDRESS'),
    perUsername: positiveInt(env.CAIRN_LOGIN_LIMIT_PER_USERNAME, d.perUsername, 'CAIRN_LOGIN_LIMIT_PER_USERNAME'),
    windowSeconds: Math.max(1, positiveInt(env.CAIRN_LOGIN_LIMIT_WINDOW_SECONDS, d.windowSeconds, 'CAIRN_LOGIN_LIMIT_WINDOW_SECONDS')),
  };
}

function databaseFromEnv(env: NodeJS.ProcessEnv): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url && /^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const dataDir = path.resolve(env.CAIRN_DATA_DIR?.trim() || './.cairn-data');
  return { kind: 'sqlite', file: path.join(dataDir, 'cairn.db') };
}

/**
 * CAIRN_KB_MIRROR (http/https base URL laid out like OSV's bucket: <mirror>/<Ecosystem>/all.zip),
 * CAIRN_KB_SYNC_ECOSYSTEMS (comma-separated OSV names), CAIRN_KB_SYNC_HOURS (default 24).
 */
export function kbSyncFromEnv(env: NodeJS.ProcessEnv): KbSyncConfig | null {
  const mirror = env.CAIRN_KB_MIRROR?.trim();
  if (!mirror) return null;
  if (!/^https?:\/\//i.test(mirror)) throw new Error(`环境变量 CAIRN_KB_MIRROR 必须是 http:// 或 https:// 地址，当前为 "${mirror}"`);
  const ecosystems = (env.CAIRN_KB_SYNC_ECOSYSTEMS ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  const dataDir = path.resolve(env.CAIRN_DATA_DIR?.trim() || './.cairn-data');
  return {
    mirror,
    ecosystems: ecosystems.length ? ecosystems : DEFAULT_SYNC_ECOSYSTEMS,
    everyHours: Math.max(1, positiveInt(env.CAIRN_KB_SYNC_HOURS, 24, 'CAIRN_KB_SYNC_HOURS')),
    downloadDir: path.join(dataDir, 'kb-mirror'),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: positiveInt(env.PORT, 0, 'PORT'),
    database: databaseFromEnv(env),
    dataDir: path.resolve(env.CAIRN_DATA_DIR?.trim() || './.cairn-data'),
    scanConcurrency: Math.max(1, positiveInt(env.CAIRN_SCAN_CONCURRENCY, 2, 'CAIRN_SCAN_CONCURRENCY')),
    adminPassword: env.CAIRN_ADMIN_PASSWORD || 'Cairn@123',
    sessionTtlMinutes: Math.max(1, positiveInt(env.CAIRN_SESSION_TTL_MINUTES, 480, 'CAIRN_SESSION_TTL_MINUTES')),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    kbSync: kbSyncFromEnv(env),
    loginRateLimits: loginRateLimitsFromEnv(env),
    trustProxy: trustProxyFromEnv(env.CAIRN_TRUST_PROXY),
  };
}
