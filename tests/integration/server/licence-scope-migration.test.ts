// Migration 0011 on SQLite and PostgreSQL: a database of the earlier release holding a run whose
// licences were all counted as the project's gets each licence found in a file classified by the
// scope rule (engine/analyzers/license-scope.ts) — fixture texts, licence databases and data files
// apart, the project's files, notices atop data files and component declarations kept — and the
// new outbound-licence columns, empty for runs analysed before.
import { Migrator, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/auth/password.ts';
import { openDatabase } from '../../../server/db/connect.ts';
import { migrationsFor } from '../../../server/db/migrations/index.ts';
import type { Database } from '../../../server/db/schema.ts';
import { createUser } from '../../../server/db/repositories/users.ts';
import { seedRun } from './fixtures/seed-run.ts';
import { databases, type TestDatabase } from './harness.ts';

describe.each(databases)('licence scope migration on $name', (database: TestDatabase) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('classifies the licences earlier runs found in files', async () => {
    const { config, drop } = await database.create();
    const handle = openDatabase(config);
    cleanup = async () => {
      await handle.db.destroy();
      await drop();
    };
    const db = handle.db as Kysely<Database>;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(handle.kind) } });
    expect((await migrator.migrateTo('0010_knowledge_base_list_indexes')).error).toBeUndefined();

    const ownerId = await createUser(db, { username: 'owner', name: 'owner', passwordHash: await hashPassword('Owner@12345'), roleCodes: [], updatedPwd: true });
    const { runId } = await seedRun(db, { ownerId, before0011: true });
    const found = (file: string, spdx_id: string, source: string) => ({ run_id: runId, component_id: null, file, spdx_id, source, score: 0.99, start_line: 1, end_line: 600 });
    await (db as Kysely<any>).insertInto('run_licenses').values([
      found('test/fixtures/licenses/agpl-3.0.txt', 'AGPL-3.0-only', 'text'),
      found('vendor/choosealicense.com/_licenses/gpl-3.0.txt', 'GPL-3.0-only', 'text'),
      found('data/licenses.json', 'SSPL-1.0', 'reference'),
      found('src/main/resources/beans.xml', 'Apache-2.0', 'header'),
    ]).execute();

    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    const rows = await db.selectFrom('run_licenses').select(['file', 'spdx_id', 'component_id', 'scope']).where('run_id', '=', runId).execute();
    const scopeOf = (file: string, spdx: string) => rows.find((r) => r.file === file && r.spdx_id === spdx)?.scope;
    expect(scopeOf('test/fixtures/licenses/agpl-3.0.txt', 'AGPL-3.0-only')).toBe('test');
    expect(scopeOf('vendor/choosealicense.com/_licenses/gpl-3.0.txt', 'GPL-3.0-only')).toBe('licence-data');
    expect(scopeOf('data/licenses.json', 'SSPL-1.0')).toBe('data');
    expect(scopeOf('src/main/resources/beans.xml', 'Apache-2.0')).toBe('project');
    expect(scopeOf('LICENSE', 'Apache-2.0')).toBe('project');
    expect(scopeOf('tools/viewer.py', 'GPL-3.0-only')).toBe('project');
    // Component declarations stay the project's.
    expect(rows.filter((r) => r.component_id !== null).every((r) => r.scope === 'project')).toBe(true);
    const run = await db.selectFrom('runs').select(['outbound_license', 'outbound_source', 'outbound_file']).where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run).toEqual({ outbound_license: 'Apache-2.0', outbound_source: null, outbound_file: null });
  });
});
