import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * Subjects, projects and their analysis runs (issue 6). A subject (application) holds projects;
 * a project is one analysed source (an upload, a repository, an image...) and every analysis of
 * it is a run (the spec's task/batch) whose results are kept per run, so two runs compare and a
 * new run inherits the previous run's audit marks. Runs double as the job queue: a worker claims
 * the oldest queued run (FOR UPDATE SKIP LOCKED on PostgreSQL).
 */
export const projects = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    const index = (name: string, table: string, columns: string[]) =>
      db.schema.createIndex(name).on(table).columns(columns).execute();

    await withId(db.schema.createTable('subject_groups'), kind)
      .addColumn('pid', 'integer', (c) => c.references('subject_groups.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await index('subject_groups_pid_idx', 'subject_groups', ['pid']);

    await withId(db.schema.createTable('subjects'), kind)
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      // 1 source-code product, 2 binary product: each product lists only its own subjects
      .addColumn('product', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('group_id', 'integer', (c) => c.references('subject_groups.id').onDelete('set null'))
      .addColumn('subject_type', 'varchar(100)')
      // 1 very important .. 5 very unimportant
      .addColumn('importance', 'integer', (c) => c.notNull().defaultTo(3))
      // 0 platform, 1 OpenAPI, 2..7 IDE and CI plug-ins
      .addColumn('code_source', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      // { [fieldId]: value } for the administrators' custom fields
      .addColumn('custom_fields', t.json, (c) => c.notNull().defaultTo('{}'))
      // notice, defect-management and private-service settings of the setup screens
      .addColumn('settings', t.json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await index('subjects_product_name_idx', 'subjects', ['product', 'name']);
    await index('subjects_group_idx', 'subjects', ['group_id']);
    await index('subjects_owner_idx', 'subjects', ['owner_id']);

    await db.schema.createTable('subject_members')
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // 1 owner (manages the subject), 2 member
      .addColumn('role', 'integer', (c) => c.notNull().defaultTo(2))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('subject_members_pk', ['subject_id', 'user_id'])
      .execute();
    await index('subject_members_user_idx', 'subject_members', ['user_id']);

    await withId(db.schema.createTable('subject_versions'), kind)
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('subject_versions_name_uq', ['subject_id', 'name'])
      .execute();

    // Saved repository addresses and credentials a user picks from in the new-project form.
    await withId(db.schema.createTable('repository_sources'), kind)
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('get_code_type', 'integer', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('username', 'varchar(200)')
      // AES-GCM with the platform's secret key (never the plain password)
      .addColumn('secret', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await index('repository_sources_owner_idx', 'repository_sources', ['created_by']);

    // Files streamed from the desktop in chunks; resumable until complete.
    await db.schema.createTable('uploads')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('file_name', 'varchar(500)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('received', 'bigint', (c) => c.notNull().defaultTo(0))
      // receiving | complete | cancelled
      .addColumn('status', 'varchar(12)', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await index('uploads_user_idx', 'uploads', ['user_id']);

    await withId(db.schema.createTable('projects'), kind)
      .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
      .addColumn('version_id', 'integer', (c) => c.references('subject_versions.id').onDelete('set null'))
      .addColumn('name', 'varchar(400)', (c) => c.notNull())
      .addColumn('get_code_type', 'integer', (c) => c.notNull())
      // Type-specific fields of the new-project form (addresses, branches, image names...),
      // secrets inside encrypted; the upload behind a local type.
      .addColumn('source', t.json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('upload_id', 'varchar(36)', (c) => c.references('uploads.id').onDelete('set null'))
      .addColumn('project_tags', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      // comma list of analysis modes (1 dependency, 4 licence text, 7 copyright, ...)
      .addColumn('analysis_modes', 'varchar(50)', (c) => c.notNull().defaultTo('1'))
      .addColumn('retention_audit', t.flag, (c) => c.notNull().defaultTo(sql`true`))
      .addColumn('enable_timing', t.flag, (c) => c.notNull().defaultTo(sql`false`))
      // { cronType, week, month, time, interval, weekFlag, days, weekDays }
      .addColumn('timing', t.json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('next_run_at', t.timestamp)
      // The product's own licence (outbound) for conflict checks; null: taken from its manifest
      .addColumn('outbound_license', 'varchar(300)')
      .addColumn('last_run_id', 'integer')
      // status of the latest run (-1..4), null before the first launch: the list filters on it
      .addColumn('status', 'integer')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await index('projects_subject_idx', 'projects', ['subject_id', 'id']);
    await index('projects_status_idx', 'projects', ['status']);
    await index('projects_next_run_idx', 'projects', ['next_run_at']);

    await withId(db.schema.createTable('runs'), kind)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      // 1, 2, 3... per project: the spec's batch number
      .addColumn('seq', 'integer', (c) => c.notNull())
      // -1 resend, 0 queued, 1 analysing, 2 succeeded, 3 failed, 4 paused
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('stage', 'varchar(30)', (c) => c.notNull().defaultTo('queued'))
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      // manual | timing | batch | import
      .addColumn('trigger', 'varchar(10)', (c) => c.notNull().defaultTo('manual'))
      .addColumn('analysis_modes', 'varchar(50)', (c) => c.notNull())
      .addColumn('worker', 'varchar(100)')
      .addColumn('heartbeat_at', t.timestamp)
      .addColumn('queued_at', t.timestamp, (c) => c.notNull())
      .addColumn('started_at', t.timestamp)
      .addColumn('finished_at', t.timestamp)
      // { components, vulnerabilities, byLevel, licenses, files, ... } once finished
      .addColumn('summary', t.json, (c) => c.notNull().defaultTo('{}'))
      // { file, message }[] inputs the engine could not read (the run still succeeds)
      .addColumn('problems', t.json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('outbound_license', 'varchar(300)')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addUniqueConstraint('runs_project_seq_uq', ['project_id', 'seq'])
      .execute();
    await index('runs_queue_idx', 'runs', ['status', 'queued_at']);

    await withId(db.schema.createTable('run_components'), kind)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('purl', 'text', (c) => c.notNull())
      .addColumn('ecosystem', 'varchar(20)', (c) => c.notNull())
      .addColumn('name', 'varchar(500)', (c) => c.notNull())
      .addColumn('version', 'varchar(200)', (c) => c.notNull())
      .addColumn('direct', t.flag, (c) => c.notNull())
      // runtime | development
      .addColumn('scope', 'varchar(12)', (c) => c.notNull())
      // 0 open source, 1 private, -1 unknown
      .addColumn('component_type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('license_expression', 'text')
      .addColumn('license_level', 'integer', (c) => c.notNull().defaultTo(16))
      // 1..64 as the spec's component risk levels
      .addColumn('risk_level', 'integer', (c) => c.notNull())
      .addColumn('vul_count', 'integer', (c) => c.notNull().defaultTo(0))
      // { "1": n, "2": n, ... } counts by vulnerability level
      .addColumn('vul_levels', t.json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('recommend_version', 'varchar(200)')
      // { file, startLine, endLine }[]
      .addColumn('locations', t.json, (c) => c.notNull().defaultTo('[]'))
      // N unmarked, F false positive, L legacy, W white-listed, Y other
      .addColumn('mark', 'varchar(1)', (c) => c.notNull().defaultTo('N'))
      .addColumn('mark_remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .execute();
    await index('run_components_run_risk_idx', 'run_components', ['run_id', 'risk_level', 'id']);
    await index('run_components_run_name_idx', 'run_components', ['run_id', 'name']);
    await index('run_components_run_purl_idx', 'run_components', ['run_id', 'purl']);
    await index('run_components_run_mark_idx', 'run_components', ['run_id', 'mark']);
    await index('run_components_run_eco_idx', 'run_components', ['run_id', 'ecosystem']);
    await index('run_components_purl_idx', 'run_components', ['purl']);

    // Dependency edges between components of one run; parent null marks a root (direct) edge.
    await db.schema.createTable('run_edges')
      .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('parent_id', 'integer')
      .addColumn('child_id', 'integer', (c) => c.notNull())
      .execute();
    await index('run_edges_parent_idx', 'run_edges', ['run_id', 'parent_id']);
    await index('run_edges_child_idx', 'run_edges', ['run_id', 'child_id']);

    await withId(db.schema.createTable('run_vulnerabilities'), kind)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('component_id', 'integer', (c) => c.notNull().references('run_components.id').onDelete('cascade'))
      .addColumn('vul_id', 'varchar(100)', (c) => c.notNull())
      .addColumn('cve', 'varchar(50)')
      .addColumn('cnnvd', 'varchar(50)')
      .addColumn('cnvd', 'varchar(50)')
      .addColumn('aliases', t.json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
      // current level (may be customised by an auditor) and the level the knowledge gave
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('original_level', 'integer', (c) => c.notNull())
      .addColumn('level_remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('score', 'real')
      .addColumn('exploit', 'integer', (c) => c.notNull().defaultTo(16))
      .addColumn('fixed_versions', t.json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('published', t.timestamp)
      // 0 pending audit .. 7 other
      .addColumn('mark', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('mark_remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      // VEX 0 pending, 1 not affected, 2 affected, 3 fixed, 4 investigating
      .addColumn('vex', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('vex_remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .execute();
    await index('run_vulnerabilities_run_level_idx', 'run_vulnerabilities', ['run_id', 'level', 'id']);
    await index('run_vulnerabilities_component_idx', 'run_vulnerabilities', ['component_id']);
    await index('run_vulnerabilities_run_vul_idx', 'run_vulnerabilities', ['run_id', 'vul_id']);
    await index('run_vulnerabilities_run_mark_idx', 'run_vulnerabilities', ['run_id', 'mark']);

    // The analysed file tree: one row per file and folder (parent '' is the root).
    await withId(db.schema.createTable('run_files'), kind)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('parent', 'text', (c) => c.notNull())
      .addColumn('name', 'varchar(500)', (c) => c.notNull())
      .addColumn('is_dir', t.flag, (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      // components declared by this file (manifests and lockfiles)
      .addColumn('component_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await index('run_files_parent_idx', 'run_files', ['run_id', 'parent']);

    // Licences found: declared by a component, or recognised in a file's text (mode 4).
    await withId(db.schema.createTable('run_licenses'), kind)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('component_id', 'integer', (c) => c.references('run_components.id').onDelete('cascade'))
      .addColumn('file', 'text')
      .addColumn('spdx_id', 'varchar(100)', (c) => c.notNull())
      // declared | text | header | tag | reference
      .addColumn('source', 'varchar(10)', (c) => c.notNull())
      .addColumn('score', 'real')
      .addColumn('start_line', 'integer')
      .addColumn('end_line', 'integer')
      .execute();
    await index('run_licenses_run_spdx_idx', 'run_licenses', ['run_id', 'spdx_id']);
    await index('run_licenses_component_idx', 'run_licenses', ['component_id']);

    await withId(db.schema.createTable('run_copyrights'), kind)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('statement', 'text', (c) => c.notNull())
      .addColumn('holder', 'text')
      .addColumn('author', 'text')
      .addColumn('line', 'integer', (c) => c.notNull())
      .execute();
    await index('run_copyrights_run_idx', 'run_copyrights', ['run_id', 'id']);

    // Every audit change: component marks, vulnerability marks and levels, VEX statements.
    await withId(db.schema.createTable('mark_logs'), kind)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('run_id', 'integer', (c) => c.references('runs.id').onDelete('set null'))
      // component | vulnerability | level | vex
      .addColumn('kind', 'varchar(15)', (c) => c.notNull())
      // purl, or purl + ' ' + vulnerability id: stable across runs
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('old_value', 'varchar(20)', (c) => c.notNull())
      .addColumn('new_value', 'varchar(20)', (c) => c.notNull())
      .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await index('mark_logs_target_idx', 'mark_logs', ['project_id', 'kind', 'target']);
  },
});
