// 敏感信息 over HTTP on SQLite and PostgreSQL: a binary 应用's upload (an ELF compiled here, or a
// real system binary with strings appended, zipped with a config file) analysed with mode 9; the
// types with their counts and the paged list filtered by type and file, secrets masked in the
// answer and in the database; the rules (built-in listed and not deletable, an administrator's
// added, enabled, used by the next run, deleted), hostile patterns refused in Chinese; another
// user's task refused as a missing one, the rule calls refused to an ordinary user.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';
import { uploadFile, waitForRun } from './sample-app.ts';

const PASSWORD = 'Sup3r' + 'Secr3t!';
const AWS = 'AKIA' + 'IOSFODNN7EXAMPLE';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-leaks-it-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `<work>/firmware.zip`: bin/agent (an ELF with an internal URL, a password and a key) and conf/app.properties. */
function firmwareZip(): string {
  const src = path.join(work, 'src');
  execFileSync('mkdir', ['-p', path.join(src, 'bin'), path.join(src, 'conf')]);
  const agent = path.join(src, 'bin', 'agent');
  const strings = [`http://nexus.corp.local:8081/repo/`, `password=${PASSWORD}`, AWS, '/home/builder/work/agent/main.c', 'TICKET-77123'];
  try {
    const c = path.join(work, 'agent.c');
    writeFileSync(c, `#include <stdio.h>\n${strings.map((s, i) => `static const char *s${i} = "${s}";`).join('\n')}\nint main(void) { ${strings.map((_, i) => `puts(s${i});`).join(' ')} return 0; }\n`);
    execFileSync('cc', ['-O0', '-o', agent, c]);
  } catch {
    // No compiler: a real binary with the strings appended, as a packager appends a payload.
    copyFileSync('/bin/true', agent);
    writeFileSync(agent, `\0${strings.join('\0')}\0`, { flag: 'a' });
  }
  writeFileSync(path.join(src, 'conf', 'app.properties'), `db.url=jdbc:postgresql://10.12.0.5:5432/app\nowner=ops-team@acme-internal.cn\n`);
  const zip = path.join(work, 'firmware.zip');
  rmSync(zip, { force: true });
  execFileSync('zip', ['-qr', zip, '.'], { cwd: src });
  return zip;
}

