import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';

/**
 * kb_affected.fix_state: a distribution's statement for one package and release (issue 16 item 6;
 * contract/enums.ts FIX_STATE_LABEL): fixed, affected, will_not_fix, fix_deferred, end_of_life,
 * under_investigation or not_affected. Empty for language packages and for rows imported before
 * this migration, which read as their ranges say (fixed with a fixed version, else affected) until
 * their source is imported again.
 *
 * run_vulnerabilities.fix_state: the same statement for a finding (never not_affected), so its
 * 修复版本 reads 发行版不修复 … instead of an empty value. Empty for findings analysed before it.
 */
export const fixState = (_kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('kb_affected').addColumn('fix_state', 'varchar(24)', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('run_vulnerabilities').addColumn('fix_state', 'varchar(24)', (c) => c.notNull().defaultTo('')).execute();
  },
});
