import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * 扫描配置 (/system/systemSettings/scanConfig, /api/system/scan/maven|npm|pypi and the 应用's own
 * /api/subject/scan/maven): the repositories online resolution asks, per ecosystem, system-wide
 * (subject_id null) or for one 应用's analyses. The password is stored encrypted
 * (server/secrets.ts), never in clear. Whether online resolution runs at all is a setting
 * (settings `scan.online`), off by default.
 */
export const scanRepositories = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await withId(db.schema.createTable('scan_repositories'), kind)
      // maven, npm, pypi
      .addColumn('ecosystem', 'varchar(16)', (c) => c.notNull())
      .addColumn('subject_id', 'integer', (c) => c.references('subjects.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('username', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      // encryptSecret's `v1:…` form; null when the repository needs no password
      .addColumn('password', 'text')
      .addColumn('enabled', t.flag, (c) => c.notNull())
      // Asked in this order (lower first), then by id.
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('scan_repositories_scope_idx').on('scan_repositories').columns(['ecosystem', 'subject_id', 'priority']).execute();
  },
});
