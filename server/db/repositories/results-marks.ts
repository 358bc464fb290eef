// Audit of results: component marks, vulnerability marks with custom levels, VEX statements, and
// their logs. Each change writes its mark_logs rows (old → new, remark, user) in the transaction
// that updates the rows. Targets: a component's purl, a finding's `purl|vulId`, so the log of a
// component or finding spans every run of the project (marks are carried over by retention).
import type { Kysely } from 'kysely';
import type { MarkLogRow } from '../../../contract/api/result/index.ts';
import { COMPONENT_MARK_LABEL, VEX_LABEL, VULNERABILITY_LEVEL_LABEL, VULNERABILITY_MARK_LABEL, labelOf } from '../../../contract/enums.ts';
import type { Database } from '../schema.ts';
import { nowIso } from '../time.ts';
import { chunks, type Db } from './results.ts';
import { refreshRunLevels } from './level-counts.ts';

const IDS_PER_STATEMENT = 500;

export type MarkKind = 'component' | 'vulnerability' | 'level' | 'vex';

const findingTarget = (purl: string, vulId: string) => `${purl}|${vulId}`;

interface LogInput { kind: MarkKind; target: string; old: string; value: string; remark: string }

async function writeLogs(trx: Db, projectId: number, runId: number, userId: number, logs: LogInput[]): Promise<void> {
  const now = nowIso();
  for (const batch of chunks(logs, 500)) {
    if (!batch.length) continue;
    await trx.insertInto('mark_logs').values(batch.map((l) => ({
      project_id: projectId, run_id: runId, kind: l.kind, target: l.target, old_value: l.old, new_value: l.value, remark: l.remark, user_id: userId, created_at: now,
    }))).execute();
  }
}

/** Marks component rows of one run; null when an id is not a component of the run. */
export async function markComponents(db: Kysely<Database>, input: { projectId: number; runId: number; ids: number[]; mark: string; remark: string; userId: number }): Promise<number | null> {
  const ids = [...new Set(input.ids)];
  return db.transaction().execute(async (trx) => {
    const rows = (await Promise.all(chunks(ids, IDS_PER_STATEMENT).map((part) => trx.selectFrom('run_components')
      .select(['id', 'purl', 'mark', 'mark_remark']).where('run_id', '=', input.runId).where('id', 'in', part).execute()))).flat();
    if (rows.length !== ids.length) return null;
    for (const part of chunks(ids, IDS_PER_STATEMENT)) {
      await trx.updateTable('run_components').set({ mark: input.mark, mark_remark: input.remark }).where('run_id', '=', input.runId).where('id', 'in', part).execute();
    }
    await writeLogs(trx, input.projectId, input.runId, input.userId, rows
      .filter((r) => r.mark !== input.mark || r.mark_remark !== input.remark)
      .map((r) => ({ kind: 'component', target: r.purl, old: r.mark, value: input.mark, remark: input.remark })));
    // 误报 moves every count of the run: refreshed in this transaction.
    await refreshRunLevels(trx, input.runId);
    return rows.length;
  });
}

interface FindingChange {
  projectId: number; runId: number; ids: number[]; userId: number; remark: string;
  mark?: number; vex?: number; customLevel?: number; levelRemark?: string;
}

