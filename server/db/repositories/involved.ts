// Which projects a licence or a vulnerability turns up in: the latest successful run of every
// project the user may see (older runs are history, not current exposure).
import { sql, type Kysely } from 'kysely';
import type { Page } from '../../../contract/api/kit.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import type { Database } from '../schema.ts';
import type { Paging } from './vulnerabilities.ts';

export interface InvolvedProject {
  subjectId: number;
  subjectName: string;
  projectId: number;
  projectName: string;
}

/** Projects of the visible subjects joined to their latest successful run (`r`). */
function latestRuns(db: Kysely<Database>, visible: number[] | 'all') {
  const query = db.selectFrom('projects as p')
    .innerJoin('subjects as s', 's.id', 'p.subject_id')
    .innerJoin('runs as r', (join) => join.onRef('r.project_id', '=', 'p.id')
      .on('r.id', '=', (eb) => eb.selectFrom('runs as last').select(sql<number>`max(last.id)`.as('m'))
        .whereRef('last.project_id', '=', 'p.id').where('last.status', '=', TASK_STATUS.SUCCEEDED)));
  return visible === 'all' ? query : query.where('p.subject_id', 'in', visible);
}

export async function projectsUsingLicense(db: Kysely<Database>, visible: number[] | 'all', spdxId: string, paging: Paging): Promise<Page<InvolvedProject>> {
  if (visible !== 'all' && visible.length === 0) return { content: [], total: 0 };
  const query = latestRuns(db, visible)
    .where((eb) => eb.exists(eb.selectFrom('run_licenses as l').select('l.id').whereRef('l.run_id', '=', 'r.id').where('l.spdx_id', '=', spdxId)));
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
export async function componentsWithVulnerability(db: Kysely<Database>, visible: number[] | 'all', vulIds: string[], paging: Paging): Promise<Page<AffectedComponent>> {
  if ((visible !== 'all' && visible.length === 0) || vulIds.length === 0) return { content: [], total: 0 };
  const query = latestRuns(db, visible)
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
