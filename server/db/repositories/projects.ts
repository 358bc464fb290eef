// Projects: the new-project form stored (type-specific fields in `source`, secrets encrypted),
// and the task list (projects with their latest run). Launching lives in runs.ts.
import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { ProjectForm, RunSummary, TaskRow, Timing } from '../../../contract/api/task.ts';
import type { Page } from '../../../contract/api/kit.ts';
import { isTimingDisabled, TASK_STATUS } from '../../../contract/enums.ts';
import { encryptSecret } from '../../secrets.ts';
import type { Database, ProjectsTable } from '../schema.ts';
import { nowIso } from '../time.ts';
import { likePattern } from '../like.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type ProjectRow = Selectable<ProjectsTable>;

/** Form fields kept in `source` as given. */
const SOURCE_FIELDS = [
  'codeName', 'svnGitUri', 'gitBranchName', 'svnGitUserName', 'sshType', 'sshId', 'imageNameTag', 'imageUsername',
  'imageCaPem', 'imageInsecure', 'imagePlatform',
  'artifactoryAuthType', 'fireFlyIp', 'fireFlyPort', 'fireFlyProj', 'fireFlyLabel', 'fireFlyBranchName', 'fireFlyUserName',
  'fireFlySsl', 'ftpIp', 'ftpFilePath', 'ftpUserName', 'ftpSsl', 'stream', 'pvob', 'vob', 'incrementalEnable',
  'scanAdvancedOption', 'infoleakDetectMode',
] as const;
/** Form fields that are secrets: stored encrypted, never answered. */
const SECRET_FIELDS = ['svnGitPwd', 'token', 'imagePassword', 'fireFlyPassWord', 'ftpPassWord'] as const;
const TIMING_FIELDS = ['cronType', 'week', 'month', 'time', 'interval', 'weekFlag', 'days', 'weekDays'] as const;

type Form = Partial<ProjectForm>;

/** `source` JSON from the form, merged over what is stored (an empty password keeps the old one). */
export function sourceOf(form: Form, dataDir: string, stored: Record<string, unknown> = {}): Record<string, unknown> {
  const source: Record<string, unknown> = { ...stored };
  for (const key of SOURCE_FIELDS) if (form[key] !== undefined) source[key] = form[key];
  for (const key of SECRET_FIELDS) {
    const value = form[key];
    if (typeof value === 'string' && value !== '') source[key] = encryptSecret(dataDir, value);
  }
  return source;
}

/** Source fields for answers: secrets replaced by whether one is stored. */
export function publicSource(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if ((SECRET_FIELDS as readonly string[]).includes(key)) out[`has${key[0]!.toUpperCase()}${key.slice(1)}`] = Boolean(value);
    else out[key] = value;
  }
  return out;
}

export function timingOf(form: Form, getCodeType: number, stored: Partial<Timing> = {}): Timing {
  const timing: Timing = { ...stored, enableTiming: form.enableTiming ?? stored.enableTiming ?? false };
  for (const key of TIMING_FIELDS) if (form[key] !== undefined) (timing as Record<string, unknown>)[key] = form[key];
  // Spec: timing is disabled for local-upload types (their input never changes by itself).
  if (isTimingDisabled(getCodeType)) timing.enableTiming = false;
  timing.cronType ??= 2;
  timing.week ??= 1;
  return timing;
}

export async function findProject(db: Db, id: number): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findProjects(db: Db, ids: number[]): Promise<ProjectRow[]> {
  if (!ids.length) return [];
  return db.selectFrom('projects').selectAll().where('id', 'in', ids).execute();
}

