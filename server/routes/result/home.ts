// Home dashboard: figures over the latest succeeded run of every project the user may see, and
// the knowledge base's newest advisories ("开源情报") with how many of those projects they affect.
import type { resultHomeCalls } from '../../../contract/api/result/index.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { latestRunsOf } from '../../db/repositories/results.ts';
import { aggregateComponents, statisticOf } from '../../db/repositories/results-aggregate.ts';
import { involvedProjects } from '../../db/repositories/involved.ts';
import { homeCounts, incompleteRuns, latestFindings } from '../../db/repositories/results-home.ts';
import { listVulnerabilities } from '../../db/repositories/vulnerabilities.ts';
import { pagingOf } from '../shared.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

export function homeHandlers({ db }: ServerContext): AreaHandlers<typeof resultHomeCalls> {
  const scopeOf = async (userId: number) => {
    const subjectIds = await visibleSubjectIds(db, userId);
    return { subjectIds, runs: await latestRunsOf(db, { subjectIds }) };
  };

  return {
    async homeStatistics({ request }) {
      const { subjectIds, runs } = await scopeOf(signedIn(request).userId);
      const counts = await homeCounts(db, subjectIds);
      const [s, incomplete] = await Promise.all([statisticOf(db, runs), incompleteRuns(db, runs.map((r) => r.runId))]);
      return ok({
        incomplete,
        subjects: counts.subjects, projects: counts.projects, runs: counts.runs,
        components: s.components, vulnerableComponents: s.vulnerableComponents, vulnerabilities: s.vulnerabilities, licenses: s.licenses, byRisk: s.byRisk, notCovered: s.notCovered,
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
      const rows = await latestFindings(db, runs.map((r) => r.runId));
      return ok(rows.map((r) => ({
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
      }, pagingOf(query), { involvedIn: null });
      const { runs } = await scopeOf(signedIn(request).userId);
      const involved = await involvedProjects(db, runs, page.content.map((r) => r.identify));
      return ok({ total: page.total, content: page.content.map((r) => ({ ...r, involvedSubjects: involved.get(r.identify) ?? 0 })) });
    },
  };
}
