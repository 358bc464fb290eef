// A command and its audit row are one transaction (design §4, §9): with the audit insert forced to
// fail (a trigger on audit_log refuses every row), each command answers 服务器内部错误 and leaves
// nothing of itself behind; once the audit row can be written again, the same command goes through
// and leaves exactly one audit row. On SQLite and PostgreSQL.
import { sql, type Kysely } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/schema.ts';
import { adminClient, databases, useServer, type TestClient } from './harness.ts';

/** Makes every audit insert fail (`on`) or lets it through again (`off`). */
async function refuseAudit(db: Kysely<Database>, postgres: boolean, on: boolean): Promise<void> {
  const statements = postgres
    ? on
      ? [
        `create or replace function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit_log refused'; end $$`,
        'create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()',
      ]
      : ['drop trigger if exists refuse_audit on audit_log', 'drop function if exists refuse_audit()']
    : on
      ? [`create trigger refuse_audit before insert on audit_log begin select raise(abort, 'audit_log refused'); end`]
      : ['drop trigger if exists refuse_audit'];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

describe.each(databases)('a command and its audit row on $name', (database) => {
  let admin: TestClient;
  let db: Kysely<Database>;
  let subjectId: number;
  const postgres = database.name === 'postgres';

  const auditRows = async (action: string) => Number((await db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('action', '=', action).executeTakeFirstOrThrow()).n);
  type Answer = { status: number; body: { code: number; message: string; data: any } };
  /**
   * Runs the call once with the audit refused (it must fail and change nothing), then once allowed
   * (`done` says it went through; by default, code 1).
   */
  async function atomically(call: () => Promise<Answer>, unchanged: () => Promise<void>, action: string, done = (a: Answer) => a.body.code === 1) {
    const before = await auditRows(action);
    await refuseAudit(db, postgres, true);
    try {
      const refused = await call();
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({ code: 0, message: '服务器内部错误' });
    } finally {
      await refuseAudit(db, postgres, false);
    }
    await unchanged();
    expect(await auditRows(action)).toBe(before);
    const allowed = await call();
    expect(done(allowed), allowed.body.message).toBe(true);
    expect(await auditRows(action)).toBe(before + 1);
  }

  const server = useServer(database);
  beforeAll(async () => {
    db = server.app.cairn.db;
    admin = await adminClient(server);
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: 'audited-app' } });
    subjectId = created.body.data.id;
  });
  beforeEach(() => refuseAudit(db, postgres, false));

  it('creates no subject (nor its members) when its audit row cannot be written', async () => {
    const member = await server.addUser('maria', 'Pass@12345');
    const create = () => admin.request({ method: 'POST', url: '/api/subject/create', body: { name: 'half-made', memberIds: [member] } });
    await atomically(create, async () => {
      expect(await db.selectFrom('subjects').select('id').where('name', '=', 'half-made').executeTakeFirst()).toBeUndefined();
      expect(await db.selectFrom('subject_members').select('subject_id').where('user_id', '=', member).executeTakeFirst()).toBeUndefined();
    }, 'subject.created');
  });

  it('creates no project when its audit row cannot be written', async () => {
    // A git source is not fetched yet: the project is only saved (仅保存项目), which is how it goes through.
    const launch = () => admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'git-audited', getCodeType: 2, svnGitUri: 'https://example.com/a.git', launch: false } });
    const saved = () => db.selectFrom('projects').select('id').where('name', '=', 'git-audited').executeTakeFirst();
    await atomically(launch, async () => expect(await saved()).toBeUndefined(), 'project.created');
    expect(await saved()).toBeDefined();
  });

  it('imports no project of a batch when its audit row cannot be written', async () => {
    const rows = [
      { projectName: 'imported-a', getCodeType: 2, svnGitUri: 'https://example.com/a.git', launch: false },
      { projectName: 'imported-b', getCodeType: 2, svnGitUri: 'https://example.com/b.git', launch: false },
    ];
    const importing = () => admin.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId, projects: rows } });
    const imported = async () => (await db.selectFrom('projects').select('name').where('name', 'in', ['imported-a', 'imported-b']).execute()).length;
    await atomically(importing, async () => expect(await imported()).toBe(0), 'project.imported');
    expect(await imported()).toBe(2);
  });

  it('deletes no project when its audit row cannot be written', async () => {
    const made = await admin.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId, projects: [{ projectName: 'to-delete', getCodeType: 2, svnGitUri: 'https://example.com/d.git', launch: false }] } });
    expect(made.body.data.successNum, made.body.message).toBe(1);
    const { id } = await db.selectFrom('projects').select('id').where('name', '=', 'to-delete').executeTakeFirstOrThrow();
    await atomically(() => admin.request({ method: 'DELETE', url: `/api/project-task-view/projects?projectIds=${id}` }), async () => {
      expect(await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
    }, 'project.deleted');
    expect(await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('adds no system vulnerability and keeps a licence level when their audit rows cannot be written', async () => {
    const add = () => admin.request({ method: 'POST', url: '/api/vulnerability/system/add', body: { identify: 'CVE-2099-0001', name: '审计测试漏洞', level: 2, packages: [] } });
    await atomically(add, async () => {
      expect(await db.selectFrom('kb_advisories').select('id').where('advisory_id', '=', 'CVE-2099-0001').executeTakeFirst()).toBeUndefined();
    }, 'kb.vulnerability.added');

    const level = async () => (await db.selectFrom('licenses').select('level').where('spdx_id', '=', 'MIT').executeTakeFirstOrThrow()).level;
    const was = await level();
    await atomically(() => admin.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'MIT', level: was === 2 ? 4 : 2 } }), async () => {
      expect(await level()).toBe(was);
    }, 'license.level.modified');
  });
});
