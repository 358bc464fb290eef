// The vulnerability knowledge base over HTTP: list filters and paging, the detail tabs, system
// vulnerabilities (add, edit, delete, validation), imports and their records, and permissions.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessSeverity, type Advisory } from '../../../server/engine/index.ts';
import { deleteAdvisories, saveAdvisories, type AdvisoryRecord } from '../../../server/db/repositories/knowledge-base.ts';
import { adminClient, databases, startServer, type TestClient, type TestServer } from './harness.ts';

const GO_CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpora/advisories/go');

interface Seed {
  id: string;
  aliases: string[];
  summary: string;
  vector: string;
  cwes: string[];
  published: string;
  withdrawn?: boolean;
  affected: Advisory['affected'];
  references?: { type: string; url: string }[];
  fixCommits?: string[];
}

/** An advisory as an importer would hand it over, with the level computed from its vector. */
function record(seed: Seed): AdvisoryRecord {
  const severity = assessSeverity([{ vector: seed.vector }]);
  const advisory: Advisory = {
    id: seed.id,
    aliases: seed.aliases,
    summary: seed.summary,
    level: severity.level,
    score: severity.score,
    vector: severity.vector,
    exploit: severity.exploit,
    cwes: seed.cwes,
    published: seed.published,
    modified: seed.published,
    withdrawn: seed.withdrawn ?? false,
    affected: seed.affected,
  };
  return {
    advisory,
    source: 'osv',
    origin: seed.affected[0]?.ecosystem ?? '',
    details: `${seed.summary}.`,
    references: seed.references ?? [],
    fixCommits: seed.fixCommits ?? [],
    severities: [{ type: 'CVSS_V3', score: seed.vector }],
    document: { id: seed.id, aliases: seed.aliases, summary: seed.summary, modified: seed.published, ...(seed.withdrawn && { withdrawn: seed.published }) },
  };
}

const pkg = (ecosystem: string, name: string, ranges: Advisory['affected'][number]['ranges'], fixed: string[]) =>
  ({ ecosystem, distribution: null, name, ranges, versions: [], vulnerable: [], patched: [], fixed });
const range = (...pairs: [string, string][]) =>
  [{ type: 'ECOSYSTEM', events: pairs.flatMap(([introduced, fixed]) => [{ introduced }, { fixed }]) }];

const SEEDS: Seed[] = [
  {
    id: 'GHSA-jfh8-c2jp-5v3q',
    aliases: ['CVE-2021-44228', 'CNNVD-202112-799'],
    summary: 'Remote code injection in Log4j',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H',
    cwes: ['CWE-20', 'CWE-400', 'CWE-502', 'CWE-917'],
    published: '2021-12-10T00:40:56Z',
    affected: [pkg('maven', 'org.apache.logging.log4j:log4j-core', range(['2.0-beta9', '2.3.1'], ['2.4', '2.12.2'], ['2.13.0', '2.15.0']), ['2.3.1', '2.12.2', '2.15.0'])],
    references: [{ type: 'ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228' }],
    fixCommits: ['https://github.com/apache/logging-log4j2/pull/608'],
  },
  {
    id: 'GHSA-35jh-r3h4-6jhm',
    aliases: ['CVE-2021-23337'],
    summary: 'Command Injection in lodash',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H',
    cwes: ['CWE-77', 'CWE-94'],
    published: '2021-02-15T20:15:00Z',
    affected: [pkg('npm', 'lodash', range(['0', '4.17.21']), ['4.17.21'])],
  },
  {
    id: 'GHSA-p6mc-m468-83gw',
    aliases: ['CVE-2020-8203'],
    summary: 'Prototype Pollution in lodash',
    vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:H/A:H',
    cwes: ['CWE-770', 'CWE-1321'],
    published: '2020-07-15T19:15:00Z',
    affected: [pkg('npm', 'lodash', range(['3.7.0', '4.17.19']), ['4.17.19'])],
  },
  {
    id: 'PYSEC-2022-213',
    aliases: ['CVE-2022-34265', 'GHSA-p64x-8rxx-wf6q'],
    summary: 'SQL injection in Django Trunc() and Extract()',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    cwes: ['CWE-89'],
    published: '2022-07-04T16:15:00Z',
    affected: [pkg('pypi', 'django', range(['3.2', '3.2.14'], ['4.0', '4.0.6']), ['3.2.14', '4.0.6'])],
  },
  {
    // A withdrawn advisory: kept in the knowledge base, hidden from the list unless asked for.
    id: 'GHSA-8mf4-6pxw-7q6h',
    aliases: [],
    summary: 'Withdrawn: duplicate advisory for lodash',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L',
    cwes: [],
    published: '2022-01-01T00:00:00Z',
    withdrawn: true,
    affected: [pkg('npm', 'lodash', range(['0', '4.17.12']), ['4.17.12'])],
  },
];

