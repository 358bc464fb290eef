import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';

/**
 * Container images (issue 16): each component of an image run records the layer it first appeared
 * in (the index into the run's image layers, kept in runs.summary.image); null for every other run
 * and for runs analysed before this migration.
 *
 * Index (run_id, layer): the component list's layer filter and the image → layers → packages tree
 * count and page the components of one layer of one run.
 */
export const imageLayers = (_kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('run_components').addColumn('layer', 'integer').execute();
    await db.schema.createIndex('run_components_run_layer_idx').on('run_components').columns(['run_id', 'layer']).execute();
  },
});
