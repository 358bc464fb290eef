// Shared by the knowledge-base tests: a migrated database per test database kind, and a content
// hash of the kb tables to prove a re-import wrote nothing.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../../server/db/connect.ts';
import { migrateToLatest } from '../../../server/db/migrations/index.ts';
import type { Database } from '../../../server/db/schema.ts';
import { hasCommand } from '../../support/commands.ts';
import type { TestDatabase } from '../server/harness.ts';

export interface KbDatabase {
  db: Kysely<Database>;
  close(): Promise<void>;
}

export async function openKb(database: TestDatabase): Promise<KbDatabase> {
  const { config, drop } = await database.create();
  const { db, kind } = openDatabase(config);
  await migrateToLatest(db, kind);
  return {
    db,
    close: async () => {
      await db.destroy();
      await drop();
    },
  };
}

export async function tableCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const count = async (table: 'kb_advisories' | 'kb_aliases' | 'kb_affected' | 'kb_id_map') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    advisories: await count('kb_advisories'),
    aliases: await count('kb_aliases'),
    affected: await count('kb_affected'),
    idMap: await count('kb_id_map'),
  };
}

/** sha256 of every kb row (timestamps included: an untouched row keeps its updated_at). */
export async function contentHash(db: Kysely<Database>): Promise<string> {
  const hash = createHash('sha256');
  const advisories = await db.selectFrom('kb_advisories').selectAll().orderBy('advisory_id').execute();
  for (const row of advisories) hash.update(JSON.stringify(row));
  const aliases = await db.selectFrom('kb_aliases').selectAll().orderBy('advisory_pk').orderBy('alias').execute();
  for (const row of aliases) hash.update(JSON.stringify(row));
  const affected = await db.selectFrom('kb_affected').selectAll().orderBy('id').execute();
  for (const row of affected) hash.update(JSON.stringify(row));
  return hash.digest('hex');
}

export const hasZip = (): boolean => hasCommand('zip', '-v');

/** Builds a zip with the system `zip` (no zip writer is among the dependencies). */
export function makeZip(zipFile: string, cwd: string, entries: string[]): void {
  const result = spawnSync('zip', ['-q', '-r', zipFile, ...entries], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`zip failed: ${result.stderr}`);
}
