// The licence reads of a task: the licences found (declared and recognised in files) with their
// knowledge-base facts and a few places each — the project's own apart from those found in test
// fixtures, licence databases and data files — copyright lines, and each component's licence.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { LicenseUsageRow } from '../../../contract/api/result/index.ts';
import type { Db } from './results.ts';
import { parseJson } from './subjects.ts';

type LicenceSource = LicenseUsageRow['sources'][number];
type LicenceScope = LicenseUsageRow['scopes'][number];

/** Which licences of a run to read: the project's own, or those found in test fixtures, licence databases and data files. */
export type LicenceView = 'project' | 'excluded';

/** The comparison selecting one view's rows (engine/analyzers/license-scope.ts gives each row its scope when it is saved). */
const inView = (view: LicenceView) => (view === 'project' ? '=' : '<>');

/**
 * Which findings count (the licence list's and licence reports' 识别方式 and 最低可信度): those
 * recognised in one of `kinds` (all when absent or empty), with a confidence of at least `minScore`
 * (0–100; package metadata and SPDX tags count as 100).
 */
export interface LicenceFilter {
  kinds?: readonly LicenceSource[];
  minScore?: number;
}

/** The filter of a query's `kinds` (comma-separated codes) and `minScore`. */
export function licenceFilterOf(query: { kinds?: string; minScore?: number } | undefined): LicenceFilter {
  const kinds = query?.kinds ? [...new Set(query.kinds.split(','))] as LicenceSource[] : undefined;
  return { ...(kinds && kinds.length < 5 ? { kinds } : {}), ...(query?.minScore ? { minScore: query.minScore } : {}) };
}

/** True when the filter leaves every finding in. */
export const unfiltered = (f: LicenceFilter) => !f.kinds?.length && !f.minScore;

/**
 * A stored score (0–1, 3 decimals; null for package metadata) as the 0–100 the user reads: floored,
 * so that a finding shown as N passes the filter minScore = N and one shown below N does not
 * (the 0.05 absorbs PostgreSQL's single-precision `real`).
 */
export const scoreOf = (score: number | null) => (score === null ? 100 : Math.min(100, Math.floor(Number(score) * 100 + 0.05)));

/** Narrows a query over run_licenses (`prefix` its alias, e.g. 'l.') to the findings the filter keeps. */
export function whereLicenceFilter<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, f: LicenceFilter, prefix = ''): QB {
  let q = qb;
  if (f.kinds?.length) q = q.where(sql.ref(`${prefix}source`), 'in', f.kinds) as QB;
  // Scores are kept to 3 decimals: N/100 − 0.0005 admits exactly the scores scoreOf shows as ≥ N.
  if (f.minScore) q = q.where(sql`coalesce(${sql.ref(`${prefix}score`)}, 1)`, '>=', f.minScore / 100 - 0.0005) as QB;
  return q;
}

/** The standard licence a `LicenseRef-Cairn-modified-<id>` stands nearest to, from its id. */
const MODIFIED = /^LicenseRef-Cairn-modified-(.+)$/;
export const nearestOfId = (spdxId: string): string | null => MODIFIED.exec(spdxId)?.[1] ?? null;

/**
 * Every licence of a run in one view with how many components and files carry it, where and how it
 * was found and what the knowledge base says of it. A run recognises at most a few hundred distinct
 * licences, so the caller filters and pages in memory.
 */
