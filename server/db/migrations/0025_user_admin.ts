import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * User administration (issue 18, /system/user/*):
 *   - users.notice_email: where notices to the user go (GET/POST /api/user/mail/{userId}); null:
 *     the account's e-mail;
 *   - indexes for the user list's filters (type, lock state) and its name order;
 *   - user_import_records / user_import_rows: each Excel import of users (who, when, the file, the
 *     counts) and each of its rows' outcome with the reason a row was refused.
 */
export const userAdmin = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await db.schema.alterTable('users').addColumn('notice_email', 'varchar(200)').execute();
    await db.schema.createIndex('users_type_idx').on('users').columns(['user_type', 'id']).execute();
    await db.schema.createIndex('users_lock_idx').on('users').columns(['is_lock', 'id']).execute();
    await db.schema.createIndex('users_name_idx').on('users').column('name').execute();

    await withId(db.schema.createTable('user_import_records'), kind)
      .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
      // USER_IMPORT_STATUS: 1 importing, 2 succeeded, 3 failed (spec import record status)
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('finished_at', t.timestamp)
      .execute();
    await db.schema.createIndex('user_import_records_created_idx').on('user_import_records').columns(['created_at', 'id']).execute();

    await withId(db.schema.createTable('user_import_rows'), kind)
      .addColumn('record_id', 'integer', (c) => c.notNull().references('user_import_records.id').onDelete('cascade'))
      // the row's number in the sheet, as Excel shows it
      .addColumn('row_no', 'integer', (c) => c.notNull())
      .addColumn('username', 'varchar(200)', (c) => c.notNull())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      // USER_IMPORT_OUTCOME: 1 imported, 2 refused
      .addColumn('outcome', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('user_import_rows_record_idx').on('user_import_rows').columns(['record_id', 'row_no']).execute();
  },
});
