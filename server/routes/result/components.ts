// Task detail reads: header, overview, the component list and details, and the findings tab.
import type { Overview, resultComponentCalls } from '../../../contract/api/result/index.ts';
import type { RunSummary } from '../../../contract/api/task.ts';
import { COMPONENT_EXPORT_REPORT_TYPE, REPORT_SUBMITTED_MESSAGE } from '../../../contract/api/report.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import {
  RESULT_MSG, accessibleComponent, accessibleProject, emptyLevels, emptyRisks, findingWithProject, latestRun, locationsOf, parseJson, projectHeader, resultScope, runViews,
  type RunRecord,
} from '../../db/repositories/results.ts';
import { componentDetail, componentSourceOf, findingStatistic, listComponents, overviewGroups, type FindingFilter } from '../../db/repositories/results-components.ts';
import { advisoryForFinding } from '../../db/repositories/vulnerabilities.ts';
import { UserError } from '../../errors.ts';
import { conflictOf } from '../../licenses/conflicts.ts';
import { FALSE_POSITIVE_MARK, taskLevelCounts } from '../../db/repositories/level-counts.ts';
import { submitTaskReports } from '../../services/reports.ts';
import { pagingOf, visibleSubjectsOf } from '../shared.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

/**
 * The overview's figures of a run: every count from taskLevelCounts (as the header, the task list,
 * the dashboard and the reports), the breakdowns (scope, type, ecosystem, licence) from the grouped
 * rows of the components that count (not marked 误报).
 */
async function overviewOf(db: ServerContext['db'], run: RunRecord | null, vexMark: number): Promise<Omit<Overview, 'project' | 'run' | 'latestRun'>> {
  const components = {
    total: 0, vulnerable: 0, direct: 0, transitive: 0, runtime: 0, development: 0, byRisk: emptyRisks(), notCovered: 0,
    byType: { 0: 0, 1: 0, '-1': 0 }, ecosystems: [] as Array<{ key: string; count: number }>, marked: 0, falsePositive: 0,
  };
  const vulnerabilities = { total: 0, distinct: 0, byLevel: emptyLevels(), unreviewed: 0, excludedByVex: 0 };
  const licenses = { total: 0, byLevel: emptyLevels(), unlicensedComponents: 0, incompatibleComponents: 0 };
  if (!run) return { components, vulnerabilities, licenses, problems: [], leaks: null };

  const [counts, groups] = await Promise.all([taskLevelCounts(db, [run.id], { excludeNotAffected: vexMark === 1, notCovered: true }), overviewGroups(db, run.id)]);
  Object.assign(components, {
    total: counts.components, vulnerable: counts.vulnerableComponents, direct: counts.directComponents,
    transitive: counts.components - counts.directComponents, byRisk: counts.byRisk, notCovered: counts.notCovered, falsePositive: counts.falsePositiveComponents,
  });
  Object.assign(vulnerabilities, {
    total: counts.vulnerabilities, distinct: counts.distinctVulnerabilities, byLevel: counts.byLevel, unreviewed: counts.unreviewed, excludedByVex: counts.excludedByVex,
  });
  Object.assign(licenses, { total: counts.licenses, byLevel: counts.licensesByLevel });
  const ecosystems = new Map<string, number>();
  // The run keeps the outbound licence it was analysed with (null: every verdict unknown).
  const outbound = run.outbound_license;
  for (const g of groups.components) {
    const n = Number(g.n);
    if (g.mark !== 'N') components.marked += n;
    if (g.mark === FALSE_POSITIVE_MARK) continue;
    if (g.scope === 'development') components.development += n; else components.runtime += n;
    const type = String(g.component_type) as keyof typeof components.byType;
    components.byType[type] = (components.byType[type] ?? 0) + n;
    ecosystems.set(g.ecosystem, (ecosystems.get(g.ecosystem) ?? 0) + n);
    if (!g.license_expression) licenses.unlicensedComponents += n;
    else if (outbound && conflictOf(outbound, g.license_expression).verdict === 'incompatible') licenses.incompatibleComponents += n;
  }
  components.ecosystems = [...ecosystems].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  const problems = parseJson<Array<{ file?: string; message?: string }>>(run.problems, [])
    .map((p) => ({ file: String(p.file ?? ''), message: String(p.message ?? '') }));
  const leaks = parseJson<RunSummary>(run.summary, {}).leaks ?? null;
  return { components, vulnerabilities, licenses, problems, leaks };
}

