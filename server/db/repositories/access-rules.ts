// 安全管控 IP rules (access_rules, access_rule_users; migration 0024). A platform has a handful of
// them, all read at once: the decision (auth/access-rules.ts) reads every rule every few seconds,
// and the list filters and pages in memory.
import type { Kysely, Selectable } from 'kysely';
import type { AccessAction, AccessRuleFilter, AccessRuleRow, AccessScope } from '../../../contract/api/access.ts';
import type { Page } from '../../../contract/api/kit.ts';
import type { AccessRulesTable, Database } from '../schema.ts';
import { nowIso } from '../time.ts';
import type { Paging } from './vulnerabilities.ts';

type Db = Kysely<Database>;

export interface AccessRuleRecord {
  id: number;
  address: string;
  action: AccessAction;
  scope: AccessScope;
  enabled: boolean;
  remark: string;
  creator: string | null;
  createdAt: string;
  updatedAt: string;
  /** The named users, by username; empty for a rule for all users. */
  users: Array<{ userId: number; username: string; name: string }>;
  userIds: number[];
}

export interface AccessRuleValues {
  address: string;
  action: AccessAction;
  scope: AccessScope;
  enabled: boolean;
  remark: string;
  /** The named users (a USERS rule); [] for ALL. */
  userIds: readonly number[];
}

function toRecord(row: Selectable<AccessRulesTable> & { creator: string | null }, users: AccessRuleRecord['users']): AccessRuleRecord {
  return {
    id: row.id,
    address: row.address,
    action: row.action,
    scope: row.applies_to,
    enabled: Boolean(row.enabled),
    remark: row.remark,
    creator: row.creator,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    users,
    userIds: users.map((u) => u.userId),
  };
}

/** Every rule (or the one of `id`) with its named users, oldest first. */
async function records(db: Db, id?: number): Promise<AccessRuleRecord[]> {
  let rules = db.selectFrom('access_rules as r').leftJoin('users as u', 'u.id', 'r.created_by').selectAll('r').select('u.name as creator');
  let named = db.selectFrom('access_rule_users as a').innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.rule_id', 'u.id as userId', 'u.username', 'u.name']);
  if (id !== undefined) {
    rules = rules.where('r.id', '=', id);
    named = named.where('a.rule_id', '=', id);
  }
  // One after the other: inside a transaction both run on its one connection.
  const rows = await rules.orderBy('r.id').execute();
  const users = await named.orderBy('u.username').execute();
  const byRule = new Map<number, AccessRuleRecord['users']>();
  for (const u of users) {
    const list = byRule.get(u.rule_id) ?? [];
    list.push({ userId: u.userId, username: u.username, name: u.name });
    byRule.set(u.rule_id, list);
  }
  return rows.map((row) => toRecord(row, byRule.get(row.id) ?? []));
}

export const accessRuleRecords = (db: Db): Promise<AccessRuleRecord[]> => records(db);

export async function findAccessRule(db: Db, id: number): Promise<AccessRuleRecord | undefined> {
  return (await records(db, id))[0];
}

export const accessRuleRow = (r: AccessRuleRecord): AccessRuleRow => ({
  id: r.id, address: r.address, action: r.action, scope: r.scope, users: r.users, enabled: r.enabled,
  remark: r.remark, createdBy: r.creator, createdAt: r.createdAt, updatedAt: r.updatedAt,
});

/** The list: newest first, filtered by keyword (address, remark, a named user), action and state. */
export async function listAccessRules(db: Db, filter: AccessRuleFilter, paging: Paging): Promise<Page<AccessRuleRow>> {
  const keyword = filter.keyword?.trim().toLowerCase();
  const rows = (await records(db)).reverse().filter((r) => (!keyword
    || r.address.toLowerCase().includes(keyword)
    || r.remark.toLowerCase().includes(keyword)
    || r.users.some((u) => u.username.toLowerCase().includes(keyword) || u.name.toLowerCase().includes(keyword)))
    && (filter.action === undefined || r.action === filter.action)
    && (filter.enabled === undefined || r.enabled === filter.enabled));
  const start = (paging.page - 1) * paging.size;
  return { content: rows.slice(start, start + paging.size).map(accessRuleRow), total: rows.length };
}

/** The ids among `ids` that name an existing user. */
export async function existingUserIds(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

async function setUsers(db: Db, ruleId: number, userIds: readonly number[]): Promise<void> {
  await db.deleteFrom('access_rule_users').where('rule_id', '=', ruleId).execute();
  if (userIds.length) await db.insertInto('access_rule_users').values(userIds.map((user_id) => ({ rule_id: ruleId, user_id }))).execute();
}

export async function insertAccessRule(db: Db, values: AccessRuleValues, createdBy: number): Promise<number> {
  const now = nowIso();
  const row = await db.insertInto('access_rules').values({
    address: values.address, action: values.action, applies_to: values.scope, enabled: values.enabled ? 1 : 0,
    remark: values.remark, created_by: createdBy, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  await setUsers(db, row.id, values.userIds);
  return row.id;
}

export async function updateAccessRule(db: Db, id: number, values: AccessRuleValues): Promise<void> {
  await db.updateTable('access_rules').set({
    address: values.address, action: values.action, applies_to: values.scope, enabled: values.enabled ? 1 : 0,
    remark: values.remark, updated_at: nowIso(),
  }).where('id', '=', id).execute();
  await setUsers(db, id, values.userIds);
}

export async function deleteAccessRule(db: Db, id: number): Promise<void> {
  await db.deleteFrom('access_rules').where('id', '=', id).execute();
}
