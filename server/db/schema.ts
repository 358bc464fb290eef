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
  /** An administrator's lock (spec isLock): lasts until unlocked. */
  is_lock: 'Y' | 'N';
  /** Wrong passwords since the last successful login, automatic lock or unlock. */
  failed_logins: ColumnType<number, number | undefined, number>;
  /** End of the automatic lock after too many wrong passwords; null or past: not locked so. */
  locked_until: Timestamp | null;
  /**
   * When an administrator or `cairn user` last lifted the locks or reset the password: the login
   * throttle forgives the refused logins it counted for the account before then.
   */
  restored_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  password_changed_at: Timestamp | null;
  /** The permission codes granted at the last login, comma-joined; null: not yet snapshotted. */
  granted_permissions: string | null;
  /** The data permission granted at the last login (contract DATA_PERMISSION); null: not yet. */
  granted_data_permission: string | null;
  /** Where notices to the user go (spec /api/user/mail/{userId}); null: the account's e-mail. */
  notice_email: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RolesTable {
  id: Generated<number>;
  code: number;
  name: string;
  /** contract DATA_PERMISSION */
  data_permission: Defaulted<string>;
  remark: Defaulted<string>;
}

/** The organisation groups (subject_groups) a user belongs to. */
export interface UserGroupsTable {
  user_id: number;
  group_id: number;
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
  /** The personal token that opened the session (its calls go to the open-API log); null: a password login. */
  personal_token_id: ColumnType<number | null, number | null | undefined, number | null>;
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
  /** Off: the token signs nobody in and the sessions it opened are ended. */
  enabled: ColumnType<number | boolean, number | undefined, number>;
  /** The token's last four characters, to tell tokens apart (null: issued before they were kept). */
  token_hint: ColumnType<string | null, string | null | undefined, string | null>;
  last_used_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  last_used_ip: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One call made in a token-opened session (the open-API log); names copied, no foreign keys. */
export interface OpenApiLogTable {
  id: Generated<number>;
  at: Timestamp;
  user_id: number;
  username: string;
  token_id: number;
  token_name: string;
  method: string;
  /** The path called, without its query string. */
  path: string;
  /** The contract call's `area.action` name. */
  call_name: string | null;
  /** HTTP status of the answer. */
  status: number;
  /** The envelope's code (1 success, 0 a refusal answered with 200); null when no envelope was sent. */
  result_code: number | null;
  duration_ms: number;
  ip: string;
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
  /** FixState of a distribution's entry (migration 0016); '' when the ranges say it. */
  fix_state: Defaulted<string>;
}

export interface KbIdMapTable {
  id: Generated<number>;
  cve: string;
  cnnvd: string | null;
  cnvd: string | null;
  /** CNNVD level from the mapping file (1/2/4/8), or null (migration 0013). */
  cnnvd_level: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface KbImportRecordsTable {
  id: Generated<number>;
  kind: string;
  name: string;
  /** 1 导入中, 2 导入成功, 3 导入失败, 4 排队中, 5 已取消 */
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
  /** Per-file rows left out of kb_import_files past its cap. */
  files_omitted: ColumnType<number, number | undefined, number>;
}

export interface KbImportFilesTable {
  id: Generated<number>;
  record_id: number;
  file: string;
  /** 1 已导入, 2 已跳过, 3 已拒绝 */
  outcome: number;
  advisories: ColumnType<number, number | undefined, number>;
  reason: ColumnType<string, string | undefined, string>;
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

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface SubjectGroupsTable {
  id: Generated<number>;
  pid: number | null;
  name: string;
  created_at: Timestamp;
}

export interface SubjectsTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  description: Defaulted<string>;
  /** 1 source-code product, 2 binary product */
  product: Defaulted<number>;
  group_id: number | null;
  subject_type: string | null;
  /** 1 very important .. 5 very unimportant */
  importance: Defaulted<number>;
  code_source: Defaulted<number>;
  owner_id: number | null;
  /** { [fieldId]: value } */
  custom_fields: Defaulted<JsonText>;
  /** { notice, bug, privateService } of the setup screens */
  settings: Defaulted<JsonText>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SubjectMembersTable {
  subject_id: number;
  user_id: number;
  /** 1 owner, 2 member */
  role: Defaulted<number>;
  created_at: Timestamp;
}

export interface SubjectVersionsTable {
  id: Generated<number>;
  subject_id: number;
  name: string;
  remark: Defaulted<string>;
  created_at: Timestamp;
}

export interface RepositorySourcesTable {
  id: Generated<number>;
  name: string;
  get_code_type: number;
  url: string;
  username: string | null;
  /** encrypted at rest */
  secret: string | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UploadsTable {
  id: string;
  user_id: number | null;
  file_name: string;
  /** bigint: connect.ts reads PostgreSQL's int8 as a number, as SQLite gives it; readers still go through Number() */
  size: ColumnType<number | string, number, number>;
  received: ColumnType<number | string, number | undefined, number>;
  status: 'receiving' | 'complete' | 'cancelled';
  sha256: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectsTable {
  id: Generated<number>;
  subject_id: number;
  version_id: number | null;
  name: string;
  get_code_type: number;
  /** type-specific form fields as JSON, secrets encrypted */
  source: Defaulted<JsonText>;
  upload_id: string | null;
  project_tags: Defaulted<string>;
  analysis_modes: Defaulted<string>;
  retention_audit: ColumnType<number | boolean, number | undefined, number>;
  enable_timing: ColumnType<number | boolean, number | undefined, number>;
  timing: Defaulted<JsonText>;
  next_run_at: Timestamp | null;
  outbound_license: string | null;
  last_run_id: number | null;
  /** status of the latest run, null before the first */
  status: number | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RunsTable {
  id: Generated<number>;
  project_id: number;
  seq: number;
  /** -1 resend, 0 queued, 1 analysing, 2 succeeded, 3 failed, 4 paused */
  status: number;
  stage: Defaulted<string>;
  progress: Defaulted<number>;
  message: Defaulted<string>;
  trigger: Defaulted<string>;
  analysis_modes: string;
  worker: string | null;
  heartbeat_at: Timestamp | null;
  queued_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  summary: Defaulted<JsonText>;
  problems: Defaulted<JsonText>;
  outbound_license: string | null;
  /** project (the user's setting) | manifest | license-file; null: before 0011, or no outbound licence. */
  outbound_source: string | null;
  /** The manifest or licence file the outbound licence was read from. */
  outbound_file: string | null;
  created_by: number | null;
}

export interface RunComponentsTable {
  id: Generated<number>;
  run_id: number;
  purl: string;
  ecosystem: string;
  name: string;
  version: string;
  direct: Flag;
  scope: string;
  component_type: Defaulted<number>;
  license_expression: string | null;
  license_level: Defaulted<number>;
  risk_level: number;
  vul_count: Defaulted<number>;
  vul_levels: Defaulted<JsonText>;
  recommend_version: string | null;
  locations: Defaulted<JsonText>;
  mark: Defaulted<string>;
  mark_remark: Defaulted<string>;
  /** Image runs: index of the layer the component first appeared in (summary.image.layers); null otherwise (0015). */
  layer: number | null;
  /** The version range the manifest declares when it pins no version, as written; null otherwise (0017). */
  version_constraint: string | null;
  /** Components found in built artefacts: JSON Evidence[] (engine model.ts); null otherwise (0018). */
  evidence: JsonText | null;
  /** How sure the identification in a built artefact is, 0–1; null for manifests and lockfiles (0018). */
  confidence: number | null;
}

export interface RunEdgesTable {
  run_id: number;
  parent_id: number | null;
  child_id: number;
}

export interface RunVulnerabilitiesTable {
  id: Generated<number>;
  run_id: number;
  component_id: number;
  vul_id: string;
  cve: string | null;
  cnnvd: string | null;
  cnvd: string | null;
  aliases: Defaulted<JsonText>;
  summary: Defaulted<string>;
  level: number;
  original_level: number;
  level_remark: Defaulted<string>;
  score: number | null;
  /** Which source set the level (migration 0013); '' when unrated or analysed before it. */
  severity_source: Defaulted<string>;
  exploit: Defaulted<number>;
  fixed_versions: Defaulted<JsonText>;
  /** FixState of the finding (migration 0016); '' when analysed before it. */
  fix_state: Defaulted<string>;
  published: Timestamp | null;
  mark: Defaulted<number>;
  mark_remark: Defaulted<string>;
  vex: Defaulted<number>;
  vex_remark: Defaulted<string>;
}

export interface RunFilesTable {
  id: Generated<number>;
  run_id: number;
  path: string;
  parent: string;
  name: string;
  is_dir: Flag;
  size: ColumnType<number | string, number | undefined, number>;
  component_count: Defaulted<number>;
}

export interface RunLicensesTable {
  id: Generated<number>;
  run_id: number;
  component_id: number | null;
  file: string | null;
  spdx_id: string;
  /** declared | text | header | tag | reference */
  source: string;
  score: number | null;
  start_line: number | null;
  end_line: number | null;
  /** project | test | licence-data | data (engine/analyzers/license-scope.ts). */
  scope: Defaulted<string>;
  /** JSON array of the file's lines that decided the match (≤ 5, ≤ 200 chars each); '[]' when declared. */
  evidence: Defaulted<JsonText>;
  /** For a LicenseRef-Cairn-modified-<id> text: the nearest standard licence id. */
  nearest: string | null;
}

export interface RunCopyrightsTable {
  id: Generated<number>;
  run_id: number;
  file: string;
  statement: string;
  holder: string | null;
  author: string | null;
  line: number;
}

export interface MarkLogsTable {
  id: Generated<number>;
  project_id: number;
  run_id: number | null;
  /** component | vulnerability | level | vex */
  kind: string;
  target: string;
  old_value: string;
  new_value: string;
  remark: Defaulted<string>;
  user_id: number | null;
  created_at: Timestamp;
}

/** A history component re-rated by a history refresh (migration 0007). */
export interface HistoryRisksTable {
  project_id: number;
  purl: string;
  risk_level: number;
  vul_count: number;
  refreshed_at: Timestamp;
}

export interface ReportsTable {
  id: Generated<number>;
  /** task | subject | license | statistic | vex | component */
  kind: string;
  /** 1 Word, 2 Excel, 3 PDF, 4 SPDX, 5 CycloneDX, 6 SWID; 11/12 VEX; 21/22 component export */
  report_type: number;
  /** 0 waiting, 1 generating, 2 succeeded, 3 deleted, 4 failed */
  status: number;
  progress: Defaulted<number>;
  message: Defaulted<string>;
  name: string;
  subject_id: number | null;
  subject_name: Defaulted<string>;
  project_id: number | null;
  project_name: Defaulted<string>;
  run_id: number | null;
  run_seq: number | null;
  params: Defaulted<JsonText>;
  /** relative to the data folder */
  file: string | null;
  size: ColumnType<number | string | null, number | null | undefined, number | null>;
  sha256: string | null;
  worker: string | null;
  heartbeat_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

/** 项目类型: the types an 应用 may be given (subjects.subject_type holds the name). */
export interface SubjectTypesTable {
  id: Generated<number>;
  name: string;
  /** The lower-cased name: unique, so two types never differ by case alone. */
  name_key: string;
  remark: Generated<string>;
  /** 0 online, 1 offline (SUBJECT_TYPE_STATUS). */
  status: Generated<number>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** 扫描配置: a repository online resolution asks (system-wide when subject_id is null). */
export interface ScanRepositoriesTable {
  id: Generated<number>;
  /** maven, npm or pypi (SCAN_ECOSYSTEMS). */
  ecosystem: string;
  subject_id: number | null;
  name: string;
  url: string;
  username: Generated<string>;
  /** encryptSecret's form; null when none. */
  password: string | null;
  enabled: Flag;
  priority: Generated<number>;
  remark: Generated<string>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** 目录登录: the LDAP or LDAPS directory directory users sign in through (migration 0022; one row). */
export interface LdapConfigsTable {
  id: Generated<number>;
  enabled: Flag;
  url: string;
  start_tls: Flag;
  bind_dn: Generated<string>;
  /** encryptSecret's form; null when none. */
  bind_password: string | null;
  base_dn: string;
  user_filter: string;
  username_attribute: string;
  name_attribute: string;
  email_attribute: Generated<string>;
  phone_attribute: Generated<string>;
  /** Null once the role is deleted: new directory users then get the ordinary user's role. */
  default_role_id: number | null;
  /** Where groups are searched; '' : under base_dn. */
  group_base_dn: Generated<string>;
  group_filter: Generated<string>;
  /** JSON [{groupDn, groupId}]. */
  group_mappings: JsonText;
  ca_certificate: Generated<string>;
  connect_timeout_seconds: number;
  timeout_seconds: number;
  updated_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An administrator's sensitive-information rule (migration 0020; built-in rules live in the engine). */
export interface LeakRulesTable {
  id: Generated<number>;
  name: string;
  /** The lower-cased name: unique, so two rules never differ by case alone. */
  name_key: string;
  /** LEAK_TYPE_LABEL code. */
  type: string;
  pattern: string;
  ignore_case: Flag;
  enabled: Flag;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Sensitive information a run found: the matched text with its secret part masked. */
export interface RunLeaksTable {
  id: Generated<number>;
  run_id: number;
  file: string;
  /** Byte offset of the match in the file. */
  offset: number;
  /** LEAK_TYPE_LABEL code. */
  type: string;
  /** The rule's key: builtin:<name> or user:<id>. */
  rule: string;
  /** The rule's name when the run found it. */
  rule_name: string;
  text: string;
}

/** 安全管控 IP rules (migration 0024; server/auth/access-rules.ts evaluates them). */
export interface AccessRulesTable {
  id: Generated<number>;
  /** Canonical address or CIDR range: `192.168.1.5`, `10.0.0.0/8`, `2001:db8::/32`. */
  address: string;
  action: 'ALLOW' | 'DENY';
  /** ALL: every user; USERS: the users of access_rule_users. */
  applies_to: 'ALL' | 'USERS';
  enabled: Flag;
  remark: Generated<string>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccessRuleUsersTable {
  rule_id: number;
  user_id: number;
}

/** One Excel import of users (/system/user/record). */
export interface UserImportRecordsTable {
  id: Generated<number>;
  file_name: string;
  /** contract USER_IMPORT_STATUS: 1 importing, 2 succeeded, 3 failed */
  status: number;
  total: Defaulted<number>;
  succeeded: Defaulted<number>;
  failed: Defaulted<number>;
  message: Defaulted<string>;
  created_by: number | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

/** One row of a user import and its outcome. */
export interface UserImportRowsTable {
  id: Generated<number>;
  record_id: number;
  row_no: number;
  username: string;
  name: string;
  /** contract USER_IMPORT_OUTCOME: 1 imported, 2 refused */
  outcome: number;
  reason: string;
  user_id: number | null;
}

export interface Database {
  users: UsersTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  user_groups: UserGroupsTable;
  user_import_records: UserImportRecordsTable;
  user_import_rows: UserImportRowsTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  personal_tokens: PersonalTokensTable;
  open_api_log: OpenApiLogTable;
  audit_log: AuditLogTable;
  kb_advisories: KbAdvisoriesTable;
  kb_aliases: KbAliasesTable;
  kb_affected: KbAffectedTable;
  kb_id_map: KbIdMapTable;
  kb_import_records: KbImportRecordsTable;
  kb_import_files: KbImportFilesTable;
  kb_sync_state: KbSyncStateTable;
  licenses: LicensesTable;
  subject_groups: SubjectGroupsTable;
  subjects: SubjectsTable;
  subject_members: SubjectMembersTable;
  subject_versions: SubjectVersionsTable;
  repository_sources: RepositorySourcesTable;
  uploads: UploadsTable;
  projects: ProjectsTable;
  runs: RunsTable;
  run_components: RunComponentsTable;
  run_edges: RunEdgesTable;
  run_vulnerabilities: RunVulnerabilitiesTable;
  run_files: RunFilesTable;
  run_licenses: RunLicensesTable;
  run_copyrights: RunCopyrightsTable;
  mark_logs: MarkLogsTable;
  reports: ReportsTable;
  history_risks: HistoryRisksTable;
  subject_types: SubjectTypesTable;
  scan_repositories: ScanRepositoriesTable;
  leak_rules: LeakRulesTable;
  run_leaks: RunLeaksTable;
  ldap_configs: LdapConfigsTable;
  access_rules: AccessRulesTable;
  access_rule_users: AccessRuleUsersTable;
}
