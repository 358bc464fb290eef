// Which database a platform uses, as the commands that act on it without a running platform (and
// so without an administrator) find it: the same `DATABASE_URL` and `CAIRN_DATA_DIR` the platform
// reads (server/config.ts), and by default the desktop app's embedded platform, which keeps its
// SQLite file in `<app data>/platform/cairn.db` (main/services/local-platform.ts).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../../server/config.ts';

/**
 * The app data folder of the desktop app and the web host: CAIRN_HOME, else Electron's userData
 * for an app named Cairn (as main/web-host/cli.ts defaultAppDataDir finds it).
 */
export function desktopAppDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  if (env.CAIRN_HOME?.trim()) return path.resolve(env.CAIRN_HOME.trim());
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Cairn');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Cairn');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Cairn');
}

/** The database and how to name it to the user. */
export interface PlatformDatabase {
  config: DatabaseConfig;
  /** The SQLite file, or the PostgreSQL URL without its password. */
  label: string;
}

const withoutPassword = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'PostgreSQL';
  }
};

/**
 * `--data-dir` first, then `DATABASE_URL` (postgres://…), then `CAIRN_DATA_DIR`, then the desktop's
 * embedded platform. A SQLite file that does not exist is refused (the message says where it was
 * looked for): a recovery command must never create an empty platform.
 */
export function platformDatabase(dataDir: string | undefined, env: NodeJS.ProcessEnv = process.env): PlatformDatabase {
  const url = env.DATABASE_URL?.trim();
  if (!dataDir && url && /^postgres(ql)?:\/\//.test(url)) return { config: { kind: 'postgres', url }, label: withoutPassword(url) };
  const dir = path.resolve(dataDir || env.CAIRN_DATA_DIR?.trim() || path.join(desktopAppDataDir(process.platform, env), 'platform'));
  const file = path.join(dir, 'cairn.db');
  if (!existsSync(file)) {
    throw new Error(`未找到平台数据库：${file}\n请用 --data-dir 指定平台数据目录（其中有 cairn.db），或设置 CAIRN_DATA_DIR；PostgreSQL 平台请设置 DATABASE_URL`);
  }
  return { config: { kind: 'sqlite', file }, label: file };
}
