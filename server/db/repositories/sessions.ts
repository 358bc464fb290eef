// Login sessions. The cookie carries a random token; the table holds only its digest.
import type { Kysely } from 'kysely';
import { digestToken, randomToken } from '../../auth/tokens.ts';
import type { Database } from '../schema.ts';
import { minutesFromNow, nowIso } from '../time.ts';

export interface ActiveSession {
  id: string;
  userId: number;
  lastSeenAt: string;
}

/** Starts a session and returns the raw token for the cookie (never stored). */
export async function createSession(db: Kysely<Database>, userId: number, ttlMinutes: number): Promise<string> {
  const token = randomToken();
  const now = nowIso();
  await db.insertInto('sessions').values({
    id: digestToken(token),
    user_id: userId,
    created_at: now,
    last_seen_at: now,
    expires_at: minutesFromNow(ttlMinutes),
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
