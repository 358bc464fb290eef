// The environment → settings mapping, in particular the optional knowledge-base mirror sync.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kbSyncFromEnv, loadConfig, loginRateLimitsFromEnv, trustProxyFromEnv } from '../../../server/config.ts';
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

describe('登录限流与反向代理配置', () => {
  it('默认值与环境变量', () => {
    expect(loadConfig({}).loginRateLimits).toEqual({ perAddress: 30, perUsername: 10, windowSeconds: 300 });
    expect(loginRateLimitsFromEnv({ CAIRN_LOGIN_LIMIT_PER_ADDRESS: '100', CAIRN_LOGIN_LIMIT_PER_USERNAME: '0', CAIRN_LOGIN_LIMIT_WINDOW_SECONDS: '60' }))
      .toEqual({ perAddress: 100, perUsername: 0, windowSeconds: 60 });
    expect(() => loginRateLimitsFromEnv({ CAIRN_LOGIN_LIMIT_PER_ADDRESS: 'many' })).toThrow('CAIRN_LOGIN_LIMIT_PER_ADDRESS 必须是非负整数');
  });

  it('默认不信任 X-Forwarded-For；可指定代理地址、网段或层数，不接受 true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(trustProxyFromEnv('')).toBe(false);
    expect(trustProxyFromEnv('10.0.0.5, 10.1.0.0/16,loopback')).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback']);
    expect(trustProxyFromEnv('1')).toBe(1);
    expect(() => trustProxyFromEnv('true')).toThrow('CAIRN_TRUST_PROXY 不接受 true');
  });
});
