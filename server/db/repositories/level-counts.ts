// A task's level counts, computed in one place (issue 14, item 2): vulnerabilities by level,
// components by risk and licences by level, after custom levels and marks. Every screen, list and
// report that shows a count reads it from here, or from runs.summary, which refreshRunLevels
// rewrites from here in the transaction of every change that moves a count (the run's results being
// saved with the carried-over audit, a component mark, a finding's mark, custom level or VEX).
//
// The rules (contract/enums.ts COUNT_RULES):
// - A finding counts at its effective level: the custom level an analyst set, else the knowledge
//   base's level.
// - A component marked 误报 (F) is not part of the project: neither it, its findings nor the
//   licences declared by it are counted. It stays listed (with its mark) in the component list.
// - VEX 不受影响 findings count unless the caller asks to leave them out (the overview's switch).
// - A component's risk is the worst effective level of its findings (32 none, 64 version unknown).
// - Several runs (a subject, the dashboard) count a package (purl) once, a flaw of a package
//   (purl + vulnerability id) once at its most severe level, and a licence once.
import { sql } from 'kysely';
import type { LevelCounts, RiskCounts } from '../../../contract/api/result/index.ts';
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import { NOT_COVERED_RISK, isComponentNotCovered } from '../../../contract/coverage.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { inTransaction } from '../transaction.ts';
import { chunks, emptyLevels, emptyRisks, parseJson, type Db } from './results.ts';

/** Component mark of a component that is not part of the project. */
export const FALSE_POSITIVE_MARK = 'F';
const VEX_NOT_AFFECTED = 1;

export interface LevelCountOptions {
  /** Leave out findings whose VEX statement is 不受影响 (counted by default). */
  excludeNotAffected?: boolean;
  /** Count the components shown 未覆盖 (notCovered) from the runs' coverage records (the dashboard). */
  notCovered?: boolean;
}

export interface TaskLevelCounts {
  components: number;
  directComponents: number;
  /** Components with at least one counted finding. */
  vulnerableComponents: number;
  byRisk: RiskCounts;
  /** Counted findings (a flaw in a component). */
  vulnerabilities: number;
  byLevel: LevelCounts;
  /** Distinct vulnerability ids among the counted findings. */
  distinctVulnerabilities: number;
  /** Counted findings not reviewed yet (mark 待审核). */
  unreviewed: number;
  /** Findings left out because of VEX 不受影响 (0 unless excludeNotAffected). */
  excludedByVex: number;
  /** Components left out because they are marked 误报. */
  falsePositiveComponents: number;
  /** Distinct licences (SPDX ids) found, and the same by the licence's level. */
  licenses: number;
  licensesByLevel: LevelCounts;
  /**
   * Of byRisk[32] (无漏洞), the components shown 未覆盖 (contract/coverage.ts isComponentNotCovered by
   * their run's coverage); a package of several runs only when no run covered its ecosystem. 0 unless asked.
   */
  notCovered: number;
}

const asLevel = (n: number): keyof LevelCounts => ([1, 2, 4, 8, 16].includes(n) ? n : 16) as keyof LevelCounts;
const asRisk = (n: number): keyof RiskCounts => ([1, 2, 4, 8, 16, 32, 64].includes(n) ? n : 16) as keyof RiskCounts;

