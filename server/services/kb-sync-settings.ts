// The mirror sync's settings as an administrator saves them (漏洞知识库 → 镜像同步), and the
// 测试连接 check. The address is checked for syntax only on save; 测试连接 is the one request an
// administrator asks for. Credentials in the address are refused (they would end in logs and
// records); a mirror that needs them belongs behind a proxy that adds them.
import type { SyncSettings, SyncTestResult } from '../../contract/api/kb-import.ts';
import { formatFileSize } from '../../contract/format.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { putSetting } from '../db/repositories/settings.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { KB_SYNC_SETTING } from '../kb/sync-schedule.ts';

export const SYNC_MSG = {
  mirrorInvalid: '镜像地址无效，请填写完整的 http:// 或 https:// 地址',
  mirrorScheme: '镜像地址只支持 http 或 https',
  mirrorCredentials: '镜像地址不能包含用户名或密码',
  ecosystemInvalid: (name: string) => `生态名称无效：${name}`,
  ecosystemsMissing: '请至少选择一个要同步的生态',
  noMirror: '尚未设置镜像地址，无法同步',
  alreadyRunning: '同步正在进行中',
} as const;

/** The mirror as a base URL ending in `/`; throws UserError(field mirror). */
export function checkMirror(mirror: string): URL {
  let url: URL;
  try {
    url = new URL(mirror.trim());
  } catch {
    throw new UserError(SYNC_MSG.mirrorInvalid, 'invalid', { field: 'mirror' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(SYNC_MSG.mirrorScheme, 'invalid', { field: 'mirror' });
  if (url.username || url.password) throw new UserError(SYNC_MSG.mirrorCredentials, 'invalid', { field: 'mirror' });
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url;
}

const ECOSYSTEM = /^[A-Za-z0-9][A-Za-z0-9.:_ -]{0,59}$/;

/** Checks and normalises settings; the mirror is stored without a trailing slash, ecosystems once each. */
export function normaliseSyncSettings(input: SyncSettings): SyncSettings {
  const mirror = input.mirror.trim() ? checkMirror(input.mirror).toString().replace(/\/$/, '') : '';
  const ecosystems = [...new Set(input.ecosystems.map((e) => e.trim()).filter(Boolean))];
  for (const e of ecosystems) if (!ECOSYSTEM.test(e)) throw new UserError(SYNC_MSG.ecosystemInvalid(e), 'invalid', { field: 'ecosystems' });
  if (mirror && ecosystems.length === 0) throw new UserError(SYNC_MSG.ecosystemsMissing, 'invalid', { field: 'ecosystems' });
  return { mirror, ecosystems, everyHours: input.everyHours };
}

export async function saveSyncSettings(db: Db, userId: number, input: SyncSettings): Promise<SyncSettings> {
  const settings = normaliseSyncSettings(input);
  await inTransaction(db, async (trx) => {
    await putSetting(trx, KB_SYNC_SETTING, settings);
    await audit(trx, { userId, action: 'kb.sync.settings', detail: { mirrorHost: settings.mirror ? new URL(settings.mirror).host : '', ecosystems: settings.ecosystems, everyHours: settings.everyHours } });
  });
  return settings;
}

const TEST_TIMEOUT_MS = 15_000;

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  if ((error as Error).name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT') return '连接超时';
  if (code === 'ECONNREFUSED') return '连接被拒绝';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '无法解析主机名';
  if (code === 'ECONNRESET') return '连接被重置';
  if (code && /CERT|SSL|TLS/i.test(code)) return '证书校验失败';
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** HEAD (or, when refused, a one-byte GET) of `<mirror>/<ecosystem>/all.zip`. */
export async function testMirror(mirror: string, ecosystem: string): Promise<SyncTestResult> {
  const base = checkMirror(mirror);
  if (!ECOSYSTEM.test(ecosystem.trim())) throw new UserError(SYNC_MSG.ecosystemInvalid(ecosystem), 'invalid', { field: 'ecosystem' });
  const url = new URL(`${encodeURIComponent(ecosystem.trim())}/all.zip`, base).toString();
  const result: SyncTestResult = { url, reachable: false, httpStatus: null, size: null, lastModified: null, message: '' };
  let response: Response;
  try {
    response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
    if (response.status === 405 || response.status === 501) {
      response = await fetch(url, { headers: { range: 'bytes=0-0', 'accept-encoding': 'identity' }, redirect: 'follow', signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
      await response.body?.cancel();
    }
  } catch (error) {
    result.message = `无法连接镜像：${reasonOf(error)}`;
    return result;
  }
  result.httpStatus = response.status;
  if (response.status === 404) {
    result.message = `镜像上没有该生态的数据（HTTP 404）：${ecosystem}/all.zip`;
    return result;
  }
  if (response.status === 401 || response.status === 403) {
    result.message = `镜像拒绝访问（HTTP ${response.status}）`;
    return result;
  }
  if (response.status !== 200 && response.status !== 206) {
    result.message = `镜像返回错误（HTTP ${response.status}）`;
    return result;
  }
  const range = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
  const length = range ? Number(range[1]) : Number(response.headers.get('content-length') ?? NaN);
  result.reachable = true;
  result.size = Number.isFinite(length) ? length : null;
  result.lastModified = response.headers.get('last-modified');
  result.message = `连接成功${result.size !== null ? `，文件大小 ${formatFileSize(result.size)}` : ''}`;
  return result;
}
