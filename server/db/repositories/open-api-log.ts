// The open-API log (开放接口日志): one row per call made in a token-opened session, written in
// batches by services/open-api-log.ts, read newest first with filters, pruned by age and count.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Page } from '../../../contract/api/kit.ts';
import type { OpenApiLogQuery } from '../../../contract/api/open-api-log.ts';
import { likePattern } from '../like.ts';
import type { OpenApiLogTable } from '../schema.ts';
import type { Db } from '../transaction.ts';
import type { Paging } from './vulnerabilities.ts';

export type OpenApiLogEntry = Insertable<OpenApiLogTable>;
export type OpenApiLogRecord = Selectable<OpenApiLogTable>;

export async function insertOpenApiLog(db: Db, entries: OpenApiLogEntry[]): Promise<void> {
  if (entries.length) await db.insertInto('open_api_log').values(entries).execute();
}

/** The usernames and token names of a batch's callers, by id (a token deleted meanwhile is missing). */
export async function callerNames(db: Db, userIds: number[], tokenIds: number[]): Promise<{ users: Map<number, string>; tokens: Map<number, string> }> {
  const users = userIds.length ? await db.selectFrom('users').select(['id', 'username']).where('id', 'in', userIds).execute() : [];
  const tokens = tokenIds.length ? await db.selectFrom('personal_tokens').select(['id', 'name']).where('id', 'in', tokenIds).execute() : [];
  return { users: new Map(users.map((u) => [u.id, u.username])), tokens: new Map(tokens.map((t) => [t.id, t.name])) };
}

/** The filter with its times already checked and normalised to ISO-8601 UTC. */
type OpenApiLogFilter = Omit<OpenApiLogQuery, 'page' | 'size'>;

export async function listOpenApiLog(db: Db, filter: OpenApiLogFilter, paging: Paging): Promise<Page<OpenApiLogRecord>> {
  let query = db.selectFrom('open_api_log');
  const contains = (column: 'username' | 'token_name' | 'path', text: string | undefined) => {
    const value = text?.trim();
    if (value) query = query.where(sql<string>`lower(${sql.ref(column)})`, 'like', sql<string>`${likePattern(value)} escape '\\'`);
  };
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.tokenId !== undefined) query = query.where('token_id', '=', filter.tokenId);
  contains('username', filter.username);
  contains('token_name', filter.tokenName);
  contains('path', filter.path);
  if (filter.callName?.trim()) query = query.where('call_name', '=', filter.callName.trim());
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.outcome === 'success') {
    query = query.where('status', '<', 400).where((eb) => eb.or([eb('result_code', 'is', null), eb('result_code', '=', 1)]));
  } else if (filter.outcome === 'failure') {
    query = query.where((eb) => eb.or([eb('status', '>=', 400), eb('result_code', '<>', 1)]));
  }
  if (filter.from) query = query.where('at', '>=', filter.from);
  if (filter.to) query = query.where('at', '<=', filter.to);

  const total = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query.selectAll()
    .orderBy('at', 'desc').orderBy('id', 'desc')
    .limit(paging.size).offset((paging.page - 1) * paging.size)
    .execute();
  return { content: rows, total: Number(total?.n ?? 0) };
}

/** Removes rows older than `cutoff` and all but the newest `maxRows`; how many went. */
export async function pruneOpenApiLog(db: Db, cutoff: string, maxRows: number): Promise<number> {
  const old = await db.deleteFrom('open_api_log').where('at', '<', cutoff).executeTakeFirst();
  let removed = Number(old.numDeletedRows);
  // Ids grow with time within a process and nearly so across processes: the count bound goes by id.
  const edge = await db.selectFrom('open_api_log').select('id').orderBy('id', 'desc').limit(1).offset(maxRows).executeTakeFirst();
  if (edge) {
    const extra = await db.deleteFrom('open_api_log').where('id', '<=', edge.id).executeTakeFirst();
    removed += Number(extra.numDeletedRows);
  }
  return removed;
}
