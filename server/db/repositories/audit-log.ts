// The audit trail: one row per security-relevant event or change. A command's row is written with
// the transaction handle of the command it records (db/transaction.ts inTransaction), so the two
// commit together: audit() takes a Transaction, never the bare database. Only a refusal that
// changes nothing (a failed login) has no transaction to join: auditRefusal().
import { nowIso } from '../time.ts';
import type { Db, Trx } from '../transaction.ts';

interface AuditEntry { userId: number | null; action: string; detail?: Record<string, unknown> }

async function writeRow(db: Db, entry: AuditEntry): Promise<void> {
  await db.insertInto('audit_log').values({
    at: nowIso(),
    user_id: entry.userId,
    action: entry.action,
    detail: JSON.stringify(entry.detail ?? {}),
  }).execute();
}

/** The audit row of a command, inside the command's transaction. */
export function audit(trx: Trx, entry: AuditEntry): Promise<void> {
  return writeRow(trx, entry);
}

/** The audit row of a refused attempt that changed nothing (a wrong password, a locked account, a bad token). */
export function auditRefusal(db: Db, entry: AuditEntry): Promise<void> {
  return writeRow(db, entry);
}
