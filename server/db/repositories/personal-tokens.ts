// Personal access tokens (令牌, /tokenManagement; POST /api/token/login?key=). The token itself is
// answered once when issued; the table keeps its sha256 digest and its last four characters. Every
// reader and writer but the login's takes the owner's id: one user's calls never reach another's.
import type { Kysely, Selectable } from 'kysely';
import { digestToken, randomToken } from '../../auth/tokens.ts';
import type { Database, PersonalTokensTable } from '../schema.ts';
import { nowIso } from '../time.ts';
import type { Db } from '../transaction.ts';

export type PersonalTokenRecord = Selectable<PersonalTokensTable>;

/** The token's last four characters, as the list shows them. */
const hintOf = (raw: string): string => raw.slice(-4);

/** Issues a token and returns it once with its row id; only its digest and last characters are kept. */
export async function createPersonalToken(
  db: Kysely<Database>,
  token: { userId: number; name: string; expiresAt: string | null },
): Promise<string> {
  return (await issuePersonalToken(db, token)).raw;
}

export async function issuePersonalToken(db: Db, token: { userId: number; name: string; expiresAt: string | null }): Promise<{ id: number; raw: string }> {
  const raw = randomToken();
  const row = await db.insertInto('personal_tokens').values({
    user_id: token.userId,
    name: token.name,
    token_hash: digestToken(raw),
    token_hint: hintOf(raw),
    expires_at: token.expiresAt,
    created_at: nowIso(),
  }).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, raw };
}

/** Every token of the user, newest first (a user holds a bounded number: MAX_TOKENS_PER_USER). */
export async function userTokens(db: Db, userId: number): Promise<PersonalTokenRecord[]> {
  return db.selectFrom('personal_tokens').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
}

/** One of the user's tokens; undefined when it does not exist or is someone else's. */
export async function findUserToken(db: Db, userId: number, id: number): Promise<PersonalTokenRecord | undefined> {
  return db.selectFrom('personal_tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function updateUserToken(db: Db, userId: number, id: number, values: { name: string; enabled: boolean }): Promise<void> {
  await db.updateTable('personal_tokens').set({ name: values.name, enabled: values.enabled ? 1 : 0 })
    .where('id', '=', id).where('user_id', '=', userId).execute();
}

/** Deletes the token; the sessions it opened go with it (sessions.personal_token_id cascades). */
export async function deleteUserToken(db: Db, userId: number, id: number): Promise<void> {
  await db.deleteFrom('personal_tokens').where('id', '=', id).where('user_id', '=', userId).execute();
}

/** What a token login needs to know of the token a key names, valid or not; undefined: no such token. */
export async function findTokenByKey(db: Db, raw: string): Promise<PersonalTokenRecord | undefined> {
  return db.selectFrom('personal_tokens').selectAll().where('token_hash', '=', digestToken(raw)).executeTakeFirst();
}

/** Records a use of the token (a login, or the newest call of a batch of the open-API log); never moves it back. */
export async function markTokenUsed(db: Db, id: number, at: string, ip: string): Promise<void> {
  await db.updateTable('personal_tokens').set({ last_used_at: at, last_used_ip: ip })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
    .execute();
}
