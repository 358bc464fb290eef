import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * Accounts and access: users, roles and the permission codes they grant, login sessions, key/value
 * settings, personal tokens for open-API users, and the audit trail.
 */
export const foundation = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('users'), kind)
      .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('user_type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('email', 'varchar(200)')
      .addColumn('phone', 'varchar(30)')
      .addColumn('updated_pwd', t.flag, (c) => c.notNull().defaultTo(sql`false`))
      .addColumn('is_lock', 'varchar(1)', (c) => c.notNull().defaultTo('N').check(sql`is_lock in ('Y', 'N')`))
      .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('password_changed_at', t.timestamp)
      .execute();

    await withId(db.schema.createTable('roles'), kind)
      .addColumn('code', 'integer', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .execute();

    await db.schema.createTable('permissions')
      .addColumn('code', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .execute();

    await db.schema.createTable('role_permissions')
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn('permission_code', 'varchar(100)', (c) => c.notNull().references('permissions.code').onDelete('cascade'))
      .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_code'])
      .execute();
    await db.schema.createIndex('role_permissions_permission_idx').on('role_permissions').column('permission_code').execute();

    await db.schema.createTable('user_roles')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
      .execute();
    await db.schema.createIndex('user_roles_role_idx').on('user_roles').column('role_id').execute();

    await db.schema.createTable('sessions')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

    await db.schema.createTable('settings')
      .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('value', t.json, (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('personal_tokens'), kind)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('expires_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('personal_tokens_user_idx').on('personal_tokens').column('user_id').execute();

    await withId(db.schema.createTable('audit_log'), kind)
      .addColumn('at', t.timestamp, (c) => c.notNull())
      // No foreign key: the trail must outlive the users it mentions.
      .addColumn('user_id', 'integer')
      .addColumn('action', 'varchar(100)', (c) => c.notNull())
      .addColumn('detail', t.json, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
    await db.schema.createIndex('audit_log_user_idx').on('audit_log').column('user_id').execute();
    await db.schema.createIndex('audit_log_action_idx').on('audit_log').column('action').execute();
  },
});
