// The one set of migrations, run on SQLite and PostgreSQL alike. Column types differ only where
// the dialects do (ids, timestamps, JSON, booleans); the helpers below pick the right spelling.
import { Migrator, sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from './connect.ts';

const types = (kind: DatabaseKind) => ({
  timestamp: kind === 'postgres' ? 'timestamptz' : 'text',
  json: kind === 'postgres' ? 'jsonb' : 'text',
  flag: kind === 'postgres' ? 'boolean' : 'integer',
} as const);

const withId = <T extends string>(table: CreateTableBuilder<T, never>, kind: DatabaseKind) =>
  kind === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

const foundation = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('users'), kind)
      .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('user_type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('email', 'varchar(200)')
      .addColumn('phone', 'varchar(30)')
      .addColumn('updated_pwd', t.flag, (c) => c.notNull().defaultTo(sql`false`))
      .addColumn('is_lock', 'varchar(1)', (c) => c.notNull().defaultTo('N').check(sql`is_lock in ('Y', 'N')`))
      .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('password_changed_at', t.timestamp)
      .execute();

    await withId(db.schema.createTable('roles'), kind)
      .addColumn('code', 'integer', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .execute();

    await db.schema.createTable('permissions')
      .addColumn('code', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .execute();

    await db.schema.createTable('role_permissions')
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn('permission_code', 'varchar(100)', (c) => c.notNull().references('permissions.code').onDelete('cascade'))
      .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_code'])
      .execute();
    await db.schema.createIndex('role_permissions_permission_idx').on('role_permissions').column('permission_code').execute();

    await db.schema.createTable('user_roles')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
      .execute();
    await db.schema.createIndex('user_roles_role_idx').on('user_roles').column('role_id').execute();

    await db.schema.createTable('sessions')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

    await db.schema.createTable('settings')
      .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('value', t.json, (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('personal_tokens'), kind)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('expires_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('personal_tokens_user_idx').on('personal_tokens').column('user_id').execute();

    await withId(db.schema.createTable('audit_log'), kind)
      .addColumn('at', t.timestamp, (c) => c.notNull())
      // No foreign key: the trail must outlive the users it mentions.
      .addColumn('user_id', 'integer')
      .addColumn('action', 'varchar(100)', (c) => c.notNull())
      .addColumn('detail', t.json, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
    await db.schema.createIndex('audit_log_user_idx').on('audit_log').column('user_id').execute();
    await db.schema.createIndex('audit_log_action_idx').on('audit_log').column('action').execute();
  },
});

/**
 * The knowledge base (issue 4): advisories in the OSV schema with their aliases and affected
 * packages, CNNVD/CNVD id mappings, import records and mirror-sync state. Levels and CVSS are
 * computed at import so listing and matching never rescore a vector.
 */
const knowledgeBase = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('kb_advisories'), kind)
      .addColumn('advisory_id', 'varchar(100)', (c) => c.notNull().unique())
      // osv | trivy | nvd | custom (system vulnerabilities added by administrators)
      .addColumn('source', 'varchar(20)', (c) => c.notNull())
      // The dataset it came from: an OSV ecosystem, a trivy bucket, an NVD feed, 系统漏洞库.
      .addColumn('origin', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('details', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('level', 'integer', (c) => c.notNull().defaultTo(16))
      .addColumn('score', 'real')
      .addColumn('vector', 'varchar(200)')
      .addColumn('cvss_version', 'varchar(4)')
      .addColumn('exploit', 'integer', (c) => c.notNull().defaultTo(16))
      // Display ids of the spec's identifier rule (identify, cnnvd, cve).
      .addColumn('cve', 'varchar(50)')
      .addColumn('cnnvd', 'varchar(50)')
      .addColumn('cnvd', 'varchar(50)')
      .addColumn('cwes', t.json, (c) => c.notNull())
      .addColumn('reference_links', t.json, (c) => c.notNull())
      .addColumn('fix_commits', t.json, (c) => c.notNull())
      .addColumn('severities', t.json, (c) => c.notNull())
      .addColumn('published', t.timestamp)
      .addColumn('modified', t.timestamp)
      .addColumn('withdrawn', t.timestamp)
      // The document as imported (OSV JSON, or the OSV rendering of a trivy/NVD/custom record).
      .addColumn('document', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    for (const column of ['level', 'published', 'modified', 'cve', 'source', 'exploit']) {
      await db.schema.createIndex(`kb_advisories_${column}_idx`).on('kb_advisories').column(column).execute();
    }

    await db.schema.createTable('kb_aliases')
      .addColumn('advisory_pk', 'integer', (c) => c.notNull().references('kb_advisories.id').onDelete('cascade'))
      .addColumn('alias', 'varchar(100)', (c) => c.notNull())
      .addPrimaryKeyConstraint('kb_aliases_pk', ['advisory_pk', 'alias'])
      .execute();
    await db.schema.createIndex('kb_aliases_alias_idx').on('kb_aliases').column('alias').execute();

    await withId(db.schema.createTable('kb_affected'), kind)
      .addColumn('advisory_pk', 'integer', (c) => c.notNull().references('kb_advisories.id').onDelete('cascade'))
      // purl type (npm, maven, pypi, golang, …) and, for OS packages, the distribution release.
      .addColumn('ecosystem', 'varchar(30)', (c) => c.notNull())
      .addColumn('distribution', 'varchar(60)')
      // Normalised with normalizePackageName (engine/matchers/advisory.ts).
      .addColumn('name', 'varchar(400)', (c) => c.notNull())
      .addColumn('ranges', t.json, (c) => c.notNull())
      .addColumn('versions', t.json, (c) => c.notNull())
      .addColumn('vulnerable', t.json, (c) => c.notNull())
      .addColumn('patched', t.json, (c) => c.notNull())
      .addColumn('fixed', t.json, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('kb_affected_package_idx').on('kb_affected').columns(['ecosystem', 'name']).execute();
    await db.schema.createIndex('kb_affected_advisory_idx').on('kb_affected').column('advisory_pk').execute();

    // CNNVD / CNVD numbers of a CVE, from a mapping file; folded into aliases when loading.
    await withId(db.schema.createTable('kb_id_map'), kind)
      .addColumn('cve', 'varchar(50)', (c) => c.notNull())
      .addColumn('cnnvd', 'varchar(50)')
      .addColumn('cnvd', 'varchar(50)')
      .execute();
    await db.schema.createIndex('kb_id_map_cve_idx').on('kb_id_map').column('cve').execute();
    await db.schema.createIndex('kb_id_map_cnnvd_idx').on('kb_id_map').column('cnnvd').execute();
    await db.schema.createIndex('kb_id_map_cnvd_idx').on('kb_id_map').column('cnvd').execute();

    await withId(db.schema.createTable('kb_import_records'), kind)
      // osv | trivy | nvd | id-map | sync | custom (the system vulnerability template)
      .addColumn('kind', 'varchar(20)', (c) => c.notNull())
      .addColumn('name', 'varchar(400)', (c) => c.notNull())
      // IMPORT_RECORD_STATUS_LABEL: 1 导入中, 2 导入成功, 3 导入失败
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('unchanged', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      // [{ file, message }] of what was reported and skipped
      .addColumn('errors', t.json, (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('finished_at', t.timestamp)
      .execute();
    await db.schema.createIndex('kb_import_records_created_idx').on('kb_import_records').column('created_at').execute();
    await db.schema.createIndex('kb_import_records_kind_idx').on('kb_import_records').columns(['kind', 'status']).execute();

    // One row per mirrored OSV ecosystem: what was last downloaded, for resume and incremental sync.
    await db.schema.createTable('kb_sync_state')
      .addColumn('ecosystem', 'varchar(60)', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('etag', 'varchar(200)')
      .addColumn('last_modified', 'varchar(100)')
      .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('completed_at', t.timestamp)
      .execute();
  },
});

/**
 * The vulnerability list's default order is newest first with undated rows last; PostgreSQL can
 * only walk an index for that if the index has the same order (SQLite sorts NULLs first in
 * ascending order, so its existing index already serves the reversed scan).
 */
const knowledgeBaseListOrder = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    if (kind !== 'postgres') return;
    await sql`create index kb_advisories_published_desc_idx on kb_advisories (published desc nulls last, id desc)`.execute(db);
  },
});

/**
 * The licence knowledge base (issue 5): every SPDX licence and exception with its risk level
 * (default from resources/licenses, editable by administrators), attributes for the detail
 * screens and whether an administrator changed the level (a catalogue update keeps the edit).
 */
const licenseCatalogue = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('licenses'), kind)
      .addColumn('spdx_id', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(300)', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('default_level', 'integer', (c) => c.notNull())
      .addColumn('level_edited', t.flag, (c) => c.notNull().defaultTo(sql`false`))
      // none | weak | strong | network (copyleft strength), for filtering the list
      .addColumn('copyleft', 'varchar(10)', (c) => c.notNull().defaultTo('none'))
      .addColumn('osi_approved', t.flag, (c) => c.notNull().defaultTo(sql`false`))
      .addColumn('deprecated', t.flag, (c) => c.notNull().defaultTo(sql`false`))
      .addColumn('is_exception', t.flag, (c) => c.notNull().defaultTo(sql`false`))
      // LicenseAttributes as JSON; null when neither curated nor derivable
      .addColumn('attributes', t.json)
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('licenses_level_idx').on('licenses').column('level').execute();
    await db.schema.createIndex('licenses_copyleft_idx').on('licenses').column('copyleft').execute();
  },
});

/** Ordered by name; never edit a shipped migration, add the next one. */
export const migrationsFor = (kind: DatabaseKind): Record<string, Migration> => ({
  '0001_foundation': foundation(kind),
  '0002_knowledge_base': knowledgeBase(kind),
  '0003_knowledge_base_list_order': knowledgeBaseListOrder(kind),
  '0004_license_catalogue': licenseCatalogue(kind),
});

export async function migrateToLatest(db: Kysely<any>, kind: DatabaseKind): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(kind) } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败${failed ? `（${failed.migrationName}）` : ''}`, { cause: error });
  }
}
