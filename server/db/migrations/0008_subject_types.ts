import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * 项目类型 (/system/projectType, /api/subjectType/*): the types an 应用 may be given. An 应用 keeps
 * its type by name (subjects.subject_type, free text before this table existed), so the name is
 * unique case-insensitively (name_key, the lower-cased name) and subjects are indexed by type for
 * the per-type counts and renames.
 */
export const subjectTypes = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('subject_types'), kind)
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('name_key', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      // 0 online (offered to 应用 forms), 1 offline
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('subject_types_status_idx').on('subject_types').columns(['status', 'name']).execute();
    await db.schema.createIndex('subjects_subject_type_idx').on('subjects').column('subject_type').execute();
  },
});
