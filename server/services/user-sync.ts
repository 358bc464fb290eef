// Synchronised external users (GET /api/suzhou/import, user types 6–10): reads the configured
// source (an http(s) URL answering JSON or CSV, format in contract/api/user.ts SyncSourceSchema),
// creates the users it does not know yet with the default role and updates the synchronised users
// it knows. Each user is its own transaction with its audit row; nobody is deleted, and platform,
// LDAP and open-API accounts of the same username are left alone and reported.
import { randomBytes } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import {
  USER_TYPE, validateEmail, validatePhone, validateUsername, type SyncResult, type SyncSource,
} from '../../contract/api/user.ts';
import { ROLE } from '../../contract/permissions.ts';
import { validateName } from '../../contract/validation.ts';
import { hashPassword } from '../auth/password.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { getSetting, putSetting } from '../db/repositories/settings.ts';
import { findUsernameClash, insertUser, roleByCode, rolesByIds, updateSyncedUser } from '../db/repositories/user-admin.ts';
import { findUserById } from '../db/repositories/users.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import type { Actor } from './users.ts';

const SETTING_KEY = 'user_sync_source';
const FETCH_TIMEOUT_MS = 30_000;
const MAX_BYTES = 20 * 1024 * 1024;
const MAX_USERS = 50_000;

const USER_SYNC_MSG = {
  notConfigured: '未配置外部用户同步来源，请先设置同步地址',
  badUrl: '同步地址须为 http:// 或 https:// 开头的网址',
  unknownRole: '默认角色不存在',
  unreachable: (why: string) => `无法连接同步来源：${why}`,
  httpStatus: (status: number) => `同步来源返回 HTTP ${status}`,
  tooLarge: '同步来源的数据过大（超过 20 MB）',
  badJson: '同步来源返回的不是有效的 JSON（应为用户数组或 { "users": [...] }）',
  badCsv: (why: string) => `同步来源返回的 CSV 无法解析：${why}`,
  csvHeaders: 'CSV 首行须为列名，至少包含 username 和 name',
  tooMany: `同步来源的用户超过 ${MAX_USERS} 个`,
  notSynced: (type: number) => `已存在同名的非同步用户（类型 ${type}），未修改`,
  duplicate: '来源中用户名重复，只同步第一条',
  badType: '用户类型须为 6–10',
} as const;

const DEFAULT_SOURCE: SyncSource = { url: '', format: 'json', defaultRoleId: null };

/** The saved source, else CAIRN_USER_SYNC_URL / CAIRN_USER_SYNC_FORMAT, else not configured. */
export async function loadSyncSource(db: Db): Promise<SyncSource> {
  const saved = await getSetting<SyncSource>(db, SETTING_KEY);
  if (saved) return { ...DEFAULT_SOURCE, ...saved };
  const format = process.env.CAIRN_USER_SYNC_FORMAT === 'csv' ? 'csv' : 'json';
  return { url: process.env.CAIRN_USER_SYNC_URL?.trim() ?? '', format, defaultRoleId: null };
}

const isHttpUrl = (url: string): boolean => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

export async function saveSyncSource(db: Db, actor: Actor, source: SyncSource): Promise<SyncSource> {
  const url = source.url.trim();
  if (url && !isHttpUrl(url)) throw new UserError(USER_SYNC_MSG.badUrl, 'invalid', { field: 'url' });
  if (source.defaultRoleId !== null && (await rolesByIds(db, [source.defaultRoleId])).length === 0) {
    throw new UserError(USER_SYNC_MSG.unknownRole, 'invalid', { field: 'defaultRoleId' });
  }
  const saved: SyncSource = { url, format: source.format, defaultRoleId: source.defaultRoleId };
  const before = await loadSyncSource(db);
  await inTransaction(db, async (trx) => {
    await putSetting(trx, SETTING_KEY, saved);
    // The URL may carry credentials in its query: the audit row keeps only its origin and path.
    const safe = (s: SyncSource) => ({ ...s, url: s.url && isHttpUrl(s.url) ? `${new URL(s.url).origin}${new URL(s.url).pathname}` : s.url });
    await audit(trx, { userId: actor.userId, action: 'settings.userSync.changed', detail: { address: actor.address, before: safe(before), after: safe(saved) } });
  });
  return saved;
}

interface SourceUser { username: string; name: string; email: string | null; phone: string | null; type: number }