async function seedKnowledgeBase(server: TestServer): Promise<void> {
  await saveAdvisories(server.app.cairn.db, SEEDS.map(record));
}

function multipart(field: string, filename: string, content: Buffer | string) {
  const boundary = `----cairn${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Polls the record until the import job has finished (imports run in the background). */
async function finishedImport(client: TestClient, recordId: number) {
  for (let i = 0; i < 600; i += 1) {
    const reply = await client.request({ method: 'GET', url: `/api/vulnerability/system/import/record/${recordId}` });
    if (reply.body.data?.status !== 1) return reply.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`import ${recordId} did not finish`);
}

const list = (client: TestClient, body: object, query = '') =>
  client.request({ method: 'POST', url: `/api/vulnerability/list${query}`, body });
const ids = (reply: { body: { data: { content: { identify: string }[] } } }) => reply.body.data.content.map((r) => r.identify);

describe.each(databases)('vulnerability knowledge base on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestClient;
  let nobody: TestClient;
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    server = await startServer(database);
    await seedKnowledgeBase(server);
    admin = await adminClient(server);
    await server.addUser('dora', 'Dora@12345');
    user = server.client();
    await user.login('dora', 'Dora@12345');
    await server.addUser('norole', 'Norole@12345', []);
    nobody = server.client();
    await nobody.login('norole', 'Norole@12345');
  });
  afterAll(() => server?.close());

  const pkOf = async (advisoryId: string) =>
    (await server.app.cairn.db.selectFrom('kb_advisories').select('id').where('advisory_id', '=', advisoryId).executeTakeFirstOrThrow()).id;
  const customCount = async () =>
    Number((await server.app.cairn.db.selectFrom('kb_advisories').select((eb) => eb.fn.countAll<number>().as('n')).where('source', '=', 'custom').executeTakeFirstOrThrow()).n);

  describe('list', () => {
    it('lists newest first, leaves out withdrawn advisories and pages 15 rows by default', async () => {
      const reply = await list(user, {});
      expect(reply.status).toBe(200);
      expect(reply.body.code).toBe(1);
      expect(reply.body.data.total).toBe(4);
      expect(ids(reply)).toEqual(['PYSEC-2022-213', 'GHSA-jfh8-c2jp-5v3q', 'GHSA-35jh-r3h4-6jhm', 'GHSA-p6mc-m468-83gw']);
      expect(reply.body.data.content[1]).toEqual({
        id: expect.any(Number),
        identify: 'GHSA-jfh8-c2jp-5v3q',
        cve: 'CVE-2021-44228',
        cnnvd: 'CNNVD-202112-799',
        cnvd: null,
        name: 'Remote code injection in Log4j',
        level: 1,
        score: 10,
        vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H',
        exploit: 1,
        published: '2021-12-10T00:40:56.000Z',
        modified: '2021-12-10T00:40:56.000Z',
        withdrawn: null,
        source: 'osv',
        origin: 'maven',
        involvedSubjects: 0,
        packages: ['maven:org.apache.logging.log4j:log4j-core'],
        packageCount: 1,
      });
      const withdrawn = await list(user, { includeWithdrawn: true });
      expect(withdrawn.body.data.total).toBe(5);
      expect(ids(withdrawn)).toContain('GHSA-8mf4-6pxw-7q6h');
    });

    it('pages with page and size from the query', async () => {
      const second = await list(user, {}, '?page=2&size=3');
      expect(second.body.data.total).toBe(4);
      expect(ids(second)).toEqual(['GHSA-p6mc-m468-83gw']);
      const beyond = await list(user, {}, '?page=9&size=3');
      expect(beyond.body.data).toEqual({ content: [], total: 4 });
      const bad = await list(user, {}, '?page=0');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/^请求参数错误：查询参数字段 page/);
    });

    it('filters by level, exploit difficulty, ecosystem, source and publication date', async () => {
      expect(ids(await list(user, { levels: [1] })).sort()).toEqual(['GHSA-jfh8-c2jp-5v3q', 'PYSEC-2022-213']);
      expect(ids(await list(user, { levels: [2, 4] })).sort()).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-p6mc-m468-83gw']);
      expect(ids(await list(user, { exploit: [4] }))).toEqual(['GHSA-p6mc-m468-83gw']);
      expect(ids(await list(user, { ecosystem: 'npm' }))).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-p6mc-m468-83gw']);
      // OSV's ecosystem names stand for their purl types.
      expect(ids(await list(user, { ecosystem: 'PyPI' }))).toEqual(['PYSEC-2022-213']);
      expect(ids(await list(user, { source: 'nvd' }))).toEqual([]);
      expect(ids(await list(user, { publishedFrom: '2021-01-01', publishedTo: '2021-12-10' }))).toEqual(['GHSA-jfh8-c2jp-5v3q', 'GHSA-35jh-r3h4-6jhm']);
      expect(ids(await list(user, { publishedTo: '2020-12-31T23:59:59Z' }))).toEqual(['GHSA-p6mc-m468-83gw']);
      const wrongLevel = await list(user, { levels: [3] });
      expect(wrongLevel.status).toBe(400);
    });

    it('searches ids, aliases and names case-insensitively', async () => {
      expect(ids(await list(user, { keyword: 'cve-2021-44228' }))).toEqual(['GHSA-jfh8-c2jp-5v3q']);
      expect(ids(await list(user, { keyword: 'GHSA-JFH8-C2JP-5V3Q' }))).toEqual(['GHSA-jfh8-c2jp-5v3q']);
      expect(ids(await list(user, { keyword: 'cnnvd-202112-799' }))).toEqual(['GHSA-jfh8-c2jp-5v3q']);
      expect(ids(await list(user, { keyword: ' LODASH ' }))).toEqual(['GHSA-35jh-r3h4-6jhm', 'GHSA-p6mc-m468-83gw']);
      expect(ids(await list(user, { keyword: '2021-23337' }))).toEqual(['GHSA-35jh-r3h4-6jhm']);
      expect(ids(await list(user, { keyword: 'trunc()' }))).toEqual(['PYSEC-2022-213']);
      // LIKE wildcards are literal text.
      expect(ids(await list(user, { keyword: '%' }))).toEqual([]);
      expect(ids(await list(user, { keyword: 'l_dash' }))).toEqual([]);
    });

    it('sorts by level, score and date', async () => {
      expect(ids(await list(user, { sort: 'level' }))).toEqual(['PYSEC-2022-213', 'GHSA-jfh8-c2jp-5v3q', 'GHSA-35jh-r3h4-6jhm', 'GHSA-p6mc-m468-83gw']);
      expect(ids(await list(user, { sort: 'score' }))[0]).toBe('GHSA-jfh8-c2jp-5v3q');
      expect(ids(await list(user, { sort: 'published', order: 'asc' }))[0]).toBe('GHSA-p6mc-m468-83gw');
    });
  });

  describe('detail tabs', () => {
    it('answers everything about an advisory, by row id or by any of its ids', async () => {
      const pk = await pkOf('GHSA-jfh8-c2jp-5v3q');
      const byPk = await user.request({ method: 'GET', url: `/api/vulnerability/${pk}` });
      expect(byPk.body.code).toBe(1);
      expect(byPk.body.data).toMatchObject({
        id: pk,
        identify: 'GHSA-jfh8-c2jp-5v3q',
        aliases: ['CNNVD-202112-799', 'CVE-2021-44228'],
        cwes: ['CWE-20', 'CWE-400', 'CWE-502', 'CWE-917'],
        cvssVersion: '3.1',
        details: 'Remote code injection in Log4j.',
        references: [{ type: 'ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228' }],
        severities: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H' }],
        fixCommits: ['https://github.com/apache/logging-log4j2/pull/608'],
        involvedSubjects: 0,
      });
      expect(byPk.body.data.affected[0]).toMatchObject({
        ecosystem: 'maven',
        name: 'org.apache.logging.log4j:log4j-core',
        affected: ['>= 2.0-beta9, < 2.3.1', '>= 2.4, < 2.12.2', '>= 2.13.0, < 2.15.0'],
        fixed: ['2.3.1', '2.12.2', '2.15.0'],
      });
      const byAlias = await user.request({ method: 'GET', url: '/api/vulnerability/cve-2021-44228' });
      expect(byAlias.body.data.id).toBe(pk);
    });

    it('answers where the flaw lives and its fix commits', async () => {
      const pk = await pkOf('GHSA-35jh-r3h4-6jhm');
      const location = await user.request({ method: 'GET', url: `/api/vulnerability/location/${pk}` });
      expect(location.body.data).toEqual({
        id: pk,
        identify: 'GHSA-35jh-r3h4-6jhm',
        affected: [{
          ecosystem: 'npm', distribution: null, name: 'lodash', affected: ['< 4.17.21'],
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }],
          versions: [], vulnerable: [], patched: [], fixed: ['4.17.21'], fixState: null,
        }],
      });
      const commits = await user.request({ method: 'GET', url: '/api/vulnerability/fixCommit/GHSA-jfh8-c2jp-5v3q' });
      expect(commits.body.data.fixCommits).toEqual(['https://github.com/apache/logging-log4j2/pull/608']);
    });

    it('lists no involved projects while there are none', async () => {
      const pk = await pkOf('GHSA-35jh-r3h4-6jhm');
      const reply = await user.request({ method: 'POST', url: `/api/vulnerability/${pk}/involvedSubjectsList?page=1&size=15` });
      expect(reply.body).toEqual({ code: 1, message: '操作成功', data: { content: [], total: 0 } });
    });

    it('answers 漏洞不存在 for unknown ids', async () => {
      for (const url of ['/api/vulnerability/999999', '/api/vulnerability/CVE-1999-0000', '/api/vulnerability/location/999999', '/api/vulnerability/fixCommit/nope']) {
        const reply = await user.request({ method: 'GET', url });
        expect(reply.body, url).toEqual({ code: 0, message: '漏洞不存在', data: null });
      }
      const involved = await user.request({ method: 'POST', url: '/api/vulnerability/999999/involvedSubjectsList' });
      expect(involved.body.message).toBe('漏洞不存在');
    });
  });

  describe('permissions', () => {
    it('refuses the knowledge base to users without 漏洞 and the system calls to ordinary users', async () => {
      const denied = await list(nobody, {});
      expect(denied.status).toBe(403);
      expect(denied.body.message).toBe('Permission denied');
      expect((await nobody.request({ method: 'GET', url: '/api/vulnerability/1' })).status).toBe(403);
      for (const [method, url, body] of [
        ['POST', '/api/vulnerability/system/list', {}],
        ['POST', '/api/vulnerability/system/add', { name: 'x', level: 2, packages: [] }],
        ['POST', '/api/vulnerability/system/edit', { id: 1, name: 'x', level: 2, packages: [] }],
        ['DELETE', '/api/vulnerability/system/delete?id=1', undefined],
        ['DELETE', '/api/vulnerability/system/delete/batch', { ids: [1] }],
        ['POST', '/api/vulnerability/system/importTemplate', undefined],
        ['GET', '/api/vulnerability/system/import/record', undefined],
        ['GET', '/api/vulnerability/system/import/record/1', undefined],
        ['POST', '/api/vulnerability/system/import/history/1', undefined],
      ] as const) {
        const reply = await user.request({ method, url, body });
        expect(reply.status, `${method} ${url}`).toBe(403);
        expect(reply.body.message).toBe('Permission denied');
      }
      expect(await customCount()).toBe(0);
    });
  });

  describe('system vulnerabilities', () => {
    const entry = {
      name: '内部组件 acme-utils 反序列化漏洞',
      description: 'acme-utils 在解析不可信输入时存在反序列化问题。',
      vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      cwes: ['CWE-502', '20'],
      cnvd: 'cnvd-2024-12345',
      packages: [{ ecosystem: 'npm' as const, name: 'Acme-Utils', vulnerable: ['>=1.0.0, <1.2.3'], fixed: ['1.2.3'] }],
      references: ['https://example.com/security/acme-utils'],
      published: '2024-05-01',
    };

    it('adds entries under generated ids, scored from the vector', async () => {
      const first = await admin.request({ method: 'POST', url: '/api/vulnerability/system/add', body: entry });
      expect(first.body.message).toBe('添加成功');
      expect(first.body.data).toMatchObject({
        identify: `CAIRN-${year}-0001`,
        name: entry.name,
        details: entry.description,
        level: 1,
        score: 9.8,
        exploit: 1,
        cnvd: 'CNVD-2024-12345',
        aliases: ['CNVD-2024-12345'],
        cwes: ['CWE-502', 'CWE-20'],
        source: 'custom',
        origin: '系统漏洞库',
        published: '2024-05-01T00:00:00.000Z',
        references: [{ type: 'WEB', url: 'https://example.com/security/acme-utils' }],
      });
      expect(first.body.data.affected).toEqual([{
        ecosystem: 'npm', distribution: null, name: 'acme-utils', affected: ['>= 1.0.0, < 1.2.3'], ranges: [], versions: [],
        vulnerable: ['>=1.0.0, <1.2.3'], patched: [], fixed: ['1.2.3'], fixState: null,
      }]);

      const second = await admin.request({ method: 'POST', url: '/api/vulnerability/system/add', body: { name: '第二个系统漏洞', level: 8, exploit: 4, packages: [] } });
      expect(second.body.data).toMatchObject({ identify: `CAIRN-${year}-0002`, level: 8, score: null, vector: null, exploit: 4 });

      const own = await admin.request({ method: 'POST', url: '/api/vulnerability/system/add', body: { identify: 'cnnvd-202405-001', name: '以 CNNVD 编号登记的漏洞', level: 4, packages: [] } });
      expect(own.body.data).toMatchObject({ identify: 'CNNVD-202405-001', cnnvd: 'CNNVD-202405-001' });

      const system = await admin.request({ method: 'POST', url: '/api/vulnerability/system/list', body: {} });
      expect(system.body.data.total).toBe(3);
      expect(ids(system).sort()).toEqual(['CNNVD-202405-001', `CAIRN-${year}-0001`, `CAIRN-${year}-0002`].sort());
      const everything = await list(user, { source: 'custom', keyword: 'acme' });
      expect(ids(everything)).toEqual([`CAIRN-${year}-0001`]);
      const byEcosystem = await admin.request({ method: 'POST', url: '/api/vulnerability/system/list', body: { ecosystem: 'npm' } });
      expect(ids(byEcosystem)).toEqual([`CAIRN-${year}-0001`]);
    });

    it('refuses bad input with a Chinese message and writes nothing', async () => {
      const before = await customCount();
      const cases: [object, string][] = [
        [{ ...entry, vector: 'CVSS:3.1/AV:N/AC:L' }, 'CVSS 向量无效，请填写完整的 CVSS v2、v3 或 v4 向量'],
        [{ name: '无等级', packages: [] }, '请选择漏洞等级或填写 CVSS 向量'],
        [{ ...entry, name: '   ' }, '漏洞名称不能为空'],
        [{ ...entry, cve: 'CVE-21-1' }, 'CVE 编号格式不正确，应如 CVE-2021-44228'],
        [{ ...entry, cnnvd: 'CNNVD-1' }, 'CNNVD 编号格式不正确，应如 CNNVD-202112-799'],
        [{ ...entry, cwes: ['XSS'] }, 'CWE 编号格式不正确：XSS（应如 CWE-79）'],
        [{ ...entry, references: ['javascript:alert(1)'] }, '链接必须是 http 或 https 地址：javascript:alert(1)'],
        [{ ...entry, packages: [{ ecosystem: 'npm', name: 'acme', vulnerable: ['>>1.0'] }] }, '组件 acme 的受影响版本「>>1.0」无法解析，请使用如 >=1.0.0, <1.2.3 或 [1.0,2.0) 的写法'],
        [{ ...entry, identify: 'ACME-1' }, '漏洞编号格式不正确：应为 CVE-2021-44228、CNNVD-202112-799 或 CNVD-2021-95914 的形式，留空则自动生成'],
        [{ ...entry, identify: 'CVE-2021-44228' }, '漏洞编号 CVE-2021-44228 已存在（收录为 GHSA-jfh8-c2jp-5v3q）'],
        [{ ...entry, identify: 'CNNVD-202405-001' }, '漏洞编号 CNNVD-202405-001 已存在'],
        [{ ...entry, identify: 'CVE-2024-99999', cve: 'CVE-2024-88888' }, 'CVE 编号与漏洞编号 CVE-2024-99999 不一致'],
        [{ ...entry, published: '2024-13-45' }, '发布日期无效'],
      ];
      for (const [body, message] of cases) {
        const reply = await admin.request({ method: 'POST', url: '/api/vulnerability/system/add', body });
        expect(reply.body, message).toEqual({ code: 0, message, data: null });
      }
      const schema = await admin.request({ method: 'POST', url: '/api/vulnerability/system/add', body: { ...entry, packages: [{ ecosystem: 'cobol', name: 'x', vulnerable: ['1'] }] } });
      expect(schema.status).toBe(400);
      expect(schema.body.message).toMatch(/^请求参数错误：/);
      expect(await customCount()).toBe(before);
    });

    it('edits system vulnerabilities only, keeping their id', async () => {
      const pk = await pkOf(`CAIRN-${year}-0002`);
      const edited = await admin.request({
        method: 'POST', url: '/api/vulnerability/system/edit',
        body: { id: pk, name: '第二个系统漏洞（已确认）', level: 2, cve: 'CVE-2024-12345', packages: [{ ecosystem: 'maven', name: 'com.acme:core', vulnerable: ['[1.0,2.0)'], fixed: ['2.0'] }] },
      });
      expect(edited.body.message).toBe('修改成功');
      expect(edited.body.data).toMatchObject({ id: pk, identify: `CAIRN-${year}-0002`, name: '第二个系统漏洞（已确认）', level: 2, cve: 'CVE-2024-12345', exploit: 16 });
      expect(edited.body.data.affected[0]).toMatchObject({ ecosystem: 'maven', name: 'com.acme:core', vulnerable: ['[1.0,2.0)'] });
      expect(ids(await list(user, { keyword: 'cve-2024-12345' }))).toEqual([`CAIRN-${year}-0002`]);

      const bad = await admin.request({ method: 'POST', url: '/api/vulnerability/system/edit', body: { id: pk, name: '改坏', level: 2, packages: [{ ecosystem: 'maven', name: 'com.acme:core', vulnerable: ['[1.0,,'] }] } });
      expect(bad.body.message).toMatch(/^组件 com.acme:core 的受影响版本「\[1.0,,」无法解析/);
      const after = await admin.request({ method: 'GET', url: `/api/vulnerability/${pk}` });
      expect(after.body.data.name).toBe('第二个系统漏洞（已确认）');

      const imported = await admin.request({ method: 'POST', url: '/api/vulnerability/system/edit', body: { id: await pkOf('GHSA-35jh-r3h4-6jhm'), name: 'x', level: 8, packages: [] } });
      expect(imported.body).toEqual({ code: 0, message: '只能修改或删除系统漏洞；导入的漏洞请通过重新导入更新', data: null });
      const missing = await admin.request({ method: 'POST', url: '/api/vulnerability/system/edit', body: { id: 999999, name: 'x', level: 8, packages: [] } });
      expect(missing.body.message).toBe('漏洞不存在');
    });

    it('deletes system vulnerabilities, one or a batch, and refuses imported ones', async () => {
      const imported = await pkOf('GHSA-35jh-r3h4-6jhm');
      const first = await pkOf(`CAIRN-${year}-0001`);
      const second = await pkOf(`CAIRN-${year}-0002`);
      const third = await pkOf('CNNVD-202405-001');

      const refused = await admin.request({ method: 'DELETE', url: `/api/vulnerability/system/delete?id=${imported}` });
      expect(refused.body.message).toBe('只能修改或删除系统漏洞；导入的漏洞请通过重新导入更新');
      const mixed = await admin.request({ method: 'DELETE', url: '/api/vulnerability/system/delete/batch', body: { ids: [first, imported] } });
      expect(mixed.body.message).toBe('只能修改或删除系统漏洞；导入的漏洞请通过重新导入更新（GHSA-35jh-r3h4-6jhm）');
      const unknown = await admin.request({ method: 'DELETE', url: '/api/vulnerability/system/delete/batch', body: { ids: [first, 999999] } });
      expect(unknown.body.message).toBe('漏洞不存在：999999');
      expect(await customCount()).toBe(3);

      const one = await admin.request({ method: 'DELETE', url: `/api/vulnerability/system/delete?id=${first}` });
      expect(one.body).toEqual({ code: 1, message: '删除成功', data: { deleted: 1 } });
      const batch = await admin.request({ method: 'DELETE', url: '/api/vulnerability/system/delete/batch', body: { ids: [second, third, second] } });
      expect(batch.body.data).toEqual({ deleted: 2 });
      expect(await customCount()).toBe(0);
      const affectedLeft = await server.app.cairn.db.selectFrom('kb_affected').select('id').where('advisory_pk', 'in', [first, second, third]).execute();
      expect(affectedLeft).toEqual([]);
      const gone = await admin.request({ method: 'DELETE', url: `/api/vulnerability/system/delete?id=${first}` });
      expect(gone.body.message).toBe('漏洞不存在');
      expect((await list(user, {})).body.data.total).toBe(4);
    });
  });

  describe('imports', () => {
    it('imports uploaded OSV files as a job and records the outcome', async () => {
      const file = fs.readFileSync(path.join(GO_CORPUS, 'GO-2020-0001.json'));
      const upload = multipart('file', 'GO-2020-0001.json', file);
      const started = await admin.request({ method: 'POST', url: '/api/vulnerability/system/importTemplate', body: upload.body, headers: upload.headers });
      expect(started.body.code).toBe(1);
      expect(started.body.message).toBe('模板导入成功，导入结果请查看导入记录');
      const record = await finishedImport(admin, started.body.data.recordId);
      expect(record).toMatchObject({ kind: 'osv', name: 'GO-2020-0001.json', status: 2, statusLabel: '导入成功', progress: 100, imported: 1, failed: 0, errorCount: 0, userName: '系统管理员' });

      const detail = await user.request({ method: 'GET', url: '/api/vulnerability/cve-2020-36567' });
      expect(detail.body.data).toMatchObject({ identify: 'GO-2020-0001', source: 'osv', aliases: ['CVE-2020-36567', 'GHSA-6vm3-jj99-7229'] });
      expect(detail.body.data.affected[0]).toMatchObject({ ecosystem: 'golang', name: 'github.com/gin-gonic/gin', affected: ['< 1.6.0'] });
      const commits = await user.request({ method: 'GET', url: '/api/vulnerability/fixCommit/GO-2020-0001' });
      expect(commits.body.data.fixCommits).toContain('https://github.com/gin-gonic/gin/commit/a71af9c144f9579f6dbe945341c1df37aaf09c0d');
    });

    it('records a failed import with its per-file errors, paged', async () => {
      const upload = multipart('file', 'broken.json', '{"id": "GO-0000-0000", "affected": [');
      const started = await admin.request({ method: 'POST', url: '/api/vulnerability/system/importTemplate', body: upload.body, headers: upload.headers });
      const record = await finishedImport(admin, started.body.data.recordId);
      expect(record).toMatchObject({ status: 3, statusLabel: '导入失败', name: 'broken.json', failed: 1 });
      expect(record.errorCount).toBeGreaterThan(0);

      const history = await admin.request({ method: 'POST', url: `/api/vulnerability/system/import/history/${record.id}?page=1&size=15` });
      expect(history.body.data.total).toBe(record.errorCount);
      expect(history.body.data.content[0]).toEqual({ file: expect.any(String), message: expect.any(String) });

      const records = await admin.request({ method: 'GET', url: '/api/vulnerability/system/import/record?page=1&size=15' });
      expect(records.body.data.total).toBe(2);
      expect(records.body.data.content.map((r: { name: string }) => r.name)).toEqual(['broken.json', 'GO-2020-0001.json']);
      const paged = await admin.request({ method: 'GET', url: '/api/vulnerability/system/import/record?page=2&size=1' });
      expect(paged.body.data.content.map((r: { name: string }) => r.name)).toEqual(['GO-2020-0001.json']);
    });

    it('refuses uploads that are not one file field, and unknown records', async () => {
      const before = (await admin.request({ method: 'GET', url: '/api/vulnerability/system/import/record' })).body.data.total;
      const wrongField = multipart('upload', 'GO-2020-0001.json', '{}');
      const wrong = await admin.request({ method: 'POST', url: '/api/vulnerability/system/importTemplate', body: wrongField.body, headers: wrongField.headers });
      expect(wrong.body).toEqual({ code: 0, message: '上传文件的字段名应为 file', data: null });
      const empty = multipart('file', 'empty.json', '');
      expect((await admin.request({ method: 'POST', url: '/api/vulnerability/system/importTemplate', body: empty.body, headers: empty.headers })).body.message).toBe('上传的文件为空');
      const json = await admin.request({ method: 'POST', url: '/api/vulnerability/system/importTemplate', body: { file: 'x' } });
      expect(json.body.message).toBe('请以 multipart/form-data 方式上传文件');
      expect((await admin.request({ method: 'GET', url: '/api/vulnerability/system/import/record' })).body.data.total).toBe(before);

      for (const [method, url] of [['GET', '/api/vulnerability/system/import/record/999999'], ['POST', '/api/vulnerability/system/import/history/999999']] as const) {
        const reply = await admin.request({ method, url });
        expect(reply.body).toEqual({ code: 0, message: '导入记录不存在', data: null });
      }
    });
  });

  describe('totals', () => {
    // The list keeps a filter's total with the knowledge base's revision: every write renews it.
    it('follow every change to the knowledge base, whoever writes it', async () => {
      const total = async (body: object) => (await list(user, body)).body.data.total as number;
      const before = await total({});
      const beforeCustom = await total({ source: 'custom' });
      expect(await total({})).toBe(before);

      const added = await admin.request({ method: 'POST', url: '/api/vulnerability/system/add', body: { name: '计数用的系统漏洞', level: 8, packages: [] } });
      expect(added.body.code).toBe(1);
      expect(await total({})).toBe(before + 1);
      expect(await total({ source: 'custom' })).toBe(beforeCustom + 1);
      expect(await total({ keyword: '计数用的' })).toBe(1);

      // Straight through the repository, as an import in another process would write.
      expect(await deleteAdvisories(server.app.cairn.db, [added.body.data.identify])).toBe(1);
      expect(await total({})).toBe(before);
      expect(await total({ source: 'custom' })).toBe(beforeCustom);
      expect(await total({ keyword: '计数用的' })).toBe(0);
      // A page past the end still says how many there are.
      expect((await list(user, {}, '?page=999&size=15')).body.data).toEqual({ content: [], total: before });
    });

    // The guard's and the list's statements are prepared on PostgreSQL (server/db/connect.ts): a
    // migration that changes their tables must not break the plans connections already hold.
    it('keep answering when a migration changes the tables under the prepared statements', async () => {
      const first = await list(user, {}, '?page=2&size=15');
      for (let i = 0; i < 8; i++) expect((await list(user, {}, `?page=${1 + (i % 3)}&size=15`)).body.code).toBe(1);
      const { db } = server.app.cairn;
      await db.schema.alterTable('kb_advisories').addColumn('probe_column', 'text').execute();
      await db.schema.alterTable('users').addColumn('probe_column', 'text').execute();
      try {
        for (let i = 0; i < 12; i++) expect((await list(user, {}, '?page=2&size=15')).body).toEqual(first.body);
      } finally {
        await db.schema.alterTable('kb_advisories').dropColumn('probe_column').execute();
        await db.schema.alterTable('users').dropColumn('probe_column').execute();
      }
      expect((await list(user, {}, '?page=2&size=15')).body).toEqual(first.body);
    });
  });
});
