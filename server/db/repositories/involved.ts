// Which projects a licence or a vulnerability turns up in: the latest successful run of every
// project the user may see (older runs are history, not current exposure). A finding is stored
// under the flaw's primary id (its CVE when it has one), so an advisory is looked for under every
// id it is known by.
import { sql, type Kysely } from 'kysely';
import type { Page } from '../../../contract/api/kit.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import type { Database } from '../schema.ts';
import type { Db } from '../transaction.ts';
import { chunks, latestRunsOf, type LatestRun } from './results.ts';
import type { Paging } from './vulnerabilities.ts';

/** Ids and runs per statement: well under either database's bound-parameter limit. */
const PER_STATEMENT = 500;

/** Which of these runs have a finding stored under each id: id → those runs. */
async function runsWithFindings(db: Db, runs: LatestRun[], ids: string[]): Promise<Map<string, LatestRun[]>> {
  const out = new Map<string, LatestRun[]>();
  if (!runs.length || !ids.length) return out;
  const byId = new Map(runs.map((r) => [r.runId, r]));
  for (const runPart of chunks([...byId.keys()], PER_STATEMENT)) {
    for (const idPart of chunks([...new Set(ids)], PER_STATEMENT)) {
      const rows = await db.selectFrom('run_vulnerabilities').select(['vul_id', 'run_id']).distinct()
        .where('run_id', 'in', runPart).where('vul_id', 'in', idPart).execute();
      for (const r of rows) {
        const hit = out.get(r.vul_id) ?? [];
        hit.push(byId.get(r.run_id)!);
        out.set(r.vul_id, hit);
      }
    }
  }
  return out;
}

/** How many of these latest runs' projects have a finding of each advisory id (the home dashboard's 开源情报). */
export async function involvedProjects(db: Db, runs: LatestRun[], ids: string[]): Promise<Map<string, number>> {
  const found = await runsWithFindings(db, runs, ids);
  return new Map([...found].map(([id, hit]) => [id, new Set(hit.map((r) => r.projectId)).size]));
}

/**
 * How many subjects (应用) in scope ('all' for domain administrators) have a project whose latest
 * successful run has a finding of each advisory, known by any of its ids (`idsOf`, asked only when
 * there is such a run): advisory key → count.
 */
export async function involvedSubjects<K>(db: Db, visible: number[] | 'all', keys: K[], idsOf: () => Promise<Map<K, string[]>>): Promise<Map<K, number>> {
  const counts = new Map<K, number>(keys.map((key) => [key, 0]));
  if (!keys.length) return counts;
  const runs = await latestRunsOf(db, { subjectIds: visible });
  // With no run in scope nothing is involved: the ids need not be looked up.
  if (!runs.length) return counts;
  const ids = await idsOf();
  const found = await runsWithFindings(db, runs, [...ids.values()].flat());
  for (const [key, known] of ids) counts.set(key, new Set(known.flatMap((id) => found.get(id) ?? []).map((r) => r.subjectId)).size);
  return counts;
}

export interface InvolvedProject {
  subjectId: number;
  subjectName: string;
  projectId: number;
  projectName: string;
}

/** Projects of the visible subjects (of one product when given) joined to their latest successful run (`r`). */
function latestRuns(db: Kysely<Database>, visible: number[] | 'all', product?: number) {
  const query = db.selectFrom('projects as p')
    .innerJoin('subjects as s', 's.id', 'p.subject_id')
    .innerJoin('runs as r', (join) => join.onRef('r.project_id', '=', 'p.id')
      .on('r.id', '=', (eb) => eb.selectFrom('runs as last').select(sql<number>`max(last.id)`.as('m'))
        .whereRef('last.project_id', '=', 'p.id').where('last.status', '=', TASK_STATUS.SUCCEEDED)));
  const scoped = product === undefined ? query : query.where('s.product', '=', product);
  return visible === 'all' ? scoped : scoped.where('p.subject_id', 'in', visible);
}

