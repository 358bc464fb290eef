// Migration names are what Kysely records in each database, and an installed database is
// refused unless every name it recorded is still registered, in the same order. SHIPPED is the
// list the single-file server/db/migrations.ts registered (and so recorded) before the
// migrations moved to one file each: it must stay the start of the registry, letter for letter.
import fs from 'node:fs';
import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/connect.ts';
import { migrateToLatest, migrationsFor } from '../../../server/db/migrations/index.ts';
import { databases, type TestDatabase } from './harness.ts';

const SHIPPED = [
  '0001_foundation',
  '0002_knowledge_base',
  '0003_knowledge_base_list_order',
  '0004_license_catalogue',
  '0005_projects',
  '0006_reports',
  '0007_history_risks',
];

const folder = new URL('../../../server/db/migrations/', import.meta.url);
/** Files of the folder that are not migrations. */
const HELPERS = ['columns.ts', 'index.ts'];

describe('migration registry', () => {
  const names = Object.keys(migrationsFor('sqlite'));

  it('keeps the names shipped databases recorded, first and in the same order', () => {
    expect(names.slice(0, SHIPPED.length)).toEqual(SHIPPED);
    expect(Object.keys(migrationsFor('postgres'))).toEqual(names);
  });

  it('registers each NNNN_name.ts file of server/db/migrations under its file name, in number order', () => {
    const files = fs.readdirSync(folder).filter((f) => !HELPERS.includes(f)).sort();
    for (const file of files) expect(file).toMatch(/^\d{4}_[a-z0-9_]+\.ts$/);
    expect(names).toEqual(files.map((f) => f.replace(/\.ts$/, '')));
    // Numbered 0001, 0002, ... without gaps or repeats: Kysely runs them sorted by name.
    expect(names.map((n) => Number(n.slice(0, 4)))).toEqual(names.map((_, i) => i + 1));
  });
});

type Recorded = Array<{ name: string; timestamp: unknown }>;
const recorded = async (db: Kysely<any>): Promise<Recorded> =>
  (await sql<{ name: string; timestamp: unknown }>`select name, timestamp from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db)).rows;

describe.each(databases)('migrations on $name', (database: TestDatabase) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  const open = async () => {
    const { config, drop } = await database.create();
    const handle = openDatabase(config);
    cleanup = async () => {
      await handle.db.destroy();
      await drop();
    };
    return { db: handle.db as Kysely<any>, kind: handle.kind };
  };

  it('records the shipped names, and a second migrateToLatest on that database runs nothing', async () => {
    const { db, kind } = await open();
    await migrateToLatest(db, kind);
    const first = await recorded(db);
    expect(first.map((r) => r.name)).toEqual(Object.keys(migrationsFor(kind)));
    expect(first.map((r) => r.name).slice(0, SHIPPED.length)).toEqual(SHIPPED);

    await migrateToLatest(db, kind);
    const again = await new Migrator({ db, provider: { getMigrations: async () => migrationsFor(kind) } }).migrateToLatest();
    expect(again.error).toBeUndefined();
    expect(again.results).toEqual([]);
    expect(await recorded(db)).toEqual(first);
  });

  it('brings a database of an earlier release up to date by running only the later migrations', async () => {
    const { db, kind } = await open();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(kind) } });
    expect((await migrator.migrateTo('0005_projects')).error).toBeUndefined();
    const earlier = await recorded(db);
    expect(earlier.map((r) => r.name)).toEqual(SHIPPED.slice(0, 5));

    const { error, results } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    const later = Object.keys(migrationsFor(kind)).slice(5);
    expect(results).toEqual(later.map((migrationName) => ({ migrationName, direction: 'Up', status: 'Success' })));
    expect((await recorded(db)).slice(0, 5)).toEqual(earlier);
  });

  it('refuses a database that recorded a name no longer registered, which is why names never change', async () => {
    const { db, kind } = await open();
    await migrateToLatest(db, kind);
    await sql`update ${sql.table(DEFAULT_MIGRATION_TABLE)} set name = '0002_kb' where name = '0002_knowledge_base'`.execute(db);
    await expect(migrateToLatest(db, kind)).rejects.toThrow('数据库迁移失败');
  });
});