/** The level counts of one run, or of several runs merged. */
export async function taskLevelCounts(db: Db, runIds: number[], options: LevelCountOptions = {}): Promise<TaskLevelCounts> {
  const merged = new Set(runIds).size > 1;
  const out: TaskLevelCounts = {
    components: 0, directComponents: 0, vulnerableComponents: 0, byRisk: emptyRisks(),
    vulnerabilities: 0, byLevel: emptyLevels(), distinctVulnerabilities: 0, unreviewed: 0, excludedByVex: 0,
    falsePositiveComponents: 0, licenses: 0, licensesByLevel: emptyLevels(), notCovered: 0,
  };
  const coverageOf = options.notCovered ? await coverageOfRuns(db, runIds) : new Map<number, KbCoverage | null>();
  // Component key: its row, or its purl when runs are merged.
  const keyOf = new Map<number, string>();
  // checked: some row of the package at 无漏洞 was in an ecosystem its run's knowledge base covered.
  const packages = new Map<string, { direct: boolean; risk: number; checked: boolean }>();
  const excluded = new Set<number>();
  const findings = new Map<string, { level: number; mark: number }>();
  const vulIds = new Set<string>();
  const licenceIds = new Set<string>();
  for (const part of chunks([...new Set(runIds)], 200)) {
    const components = await db.selectFrom('run_components').select(['id', 'run_id', 'purl', 'ecosystem', 'direct', 'risk_level', 'mark'])
      .where('run_id', 'in', part).orderBy('id').execute();
    for (const c of components) {
      if (c.mark === FALSE_POSITIVE_MARK) { excluded.add(c.id); continue; }
      const key = merged ? c.purl : String(c.id);
      keyOf.set(c.id, key);
      const risk = Number(c.risk_level);
      const checked = risk === NOT_COVERED_RISK && !isComponentNotCovered(coverageOf.get(c.run_id), c.ecosystem, risk);
      const seen = packages.get(key);
      if (!seen) packages.set(key, { direct: Boolean(Number(c.direct)), risk, checked });
      else {
        seen.direct ||= Boolean(Number(c.direct));
        seen.risk = Math.min(seen.risk, risk);
        seen.checked ||= checked;
      }
    }
    const found = await db.selectFrom('run_vulnerabilities').select(['component_id', 'vul_id', 'level', 'mark', 'vex'])
      .where('run_id', 'in', part).execute();
    for (const f of found) {
      const key = keyOf.get(f.component_id);
      if (key === undefined) continue;
      if (options.excludeNotAffected && Number(f.vex) === VEX_NOT_AFFECTED) { out.excludedByVex++; continue; }
      const id = `${key}\u0000${f.vul_id}`;
      const level = Number(f.level);
      const seen = findings.get(id);
      if (!seen || level < seen.level) findings.set(id, { level, mark: Math.min(Number(f.mark), seen?.mark ?? Number(f.mark)) });
      vulIds.add(f.vul_id);
    }
    const licences = await db.selectFrom('run_licenses').select(['component_id', 'spdx_id']).distinct().where('run_id', 'in', part)
      // The projects' own licences: texts in test fixtures, licence databases and data files are not (engine license-scope.ts).
      .where('scope', '=', 'project').execute();
    for (const l of licences) if (l.component_id === null || !excluded.has(l.component_id)) licenceIds.add(l.spdx_id);
  }
  // A package is excluded only when no run counts it.
  const excludedPackages = new Set<string>();
  if (excluded.size) {
    for (const part of chunks([...excluded], 500)) {
      for (const c of await db.selectFrom('run_components').select(['purl', 'id']).where('id', 'in', part).execute()) {
        const key = merged ? c.purl : String(c.id);
        if (!packages.has(key)) excludedPackages.add(key);
      }
    }
  }
  out.falsePositiveComponents = excludedPackages.size;

  const vulnerable = new Set<string>();
  for (const [id, f] of findings) {
    out.vulnerabilities++;
    out.byLevel[asLevel(f.level)]++;
    if (f.mark === 0) out.unreviewed++;
    vulnerable.add(id.slice(0, id.indexOf('\u0000')));
  }
  out.distinctVulnerabilities = vulIds.size;
  for (const [key, p] of packages) {
    out.components++;
    if (p.direct) out.directComponents++;
    out.byRisk[asRisk(p.risk)]++;
    if (options.notCovered && p.risk === NOT_COVERED_RISK && !p.checked) out.notCovered++;
    if (vulnerable.has(key)) out.vulnerableComponents++;
  }
  out.licenses = licenceIds.size;
  if (licenceIds.size) {
    const known = new Map<string, number>();
    for (const part of chunks([...licenceIds], 500)) {
      for (const l of await db.selectFrom('licenses').select(['spdx_id', 'level']).where('spdx_id', 'in', part).execute()) known.set(l.spdx_id, Number(l.level));
    }
    for (const id of licenceIds) out.licensesByLevel[asLevel(known.get(id) ?? 16)]++;
  }
  return out;
}

/** The coverage record of each run (null for runs analysed before it was kept). */
async function coverageOfRuns(db: Db, runIds: number[]): Promise<Map<number, KbCoverage | null>> {
  const out = new Map<number, KbCoverage | null>();
  for (const part of chunks([...new Set(runIds)], 500)) {
    for (const r of await db.selectFrom('runs').select(['id', 'summary']).where('id', 'in', part).execute()) {
      out.set(Number(r.id), parseJson<{ coverage?: KbCoverage }>(r.summary, {}).coverage ?? null);
    }
  }
  return out;
}

