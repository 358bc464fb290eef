// The environment → settings mapping, in particular the optional knowledge-base mirror sync.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kbSyncFromEnv, loadConfig } from '../../../server/config.ts';
import { DEFAULT_SYNC_ECOSYSTEMS } from '../../../server/kb/sync-schedule.ts';

describe('平台配置', () => {
  it('未配置镜像时不同步知识库', () => {
    expect(kbSyncFromEnv({})).toBeNull();
    expect(loadConfig({}).kbSync).toBeNull();
  });

  it('镜像地址、生态与周期', () => {
    const sync = kbSyncFromEnv({ CAIRN_KB_MIRROR: 'https://mirror.example.com/osv', CAIRN_KB_SYNC_ECOSYSTEMS: 'PyPI, npm', CAIRN_KB_SYNC_HOURS: '6', CAIRN_DATA_DIR: '/var/lib/cairn' });
    expect(sync).toEqual({ mirror: 'https://mirror.example.com/osv', ecosystems: ['PyPI', 'npm'], everyHours: 6, downloadDir: path.join('/var/lib/cairn', 'kb-mirror') });
    expect(kbSyncFromEnv({ CAIRN_KB_MIRROR: 'http://10.0.0.5:8080' })!.ecosystems).toEqual(DEFAULT_SYNC_ECOSYSTEMS);
    expect(kbSyncFromEnv({ CAIRN_KB_MIRROR: 'http://10.0.0.5:8080' })!.everyHours).toBe(24);
  });

  it('非 http(s) 镜像地址和非法周期给出中文错误', () => {
    expect(() => kbSyncFromEnv({ CAIRN_KB_MIRROR: 'ftp://mirror' })).toThrow('CAIRN_KB_MIRROR 必须是 http:// 或 https:// 地址');
    expect(() => kbSyncFromEnv({ CAIRN_KB_MIRROR: 'https://m', CAIRN_KB_SYNC_HOURS: 'soon' })).toThrow('CAIRN_KB_SYNC_HOURS 必须是非负整数');
  });
});
