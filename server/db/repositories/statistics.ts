// Project statistics (contract/api/statistic.ts): the projects a filter names, their latest
// succeeded runs within a range, and the grouped reads over runs, findings and licences. Counts of
// several runs merged come from level-counts.ts (taskLevelCounts), a project's own counts from its
// run summary (kept in line by refreshRunLevels); what is grouped here is grouped in SQL.
import { sql, type RawBuilder } from 'kysely';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { FALSE_POSITIVE_MARK } from './level-counts.ts';
import { chunks, emptyRisks, levelCountsOf, parseJson, type Db, type LatestRun } from './results.ts';
import type { LevelCounts, RiskCounts } from '../../../contract/api/vulnerability.ts';

/** A project the statistics count, with its 应用, version and tags. */
export interface ScopedProject {
  id: number;
  name: string;
  subjectId: number;
  subjectName: string;
  versionId: number | null;
  versionName: string | null;
  tags: string[];
}

/** A range of instants: [from, to) as ISO strings, either end open (null). */
export interface InstantRange { from: string | null; to: string | null }

export interface ProjectScopeQuery {
  product: number;
  subjects: number[] | 'all';
  subjectId?: number;
  projectIds?: number[];
}

/** Whether the subject exists in the product and the caller's scope. */
export async function subjectInScope(db: Db, q: { product: number; subjects: number[] | 'all'; subjectId: number }): Promise<boolean> {
  if (q.subjects !== 'all' && !q.subjects.includes(q.subjectId)) return false;
  const row = await db.selectFrom('subjects').select('id').where('id', '=', q.subjectId).where('product', '=', q.product).executeTakeFirst();
  return row !== undefined;
}

/** A subject's name ('' when it is gone). */
export async function subjectName(db: Db, id: number): Promise<string> {
  return (await db.selectFrom('subjects').select('name').where('id', '=', id).executeTakeFirst())?.name ?? '';
}

/** Of some version ids, those of the product's subjects: each with its subject. */
export async function versionSubjects(db: Db, ids: number[], product: number): Promise<Array<{ id: number; subjectId: number }>> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('subject_versions as v').innerJoin('subjects as s', 's.id', 'v.subject_id')
    .select(['v.id', 'v.subject_id']).where('v.id', 'in', ids).where('s.product', '=', product).execute();
  return rows.map((r) => ({ id: Number(r.id), subjectId: Number(r.subject_id) }));
}

/** The projects of the product's subjects in scope, optionally of one subject and some ids. */
export async function projectsInScope(db: Db, q: ProjectScopeQuery): Promise<ScopedProject[]> {
  if (q.subjects !== 'all' && !q.subjects.length) return [];
  let query = db.selectFrom('projects as p').innerJoin('subjects as s', 's.id', 'p.subject_id').leftJoin('subject_versions as v', 'v.id', 'p.version_id')
    .select(['p.id', 'p.name', 'p.subject_id', 's.name as subject_name', 'p.version_id', 'v.name as version_name', 'p.project_tags'])
    .where('s.product', '=', q.product);
  if (q.subjects !== 'all') query = query.where('p.subject_id', 'in', q.subjects);
  if (q.subjectId !== undefined) query = query.where('p.subject_id', '=', q.subjectId);
  if (q.projectIds?.length) query = query.where('p.id', 'in', q.projectIds);
  const rows = await query.orderBy('p.id').execute();
  return rows.map((r) => ({
    id: Number(r.id), name: r.name, subjectId: Number(r.subject_id), subjectName: r.subject_name,
    versionId: r.version_id === null ? null : Number(r.version_id), versionName: r.version_name ?? null,
    tags: r.project_tags.split(',').map((t) => t.trim()).filter(Boolean),
  }));
}

/** The versions of some subjects (the 应用 picked shows its versions without projects too). */
export async function versionsOf(db: Db, subjectIds: number[]): Promise<Array<{ id: number; name: string; subjectId: number }>> {
  if (!subjectIds.length) return [];
  const rows = await db.selectFrom('subject_versions').select(['id', 'name', 'subject_id']).where('subject_id', 'in', subjectIds).orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, subjectId: Number(r.subject_id) }));
}

