// The records of knowledge-base imports (kb_import_records: what was imported, how far it got, its
// errors) and the state of mirror syncs (kb_sync_state: the validators of the last download). The
// import jobs (kb/import.ts, kb/sync.ts) write them; the import screens read them.
import type { Page } from '../../../contract/api/kit.ts';
import type { ImportRecord } from '../../../contract/api/vulnerability.ts';
import type { ImportFileRow } from '../../../contract/api/kb-import.ts';
import { IMPORT_FILE_OUTCOME_LABEL, IMPORT_RECORD_STATUS_LABEL, labelOf } from '../../../contract/enums.ts';
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';
import { parseJson } from './results.ts';
import type { Paging } from './vulnerabilities.ts';

/** 导入中 / 导入成功 / 导入失败 / 排队中 / 已取消 (IMPORT_RECORD_STATUS_LABEL). */
export const IMPORT_STATUS = { RUNNING: 1, SUCCEEDED: 2, FAILED: 3, QUEUED: 4, CANCELLED: 5 } as const;

/** 已导入 / 已跳过 / 已拒绝 (IMPORT_FILE_OUTCOME_LABEL). */
export const FILE_OUTCOME = { IMPORTED: 1, SKIPPED: 2, REFUSED: 3 } as const;

/** One file's outcome in an import. */
export interface ImportFileOutcome {
  file: string;
  outcome: number;
  advisories: number;
  reason: string;
}

/** The counters of an import as they stand. */
export interface ImportCounts {
  progress: number;
  total: number;
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
}

/** Opens the record of an import that starts now (导入中) or waits its turn (排队中); its id. */
export async function createImportRecord(db: Db, record: { kind: string; name: string; userId: number | null; queued?: boolean }): Promise<number> {
  const row = await db.insertInto('kb_import_records').values({
    kind: record.kind,
    name: record.name.slice(0, 400),
    status: record.queued ? IMPORT_STATUS.QUEUED : IMPORT_STATUS.RUNNING,
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

/** Closes every record still 导入中 or 排队中 as failed with `message`; how many there were. */
export async function failRunningImports(db: Db, message: string, ids?: number[]): Promise<number> {
  if (ids && ids.length === 0) return 0;
  let query = db
    .updateTable('kb_import_records')
    .set({ status: IMPORT_STATUS.FAILED, message, finished_at: nowIso() })
    .where('status', 'in', [IMPORT_STATUS.RUNNING, IMPORT_STATUS.QUEUED]);
  if (ids) query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A queued record starts (排队中 -> 导入中); false when it is no longer queued. */
export async function markImportStarted(db: Db, recordId: number): Promise<boolean> {
  const result = await db.updateTable('kb_import_records').set({ status: IMPORT_STATUS.RUNNING })
    .where('id', '=', recordId).where('status', '=', IMPORT_STATUS.QUEUED).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a record that never started as 已取消. */
export async function cancelQueuedImport(db: Db, recordId: number, message: string): Promise<void> {
  await db.updateTable('kb_import_records').set({ status: IMPORT_STATUS.CANCELLED, message, finished_at: nowIso() })
    .where('id', '=', recordId).where('status', '=', IMPORT_STATUS.QUEUED).execute();
}

/** Appends per-file rows to a record, in order. */
export async function addImportFiles(db: Db, recordId: number, rows: ImportFileOutcome[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('kb_import_files').values(rows.map((r) => ({
    record_id: recordId, file: r.file.slice(0, 400), outcome: r.outcome, advisories: r.advisories, reason: r.reason.slice(0, 2000),
  }))).execute();
}

export async function setImportFilesOmitted(db: Db, recordId: number, omitted: number): Promise<void> {
  await db.updateTable('kb_import_records').set({ files_omitted: omitted }).where('id', '=', recordId).execute();
}

/** A page of a record's per-file rows; undefined when no such record. */
export async function importFiles(db: Db, recordId: number, paging: Paging): Promise<Page<ImportFileRow> | undefined> {
  const exists = await db.selectFrom('kb_import_records').select('id').where('id', '=', recordId).executeTakeFirst();
  if (!exists) return undefined;
  const counted = await db.selectFrom('kb_import_files').select((eb) => eb.fn.countAll<number>().as('n')).where('record_id', '=', recordId).executeTakeFirst();
  const rows = await db.selectFrom('kb_import_files').select(['file', 'outcome', 'advisories', 'reason'])
    .where('record_id', '=', recordId).orderBy('id').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(counted?.n ?? 0),
    content: rows.map((r) => ({
      file: r.file, outcome: r.outcome as 1 | 2 | 3, outcomeLabel: labelOf(IMPORT_FILE_OUTCOME_LABEL, r.outcome), advisories: r.advisories, reason: r.reason,
    })),
  };
}

/** Every ecosystem's mirror state with its last sync record. */
export async function syncStates(db: Db): Promise<Array<{ ecosystem: string; bytes: number; last_modified: string | null; completed_at: string | null }>> {
  const rows = await db.selectFrom('kb_sync_state').select(['ecosystem', 'bytes', 'last_modified', 'completed_at']).orderBy('ecosystem').execute();
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
}

/** The latest sync records, newest first (the caller picks each ecosystem's). */
export async function recentSyncRecords(db: Db, limit = 500): Promise<Array<{ id: number; name: string; status: number; message: string; finished_at: string | null; created_at: string }>> {
  return db.selectFrom('kb_import_records').select(['id', 'name', 'status', 'message', 'finished_at', 'created_at'])
    .where('kind', '=', 'sync').orderBy('id', 'desc').limit(limit).execute();
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
  files_omitted: number;
  file_count: number | string | null;
}

const importView = (row: ImportRow): ImportRecord => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  status: row.status as 1 | 2 | 3 | 4 | 5,
  statusLabel: labelOf(IMPORT_RECORD_STATUS_LABEL, row.status),
  progress: row.progress,
  total: row.total,
  imported: row.imported,
  updated: row.updated,
  unchanged: row.unchanged,
  failed: row.failed,
  errorCount: parseJson<unknown[]>(row.errors, []).length,
  fileCount: Number(row.file_count ?? 0),
  filesOmitted: row.files_omitted,
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
    'kb_import_records.files_omitted',
    (eb) => eb.selectFrom('kb_import_files').select((e) => e.fn.countAll<number>().as('n'))
      .whereRef('kb_import_files.record_id', '=', 'kb_import_records.id').as('file_count'),
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