describe.each(databases)('敏感信息 on $name', (database) => {
  const server = useServer(database, { scanConcurrency: 1 });
  let admin: TestClient;
  let mallory: TestClient;
  let subjectId: number;
  let zip: string;

  beforeAll(async () => {
    admin = await adminClient(server);
    ({ client: mallory } = await signIn(server, 'mallory', 'Mallory@123'));
    const created = await admin.request({ method: 'POST', url: '/api/binary/subject/create', body: { name: 'firmware', description: '', importance: 3 } });
    expect(created.body.code, created.body.message).toBe(1);
    subjectId = created.body.data.id;
    zip = firmwareZip();
  });

  const analyse = async (projectName: string, analysisModes: string): Promise<number> => {
    const uploadId = await uploadFile(admin, zip);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType: 16, uploadId, analysisModes } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    expect((await waitForRun(admin, projectId)).status).toBe(2);
    return projectId;
  };
  const types = async (client: TestClient, projectId: number) => (await client.request({ method: 'GET', url: `/api/binary/leakinfo/type?projectId=${projectId}` })).body;
  const list = async (client: TestClient, query: string) => (await client.request({ method: 'GET', url: `/api/binary/leakinfo/list?${query}` })).body;
  const rules = async (client: TestClient, body: object = {}) => (await client.request({ method: 'POST', url: '/api/binary/leakinfo/rule/list?size=100', body })).body;

  let projectId: number;

  it('finds the leaks of a binary upload with mode 9, by type and file, the secrets masked everywhere', async () => {
    projectId = await analyse('agent-1.0', '1,9');
    const counted = await types(admin, projectId);
    expect(counted.code, counted.message).toBe(1);
    const count = Object.fromEntries(counted.data.types.map((t: { type: string; count: number }) => [t.type, t.count]));
    expect(counted.data.analysed).toBe(true);
    // The JDBC URL names an internal address: a host finding besides the address itself.
    expect(count).toEqual({ host: 2, credential: 1, token: 1, path: 1, ip: 1, email: 1, 'private-key': 0 });
    expect(counted.data.files).toBe(2);
    // The overview counts them too (its 敏感信息 tile).
    expect((await admin.request({ method: 'GET', url: `/api/project-task-view/info/${projectId}/0` })).body.data.leaks).toBe(counted.data.total);

    const all = await list(admin, `projectId=${projectId}&size=50`);
    expect(all.data.total).toBe(counted.data.total);
    const texts = all.data.content.map((r: { file: string; type: string; text: string }) => [r.file, r.type, r.text]);
    expect(texts).toEqual(expect.arrayContaining([
      ['bin/agent', 'host', 'http://nexus.corp.local:8081/repo/'],
      ['bin/agent', 'credential', 'password=********'],
      ['bin/agent', 'token', 'AKIA********MPLE'],
      ['bin/agent', 'path', '/home/builder/work/agent/main.c'],
      ['conf/app.properties', 'host', 'jdbc:postgresql://10.12.0.5:5432/app'],
      ['conf/app.properties', 'ip', '10.12.0.5'],
      ['conf/app.properties', 'email', 'ops-team@acme-internal.cn'],
    ]));
    const tokens = await list(admin, `projectId=${projectId}&type=token`);
    expect(tokens.data.content.map((r: { ruleName: string }) => r.ruleName)).toEqual(['AWS 访问密钥 ID']);
    expect((await list(admin, `projectId=${projectId}&file=CONF/`)).data.total).toBe(3);
    expect((await list(admin, `projectId=${projectId}&keyword=nexus`)).data.total).toBe(1);
    expect((await list(admin, `projectId=${projectId}&size=2&page=2`)).data.content).toHaveLength(2);

    const stored = JSON.stringify(await server.app.cairn.db.selectFrom('run_leaks').selectAll().execute());
    for (const secret of [PASSWORD, AWS]) {
      expect(JSON.stringify(all)).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  it('refuses another user\'s task as one that does not exist, and says a run without mode 9 did not look', async () => {
    for (const reply of [await types(mallory, projectId), await list(mallory, `projectId=${projectId}`)]) {
      expect(reply.code).not.toBe(1);
      expect(JSON.stringify(reply)).not.toContain('nexus');
    }
    const without = await analyse('agent-1.0-deps', '1');
    expect((await types(admin, without)).data).toMatchObject({ analysed: false, total: 0 });
    expect((await admin.request({ method: 'GET', url: `/api/project-task-view/info/${without}/0` })).body.data.leaks).toBeNull();
  });

  it('lists the built-in rules, refuses to delete them, and lets them be turned off', async () => {
    const listed = await rules(admin);
    expect(listed.code, listed.message).toBe(1);
    const builtins = listed.data.content.filter((r: { builtin: boolean }) => r.builtin);
    expect(builtins.length).toBeGreaterThanOrEqual(10);
    expect(builtins.every((r: { id: number | null; enabled: boolean }) => r.id === null && r.enabled)).toBe(true);
    const off = await admin.request({ method: 'POST', url: '/api/binary/leakinfo/rule/enable', body: { key: 'builtin:email', enabled: false } });
    expect(off.body.data).toMatchObject({ key: 'builtin:email', builtin: true, enabled: false });
    expect((await rules(admin, { builtin: true, type: 'email' })).data.content[0].enabled).toBe(false);
    expect((await admin.request({ method: 'POST', url: '/api/binary/leakinfo/rule/enable', body: { key: 'builtin:nope', enabled: false } })).body.message).toBe('敏感信息规则不存在');
  });

  it('refuses hostile or broken patterns in Chinese, adds a valid rule that the next run uses, and deletes it', async () => {
    const add = (body: object) => admin.request({ method: 'POST', url: '/api/binary/leakinfo/rule/add', body });
    const refusals: Array<[string, string]> = [
      ['(a+)+$', '嵌套的量词'],
      ['(x|x)*y', '超时'],
      ['([a-z', '无法解析'],
      ['.*', '空字符串'],
      [String.raw`(\w)\1`, '反向引用'],
    ];
    for (const [pattern, message] of refusals) {
      const reply = await add({ name: '坏规则', type: 'token', pattern });
      expect(reply.body.code, pattern).not.toBe(1);
      expect(reply.body.message, pattern).toContain(message);
    }
    expect((await add({ name: 'RFC 1918 内网 IP 地址', type: 'ip', pattern: 'x{3}' })).body.code).not.toBe(1);
    const added = await add({ name: '内部工单号', type: 'host', pattern: String.raw`\bTICKET-\d{4,}\b` });
    expect(added.body).toMatchObject({ code: 1, message: '添加成功', data: { builtin: false, enabled: true, name: '内部工单号', createdBy: '系统管理员' } });
    expect((await add({ name: '内部工单号', type: 'host', pattern: 'abc' })).body.message).toBe('敏感信息规则“内部工单号”已存在');
    const id = added.body.data.id as number;

    const second = await analyse('agent-1.1', '9');
    const found = await list(admin, `projectId=${second}&type=host&keyword=ticket`);
    expect(found.data.content.map((r: { rule: string; text: string }) => [r.rule, r.text])).toEqual([[`user:${id}`, 'TICKET-77123']]);
    // builtin:email was turned off before this run.
    expect((await types(admin, second)).data.types.find((t: { type: string }) => t.type === 'email').count).toBe(0);

    const builtinId = await admin.request({ method: 'DELETE', url: '/api/binary/leakinfo/rule/delete?id=999999' });
    expect(builtinId.body.message).toBe('敏感信息规则不存在');
    // An ordinary user may not touch the rules.
    expect((await mallory.request({ method: 'DELETE', url: `/api/binary/leakinfo/rule/delete?id=${id}` })).body.code).not.toBe(1);
    expect((await rules(mallory)).code).not.toBe(1);
    expect((await admin.request({ method: 'DELETE', url: `/api/binary/leakinfo/rule/delete?id=${id}` })).body).toMatchObject({ code: 1, message: '删除成功' });
    expect((await rules(admin, { builtin: false })).data.total).toBe(0);
    const audit = await server.app.cairn.db.selectFrom('audit_log').select('action').where('action', 'like', 'leakRule.%').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['leakRule.added', 'leakRule.deleted', 'leakRule.enabled']);
  });
});
