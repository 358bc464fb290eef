import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { types } from './columns.ts';

/** What the automatic lock lasted before it could be configured (the auto-lock default). */
const CARRIED_LOCK_MINUTES = 15;

/**
 * The automatic lock after wrong passwords ends by itself: users.locked_until says when (null: not
 * locked by failed logins). users.is_lock stays the administrators' lock (spec isLock Y/N), which
 * lasts until an administrator or `cairn user unlock` lifts it.
 *
 * Before this migration only the automatic lock ever set is_lock = 'Y' (there was no lock call),
 * and it never ended: such accounts become timed locks ending CARRIED_LOCK_MINUTES after the
 * upgrade, with the failure count starting afresh.
 *
 * users.restored_at: when an administrator (PATCH /api/user/unlock) or `cairn user unlock` /
 * `reset-password` last gave the account back; the login throttle (auth/rate-limit.ts), which
 * lives in the platform's memory, learns from it that refused logins counted before are forgiven.
 */
export const loginLockout = (kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    const t = types(kind);
    await db.schema.alterTable('users').addColumn('locked_until', t.timestamp).execute();
    await db.schema.alterTable('users').addColumn('restored_at', t.timestamp).execute();
    await db.updateTable('users')
      .set({ is_lock: 'N', failed_logins: 0, locked_until: new Date(Date.now() + CARRIED_LOCK_MINUTES * 60_000).toISOString() })
      .where('is_lock', '=', 'Y')
      .execute();
  },
});
