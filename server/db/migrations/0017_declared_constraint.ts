import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';

/**
 * Declared version ranges (issue 17): a component a manifest declares without pinning a version
 * (`flask>=2` in requirements.txt, `^1.2` in a package.json without a lockfile) keeps version ''
 * and records the range as written; null when the version is exact or nothing was declared, and
 * for runs analysed before this migration.
 */
export const declaredConstraint = (_kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('run_components').addColumn('version_constraint', 'text').execute();
  },
});
