import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types } from './columns.ts';

/**
 * Confidence the user can read (issue 15, item 7).
 *
 * run_licenses.evidence: the file's own lines that decided a licence found in a file (a JSON array
 * of at most 5 strings of at most 200 characters: the opening lines of a text or header, the tag or
 * reference line, the lines a modified text changes), shown under each place the licence was found
 * and in the licence reports. `[]` for declared licences and for runs analysed before this
 * migration, until the project is analysed again.
 *
 * run_licenses.nearest: for a `LicenseRef-Cairn-modified-<id>` text (a standard licence text with
 * changes), the standard licence it is nearest to; null otherwise.
 *
 * No index: the licence list's kind and score filters narrow the rows of one run, which
 * run_licenses_run_spdx_idx (run_id first) already finds; a run holds at most a few thousand.
 */
export const licenceEvidence = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('run_licenses').addColumn('evidence', types(kind).json, (c) => c.notNull().defaultTo('[]')).execute();
    await db.schema.alterTable('run_licenses').addColumn('nearest', 'varchar(100)').execute();
  },
});
