import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * The licence knowledge base (issue 5): every SPDX licence and exception with its risk level
 * (default from resources/licenses, editable by administrators), attributes for the detail
 * screens and whether an administrator changed the level (a catalogue update keeps the edit).
 */
export const licenseCatalogue = (kind: DatabaseKind): Migration => ({
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
