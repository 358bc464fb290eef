// The licence reads of a task: the licences found (declared and recognised in files) with their
// knowledge-base facts and a few places each — the project's own apart from those found in test
// fixtures, licence databases and data files — copyright lines, and each component's licence.
import { sql } from 'kysely';
import type { LicenseUsageRow } from '../../../contract/api/result/index.ts';
import type { Db } from './results.ts';

type LicenceSource = LicenseUsageRow['sources'][number];
type LicenceScope = LicenseUsageRow['scopes'][number];

/** Which licences of a run to read: the project's own, or those found in test fixtures, licence databases and data files. */
export type LicenceView = 'project' | 'excluded';

/** The comparison selecting one view's rows (engine/analyzers/license-scope.ts gives each row its scope when it is saved). */
const inView = (view: LicenceView) => (view === 'project' ? '=' : '<>');

/**
 * Every licence of a run in one view with how many components and files carry it, where and how it
 * was found and what the knowledge base says of it. A run recognises at most a few hundred distinct
 * licences, so the caller filters and pages in memory.
 */
export async function runLicences(db: Db, runId: number, view: LicenceView = 'project'): Promise<Array<Omit<LicenseUsageRow, 'components' | 'files'>>> {
  const groups = await db.selectFrom('run_licenses').where('run_id', '=', runId).where('scope', inView(view), 'project')
    .select(['spdx_id', sql<number>`count(distinct component_id)`.as('components'), sql<number>`count(distinct file)`.as('files')])
    .groupBy('spdx_id').execute();
  const sources = await db.selectFrom('run_licenses').where('run_id', '=', runId).where('scope', inView(view), 'project').select(['spdx_id', 'source', 'scope']).distinct().execute();
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
    };
  });
}

/** How many distinct licences each view of a run holds. */
export async function licenceViewCounts(db: Db, runId: number): Promise<Record<LicenceView, number>> {
  const count = async (view: LicenceView) => Number((await db.selectFrom('run_licenses').where('run_id', '=', runId).where('scope', inView(view), 'project')
    .select(sql<number>`count(distinct spdx_id)`.as('n')).executeTakeFirst())?.n ?? 0);
  return { project: await count('project'), excluded: await count('excluded') };
}

/** The first five components and the first five places (file and lines) of a licence in one view of a run. */
export async function licenceSamples(db: Db, runId: number, spdxId: string, view: LicenceView = 'project'): Promise<Pick<LicenseUsageRow, 'components' | 'files'>> {
  const [components, files] = await Promise.all([
    db.selectFrom('run_licenses as l').innerJoin('run_components as c', 'c.id', 'l.component_id')
      .select(['c.id', 'c.name', 'c.version']).distinct().where('l.run_id', '=', runId).where('l.spdx_id', '=', spdxId)
      .where('l.scope', inView(view), 'project')
      .orderBy('c.name').orderBy('c.id').limit(5).execute(),
    // One line per place: a lock file declaring the licence for many components is one place.
    db.selectFrom('run_licenses')
      .select(['file', 'start_line', 'end_line', sql<string>`min(source)`.as('source'), sql<number | null>`max(score)`.as('score'), sql<number>`min(id)`.as('first')])
      .where('run_id', '=', runId).where('spdx_id', '=', spdxId).where('file', 'is not', null).where('scope', inView(view), 'project')
      .groupBy(['file', 'start_line', 'end_line']).orderBy('first').limit(5).execute(),
  ]);
  return {
    components: components.map((c) => ({ id: c.id, name: c.name, version: c.version })),
    files: files.map((f) => ({
      file: f.file!, startLine: f.start_line, endLine: f.end_line, source: f.source as LicenceSource,
      score: f.score === null ? null : Number(f.score),
    })),
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
