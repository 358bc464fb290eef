// Components across several projects' latest succeeded runs (subject component list and statistic,
// version influence, home): one row per purl with the projects using it.
import type { Kysely } from 'kysely';
import type { RiskCounts, SubjectComponentRow } from '../../../contract/api/result/index.ts';
import type { Database } from '../schema.ts';
import { likePattern } from '../like.ts';
import { chunks, levelCountsOf, lowerLike, type Db, type LatestRun } from './results.ts';
import { taskLevelCounts, type TaskLevelCounts } from './level-counts.ts';

export interface AggregateFilter { keyword?: string; riskLevels?: number[] }

/** One row per purl over the runs, worst risk first, then the most used. */
export async function aggregateComponents(db: Db, runs: LatestRun[], filter: AggregateFilter = {}): Promise<SubjectComponentRow[]> {
  if (!runs.length) return [];
  const projects = await db.selectFrom('projects').select(['id', 'name']).where('id', 'in', runs.map((r) => r.projectId)).execute();
  const projectName = new Map(projects.map((p) => [p.id, p.name]));
  const projectOfRun = new Map(runs.map((r) => [r.runId, r.projectId]));
  const byPurl = new Map<string, SubjectComponentRow & { seen: Set<number> }>();
  for (const part of chunks(runs.map((r) => r.runId), 500)) {
    let q = db.selectFrom('run_components').selectAll().where('run_id', 'in', part);
    const keyword = filter.keyword?.trim();
    if (keyword) {
      const p = likePattern(keyword);
      q = q.where((eb) => eb.or([lowerLike('name', p), lowerLike('purl', p)]));
    }
    if (filter.riskLevels?.length) q = q.where('risk_level', 'in', filter.riskLevels);
    for (const c of await q.orderBy('id').execute()) {
      const projectId = projectOfRun.get(c.run_id)!;
      let row = byPurl.get(c.purl);
      if (!row) {
        row = {
          purl: c.purl, ecosystem: c.ecosystem, name: c.name, version: c.version, componentType: Number(c.component_type) as SubjectComponentRow['componentType'],
          licenseExpression: c.license_expression, licenseLevel: Number(c.license_level) as SubjectComponentRow['licenseLevel'],
          riskLevel: Number(c.risk_level) as SubjectComponentRow['riskLevel'], vulCount: Number(c.vul_count), vulLevels: levelCountsOf(c.vul_levels),
          recommendVersion: c.recommend_version, projectCount: 0, projects: [], seen: new Set(),
        };
        byPurl.set(c.purl, row);
      }
      if (row.seen.has(projectId)) continue;
      row.seen.add(projectId);
      row.projectCount++;
      if (row.projects.length < 5) {
        row.projects.push({ projectId, projectName: projectName.get(projectId) ?? '', taskId: c.run_id, componentId: c.id, direct: Boolean(Number(c.direct)) });
      }
    }
  }
  return [...byPurl.values()].map(({ seen: _seen, ...row }) => row)
    .sort((a, b) => a.riskLevel - b.riskLevel || b.projectCount - a.projectCount || a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

export interface ComponentStatistic {
  components: number;
  vulnerableComponents: number;
  byRisk: RiskCounts;
  /** Of byRisk[32], the packages shown 未覆盖 (level-counts.ts notCovered). */
  notCovered: number;
  vulnerabilities: TaskLevelCounts['byLevel'];
  licenses: TaskLevelCounts['licensesByLevel'];
  ecosystems: Array<{ key: string; count: number }>;
}

/**
 * The figures of several runs merged (home dashboard, subject statistic): the counts come from
 * taskLevelCounts, as every other count does; the ecosystems from the merged component rows.
 */
export async function statisticOf(db: Kysely<Database>, runs: LatestRun[]): Promise<ComponentStatistic> {
  const counts = await taskLevelCounts(db, runs.map((r) => r.runId), { notCovered: true });
  const rows = await aggregateComponents(db, runs);
  const ecosystems = new Map<string, number>();
  for (const r of rows) ecosystems.set(r.ecosystem, (ecosystems.get(r.ecosystem) ?? 0) + 1);
  return {
    components: counts.components,
    vulnerableComponents: counts.vulnerableComponents,
    byRisk: counts.byRisk,
    notCovered: counts.notCovered,
    vulnerabilities: counts.byLevel,
    licenses: counts.licensesByLevel,
    ecosystems: [...ecosystems].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
  };
}
