// Task detail reads: header, overview, the component list and details, and the findings tab.
// The list calls are single-table, index-ordered queries over the run (run_components by
// (run_id, risk_level, id), run_vulnerabilities by (run_id, level, id)); totals without filters
// come from runs.summary instead of a COUNT.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ComponentDetail, ComponentFilter, FindingRow, Overview } from '../../../contract/api/result/index.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { likePattern } from '../../db/like.ts';
import { levelsOf } from '../../db/repositories/licenses.ts';
import {
  RESULT_MSG, accessibleComponent, accessibleProject, componentView, emptyLevels, emptyRisks, findingView, findingsQuery,
  locationsOf, lowerLike, lowerLikeJson, parseJson, projectHeader, resultScope, runViews, type ComponentRecord, type Db, type ProjectRecord, type RunRecord,
} from '../../db/repositories/results.ts';
import { loadAncestry, pathSteps, pathsTo } from '../../db/repositories/results-trees.ts';
import { pagingOf } from '../shared.ts';
import { signedIn } from '../register.ts';
import type { HandlersOf } from './common.ts';
import { conflictOf } from './licences.ts';
import { submitComponentExport } from '../report/index.ts';

const COMPONENT_SORT: Record<string, string> = {
  name: 'name', version: 'version', ecosystem: 'ecosystem', riskLevel: 'risk_level', vulCount: 'vul_count',
  licenseLevel: 'license_level', scope: 'scope', mark: 'mark',
};

function componentConditions(runId: number, filter: ComponentFilter) {
  return (eb: ExpressionBuilder<Database, 'run_components'>) => {
    const where: Expression<SqlBool>[] = [eb('run_id', '=', runId)];
    const keyword = filter.keyword?.trim();
    if (keyword) {
      const p = likePattern(keyword);
      where.push(eb.or([lowerLike('name', p), lowerLike('purl', p), lowerLike('version', p)]));
    }
    if (filter.riskLevels?.length) where.push(eb('risk_level', 'in', filter.riskLevels));
    if (filter.ecosystems?.length) where.push(eb('ecosystem', 'in', filter.ecosystems));
    if (filter.scope) where.push(eb('scope', '=', filter.scope));
    if (filter.direct !== undefined) where.push(eb('direct', '=', filter.direct ? 1 : 0));
    if (filter.marks?.length) where.push(eb('mark', 'in', filter.marks));
    if (filter.componentTypes?.length) where.push(eb('component_type', 'in', filter.componentTypes));
    if (filter.licenseLevels?.length) where.push(eb('license_level', 'in', filter.licenseLevels));
    return eb.and(where);
  };
}

const hasFilter = (f: ComponentFilter) => Boolean(f.keyword?.trim() || f.riskLevels?.length || f.ecosystems?.length || f.scope
  || f.direct !== undefined || f.marks?.length || f.componentTypes?.length || f.licenseLevels?.length);

interface FindingFilter { level?: number; keyword?: string; marks?: string; vex?: string; componentId?: number }
const csvNumbers = (csv: string | undefined) => (csv ? csv.split(',').map(Number) : []);

