import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Roles an administrator manages (/system/user/role, issue 18): a role gets a remark, and its name
 * is unique whatever its case (the index on the lower-cased name), as the role picker and the
 * operation log name roles by it.
 */
export const roleRemark = (): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('roles')
      .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('roles_name_key').on('roles').unique().expression(sql`lower(name)`).execute();
  },
});
