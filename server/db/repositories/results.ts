// Reads shared by every result call: which project and run a call answers from (data scope
// included), and the row views of runs, components and findings. The run_* tables are written by
// server/jobs/save-results.ts; JSON columns are read defensively since old rows may lack keys.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ComponentRow, Evidence, FindingRow, LevelCounts, Location, ProjectHeader, RiskCounts, RunRow } from '../../../contract/api/result/index.ts';
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import type { RunImage } from '../../../contract/api/image.ts';
import { TASK_STATUS, parseAnalysisModes } from '../../../contract/enums.ts';
import { RUN_STAGE_LABEL, type RunStage } from '../../../contract/api/task.ts';
import type { Database, RunComponentsTable, RunVulnerabilitiesTable, RunsTable } from '../schema.ts';
import { UserError } from '../../errors.ts';
import { canAccessSubject } from './subject-access.ts';
import { recommendedUpgrade, storedFixState } from '../../kb/advisory-view.ts';

export type Db = Kysely<Database> | Transaction<Database>;
export type RunRecord = Selectable<RunsTable>;
export type ComponentRecord = Selectable<RunComponentsTable>;
export type FindingRecord = Selectable<RunVulnerabilitiesTable>;

export const RESULT_MSG = {
  projectNotFound: '项目不存在',
  taskNotFound: '任务不存在或不属于该项目',
  componentNotFound: '组件不存在',
  findingNotFound: '漏洞记录不存在',
  subjectNotFound: '项目（应用）不存在',
  nodeNotFound: '依赖树节点不存在',
} as const;

