// Knowledge-base onboarding from the app (issue 14): importing uploaded files as one queued job,
// the per-file outcome of an import, cancelling it, and the mirror sync's settings. Ours (the spec
// has only importTemplate): the files arrive through the chunked upload calls (upload.ts) first.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Id, Nullable, pagedList } from './kit.ts';

const L = Type.Literal;

/** Uploads one import call may take. */
export const IMPORT_UPLOADS_MAX = 50;
/** Per-file rows a record keeps; beyond it they are counted (filesOmitted), not listed. */
export const IMPORT_FILE_ROWS_MAX = 5000;

/** IMPORT_FILE_OUTCOME_LABEL codes: 1 已导入, 2 已跳过, 3 已拒绝. */
export const ImportFileOutcomeSchema = Type.Union([L(1), L(2), L(3)]);

export const ImportFileRowSchema = Type.Object({
  file: Type.String(),
  outcome: ImportFileOutcomeSchema,
  outcomeLabel: Type.String(),
  /** Advisories (or id mappings) the file held. */
  advisories: Type.Integer(),
  /** Why it was skipped or refused; empty when imported. */
  reason: Type.String(),
});
export type ImportFileRow = Static<typeof ImportFileRowSchema>;

export const importUploads = defineCall({
  name: 'vulnerability.importUploads',
  method: 'POST',
  path: '/api/vulnerability/system/import/upload',
  summary: '把已完成的上传作为一个导入任务排队（OSV zip/JSON、NVD 2.0、trivy 数据库目录的 zip、CNNVD/CNVD 对照）',
  body: Type.Object({ uploadIds: Type.Array(Type.String({ minLength: 1, maxLength: 36 }), { minItems: 1, maxItems: IMPORT_UPLOADS_MAX }) }),
  response: Type.Object({ recordId: Type.Integer() }),
  permission: 'setup:knowledge:vul',
});

export const importCancel = defineCall({
  name: 'vulnerability.importCancel',
  method: 'POST',
  path: '/api/vulnerability/system/import/record/{id}/cancel',
  summary: '取消排队中或导入中的漏洞导入（已提交的数据保留）',
  params: Type.Object({ id: Id() }),
  response: Type.Object({ id: Type.Integer(), status: Type.Integer() }),
  permission: 'setup:knowledge:vul',
});

export const importFiles = defineCall({
  name: 'vulnerability.importFiles',
  method: 'GET',
  path: '/api/vulnerability/system/import/files/{recordId}',
  summary: '漏洞导入记录的逐文件结果（已导入、已跳过、已拒绝及原因）',
  params: Type.Object({ recordId: Id() }),
  ...pagedList(ImportFileRowSchema),
  permission: 'setup:knowledge:vul',
});

// ---- mirror sync settings --------------------------------------------------------------------------------------

/**
 * OSV's ecosystem folders (<mirror>/<name>/all.zip, as osv-vulnerabilities.storage.googleapis.com
 * lays them out) offered by the settings' multi-select; languages first, then distributions.
 */
export const OSV_MIRROR_ECOSYSTEMS = [
  'npm', 'Maven', 'PyPI', 'Go', 'crates.io', 'RubyGems', 'Packagist', 'NuGet', 'Pub', 'Hex', 'SwiftURL',
  'CRAN', 'Bioconductor', 'Hackage', 'GHC', 'ConanCenter', 'Julia', 'opam', 'GitHub Actions', 'Linux', 'Android', 'OSS-Fuzz',
  'Debian', 'Ubuntu', 'Alpine', 'Red Hat', 'Rocky Linux', 'AlmaLinux', 'SUSE', 'openSUSE', 'openEuler', 'Wolfi', 'Chainguard',
] as const;

/** Hours between scheduled syncs: 0 is off. */
export const SYNC_HOURS_MAX = 24 * 30;

export const SyncSettingsSchema = Type.Object({
  /** http(s) base laid out like OSV's bucket: <mirror>/<Ecosystem>/all.zip; empty: no mirror. */
  mirror: Type.String({ maxLength: 500 }),
  ecosystems: Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { maxItems: 100 }),
  everyHours: Type.Integer({ minimum: 0, maximum: SYNC_HOURS_MAX }),
});
export type SyncSettings = Static<typeof SyncSettingsSchema>;

export const SyncEcosystemStateSchema = Type.Object({
  ecosystem: Type.String(),
  /** Bytes of the last complete download; 0 when never downloaded. */
  bytes: Type.Integer(),
  lastModified: Nullable(Type.String()),
  completedAt: Nullable(Type.String()),
  /** The last sync record of this ecosystem. */
  recordId: Nullable(Type.Integer()),
  status: Nullable(Type.Integer()),
  statusLabel: Type.String(),
  message: Type.String(),
  finishedAt: Nullable(Type.String()),
});
export type SyncEcosystemState = Static<typeof SyncEcosystemStateSchema>;

export const SyncOverviewSchema = Type.Object({
  settings: SyncSettingsSchema,
  /** saved: from the settings table; env: CAIRN_KB_* defaults; none: neither. */
  source: Type.Union([L('saved'), L('env'), L('none')]),
  /** OSV ecosystem names offered by the multi-select. */
  ecosystemsAvailable: Type.Array(Type.String()),
  running: Type.Boolean(),
  /** When the schedule runs next (ISO), null when off. */
  nextRunAt: Nullable(Type.String()),
  state: Type.Array(SyncEcosystemStateSchema),
});
export type SyncOverview = Static<typeof SyncOverviewSchema>;

export const syncSettings = defineCall({
  name: 'vulnerability.syncSettings',
  method: 'GET',
  path: '/api/vulnerability/system/sync/settings',
  summary: '镜像同步设置与各生态最近一次同步结果',
  response: SyncOverviewSchema,
  permission: 'setup:knowledge:vul',
});

export const syncSave = defineCall({
  name: 'vulnerability.syncSave',
  method: 'POST',
  path: '/api/vulnerability/system/sync/settings',
  summary: '保存镜像同步设置（立即生效，无需重启）',
  body: SyncSettingsSchema,
  response: SyncOverviewSchema,
  permission: 'setup:knowledge:vul',
});

export const SyncTestResultSchema = Type.Object({
  url: Type.String(),
  reachable: Type.Boolean(),
  httpStatus: Nullable(Type.Integer()),
  size: Nullable(Type.Integer()),
  lastModified: Nullable(Type.String()),
  message: Type.String(),
});
export type SyncTestResult = Static<typeof SyncTestResultSchema>;

export const syncTest = defineCall({
  name: 'vulnerability.syncTest',
  method: 'POST',
  path: '/api/vulnerability/system/sync/test',
  summary: '测试镜像连接（请求一个生态的 all.zip）',
  body: Type.Object({ mirror: Type.String({ minLength: 1, maxLength: 500 }), ecosystem: Type.String({ minLength: 1, maxLength: 60 }) }),
  response: SyncTestResultSchema,
  permission: 'setup:knowledge:vul',
});

export const syncRun = defineCall({
  name: 'vulnerability.syncRun',
  method: 'POST',
  path: '/api/vulnerability/system/sync/run',
  summary: '立即同步镜像',
  response: Type.Object({ started: Type.Boolean() }),
  permission: 'setup:knowledge:vul',
});

export const kbImportCalls = { importUploads, importCancel, importFiles, syncSettings, syncSave, syncTest, syncRun };
