// Login sessions. The cookie carries a random token; the table holds only its digest.
import type { Kysely } from 'kysely';
import { digestToken, randomToken } from '../../auth/tokens.ts';
import { prepared } from '../prepared.ts';
import type { Database } from '../schema.ts';
import { grantFromColumns, type Grant } from './roles.ts';
import { minutesFromNow, nowIso } from '../time.ts';

export interface ActiveSession {
  id: string;
  userId: number;
  lastSeenAt: string;
}

/**
 * Starts a session and returns the raw token for the cookie (never stored). `personalTokenId`: the
 * personal token that opened it (its calls go to the open-API log; deleting the token ends it).
 */
export async function createSession(db: Kysely<Database>, userId: number, ttlMinutes: number, personalTokenId: number | null = null): Promise<string> {
  const token = randomToken();
  const now = nowIso();
  await db.insertInto('sessions').values({
    id: digestToken(token),
    user_id: userId,
    created_at: now,
    last_seen_at: now,
    expires_at: minutesFromNow(ttlMinutes),
    personal_token_id: personalTokenId,
  }).execute();
  return token;
}

export async function findActiveSession(db: Kysely<Database>, token: string): Promise<ActiveSession | undefined> {
  const row = await db.selectFrom('sessions')
    .select(['id', 'user_id', 'last_seen_at'])
    .where('id', '=', digestToken(token))
    .where('expires_at', '>', nowIso())
    .executeTakeFirst();
  return row && { id: row.id, userId: row.user_id, lastSeenAt: row.last_seen_at };
}

/** What the per-request guard needs to know about a session's user, read in one statement. */
export interface SessionAccess extends ActiveSession {
  updatedPwd: boolean;
  /** An administrator's lock (users.is_lock 'Y'). */
  lockedByAdmin: boolean;
  /** What the user was granted at their last login; null when no login took a snapshot yet. */
  grant: Grant | null;
  /** The personal token that opened the session (null: a password login) and when it expires (null: never). */
  personalTokenId: number | null;
  tokenExpiresAt: string | null;
}

/**
 * The live session of a cookie token with its user's lock, password-change flag and the grant of
 * their last login: one round trip per request, read afresh each time, so a logout or an
 * administrator's lock takes effect on the very next request, and a role change at the next login.
 */
export async function findSessionAccess(db: Kysely<Database>, token: string): Promise<SessionAccess | undefined> {
  const row = await db.selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('personal_tokens', 'personal_tokens.id', 'sessions.personal_token_id')
    .modifyFront(prepared)
    .select([
      'sessions.id', 'sessions.user_id', 'sessions.last_seen_at', 'users.updated_pwd', 'users.is_lock',
      'sessions.personal_token_id', 'personal_tokens.expires_at as token_expires_at',
      'users.granted_permissions', 'users.granted_data_permission',
    ])
    .where('sessions.id', '=', digestToken(token))
    .where('sessions.expires_at', '>', nowIso())
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    lastSeenAt: row.last_seen_at,
    updatedPwd: Boolean(row.updated_pwd),
    lockedByAdmin: row.is_lock === 'Y',
    grant: grantFromColumns(row.granted_permissions, row.granted_data_permission),
    personalTokenId: row.personal_token_id,
    tokenExpiresAt: row.token_expires_at,
  };
}

/** Idle expiry: each use pushes the end of the session TTL minutes further. */
export async function touchSession(db: Kysely<Database>, id: string, ttlMinutes: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: nowIso(), expires_at: minutesFromNow(ttlMinutes) }).where('id', '=', id).execute();
}

export async function deleteSessionByToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', digestToken(token)).execute();
}

/** Ends every session of the user; how many there were. */
export async function deleteUserSessions(db: Kysely<Database>, userId: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso()).execute();
}

/**
 * A new session timeout for the sessions already open: each ends `ttlMinutes` after it was last
 * seen (sooner than it would have for a shorter timeout, later for a longer one).
 */
export async function rebaseSessionExpiry(db: Kysely<Database>, ttlMinutes: number): Promise<number> {
  const open = await db.selectFrom('sessions').select(['id', 'last_seen_at']).where('expires_at', '>', nowIso()).execute();
  for (const session of open) {
    const expiresAt = new Date(Date.parse(session.last_seen_at) + ttlMinutes * 60_000).toISOString();
    await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', session.id).execute();
  }
  return open.length;
}

/** Ends every session a personal token opened (it was switched off or deleted); how many there were. */
export async function deleteTokenSessions(db: Kysely<Database>, personalTokenId: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('personal_token_id', '=', personalTokenId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
