import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { licenseScopeOf } from '../../engine/index.ts';

/**
 * Licence results without noise (issue 14, item 6).
 *
 * run_licenses.scope: whose licence a licence found in a file is — `project` (the project's own and
 * its components'), or `test` / `licence-data` / `data` (texts in test fixtures, vendored licence
 * databases and data files: engine/analyzers/license-scope.ts states the rule and why). Declared
 * licences (a component's manifest field) are always `project`. Rows already stored are classified
 * by the same rule here, so the results of earlier runs read the same as new ones.
 *
 * runs.outbound_source / runs.outbound_file: where the run's outbound licence came from —
 * `project` (the user's setting), `manifest` (the root manifest at outbound_file) or
 * `license-file` (the full licence text of the root licence file at outbound_file); null for runs
 * analysed before this was recorded, or without an outbound licence.
 */
export const licenceScope = (_kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('run_licenses').addColumn('scope', 'varchar(20)', (c) => c.notNull().defaultTo('project')).execute();
    await db.schema.alterTable('runs').addColumn('outbound_source', 'varchar(20)').execute();
    await db.schema.alterTable('runs').addColumn('outbound_file', 'text').execute();
    const found = await db.selectFrom('run_licenses').select(['file', 'source']).distinct()
      .where('component_id', 'is', null).where('file', 'is not', null).execute() as Array<{ file: string; source: string }>;
    for (const { file, source } of found) {
      const scope = licenseScopeOf(file, source);
      if (scope === 'project') continue;
      await db.updateTable('run_licenses').set({ scope }).where('component_id', 'is', null).where('file', '=', file).where('source', '=', source).execute();
    }
  },
});
