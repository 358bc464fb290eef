// The knowledge base as the CLI uses it: a SQLite file of its own, migrated on open. The kb
// tables only reference users through kb_import_records.user_id, which is nullable, so the
// migrations alone make a usable database (no seeding of users or roles needed).
import path from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrations/index.ts';
import type { Database } from '../db/schema.ts';

export async function openKnowledgeBase(file: string): Promise<{ db: Kysely<Database>; close(): Promise<void> }> {
  const { db, kind } = openDatabase({ kind: 'sqlite', file: path.resolve(file) });
  try {
    await migrateToLatest(db, kind);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, close: () => db.destroy() };
}
