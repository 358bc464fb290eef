// The component and finding reads of a task's detail: the lists (single-table, index-ordered
// queries over the run: run_components by (run_id, risk_level, id), run_vulnerabilities by
// (run_id, level, id); totals without filters come from runs.summary instead of a COUNT), the
// overview's grouped figures, and a component's detail.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ComponentDetail, ComponentFilter, ComponentRow, FindingRow, LevelCounts } from '../../../contract/api/result/index.ts';
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import { NOT_COVERED_RISK, uncoveredEcosystems } from '../../../contract/coverage.ts';
import { likePattern } from '../like.ts';
import type { Database } from '../schema.ts';
import { levelsOf } from './licenses.ts';
import {
  componentView, emptyLevels, evidenceOf, findingView, findingsQuery, locationsOf, lowerLike, lowerLikeJson, parseJson,
  type ComponentRecord, type Db, type ProjectRecord, type RunRecord,
} from './results.ts';
import { loadAncestry, pathSteps, pathsTo } from './results-trees.ts';
import { notFalsePositive } from './level-counts.ts';

interface Paging { page: number; size: number }

const COMPONENT_SORT: Record<string, string> = {
  name: 'name', version: 'version', ecosystem: 'ecosystem', riskLevel: 'risk_level', vulCount: 'vul_count',
  licenseLevel: 'license_level', scope: 'scope', mark: 'mark',
};

/**
 * The risk filter: the risk codes asked for, 无漏洞 without the components shown 未覆盖, and those
 * (contract/coverage.ts isComponentNotCovered, by the run's coverage record) when notCovered asks.
 */
function riskCondition(eb: ExpressionBuilder<Database, 'run_components'>, filter: ComponentFilter, coverage: KbCoverage | null): Expression<SqlBool> | null {
  const levels = filter.riskLevels ?? [];
  if (!levels.length && !filter.notCovered) return null;
  const uncovered = uncoveredEcosystems(coverage);
  const notCovered = uncovered === 'all' ? eb('risk_level', '=', NOT_COVERED_RISK)
    : uncovered.length ? eb.and([eb('risk_level', '=', NOT_COVERED_RISK), eb('ecosystem', 'in', uncovered)]) : null;
  const choices: Expression<SqlBool>[] = [];
  if (levels.length) {
    const inLevels = eb('risk_level', 'in', levels);
    choices.push(notCovered && levels.includes(NOT_COVERED_RISK as never) ? eb.and([inLevels, eb.not(notCovered)]) : inLevels);
  }
  if (filter.notCovered && notCovered) choices.push(notCovered);
  return choices.length ? eb.or(choices) : sql<SqlBool>`1 = 0`;
}

function componentConditions(runId: number, filter: ComponentFilter, coverage: KbCoverage | null) {
  return (eb: ExpressionBuilder<Database, 'run_components'>) => {
    const where: Expression<SqlBool>[] = [eb('run_id', '=', runId)];
    const keyword = filter.keyword?.trim();
    if (keyword) {
      const p = likePattern(keyword);
      where.push(eb.or([lowerLike('name', p), lowerLike('purl', p), lowerLike('version', p)]));
    }
    const risk = riskCondition(eb, filter, coverage);
    if (risk) where.push(risk);
    if (filter.ecosystems?.length) where.push(eb('ecosystem', 'in', filter.ecosystems));
    if (filter.scope) where.push(eb('scope', '=', filter.scope));
    if (filter.direct !== undefined) where.push(eb('direct', '=', filter.direct ? 1 : 0));
    if (filter.marks?.length) where.push(eb('mark', 'in', filter.marks));
    if (filter.componentTypes?.length) where.push(eb('component_type', 'in', filter.componentTypes));
    if (filter.licenseLevels?.length) where.push(eb('license_level', 'in', filter.licenseLevels));
    if (filter.layers?.length) where.push(eb('layer', 'in', filter.layers));
    return eb.and(where);
  };
}

