// The setup screens' settings as stored in subjects.settings ({ notice, bug, privateService }),
// read back with defaults. The tracker password stays encrypted in `bug.secret` and leaves the
// server only as `hasPassword`.
import type { BugConfig, NoticeConfig, PrivateServiceConfig } from '../../contract/api/subject.ts';
import { TRACKER_TYPES } from '../../contract/api/subject.ts';

const DEFAULT_NOTICE: NoticeConfig = { levels: [1, 2], userIds: [], onTaskFinish: false, onTaskFail: false, onNewVulnerability: false };

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function noticeOf(settings: Record<string, unknown>): NoticeConfig {
  const n = obj(settings.notice);
  return {
    levels: Array.isArray(n.levels) ? n.levels.filter((l): l is NoticeConfig['levels'][number] => [1, 2, 4, 8, 16].includes(l as number)) : DEFAULT_NOTICE.levels,
    userIds: Array.isArray(n.userIds) ? n.userIds.filter((u): u is number => Number.isInteger(u)) : [],
    onTaskFinish: n.onTaskFinish === true,
    onTaskFail: n.onTaskFail === true,
    onNewVulnerability: n.onNewVulnerability === true,
  };
}

export interface StoredBug {
  enabled?: boolean;
  type?: string;
  url?: string;
  projectKey?: string;
  username?: string;
  /** AES-GCM ciphertext (server/secrets.ts). */
  secret?: string | null;
}

export const storedBug = (settings: Record<string, unknown>): StoredBug => obj(settings.bug) as StoredBug;

export function bugOf(settings: Record<string, unknown>): BugConfig {
  const b = storedBug(settings);
  const type = (TRACKER_TYPES as readonly string[]).includes(str(b.type)) ? (b.type as BugConfig['type']) : null;
  return { enabled: b.enabled === true, type, url: str(b.url), projectKey: str(b.projectKey), username: str(b.username), hasPassword: !!b.secret };
}

export function privateServiceOf(settings: Record<string, unknown>): PrivateServiceConfig {
  const p = obj(settings.privateService);
  return { repositories: Array.isArray(p.repositories) ? p.repositories as PrivateServiceConfig['repositories'] : [] };
}
