import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * The knowledge base (issue 4): advisories in the OSV schema with their aliases and affected
 * packages, CNNVD/CNVD id mappings, import records and mirror-sync state. Levels and CVSS are
 * computed at import so listing and matching never rescore a vector.
 */
export const knowledgeBase = (kind: DatabaseKind): Migration => ({
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
