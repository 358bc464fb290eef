// 扫描配置 commands: the repositories online resolution asks (system-wide per ecosystem, an 应用's
// own Maven repositories) and the switch that turns online resolution on. Each command checks its
// input, writes its rows and its audit row in one transaction; passwords are encrypted before they
// reach the database (server/secrets.ts) and never answered. onlineResolutionFor() gives an
// analysis what it resolves through, passwords decrypted, when the switch is on.
import {
  DEFAULT_SCAN_SETTINGS, SCAN_ECOSYSTEM_LABEL, type ScanEcosystem, type ScanRepositoryForm, type ScanRepositoryRow, type ScanSettings,
} from '../../contract/api/scan-config.ts';
import { validateDescription } from '../../contract/validation.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  deleteScanRepository, enabledScanRepositories, findScanRepository, insertScanRepository, scanRepositoryNamed, scanRepositoryRow,
  updateScanRepository, type ScanRepositoryRecord, type ScanRepositoryValues,
} from '../db/repositories/scan-repositories.ts';
import { getSetting, putSetting } from '../db/repositories/settings.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import type { OnlineResolution } from '../engine/index.ts';
import { UserError } from '../errors.ts';
import { decryptSecret, encryptSecret } from '../secrets.ts';
import { hasUrlCredentials } from './url-credentials.ts';

const SCAN_SETTING = 'scan.online';

const SCAN_MSG = {
  notFound: '仓库配置不存在',
  nameMissing: '请填写名称',
  duplicate: (name: string) => `名称“${name}”已被同类仓库使用`,
  urlInvalid: '仓库地址无效，请填写完整的 http:// 或 https:// 地址',
  urlScheme: '仓库地址只支持 http 或 https',
  urlCredentials: '仓库地址不能包含用户名或密码，请填写在用户名和密码中',
  urlQuery: '仓库地址不能包含查询参数或锚点',
  passwordWithoutUser: '填写密码时请同时填写用户名',
} as const;

