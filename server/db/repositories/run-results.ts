// A finished analysis written into the run_* tables in one transaction, in batches: either the whole
// result is there and the run says 成功, or nothing is and the run says 失败 (server/jobs/save-results.ts
// turns the engine's result into these rows). Marks of the previous run are carried over in the same
// transaction when the project keeps its audit (retention audit, carryMarks).
import type { Insertable, Kysely } from 'kysely';
import type { RunSummary } from '../../../contract/api/task.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import type {
  Database, RunComponentsTable, RunCopyrightsTable, RunFilesTable, RunLeaksTable, RunLicensesTable, RunVulnerabilitiesTable,
} from '../schema.ts';
import { nowIso } from '../time.ts';
import type { Trx } from '../transaction.ts';
import { refreshRunLevels } from './level-counts.ts';

type Row<T> = Omit<Insertable<T>, 'id' | 'run_id'>;

/**
 * A run's results as rows. Components are known by purl: what points at one (an edge, a finding, a
 * declared licence) names its purl and gets the component's row id when written.
 */
export interface RunResultRows {
  components: Row<RunComponentsTable>[];
  /** Dependency edges; a null parent is a root. Both ends are purls of `components`. */
  edges: Array<{ parent: string | null; child: string }>;
  findings: Array<Omit<Row<RunVulnerabilitiesTable>, 'component_id'> & { purl: string }>;
  files: Row<RunFilesTable>[];
  /** Declared licences name their component's purl; licences found in files have none. */
  licences: Array<Omit<Row<RunLicensesTable>, 'component_id'> & { purl: string | null }>;
  copyrights: Row<RunCopyrightsTable>[];
  /** Sensitive information (mode 9), the secret part of each already masked. */
  leaks: Row<RunLeaksTable>[];
}

/** What the run says once its results are saved. */
export interface RunOutcome {
  message: string;
  summary: RunSummary;
  problems: unknown[];
  outboundLicense: string | null;
  /** Where the outbound licence came from (project, manifest, license-file) and its file. */
  outboundSource: string | null;
  outboundFile: string | null;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits for every table. */
async function insertBatches<T>(rows: T[], size: number, write: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/**
 * Writes the results of a run `worker` is analysing and marks it (and its project, when this is the
 * project's latest run) 成功. False, with nothing written, when the run is no longer this worker's:
 * a run paused or stopped while it was being analysed keeps no results.
 */
export async function writeRunResults(
  db: Kysely<Database>, run: { id: number; project_id: number }, worker: string, rows: RunResultRows, outcome: RunOutcome, retention: boolean,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Still ours?
    const current = await trx.selectFrom('runs').select(['status', 'worker']).where('id', '=', run.id).executeTakeFirst();
    if (!current || current.status !== TASK_STATUS.ANALYSING || current.worker !== worker) return false;

    const ids = new Map<string, number>();
    await insertBatches(rows.components, 300, async (batch) => {
      const inserted = await trx.insertInto('run_components').values(batch.map((c) => ({ ...c, run_id: run.id }))).returning(['id', 'purl']).execute();
      for (const r of inserted) ids.set(r.purl, r.id);
    });
    await insertBatches(rows.edges, 2000, async (batch) => {
      await trx.insertInto('run_edges').values(batch.map((e) => ({ run_id: run.id, parent_id: e.parent === null ? null : ids.get(e.parent)!, child_id: ids.get(e.child)! }))).execute();
    });
    await insertBatches(rows.findings, 400, async (batch) => {
      await trx.insertInto('run_vulnerabilities').values(batch.map(({ purl, ...f }) => ({ ...f, run_id: run.id, component_id: ids.get(purl)! }))).execute();
    });
    await insertBatches(rows.files, 1000, async (batch) => {
      await trx.insertInto('run_files').values(batch.map((f) => ({ ...f, run_id: run.id }))).execute();
    });
    await insertBatches(rows.licences, 1000, async (batch) => {
      await trx.insertInto('run_licenses').values(batch.map(({ purl, ...l }) => ({ ...l, run_id: run.id, component_id: purl === null ? null : ids.get(purl)! }))).execute();
    });
    await insertBatches(rows.copyrights, 1000, async (batch) => {
      await trx.insertInto('run_copyrights').values(batch.map((c) => ({ ...c, run_id: run.id }))).execute();
    });
    await insertBatches(rows.leaks, 1000, async (batch) => {
      await trx.insertInto('run_leaks').values(batch.map((l) => ({ ...l, run_id: run.id }))).execute();
    });
    if (retention) await carryMarks(trx, run);

    await trx.updateTable('runs').set({
      status: TASK_STATUS.SUCCEEDED,
      stage: 'done',
      progress: 100,
      message: outcome.message,
      finished_at: nowIso(),
      summary: JSON.stringify(outcome.summary),
      problems: JSON.stringify(outcome.problems),
      outbound_license: outcome.outboundLicense,
      outbound_source: outcome.outboundSource,
      outbound_file: outcome.outboundFile,
    }).where('id', '=', run.id).execute();
    // The counts as every screen and report computes them, after the carried-over audit.
    await refreshRunLevels(trx, run.id);
    await trx.updateTable('projects').set({ status: TASK_STATUS.SUCCEEDED, updated_at: nowIso() })
      .where('id', '=', run.project_id).where('last_run_id', '=', run.id).execute();
    return true;
  });
}