export interface StatisticRun extends LatestRun { finishedAt: string | null; summary: RunSummary }

/** What runs.summary keeps of a run's counts (level-counts.ts summaryFields). */
export interface RunSummary {
  components: number;
  vulnerableComponents: number;
  vulnerabilities: number;
  byLevel: LevelCounts;
  byRisk: RiskCounts;
  licenses: number;
  licensesByLevel: LevelCounts;
}

function summaryOf(json: string | null): RunSummary {
  const s = parseJson<Record<string, unknown>>(json, {});
  const risks = { ...emptyRisks(), ...(s.byRisk as Partial<RiskCounts> | undefined) };
  return {
    components: Number(s.components ?? 0),
    vulnerableComponents: Number(s.vulnerableComponents ?? 0),
    vulnerabilities: Number(s.vulnerabilities ?? 0),
    byLevel: levelCountsOf((s.byLevel as Record<string, number> | undefined) ?? {}),
    byRisk: Object.fromEntries(Object.entries(risks).map(([k, v]) => [k, Number(v)])) as unknown as RiskCounts,
    licenses: Number(s.licenses ?? 0),
    licensesByLevel: levelCountsOf((s.licensesByLevel as Record<string, number> | undefined) ?? {}),
  };
}

/** The latest succeeded run of each project finished within the range. */
export async function latestRunsIn(db: Db, projects: ScopedProject[], range: InstantRange): Promise<StatisticRun[]> {
  const subjectOf = new Map(projects.map((p) => [p.id, p.subjectId]));
  const out: StatisticRun[] = [];
  for (const part of chunks(projects.map((p) => p.id), 500)) {
    let latest = db.selectFrom('runs').select((eb) => eb.fn.max('id').as('id'))
      .where('status', '=', TASK_STATUS.SUCCEEDED).where('project_id', 'in', part).groupBy('project_id');
    if (range.from) latest = latest.where('finished_at', '>=', range.from);
    if (range.to) latest = latest.where('finished_at', '<', range.to);
    const rows = await db.selectFrom('runs').select(['id', 'project_id', 'finished_at', 'summary']).where('id', 'in', latest).execute();
    for (const r of rows) {
      out.push({ runId: Number(r.id), projectId: Number(r.project_id), subjectId: subjectOf.get(Number(r.project_id))!, finishedAt: r.finished_at, summary: summaryOf(r.summary) });
    }
  }
  return out.sort((a, b) => a.projectId - b.projectId);
}

/** An analysis's moment: when it finished, or when it was queued while unfinished. */
const momentOf = sql<string>`coalesce(finished_at, queued_at)`;

/** The local day (YYYY-MM-DD) of a timestamp expression, `offset` minutes east of UTC. */
function dayOf(expression: RawBuilder<string>, offset: number, postgres: boolean): RawBuilder<string> {
  const minutes = Math.trunc(offset);
  return postgres
    ? sql<string>`to_char((${expression} at time zone 'UTC') + make_interval(mins => ${sql.lit(minutes)}), 'YYYY-MM-DD')`
    : sql<string>`date(${expression}, ${sql.lit(`${minutes >= 0 ? '+' : ''}${minutes} minutes`)})`;
}

/** Analyses of the projects by status, their moment within the range. */
export async function runsByStatus(db: Db, projectIds: number[], range: InstantRange): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const part of chunks(projectIds, 500)) {
    let query = db.selectFrom('runs').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('project_id', 'in', part).groupBy('status');
    if (range.from) query = query.where(momentOf, '>=', range.from);
    if (range.to) query = query.where(momentOf, '<', range.to);
    for (const r of await query.execute()) out.set(Number(r.status), (out.get(Number(r.status)) ?? 0) + Number(r.n));
  }
  return out;
}

/** Analyses of each project, their moment within the range. */
export async function runsByProject(db: Db, projectIds: number[], range: InstantRange): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const part of chunks(projectIds, 500)) {
    let query = db.selectFrom('runs').select(['project_id', (eb) => eb.fn.countAll<number>().as('n')]).where('project_id', 'in', part).groupBy('project_id');
    if (range.from) query = query.where(momentOf, '>=', range.from);
    if (range.to) query = query.where(momentOf, '<', range.to);
    for (const r of await query.execute()) out.set(Number(r.project_id), Number(r.n));
  }
  return out;
}