function findingConditions(runId: number, f: FindingFilter, withLevel: boolean) {
  return (eb: any): Expression<SqlBool> => {
    const where: Expression<SqlBool>[] = [eb('v.run_id', '=', runId)];
    if (withLevel && f.level !== undefined) where.push(eb('v.level', '=', f.level));
    if (f.componentId !== undefined) where.push(eb('v.component_id', '=', f.componentId));
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

/** Licences of a component (declared and recognised in its files), with knowledge-base levels. */
async function componentLicences(db: Db, componentId: number) {
  const rows = await db.selectFrom('run_licenses').select(['spdx_id', 'source']).distinct().where('component_id', '=', componentId).execute();
  const levels = await levelsOf(db, [...new Set(rows.map((r) => r.spdx_id))]);
  return rows.map((r) => ({
    spdxId: r.spdx_id, level: levels.get(r.spdx_id) ?? 16, source: r.source as ComponentDetail['licenses'][number]['source'], known: levels.has(r.spdx_id),
  }));
}

async function detailOf(db: Db, component: ComponentRecord, run: RunRecord, project: ProjectRecord): Promise<ComponentDetail> {
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
    licenses,
    vulnerabilities: findings.map(findingView),
    paths: shortest.map((p) => pathSteps(graph, p)),
    pathTotal: found.paths.length,
    dependencies: Number(dependencies?.n ?? 0),
    dependents: Number(dependents?.n ?? 0),
  };
}

async function overviewOf(db: Db, run: RunRecord | null, vexMark: number): Promise<Omit<Overview, 'project' | 'run' | 'latestRun'>> {
  const components = {
    total: 0, vulnerable: 0, direct: 0, transitive: 0, runtime: 0, development: 0, byRisk: emptyRisks(),
    byType: { 0: 0, 1: 0, '-1': 0 }, ecosystems: [] as Array<{ key: string; count: number }>, marked: 0,
  };
  const vulnerabilities = { total: 0, distinct: 0, byLevel: emptyLevels(), unreviewed: 0, excludedByVex: 0 };
  const licenses = { total: 0, byLevel: emptyLevels(), unlicensedComponents: 0, incompatibleComponents: 0 };
  if (!run) return { components, vulnerabilities, licenses, problems: [] };

  // One grouped pass over the run's components gives every component figure.
  const groups = await db.selectFrom('run_components')
    .select(['risk_level', 'direct', 'scope', 'component_type', 'ecosystem', 'license_level', 'license_expression',
      sql<number>`case when mark <> 'N' then 1 else 0 end`.as('marked'), sql<number>`count(*)`.as('n')])
    .where('run_id', '=', run.id)
    .groupBy(['risk_level', 'direct', 'scope', 'component_type', 'ecosystem', 'license_level', 'license_expression', sql`case when mark <> 'N' then 1 else 0 end`])
    .execute();
  const ecosystems = new Map<string, number>();
  // The run keeps the outbound licence it was analysed with (null: every verdict unknown).
  const outbound = run.outbound_license;
  for (const g of groups) {
    const n = Number(g.n);
    components.total += n;
    const risk = Number(g.risk_level) as keyof typeof components.byRisk;
    components.byRisk[risk] = (components.byRisk[risk] ?? 0) + n;
    if (risk <= 16) components.vulnerable += n;
    if (Number(g.direct)) components.direct += n; else components.transitive += n;
    if (g.scope === 'development') components.development += n; else components.runtime += n;
    const type = String(g.component_type) as keyof typeof components.byType;
    components.byType[type] = (components.byType[type] ?? 0) + n;
    ecosystems.set(g.ecosystem, (ecosystems.get(g.ecosystem) ?? 0) + n);
    components.marked += Number(g.marked) ? n : 0;
    const level = Number(g.license_level) as keyof typeof licenses.byLevel;
    licenses.byLevel[level] = (licenses.byLevel[level] ?? 0) + n;
    if (!g.license_expression) licenses.unlicensedComponents += n;
    else if (outbound && conflictOf(outbound, g.license_expression).verdict === 'incompatible') licenses.incompatibleComponents += n;
  }
  components.ecosystems = [...ecosystems].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));

  const findings = await db.selectFrom('run_vulnerabilities')
    .select(['level', 'mark', 'vex', sql<number>`count(*)`.as('n')])
    .where('run_id', '=', run.id).groupBy(['level', 'mark', 'vex']).execute();
  for (const f of findings) {
    const n = Number(f.n);
    if (vexMark === 1 && Number(f.vex) === 1) { vulnerabilities.excludedByVex += n; continue; }
    vulnerabilities.total += n;
    vulnerabilities.byLevel[Number(f.level) as 1] += n;
    if (Number(f.mark) === 0) vulnerabilities.unreviewed += n;
  }
  let distinct = db.selectFrom('run_vulnerabilities').select(sql<number>`count(distinct vul_id)`.as('n')).where('run_id', '=', run.id);
  if (vexMark === 1) distinct = distinct.where('vex', '<>', 1);
  vulnerabilities.distinct = Number((await distinct.executeTakeFirst())?.n ?? 0);
  const licenceIds = await db.selectFrom('run_licenses').select(sql<number>`count(distinct spdx_id)`.as('n')).where('run_id', '=', run.id).executeTakeFirst();
  licenses.total = Number(licenceIds?.n ?? 0);
  const problems = parseJson<Array<{ file?: string; message?: string }>>(run.problems, [])
    .map((p) => ({ file: String(p.file ?? ''), message: String(p.message ?? '') }));
  return { components, vulnerabilities, licenses, problems };
}

export function componentHandlers(ctx: ServerContext): HandlersOf<
  'projectTaskView' | 'overview' | 'componentList' | 'vulnerabilityStatistic' | 'componentDetail' | 'moduleDetail' | 'componentSource' | 'componentExport'
