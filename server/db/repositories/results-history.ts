// A project's history components (every purl over its succeeded runs, with its first and last
// run and the rating of the latest refresh), and which projects' latest runs contain a component.
import type { HistoryComponentRow, ModuleInfluenceRow } from '../../../contract/api/result/index.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { inTransaction } from '../transaction.ts';
import { chunks, type Db } from './results.ts';

interface Seen { id: number; run_id: number; purl: string; ecosystem: string; name: string; version: string; risk_level: number; vul_count: number; mark: string }

/** Every purl over the project's succeeded runs, with its first and last run. */
export async function historyOf(db: Db, projectId: number) {
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

/** Replaces the project's refreshed ratings (history_risks) with `rated`, in one transaction. */
export async function replaceHistoryRisks(
  db: Db, projectId: number, rated: Array<{ purl: string; risk: number; vulCount: number }>, refreshedAt: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('history_risks').where('project_id', '=', projectId).execute();
    for (const part of chunks(rated, 500)) {
      if (!part.length) continue;
      await trx.insertInto('history_risks').values(part.map((r) => ({
        project_id: projectId, purl: r.purl, risk_level: r.risk, vul_count: r.vulCount, refreshed_at: refreshedAt,
      }))).execute();
    }
  });
}

/** The rows of a component (by purl, or name with version and ecosystem) in some runs, with their projects. */
export async function componentInfluence(
  db: Db, runIds: number[], wanted: { purl?: string; name?: string; version?: string; ecosystem?: string },
): Promise<ModuleInfluenceRow[]> {
  const out: ModuleInfluenceRow[] = [];
  for (const part of chunks(runIds, 500)) {
    if (!part.length) continue;
    let q = db.selectFrom('run_components as c').innerJoin('runs as r', 'r.id', 'c.run_id').innerJoin('projects as p', 'p.id', 'r.project_id')
      .innerJoin('subjects as s', 's.id', 'p.subject_id').leftJoin('subject_versions as sv', 'sv.id', 'p.version_id')
      .select(['s.id as subject_id', 's.uuid', 's.name as subject_name', 'sv.name as version_name', 'p.id as project_id', 'p.name as project_name',
        'c.run_id', 'c.id', 'c.purl', 'c.version', 'c.direct', 'c.risk_level', 'c.vul_count'])
      .where('c.run_id', 'in', part);
    if (wanted.purl) q = q.where('c.purl', '=', wanted.purl);
    else {
      q = q.where('c.name', '=', wanted.name!);
      if (wanted.version) q = q.where('c.version', '=', wanted.version);
      if (wanted.ecosystem) q = q.where('c.ecosystem', '=', wanted.ecosystem);
    }
    for (const r of await q.execute()) {
      out.push({
        subjectId: r.subject_id, subjectUuid: r.uuid, subjectName: r.subject_name, versionName: r.version_name, projectId: r.project_id, projectName: r.project_name,
        taskId: r.run_id, componentId: r.id, purl: r.purl, version: r.version, direct: Boolean(Number(r.direct)),
        riskLevel: r.risk_level as ModuleInfluenceRow['riskLevel'], vulCount: Number(r.vul_count),
      });
    }
  }
  return out;
}