async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new UserError(USER_SYNC_MSG.unreachable(cause), 'unavailable');
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new UserError(USER_SYNC_MSG.httpStatus(response.status), 'unavailable');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_BYTES) throw new UserError(USER_SYNC_MSG.tooLarge, 'unavailable');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The entries of the source's answer, as plain records. */
function parseSource(text: string, format: SyncSource['format']): Array<Record<string, unknown>> {
  let entries: unknown;
  if (format === 'json') {
    try {
      const parsed: unknown = JSON.parse(text);
      entries = Array.isArray(parsed) ? parsed : (parsed as { users?: unknown } | null)?.users;
    } catch {
      throw new UserError(USER_SYNC_MSG.badJson, 'invalid');
    }
    if (!Array.isArray(entries) || entries.some((e) => typeof e !== 'object' || e === null)) throw new UserError(USER_SYNC_MSG.badJson, 'invalid');
  } else {
    try {
      entries = parseCsv(text, { columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), skip_empty_lines: true, trim: true, relax_column_count: true });
    } catch (error) {
      throw new UserError(USER_SYNC_MSG.badCsv((error as Error).message.slice(0, 200)), 'invalid');
    }
    const first = (entries as Array<Record<string, unknown>>)[0];
    if (first && !('username' in first && 'name' in first)) throw new UserError(USER_SYNC_MSG.csvHeaders, 'invalid');
  }
  const list = entries as Array<Record<string, unknown>>;
  if (list.length > MAX_USERS) throw new UserError(USER_SYNC_MSG.tooMany, 'invalid');
  return list;
}

/** GET /api/suzhou/import. */
export async function syncExternalUsers(db: Db, actor: Actor): Promise<SyncResult> {
  const source = await loadSyncSource(db);
  if (!source.url) throw new UserError(USER_SYNC_MSG.notConfigured, 'unavailable');
  const entries = parseSource(await fetchText(source.url), source.format);
  const role = source.defaultRoleId !== null ? (await rolesByIds(db, [source.defaultRoleId]))[0] : await roleByCode(db, ROLE.ORDINARY_USER);
  if (!role) throw new UserError(USER_SYNC_MSG.unknownRole, 'invalid');

  const result: SyncResult = { total: entries.length, created: 0, updated: 0, unchanged: 0, skipped: [] };
  const seen = new Set<string>();
  for (const entry of entries) {
    const user: SourceUser = {
      username: str(entry.username),
      name: str(entry.name),
      email: str(entry.email) || null,
      phone: str(entry.phone) || null,
      type: entry.type === undefined || entry.type === '' ? USER_TYPE.SYNCED : Number(entry.type),
    };
    const skip = (reason: string) => result.skipped.push({ username: user.username, reason });
    const problem = validateUsername(user.username) ?? validateName(user.name) ?? validateEmail(user.email) ?? validatePhone(user.phone)
      ?? (Number.isInteger(user.type) && user.type >= 6 && user.type <= 10 ? null : USER_SYNC_MSG.badType);
    if (problem) {
      skip(problem);
      continue;
    }
    const key = user.username.toLowerCase();
    if (seen.has(key)) {
      skip(USER_SYNC_MSG.duplicate);
      continue;
    }
    seen.add(key);
    const outcome = await inTransaction(db, async (trx) => {
      const clash = await findUsernameClash(trx, user.username);
      if (!clash) {
        // No usable local password: the user signs in through the source's own directory.
        const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
        const id = await insertUser(trx, {
          username: user.username, name: user.name, passwordHash, userType: user.type, email: user.email, phone: user.phone,
          updatedPwd: true, roleIds: [role.id], groupIds: [],
        });
        await audit(trx, { userId: actor.userId, action: 'user.created', detail: { address: actor.address, source: 'sync', after: { id, ...user, roles: [role.name] } } });
        return 'created' as const;
      }
      if (clash.userType < 6 || clash.userType > 10) return USER_SYNC_MSG.notSynced(clash.userType);
      const before = await findUserById(trx, clash.id);
      if (before && before.name === user.name && before.email === user.email && before.phone === user.phone && before.userType === user.type) return 'unchanged' as const;
      await updateSyncedUser(trx, clash.id, { name: user.name, email: user.email, phone: user.phone, userType: user.type });
      await audit(trx, {
        userId: actor.userId,
        action: 'user.updated',
        detail: {
          address: actor.address, source: 'sync',
          before: before && { id: before.id, username: before.username, name: before.name, email: before.email, phone: before.phone, userType: before.userType },
          after: { id: clash.id, ...user },
        },
      });
      return 'updated' as const;
    });
    if (outcome === 'created') result.created++;
    else if (outcome === 'updated') result.updated++;
    else if (outcome === 'unchanged') result.unchanged++;
    else skip(outcome);
  }
  return result;
}
