import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * Sensitive information (敏感信息, analysis mode 9; /system/sensitive, /api/binary/leakinfo/*):
 *   - leak_rules: the administrators' rules (a validated regular expression with a type and a name),
 *     each enabled or not; the built-in rules live in the engine and only their switches are kept
 *     (settings key leakRules.disabledBuiltins);
 *   - run_leaks: what a run found, per file at a byte offset, with the rule (its key and its name as
 *     it was then) and the matched text with its secret part masked — the value itself is never stored.
 */
export const leaks = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('leak_rules'), kind)
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('name_key', 'varchar(100)', (c) => c.notNull().unique())
      // LEAK_TYPE_LABEL code
      .addColumn('type', 'varchar(20)', (c) => c.notNull())
      .addColumn('pattern', 'varchar(300)', (c) => c.notNull())
      .addColumn('ignore_case', t.flag, (c) => c.notNull())
      .addColumn('enabled', t.flag, (c) => c.notNull())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('run_leaks'), kind)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('offset', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(20)', (c) => c.notNull())
      .addColumn('rule', 'varchar(100)', (c) => c.notNull())
      .addColumn('rule_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('run_leaks_run_type_idx').on('run_leaks').columns(['run_id', 'type', 'id']).execute();
  },
});
