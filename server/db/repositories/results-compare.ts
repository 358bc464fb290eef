// The two sides of a comparison as their rows read them: the components (one side entry per purl)
// and the findings (one per component ecosystem + name + advisory id) of some runs, and the runs
// (batches) of a project. The pairing itself is the result area's (routes/result/compare.ts).
import type { ComponentCompareRow, RunRow, VulnerabilityCompareRow } from '../../../contract/api/result/index.ts';
import { runViews, type Db } from './results.ts';

export type ComponentSide = NonNullable<ComponentCompareRow['base']>;
export type FindingSide = NonNullable<VulnerabilityCompareRow['base']>;
export interface CSide extends ComponentSide { ecosystem: string; name: string }
export interface FSide extends FindingSide { key: string; identify: string; cve: string | null; cnnvd: string | null; summary: string; ecosystem: string; componentName: string }

/** Components of some runs, one side entry per purl (several runs: worst risk, projects counted). */
export async function componentSide(db: Db, runIds: number[], perRow: boolean): Promise<CSide[]> {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_components')
    .select(['id', 'run_id', 'purl', 'ecosystem', 'name', 'version', 'risk_level', 'vul_count', 'license_expression'])
    .where('run_id', 'in', runIds).execute();
  const byPurl = new Map<string, CSide & { runs: Set<number> }>();
  for (const r of rows) {
    const seen = byPurl.get(r.purl);
    if (seen) {
      seen.runs.add(r.run_id);
      seen.projectCount = seen.runs.size;
      seen.riskLevel = Math.min(seen.riskLevel, r.risk_level) as CSide['riskLevel'];
      seen.vulCount = Math.max(seen.vulCount, Number(r.vul_count));
      continue;
    }
    byPurl.set(r.purl, {
      ecosystem: r.ecosystem, name: r.name, componentId: perRow ? r.id : null, version: r.version, riskLevel: r.risk_level as CSide['riskLevel'],
      vulCount: Number(r.vul_count), licenseExpression: r.license_expression, projectCount: 1, runs: new Set([r.run_id]),
    });
  }
  return [...byPurl.values()].map(({ runs: _runs, ...side }) => side);
}

export async function findingSide(db: Db, runIds: number[], perRow: boolean): Promise<FSide[]> {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
    .select(['v.id', 'v.run_id', 'v.vul_id', 'v.cve', 'v.cnnvd', 'v.summary', 'v.level', 'v.mark', 'v.vex', 'c.ecosystem', 'c.name', 'c.version'])
    .where('v.run_id', 'in', runIds).orderBy('v.level').orderBy('v.id').execute();
  const byKey = new Map<string, FSide & { runs: Set<number> }>();
  for (const r of rows) {
    const key = `${r.ecosystem}\u0000${r.name}\u0000${r.vul_id}`;
    const seen = byKey.get(key);
    if (seen) {
      seen.runs.add(r.run_id);
      seen.projectCount = seen.runs.size;
      continue;
    }
    byKey.set(key, {
      key, identify: r.vul_id, cve: r.cve, cnnvd: r.cnnvd, summary: r.summary, ecosystem: r.ecosystem, componentName: r.name,
      findingId: perRow ? r.id : null, componentVersion: r.version, level: r.level as FSide['level'], mark: r.mark as FSide['mark'],
      vex: r.vex as FSide['vex'], projectCount: 1, runs: new Set([r.run_id]),
    });
  }
  return [...byKey.values()].map(({ runs: _runs, ...side }) => side);
}

/** A page of a project's runs, newest first, optionally of one status. */
export async function listRuns(db: Db, projectId: number, status: number | undefined, paging: { page: number; size: number }): Promise<{ content: RunRow[]; total: number }> {
  let base = db.selectFrom('runs').where('project_id', '=', projectId);
  if (status !== undefined) base = base.where('status', '=', status);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base.selectAll().orderBy('id', 'desc').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return { content: await runViews(db, rows), total: Number(counted?.n ?? 0) };
}