const hasFilter = (f: ComponentFilter) => Boolean(f.keyword?.trim() || f.riskLevels?.length || f.notCovered || f.ecosystems?.length || f.scope
  || f.direct !== undefined || f.marks?.length || f.componentTypes?.length || f.licenseLevels?.length || f.layers?.length);

/** A page of the run's components under the filter, sorted by `sort` (`riskLevel,asc` by default). */
export async function listComponents(db: Db, run: RunRecord, filter: ComponentFilter, paging: Paging, sort: string | undefined): Promise<{ content: ComponentRow[]; total: number }> {
  // The summary's count leaves out components marked 误报, which the list shows.
  const summary = parseJson<{ components?: number; falsePositiveComponents?: number; coverage?: KbCoverage }>(run.summary, {});
  const base = db.selectFrom('run_components').where(componentConditions(run.id, filter, summary.coverage ?? null));
  let total: number;
  if (!hasFilter(filter) && summary.components !== undefined && !summary.falsePositiveComponents) total = summary.components;
  else total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const [field, dir] = sort ? (sort.split(',') as [string, 'asc' | 'desc']) : ['riskLevel', 'asc'];
  let q = base.selectAll().orderBy(sql.ref(COMPONENT_SORT[field]!), (ob) => (dir === 'desc' ? ob.desc() : ob.asc()));
  if (field !== 'name') q = q.orderBy('name');
  const rows = await q.orderBy('id').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { content: rows.map(componentView), total };
}

export interface FindingFilter { level?: number; keyword?: string; marks?: string; vex?: string; componentId?: number }
const csvNumbers = (csv: string | undefined) => (csv ? csv.split(',').map(Number) : []);

function findingConditions(runId: number, f: FindingFilter, withLevel: boolean) {
  return (eb: any): Expression<SqlBool> => {
    const where: Expression<SqlBool>[] = [eb('v.run_id', '=', runId)];
    if (withLevel && f.level !== undefined) where.push(eb('v.level', '=', f.level));
    // One component's findings are all shown; the tab leaves out those of components marked 误报, as every count does.
    if (f.componentId !== undefined) where.push(eb('v.component_id', '=', f.componentId));
    else where.push(notFalsePositive(runId));
    const marks = csvNumbers(f.marks);
    if (marks.length) where.push(eb('v.mark', 'in', marks));
    const vex = csvNumbers(f.vex);
    if (vex.length) where.push(eb('v.vex', 'in', vex));
    const keyword = f.keyword?.trim();
    if (keyword) {
      const p = likePattern(keyword);
      where.push(eb.or([...['v.vul_id', 'v.cve', 'v.cnnvd', 'v.cnvd', 'v.summary', 'c.name'].map((col) => lowerLike(col, p)), lowerLikeJson('v.aliases', p)]));
    }
    return eb.and(where);
  };
}

const FINDING_SORT: Record<string, string> = {
  level: 'v.level', score: 'v.score', published: 'v.published', identify: 'v.vul_id', component: 'c.name', mark: 'v.mark', vex: 'v.vex',
};

/**
 * The findings tab: per-level badges under every filter but the level, and a page of findings
 * (by level first when neither a level nor a sort is asked for, else by `sort`, `score,desc` by default).
 */
