// History components of a project (components seen in earlier succeeded runs), subject-level
// component lists, and influence (which projects' latest runs contain a component).
import type { HistoryComponentRow, ModuleInfluenceRow } from '../../../contract/api/result/index.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { nowIso } from '../../db/time.ts';
import { matchComponents, withDistribution } from '../../engine/matchers/vulnerabilities.ts';
import { getAdvisoryIndex } from '../../kb/index-cache.ts';
import { visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import {
  RESULT_MSG, accessibleComponent, accessibleSubject, chunks, latestRunsOf, resultScope, type Db,
} from '../../db/repositories/results.ts';
import { aggregateComponents, statisticOf } from '../../db/repositories/results-aggregate.ts';
import { pageOf, pagingOf } from '../shared.ts';
import { signedIn } from '../register.ts';
import type { HandlersOf } from './common.ts';

interface Seen { id: number; run_id: number; purl: string; ecosystem: string; name: string; version: string; risk_level: number; vul_count: number; mark: string }

/** Every purl over the project's succeeded runs, with its first and last run. */
async function historyOf(db: Db, projectId: number) {
  const runs = await db.selectFrom('runs').select(['id', 'seq', 'finished_at']).where('project_id', '=', projectId)
    .where('status', '=', TASK_STATUS.SUCCEEDED).orderBy('id').execute();
  const seen: Seen[] = [];
  for (const part of chunks(runs.map((r) => r.id), 200)) {
    if (!part.length) continue;
    seen.push(...await db.selectFrom('run_components').select(['id', 'run_id', 'purl', 'ecosystem', 'name', 'version', 'risk_level', 'vul_count', 'mark'])
      .where('run_id', 'in', part).orderBy('run_id').orderBy('id').execute());
  }
  const latest = runs.at(-1);
  const runOf = new Map(runs.map((r) => [r.id, r]));
  const currentVersion = new Map<string, string>();
  for (const c of seen) if (c.run_id === latest?.id && !currentVersion.has(`${c.ecosystem}\u0000${c.name}`)) currentVersion.set(`${c.ecosystem}\u0000${c.name}`, c.version);
  const byPurl = new Map<string, HistoryComponentRow & { runs: Set<number> }>();
  for (const c of seen) {
    const run = runOf.get(c.run_id)!;
    const row = byPurl.get(c.purl);
    if (row) {
      row.runs.add(c.run_id);
      Object.assign(row, { id: c.id, lastTaskId: run.id, lastSeq: run.seq, lastSeenAt: run.finished_at, runCount: row.runs.size, riskLevel: c.risk_level, vulCount: Number(c.vul_count) });
      continue;
    }
    byPurl.set(c.purl, {
      id: c.id, purl: c.purl, ecosystem: c.ecosystem, name: c.name, version: c.version, present: false,
      firstTaskId: run.id, firstSeq: run.seq, lastTaskId: run.id, lastSeq: run.seq, lastSeenAt: run.finished_at, runCount: 1,
      riskLevel: c.risk_level as HistoryComponentRow['riskLevel'], vulCount: Number(c.vul_count),
      currentVersion: currentVersion.get(`${c.ecosystem}\u0000${c.name}`) ?? null, runs: new Set([c.run_id]),
    });
  }
  // A refresh newer than the run that last saw a component rates it by today's knowledge base.
  const rerated = new Map((await db.selectFrom('history_risks').select(['purl', 'risk_level', 'vul_count', 'refreshed_at'])
    .where('project_id', '=', projectId).execute()).map((r) => [r.purl, r]));
  const rows = [...byPurl.values()].map(({ runs: _r, ...row }) => {
    const fresh = rerated.get(row.purl);
    const later = fresh && (!row.lastSeenAt || Date.parse(fresh.refreshed_at) > Date.parse(row.lastSeenAt));
    return {
      ...row,
      present: row.lastTaskId === latest?.id,
      ...(later && { riskLevel: fresh.risk_level as HistoryComponentRow['riskLevel'], vulCount: Number(fresh.vul_count) }),
    };
  });
  return { runs, seen, rows };
}

export function historyHandlers({ db }: ServerContext): HandlersOf<
  'historyList' | 'historyRefresh' | 'historyInfo' | 'subjectComponentStatistic' | 'subjectComponentList' | 'componentInfluence' | 'moduleInfluence'
> {
  return {
    async historyList({ request, params, query, body }) {
      const scope = await resultScope(db, signedIn(request).userId, params.projectId);
      if (!scope.ok) return fail(scope.message);
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
      const scope = await resultScope(db, signedIn(request).userId, params.id);
      if (!scope.ok) return fail(scope.message);
      // History is derived from the succeeded runs on every read; a refresh also rates every
      // history component against today's knowledge base and keeps that rating (history_risks).
      const { rows } = await historyOf(db, params.id);
      const index = await getAdvisoryIndex(db, { fresh: true });
      const rated = matchComponents(index, rows.map(withDistribution));
      const refreshedAt = nowIso();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('history_risks').where('project_id', '=', params.id).execute();
        for (const part of chunks(rated, 500)) {
          if (!part.length) continue;
          await trx.insertInto('history_risks').values(part.map(({ component, findings, risk }) => ({
            project_id: params.id, purl: component.purl, risk_level: risk, vul_count: findings.length, refreshed_at: refreshedAt,
          }))).execute();
        }
      });
      return ok({ total: rows.length, removed: rows.filter((r) => !r.present).length, refreshedAt }, '刷新成功！');
    },

    async historyInfo({ request, params }) {
      const found = await accessibleComponent(db, signedIn(request).userId, params.id);
      if (!found.ok) return fail(found.message);
      const { component, project } = found.value;
      const { runs, seen, rows } = await historyOf(db, project.id);
      const row = rows.find((r) => r.purl === component.purl);
      if (!row) return fail(RESULT_MSG.componentNotFound);
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
      const subject = await accessibleSubject(db, signedIn(request).userId, { id: body.subjectId });
      if (!subject.ok) return fail(subject.message);
      const runs = await latestRunsOf(db, { subjectIds: [body.subjectId], ...(body.versionId !== undefined && { versionId: body.versionId }) });
      const s = await statisticOf(db, runs);
      return ok({ projects: runs.length, components: s.components, vulnerableComponents: s.vulnerableComponents, byRisk: s.byRisk, vulnerabilities: s.vulnerabilities, ecosystems: s.ecosystems });
    },

    async subjectComponentList({ request, query, body }) {
      const subject = await accessibleSubject(db, signedIn(request).userId, { id: body.subjectId });
      if (!subject.ok) return fail(subject.message);
      const runs = await latestRunsOf(db, { subjectIds: [body.subjectId], ...(body.versionId !== undefined && { versionId: body.versionId }) });
      const rows = await aggregateComponents(db, runs, { ...(body.keyword && { keyword: body.keyword }), ...(body.riskLevels && { riskLevels: body.riskLevels }) });
      const { page, size } = pagingOf(query);
      return ok({ content: pageOf(rows, page, size), total: rows.length });
    },

    async componentInfluence({ request, params, query }) {
      const subject = await accessibleSubject(db, signedIn(request).userId, { uuid: params.subjectUUID });
      if (!subject.ok) return fail(subject.message);
      const runs = await latestRunsOf(db, { subjectIds: [subject.value.id], ...(params.versionId > 0 && { versionId: params.versionId }) });
      const rows = await aggregateComponents(db, runs, {
        ...(query?.keyword && { keyword: query.keyword }), ...(query?.riskLevels && { riskLevels: query.riskLevels.split(',').map(Number) }),
      });
      const { page, size } = pagingOf(query);
      return ok({ content: pageOf(rows, page, size), total: rows.length });
    },

    async moduleInfluence({ request, query }) {
      if (!query.purl && !query.name) return fail('请提供组件 purl 或名称');
      const runs = await latestRunsOf(db, { subjectIds: await visibleSubjectIds(db, signedIn(request).userId) });
      const out: ModuleInfluenceRow[] = [];
      for (const part of chunks(runs.map((r) => r.runId), 500)) {
        if (!part.length) continue;
        let q = db.selectFrom('run_components as c').innerJoin('runs as r', 'r.id', 'c.run_id').innerJoin('projects as p', 'p.id', 'r.project_id')
          .innerJoin('subjects as s', 's.id', 'p.subject_id').leftJoin('subject_versions as sv', 'sv.id', 'p.version_id')
          .select(['s.id as subject_id', 's.uuid', 's.name as subject_name', 'sv.name as version_name', 'p.id as project_id', 'p.name as project_name',
            'c.run_id', 'c.id', 'c.purl', 'c.version', 'c.direct', 'c.risk_level', 'c.vul_count'])
          .where('c.run_id', 'in', part);
        if (query.purl) q = q.where('c.purl', '=', query.purl);
        else {
          q = q.where('c.name', '=', query.name!);
          if (query.version) q = q.where('c.version', '=', query.version);
          if (query.ecosystem) q = q.where('c.ecosystem', '=', query.ecosystem);
        }
        for (const r of await q.execute()) {
          out.push({
            subjectId: r.subject_id, subjectUuid: r.uuid, subjectName: r.subject_name, versionName: r.version_name, projectId: r.project_id, projectName: r.project_name,
            taskId: r.run_id, componentId: r.id, purl: r.purl, version: r.version, direct: Boolean(Number(r.direct)),
            riskLevel: r.risk_level as ModuleInfluenceRow['riskLevel'], vulCount: Number(r.vul_count),
          });
        }
      }
      out.sort((a, b) => a.subjectName.localeCompare(b.subjectName) || a.projectName.localeCompare(b.projectName) || a.componentId - b.componentId);
      const { page, size } = pagingOf(query);
      return ok({ content: pageOf(out, page, size), total: out.length });
    },
  };
}
