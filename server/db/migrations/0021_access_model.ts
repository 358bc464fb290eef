import type { Kysely, Migration } from 'kysely';

/**
 * The access model of administration (issue 18):
 *   - roles.data_permission: which 应用 a role's holders see (contract DATA_PERMISSION); the domain
 *     administrator role sees all, every other role starts with its holders' own 应用;
 *   - user_groups: the organisation groups (subject_groups) a user belongs to, for the GROUP scope;
 *   - users.granted_permissions / granted_data_permission: what the user was granted at their last
 *     login. The guard and the data-scope checks read these, so a change of roles or of a role's
 *     permissions takes effect at the user's next login (spec doc 2 §6). Null until the first login
 *     after this migration: then the roles are read live.
 */
export const accessModel = (): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('roles')
      .addColumn('data_permission', 'varchar(10)', (c) => c.notNull().defaultTo('SELF'))
      .execute();
    await db.updateTable('roles').set({ data_permission: 'ALL' }).where('code', '=', 2).execute();

    await db.schema.createTable('user_groups')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('subject_groups.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_groups_pk', ['user_id', 'group_id'])
      .execute();
    await db.schema.createIndex('user_groups_group_idx').on('user_groups').column('group_id').execute();

    // Comma-joined codes (codes hold no comma: contract/permissions.ts), as the guard reads them.
    await db.schema.alterTable('users').addColumn('granted_permissions', 'text').execute();
    await db.schema.alterTable('users').addColumn('granted_data_permission', 'varchar(10)').execute();
  },
});
