// Where `cairn user` finds the platform's database: the same places the platform and the desktop
// app use, and never a database that does not exist yet.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { desktopAppDataDir, platformDatabase } from '../../../cli/commands/platform-db.ts';
import { defaultAppDataDir } from '../../../main/web-host/cli.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'cairn-platform-db-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('platformDatabase', () => {
  it('finds the desktop app data folder where the desktop app and the web host keep it', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const env = { APPDATA: 'C:\\Users\\u\\AppData\\Roaming', XDG_CONFIG_HOME: '/xdg' };
      expect(desktopAppDataDir(platform, env, '/home/u')).toBe(defaultAppDataDir(platform, env, '/home/u'));
    }
    expect(desktopAppDataDir('linux', { CAIRN_HOME: work }, '/home/u')).toBe(work);
  });

  it('takes --data-dir, then DATABASE_URL, then CAIRN_DATA_DIR, then the embedded platform', () => {
    const dirs = ['flag', 'env', path.join('home', 'platform')].map((d) => path.join(work, d));
    for (const dir of dirs) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'cairn.db'), '');
    }
    const url = 'postgres://cairn:secret@db.example:5432/cairn';
    expect(platformDatabase(dirs[0], { DATABASE_URL: url }).config).toEqual({ kind: 'sqlite', file: path.join(dirs[0]!, 'cairn.db') });
    expect(platformDatabase(undefined, { DATABASE_URL: url, CAIRN_DATA_DIR: dirs[1] })).toEqual({ config: { kind: 'postgres', url }, label: 'postgres://cairn:***@db.example:5432/cairn' });
    expect(platformDatabase(undefined, { CAIRN_DATA_DIR: dirs[1] }).config).toEqual({ kind: 'sqlite', file: path.join(dirs[1]!, 'cairn.db') });
    expect(platformDatabase(undefined, { CAIRN_HOME: path.join(work, 'home') }).config).toEqual({ kind: 'sqlite', file: path.join(dirs[2]!, 'cairn.db') });
  });

  it('refuses a folder without a platform database, saying where it looked', () => {
    const empty = path.join(work, 'empty');
    expect(() => platformDatabase(empty, {})).toThrow(`未找到平台数据库：${path.join(empty, 'cairn.db')}`);
  });
});

