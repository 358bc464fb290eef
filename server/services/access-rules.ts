// 安全管控 IP rules (/system/securityControl, /api/system/access/*): add, edit (also how a rule is
// turned on or off) and delete, each checked, then checked against the lock-out guard — the rule set
// as it would be after the command must still let the acting administrator in from the address they
// are calling from — and written with its audit row in one transaction. The decision itself and the
// cache the guard reads are auth/access-rules.ts's; the cache is dropped once a command committed.
import { ACCESS_ACTION_LABEL, ACCESS_SCOPE, type AccessRuleForm, type AccessRuleRow } from '../../contract/api/access.ts';
import { validateDescription } from '../../contract/validation.ts';
import { decideAccess, displayAddress, invalidateAccessRules, parseRuleAddress, toAccessRule, type AccessRule } from '../auth/access-rules.ts';
import {
  accessRuleRecords, accessRuleRow, deleteAccessRule, existingUserIds, findAccessRule, insertAccessRule, updateAccessRule,
  type AccessRuleRecord, type AccessRuleValues,
} from '../db/repositories/access-rules.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { inTransaction, type Db, type Trx } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

export const ACCESS_RULE_MSG = {
  notFound: 'IP 访问规则不存在',
  usersRequired: '请选择规则适用的用户',
  unknownUsers: (ids: number[]) => `用户不存在（ID：${ids.join('、')}）`,
  duplicate: (action: string, address: string) => `已有相同的${action}规则：${address}`,
  lockOutDenied: (ip: string, address: string) => `保存后您当前的地址 ${ip} 会被拒绝规则 ${address} 拦截，您将无法访问平台，未保存`,
  lockOutNotAllowed: (ip: string) => `保存后您当前的地址 ${ip} 不在任何允许规则内，您将无法访问平台，未保存；请先添加允许该地址的规则`,
};

/** Who acts, and from where (the lock-out guard and the audit row). */
export interface Actor {
  userId: number;
  ip: string;
}

/** A rule as its audit row records it: the named users by username. */
const auditView = (r: { address: string; action: string; scope: string; enabled: boolean; remark: string }, usernames: string[]) =>
  ({ address: r.address, action: r.action, scope: r.scope, users: usernames, enabled: r.enabled, remark: r.remark });

/** The form checked and made canonical, or a UserError naming the field. */
async function checkedValues(db: Db, form: AccessRuleForm): Promise<AccessRuleValues> {
  const parsed = parseRuleAddress(form.address);
  if ('problem' in parsed) throw new UserError(parsed.problem, 'invalid', { field: 'address' });
  const remark = form.remark?.trim() ?? '';
  const remarkProblem = validateDescription(remark);
  if (remarkProblem) throw new UserError(remarkProblem, 'invalid', { field: 'remark' });
  let userIds: number[] = [];
  if (form.scope === ACCESS_SCOPE.USERS) {
    userIds = [...new Set(form.userIds ?? [])].sort((a, b) => a - b);
    if (!userIds.length) throw new UserError(ACCESS_RULE_MSG.usersRequired, 'invalid', { field: 'userIds' });
    const known = await existingUserIds(db, userIds);
    const unknown = userIds.filter((id) => !known.has(id));
    if (unknown.length) throw new UserError(ACCESS_RULE_MSG.unknownUsers(unknown), 'invalid', { field: 'userIds' });
  }
  return { address: parsed.canonical, action: form.action, scope: form.scope, enabled: form.enabled ?? true, remark, userIds };
}

const sameRule = (a: AccessRuleValues, b: AccessRuleRecord) =>
  a.address === b.address && a.action === b.action && a.scope === b.scope && a.userIds.join(',') === [...b.userIds].sort((x, y) => x - y).join(',');

/**
 * The lock-out guard: refuses (nothing is written, the transaction rolls back) when the rules as they
 * would stand refuse the acting administrator at their current address.
 */
function guardLockOut(rules: AccessRule[], actor: Actor): void {
  const decision = decideAccess(rules, actor.userId, actor.ip);
  if (decision.allowed) return;
  const ip = displayAddress(actor.ip);
  throw new UserError(decision.deniedBy ? ACCESS_RULE_MSG.lockOutDenied(ip, decision.deniedBy.address) : ACCESS_RULE_MSG.lockOutNotAllowed(ip));
}

const asRules = (records: Array<{ id: number; address: string; action: AccessRuleValues['action']; scope: string; userIds: readonly number[]; enabled: boolean }>) =>
  records.map(toAccessRule).filter((r): r is AccessRule => r !== undefined);