/** Marks findings (mark and optional custom level, or VEX); null when an id is not a finding of the run. */
export async function markFindings(db: Kysely<Database>, input: FindingChange): Promise<number | null> {
  const ids = [...new Set(input.ids)];
  return db.transaction().execute(async (trx) => {
    const rows = (await Promise.all(chunks(ids, IDS_PER_STATEMENT).map((part) => trx.selectFrom('run_vulnerabilities as v')
      .innerJoin('run_components as c', 'c.id', 'v.component_id')
      .select(['v.id', 'c.purl', 'v.vul_id', 'v.mark', 'v.mark_remark', 'v.vex', 'v.vex_remark', 'v.level', 'v.level_remark'])
      .where('v.run_id', '=', input.runId).where('v.id', 'in', part).execute()))).flat();
    if (rows.length !== ids.length) return null;
    const logs: LogInput[] = [];
    for (const part of chunks(ids, IDS_PER_STATEMENT)) {
      const set: { mark?: number; mark_remark?: string; vex?: number; vex_remark?: string; level?: number; level_remark?: string } = {};
      if (input.mark !== undefined) Object.assign(set, { mark: input.mark, mark_remark: input.remark });
      if (input.vex !== undefined) Object.assign(set, { vex: input.vex, vex_remark: input.remark });
      // The custom level replaces the effective level; original_level keeps the advisory's.
      if (input.customLevel !== undefined) Object.assign(set, { level: input.customLevel, level_remark: input.levelRemark ?? '' });
      await trx.updateTable('run_vulnerabilities').set(set).where('run_id', '=', input.runId).where('id', 'in', part).execute();
    }
    for (const r of rows) {
      const target = findingTarget(r.purl, r.vul_id);
      if (input.mark !== undefined && (Number(r.mark) !== input.mark || r.mark_remark !== input.remark)) {
        logs.push({ kind: 'vulnerability', target, old: String(r.mark), value: String(input.mark), remark: input.remark });
      }
      if (input.vex !== undefined && (Number(r.vex) !== input.vex || r.vex_remark !== input.remark)) {
        logs.push({ kind: 'vex', target, old: String(r.vex), value: String(input.vex), remark: input.remark });
      }
      if (input.customLevel !== undefined && Number(r.level) !== input.customLevel) {
        logs.push({ kind: 'level', target, old: String(r.level), value: String(input.customLevel), remark: input.levelRemark ?? '' });
      }
    }
    await writeLogs(trx, input.projectId, input.runId, input.userId, logs);
    // A custom level moves the run's counts and its components' risks: refreshed in this transaction.
    await refreshRunLevels(trx, input.runId);
    return rows.length;
  });
}

const LABELS: Record<MarkKind, Record<string, string>> = {
  component: COMPONENT_MARK_LABEL, vulnerability: VULNERABILITY_MARK_LABEL, level: VULNERABILITY_LEVEL_LABEL, vex: VEX_LABEL,
};

/** A logged mark, level or VEX value in words (`2` of a vulnerability mark → 无需修复). */
export const markValueLabel = (kind: string, value: string): string => labelOf(LABELS[kind as MarkKind] ?? {}, value);

/** The log of one target in a project, newest first. */
export async function markLog(db: Db, projectId: number, kinds: MarkKind[], target: string, paging: { page: number; size: number }): Promise<{ content: MarkLogRow[]; total: number }> {
  const base = db.selectFrom('mark_logs as m').where('m.project_id', '=', projectId).where('m.kind', 'in', kinds).where('m.target', '=', target);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await base.leftJoin('runs as r', 'r.id', 'm.run_id').leftJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'm.kind', 'm.run_id', 'r.seq', 'm.old_value', 'm.new_value', 'm.remark', 'm.user_id', 'u.name as user_name', 'm.created_at'])
    .orderBy('m.id', 'desc').limit(paging.size).offset((paging.page - 1) * paging.size).execute();
  return {
    total: Number(counted?.n ?? 0),
    content: rows.map((r) => ({
      id: r.id, kind: r.kind as MarkKind, taskId: r.run_id, seq: r.seq ?? null,
      oldValue: r.old_value, newValue: r.new_value,
      oldLabel: markValueLabel(r.kind, r.old_value), newLabel: markValueLabel(r.kind, r.new_value),
      remark: r.remark, userId: r.user_id,
      // No user: written by the system (e.g. a retained audit); a deleted user leaves null.
      userName: r.user_id === null ? '系统' : r.user_name ?? null,
      createdAt: r.created_at,
    })),
  };
}

/** The log target of a component or finding row (its purl, or `purl|vulId`) and the project of its run. */
export async function markTargetOf(db: Db, id: number, finding: boolean): Promise<{ target: string; projectId: number } | undefined> {
  if (finding) {
    const row = await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id').innerJoin('runs as r', 'r.id', 'v.run_id')
      .select(['c.purl', 'v.vul_id', 'r.project_id']).where('v.id', '=', id).executeTakeFirst();
    return row && { target: findingTarget(row.purl, String(row.vul_id)), projectId: row.project_id };
  }
  const row = await db.selectFrom('run_components as c').innerJoin('runs as r', 'r.id', 'c.run_id')
    .select(['c.purl', 'r.project_id']).where('c.id', '=', id).executeTakeFirst();
  return row && { target: row.purl, projectId: row.project_id };
}
