import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types, withId } from './columns.ts';

/**
 * Personal tokens managed by their owners, and the open-API log (issue 18, /tokenManagement and
 * /system/log/openApi):
 *   - personal_tokens gains an on/off switch, the last four characters of the token (to tell two
 *     apart in the list: the token itself is shown once and only its digest is kept), and when and
 *     from where it was last used;
 *   - sessions remember the token that opened them (null: a password or directory login), so the
 *     calls of that session are attributed to it, and deleting the token ends them;
 *   - open_api_log: one row per call made in a token-opened session. The user's and the token's
 *     names are copied (the log outlives both); no foreign keys, so pruning and deleting never wait
 *     on each other.
 */
export const personalTokens = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await db.schema.alterTable('personal_tokens').addColumn('enabled', t.flag, (c) => c.notNull().defaultTo(sql`true`)).execute();
    await db.schema.alterTable('personal_tokens').addColumn('token_hint', 'varchar(8)').execute();
    await db.schema.alterTable('personal_tokens').addColumn('last_used_at', t.timestamp).execute();
    await db.schema.alterTable('personal_tokens').addColumn('last_used_ip', 'varchar(64)').execute();

    await db.schema.alterTable('sessions')
      .addColumn('personal_token_id', 'integer', (c) => c.references('personal_tokens.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('sessions_personal_token_idx').on('sessions').column('personal_token_id').execute();

    await withId(db.schema.createTable('open_api_log'), kind)
      .addColumn('at', t.timestamp, (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('username', 'varchar(100)', (c) => c.notNull())
      .addColumn('token_id', 'integer', (c) => c.notNull())
      .addColumn('token_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('method', 'varchar(10)', (c) => c.notNull())
      .addColumn('path', 'varchar(2000)', (c) => c.notNull())
      .addColumn('call_name', 'varchar(100)')
      .addColumn('status', 'integer', (c) => c.notNull())
      // The answer's envelope code (1 success, 0 a refusal answered 200); null: a file or no envelope.
      .addColumn('result_code', 'integer')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .execute();
    // The list reads newest first, unfiltered or by one of these; the pruning reads by time.
    await db.schema.createIndex('open_api_log_at_idx').on('open_api_log').columns(['at', 'id']).execute();
    await db.schema.createIndex('open_api_log_user_idx').on('open_api_log').columns(['user_id', 'at']).execute();
    await db.schema.createIndex('open_api_log_token_idx').on('open_api_log').columns(['token_id', 'at']).execute();
    await db.schema.createIndex('open_api_log_call_idx').on('open_api_log').columns(['call_name', 'at']).execute();
    await db.schema.createIndex('open_api_log_status_idx').on('open_api_log').columns(['status', 'at']).execute();
  },
});
