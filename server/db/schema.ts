// Table shapes as Kysely sees them. Both dialects hand back the same JS values (see connect.ts):
// timestamps are ISO-8601 strings, JSON columns are JSON text, flags are 0/1 or booleans.
import type { ColumnType, Generated } from 'kysely';

/** Written as an ISO-8601 string, read back as one. */
export type Timestamp = string;
/** SQLite stores 0/1, PostgreSQL a boolean: write 0/1, read through `Boolean()`. */
export type Flag = ColumnType<number | boolean, number, number>;
/** JSON text; parse on read, `JSON.stringify` on write. */
export type JsonText = string;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  password_hash: string;
  /** 0 platform user; LDAP, open-API and synchronised users get other values later. */
  user_type: ColumnType<number, number | undefined, number>;
  email: string | null;
  phone: string | null;
  updated_pwd: Flag;
  is_lock: 'Y' | 'N';
  failed_logins: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  password_changed_at: Timestamp | null;
}

export interface RolesTable {
  id: Generated<number>;
  code: number;
  name: string;
}

export interface PermissionsTable {
  code: string;
  name: string;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_code: string;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SessionsTable {
  /** sha256 (hex) of the cookie token: a leaked table does not yield usable sessions. */
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  value: JsonText;
}

export interface PersonalTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  expires_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  user_id: number | null;
  action: string;
  detail: JsonText;
}

export interface KbAdvisoriesTable {
  id: Generated<number>;
  advisory_id: string;
  /** osv | trivy | nvd | custom */
  source: string;
  origin: ColumnType<string, string | undefined, string>;
  summary: ColumnType<string, string | undefined, string>;
  details: ColumnType<string, string | undefined, string>;
  level: number;
  score: number | null;
  vector: string | null;
  cvss_version: string | null;
  exploit: number;
  cve: string | null;
  cnnvd: string | null;
  cnvd: string | null;
  /** string[] */
  cwes: JsonText;
  /** { type, url }[] */
  reference_links: JsonText;
  /** string[] of commit URLs */
  fix_commits: JsonText;
  /** { type, score }[] as the source gave them */
  severities: JsonText;
  published: Timestamp | null;
  modified: Timestamp | null;
  withdrawn: Timestamp | null;
  document: JsonText;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KbAliasesTable {
  advisory_pk: number;
  alias: string;
}

export interface KbAffectedTable {
  id: Generated<number>;
  advisory_pk: number;
  ecosystem: string;
  distribution: string | null;
  name: string;
  /** OsvRange[] */
  ranges: JsonText;
  /** string[] */
  versions: JsonText;
  /** string[] constraint strings */
  vulnerable: JsonText;
  /** string[] constraint strings */
  patched: JsonText;
  /** string[] */
  fixed: JsonText;
}

export interface KbIdMapTable {
  id: Generated<number>;
  cve: string;
  cnnvd: string | null;
  cnvd: string | null;
}

export interface KbImportRecordsTable {
  id: Generated<number>;
  kind: string;
  name: string;
  /** 1 导入中, 2 导入成功, 3 导入失败 */
  status: number;
  progress: ColumnType<number, number | undefined, number>;
  total: ColumnType<number, number | undefined, number>;
  imported: ColumnType<number, number | undefined, number>;
  updated: ColumnType<number, number | undefined, number>;
  unchanged: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  /** { file, message }[] */
  errors: JsonText;
  message: ColumnType<string, string | undefined, string>;
  user_id: number | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface KbSyncStateTable {
  ecosystem: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  bytes: ColumnType<number, number | undefined, number>;
  completed_at: Timestamp | null;
}

export interface LicensesTable {
  id: Generated<number>;
  spdx_id: string;
  name: string;
  url: ColumnType<string, string | undefined, string>;
  /** 1 超危, 2 高危, 4 中危, 8 低危, 16 未知 */
  level: number;
  default_level: number;
  level_edited: Flag;
  copyleft: ColumnType<string, string | undefined, string>;
  osi_approved: Flag;
  deprecated: Flag;
  is_exception: Flag;
  /** LicenseAttributes JSON, or null */
  attributes: JsonText | null;
  updated_by: number | null;
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  personal_tokens: PersonalTokensTable;
  audit_log: AuditLogTable;
  kb_advisories: KbAdvisoriesTable;
  kb_aliases: KbAliasesTable;
  kb_affected: KbAffectedTable;
  kb_id_map: KbIdMapTable;
  kb_import_records: KbImportRecordsTable;
  kb_sync_state: KbSyncStateTable;
  licenses: LicensesTable;
}