/** A component's risk from its findings' effective levels (engine rule: worst level, 32 none, 64 version unknown). */
export function riskOf(version: string, levels: number[]): number {
  if (!version) return 64;
  return levels.length ? Math.min(...levels) : 32;
}

/**
 * Brings a run's stored figures in line with its findings, in the caller's transaction: each
 * component's risk, finding count and counts by level, then the run summary's counts.
 */
export async function refreshRunLevels(db: Db, runId: number): Promise<TaskLevelCounts> {
  return inTransaction(db, async (trx) => {
    const components = await trx.selectFrom('run_components').select(['id', 'version', 'risk_level', 'vul_count', 'vul_levels'])
      .where('run_id', '=', runId).execute();
    const levelsOf = new Map<number, number[]>();
    for (const f of await trx.selectFrom('run_vulnerabilities').select(['component_id', 'level']).where('run_id', '=', runId).execute()) {
      const list = levelsOf.get(f.component_id) ?? [];
      list.push(Number(f.level));
      levelsOf.set(f.component_id, list);
    }
    // Rows that change, grouped by their new values: one UPDATE per distinct value.
    const updates = new Map<string, number[]>();
    for (const c of components) {
      const levels = levelsOf.get(c.id) ?? [];
      const counts: Record<number, number> = {};
      for (const l of levels) counts[l] = (counts[l] ?? 0) + 1;
      const risk = riskOf(c.version, levels);
      const stored = parseJson<Record<string, number>>(c.vul_levels, {});
      const same = Number(c.risk_level) === risk && Number(c.vul_count) === levels.length
        && [1, 2, 4, 8, 16].every((l) => Number(stored[l] ?? 0) === (counts[l] ?? 0));
      if (same) continue;
      const key = JSON.stringify([risk, levels.length, counts]);
      updates.set(key, [...(updates.get(key) ?? []), c.id]);
    }
    for (const [key, ids] of updates) {
      const [risk, count, counts] = JSON.parse(key) as [number, number, Record<number, number>];
      for (const part of chunks(ids, 500)) {
        await trx.updateTable('run_components').set({ risk_level: risk, vul_count: count, vul_levels: JSON.stringify(counts) }).where('id', 'in', part).execute();
      }
    }
    const counts = await taskLevelCounts(trx, [runId]);
    const run = await trx.selectFrom('runs').select('summary').where('id', '=', runId).executeTakeFirst();
    const summary = { ...parseJson<Record<string, unknown>>(run?.summary ?? null, {}), ...summaryFields(counts) };
    await trx.updateTable('runs').set({ summary: JSON.stringify(summary) }).where('id', '=', runId).execute();
    return counts;
  });
}

/**
 * Succeeded runs whose summary predates these counts (no licensesByLevel) get them, once, at
 * start-up: a run saved earlier kept the engine's counts, before marks and custom levels.
 */
export async function refreshStaleRunLevels(db: Db): Promise<number> {
  const runs = await db.selectFrom('runs').select(['id', 'summary']).where('status', '=', TASK_STATUS.SUCCEEDED).orderBy('id').execute();
  let refreshed = 0;
  for (const run of runs) {
    if (parseJson<Record<string, unknown>>(run.summary, {}).licensesByLevel !== undefined) continue;
    await refreshRunLevels(db, run.id);
    refreshed++;
  }
  return refreshed;
}

/** The counts as runs.summary keeps them (contract RunSummary). */
export function summaryFields(c: TaskLevelCounts) {
  return {
    components: c.components,
    directComponents: c.directComponents,
    vulnerableComponents: c.vulnerableComponents,
    vulnerabilities: c.vulnerabilities,
    byLevel: c.byLevel,
    byRisk: Object.fromEntries(Object.entries(c.byRisk).filter(([, n]) => n > 0)),
    licenses: c.licenses,
    licensesByLevel: c.licensesByLevel,
    falsePositiveComponents: c.falsePositiveComponents,
  };
}

/** Findings of components marked 误报 are left out of the findings tab, as out of every count. */
export const notFalsePositive = (runId: number) => sql<boolean>`v.component_id not in (select id from run_components where run_id = ${runId} and mark = ${FALSE_POSITIVE_MARK})`;
