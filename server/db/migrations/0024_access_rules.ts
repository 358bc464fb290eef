import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * 安全管控 IP rules (/system/securityControl, /api/system/access/*): who may reach the platform
 * from where, checked at every login and on every call of a session (server/auth/access-rules.ts
 * says in which order):
 *   - access_rules: one address or CIDR range, in its canonical text (IPv4 `10.0.0.0/8`,
 *     `192.168.1.5`; IPv6 compressed, `2001:db8::/32`), allow or deny, for every user or for the
 *     users named in access_rule_users, enabled or not, with a remark;
 *   - access_rule_users: the named users of a rule; a deleted user drops out of the rules that
 *     named them (a rule whose named users are all gone applies to nobody).
 * The password policy and the session timeout are settings (settings table), no table of their own.
 */
export const accessRules = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('access_rules'), kind)
      .addColumn('address', 'varchar(64)', (c) => c.notNull())
      // ALLOW or DENY
      .addColumn('action', 'varchar(8)', (c) => c.notNull())
      // ALL (every user) or USERS (those in access_rule_users)
      .addColumn('applies_to', 'varchar(8)', (c) => c.notNull())
      .addColumn('enabled', t.flag, (c) => c.notNull())
      .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();

    await db.schema.createTable('access_rule_users')
      .addColumn('rule_id', 'integer', (c) => c.notNull().references('access_rules.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('access_rule_users_pk', ['rule_id', 'user_id'])
      .execute();
    await db.schema.createIndex('access_rule_users_user_idx').on('access_rule_users').column('user_id').execute();
  },
});
