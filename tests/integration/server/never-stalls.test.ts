// Issue 13 "the API never stalls", as behaviour (the timings are bench/event-loop.bench.ts's and
// bench/kb-list.bench.ts's): an analysis is saved by a thread of its own, never by the HTTP
// process's module instances; on SQLite, another connection holding the write lock (as that
// thread's save transaction does) leaves the HTTP process answering reads at once and its writes
// waiting rather than failing; the vulnerability list counts and pages through indexes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as runResults from '../../../server/db/repositories/run-results.ts';
import { databases, type TestClient, type TestServer } from './harness.ts';
import { sampleAppZip, startSampleServer, uploadFile, waitForRun } from './sample-app.ts';

// Every save made in this process (the HTTP process) goes through this spy; a run's thread loads
// the module afresh, unseen by it.
vi.mock('../../../server/db/repositories/run-results.ts', async (original) => {
  const actual = await original<typeof runResults>();
  return { ...actual, writeRunResults: vi.fn(actual.writeRunResults) };
});

const work = mkdtempSync(path.join(tmpdir(), 'cairn-never-stalls-'));

describe.each(databases)('the API never stalls on %s', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let subjectId: number;

  beforeAll(async () => {
    ({ server, admin, subjectId } = await startSampleServer(database, '不阻塞测试应用'));
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  const launch = async (projectName: string) => {
    const uploadId = await uploadFile(admin, sampleAppZip(work));
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType: 0, uploadId, analysisModes: '1,4,7' } });
    expect(launched.body.code, launched.body.message).toBe(1);
    return launched.body.data.projectId as number;
  };

  it('analyses and saves a run in a thread of its own, not in the HTTP process', async () => {
    const projectId = await launch('thread-saved');
    const done = await waitForRun(admin, projectId);
    expect(done.status, done.message).toBe(2);
    const { db } = server.app.cairn;
    const components = await db.selectFrom('run_components').select('id').where('run_id', '=', done.taskId).execute();
    expect(components.length).toBeGreaterThan(3);
    expect(vi.mocked(runResults.writeRunResults)).not.toHaveBeenCalled();
  }, 120_000);

  it.runIf(database.name === 'sqlite')('answers reads while another connection holds the write lock, and its writes wait for it', async () => {
    const file = (server.database as { file: string }).file;
    const other = new SQLite(file);
    try {
      // What a run thread's save transaction does to the file.
      other.exec('begin immediate');
      // Reads answer at once: the task list (with the project analysed above), health, the vulnerability list.
      const list = await admin.request({ method: 'POST', url: '/api/project-task-view/list?page=1&size=15', body: { subjectId } });
      expect(list.body.code, list.body.message).toBe(1);
      expect(list.body.data.total).toBeGreaterThan(0);
      expect((await admin.request({ method: 'GET', url: '/api/health' })).status).toBe(200);
      const vulns = await admin.request({ method: 'POST', url: '/api/vulnerability/list?page=1&size=5', body: {} });
      expect(vulns.body.data.total).toBeGreaterThan(1000);
      // A write (a new subject) waits for the lock instead of failing as busy or blocking the loop …
      let created: { body: { code: number; message: string } } | undefined;
      const creating = admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '锁后创建', description: '', importance: 3 } })
        .then((reply) => { created = reply; });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(created).toBeUndefined();
      expect((await admin.request({ method: 'GET', url: '/api/health' })).status).toBe(200);
      // … and is made once the lock is let go.
      other.exec('commit');
      await creating;
      expect(created!.body.code, created!.body.message).toBe(1);
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
  }, 120_000);

  it('counts and pages the vulnerability list through indexes, with the same answers', async () => {
    const { db } = server.app.cairn;
    const reply = await admin.request({ method: 'POST', url: '/api/vulnerability/list?page=2&size=10', body: {} });
    expect(reply.body.code, reply.body.message).toBe(1);
    // The same page read straight from the table: newest first, undated last, then by id.
    const all = await db.selectFrom('kb_advisories').select(['id', 'published']).where('withdrawn', 'is', null).execute();
    const ordered = all.sort((a, b) => (a.published === b.published ? b.id - a.id : a.published === null ? 1 : b.published === null ? -1 : a.published < b.published ? 1 : -1));
    expect(reply.body.data.total).toBe(all.length);
    expect(reply.body.data.content.map((r: { id: number }) => r.id)).toEqual(ordered.slice(10, 20).map((r) => r.id));
    const byLevel = await admin.request({ method: 'POST', url: '/api/vulnerability/list?page=1&size=10', body: { levels: [1, 2] } });
    const levelled = all.length && (await db.selectFrom('kb_advisories').select(sql<number>`count(*)`.as('n')).where('withdrawn', 'is', null).where('level', 'in', [1, 2]).executeTakeFirstOrThrow()).n;
    expect(byLevel.body.data.total).toBe(Number(levelled));

    if (database.name !== 'sqlite') return;
    const plan = async (query: string) => (await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db)).rows.map((r) => r.detail).join('\n');
    const count = await plan('select count(*) from kb_advisories where withdrawn is null');
    expect(count).toMatch(/COVERING INDEX kb_advisories_list_\w+_idx/);
    const page = await plan('select id, summary, level from kb_advisories where withdrawn is null order by published desc nulls last, id desc limit 15 offset 15');
    expect(page).toMatch(/INDEX kb_advisories_list_order_idx/);
    expect(page).not.toMatch(/TEMP B-TREE/);
    for (const [column, value] of [['source', "'custom'"], ['level', '1'], ['exploit', '1']]) {
      expect(await plan(`select count(*) from kb_advisories where withdrawn is null and ${column} = ${value}`)).toMatch(new RegExp(`COVERING INDEX kb_advisories_list_${column}_idx`));
    }
  }, 60_000);
});