/**
 * Retention audit (spec: 保留审计, on by default): a new run of a project inherits the audit of the
 * previous successful run — component marks by purl, vulnerability marks, custom levels and VEX
 * statements by purl + vulnerability id — so analysts never review the same finding twice. Inside
 * the transaction that saves the new run's results.
 */
export async function carryMarks(trx: Trx, run: { id: number; project_id: number }): Promise<{ components: number; vulnerabilities: number }> {
  const previous = await trx.selectFrom('runs').select('id')
    .where('project_id', '=', run.project_id).where('status', '=', TASK_STATUS.SUCCEEDED).where('id', '<>', run.id)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!previous) return { components: 0, vulnerabilities: 0 };

  const marked = await trx.selectFrom('run_components').select(['purl', 'mark', 'mark_remark'])
    .where('run_id', '=', previous.id).where('mark', '<>', 'N').execute();
  let components = 0;
  for (const m of marked) {
    const r = await trx.updateTable('run_components').set({ mark: m.mark, mark_remark: m.mark_remark })
      .where('run_id', '=', run.id).where('purl', '=', m.purl).executeTakeFirst();
    components += Number(r.numUpdatedRows);
  }

  const audited = await trx.selectFrom('run_vulnerabilities as v')
    .innerJoin('run_components as c', 'c.id', 'v.component_id')
    .select(['c.purl', 'v.vul_id', 'v.mark', 'v.mark_remark', 'v.vex', 'v.vex_remark', 'v.level', 'v.original_level', 'v.level_remark'])
    .where('v.run_id', '=', previous.id)
    .where((eb) => eb.or([eb('v.mark', '<>', 0), eb('v.vex', '<>', 0), eb('v.level', '<>', eb.ref('v.original_level'))]))
    .execute();
  let vulnerabilities = 0;
  const updateOf = () => trx.updateTable('run_vulnerabilities');
  for (const a of audited) {
    const sameFinding = (q: ReturnType<typeof updateOf>) => q
      .where('run_id', '=', run.id).where('vul_id', '=', a.vul_id)
      .where('component_id', 'in', (eb) => eb.selectFrom('run_components').select('id').where('run_id', '=', run.id).where('purl', '=', a.purl));
    const r = await sameFinding(updateOf().set({ mark: a.mark, mark_remark: a.mark_remark, vex: a.vex, vex_remark: a.vex_remark })).executeTakeFirst();
    // A custom level only stands while the knowledge still gives the level it overrode.
    if (a.level !== a.original_level) {
      await sameFinding(updateOf().set({ level: a.level, level_remark: a.level_remark })).where('original_level', '=', a.original_level).execute();
    }
    vulnerabilities += Number(r.numUpdatedRows);
  }
  return { components, vulnerabilities };
}
