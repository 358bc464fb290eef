// 扫描配置: the repositories online resolution asks, system-wide (subject_id null) or an 应用's own.
import type { Kysely, Selectable } from 'kysely';
import type { ScanEcosystem, ScanRepositoryRow } from '../../../contract/api/scan-config.ts';
import type { Database, ScanRepositoriesTable } from '../schema.ts';
import { nowIso } from '../time.ts';

type Db = Kysely<Database>;
export type ScanRepositoryRecord = Selectable<ScanRepositoriesTable>;

export interface ScanRepositoryValues {
  name: string;
  url: string;
  username: string;
  /** Encrypted; undefined keeps the stored one (update), null removes it. */
  password: string | null | undefined;
  enabled: boolean;
  priority: number;
  remark: string;
}

/** The repositories of one ecosystem, system-wide (`subjectId` null) or of one 应用, in the order they are asked. */
export async function listScanRepositories(db: Db, ecosystem: ScanEcosystem, subjectId: number | null): Promise<ScanRepositoryRow[]> {
  let query = db.selectFrom('scan_repositories as r').leftJoin('users as u', 'u.id', 'r.created_by')
    .selectAll('r').select('u.name as creator').where('r.ecosystem', '=', ecosystem);
  query = subjectId === null ? query.where('r.subject_id', 'is', null) : query.where('r.subject_id', '=', subjectId);
  const rows = await query.orderBy('r.priority').orderBy('r.id').execute();
  return rows.map((r) => toRow(r, r.creator ?? null));
}

function toRow(r: ScanRepositoryRecord, createdBy: string | null): ScanRepositoryRow {
  return {
    id: r.id,
    ecosystem: r.ecosystem as ScanEcosystem,
    subjectId: r.subject_id,
    name: r.name,
    url: r.url,
    username: r.username,
    hasPassword: r.password !== null && r.password !== '',
    enabled: Boolean(r.enabled),
    priority: r.priority,
    remark: r.remark,
    createdBy,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function scanRepositoryRow(db: Db, id: number): Promise<ScanRepositoryRow | undefined> {
  const r = await db.selectFrom('scan_repositories as r').leftJoin('users as u', 'u.id', 'r.created_by')
    .selectAll('r').select('u.name as creator').where('r.id', '=', id).executeTakeFirst();
  return r ? toRow(r, r.creator ?? null) : undefined;
}

export const findScanRepository = (db: Db, id: number): Promise<ScanRepositoryRecord | undefined> =>
  db.selectFrom('scan_repositories').selectAll().where('id', '=', id).executeTakeFirst();

/** A repository of the same scope and ecosystem with this name (case-insensitively), other than `exceptId`. */
export async function scanRepositoryNamed(db: Db, ecosystem: ScanEcosystem, subjectId: number | null, name: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('scan_repositories').select(['id', 'name']).where('ecosystem', '=', ecosystem);
  query = subjectId === null ? query.where('subject_id', 'is', null) : query.where('subject_id', '=', subjectId);
  const rows = await query.execute();
  const key = name.trim().toLowerCase();
  return rows.some((r) => r.id !== exceptId && r.name.trim().toLowerCase() === key);
}

export async function insertScanRepository(db: Db, ecosystem: ScanEcosystem, subjectId: number | null, userId: number, v: ScanRepositoryValues): Promise<number> {
  const at = nowIso();
  const row = await db.insertInto('scan_repositories').values({
    ecosystem, subject_id: subjectId, name: v.name, url: v.url, username: v.username, password: v.password ?? null,
    enabled: v.enabled ? 1 : 0, priority: v.priority, remark: v.remark, created_by: userId, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateScanRepository(db: Db, id: number, v: ScanRepositoryValues): Promise<void> {
  await db.updateTable('scan_repositories').set({
    name: v.name, url: v.url, username: v.username, enabled: v.enabled ? 1 : 0, priority: v.priority, remark: v.remark, updated_at: nowIso(),
    ...(v.password !== undefined ? { password: v.password } : {}),
  }).where('id', '=', id).execute();
}

export async function deleteScanRepository(db: Db, id: number): Promise<void> {
  await db.deleteFrom('scan_repositories').where('id', '=', id).execute();
}

/** The enabled repositories an analysis of `subjectId` asks, per ecosystem: the 应用's own first, then the system's. */
export async function enabledScanRepositories(db: Db, subjectId: number | null): Promise<ScanRepositoryRecord[]> {
  const rows = await db.selectFrom('scan_repositories').selectAll()
    .where((eb) => (subjectId === null ? eb('subject_id', 'is', null) : eb.or([eb('subject_id', 'is', null), eb('subject_id', '=', subjectId)])))
    .orderBy('priority').orderBy('id').execute();
  // The flag is 0/1 or a boolean by dialect: filtered here rather than in SQL.
  return rows.filter((r) => Boolean(r.enabled)).sort((a, b) => Number(a.subject_id === null) - Number(b.subject_id === null));
}
