// Key/value settings holding JSON (password policy, server secrets, later the system settings).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function getSetting<T>(db: Kysely<Database>, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : undefined;
}

export async function putSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await db.insertInto('settings').values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
    .execute();
}

/** Stores `value` unless the key exists, then returns what is stored: safe when servers start together. */
export async function ensureSetting<T>(db: Kysely<Database>, key: string, value: T): Promise<T> {
  await db.insertInto('settings').values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getSetting<T>(db, key)) as T;
}
