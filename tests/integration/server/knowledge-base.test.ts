// Knowledge-base checks and recommended versions over HTTP: which ids the knowledge base knows,
// what it says about components (by ecosystem/name/version or purl), and the upgrade it suggests.
import { beforeAll, describe, expect, it } from 'vitest';
import { assessSeverity, type Advisory } from '../../../server/engine/index.ts';
import { saveAdvisories, type AdvisoryRecord } from '../../../server/db/repositories/knowledge-base.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

type Affected = Advisory['affected'][number];

function record(id: string, aliases: string[], summary: string, vector: string, published: string, affected: Affected[]): AdvisoryRecord {
  const severity = assessSeverity([{ vector }]);
  return {
    advisory: {
      id, aliases, summary, level: severity.level, score: severity.score, vector: severity.vector, exploit: severity.exploit,
      cwes: [], published, modified: published, withdrawn: false, affected,
    },
    source: 'osv',
    origin: affected[0]!.ecosystem,
    details: summary,
    references: [],
    fixCommits: [],
    severities: [{ type: 'CVSS_V3', score: vector }],
    document: { id, aliases, summary, modified: published },
  };
}

const affected = (ecosystem: string, name: string, pairs: [string, string][]): Affected => ({
  ecosystem,
  distribution: null,
  name,
  ranges: [{ type: 'ECOSYSTEM', events: pairs.flatMap(([introduced, fixed]) => [{ introduced }, { fixed }]) }],
  versions: [],
  vulnerable: [],
  patched: [],
  fixed: pairs.map(([, fixed]) => fixed),
});

