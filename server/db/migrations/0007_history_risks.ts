import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types } from './columns.ts';

/**
 * History components re-rated against the knowledge base of the day (GET
 * /api/component/history/refresh/{id}): one row per project and purl, newer than the run that
 * last saw the component, so the history list shows today's risk for components long gone.
 */
export const historyRisks = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await db.schema.createTable('history_risks')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('purl', 'varchar(1000)', (c) => c.notNull())
      .addColumn('risk_level', 'integer', (c) => c.notNull())
      .addColumn('vul_count', 'integer', (c) => c.notNull())
      .addColumn('refreshed_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('history_risks_pk', ['project_id', 'purl'])
      .execute();
  },
});
