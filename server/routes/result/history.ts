// History components of a project (components seen in earlier succeeded runs), subject-level
// component lists, and influence (which projects' latest runs contain a component).
import type { HistoryComponentRow, resultHistoryCalls } from '../../../contract/api/result/index.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { nowIso } from '../../db/time.ts';
import { matchComponents, withDistribution } from '../../engine/index.ts';
import { getAdvisoryIndex } from '../../kb/index-cache.ts';
import { RESULT_MSG, accessibleComponent, accessibleSubject, latestRunsOf, resultScope } from '../../db/repositories/results.ts';
import { aggregateComponents, statisticOf } from '../../db/repositories/results-aggregate.ts';
import { componentInfluence, historyOf, replaceHistoryRisks } from '../../db/repositories/results-history.ts';
import { UserError } from '../../errors.ts';
import { pageOf, pagingOf, visibleSubjectsOf } from '../shared.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

export function historyHandlers({ db }: ServerContext): AreaHandlers<typeof resultHistoryCalls> {
  return {
    async historyList({ request, params, query, body }) {
      await resultScope(db, signedIn(request).userId, params.projectId);
      const state = body?.state ?? 'removed';
      const keyword = body?.keyword?.trim().toLowerCase();
      const { rows } = await historyOf(db, params.projectId);
      const kept = rows.filter((r) => (state === 'all' || (state === 'present') === r.present)
        && (!keyword || r.name.toLowerCase().includes(keyword) || r.purl.toLowerCase().includes(keyword))
        && (!body?.riskLevels?.length || body.riskLevels.includes(r.riskLevel)))
        .sort((a, b) => b.lastTaskId - a.lastTaskId || a.riskLevel - b.riskLevel || a.name.localeCompare(b.name));
      const { page, size } = pagingOf(query);
      return ok({ content: pageOf(kept, page, size), total: kept.length });
    },

    async historyRefresh({ request, params }) {
      await resultScope(db, signedIn(request).userId, params.id);
      // History is derived from the succeeded runs on every read; a refresh also rates every
      // history component against today's knowledge base and keeps that rating (history_risks).
      const { rows } = await historyOf(db, params.id);
      const index = await getAdvisoryIndex(db, { fresh: true });
      const rated = matchComponents(index, rows.map(withDistribution));
      const refreshedAt = nowIso();
      await replaceHistoryRisks(db, params.id, rated.map(({ component, findings, risk }) => ({ purl: component.purl, risk, vulCount: findings.length })), refreshedAt);
      return ok({ total: rows.length, removed: rows.filter((r) => !r.present).length, refreshedAt }, '刷新成功！');
    },

    async historyInfo({ request, params }) {
      const { component, project } = await accessibleComponent(db, signedIn(request).userId, params.id);
      const { runs, seen, rows } = await historyOf(db, project.id);
      const row = rows.find((r) => r.purl === component.purl);
      if (!row) throw new UserError(RESULT_MSG.componentNotFound, 'not-found');
      const appearances = runs.map((run) => {
        const inRun = seen.filter((c) => c.run_id === run.id && c.ecosystem === component.ecosystem && c.name === component.name);
        const c = inRun.find((x) => x.version === component.version) ?? inRun[0];
        return {
          taskId: run.id, seq: run.seq, finishedAt: run.finished_at, componentId: c?.id ?? null, version: c?.version ?? null,
          riskLevel: (c?.risk_level ?? null) as HistoryComponentRow['riskLevel'] | null, mark: (c?.mark ?? null) as 'N' | null,
        };
      });
      return ok({ ...row, projectId: project.id, appearances });
    },

    async subjectComponentStatistic({ request, body }) {
      await accessibleSubject(db, signedIn(request).userId, { id: body.subjectId });
      const runs = await latestRunsOf(db, { subjectIds: [body.subjectId], ...(body.versionId !== undefined && { versionId: body.versionId }) });
      const s = await statisticOf(db, runs);
      return ok({ projects: runs.length, components: s.components, vulnerableComponents: s.vulnerableComponents, byRisk: s.byRisk, vulnerabilities: s.vulnerabilities, ecosystems: s.ecosystems });
    },

    async subjectComponentList({ request, query, body }) {
      await accessibleSubject(db, signedIn(request).userId, { id: body.subjectId });
      const runs = await latestRunsOf(db, { subjectIds: [body.subjectId], ...(body.versionId !== undefined && { versionId: body.versionId }) });
      const rows = await aggregateComponents(db, runs, { ...(body.keyword && { keyword: body.keyword }), ...(body.riskLevels && { riskLevels: body.riskLevels }) });
      const { page, size } = pagingOf(query);
      return ok({ content: pageOf(rows, page, size), total: rows.length });
    },

    async componentInfluence({ request, params, query }) {
      const subject = await accessibleSubject(db, signedIn(request).userId, { uuid: params.subjectUUID });
      const runs = await latestRunsOf(db, { subjectIds: [subject.id], ...(params.versionId > 0 && { versionId: params.versionId }) });
      const rows = await aggregateComponents(db, runs, {
        ...(query?.keyword && { keyword: query.keyword }), ...(query?.riskLevels && { riskLevels: query.riskLevels.split(',').map(Number) }),
      });
      const { page, size } = pagingOf(query);
      return ok({ content: pageOf(rows, page, size), total: rows.length });
    },

    async moduleInfluence({ request, query }) {
      if (!query.purl && !query.name) throw new UserError('请提供组件 purl 或名称');
      const runs = await latestRunsOf(db, { subjectIds: await visibleSubjectsOf(db, request) });
      const out = await componentInfluence(db, runs.map((r) => r.runId), query);
      out.sort((a, b) => a.subjectName.localeCompare(b.subjectName) || a.projectName.localeCompare(b.projectName) || a.componentId - b.componentId);
      const { page, size } = pagingOf(query);
      return ok({ content: pageOf(out, page, size), total: out.length });
    },
  };
}
