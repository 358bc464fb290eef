// What a report model (server/reports/build-model.ts) reads of some runs: the runs with their
// projects, their components, findings, edges and licences in keyset pages, the knowledge base's
// facts about the findings' advisories and the licences, the projects' mark logs, and the names of
// the subject and version on the cover.
import { sql } from 'kysely';
import type { RunImage } from '../../../contract/api/image.ts';
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import type { Db } from '../transaction.ts';
import { chunks, parseJson } from './results.ts';
import { whereLicenceFilter, type LicenceFilter } from './results-licences.ts';

/** A run with what the model says about its project. */
export interface RunInfo {
  id: number;
  seq: number;
  projectId: number;
  projectName: string;
  subjectId: number;
  codeType: number;
  analysisModes: string;
  startedAt: string | null;
  finishedAt: string | null;
  outbound: string | null;
  versionId: number | null;
  /** What the knowledge base covered when the run was analysed; null on runs analysed before it was recorded. */
  coverage: KbCoverage | null;
  /** The container image an image run analysed (summary.image); null for any other run. */
  image: RunImage | null;
}

function summaryParts(summary: string | null): { coverage: KbCoverage | null; image: RunImage | null } {
  const s = parseJson<{ coverage?: KbCoverage; image?: RunImage }>(summary, {});
  return { coverage: s.coverage ?? null, image: s.image ?? null };
}