export function componentHandlers(ctx: ServerContext): AreaHandlers<typeof resultComponentCalls> {
  const { db } = ctx;
  const view = async (userId: number, projectId: number, taskId?: number) => {
    const scope = await resultScope(db, userId, projectId, taskId);
    const header = await projectHeader(db, projectId);
    const latest = await latestRun(db, projectId);
    const [run, latestView] = await runViews(db, [scope.run, latest].filter((r): r is RunRecord => !!r))
      .then((rows) => [scope.run ? rows[0]! : null, latest ? rows.at(-1)! : null]);
    return { scope, value: { project: header!, run, latestRun: latestView } };
  };

  return {
    async projectTaskView({ request, params, query }) {
      return ok((await view(signedIn(request).userId, params.id, query?.taskId)).value);
    },

    async overview({ request, params, query }) {
      const v = await view(signedIn(request).userId, params.id, query?.taskId);
      return ok({ ...v.value, ...(await overviewOf(db, v.scope.run, params.vexMark)) });
    },

    async componentList({ request, params, query, body }) {
      const filter = body ?? {};
      const { run } = await resultScope(db, signedIn(request).userId, params.projectId, filter.taskId);
      if (!run) return ok({ content: [], total: 0 });
      return ok(await listComponents(db, run, filter, pagingOf(query), query?.sort));
    },

    async vulnerabilityStatistic({ request, params, query }) {
      const { run } = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      if (!run) return ok({ counts: emptyLevels(), content: [], total: 0 });
      const filter: FindingFilter = query ?? {};
      return ok(await findingStatistic(db, run.id, filter, pagingOf(query), query?.sort));
    },

    async findingAdvisory({ request, params }) {
      await resultScope(db, signedIn(request).userId, params.projectId);
      const finding = await findingWithProject(db, params.id);
      if (!finding || finding.project_id !== params.projectId) throw new UserError(RESULT_MSG.findingNotFound, 'not-found');
      const ids = [finding.vul_id, finding.cve ?? '', ...parseJson<string[]>(finding.aliases, [])].filter(Boolean);
      const advisory = await advisoryForFinding(db, [...new Set(ids)], { ecosystem: finding.c_ecosystem, name: finding.c_name }, await visibleSubjectsOf(db, request));
      return ok({ findingId: finding.id, advisory: advisory ?? null });
    },

    async componentDetail({ request, params, query }) {
      const found = await accessibleComponent(db, signedIn(request).userId, params.id);
      if (query?.taskId !== undefined && found.run.id !== query.taskId) throw new UserError(RESULT_MSG.componentNotFound, 'not-found');
      return ok(await componentDetail(db, found.component, found.run, found.project));
    },

    async moduleDetail({ request, params }) {
      await accessibleProject(db, signedIn(request).userId, params.projectId);
      const found = await accessibleComponent(db, signedIn(request).userId, params.moduleId);
      if (found.project.id !== params.projectId) throw new UserError(RESULT_MSG.componentNotFound, 'not-found');
      return ok(await componentDetail(db, found.component, found.run, found.project));
    },

    async componentSource({ request, body }) {
      const { run } = await resultScope(db, signedIn(request).userId, body.projectId, body.taskId);
      const c = await componentSourceOf(db, body.componentId);
      // Without taskId any run of the project will do: the drawer may show an older run.
      const runOk = c && (run && body.taskId !== undefined ? c.run_id === run.id : c.project_id === body.projectId);
      if (!c || !runOk) throw new UserError(RESULT_MSG.componentNotFound, 'not-found');
      return ok({ componentId: c.id, purl: c.purl, locations: locationsOf(c.locations) });
    },

    async componentExport({ request, query }) {
      // A report row of kind `component`, generated by the report queue and listed under 组件导出.
      const [reportId] = await submitTaskReports(ctx, signedIn(request).userId, query, 'component', [COMPONENT_EXPORT_REPORT_TYPE[query.format]]);
      return ok({ reportId: reportId! }, REPORT_SUBMITTED_MESSAGE);
    },
  };
}
