import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { withId } from './columns.ts';

/**
 * What an import did with each file it was given (kb_import_files): 1 已导入, 2 已跳过, 3 已拒绝,
 * with the advisories it held and why it was skipped or refused. A record keeps at most
 * IMPORT_FILE_ROWS_MAX rows; kb_import_records.files_omitted counts those left out. Records may
 * now also be 4 排队中 (waiting behind another import) and 5 已取消.
 */
export const kbImportFiles = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await withId(db.schema.createTable('kb_import_files'), kind)
      .addColumn('record_id', 'integer', (c) => c.notNull().references('kb_import_records.id').onDelete('cascade'))
      .addColumn('file', 'varchar(400)', (c) => c.notNull())
      .addColumn('outcome', 'integer', (c) => c.notNull())
      .addColumn('advisories', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('kb_import_files_record_idx').on('kb_import_files').columns(['record_id', 'id']).execute();
    await db.schema.alterTable('kb_import_records').addColumn('files_omitted', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
});
