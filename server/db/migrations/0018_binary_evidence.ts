import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types } from './columns.ts';

/**
 * Components found in built artefacts (issue 17): how each was identified (the file, the rule, the
 * matched bytes and their offset, as JSON) and how sure the identification is (0–1). Both null
 * for components a manifest, lockfile or SBOM names, and for runs analysed before this migration.
 */
export const binaryEvidence = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('run_components').addColumn('evidence', types(kind).json).execute();
    await db.schema.alterTable('run_components').addColumn('confidence', 'real').execute();
  },
});
