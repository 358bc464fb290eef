// The records of knowledge-base imports (kb_import_records: what was imported, how far it got, its
// errors) and the state of mirror syncs (kb_sync_state: the validators of the last download). The
// import jobs (kb/import.ts, kb/sync.ts) write them; the screens read them in vulnerabilities.ts.
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';

/** 导入中 / 导入成功 / 导入失败 (IMPORT_RECORD_STATUS_LABEL). */
export const IMPORT_STATUS = { RUNNING: 1, SUCCEEDED: 2, FAILED: 3 } as const;

/** The counters of an import as they stand. */
export interface ImportCounts {
  progress: number;
  total: number;
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
}

/** Opens the record of an import that starts now (导入中); its id. */
export async function createImportRecord(db: Db, record: { kind: string; name: string; userId: number | null }): Promise<number> {
  const row = await db.insertInto('kb_import_records').values({
    kind: record.kind,
    name: record.name.slice(0, 400),
    status: IMPORT_STATUS.RUNNING,
    progress: 0,
    errors: '[]',
    message: '',
    user_id: record.userId,
    created_at: nowIso(),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function reportImportProgress(db: Db, recordId: number, counts: ImportCounts): Promise<void> {
  await db.updateTable('kb_import_records').set(counts).where('id', '=', recordId).execute();
}

/** Closes a record with its outcome. */
export async function finishImportRecord(
  db: Db, recordId: number, outcome: ImportCounts & { status: number; errors: Array<{ file: string; message: string }>; message: string },
): Promise<void> {
  await db.updateTable('kb_import_records').set({ ...outcome, errors: JSON.stringify(outcome.errors), finished_at: nowIso() })
    .where('id', '=', recordId).execute();
}

/** Records an import that failed before it could start (a mirror download that never completed). */
export async function recordFailedImport(db: Db, record: { kind: string; name: string; errors: Array<{ file: string; message: string }>; message: string }): Promise<void> {
  const now = nowIso();
  await db.insertInto('kb_import_records').values({
    kind: record.kind,
    name: record.name,
    status: IMPORT_STATUS.FAILED,
    progress: 0,
    errors: JSON.stringify(record.errors),
    message: record.message,
    user_id: null,
    created_at: now,
    finished_at: now,
  }).execute();
}

/** Closes every record still 导入中 as failed with `message`; how many there were. */
export async function failRunningImports(db: Db, message: string): Promise<number> {
  const result = await db
    .updateTable('kb_import_records')
    .set({ status: IMPORT_STATUS.FAILED, message, finished_at: nowIso() })
    .where('status', '=', IMPORT_STATUS.RUNNING)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** How an import ended: its status and summary line. */
export async function importOutcome(db: Db, recordId: number): Promise<{ status: number; message: string } | undefined> {
  return db.selectFrom('kb_import_records').select(['status', 'message']).where('id', '=', recordId).executeTakeFirst();
}

/** The validators remembered for an ecosystem's mirror file. */
export async function syncStateOf(db: Db, ecosystem: string): Promise<{ etag: string | null; last_modified: string | null } | undefined> {
  return db.selectFrom('kb_sync_state').select(['etag', 'last_modified']).where('ecosystem', '=', ecosystem).executeTakeFirst();
}

/** Remembers what an ecosystem's mirror file was when it was last imported. */
export async function saveSyncState(
  db: Db, ecosystem: string, state: { url: string; etag: string | null; last_modified: string | null; bytes: number; completed_at: string },
): Promise<void> {
  const updated = await db.updateTable('kb_sync_state').set(state).where('ecosystem', '=', ecosystem).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await db.insertInto('kb_sync_state').values({ ecosystem, ...state }).execute();
}
