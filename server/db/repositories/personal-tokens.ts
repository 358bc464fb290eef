// Personal access tokens for open-API users (POST /api/token/login?key=).
import type { Kysely } from 'kysely';
import { digestToken, randomToken } from '../../auth/tokens.ts';
import type { Database } from '../schema.ts';
import { nowIso } from '../time.ts';

/** Issues a token and returns it once; only its digest is kept. */
export async function createPersonalToken(
  db: Kysely<Database>,
  token: { userId: number; name: string; expiresAt: string | null },
): Promise<string> {
  const raw = randomToken();
  await db.insertInto('personal_tokens').values({
    user_id: token.userId,
    name: token.name,
    token_hash: digestToken(raw),
    expires_at: token.expiresAt,
    created_at: nowIso(),
  }).execute();
  return raw;
}

/** The owner of a valid, unexpired token. */
export async function findTokenOwner(db: Kysely<Database>, raw: string): Promise<number | undefined> {
  const row = await db.selectFrom('personal_tokens')
    .select('user_id')
    .where('token_hash', '=', digestToken(raw))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso())]))
    .executeTakeFirst();
  return row?.user_id;
}