export async function runLicences(db: Db, runId: number, view: LicenceView = 'project', filter: LicenceFilter = {}): Promise<Array<Omit<LicenseUsageRow, 'components' | 'files'>>> {
  const groups = await db.selectFrom('run_licenses').where('run_id', '=', runId).where('scope', inView(view), 'project').$call((q) => whereLicenceFilter(q, filter))
    .select([
      'spdx_id', sql<number>`count(distinct component_id)`.as('components'), sql<number>`count(distinct file)`.as('files'),
      sql<number>`max(coalesce(score, 1))`.as('best'), sql<string | null>`max(nearest)`.as('nearest'),
    ])
    .groupBy('spdx_id').execute();
  const sources = await db.selectFrom('run_licenses').where('run_id', '=', runId).where('scope', inView(view), 'project').$call((q) => whereLicenceFilter(q, filter))
    .select(['spdx_id', 'source', 'scope']).distinct().execute();
  const known = groups.length
    ? await db.selectFrom('licenses').select(['id', 'spdx_id', 'name', 'level', 'copyleft']).where('spdx_id', 'in', groups.map((g) => g.spdx_id)).execute()
    : [];
  const kb = new Map(known.map((k) => [k.spdx_id, k]));
  return groups.map((g) => {
    const k = kb.get(g.spdx_id);
    const mine = sources.filter((s) => s.spdx_id === g.spdx_id);
    return {
      spdxId: g.spdx_id, name: k?.name ?? g.spdx_id, level: (k?.level ?? 16) as LicenseUsageRow['level'], licenseId: k?.id ?? null,
      copyleft: (k?.copyleft || null) as LicenseUsageRow['copyleft'],
      sources: [...new Set(mine.map((s) => s.source as LicenceSource))],
      scopes: [...new Set(mine.map((s) => s.scope as LicenceScope))].sort(),
      componentCount: Number(g.components), fileCount: Number(g.files),
      maxScore: scoreOf(g.best), nearest: g.nearest ?? nearestOfId(g.spdx_id),
    };
  });
}

/** How many distinct licences each view of a run holds. */
export async function licenceViewCounts(db: Db, runId: number, filter: LicenceFilter = {}): Promise<Record<LicenceView, number>> {
  const count = async (view: LicenceView) => Number((await db.selectFrom('run_licenses').where('run_id', '=', runId).where('scope', inView(view), 'project')
    .$call((q) => whereLicenceFilter(q, filter)).select(sql<number>`count(distinct spdx_id)`.as('n')).executeTakeFirst())?.n ?? 0);
  return { project: await count('project'), excluded: await count('excluded') };
}

/**
 * The first five components and the first five places (file and lines) of a licence in one view of
 * a run, each place with how it was found, its confidence and the lines that decided it.
 */
export async function licenceSamples(db: Db, runId: number, spdxId: string, view: LicenceView = 'project', filter: LicenceFilter = {}): Promise<Pick<LicenseUsageRow, 'components' | 'files'>> {
  const [components, places] = await Promise.all([
    db.selectFrom('run_licenses as l').innerJoin('run_components as c', 'c.id', 'l.component_id')
      .select(['c.id', 'c.name', 'c.version']).distinct().where('l.run_id', '=', runId).where('l.spdx_id', '=', spdxId)
      .where('l.scope', inView(view), 'project').$call((q) => whereLicenceFilter(q, filter, 'l.'))
      .orderBy('c.name').orderBy('c.id').limit(5).execute(),
    // One line per place: a lock file declaring the licence for many components is one place.
    db.selectFrom('run_licenses')
      .select(['file', 'start_line', 'end_line', sql<number>`min(id)`.as('first')])
      .where('run_id', '=', runId).where('spdx_id', '=', spdxId).where('file', 'is not', null).where('scope', inView(view), 'project')
      .$call((q) => whereLicenceFilter(q, filter))
      .groupBy(['file', 'start_line', 'end_line']).orderBy('first').limit(5).execute(),
  ]);
  // Each place as its first finding says it (the same lines of a file are found one way).
  const firsts = places.length
    ? await db.selectFrom('run_licenses').select(['id', 'source', 'score', 'evidence', 'nearest']).where('id', 'in', places.map((p) => Number(p.first))).execute()
    : [];
  const byId = new Map(firsts.map((f) => [f.id, f]));
  return {
    components: components.map((c) => ({ id: c.id, name: c.name, version: c.version })),
    files: places.map((p) => {
      const f = byId.get(Number(p.first))!;
      return {
        file: p.file!, startLine: p.start_line, endLine: p.end_line, source: f.source as LicenceSource, score: scoreOf(f.score),
        evidence: parseJson<string[]>(f.evidence, []), nearest: f.nearest ?? nearestOfId(spdxId),
      };
    }),
  };
}

/** The run's copyright lines in the order they were found. */
export async function runCopyrights(db: Db, runId: number) {
  return db.selectFrom('run_copyrights').select(['file', 'statement', 'holder', 'author', 'line'])
    .where('run_id', '=', runId).orderBy('id').execute();
}

/** Each component of the run with its licence expression, by name. */
export async function componentLicences(db: Db, runId: number) {
  return db.selectFrom('run_components').select(['id', 'name', 'version', 'purl', 'license_expression'])
    .where('run_id', '=', runId).orderBy('name').orderBy('id').execute();
}