/** Analyses per local day and status (their moment in the range), optionally of some statuses. */
export async function runsPerDay(db: Db, projectIds: number[], range: InstantRange, offset: number, postgres: boolean, statuses?: number[]): Promise<Array<{ day: string; status: number; n: number }>> {
  const out = new Map<string, { day: string; status: number; n: number }>();
  const day = dayOf(momentOf, offset, postgres);
  for (const part of chunks(projectIds, 500)) {
    let query = db.selectFrom('runs').select([day.as('day'), 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', part).groupBy([day, 'status']);
    if (statuses) query = query.where('status', 'in', statuses);
    if (range.from) query = query.where(momentOf, '>=', range.from);
    if (range.to) query = query.where(momentOf, '<', range.to);
    for (const r of await query.execute()) {
      const key = `${r.day}|${r.status}`;
      const seen = out.get(key) ?? { day: String(r.day), status: Number(r.status), n: 0 };
      seen.n += Number(r.n);
      out.set(key, seen);
    }
  }
  return [...out.values()];
}

/** The summaries of the succeeded analyses finished in the range, with their local day. */
export async function succeededSummariesPerDay(db: Db, projectIds: number[], range: InstantRange, offset: number, postgres: boolean): Promise<Array<{ day: string; summary: RunSummary }>> {
  const out: Array<{ day: string; summary: RunSummary }> = [];
  const day = dayOf(sql<string>`finished_at`, offset, postgres);
  for (const part of chunks(projectIds, 500)) {
    let query = db.selectFrom('runs').select([day.as('day'), 'summary']).where('project_id', 'in', part).where('status', '=', TASK_STATUS.SUCCEEDED);
    if (range.from) query = query.where('finished_at', '>=', range.from);
    if (range.to) query = query.where('finished_at', '<', range.to);
    for (const r of await query.execute()) out.push({ day: String(r.day), summary: summaryOf(r.summary) });
  }
  return out;
}

/** Packages most used over the runs: projects holding each, its worst risk; 误报 rows left out. */
export async function topComponents(db: Db, runIds: number[], size: number) {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_components')
    .select(['purl', 'ecosystem', 'name', 'version', (eb) => eb.fn.min('risk_level').as('risk'), sql<number>`count(distinct run_id)`.as('projects')])
    .where('run_id', 'in', runIds).where('mark', '!=', FALSE_POSITIVE_MARK)
    .groupBy(['purl', 'ecosystem', 'name', 'version'])
    .orderBy(sql`count(distinct run_id)`, 'desc').orderBy(sql`min(risk_level)`).orderBy(sql`lower(name)`).orderBy('version').orderBy('purl')
    .limit(size).execute();
  const counts = new Map<string, number>();
  if (rows.length) {
    const found = await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
      .select(['c.purl', sql<number>`count(distinct v.vul_id)`.as('n')])
      .where('v.run_id', 'in', runIds).where('c.mark', '!=', FALSE_POSITIVE_MARK).where('c.purl', 'in', rows.map((r) => r.purl))
      .groupBy('c.purl').execute();
    for (const f of found) counts.set(f.purl, Number(f.n));
  }
  return rows.map((r) => ({ purl: r.purl, ecosystem: r.ecosystem, name: r.name, version: r.version, riskLevel: Number(r.risk), projectCount: Number(r.projects), vulCount: counts.get(r.purl) ?? 0 }));
}

/** Advisories turning up in the most projects, then the most severe; 误报 components left out. */
export async function topVulnerabilities(db: Db, runIds: number[], size: number) {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
    .select(['v.vul_id', (eb) => eb.fn.max('v.cve').as('cve'), (eb) => eb.fn.max('v.summary').as('summary'), (eb) => eb.fn.min('v.level').as('level'),
      sql<number>`count(distinct v.run_id)`.as('projects'), sql<number>`count(distinct c.purl)`.as('packages')])
    .where('v.run_id', 'in', runIds).where('c.mark', '!=', FALSE_POSITIVE_MARK)
    .groupBy('v.vul_id')
    .orderBy(sql`count(distinct v.run_id)`, 'desc').orderBy(sql`min(v.level)`).orderBy(sql`count(distinct c.purl)`, 'desc').orderBy('v.vul_id')
    .limit(size).execute();
  return rows.map((r) => ({
    vulId: r.vul_id, cve: r.cve ?? null, summary: r.summary ?? '', level: Number(r.level), projectCount: Number(r.projects), componentCount: Number(r.packages),
  }));
}

/** Findings of the runs by review state and level (each run's own rows); 误报 components left out. */
export async function findingsByMark(db: Db, runIds: number[]): Promise<Array<{ mark: number; level: number; n: number }>> {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
    .select(['v.mark', 'v.level', (eb) => eb.fn.countAll<number>().as('n')])
    .where('v.run_id', 'in', runIds).where('c.mark', '!=', FALSE_POSITIVE_MARK)
    .groupBy(['v.mark', 'v.level']).execute();
  return rows.map((r) => ({ mark: Number(r.mark), level: Number(r.level), n: Number(r.n) }));
}

/** The projects' own licences most used over the runs (licences of 误报 components left out). */
export async function topLicences(db: Db, runIds: number[], size: number) {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_licenses as l').leftJoin('run_components as c', 'c.id', 'l.component_id').leftJoin('licenses as k', 'k.spdx_id', 'l.spdx_id')
    .select(['l.spdx_id', (eb) => eb.fn.max('k.name').as('name'), (eb) => eb.fn.min('k.level').as('level'), sql<number>`count(distinct l.run_id)`.as('projects')])
    .where('l.run_id', 'in', runIds).where('l.scope', '=', 'project')
    .where((eb) => eb.or([eb('l.component_id', 'is', null), eb('c.mark', '!=', FALSE_POSITIVE_MARK)]))
    .groupBy('l.spdx_id')
    .orderBy(sql`count(distinct l.run_id)`, 'desc').orderBy('l.spdx_id')
    .limit(size).execute();
  return rows.map((r) => ({ spdxId: r.spdx_id, name: r.name ?? null, level: r.level === null ? 16 : Number(r.level), projectCount: Number(r.projects) }));
}

export interface TaskListQuery {
  projectIds: number[];
  range: InstantRange;
  status?: number;
  page: number;
  size: number;
}

/** A page of the projects' analyses (moment in the range), newest first. */
export async function statisticTasks(db: Db, q: TaskListQuery) {
  if (!q.projectIds.length) return { total: 0, rows: [] };
  const moment = sql<string>`coalesce(r.finished_at, r.queued_at)`;
  let base = db.selectFrom('runs as r').where('r.project_id', 'in', q.projectIds);
  if (q.status !== undefined) base = base.where('r.status', '=', q.status);
  if (q.range.from) base = base.where(moment, '>=', q.range.from);
  if (q.range.to) base = base.where(moment, '<', q.range.to);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base.innerJoin('projects as p', 'p.id', 'r.project_id').innerJoin('subjects as s', 's.id', 'p.subject_id').leftJoin('subject_versions as sv', 'sv.id', 'p.version_id')
    .select(['r.id', 'r.project_id', 'p.name as project_name', 'p.subject_id', 's.name as subject_name', 'sv.name as version_name', 'r.seq', 'r.status', 'r.trigger', 'r.queued_at', 'r.finished_at', 'r.summary'])
    .orderBy(moment, 'desc').orderBy('r.id', 'desc').limit(q.size).offset((q.page - 1) * q.size).execute();
  return {
    total: Number(total?.n ?? 0),
    rows: rows.map((r) => {
      const s = summaryOf(r.summary);
      return {
        taskId: Number(r.id), projectId: Number(r.project_id), projectName: r.project_name, subjectId: Number(r.subject_id), subjectName: r.subject_name,
        versionName: r.version_name ?? null, seq: Number(r.seq), status: Number(r.status), trigger: r.trigger, queuedAt: r.queued_at, finishedAt: r.finished_at,
        components: s.components, vulnerabilities: s.vulnerabilities, byLevel: s.byLevel, licenses: s.licenses,
      };
    }),
  };
}