/** The runs that still exist, in the caller's order (the subject's projects in order). */
export async function runsOf(db: Db, runIds: number[]): Promise<RunInfo[]> {
  const out: RunInfo[] = [];
  for (const ids of chunks(runIds, 500)) {
    const rows = await db.selectFrom('runs as r').innerJoin('projects as p', 'p.id', 'r.project_id')
      .select(['r.id', 'r.seq', 'r.project_id', 'p.name', 'p.subject_id', 'p.get_code_type', 'r.analysis_modes', 'r.started_at', 'r.finished_at', 'r.outbound_license', 'p.version_id', 'r.summary'])
      .where('r.id', 'in', ids).execute();
    for (const r of rows) {
      out.push({
        id: Number(r.id), seq: Number(r.seq), projectId: Number(r.project_id), projectName: r.name, subjectId: Number(r.subject_id), codeType: Number(r.get_code_type),
        analysisModes: r.analysis_modes, startedAt: r.started_at, finishedAt: r.finished_at, outbound: r.outbound_license, versionId: r.version_id,
        ...summaryParts(r.summary),
      });
    }
  }
  const order = new Map(runIds.map((id, i) => [id, i]));
  return out.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/** A page of a run's components after row `after`, by id. */
export const componentPage = (db: Db, runId: number, after: number, size: number) =>
  db.selectFrom('run_components').selectAll().where('run_id', '=', runId).where('id', '>', after).orderBy('id').limit(size).execute();

/** A page of a run's findings after row `after`, by id. */
export const findingPage = (db: Db, runId: number, after: number, size: number) =>
  db.selectFrom('run_vulnerabilities').selectAll().where('run_id', '=', runId).where('id', '>', after).orderBy('id').limit(size).execute();

/** A run's dependency edges (two integers a row: even a 20,000-edge run is a small result, read in one query). */
export const edgesOf = (db: Db, runId: number) =>
  db.selectFrom('run_edges').select(['parent_id', 'child_id']).where('run_id', '=', runId).execute();

export interface AdvisoryDetail { description: string; summary: string; vector: string | null; cwes: string[]; references: string[] }

/** Description, CWE, vector and references of the advisories the knowledge base has of these ids. */
export async function advisoryDetails(db: Db, ids: string[]): Promise<Map<string, AdvisoryDetail>> {
  const out = new Map<string, AdvisoryDetail>();
  for (const part of chunks(ids, 500)) {
    const rows = await db.selectFrom('kb_advisories').select(['advisory_id', 'summary', 'details', 'vector', 'cwes', 'reference_links'])
      .where('advisory_id', 'in', part).execute();
    for (const r of rows) {
      const links = parseJson<Array<{ url?: string } | string>>(r.reference_links, []);
      out.set(r.advisory_id, {
        description: r.details || r.summary,
        summary: r.summary,
        vector: r.vector,
        cwes: parseJson<unknown[]>(r.cwes, []).map(String),
        references: links.map((l) => (typeof l === 'string' ? l : String(l.url ?? ''))).filter(Boolean),
      });
    }
  }
  return out;
}

/** Each of the project's own licences of a run with the component rows that carry it (not those in test fixtures, licence databases, data files). */
export const licenceUses = (db: Db, runId: number, filter: LicenceFilter = {}) =>
  db.selectFrom('run_licenses').select(['spdx_id', 'component_id']).distinct().where('run_id', '=', runId).where('scope', '=', 'project')
    .$call((q) => whereLicenceFilter(q, filter)).execute();

/**
 * The places a run's own licences were found in files that pass the filter, in the order they were
 * found: one row per licence and place (a lock file declaring it for many components is one), with
 * how it was found, its score, the lines that decided it and, for a modified text, the nearest id.
 */
export const licenceFindings = (db: Db, runId: number, filter: LicenceFilter = {}) =>
  db.selectFrom('run_licenses')
    .select(['spdx_id', 'file', 'start_line', 'end_line', sql<number>`min(id)`.as('first')])
    .where('run_id', '=', runId).where('scope', '=', 'project').where('file', 'is not', null)
    .$call((q) => whereLicenceFilter(q, filter))
    .groupBy(['spdx_id', 'file', 'start_line', 'end_line']).orderBy('first').execute()
    .then(async (places) => {
      const firsts = new Map<number, { source: string; score: number | null; evidence: string; nearest: string | null }>();
      for (const part of chunks(places.map((p) => Number(p.first)), 500)) {
        for (const f of await db.selectFrom('run_licenses').select(['id', 'source', 'score', 'evidence', 'nearest']).where('id', 'in', part).execute()) firsts.set(Number(f.id), f);
      }
      return places.map((p) => ({ spdxId: p.spdx_id, file: p.file!, startLine: p.start_line, endLine: p.end_line, ...firsts.get(Number(p.first))! }));
    });

export interface LicenceFacts { name: string; level: number; copyleft: string; osi: boolean; fsf: boolean }

/** What the licence knowledge base says of these SPDX ids. */
export async function licenceFacts(db: Db, ids: string[]): Promise<Map<string, LicenceFacts>> {
  const known = new Map<string, LicenceFacts>();
  for (const part of chunks(ids, 500)) {
    const rows = await db.selectFrom('licenses').select(['spdx_id', 'name', 'level', 'copyleft', 'osi_approved', 'attributes']).where('spdx_id', 'in', part).execute();
    for (const r of rows) {
      const attributes = parseJson<{ fsfLibre?: boolean | null }>(r.attributes, {});
      known.set(r.spdx_id, { name: r.name, level: r.level, copyleft: r.copyleft, osi: Boolean(Number(r.osi_approved)), fsf: attributes.fsfLibre === true });
    }
  }
  return known;
}

/** The mark logs of some projects with who wrote each, oldest first. */
export async function markLogRows(db: Db, projectIds: number[]) {
  const out = [];
  for (const part of chunks(projectIds, 500)) {
    out.push(...await db.selectFrom('mark_logs as m').leftJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.kind', 'm.target', 'm.old_value', 'm.new_value', 'm.remark', 'm.created_at', 'm.id', 'u.name as user'])
      .where('m.project_id', 'in', part).orderBy('m.created_at').orderBy('m.id').execute());
  }
  return out;
}

/** The names on a report's cover: the subject's, and the version's when there is one. */
export async function coverNames(db: Db, subjectId: number, versionId: number | null): Promise<{ subject: string | null; version: string | null }> {
  const subject = await db.selectFrom('subjects').select(['id', 'name']).where('id', '=', subjectId).executeTakeFirst();
  const version = versionId
    ? (await db.selectFrom('subject_versions').select('name').where('id', '=', versionId).executeTakeFirst())?.name ?? null
    : null;
  return { subject: subject?.name ?? null, version };
}
