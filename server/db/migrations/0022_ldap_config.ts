import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * 目录登录 (/system/accountIntegration/ldap, /api/ldapConfig): the one LDAP or LDAPS directory
 * /api/login signs directory users in through. The service account's password is stored
 * encrypted (server/secrets.ts), never in clear. The default role goes with its role (set null:
 * the ordinary user's role is used then); group mappings are JSON [{groupDn, groupId}].
 */
export const ldapConfig = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('ldap_configs'), kind)
      .addColumn('enabled', t.flag, (c) => c.notNull())
      .addColumn('url', 'varchar(500)', (c) => c.notNull())
      .addColumn('start_tls', t.flag, (c) => c.notNull())
      .addColumn('bind_dn', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      // encryptSecret's `v1:…` form; null: none (an anonymous search)
      .addColumn('bind_password', 'text')
      .addColumn('base_dn', 'varchar(500)', (c) => c.notNull())
      .addColumn('user_filter', 'varchar(1000)', (c) => c.notNull())
      .addColumn('username_attribute', 'varchar(100)', (c) => c.notNull())
      .addColumn('name_attribute', 'varchar(100)', (c) => c.notNull())
      .addColumn('email_attribute', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      .addColumn('phone_attribute', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      .addColumn('default_role_id', 'integer', (c) => c.references('roles.id').onDelete('set null'))
      // Where groups are searched; '' : under base_dn.
      .addColumn('group_base_dn', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('group_filter', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
      .addColumn('group_mappings', t.json, (c) => c.notNull())
      .addColumn('ca_certificate', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('connect_timeout_seconds', 'integer', (c) => c.notNull())
      .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
  },
});
