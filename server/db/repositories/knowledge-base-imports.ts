// The records of knowledge-base imports (kb_import_records: what was imported, how far it got, its
// errors) and the state of mirror syncs (kb_sync_state: the validators of the last download). The
// import jobs (kb/import.ts, kb/sync.ts) write them; the import screens read them.
import type { Page } from '../../../contract/api/kit.ts';
import type { ImportRecord } from '../../../contract/api/vulnerability.ts';
import { IMPORT_RECORD_STATUS_LABEL, labelOf } from '../../../contract/enums.ts';
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';
import { parseJson } from './results.ts';
import type { Paging } from './vulnerabilities.ts';

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

// ---- the records as the screens read them -----------------------------------------------------------------------

interface ImportRow extends ImportCounts {
  id: number;
  kind: string;
  name: string;
  status: number;
  errors: string;
  message: string;
  user_id: number | null;
  user_name: string | null;
  created_at: string;
  finished_at: string | null;
}

const importView = (row: ImportRow): ImportRecord => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  status: row.status as 1 | 2 | 3,
  statusLabel: labelOf(IMPORT_RECORD_STATUS_LABEL, row.status),
  progress: row.progress,
  total: row.total,
  imported: row.imported,
  updated: row.updated,
  unchanged: row.unchanged,
  failed: row.failed,
  errorCount: parseJson<unknown[]>(row.errors, []).length,
  message: row.message,
  userId: row.user_id,
  userName: row.user_name,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

const importQuery = (db: Db) => db.selectFrom('kb_import_records')
  .leftJoin('users', 'users.id', 'kb_import_records.user_id')
  .select([
    'kb_import_records.id', 'kb_import_records.kind', 'kb_import_records.name', 'kb_import_records.status',
    'kb_import_records.progress', 'kb_import_records.total', 'kb_import_records.imported', 'kb_import_records.updated',
    'kb_import_records.unchanged', 'kb_import_records.failed', 'kb_import_records.errors', 'kb_import_records.message',
    'kb_import_records.user_id', 'users.name as user_name', 'kb_import_records.created_at', 'kb_import_records.finished_at',
  ]);

export async function listImportRecords(db: Db, paging: Paging): Promise<Page<ImportRecord>> {
  const counted = await db.selectFrom('kb_import_records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await importQuery(db).orderBy('kb_import_records.created_at', 'desc').orderBy('kb_import_records.id', 'desc')
    .limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { total: Number(counted?.n ?? 0), content: rows.map(importView) };
}

export async function findImportRecord(db: Db, id: number): Promise<ImportRecord | undefined> {
  const row = await importQuery(db).where('kb_import_records.id', '=', id).executeTakeFirst();
  return row && importView(row);
}

/** A page of the per-file errors of a record, in the order they were reported; undefined when no such record. */
export async function importErrors(db: Db, id: number, paging: Paging): Promise<Page<{ file: string; message: string }> | undefined> {
  const row = await db.selectFrom('kb_import_records').select('errors').where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const errors = parseJson<unknown[]>(row.errors, []).map((e) => {
    const item = (e ?? {}) as { file?: unknown; message?: unknown };
    return { file: typeof item.file === 'string' ? item.file : '', message: typeof item.message === 'string' ? item.message : String(item.message ?? '') };
  });
  const start = (paging.page - 1) * paging.size;
  return { total: errors.length, content: errors.slice(start, start + paging.size) };
}
