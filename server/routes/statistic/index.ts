// Project statistics (contract/api/statistic.ts): each call and its /api/binary/ twin, over the
// projects of the caller's scope in the path's product.
import type { FastifyRequest } from 'fastify';
import { statisticCalls, STATISTIC_DEFAULT_TOP, type StatisticFilter, type VersionFigures } from '../../../contract/api/statistic.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { ok } from '../../../contract/envelope.ts';
import type { LevelCounts, RiskCounts } from '../../../contract/api/vulnerability.ts';
import type { ServerContext } from '../../context.ts';
import { taskLevelCounts } from '../../db/repositories/level-counts.ts';
import { statisticOf } from '../../db/repositories/results-aggregate.ts';
import { emptyLevels } from '../../db/repositories/results.ts';
import {
  findingsByMark, latestRunsIn, runsByProject, runsByStatus, runsPerDay, statisticTasks, succeededSummariesPerDay, topComponents, topLicences, topVulnerabilities,
  subjectName as nameOfSubject, versionsOf, type ScopedProject, type StatisticRun,
} from '../../db/repositories/statistics.ts';
import { dayRange, statisticProjects } from '../../services/statistics.ts';
import { indexHandlers, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf, parseIds, productOf, visibleSubjectsOf } from '../shared.ts';

const LEVELS = [1, 2, 4, 8, 16] as const;
/** Most severe first: compares two level counts level by level. */
const bySeverity = (a: LevelCounts, b: LevelCounts): number => {
  for (const l of LEVELS) if (a[l] !== b[l]) return b[l] - a[l];
  return 0;
};
const riskSeverity = (a: RiskCounts, b: RiskCounts): number => {
  for (const l of [1, 2, 4, 8, 16, 64, 32] as const) if (a[l] !== b[l]) return b[l] - a[l];
  return 0;
};

