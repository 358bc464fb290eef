// Home dashboard: figures over the latest succeeded run of every project the user may see, and
// the knowledge base's newest advisories ("开源情报") with how many of those projects they affect.
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { chunks, latestRunsOf, type LatestRun } from '../../db/repositories/results.ts';
import { aggregateComponents, statisticOf } from '../../db/repositories/results-aggregate.ts';
import { listVulnerabilities } from '../../db/repositories/vulnerabilities.ts';
import { pagingOf } from '../shared.ts';
import { signedIn } from '../register.ts';
import type { HandlersOf } from './common.ts';

export function homeHandlers({ db }: ServerContext): HandlersOf<'homeStatistics' | 'homeTop10' | 'homeLatestVulnerabilities' | 'homeIntelligence'> {
  const scopeOf = async (userId: number) => {
    const subjectIds = await visibleSubjectIds(db, userId);
    return { subjectIds, runs: await latestRunsOf(db, { subjectIds }) };
  };

  return {
    async homeStatistics({ request }) {
      const { subjectIds, runs } = await scopeOf(signedIn(request).userId);
      // 'all' for domain administrators; [0] matches nothing for a user without subjects.
      const ids = subjectIds === 'all' ? null : subjectIds.length ? subjectIds : [0];
      let subjects = db.selectFrom('subjects').select((eb) => eb.fn.countAll<number>().as('n'));
      let projects = db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n'));
      let runCount = db.selectFrom('runs').innerJoin('projects', 'projects.id', 'runs.project_id').select((eb) => eb.fn.countAll<number>().as('n'));
      if (ids) {
        subjects = subjects.where('id', 'in', ids);
        projects = projects.where('subject_id', 'in', ids);
        runCount = runCount.where('projects.subject_id', 'in', ids);
      }
      const [subjectRow, projectRow, runRow] = await Promise.all([subjects.executeTakeFirst(), projects.executeTakeFirst(), runCount.executeTakeFirst()]);
      const s = await statisticOf(db, runs);
      return ok({
        subjects: Number(subjectRow?.n ?? 0), projects: Number(projectRow?.n ?? 0), runs: Number(runRow?.n ?? 0),
        components: s.components, vulnerableComponents: s.vulnerableComponents, vulnerabilities: s.vulnerabilities, licenses: s.licenses, byRisk: s.byRisk,
      });
    },

    async homeTop10({ request }) {
      const { runs } = await scopeOf(signedIn(request).userId);
      const rows = await aggregateComponents(db, runs);
      return ok(rows.sort((a, b) => b.projectCount - a.projectCount || a.riskLevel - b.riskLevel || a.name.localeCompare(b.name)).slice(0, 10)
        .map((r) => ({ purl: r.purl, ecosystem: r.ecosystem, name: r.name, version: r.version, riskLevel: r.riskLevel, vulCount: r.vulCount, projectCount: r.projectCount })));
    },

    async homeLatestVulnerabilities({ request }) {
      const { runs } = await scopeOf(signedIn(request).userId);
      if (!runs.length) return ok([]);
      const rows = [];
      for (const part of chunks(runs.map((r) => r.runId), 500)) {
        rows.push(...await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
          .innerJoin('runs as r', 'r.id', 'v.run_id').innerJoin('projects as p', 'p.id', 'r.project_id').innerJoin('subjects as s', 's.id', 'p.subject_id')
          .select(['v.id', 'v.run_id', 'p.id as project_id', 'p.name as project_name', 's.id as subject_id', 's.name as subject_name', 'c.id as component_id',
            'c.name as component_name', 'c.version as component_version', 'v.vul_id', 'v.cve', 'v.cnnvd', 'v.summary', 'v.level', 'v.published'])
          .where('v.run_id', 'in', part).where('v.published', 'is not', null)
          .orderBy('v.published', 'desc').orderBy('v.id', 'desc').limit(10).execute());
      }
      rows.sort((a, b) => (b.published ?? '').localeCompare(a.published ?? '') || b.id - a.id);
      return ok(rows.slice(0, 10).map((r) => ({
        findingId: r.id, taskId: r.run_id, projectId: r.project_id, projectName: r.project_name, subjectId: r.subject_id, subjectName: r.subject_name,
        componentId: r.component_id, componentName: r.component_name, componentVersion: r.component_version, identify: r.vul_id, cve: r.cve, cnnvd: r.cnnvd,
        summary: r.summary, level: r.level as 1, published: r.published,
      })));
    },

    async homeIntelligence({ request, query, body }) {
      const days = body?.days ?? 30;
      const from = new Date(Date.now() - days * 86_400_000).toISOString();
      const page = await listVulnerabilities(db, {
        publishedFrom: from, sort: 'published', order: 'desc',
        ...(body?.levels?.length && { levels: body.levels }), ...(body?.ecosystem && { ecosystem: body.ecosystem }), ...(body?.keyword && { keyword: body.keyword }),
      }, pagingOf(query));
      const { runs } = await scopeOf(signedIn(request).userId);
      const involved = await involvedProjects(db, runs, page.content.map((r) => r.identify));
      return ok({ total: page.total, content: page.content.map((r) => ({ ...r, involvedSubjects: involved.get(r.identify) ?? 0 })) });
    },
  };
}

/** Visible projects whose latest run has a finding of each advisory. */
async function involvedProjects(db: ServerContext['db'], runs: LatestRun[], ids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, Set<number>>();
  if (!runs.length || !ids.length) return new Map();
  const projectOf = new Map(runs.map((r) => [r.runId, r.projectId]));
  for (const part of chunks(runs.map((r) => r.runId), 500)) {
    const rows = await db.selectFrom('run_vulnerabilities').select(['vul_id', 'run_id']).distinct()
      .where('run_id', 'in', part).where('vul_id', 'in', ids).execute();
    for (const r of rows) {
      const set = out.get(r.vul_id) ?? new Set<number>();
      set.add(projectOf.get(r.run_id)!);
      out.set(r.vul_id, set);
    }
  }
  return new Map([...out].map(([k, v]) => [k, v.size]));
}