export async function projectsUsingLicense(db: Kysely<Database>, visible: number[] | 'all', spdxId: string, paging: Paging, product?: number): Promise<Page<InvolvedProject>> {
  if (visible !== 'all' && visible.length === 0) return { content: [], total: 0 };
  const query = latestRuns(db, visible, product)
    .where((eb) => eb.exists(eb.selectFrom('run_licenses as l').select('l.id').whereRef('l.run_id', '=', 'r.id').where('l.spdx_id', '=', spdxId).where('l.scope', '=', 'project')));
  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query.select(['s.id as subject_id', 's.name as subject_name', 'p.id as project_id', 'p.name as project_name'])
    .orderBy('s.name').orderBy('p.name').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(total?.n ?? 0),
    content: rows.map((r) => ({ subjectId: r.subject_id, subjectName: r.subject_name, projectId: r.project_id, projectName: r.project_name })),
  };
}

export interface AffectedComponent extends InvolvedProject {
  component: string;
  version: string;
}

/** Components of the visible projects' latest runs that have the flaw (known by any of `vulIds`). */
export async function componentsWithVulnerability(db: Kysely<Database>, visible: number[] | 'all', vulIds: string[], paging: Paging, product?: number): Promise<Page<AffectedComponent>> {
  if ((visible !== 'all' && visible.length === 0) || vulIds.length === 0) return { content: [], total: 0 };
  const query = latestRuns(db, visible, product)
    .innerJoin('run_vulnerabilities as v', 'v.run_id', 'r.id')
    .innerJoin('run_components as c', 'c.id', 'v.component_id')
    .where('v.vul_id', 'in', vulIds);
  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query.select(['s.id as subject_id', 's.name as subject_name', 'p.id as project_id', 'p.name as project_name', 'c.name', 'c.version'])
    .orderBy('s.name').orderBy('p.name').orderBy('c.name').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(total?.n ?? 0),
    content: rows.map((r) => ({ subjectId: r.subject_id, subjectName: r.subject_name, projectId: r.project_id, projectName: r.project_name, component: r.name, version: r.version })),
  };
}

export interface ProjectWithComponent extends AffectedComponent {
  /** The run (task) whose results hold it: the project's latest successful one. */
  taskId: number;
  /** Its row in that run (the component drawer's id). */
  componentId: number;
}

/**
 * Where a component version is used (组件影响): the visible projects of one product whose latest
 * successful run holds it. `purl` without qualifiers; without a version, every version of it.
 */
export async function projectsWithComponent(db: Kysely<Database>, visible: number[] | 'all', purl: string, product: number, paging: Paging): Promise<Page<ProjectWithComponent>> {
  if (visible !== 'all' && visible.length === 0) return { content: [], total: 0 };
  const versioned = /@[^/]+$/.test(purl);
  const escaped = purl.replace(/[\\%_]/g, (c) => `\\${c}`);
  const query = latestRuns(db, visible, product)
    .innerJoin('run_components as c', 'c.run_id', 'r.id')
    .where((eb) => (versioned
      ? eb.or([eb('c.purl', '=', purl), eb('c.purl', 'like', sql<string>`${`${escaped}?%`} escape '\\'`)])
      : eb('c.purl', 'like', sql<string>`${`${escaped}@%`} escape '\\'`)));
  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query.select(['s.id as subject_id', 's.name as subject_name', 'p.id as project_id', 'p.name as project_name', 'r.id as run_id', 'c.id as component_id', 'c.name', 'c.version'])
    .orderBy('s.name').orderBy('p.name').orderBy('c.version').orderBy('c.id').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(total?.n ?? 0),
    content: rows.map((r) => ({
      subjectId: r.subject_id, subjectName: r.subject_name, projectId: r.project_id, projectName: r.project_name,
      taskId: r.run_id, componentId: r.component_id, component: r.name, version: r.version,
    })),
  };
}