function statisticAreaHandlers({ db, databaseKind }: ServerContext): AreaHandlers<typeof statisticCalls> {
  const postgres = databaseKind === 'postgres';

  const scopeOf = async (request: FastifyRequest, filter: StatisticFilter | undefined, keepTags = false) => {
    const subjects = await visibleSubjectsOf(db, request);
    return statisticProjects(db, filter ?? {}, { product: productOf(request), subjects }, keepTags);
  };

  /** The projects and their latest succeeded run in the range (any time without one). */
  const latestOf = async (request: FastifyRequest, filter: StatisticFilter | undefined) => {
    const projects = await scopeOf(request, filter);
    const range = dayRange(filter ?? {}, false);
    return { projects, range, runs: await latestRunsIn(db, projects, range.instants) };
  };

  /** Figures of each 应用 version in scope (未关联版本 last), over its projects' latest runs. */
  const versionFigures = async (request: FastifyRequest, filter: StatisticFilter | undefined): Promise<VersionFigures[]> => {
    const { projects, runs } = await latestOf(request, filter);
    const groups = new Map<string, { versionId: number | null; versionName: string | null; subjectId: number; subjectName: string; projects: ScopedProject[] }>();
    const keyOf = (subjectId: number, versionId: number | null) => `${subjectId}:${versionId ?? ''}`;
    // The 应用 picked shows each of its versions, with or without projects.
    if (filter?.subjectId !== undefined) {
      const subjectName = projects[0]?.subjectName ?? await nameOfSubject(db, filter.subjectId);
      for (const v of await versionsOf(db, [filter.subjectId])) {
        if (filter.versionIds?.length && !filter.versionIds.includes(v.id)) continue;
        groups.set(keyOf(v.subjectId, v.id), { versionId: v.id, versionName: v.name, subjectId: v.subjectId, subjectName, projects: [] });
      }
    }
    for (const p of projects) {
      const key = keyOf(p.subjectId, p.versionId);
      const group = groups.get(key) ?? { versionId: p.versionId, versionName: p.versionName, subjectId: p.subjectId, subjectName: p.subjectName, projects: [] };
      group.projects.push(p);
      groups.set(key, group);
    }
    const runOf = new Map(runs.map((r) => [r.projectId, r]));
    const out: VersionFigures[] = [];
    for (const g of groups.values()) {
      const runIds = g.projects.map((p) => runOf.get(p.id)?.runId).filter((id): id is number => id !== undefined);
      const counts = await taskLevelCounts(db, runIds);
      out.push({
        versionId: g.versionId, versionName: g.versionName, subjectId: g.subjectId, subjectName: g.subjectName,
        projects: g.projects.length, analysedProjects: runIds.length,
        components: counts.components, byRisk: counts.byRisk, vulnerabilities: counts.vulnerabilities, byLevel: counts.byLevel, licenses: counts.licenses,
      });
    }
    return out.sort((a, b) => a.subjectName.localeCompare(b.subjectName) || a.subjectId - b.subjectId
      || (a.versionId === null ? 1 : 0) - (b.versionId === null ? 1 : 0) || (a.versionId ?? 0) - (b.versionId ?? 0));
  };

  /** A project of a ranking with its latest run. */
  const rankRow = (r: StatisticRun, project: ScopedProject) => ({
    projectId: project.id, projectName: project.name, subjectId: project.subjectId, subjectName: project.subjectName, taskId: r.runId, finishedAt: r.finishedAt,
  });
  const ranked = async (request: FastifyRequest, filter: StatisticFilter | undefined) => {
    const { projects, runs } = await latestOf(request, filter);
    const byId = new Map(projects.map((p) => [p.id, p]));
    return runs.map((r) => ({ run: r, project: byId.get(r.projectId)! }));
  };
  const byName = (a: { project: ScopedProject }, b: { project: ScopedProject }) => a.project.name.localeCompare(b.project.name) || a.project.id - b.project.id;

  return {
    async summary({ request, body }) {
      const { projects, range, runs } = await latestOf(request, body);
      const [counts, statuses] = await Promise.all([
        taskLevelCounts(db, runs.map((r) => r.runId)),
        runsByStatus(db, projects.map((p) => p.id), range.instants),
      ]);
      return ok({
        startDate: range.startDate, endDate: range.endDate,
        subjects: new Set(projects.map((p) => p.subjectId)).size,
        projects: projects.length,
        analysedProjects: runs.length,
        runs: [...statuses.values()].reduce((n, c) => n + c, 0),
        succeededRuns: statuses.get(TASK_STATUS.SUCCEEDED) ?? 0,
        failedRuns: statuses.get(TASK_STATUS.FAILED) ?? 0,
        components: counts.components, vulnerableComponents: counts.vulnerableComponents, byRisk: counts.byRisk,
        vulnerabilities: counts.vulnerabilities, byLevel: counts.byLevel, distinctVulnerabilities: counts.distinctVulnerabilities, unreviewed: counts.unreviewed,
        licenses: counts.licenses, licensesByLevel: counts.licensesByLevel,
      });
    },

    async resultsDate({ request, body }) {
      const range = dayRange(body ?? {}, true);
      const ids = (await scopeOf(request, body)).map((p) => p.id);
      const [perStatus, summaries] = await Promise.all([
        runsPerDay(db, ids, range.instants, range.offset, postgres, [TASK_STATUS.SUCCEEDED, TASK_STATUS.FAILED]),
        succeededSummariesPerDay(db, ids, range.instants, range.offset, postgres),
      ]);
      const days = new Map(range.days.map((date) => [date, { date, runs: 0, succeeded: 0, failed: 0, components: 0, vulnerabilities: 0, byLevel: emptyLevels() }]));
      for (const r of perStatus) {
        const day = days.get(r.day);
        if (!day) continue;
        day.runs += r.n;
        if (r.status === TASK_STATUS.SUCCEEDED) day.succeeded += r.n;
        else day.failed += r.n;
      }
      for (const s of summaries) {
        const day = days.get(s.day);
        if (!day) continue;
        day.components += s.summary.components;
        day.vulnerabilities += s.summary.vulnerabilities;
        for (const l of LEVELS) day.byLevel[l] += s.summary.byLevel[l];
      }
      return ok({ startDate: range.startDate, endDate: range.endDate, days: [...days.values()] });
    },

    async resultsVersion({ request, body }) {
      return ok(await versionFigures(request, body));
    },

    async versionComponentSorted({ request, body }) {
      const rows = await versionFigures(request, body);
      return ok(rows.sort((a, b) => b.components - a.components || riskSeverity(a.byRisk, b.byRisk)).slice(0, body?.size ?? STATISTIC_DEFAULT_TOP));
    },

    async versionVulSorted({ request, body }) {
      const rows = await versionFigures(request, body);
      return ok(rows.sort((a, b) => b.vulnerabilities - a.vulnerabilities || bySeverity(a.byLevel, b.byLevel)).slice(0, body?.size ?? STATISTIC_DEFAULT_TOP));
    },

    async componentSorted({ request, body }) {
      const { runs } = await latestOf(request, body);
      const rows = await topComponents(db, runs.map((r) => r.runId), body?.size ?? STATISTIC_DEFAULT_TOP);
      return ok(rows.map((r) => ({ ...r, riskLevel: r.riskLevel as 1 })));
    },

    async taskTagStatusTrend({ request, body }) {
      const range = dayRange(body ?? {}, true);
      const all = await scopeOf(request, body, true);
      const wanted = body?.tags?.length ? new Set(body.tags.map((t) => t.trim())) : null;
      const projects = wanted ? all.filter((p) => p.tags.some((t) => wanted.has(t))) : all;
      const rows = await runsPerDay(db, projects.map((p) => p.id), range.instants, range.offset, postgres);
      const index = new Map(range.days.map((d, i) => [d, i]));
      const series = new Map<number, { status: number; total: number; counts: number[] }>();
      for (const r of rows) {
        const i = index.get(r.day);
        if (i === undefined) continue;
        const s = series.get(r.status) ?? { status: r.status, total: 0, counts: range.days.map(() => 0) };
        s.counts[i]! += r.n;
        s.total += r.n;
        series.set(r.status, s);
      }
      // Tags: analyses in the range of the projects carrying each (before the tag filter).
      const perProject = await runsByProject(db, all.map((p) => p.id), range.instants);
      const tags = new Map<string, number>();
      for (const p of all) for (const t of p.tags) tags.set(t, (tags.get(t) ?? 0) + (perProject.get(p.id) ?? 0));
      return ok({
        startDate: range.startDate, endDate: range.endDate, dates: range.days,
        series: [...series.values()].sort((a, b) => a.status - b.status),
        tags: [...tags].map(([tag, runs]) => ({ tag, runs })).sort((a, b) => b.runs - a.runs || a.tag.localeCompare(b.tag)),
      });
    },

    async vulSorted({ request, body }) {
      const { runs } = await latestOf(request, body);
      const rows = await topVulnerabilities(db, runs.map((r) => r.runId), body?.size ?? STATISTIC_DEFAULT_TOP);
      return ok(rows.map((r) => ({ ...r, level: r.level as 1 })));
    },

    async vulMarkSorted({ request, body }) {
      const { runs } = await latestOf(request, body);
      const marks = new Map<number, { mark: number; count: number; byLevel: LevelCounts }>();
      for (const r of await findingsByMark(db, runs.map((x) => x.runId))) {
        const row = marks.get(r.mark) ?? { mark: r.mark, count: 0, byLevel: emptyLevels() };
        row.count += r.n;
        const level = (LEVELS as readonly number[]).includes(r.level) ? (r.level as keyof LevelCounts) : 16;
        row.byLevel[level] += r.n;
        marks.set(r.mark, row);
      }
      return ok([...marks.values()].sort((a, b) => b.count - a.count || a.mark - b.mark));
    },

    async componentDistribute({ request, body }) {
      const { runs } = await latestOf(request, body);
      const s = await statisticOf(db, runs);
      return ok({ components: s.components, byRisk: s.byRisk, notCovered: s.notCovered, ecosystems: s.ecosystems });
    },

    async compProSorted({ request, body }) {
      const rows = await ranked(request, body);
      return ok(rows.sort((a, b) => b.run.summary.components - a.run.summary.components || riskSeverity(a.run.summary.byRisk, b.run.summary.byRisk) || byName(a, b))
        .slice(0, body?.size ?? STATISTIC_DEFAULT_TOP)
        .map(({ run, project }) => ({ ...rankRow(run, project), components: run.summary.components, vulnerableComponents: run.summary.vulnerableComponents, byRisk: run.summary.byRisk })));
    },

    async vulDistribute({ request, body }) {
      const { runs } = await latestOf(request, body);
      const counts = await taskLevelCounts(db, runs.map((r) => r.runId));
      return ok({ vulnerabilities: counts.vulnerabilities, byLevel: counts.byLevel, distinctVulnerabilities: counts.distinctVulnerabilities, unreviewed: counts.unreviewed });
    },

    async vulProSorted({ request, body }) {
      const rows = await ranked(request, body);
      return ok(rows.sort((a, b) => b.run.summary.vulnerabilities - a.run.summary.vulnerabilities || bySeverity(a.run.summary.byLevel, b.run.summary.byLevel) || byName(a, b))
        .slice(0, body?.size ?? STATISTIC_DEFAULT_TOP)
        .map(({ run, project }) => ({ ...rankRow(run, project), vulnerabilities: run.summary.vulnerabilities, byLevel: run.summary.byLevel })));
    },

    async licenseDistribute({ request, body }) {
      const { runs } = await latestOf(request, body);
      const ids = runs.map((r) => r.runId);
      const [counts, top] = await Promise.all([taskLevelCounts(db, ids), topLicences(db, ids, body?.size ?? STATISTIC_DEFAULT_TOP)]);
      return ok({ licenses: counts.licenses, byLevel: counts.licensesByLevel, top: top.map((t) => ({ ...t, level: t.level as 1 })) });
    },

    async licenseProSorted({ request, body }) {
      const rows = await ranked(request, body);
      return ok(rows.sort((a, b) => b.run.summary.licenses - a.run.summary.licenses || bySeverity(a.run.summary.licensesByLevel, b.run.summary.licensesByLevel) || byName(a, b))
        .slice(0, body?.size ?? STATISTIC_DEFAULT_TOP)
        .map(({ run, project }) => ({ ...rankRow(run, project), licenses: run.summary.licenses, byLevel: run.summary.licensesByLevel })));
    },

    async taskList({ request, query }) {
      const filter: StatisticFilter = {
        ...(query.subjectId !== undefined && { subjectId: query.subjectId }),
        ...(query.projectIds && { projectIds: parseIds(query.projectIds) }),
        ...(query.versionIds && { versionIds: parseIds(query.versionIds) }),
        ...(query.tags && { tags: query.tags.split(',').map((t) => t.trim()).filter(Boolean) }),
        ...(query.startDate && { startDate: query.startDate }),
        ...(query.endDate && { endDate: query.endDate }),
        ...(query.utcOffset !== undefined && { utcOffset: query.utcOffset }),
      };
      const projects = await scopeOf(request, filter);
      const range = dayRange(filter, false);
      const page = await statisticTasks(db, { projectIds: projects.map((p) => p.id), range: range.instants, ...(query.status !== undefined && { status: query.status }), ...pagingOf({ page: query.page, size: query.size ?? STATISTIC_DEFAULT_TOP }) });
      return ok({ total: page.total, content: page.rows });
    },
  };
}

export const statisticHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(statisticCalls, statisticAreaHandlers(ctx));