export async function findingStatistic(db: Db, runId: number, f: FindingFilter, paging: Paging, sort: string | undefined): Promise<{ counts: LevelCounts; content: FindingRow[]; total: number }> {
  const counts = emptyLevels();
  const joined = () => db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id');
  // Badges: per level under every filter but the level; the join is only needed for a keyword.
  const grouped = await (f.keyword?.trim() ? joined() : db.selectFrom('run_vulnerabilities as v'))
    .select(['v.level', sql<number>`count(*)`.as('n')]).where(findingConditions(runId, f, false) as never).groupBy('v.level').execute();
  for (const g of grouped) counts[Number(g.level) as 1] = Number(g.n);
  const total = f.level !== undefined ? counts[f.level as 1] : Object.values(counts).reduce((a, b) => a + b, 0);
  const [field, dir] = f.level === undefined && !sort ? ['level', 'asc'] : (sort?.split(',') as [string, 'asc' | 'desc'] | undefined) ?? ['score', 'desc'];
  let q = findingsQuery(db).where(findingConditions(runId, f, true) as never)
    .orderBy(sql.ref(FINDING_SORT[field]!), (ob) => (dir === 'desc' ? ob.desc() : ob.asc()).nullsLast());
  if (field !== 'score') q = q.orderBy('v.score', (ob) => ob.desc().nullsLast());
  const rows = await q.orderBy('v.id').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { counts, content: rows.map(findingView) as FindingRow[], total };
}

/** Licences of a component (declared and recognised in its files), with knowledge-base levels. */
async function componentLicences(db: Db, componentId: number) {
  const rows = await db.selectFrom('run_licenses').select(['spdx_id', 'source']).distinct().where('component_id', '=', componentId).execute();
  const levels = await levelsOf(db, [...new Set(rows.map((r) => r.spdx_id))]);
  return rows.map((r) => ({
    spdxId: r.spdx_id, level: levels.get(r.spdx_id) ?? 16, source: r.source as ComponentDetail['licenses'][number]['source'], known: levels.has(r.spdx_id),
  }));
}

/** A component's detail: licences, findings, the shortest paths to it and its edge counts. */
export async function componentDetail(db: Db, component: ComponentRecord, run: RunRecord, project: ProjectRecord): Promise<ComponentDetail> {
  const [licenses, findings, graph, dependencies, dependents] = await Promise.all([
    componentLicences(db, component.id),
    findingsQuery(db).where('v.component_id', '=', component.id).orderBy('v.level').orderBy('v.score', 'desc').orderBy('v.id').execute(),
    loadAncestry(db, run.id, [component.id]),
    db.selectFrom('run_edges').select(sql<number>`count(distinct child_id)`.as('n')).where('run_id', '=', run.id).where('parent_id', '=', component.id).executeTakeFirst(),
    db.selectFrom('run_edges').select(sql<number>`count(distinct parent_id)`.as('n')).where('run_id', '=', run.id).where('child_id', '=', component.id).executeTakeFirst(),
  ]);
  const found = pathsTo(graph, component.id, 1000);
  const shortest = [...found.paths].sort((a, b) => a.length - b.length).slice(0, 20);
  return {
    ...componentView(component),
    projectId: project.id,
    locations: locationsOf(component.locations),
    evidence: evidenceOf(component.evidence),
    confidence: component.confidence === null || component.confidence === undefined ? null : Number(component.confidence),
    licenses,
    vulnerabilities: findings.map(findingView),
    paths: shortest.map((p) => pathSteps(graph, p)),
    pathTotal: found.paths.length,
    dependencies: Number(dependencies?.n ?? 0),
    dependents: Number(dependents?.n ?? 0),
  };
}

/** The overview's breakdowns of a run: its components grouped (counts come from taskLevelCounts). */
export async function overviewGroups(db: Db, runId: number) {
  const components = await db.selectFrom('run_components')
    .select(['mark', 'scope', 'component_type', 'ecosystem', 'license_expression', sql<number>`count(*)`.as('n')])
    .where('run_id', '=', runId)
    .groupBy(['mark', 'scope', 'component_type', 'ecosystem', 'license_expression'])
    .execute();
  return { components };
}

/** A component row's purl and locations, with the project of its run (for the source drawer). */
export async function componentSourceOf(db: Db, componentId: number) {
  return db.selectFrom('run_components as c').innerJoin('runs as r', 'r.id', 'c.run_id')
    .select(['c.id', 'c.run_id', 'c.purl', 'c.locations', 'r.project_id']).where('c.id', '=', componentId).executeTakeFirst();
}