// Real advisories, trimmed to what matching reads.
const RECORDS = [
  record('GHSA-jfh8-c2jp-5v3q', ['CVE-2021-44228', 'CNNVD-202112-799'], 'Remote code injection in Log4j',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', '2021-12-10T00:40:56Z',
    [affected('maven', 'org.apache.logging.log4j:log4j-core', [['2.0-beta9', '2.3.1'], ['2.4', '2.12.2'], ['2.13.0', '2.15.0']])]),
  record('GHSA-35jh-r3h4-6jhm', ['CVE-2021-23337'], 'Command Injection in lodash',
    'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H', '2021-02-15T20:15:00Z', [affected('npm', 'lodash', [['0', '4.17.21']])]),
  record('GHSA-p6mc-m468-83gw', ['CVE-2020-8203'], 'Prototype Pollution in lodash',
    'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:H/A:H', '2020-07-15T19:15:00Z', [affected('npm', 'lodash', [['3.7.0', '4.17.19']])]),
  record('PYSEC-2022-213', ['CVE-2022-34265', 'GHSA-p64x-8rxx-wf6q'], 'SQL injection in Django Trunc() and Extract()',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '2022-07-04T16:15:00Z', [affected('pypi', 'django', [['3.2', '3.2.14'], ['4.0', '4.0.6']])]),
  record('GO-2020-0001', ['CVE-2020-36567', 'GHSA-6vm3-jj99-7229'], 'Arbitrary log line injection in github.com/gin-gonic/gin',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N', '2021-04-14T20:04:52Z', [affected('golang', 'github.com/gin-gonic/gin', [['0', '1.6.0']])]),
];

describe.each(databases)('knowledge-base checks on $name', (database) => {
  let admin: TestClient;
  let user: TestClient;
  let nobody: TestClient;

  const server = useServer(database);
  beforeAll(async () => {
    await saveAdvisories(server.app.cairn.db, RECORDS);
    admin = await adminClient(server);
    user = (await signIn(server, 'erin', 'Erin@12345')).client;
    nobody = (await signIn(server, 'nobody', 'Nobody@12345', [])).client;
  });

  const recommend = (client: TestClient, purl: string) =>
    client.request({ method: 'GET', url: `/api/component/recommendVersion/${encodeURIComponent(purl)}` });
  const pkOf = async (advisoryId: string) =>
    (await server.app.cairn.db.selectFrom('kb_advisories').select('id').where('advisory_id', '=', advisoryId).executeTakeFirstOrThrow()).id;

  describe('vulnerability ids', () => {
    it('tells which ids the knowledge base knows, by id or alias, in any case', async () => {
      const reply = await user.request({
        method: 'POST', url: '/api/knowledgeBase/vulnerability/check',
        body: { ids: ['cve-2021-44228', 'GHSA-35JH-R3H4-6JHM', 'CNNVD-202112-799', 'pysec-2022-213', 'CVE-1999-99999'] },
      });
      expect(reply.body.code).toBe(1);
      const log4j = await pkOf('GHSA-jfh8-c2jp-5v3q');
      expect(reply.body.data).toEqual([
        { id: 'cve-2021-44228', known: true, vulnerabilityId: log4j, primaryId: 'GHSA-jfh8-c2jp-5v3q', level: 1, name: 'Remote code injection in Log4j' },
        { id: 'GHSA-35JH-R3H4-6JHM', known: true, vulnerabilityId: await pkOf('GHSA-35jh-r3h4-6jhm'), primaryId: 'GHSA-35jh-r3h4-6jhm', level: 2, name: 'Command Injection in lodash' },
        { id: 'CNNVD-202112-799', known: true, vulnerabilityId: log4j, primaryId: 'GHSA-jfh8-c2jp-5v3q', level: 1, name: 'Remote code injection in Log4j' },
        { id: 'pysec-2022-213', known: true, vulnerabilityId: await pkOf('PYSEC-2022-213'), primaryId: 'PYSEC-2022-213', level: 1, name: 'SQL injection in Django Trunc() and Extract()' },
        { id: 'CVE-1999-99999', known: false, vulnerabilityId: null, primaryId: null, level: null, name: null },
      ]);
    });

    it('refuses an empty list', async () => {
      const reply = await user.request({ method: 'POST', url: '/api/knowledgeBase/vulnerability/check', body: { ids: [] } });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(/^请求参数错误：请求体字段 ids/);
    });
  });

  describe('components', () => {
    it('reports findings and risk per component, from coordinates or purls', async () => {
      const reply = await user.request({
        method: 'POST', url: '/api/knowledgeBase/component/check',
        body: {
          components: [
            { ecosystem: 'maven', name: 'org.apache.logging.log4j:log4j-core', version: '2.14.1' },
            { ecosystem: 'npm', name: 'lodash' },
            { ecosystem: 'PyPI', name: 'Django', version: '4.0.5' },
          ],
          purls: ['pkg:npm/lodash@4.17.15', 'pkg:npm/lodash@4.17.21', 'pkg:npm/left-pad@1.3.0', 'pkg:golang/github.com/gin-gonic/gin@v1.5.0'],
        },
      });
      expect(reply.body.code).toBe(1);
      const rows = reply.body.data as { purl: string; name: string; known: boolean; findings: number; risk: number; vulnerabilities: { id: string; level: number; fixedVersions: string[] }[] }[];
      expect(rows.map((r) => [r.name, r.known, r.findings, r.risk])).toEqual([
        ['org.apache.logging.log4j:log4j-core', true, 1, 1],
        ['lodash', true, 0, 64],
        ['django', true, 1, 1],
        ['lodash', true, 2, 2],
        ['lodash', true, 0, 32],
        ['left-pad', false, 0, 32],
        ['github.com/gin-gonic/gin', true, 1, 4],
      ]);
      expect(rows[0]!.purl).toBe('pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1');
      expect(rows[0]!.vulnerabilities).toEqual([{ id: 'CVE-2021-44228', level: 1, fixedVersions: ['2.3.1', '2.12.2', '2.15.0'], fixState: 'fixed' }]);
      expect(rows[3]!.vulnerabilities.map((v) => v.id).sort()).toEqual(['CVE-2020-8203', 'CVE-2021-23337']);
    });

    it('refuses unreadable purls and empty requests with a message', async () => {
      const bad = await user.request({ method: 'POST', url: '/api/knowledgeBase/component/check', body: { purls: ['pkg:npm/lodash@4.17.15', 'lodash'] } });
      expect(bad.body.code).toBe(0);
      expect(bad.body.message).toMatch(/^第 2 个组件：组件标识无效（应为 purl，如 pkg:npm\/lodash@4.17.20）/);
      const empty = await user.request({ method: 'POST', url: '/api/knowledgeBase/component/check', body: {} });
      expect(empty.body).toEqual({ code: 0, message: '请提供要检查的组件（components 或 purls）', data: null });
    });
  });

  describe('recommended versions', () => {
    it('recommends the nearest version no known advisory affects', async () => {
      const lodash = await recommend(user, 'pkg:npm/lodash@4.17.15');
      expect(lodash.body.data).toEqual({
        purl: 'pkg:npm/lodash@4.17.15', ecosystem: 'npm', name: 'lodash', version: '4.17.15',
        recommendVersion: '4.17.21', reason: '升级到 4.17.21 可消除当前版本的全部已知漏洞', findings: 2,
      });
      const log4j = await recommend(user, 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1');
      expect(log4j.body.data).toMatchObject({ name: 'org.apache.logging.log4j:log4j-core', recommendVersion: '2.15.0', findings: 1 });
      const clean = await recommend(user, 'pkg:npm/lodash@4.17.21');
      expect(clean.body.data).toMatchObject({ recommendVersion: '4.17.21', reason: '当前版本无已知漏洞', findings: 0 });
      const long = await recommend(user, 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1?type=jar&classifier=sources&repository_url=https%3A%2F%2Frepo1.maven.org%2Fmaven2');
      expect(long.body.data).toMatchObject({ name: 'org.apache.logging.log4j:log4j-core', recommendVersion: '2.15.0' });
      const unversioned = await recommend(user, 'pkg:npm/lodash');
      expect(unversioned.body.data).toMatchObject({ version: '', recommendVersion: null, reason: '版本未知，无法推荐', findings: 0 });
    });

    it('answers 组件不存在 for component ids and explains unreadable purls', async () => {
      expect((await recommend(user, '42')).body).toEqual({ code: 0, message: '组件不存在', data: null });
      const bad = await recommend(user, 'lodash@1.0.0');
      expect(bad.body.code).toBe(0);
      expect(bad.body.message).toMatch(/^组件标识无效/);
    });

    it('recommends in bulk', async () => {
      const reply = await user.request({
        method: 'POST', url: '/api/component/bulkGetRecommendVersion',
        body: { purls: ['pkg:pypi/Django@3.2.10', 'pkg:golang/github.com/gin-gonic/gin@v1.4.0', 'pkg:npm/left-pad@1.3.0'] },
      });
      expect(reply.body.data.map((r: { name: string; recommendVersion: string | null }) => [r.name, r.recommendVersion])).toEqual([
        ['django', '3.2.14'],
        ['github.com/gin-gonic/gin', '1.6.0'],
        ['left-pad', '1.3.0'],
      ]);
      const bad = await user.request({ method: 'POST', url: '/api/component/bulkGetRecommendVersion', body: { purls: ['nope'] } });
      expect(bad.body.message).toMatch(/^第 1 个组件：组件标识无效/);
    });
  });

  describe('knowledge changes', () => {
    it('sees a system vulnerability as soon as it is added', async () => {
      const before = await user.request({ method: 'POST', url: '/api/knowledgeBase/component/check', body: { purls: ['pkg:npm/left-pad@1.3.0'] } });
      expect(before.body.data[0]).toMatchObject({ known: false, findings: 0, risk: 32 });
      const added = await admin.request({
        method: 'POST', url: '/api/vulnerability/system/add',
        body: { name: 'left-pad 内部通报漏洞', level: 4, packages: [{ ecosystem: 'npm', name: 'left-pad', vulnerable: ['<1.3.1'], fixed: ['1.3.1'] }] },
      });
      expect(added.body.code).toBe(1);
      const after = await user.request({ method: 'POST', url: '/api/knowledgeBase/component/check', body: { purls: ['pkg:npm/left-pad@1.3.0'] } });
      expect(after.body.data[0]).toMatchObject({ known: true, findings: 1, risk: 4, vulnerabilities: [{ id: added.body.data.identify, level: 4, fixedVersions: ['1.3.1'], fixState: 'fixed' }] });
      const upgrade = await recommend(user, 'pkg:npm/left-pad@1.3.0');
      expect(upgrade.body.data.recommendVersion).toBe('1.3.1');
      const known = await user.request({ method: 'POST', url: '/api/knowledgeBase/vulnerability/check', body: { ids: [added.body.data.identify.toLowerCase()] } });
      expect(known.body.data[0]).toMatchObject({ known: true, primaryId: added.body.data.identify });
    });
  });

  describe('permissions', () => {
    it('refuses users without the 漏洞 and 组件 permissions', async () => {
      for (const [method, url, body] of [
        ['POST', '/api/knowledgeBase/vulnerability/check', { ids: ['CVE-2021-44228'] }],
        ['POST', '/api/knowledgeBase/component/check', { purls: ['pkg:npm/lodash@4.17.15'] }],
        ['GET', `/api/component/recommendVersion/${encodeURIComponent('pkg:npm/lodash@4.17.15')}`, undefined],
        ['POST', '/api/component/bulkGetRecommendVersion', { purls: ['pkg:npm/lodash@4.17.15'] }],
      ] as const) {
        const reply = await nobody.request({ method, url, body });
        expect(reply.status, url).toBe(403);
        expect(reply.body.message).toBe('Permission denied');
      }
    });
  });
});