const usernamesOf = (record: AccessRuleRecord) => record.users.map((u) => u.username);

/** Runs a rule command in a transaction, then drops the cached rules of this process. */
async function command<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  const result = await inTransaction(db, work);
  invalidateAccessRules(db);
  return result;
}

export async function addAccessRule(db: Db, actor: Actor, form: AccessRuleForm): Promise<AccessRuleRow> {
  const values = await checkedValues(db, form);
  const id = await command(db, async (trx) => {
    const current = await accessRuleRecords(trx);
    const twin = current.find((r) => sameRule(values, r));
    if (twin) throw new UserError(ACCESS_RULE_MSG.duplicate(ACCESS_ACTION_LABEL[values.action], values.address), 'conflict', { field: 'address' });
    guardLockOut(asRules([...current, { id: 0, ...values }]), actor);
    const added = await insertAccessRule(trx, values, actor.userId);
    const record = (await findAccessRule(trx, added))!;
    await audit(trx, { userId: actor.userId, action: 'accessRule.added', detail: { id: added, after: auditView(record, usernamesOf(record)), ip: actor.ip } });
    return added;
  });
  return accessRuleRow((await findAccessRule(db, id))!);
}

export async function editAccessRule(db: Db, actor: Actor, id: number, form: AccessRuleForm): Promise<AccessRuleRow> {
  const values = await checkedValues(db, form);
  await command(db, async (trx) => {
    const current = await accessRuleRecords(trx);
    const before = current.find((r) => r.id === id);
    if (!before) throw new UserError(ACCESS_RULE_MSG.notFound, 'not-found');
    const twin = current.find((r) => r.id !== id && sameRule(values, r));
    if (twin) throw new UserError(ACCESS_RULE_MSG.duplicate(ACCESS_ACTION_LABEL[values.action], values.address), 'conflict', { field: 'address' });
    guardLockOut(asRules(current.map((r) => (r.id === id ? { id, ...values } : r))), actor);
    await updateAccessRule(trx, id, values);
    const after = (await findAccessRule(trx, id))!;
    await audit(trx, {
      userId: actor.userId,
      action: 'accessRule.modified',
      detail: { id, before: auditView(before, usernamesOf(before)), after: auditView(after, usernamesOf(after)), ip: actor.ip },
    });
  });
  return accessRuleRow((await findAccessRule(db, id))!);
}

export async function removeAccessRule(db: Db, actor: Actor, id: number): Promise<void> {
  await command(db, async (trx) => {
    const current = await accessRuleRecords(trx);
    const before = current.find((r) => r.id === id);
    if (!before) throw new UserError(ACCESS_RULE_MSG.notFound, 'not-found');
    guardLockOut(asRules(current.filter((r) => r.id !== id)), actor);
    await deleteAccessRule(trx, id);
    await audit(trx, { userId: actor.userId, action: 'accessRule.deleted', detail: { id, before: auditView(before, usernamesOf(before)), ip: actor.ip } });
  });
}

/**
 * `cairn access disable`: the way back in for administrators shut out by the IP rules (their
 * address changed, a proxy was added), without a running platform or an administrator. Turns off
 * the rules of `ids` (or every enabled rule), audited with no user; a running platform sees it
 * within ACCESS_RULES_CACHE_MS. The rules disabled, by address; unknown ids are refused.
 */
export async function disableAccessRulesByCli(db: Db, ids: number[] | 'all'): Promise<AccessRuleRecord[]> {
  const changed = await command(db, async (trx) => {
    const current = await accessRuleRecords(trx);
    if (ids !== 'all') {
      const unknown = ids.filter((id) => !current.some((r) => r.id === id));
      if (unknown.length) throw new UserError(`${ACCESS_RULE_MSG.notFound}（ID：${unknown.join('、')}）`, 'not-found');
    }
    const doomed = current.filter((r) => r.enabled && (ids === 'all' || ids.includes(r.id)));
    for (const r of doomed) await updateAccessRule(trx, r.id, { address: r.address, action: r.action, scope: r.scope, enabled: false, remark: r.remark, userIds: r.userIds });
    if (doomed.length) {
      await audit(trx, { userId: null, action: 'accessRule.disabled.cli', detail: { rules: doomed.map((r) => ({ id: r.id, address: r.address, action: r.action })) } });
    }
    return doomed;
  });
  return changed;
}