/** JSON columns: text on SQLite; on PostgreSQL (jsonb) the driver may already hand back the value. */
export const parseJson = <T>(text: string | null | undefined, fallback: T): T => {
  if (text !== null && typeof text === 'object') return text as T;
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export const emptyLevels = (): LevelCounts => ({ 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 });
export const emptyRisks = (): RiskCounts => ({ 1: 0, 2: 0, 4: 0, 8: 0, 16: 0, 32: 0, 64: 0 });

/** `{"1":2,"4":1}` (only levels present, as save-results writes it) as all five counts. */
export function levelCountsOf(json: string | Record<string, number> | null | undefined): LevelCounts {
  const raw = typeof json === 'string' || json == null ? parseJson<Record<string, number>>(json as string | null, {}) : json;
  const out = emptyLevels();
  for (const k of [1, 2, 4, 8, 16] as const) out[k] = Number(raw[k] ?? 0);
  return out;
}

export const lowerLike = (column: string, pattern: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
/** The same over a JSON column (jsonb on PostgreSQL has no lower()). */
export const lowerLikeJson = (column: string, pattern: string) => sql<boolean>`lower(cast(${sql.ref(column)} as text)) like ${pattern} escape '\\'`;

export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---- scope ---------------------------------------------------------------------------------------

export interface ProjectRecord {
  id: number;
  subject_id: number;
  name: string;
  outbound_license: string | null;
}

/**
 * The project when it exists and the user may see its subject; else a UserError (项目不存在, or the
 * data-scope refusal answered with HTTP 403 and shown as 用户无权查看当前项目).
 */
export async function accessibleProject(db: Db, userId: number, projectId: number): Promise<ProjectRecord> {
  const project = await db.selectFrom('projects').select(['id', 'subject_id', 'name', 'outbound_license'])
    .where('id', '=', projectId).executeTakeFirst();
  if (!project) throw new UserError(RESULT_MSG.projectNotFound, 'not-found');
  if (!(await canAccessSubject(db, userId, project.subject_id))) throw UserError.denied();
  return project;
}

async function latestSucceededRun(db: Db, projectId: number): Promise<RunRecord | undefined> {
  return db.selectFrom('runs').selectAll().where('project_id', '=', projectId).where('status', '=', TASK_STATUS.SUCCEEDED)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** The project's newest run, whatever its status. */
export async function latestRun(db: Db, projectId: number): Promise<RunRecord | undefined> {
  return db.selectFrom('runs').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export interface ResultScope {
  project: ProjectRecord;
  /** The run the results come from; null when the project has no succeeded run yet. */
  run: RunRecord | null;
}

/**
 * The project (visible to the user) and the run a project-scoped read answers from: the asked
 * `taskId` when it is a run of the project, else the project's latest succeeded run.
 */
export async function resultScope(db: Db, userId: number, projectId: number, taskId?: number): Promise<ResultScope> {
  const project = await accessibleProject(db, userId, projectId);
  if (taskId !== undefined) {
    const run = await db.selectFrom('runs').selectAll().where('id', '=', taskId).executeTakeFirst();
    if (!run || run.project_id !== projectId) throw new UserError(RESULT_MSG.taskNotFound, 'not-found');
    return { project, run };
  }
  return { project, run: (await latestSucceededRun(db, projectId)) ?? null };
}

/** A run the user may see (any project), with its project. */
export async function accessibleRun(db: Db, userId: number, runId: number): Promise<{ run: RunRecord; project: ProjectRecord }> {
  const run = await db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!run) throw new UserError(RESULT_MSG.taskNotFound, 'not-found');
  return { run, project: await accessibleProject(db, userId, run.project_id) };
}

/** A component row the user may see, with its run and project. */
export async function accessibleComponent(db: Db, userId: number, componentId: number): Promise<{ component: ComponentRecord; run: RunRecord; project: ProjectRecord }> {
  const component = await db.selectFrom('run_components').selectAll().where('id', '=', componentId).executeTakeFirst();
  if (!component) throw new UserError(RESULT_MSG.componentNotFound, 'not-found');
  return { component, ...(await accessibleRun(db, userId, component.run_id)) };
}

export interface SubjectRecord { id: number; uuid: string; name: string }

export async function accessibleSubject(db: Db, userId: number, subject: { id?: number; uuid?: string }): Promise<SubjectRecord> {
  let query = db.selectFrom('subjects').select(['id', 'uuid', 'name']);
  query = subject.id !== undefined ? query.where('id', '=', subject.id) : query.where('uuid', '=', subject.uuid ?? '');
  const row = await query.executeTakeFirst();
  if (!row) throw new UserError(RESULT_MSG.subjectNotFound, 'not-found');
  if (!(await canAccessSubject(db, userId, row.id))) throw UserError.denied();
  return row;
}

export interface LatestRun { runId: number; projectId: number; subjectId: number }

/**
 * The latest succeeded run of each project in scope: subjects (ids or 'all'), optionally one
 * subject version. One grouped query over runs.
 */
export async function latestRunsOf(db: Db, scope: { subjectIds: number[] | 'all'; versionId?: number }): Promise<LatestRun[]> {
  if (scope.subjectIds !== 'all' && scope.subjectIds.length === 0) return [];
  let query = db.selectFrom('runs').innerJoin('projects', 'projects.id', 'runs.project_id')
    .select(['runs.project_id', 'projects.subject_id', (eb) => eb.fn.max('runs.id').as('run_id')])
    .where('runs.status', '=', TASK_STATUS.SUCCEEDED)
    .groupBy(['runs.project_id', 'projects.subject_id']);
  if (scope.subjectIds !== 'all') query = query.where('projects.subject_id', 'in', scope.subjectIds);
  if (scope.versionId !== undefined) query = query.where('projects.version_id', '=', scope.versionId);
  const rows = await query.execute();
  return rows.map((r) => ({ runId: Number(r.run_id), projectId: Number(r.project_id), subjectId: Number(r.subject_id) })).sort((a, b) => a.projectId - b.projectId);
}

// ---- views ---------------------------------------------------------------------------------------

interface RunSummaryJson {
  coverage?: KbCoverage;
  image?: RunImage;
  components?: number; vulnerableComponents?: number; vulnerabilities?: number; byLevel?: Record<string, number>; licenses?: number;
}

async function userNames(db: Db, ids: Array<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

function runView(run: RunRecord, names: Map<number, string>): RunRow {
  const s = parseJson<RunSummaryJson>(run.summary, {});
  const started = run.started_at ? Date.parse(run.started_at) : NaN;
  const finished = run.finished_at ? Date.parse(run.finished_at) : NaN;
  return {
    id: run.id,
    projectId: run.project_id,
    seq: run.seq,
    status: run.status as RunRow['status'],
    stage: run.stage,
    stageLabel: RUN_STAGE_LABEL[run.stage as RunStage] ?? '',
    progress: run.progress,
    message: run.message,
    trigger: run.trigger,
    analysisModes: parseAnalysisModes(run.analysis_modes),
    queuedAt: run.queued_at,
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    durationMs: Number.isNaN(started) || Number.isNaN(finished) ? null : Math.max(0, finished - started),
    createdBy: run.created_by,
    createdByName: run.created_by === null ? null : names.get(run.created_by) ?? null,
    counts: {
      components: s.components ?? 0,
      vulnerableComponents: s.vulnerableComponents ?? 0,
      vulnerabilities: s.vulnerabilities ?? 0,
      byLevel: levelCountsOf(s.byLevel ?? {}),
      licenses: s.licenses ?? 0,
    },
    coverage: s.coverage ?? null,
    image: s.image ?? null,
  };
}

export async function runViews(db: Db, runs: RunRecord[]): Promise<RunRow[]> {
  const names = await userNames(db, runs.map((r) => r.created_by));
  return runs.map((r) => runView(r, names));
}

export async function projectHeader(db: Db, projectId: number): Promise<ProjectHeader | undefined> {
  const p = await db.selectFrom('projects as p')
    .innerJoin('subjects as s', 's.id', 'p.subject_id')
    .leftJoin('subject_versions as v', 'v.id', 'p.version_id')
    .select(['p.id', 'p.name', 'p.subject_id', 's.uuid', 's.name as subject_name', 's.product', 'p.version_id', 'v.name as version_name',
      'p.get_code_type', 'p.project_tags', 'p.analysis_modes', 'p.outbound_license', 'p.retention_audit', 'p.status', 'p.created_at'])
    .where('p.id', '=', projectId).executeTakeFirst();
  if (!p) return undefined;
  return {
    projectId: p.id,
    projectName: p.name,
    subjectId: p.subject_id,
    subjectUuid: p.uuid,
    subjectName: p.subject_name,
    product: Number(p.product),
    versionId: p.version_id,
    versionName: p.version_name,
    getCodeType: p.get_code_type,
    projectTags: p.project_tags.split(',').map((t) => t.trim()).filter(Boolean),
    analysisModes: parseAnalysisModes(p.analysis_modes),
    outboundLicense: p.outbound_license,
    retentionAudit: Boolean(Number(p.retention_audit)),
    status: p.status === null ? null : (p.status as RunRow['status']),
    createdAt: p.created_at,
  };
}

export const locationsOf = (json: string): Location[] =>
  parseJson<Array<Partial<Location>>>(json, []).map((l) => ({ file: String(l.file ?? ''), startLine: l.startLine ?? null, endLine: l.endLine ?? null }));

export const evidenceOf = (json: string | null | undefined): Evidence[] =>
  parseJson<Array<Partial<Evidence>>>(json, []).map((e) => ({
    file: String(e.file ?? ''), rule: String(e.rule ?? ''), text: e.text ?? null, offset: typeof e.offset === 'number' ? e.offset : null,
  }));

export function componentView(c: ComponentRecord): ComponentRow {
  return {
    id: c.id,
    taskId: c.run_id,
    purl: c.purl,
    ecosystem: c.ecosystem,
    name: c.name,
    version: c.version,
    direct: Boolean(Number(c.direct)),
    scope: c.scope === 'development' ? 'development' : 'runtime',
    componentType: Number(c.component_type) as ComponentRow['componentType'],
    licenseExpression: c.license_expression,
    licenseLevel: Number(c.license_level) as ComponentRow['licenseLevel'],
    riskLevel: Number(c.risk_level) as ComponentRow['riskLevel'],
    vulCount: Number(c.vul_count),
    vulLevels: levelCountsOf(c.vul_levels),
    recommendVersion: c.recommend_version,
    locationCount: parseJson<unknown[]>(c.locations, []).length,
    layer: c.layer === null || c.layer === undefined ? null : Number(c.layer),
    constraint: c.version_constraint ?? null,
    mark: (c.mark || 'N') as ComponentRow['mark'],
    markRemark: c.mark_remark,
  };
}

export type FindingWithComponent = FindingRecord & { c_name: string; c_version: string; c_ecosystem: string; c_purl: string; c_direct: number | boolean };

export function findingView(f: FindingWithComponent): FindingRow {
  return {
    id: f.id,
    taskId: f.run_id,
    componentId: f.component_id,
    componentName: f.c_name,
    componentVersion: f.c_version,
    ecosystem: f.c_ecosystem,
    purl: f.c_purl,
    direct: Boolean(Number(f.c_direct)),
    identify: f.vul_id,
    cve: f.cve,
    cnnvd: f.cnnvd,
    cnvd: f.cnvd,
    aliases: parseJson<string[]>(f.aliases, []),
    summary: f.summary,
    level: Number(f.level) as FindingRow['level'],
    originalLevel: Number(f.original_level) as FindingRow['originalLevel'],
    levelRemark: f.level_remark,
    score: f.score === null ? null : Number(f.score),
    severitySource: f.severity_source ?? '',
    exploit: Number(f.exploit) as FindingRow['exploit'],
    fixedVersions: parseJson<string[]>(f.fixed_versions, []),
    fixState: storedFixState(f.fix_state, parseJson<string[]>(f.fixed_versions, [])),
    upgrade: recommendedUpgrade(f.c_ecosystem, f.c_version, parseJson<string[]>(f.fixed_versions, []), storedFixState(f.fix_state, parseJson<string[]>(f.fixed_versions, []))),
    published: f.published,
    mark: Number(f.mark) as FindingRow['mark'],
    markRemark: f.mark_remark,
    vex: Number(f.vex) as FindingRow['vex'],
    vexRemark: f.vex_remark,
  };
}

/**
 * A finding row with its component and the project of its run, for the calls that name a
 * finding by row id; undefined when there is none.
 */
export async function findingWithProject(db: Db, id: number) {
  return findingsQuery(db).innerJoin('runs as r', 'r.id', 'v.run_id').select('r.project_id').where('v.id', '=', id).executeTakeFirst();
}

/** run_vulnerabilities joined with its component, for findingView. */
export const findingsQuery = (db: Db) => db.selectFrom('run_vulnerabilities as v')
  .innerJoin('run_components as c', 'c.id', 'v.component_id')
  .selectAll('v')
  .select(['c.name as c_name', 'c.version as c_version', 'c.ecosystem as c_ecosystem', 'c.purl as c_purl', 'c.direct as c_direct']);
