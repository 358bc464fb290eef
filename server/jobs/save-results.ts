// Writes a finished analysis into the run_* tables in one transaction, in batches: either the whole
// result is there and the run says 成功, or nothing is and the run says 失败. Marks of the previous
// run are carried over in the same transaction when the project keeps its audit (retention audit).
import type { Kysely, Transaction } from 'kysely';
import { TASK_STATUS } from '../../contract/enums.ts';
import type { RunSummary } from '../../contract/api/task.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/time.ts';
import { expressionIds, type AnalysedComponent, type AnalyseResult } from '../engine/index.ts';
import { carryMarks } from './retention.ts';

export interface RunResults {
  analysis: AnalyseResult;
  components: AnalysedComponent[];
  outboundLicense: string | null;
}

type Trx = Transaction<Database>;

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits for every table. */
async function insertBatches<T>(rows: T[], size: number, write: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

const idOf = (ids: string[], prefix: string) => ids.find((id) => id.toUpperCase().startsWith(prefix)) ?? null;

export async function saveRunResults(db: Kysely<Database>, run: { id: number; project_id: number }, worker: string, results: RunResults, retention: boolean): Promise<RunSummary | null> {
  return db.transaction().execute(async (trx) => {
    // Still ours? A run paused or stopped while it was being analysed keeps no results.
    const current = await trx.selectFrom('runs').select(['status', 'worker']).where('id', '=', run.id).executeTakeFirst();
    if (!current || current.status !== TASK_STATUS.ANALYSING || current.worker !== worker) return null;

    const componentIds = await saveComponents(trx, run.id, results.components);
    await saveEdges(trx, run.id, results, componentIds);
    const findings = await saveFindings(trx, run.id, results.components, componentIds);
    await saveFiles(trx, run.id, results);
    const licences = await saveLicences(trx, run.id, results, componentIds);
    const copyrights = await saveCopyrights(trx, run.id, results.analysis);
    if (retention) await carryMarks(trx, run);

    const summary = summarise(results, findings, licences, copyrights);
    await trx.updateTable('runs').set({
      status: TASK_STATUS.SUCCEEDED,
      stage: 'done',
      progress: 100,
      message: results.analysis.problems.length ? `分析完成，${results.analysis.problems.length} 个文件无法解析` : '分析完成',
      finished_at: nowIso(),
      summary: JSON.stringify(summary),
      problems: JSON.stringify(results.analysis.problems.slice(0, 1000)),
      outbound_license: results.outboundLicense,
    }).where('id', '=', run.id).execute();
    await trx.updateTable('projects').set({ status: TASK_STATUS.SUCCEEDED, updated_at: nowIso() })
      .where('id', '=', run.project_id).where('last_run_id', '=', run.id).execute();
    return summary;
  });
}

async function saveComponents(trx: Trx, runId: number, components: AnalysedComponent[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  await insertBatches(components, 300, async (batch) => {
    const rows = await trx.insertInto('run_components').values(batch.map((c) => {
      const levels: Record<number, number> = {};
      for (const f of c.findings) levels[f.level] = (levels[f.level] ?? 0) + 1;
      return {
        run_id: runId,
        purl: c.purl,
        ecosystem: c.ecosystem,
        name: c.name,
        version: c.version,
        direct: c.direct ? 1 : 0,
        scope: c.scope,
        // Everything an extractor or SBOM names is an open-source package; private components
        // are recognised by the private component library (a later issue).
        component_type: 0,
        license_expression: c.licenseExpression,
        license_level: c.licenseLevel,
        risk_level: c.risk,
        vul_count: c.findings.length,
        vul_levels: JSON.stringify(levels),
        recommend_version: c.recommendVersion,
        locations: JSON.stringify(c.locations.slice(0, 50)),
      };
    })).returning(['id', 'purl']).execute();
    for (const r of rows) ids.set(r.purl, r.id);
  });
  return ids;
}

async function saveEdges(trx: Trx, runId: number, results: RunResults, ids: Map<string, number>): Promise<void> {
  const edges: Array<{ run_id: number; parent_id: number | null; child_id: number }> = [];
  for (const purl of results.analysis.roots) {
    const child = ids.get(purl);
    if (child !== undefined) edges.push({ run_id: runId, parent_id: null, child_id: child });
  }
  for (const c of results.components) {
    const parent = ids.get(c.purl)!;
    for (const dep of c.dependsOn) {
      const child = ids.get(dep);
      if (child !== undefined && child !== parent) edges.push({ run_id: runId, parent_id: parent, child_id: child });
    }
  }
  await insertBatches(edges, 2000, async (batch) => { await trx.insertInto('run_edges').values(batch).execute(); });
}

async function saveFindings(trx: Trx, runId: number, components: AnalysedComponent[], ids: Map<string, number>): Promise<number> {
  const rows = components.flatMap((c) => c.findings.map((f) => {
    const all = [f.id, ...f.aliases];
    return {
      run_id: runId,
      component_id: ids.get(c.purl)!,
      vul_id: f.id,
      cve: idOf(all, 'CVE-'),
      cnnvd: idOf(all, 'CNNVD-'),
      cnvd: idOf(all, 'CNVD-'),
      aliases: JSON.stringify(f.aliases),
      summary: f.summary ?? '',
      level: f.level,
      original_level: f.level,
      score: f.score ?? null,
      exploit: f.exploit,
      fixed_versions: JSON.stringify(f.fixedVersions),
      published: f.published ?? null,
    };
  }));
  await insertBatches(rows, 400, async (batch) => { await trx.insertInto('run_vulnerabilities').values(batch).execute(); });
  return rows.length;
}

async function saveFiles(trx: Trx, runId: number, results: RunResults): Promise<void> {
  const declared = new Map<string, number>();
  for (const c of results.components) {
    for (const file of new Set(c.locations.map((l) => l.file))) declared.set(file, (declared.get(file) ?? 0) + 1);
  }
  const dirs = new Map<string, number>();
  const rows: Array<{ run_id: number; path: string; parent: string; name: string; is_dir: number; size: number; component_count: number }> = [];
  for (const f of results.analysis.files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      dirs.set(dir, (dirs.get(dir) ?? 0) + (declared.get(f.path) ?? 0));
    }
    rows.push({ run_id: runId, path: f.path, parent: parts.slice(0, -1).join('/'), name: parts.at(-1)!, is_dir: 0, size: f.size, component_count: declared.get(f.path) ?? 0 });
  }
  for (const [dir, count] of dirs) {
    const parts = dir.split('/');
    rows.push({ run_id: runId, path: dir, parent: parts.slice(0, -1).join('/'), name: parts.at(-1)!, is_dir: 1, size: 0, component_count: count });
  }
  await insertBatches(rows, 1000, async (batch) => { await trx.insertInto('run_files').values(batch).execute(); });
}

async function saveLicences(trx: Trx, runId: number, results: RunResults, ids: Map<string, number>): Promise<number> {
  const rows: Array<{ run_id: number; component_id: number | null; file: string | null; spdx_id: string; source: string; score: number | null; start_line: number | null; end_line: number | null }> = [];
  for (const c of results.components) {
    if (!c.licenseExpression) continue;
    for (const spdx of expressionIds(c.licenseExpression)) {
      rows.push({ run_id: runId, component_id: ids.get(c.purl)!, file: c.locations[0]?.file ?? null, spdx_id: spdx, source: 'declared', score: null, start_line: null, end_line: null });
    }
  }
  for (const f of results.analysis.findings) {
    for (const l of f.licenses) {
      rows.push({ run_id: runId, component_id: null, file: f.path, spdx_id: l.spdx, source: l.kind, score: Math.round(l.score * 1000) / 1000, start_line: l.startLine, end_line: l.endLine });
    }
  }
  await insertBatches(rows, 1000, async (batch) => { await trx.insertInto('run_licenses').values(batch).execute(); });
  return new Set(rows.map((r) => r.spdx_id)).size;
}

async function saveCopyrights(trx: Trx, runId: number, analysis: AnalyseResult): Promise<number> {
  const rows = analysis.findings.flatMap((f) => [
    ...f.copyrights.map((c) => ({ run_id: runId, file: f.path, statement: c.statement, holder: c.holder, author: null, line: c.line })),
    ...f.authors.map((a) => ({ run_id: runId, file: f.path, statement: a.value, holder: null, author: a.value, line: a.line })),
  ]);
  await insertBatches(rows, 1000, async (batch) => { await trx.insertInto('run_copyrights').values(batch).execute(); });
  return rows.length;
}

function summarise(results: RunResults, findings: number, licences: number, copyrights: number): RunSummary {
  const byLevel = { 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 };
  const byRisk: Record<string, number> = {};
  let vulnerable = 0;
  for (const c of results.components) {
    byRisk[c.risk] = (byRisk[c.risk] ?? 0) + 1;
    if (c.findings.length) vulnerable++;
    for (const f of c.findings) byLevel[f.level]++;
  }
  return {
    files: results.analysis.stats.files,
    components: results.components.length,
    directComponents: results.components.filter((c) => c.direct).length,
    vulnerableComponents: vulnerable,
    vulnerabilities: findings,
    byLevel,
    byRisk,
    licenses: licences,
    copyrights,
    problems: results.analysis.problems.length,
    ms: results.analysis.stats.ms,
  };
}