export async function insertProject(db: Db, values: {
  subjectId: number; versionId: number | null; name: string; getCodeType: number; source: Record<string, unknown>;
  uploadId: string | null; projectTags: string; analysisModes: string; retentionAudit: boolean; timing: Timing;
  nextRunAt: string | null; outboundLicense: string | null; userId: number;
}): Promise<ProjectRow> {
  const now = nowIso();
  return db.insertInto('projects').values({
    subject_id: values.subjectId,
    version_id: values.versionId,
    name: values.name,
    get_code_type: values.getCodeType,
    source: JSON.stringify(values.source),
    upload_id: values.uploadId,
    project_tags: values.projectTags,
    analysis_modes: values.analysisModes,
    retention_audit: values.retentionAudit ? 1 : 0,
    enable_timing: values.timing.enableTiming ? 1 : 0,
    timing: JSON.stringify(values.timing),
    next_run_at: values.nextRunAt,
    outbound_license: values.outboundLicense,
    created_by: values.userId,
    created_at: now,
    updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
}

export interface TaskQuery {
  visible: number[] | 'all';
  product: number;
  subjectIds?: number[];
  versionIds?: number[];
  groupIds?: number[];
  keyword?: string;
  statuses?: number[];
  neverRun?: boolean;
  getCodeTypes?: number[];
  page: number;
  size: number;
  sort: { field: 'projectName' | 'createdAt' | 'finishedAt' | 'status'; desc: boolean };
}

const SORT_COLUMN = {
  projectName: 'p.name',
  createdAt: 'p.created_at',
  finishedAt: 'r.finished_at',
  status: 'p.status',
} as const;

export async function listTasks(db: Db, q: TaskQuery): Promise<Page<TaskRow>> {
  let query = db.selectFrom('projects as p')
    .innerJoin('subjects as s', 's.id', 'p.subject_id')
    .leftJoin('runs as r', 'r.id', 'p.last_run_id')
    .where('s.product', '=', q.product);
  if (q.visible !== 'all') query = q.visible.length ? query.where('p.subject_id', 'in', q.visible) : query.where(sql<boolean>`1 = 0`);
  // Spec: one scope only — versions, else subjects, else groups.
  if (q.versionIds?.length) query = query.where('p.version_id', 'in', q.versionIds);
  else if (q.subjectIds?.length) query = query.where('p.subject_id', 'in', q.subjectIds);
  else if (q.groupIds?.length) query = query.where('s.group_id', 'in', q.groupIds);
  const keyword = q.keyword?.trim();
  if (keyword) query = query.where(sql<string>`lower(p.name)`, 'like', sql<string>`${likePattern(keyword)} escape '\\'`);
  if (q.neverRun) query = query.where('p.status', 'is', null);
  else if (q.statuses?.length) query = query.where('p.status', 'in', q.statuses);
  if (q.getCodeTypes?.length) query = query.where('p.get_code_type', 'in', q.getCodeTypes);

  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query
    .leftJoin('subject_versions as v', 'v.id', 'p.version_id')
    .leftJoin('users as u', 'u.id', 'p.created_by')
    .select([
      'p.id', 'p.name', 'p.subject_id', 's.name as subject_name', 'p.version_id', 'v.name as version_name', 'p.get_code_type',
      'p.analysis_modes', 'p.project_tags', 'p.enable_timing', 'p.next_run_at', 'p.retention_audit', 'p.created_at',
      'u.name as creator_name', 'r.id as run_id', 'r.seq', 'r.status', 'r.stage', 'r.progress', 'r.message', 'r.summary',
      'r.started_at', 'r.finished_at',
    ])
    .select((eb) => eb.selectFrom('runs as ok').select(sql<number>`max(ok.id)`.as('m'))
      .whereRef('ok.project_id', '=', 'p.id').where('ok.status', '=', 2).as('result_run_id'))
    .orderBy(sql.ref(SORT_COLUMN[q.sort.field]), q.sort.desc ? 'desc' : 'asc')
    .orderBy('p.id', 'desc')
    .limit(q.size).offset((q.page - 1) * q.size)
    .execute();
  // The summaries of the results shown where they come from an older run than the latest.
  const older = rows.filter((r) => r.result_run_id !== null && r.result_run_id !== undefined && Number(r.result_run_id) !== r.run_id)
    .map((r) => Number(r.result_run_id));
  const resultSummaries = new Map<number, string>();
  if (older.length) {
    for (const r of await db.selectFrom('runs').select(['id', 'summary']).where('id', 'in', older).execute()) resultSummaries.set(Number(r.id), r.summary);
  }
  const summaryOf = (json: string | null | undefined): RunSummary => (json ? (JSON.parse(json) as RunSummary) : {});
  return {
    total: Number(total?.n ?? 0),
    content: rows.map((r) => ({
      projectId: r.id,
      projectName: r.name,
      subjectId: r.subject_id,
      subjectName: r.subject_name,
      versionId: r.version_id,
      versionName: r.version_name ?? null,
      getCodeType: r.get_code_type,
      analysisModes: r.analysis_modes,
      projectTags: r.project_tags,
      taskId: r.run_id ?? null,
      seq: r.seq ?? null,
      status: (r.status ?? null) as TaskRow['status'],
      stage: (r.stage ?? null) as TaskRow['stage'],
      progress: r.progress ?? 0,
      message: r.message ?? '',
      summary: summaryOf(r.summary),
      resultTaskId: r.result_run_id === null || r.result_run_id === undefined ? null : Number(r.result_run_id),
      resultSummary: r.result_run_id === null || r.result_run_id === undefined ? {}
        : Number(r.result_run_id) === r.run_id ? summaryOf(r.summary) : summaryOf(resultSummaries.get(Number(r.result_run_id))),
      startedAt: r.started_at ?? null,
      finishedAt: r.finished_at ?? null,
      enableTiming: Boolean(r.enable_timing),
      nextRunAt: r.next_run_at,
      retentionAudit: Boolean(r.retention_audit),
      creatorName: r.creator_name ?? null,
      createdAt: r.created_at,
    })),
  };
}

/** The ids of the projects of some subjects ('all': every subject), by subject then project. */
export async function projectIdsOf(db: Db, subjects: number[] | 'all'): Promise<number[]> {
  if (subjects !== 'all' && !subjects.length) return [];
  let query = db.selectFrom('projects').select('id').orderBy('subject_id').orderBy('id');
  if (subjects !== 'all') query = query.where('subject_id', 'in', subjects);
  return (await query.execute()).map((p) => Number(p.id));
}

/** Whether the subject already has a project of that name (other than `exceptId`). */
export async function projectNameTaken(db: Db, subjectId: number, name: string, exceptId?: number): Promise<boolean> {
  let same = db.selectFrom('projects').select('id').where('subject_id', '=', subjectId).where('name', '=', name);
  if (exceptId) same = same.where('id', '<>', exceptId);
  return (await same.executeTakeFirst()) !== undefined;
}

/** Changes a stored project; answers the row as written. */
export async function updateProject(db: Db, id: number, changes: Updateable<ProjectsTable>): Promise<ProjectRow> {
  return db.updateTable('projects').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes projects; their runs and results go with them (ON DELETE CASCADE). */
export async function deleteProjectRows(db: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('projects').where('id', 'in', ids).execute();
}

/** The projects of a subject by name, with the latest run each has that succeeded. */
export async function subjectProjects(db: Db, subjectId: number) {
  const rows = await db.selectFrom('projects as p').select(['p.id', 'p.name', 'p.get_code_type', 'p.status'])
    .select((eb) => eb.selectFrom('runs as r').select((e) => e.fn.max('r.id').as('m')).whereRef('r.project_id', '=', 'p.id').where('r.status', '=', TASK_STATUS.SUCCEEDED).as('result_run_id'))
    .where('p.subject_id', '=', subjectId).orderBy('p.name').execute();
  return rows.map((r) => ({
    id: r.id, name: r.name, getCodeType: r.get_code_type, status: r.status,
    resultRunId: r.result_run_id === null || r.result_run_id === undefined ? null : Number(r.result_run_id),
  }));
}

/** Projects whose source fields hold an `@` somewhere: those an address with credentials may be in (url-credentials.ts). */
export async function projectsWithAt(db: Db): Promise<Array<{ id: number; source: string }>> {
  const rows = await db.selectFrom('projects').select(['id', 'source']).where(sql<string>`cast(source as text)`, 'like', '%@%').execute();
  return rows.map((r) => ({ id: Number(r.id), source: r.source }));
}

/** How many projects the platform holds ('all'), or the subjects given hold. */
export async function countProjects(db: Db, subjects: number[] | 'all'): Promise<number> {
  if (subjects !== 'all' && !subjects.length) return 0;
  let query = db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n'));
  if (subjects !== 'all') query = query.where('subject_id', 'in', subjects);
  const used = await query.executeTakeFirst();
  return Number(used?.n ?? 0);
}

// ---- scheduled analyses (server/jobs/schedule.ts)

/** Projects with timing on whose next run time has come (`now` an ISO time). */
export async function dueProjects(db: Db, now: string) {
  return db.selectFrom('projects').select(['id', 'timing', 'next_run_at', 'analysis_modes', 'outbound_license', 'created_by', 'updated_at'])
    .where('enable_timing', '=', 1).where('next_run_at', '<=', now).execute();
}

/**
 * Claims a project's due turn by moving its next run time from `due` (as read) to `next`: true
 * only for the one process whose update matched, so a turn launches one run however many tick.
 */
export async function claimTimingTurn(db: Db, projectId: number, due: string, next: string | null): Promise<boolean> {
  const claimed = await db.updateTable('projects').set({ next_run_at: next })
    .where('id', '=', projectId).where('next_run_at', '=', due).executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}