/** The address checked (http or https with a host, no credentials, query or fragment), ending in `/`. */
function checkRepositoryUrl(text: string): string {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new UserError(SCAN_MSG.urlInvalid, 'invalid', { field: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(SCAN_MSG.urlScheme, 'invalid', { field: 'url' });
  if (!url.hostname) throw new UserError(SCAN_MSG.urlInvalid, 'invalid', { field: 'url' });
  if (url.username || url.password || hasUrlCredentials(trimmed)) throw new UserError(SCAN_MSG.urlCredentials, 'invalid', { field: 'url' });
  if (url.search || url.hash) throw new UserError(SCAN_MSG.urlQuery, 'invalid', { field: 'url' });
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.toString();
}

async function checked(db: Db, dataDir: string, ecosystem: ScanEcosystem, subjectId: number | null, form: ScanRepositoryForm, stored?: ScanRepositoryRecord): Promise<ScanRepositoryValues> {
  const name = form.name.trim();
  if (!name) throw new UserError(SCAN_MSG.nameMissing, 'invalid', { field: 'name' });
  if (await scanRepositoryNamed(db, ecosystem, subjectId, name, stored?.id)) throw new UserError(SCAN_MSG.duplicate(name), 'conflict', { field: 'name' });
  const url = checkRepositoryUrl(form.url);
  const remark = form.remark ?? '';
  const remarkProblem = validateDescription(remark);
  if (remarkProblem) throw new UserError(remarkProblem, 'invalid', { field: 'remark' });
  const username = (form.username ?? '').trim();
  let password: string | null | undefined;
  if (form.password) password = encryptSecret(dataDir, form.password);
  else if (form.clearPassword || !stored) password = null;
  const keepsPassword = password === undefined ? stored?.password != null && stored.password !== '' : password !== null;
  if (keepsPassword && !username) throw new UserError(SCAN_MSG.passwordWithoutUser, 'invalid', { field: 'username' });
  return { name, url, username, password, enabled: form.enabled, priority: form.priority ?? 0, remark };
}

/** What the audit row says of a repository: never its password. */
const auditDetail = (ecosystem: ScanEcosystem, subjectId: number | null, v: { name: string; url: string; enabled: boolean }, id: number) =>
  ({ id, ecosystem, subjectId, name: v.name, host: new URL(v.url).host, enabled: v.enabled });

export async function addScanRepository(db: Db, dataDir: string, userId: number, ecosystem: ScanEcosystem, subjectId: number | null, form: ScanRepositoryForm): Promise<ScanRepositoryRow> {
  const id = await inTransaction(db, async (trx) => {
    const values = await checked(trx, dataDir, ecosystem, subjectId, form);
    const added = await insertScanRepository(trx, ecosystem, subjectId, userId, values);
    await audit(trx, { userId, action: 'scan.repository.add', detail: auditDetail(ecosystem, subjectId, values, added) });
    return added;
  });
  return (await scanRepositoryRow(db, id))!;
}

/** The stored repository of this ecosystem and scope; not found otherwise (an id of another 应用 or ecosystem included). */
async function existing(db: Db, id: number, ecosystem: ScanEcosystem, subjectId: number | null): Promise<ScanRepositoryRecord> {
  const record = await findScanRepository(db, id);
  if (!record || record.ecosystem !== ecosystem || record.subject_id !== subjectId) throw new UserError(SCAN_MSG.notFound, 'not-found');
  return record;
}

export async function editScanRepository(db: Db, dataDir: string, userId: number, ecosystem: ScanEcosystem, subjectId: number | null, id: number, form: ScanRepositoryForm): Promise<ScanRepositoryRow> {
  await inTransaction(db, async (trx) => {
    const stored = await existing(trx, id, ecosystem, subjectId);
    const values = await checked(trx, dataDir, ecosystem, subjectId, form, stored);
    await updateScanRepository(trx, id, values);
    await audit(trx, { userId, action: 'scan.repository.update', detail: { ...auditDetail(ecosystem, subjectId, values, id), passwordChanged: values.password !== undefined } });
  });
  return (await scanRepositoryRow(db, id))!;
}

export async function removeScanRepository(db: Db, userId: number, ecosystem: ScanEcosystem, subjectId: number | null, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const stored = await existing(trx, id, ecosystem, subjectId);
    await deleteScanRepository(trx, id);
    await audit(trx, { userId, action: 'scan.repository.delete', detail: auditDetail(ecosystem, subjectId, { name: stored.name, url: stored.url, enabled: Boolean(stored.enabled) }, id) });
  });
}

export async function scanSettings(db: Db): Promise<ScanSettings> {
  return { ...DEFAULT_SCAN_SETTINGS, ...(await getSetting<Partial<ScanSettings>>(db, SCAN_SETTING)) };
}

export async function saveScanSettings(db: Db, userId: number, settings: ScanSettings): Promise<ScanSettings> {
  await inTransaction(db, async (trx) => {
    await putSetting(trx, SCAN_SETTING, settings);
    await audit(trx, { userId, action: 'scan.settings', detail: { ...settings } });
  });
  return settings;
}

/**
 * What an analysis of `subjectId` resolves through: undefined while online resolution is off or no
 * repository is enabled. A password that no longer decrypts (the key file replaced) leaves that
 * repository without one: the repository then refuses, which the analysis reports.
 */
export async function onlineResolutionFor(db: Db, dataDir: string, subjectId: number | null): Promise<OnlineResolution | undefined> {
  const settings = await scanSettings(db);
  if (!settings.online) return undefined;
  const records = await enabledScanRepositories(db, subjectId);
  if (!records.length) return undefined;
  const resolution: OnlineResolution = {
    maven: [], npm: [], pypi: [],
    limits: { timeoutMs: settings.timeoutSeconds * 1000, maxPackages: settings.maxPackages, maxDepth: settings.maxDepth },
  };
  for (const r of records) {
    let password: string | undefined;
    if (r.password) {
      try {
        password = decryptSecret(dataDir, r.password);
      } catch {
        password = undefined;
      }
    }
    const ecosystem = r.ecosystem as ScanEcosystem;
    if (!(ecosystem in SCAN_ECOSYSTEM_LABEL)) continue;
    resolution[ecosystem].push({ url: r.url, name: r.name, ...(r.username ? { username: r.username } : {}), ...(password !== undefined ? { password } : {}) });
  }
  return resolution;
}
