// The audit trail: one row per security-relevant event or change, written with the transaction
// handle of the command it records (db/transaction.ts inTransaction), so the two commit together.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { nowIso } from '../time.ts';

export async function audit(
  db: Kysely<Database>,
  entry: { userId: number | null; action: string; detail?: Record<string, unknown> },
): Promise<void> {
  await db.insertInto('audit_log').values({
    at: nowIso(),
    user_id: entry.userId,
    action: entry.action,
    detail: JSON.stringify(entry.detail ?? {}),
  }).execute();
}
