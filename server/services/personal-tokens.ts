// 令牌 commands and reads for the signed-in user's own tokens (contract/api/token.ts): each command
// checks its input, changes the row and writes its audit row (never the token, only its id, name
// and last characters) in one transaction. Another user's token is answered 令牌不存在, so its
// existence is not disclosed either.
import {
  MAX_TOKEN_DAYS, MAX_TOKENS_PER_USER, TOKEN_MSG, type AddToken, type PersonalTokenRow,
} from '../../contract/api/token.ts';
import type { Page } from '../../contract/api/kit.ts';
import { validateName } from '../../contract/validation.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  deleteUserToken, findUserToken, issuePersonalToken, updateUserToken, userTokens, type PersonalTokenRecord,
} from '../db/repositories/personal-tokens.ts';
import { deleteTokenSessions } from '../db/repositories/sessions.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

/** Who is asking: the signed-in user, the token their session was opened with (if any), their address. */
export interface TokenCaller {
  userId: number;
  tokenId: number | null;
  ip: string;
}

function tokenRow(r: PersonalTokenRecord, now = Date.now()): PersonalTokenRow {
  return {
    id: r.id,
    name: r.name,
    hint: r.token_hint ? `…${r.token_hint}` : null,
    enabled: Boolean(r.enabled),
    expiresAt: r.expires_at,
    expired: r.expires_at !== null && Date.parse(r.expires_at) <= now,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    lastUsedIp: r.last_used_ip,
  };
}

/** The caller's tokens whose name holds `keyword` (case-insensitive, any script), newest first. */
export async function listTokens(db: Db, userId: number, keyword: string | undefined, paging: { page: number; size: number }): Promise<Page<PersonalTokenRow>> {
  const needle = keyword?.trim().toLowerCase();
  const rows = (await userTokens(db, userId)).filter((r) => !needle || r.name.toLowerCase().includes(needle));
  return { content: rows.slice((paging.page - 1) * paging.size, paging.page * paging.size).map((r) => tokenRow(r)), total: rows.length };
}

/** A token session may not manage tokens: a leaked token must not mint, revive or rename others. */
function refuseTokenSession(caller: TokenCaller): void {
  if (caller.tokenId !== null) throw new UserError(TOKEN_MSG.tokenSession, 'denied');
}

function checkedName(name: string, others: PersonalTokenRecord[]): string {
  const problem = validateName(name);
  if (problem) throw new UserError(problem, 'invalid', { field: 'name' });
  if (others.some((o) => o.name.toLowerCase() === name.toLowerCase())) throw new UserError(TOKEN_MSG.duplicate(name), 'conflict', { field: 'name' });
  return name;
}

/** null or absent: never; otherwise a parseable time after now and at most MAX_TOKEN_DAYS away, as ISO-8601 UTC. */
function checkedExpiry(value: string | null | undefined, now = Date.now()): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  // A date-time with its zone, or a bare date (read as that day's end in UTC).
  const text = value.trim();
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T23:59:59.999Z`)
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new UserError(TOKEN_MSG.expiryInvalid, 'invalid', { field: 'expiresAt' });
  if (ms <= now) throw new UserError(TOKEN_MSG.expiryPast, 'invalid', { field: 'expiresAt' });
  if (ms > now + MAX_TOKEN_DAYS * 86_400_000) throw new UserError(TOKEN_MSG.expiryTooFar, 'invalid', { field: 'expiresAt' });
  return new Date(ms).toISOString();
}

/** Issues a token: its row and the token itself, which is never answered again. */
export async function addToken(db: Db, caller: TokenCaller, body: AddToken): Promise<PersonalTokenRow & { token: string }> {
  refuseTokenSession(caller);
  const expiresAt = checkedExpiry(body.expiresAt);
  return inTransaction(db, async (trx) => {
    const mine = await userTokens(trx, caller.userId);
    const name = checkedName(body.name, mine);
    if (mine.length >= MAX_TOKENS_PER_USER) throw new UserError(TOKEN_MSG.tooMany, 'conflict');
    const { id, raw } = await issuePersonalToken(trx, { userId: caller.userId, name, expiresAt });
    const record = (await findUserToken(trx, caller.userId, id))!;
    await audit(trx, { userId: caller.userId, action: 'personalToken.added', detail: { id, name, hint: record.token_hint, expiresAt, ip: caller.ip } });
    return { ...tokenRow(record), token: raw };
  });
}

/** Renames the token or switches it on or off; off ends every session it opened. */
export async function updateToken(db: Db, caller: TokenCaller, body: { id: number; name?: string; enabled?: boolean }): Promise<PersonalTokenRow> {
  refuseTokenSession(caller);
  if (body.name === undefined && body.enabled === undefined) throw new UserError(TOKEN_MSG.nothingToChange);
  return inTransaction(db, async (trx) => {
    const mine = await userTokens(trx, caller.userId);
    const record = mine.find((r) => r.id === body.id);
    if (!record) throw new UserError(TOKEN_MSG.notFound, 'not-found');
    const before = { name: record.name, enabled: Boolean(record.enabled) };
    const after = {
      name: body.name === undefined ? record.name : checkedName(body.name, mine.filter((r) => r.id !== record.id)),
      enabled: body.enabled ?? before.enabled,
    };
    await updateUserToken(trx, caller.userId, record.id, after);
    const ended = before.enabled && !after.enabled ? await deleteTokenSessions(trx, record.id) : 0;
    await audit(trx, { userId: caller.userId, action: 'personalToken.modified', detail: { id: record.id, before, after, ...(ended && { sessionsEnded: ended }), ip: caller.ip } });
    return tokenRow((await findUserToken(trx, caller.userId, record.id))!);
  });
}

/** Deletes the token and so ends the sessions it opened; the calls it made stay in the open-API log. */
export async function removeToken(db: Db, caller: TokenCaller, id: number): Promise<void> {
  refuseTokenSession(caller);
  await inTransaction(db, async (trx) => {
    const record = await findUserToken(trx, caller.userId, id);
    if (!record) throw new UserError(TOKEN_MSG.notFound, 'not-found');
    const ended = await deleteTokenSessions(trx, id);
    await deleteUserToken(trx, caller.userId, id);
    await audit(trx, { userId: caller.userId, action: 'personalToken.deleted', detail: { id, name: record.name, hint: record.token_hint, ...(ended && { sessionsEnded: ended }), ip: caller.ip } });
  });
}
