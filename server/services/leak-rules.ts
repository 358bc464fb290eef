// 敏感信息规则 (/system/sensitive): the built-in rules (the engine's, not deletable, each can be
// turned off) beside the administrators' rules. A new rule is checked before it is stored (its
// pattern compiled and probed for catastrophic backtracking: engine leakPatternProblem); each
// command writes its audit row in its transaction. The analysis asks for the enabled rules when it
// starts (analysisLeakOptions).
import type { Page } from '../../contract/api/kit.ts';
import type { LeakRuleFilter, LeakRuleForm, LeakRuleRow } from '../../contract/api/leak.ts';
import type { LeakType } from '../../contract/leak-types.ts';
import { validateName } from '../../contract/validation.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  deleteLeakRule, disabledBuiltinLeakRules, findLeakRule, insertLeakRule, leakRuleNamed, leakRuleRecords, setDisabledBuiltinLeakRules, setLeakRuleEnabled,
  type LeakRuleRecord,
} from '../db/repositories/leaks.ts';
import type { Paging } from '../db/repositories/vulnerabilities.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { BUILTIN_LEAK_RULES, leakPatternProblem, type AnalyzerOptions } from '../engine/index.ts';
import { UserError } from '../errors.ts';

const LEAK_RULE_MSG = {
  notFound: '敏感信息规则不存在',
  builtin: '内置规则不能删除，可将其停用',
  duplicate: (name: string) => `敏感信息规则“${name}”已存在`,
  builtinName: (name: string) => `“${name}”是内置规则的名称，请换一个名称`,
};

const userKey = (id: number) => `user:${id}`;

function userRow(r: LeakRuleRecord): LeakRuleRow {
  return {
    id: r.id, key: userKey(r.id), builtin: false, name: r.name, type: r.type as LeakType, pattern: r.pattern,
    ignoreCase: !!r.ignore_case, enabled: !!r.enabled, createdBy: r.creator, createdAt: r.created_at,
  };
}

/** Every rule: the administrators' first (newest first: the one just added is on top), then the built-in ones in the engine's order. */
async function allRules(db: Db): Promise<LeakRuleRow[]> {
  const disabled = new Set(await disabledBuiltinLeakRules(db));
  const builtins: LeakRuleRow[] = BUILTIN_LEAK_RULES.map((r) => ({
    id: null, key: r.key, builtin: true, name: r.name, type: r.type, pattern: r.pattern, ignoreCase: r.ignoreCase,
    enabled: !disabled.has(r.key), createdBy: null, createdAt: null,
  }));
  return [...(await leakRuleRecords(db)).map(userRow).reverse(), ...builtins];
}

export async function listLeakRules(db: Db, filter: LeakRuleFilter, paging: Paging): Promise<Page<LeakRuleRow>> {
  const keyword = filter.keyword?.trim().toLowerCase();
  const rows = (await allRules(db)).filter((r) => (!keyword || r.name.toLowerCase().includes(keyword) || r.pattern.toLowerCase().includes(keyword))
    && (filter.type === undefined || r.type === filter.type)
    && (filter.builtin === undefined || r.builtin === filter.builtin));
  const start = (paging.page - 1) * paging.size;
  return { content: rows.slice(start, start + paging.size), total: rows.length };
}

export async function addLeakRule(db: Db, userId: number, form: LeakRuleForm): Promise<LeakRuleRow> {
  const nameProblem = validateName(form.name);
  if (nameProblem) throw new UserError(nameProblem, 'invalid', { field: 'name' });
  if (BUILTIN_LEAK_RULES.some((r) => r.name.toLowerCase() === form.name.trim().toLowerCase())) {
    throw new UserError(LEAK_RULE_MSG.builtinName(form.name), 'conflict', { field: 'name' });
  }
  const ignoreCase = form.ignoreCase ?? false;
  const patternProblem = leakPatternProblem(form.pattern, ignoreCase);
  if (patternProblem) throw new UserError(patternProblem, 'invalid', { field: 'pattern' });
  const id = await inTransaction(db, async (trx) => {
    if (await leakRuleNamed(trx, form.name)) throw new UserError(LEAK_RULE_MSG.duplicate(form.name), 'conflict', { field: 'name' });
    const added = await insertLeakRule(trx, { name: form.name, type: form.type, pattern: form.pattern, ignoreCase, enabled: form.enabled ?? true, userId });
    await audit(trx, { userId, action: 'leakRule.added', detail: { id: added, name: form.name, type: form.type, pattern: form.pattern } });
    return added;
  });
  return userRow((await findLeakRule(db, id))!);
}

export async function removeLeakRule(db: Db, userId: number, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const record = await findLeakRule(trx, id);
    if (!record) throw new UserError(LEAK_RULE_MSG.notFound, 'not-found');
    await deleteLeakRule(trx, id);
    await audit(trx, { userId, action: 'leakRule.deleted', detail: { id, name: record.name } });
  });
}

/** Turns a rule on or off by its key (builtin:<name>, user:<id>). */
export async function enableLeakRule(db: Db, userId: number, key: string, enabled: boolean): Promise<LeakRuleRow> {
  const builtin = BUILTIN_LEAK_RULES.find((r) => r.key === key);
  if (builtin) {
    await inTransaction(db, async (trx) => {
      const disabled = new Set(await disabledBuiltinLeakRules(trx));
      if (enabled) disabled.delete(key);
      else disabled.add(key);
      await setDisabledBuiltinLeakRules(trx, [...disabled]);
      await audit(trx, { userId, action: 'leakRule.enabled', detail: { key, name: builtin.name, enabled } });
    });
    return (await allRules(db)).find((r) => r.key === key)!;
  }
  const id = /^user:(\d{1,9})$/.exec(key)?.[1];
  const record = id ? await findLeakRule(db, Number(id)) : undefined;
  if (!record) throw new UserError(LEAK_RULE_MSG.notFound, 'not-found');
  await inTransaction(db, async (trx) => {
    await setLeakRuleEnabled(trx, record.id, enabled);
    await audit(trx, { userId, action: 'leakRule.enabled', detail: { key, name: record.name, enabled } });
  });
  return userRow((await findLeakRule(db, record.id))!);
}

/**
 * The rules an analysis starting now uses: the enabled administrators' rules that still pass the
 * checks (a rule stored by an older version is checked again), and the built-ins turned off.
 */
export async function analysisLeakOptions(db: Db): Promise<AnalyzerOptions> {
  const leakRules = (await leakRuleRecords(db))
    .filter((r) => r.enabled && leakPatternProblem(r.pattern, !!r.ignore_case) === null)
    .map((r) => ({ key: userKey(r.id), name: r.name, type: r.type as LeakType, pattern: r.pattern, ignoreCase: !!r.ignore_case }));
  return { leakRules, disabledLeakRules: await disabledBuiltinLeakRules(db) };
}