> {
  const { db } = ctx;
  const view = async (userId: number, projectId: number, taskId?: number) => {
    const scope = await resultScope(db, userId, projectId, taskId);
    if (!scope.ok) return scope;
    const header = await projectHeader(db, projectId);
    const latest = await db.selectFrom('runs').selectAll().where('project_id', '=', projectId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    const [run, latestRun] = await runViews(db, [scope.value.run, latest].filter((r): r is RunRecord => !!r))
      .then((rows) => [scope.value.run ? rows[0]! : null, latest ? rows.at(-1)! : null]);
    return { ok: true as const, scope: scope.value, value: { project: header!, run, latestRun } };
  };

  return {
    async projectTaskView({ request, params, query }) {
      const v = await view(signedIn(request).userId, params.id, query?.taskId);
      return v.ok ? ok(v.value) : fail(v.message);
    },

    async overview({ request, params, query }) {
      const v = await view(signedIn(request).userId, params.id, query?.taskId);
      if (!v.ok) return fail(v.message);
      return ok({ ...v.value, ...(await overviewOf(db, v.scope.run, params.vexMark)) });
    },

    async componentList({ request, params, query, body }) {
      const filter = body ?? {};
      const scope = await resultScope(db, signedIn(request).userId, params.projectId, filter.taskId);
      if (!scope.ok) return fail(scope.message);
      const { run } = scope.value;
      if (!run) return ok({ content: [], total: 0 });
      const { page, size } = pagingOf(query);
      const base = db.selectFrom('run_components').where(componentConditions(run.id, filter));
      let total: number;
      const summary = parseJson<{ components?: number }>(run.summary, {});
      if (!hasFilter(filter) && summary.components !== undefined) total = summary.components;
      else total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const [field, dir] = query?.sort ? (query.sort.split(',') as [string, 'asc' | 'desc']) : ['riskLevel', 'asc'];
      let q = base.selectAll().orderBy(sql.ref(COMPONENT_SORT[field]!), (ob) => (dir === 'desc' ? ob.desc() : ob.asc()));
      if (field !== 'name') q = q.orderBy('name');
      const rows = await q.orderBy('id').limit(size).offset((page - 1) * size).execute();
      return ok({ content: rows.map(componentView), total });
    },

    async vulnerabilityStatistic({ request, params, query }) {
      const scope = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      if (!scope.ok) return fail(scope.message);
      const { run } = scope.value;
      const counts = emptyLevels();
      if (!run) return ok({ counts, content: [], total: 0 });
      const f: FindingFilter = query ?? {};
      const { page, size } = pagingOf(query);
      const joined = () => db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id');
      // Badges: per level under every filter but the level; the join is only needed for a keyword.
      const grouped = await (f.keyword?.trim() ? joined() : db.selectFrom('run_vulnerabilities as v'))
        .select(['v.level', sql<number>`count(*)`.as('n')]).where(findingConditions(run.id, f, false) as never).groupBy('v.level').execute();
      for (const g of grouped) counts[Number(g.level) as 1] = Number(g.n);
      const total = f.level !== undefined ? counts[f.level as 1] : Object.values(counts).reduce((a, b) => a + b, 0);
      const [field, dir] = f.level === undefined && !query?.sort ? ['level', 'asc'] : (query?.sort?.split(',') as [string, 'asc' | 'desc'] | undefined) ?? ['score', 'desc'];
      let q = findingsQuery(db).where(findingConditions(run.id, f, true) as never)
        .orderBy(sql.ref(FINDING_SORT[field]!), (ob) => (dir === 'desc' ? ob.desc() : ob.asc()).nullsLast());
      if (field !== 'score') q = q.orderBy('v.score', (ob) => ob.desc().nullsLast());
      const rows = await q.orderBy('v.id').limit(size).offset((page - 1) * size).execute();
      return ok({ counts, content: rows.map(findingView) as FindingRow[], total });
    },

    async componentDetail({ request, params, query }) {
      const found = await accessibleComponent(db, signedIn(request).userId, params.id);
      if (!found.ok) return fail(found.message);
      if (query?.taskId !== undefined && found.value.run.id !== query.taskId) return fail(RESULT_MSG.componentNotFound);
      return ok(await detailOf(db, found.value.component, found.value.run, found.value.project));
    },

    async moduleDetail({ request, params }) {
      const project = await accessibleProject(db, signedIn(request).userId, params.projectId);
      if (!project.ok) return fail(project.message);
      const found = await accessibleComponent(db, signedIn(request).userId, params.moduleId);
      if (!found.ok) return fail(found.message);
      if (found.value.project.id !== params.projectId) return fail(RESULT_MSG.componentNotFound);
      return ok(await detailOf(db, found.value.component, found.value.run, found.value.project));
    },

    async componentSource({ request, body }) {
      const scope = await resultScope(db, signedIn(request).userId, body.projectId, body.taskId);
      if (!scope.ok) return fail(scope.message);
      const c = await db.selectFrom('run_components').select(['id', 'run_id', 'purl', 'locations']).where('id', '=', body.componentId).executeTakeFirst();
      const run = scope.value.run;
      // Without taskId any run of the project will do: the drawer may show an older run.
      const runOk = c && (run && body.taskId !== undefined ? c.run_id === run.id
        : (await db.selectFrom('runs').select('project_id').where('id', '=', c.run_id).executeTakeFirst())?.project_id === body.projectId);
      if (!c || !runOk) return fail(RESULT_MSG.componentNotFound);
      return ok({ componentId: c.id, purl: c.purl, locations: locationsOf(c.locations) });
    },

    async componentExport({ request, query }) {
      // A report row of kind `component`, generated by the report queue and listed under 组件导出.
      return submitComponentExport(ctx, signedIn(request).userId, query);
    },
  };
}
