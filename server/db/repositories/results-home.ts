// The home dashboard's reads over the projects a user may see: how many subjects, projects and
// runs there are and the newest findings of the latest runs (how many projects an advisory touches
// is involved.ts's involvedProjects).
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import { chunks, parseJson, type Db } from './results.ts';

/** Subjects, projects and runs in scope ('all' for domain administrators). */
export async function homeCounts(db: Db, subjectIds: number[] | 'all'): Promise<{ subjects: number; projects: number; runs: number }> {
  // [0] matches nothing for a user without subjects.
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
  return { subjects: Number(subjectRow?.n ?? 0), projects: Number(projectRow?.n ?? 0), runs: Number(runRow?.n ?? 0) };
}

/**
 * The runs among `runIds` whose coverage record says incomplete (kb/status.ts runCoverage): how
 * many, and the first `examples` with their project and reasons.
 */
export async function incompleteRuns(db: Db, runIds: number[], examples = 5): Promise<{ projects: number; examples: Array<{ projectId: number; projectName: string; reasons: string[] }> }> {
  let projects = 0;
  const found: Array<{ projectId: number; projectName: string; reasons: string[] }> = [];
  for (const part of chunks(runIds, 500)) {
    const rows = await db.selectFrom('runs').innerJoin('projects', 'projects.id', 'runs.project_id')
      .select(['runs.project_id', 'projects.name', 'runs.summary']).where('runs.id', 'in', part).orderBy('runs.id').execute();
    for (const row of rows) {
      const coverage = parseJson<{ coverage?: KbCoverage }>(row.summary, {}).coverage;
      if (!coverage || coverage.complete) continue;
      projects++;
      if (found.length < examples) found.push({ projectId: Number(row.project_id), projectName: row.name, reasons: coverage.reasons });
    }
  }
  return { projects, examples: found };
}

/** The ten newest published findings of some runs, with their component, project and subject. */
export async function latestFindings(db: Db, runIds: number[]) {
  const rows = [];
  for (const part of chunks(runIds, 500)) {
    rows.push(...await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
      .innerJoin('runs as r', 'r.id', 'v.run_id').innerJoin('projects as p', 'p.id', 'r.project_id').innerJoin('subjects as s', 's.id', 'p.subject_id')
      .select(['v.id', 'v.run_id', 'p.id as project_id', 'p.name as project_name', 's.id as subject_id', 's.name as subject_name', 'c.id as component_id',
        'c.name as component_name', 'c.version as component_version', 'v.vul_id', 'v.cve', 'v.cnnvd', 'v.summary', 'v.level', 'v.published'])
      .where('v.run_id', 'in', part).where('v.published', 'is not', null)
      .orderBy('v.published', 'desc').orderBy('v.id', 'desc').limit(10).execute());
  }
  rows.sort((a, b) => (b.published ?? '').localeCompare(a.published ?? '') || b.id - a.id);
  return rows.slice(0, 10);
}
