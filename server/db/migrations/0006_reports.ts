import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/** Issue 7: generated reports and exports, one row per file, claimed by workers like runs. */
export const reports = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('reports'), kind)
      // task | subject | license | statistic | vex | component (contract ReportKind)
      .addColumn('kind', 'varchar(15)', (c) => c.notNull())
      // 1 Word, 2 Excel, 3 PDF, 4 SPDX, 5 CycloneDX, 6 SWID; 11/12 VEX; 21/22 component export
      .addColumn('report_type', 'integer', (c) => c.notNull())
      // 0 waiting, 1 generating, 2 succeeded, 3 deleted, 4 failed
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'varchar(500)', (c) => c.notNull())
      // null for statistics reports; kept (set null) when the subject or project goes, so the
      // list still says what the report was about
      .addColumn('subject_id', 'integer', (c) => c.references('subjects.id').onDelete('set null'))
      .addColumn('subject_name', 'varchar(400)', (c) => c.notNull().defaultTo(''))
      .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
      .addColumn('project_name', 'varchar(400)', (c) => c.notNull().defaultTo(''))
      .addColumn('run_id', 'integer', (c) => c.references('runs.id').onDelete('set null'))
      .addColumn('run_seq', 'integer')
      // what a job needs beyond the columns (run ids of a subject report, scope, ...)
      .addColumn('params', t.json, (c) => c.notNull().defaultTo('{}'))
      // relative to the data folder, once written
      .addColumn('file', 'varchar(500)')
      .addColumn('size', 'bigint')
      .addColumn('sha256', 'varchar(64)')
      .addColumn('worker', 'varchar(100)')
      .addColumn('heartbeat_at', t.timestamp)
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('started_at', t.timestamp)
      .addColumn('finished_at', t.timestamp)
      .execute();
    const index = (name: string, columns: string[]) => db.schema.createIndex(name).on('reports').columns(columns).execute();
    await index('reports_queue_idx', ['status', 'created_at']);
    await index('reports_kind_idx', ['kind', 'created_at']);
    await index('reports_project_idx', ['project_id', 'kind']);
    await index('reports_subject_idx', ['subject_id', 'kind']);
    await index('reports_owner_idx', ['created_by', 'kind']);
  },
});
