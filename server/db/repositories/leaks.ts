// 敏感信息: the administrators' rules (leak_rules; the built-in ones live in the engine, their
// switches in the settings) and what each run found (run_leaks, written with the run's results by
// run-results.ts).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { LeakRow } from '../../../contract/api/leak.ts';
import type { Page } from '../../../contract/api/kit.ts';
import type { LeakType } from '../../../contract/leak-types.ts';
import { likePattern } from '../like.ts';
import type { Database, LeakRulesTable } from '../schema.ts';
import { nowIso } from '../time.ts';
import { getSetting, putSetting } from './settings.ts';
import type { Paging } from './vulnerabilities.ts';

type Db = Kysely<Database>;
export type LeakRuleRecord = Selectable<LeakRulesTable> & { creator: string | null };

/** The uniqueness key of a rule's name. */
const leakRuleKey = (name: string): string => name.trim().toLowerCase();

const DISABLED_BUILTINS = 'leakRules.disabledBuiltins';

export async function leakRuleRecords(db: Db): Promise<LeakRuleRecord[]> {
  return db.selectFrom('leak_rules as r').leftJoin('users as u', 'u.id', 'r.created_by')
    .selectAll('r').select('u.name as creator')
    .orderBy('r.id').execute();
}

export async function findLeakRule(db: Db, id: number): Promise<LeakRuleRecord | undefined> {
  return db.selectFrom('leak_rules as r').leftJoin('users as u', 'u.id', 'r.created_by')
    .selectAll('r').select('u.name as creator')
    .where('r.id', '=', id).executeTakeFirst();
}

export async function leakRuleNamed(db: Db, name: string): Promise<boolean> {
  return !!(await db.selectFrom('leak_rules').select('id').where('name_key', '=', leakRuleKey(name)).executeTakeFirst());
}

export async function insertLeakRule(db: Db, values: { name: string; type: LeakType; pattern: string; ignoreCase: boolean; enabled: boolean; userId: number }): Promise<number> {
  const now = nowIso();
  const row = await db.insertInto('leak_rules').values({
    name: values.name.trim(), name_key: leakRuleKey(values.name), type: values.type, pattern: values.pattern,
    ignore_case: values.ignoreCase ? 1 : 0, enabled: values.enabled ? 1 : 0, created_by: values.userId, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function setLeakRuleEnabled(db: Db, id: number, enabled: boolean): Promise<void> {
  await db.updateTable('leak_rules').set({ enabled: enabled ? 1 : 0, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function deleteLeakRule(db: Db, id: number): Promise<void> {
  await db.deleteFrom('leak_rules').where('id', '=', id).execute();
}

/** Keys of the built-in rules the administrators turned off. */
export async function disabledBuiltinLeakRules(db: Db): Promise<string[]> {
  return (await getSetting<string[]>(db, DISABLED_BUILTINS)) ?? [];
}

export async function setDisabledBuiltinLeakRules(db: Db, keys: string[]): Promise<void> {
  await putSetting(db, DISABLED_BUILTINS, [...new Set(keys)].sort());
}

// ---- what a run found ------------------------------------------------------------------------------

/** Findings per type and the number of files with any. */
export async function runLeakCounts(db: Db, runId: number): Promise<{ byType: Map<string, number>; files: number }> {
  const rows = await db.selectFrom('run_leaks').select(['type', sql<number>`count(*)`.as('n')]).where('run_id', '=', runId).groupBy('type').execute();
  const files = await db.selectFrom('run_leaks').select(sql<number>`count(distinct file)`.as('n')).where('run_id', '=', runId).executeTakeFirst();
  return { byType: new Map(rows.map((r) => [r.type, Number(r.n)])), files: Number(files?.n ?? 0) };
}

export interface RunLeakFilter {
  type?: LeakType;
  file?: string;
  keyword?: string;
}

export async function runLeakPage(db: Db, runId: number, filter: RunLeakFilter, paging: Paging): Promise<Page<LeakRow>> {
  let query = db.selectFrom('run_leaks').where('run_id', '=', runId);
  if (filter.type) query = query.where('type', '=', filter.type);
  const file = filter.file?.trim();
  if (file) query = query.where(sql<string>`lower(file)`, 'like', sql<string>`${likePattern(file)} escape '\\'`);
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const pattern = likePattern(keyword);
    query = query.where((eb) => eb.or([
      eb(sql<string>`lower(text)`, 'like', sql<string>`${pattern} escape '\\'`),
      eb(sql<string>`lower(rule_name)`, 'like', sql<string>`${pattern} escape '\\'`),
    ]));
  }
  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query.selectAll()
    .orderBy('file').orderBy('offset').orderBy('id')
    .limit(paging.size).offset((paging.page - 1) * paging.size)
    .execute();
  return {
    content: rows.map((r) => ({ id: r.id, file: r.file, offset: r.offset, type: r.type as LeakType, rule: r.rule, ruleName: r.rule_name, text: r.text })),
    total: Number(total?.n ?? 0),
  };
}
