// trivy's YAML test database, NVD CVE JSON 2.0 feeds and CNNVD/CNVD mapping files, imported
// into the knowledge base and read back as the matcher sees them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../server/harness.ts';
import { importKnowledge } from '../../../server/kb/import.ts';
import { deleteAdvisories, loadAdvisories } from '../../../server/db/repositories/knowledge-base.ts';
import { parseOsv } from '../../../server/kb/formats/osv.ts';
import { buildAdvisoryIndex, matchPackage, type Advisory } from '../../../server/engine/index.ts';
import { contentHash, openKb, tableCounts, type KbDatabase } from './helpers.ts';

const TRIVY_DB = '../shared/corpora/trivy/db';

const nvdFeed = {
  resultsPerPage: 3,
  startIndex: 0,
  totalResults: 3,
  format: 'NVD_CVE',
  version: '2.0',
  timestamp: '2024-05-01T00:00:00.000',
  vulnerabilities: [
    {
      cve: {
        id: 'CVE-2021-44228',
        sourceIdentifier: 'security@apache.org',
        published: '2021-12-10T10:15:09.143',
        lastModified: '2024-04-03T17:15:08.030',
        vulnStatus: 'Modified',
        descriptions: [
          { lang: 'en', value: 'Apache Log4j2 2.0-beta9 through 2.15.0 JNDI features do not protect against attacker controlled LDAP endpoints.' },
          { lang: 'es', value: 'Apache Log4j2 ...' },
        ],
        metrics: {
          cvssMetricV31: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '3.1', vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', baseScore: 10.0, baseSeverity: 'CRITICAL' }, exploitabilityScore: 3.9, impactScore: 6.0 }],
          cvssMetricV2: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '2.0', vectorString: 'AV:N/AC:M/Au:N/C:C/I:C/A:C', baseScore: 9.3 }, baseSeverity: 'HIGH' }],
        },
        weaknesses: [{ source: 'nvd@nist.gov', type: 'Primary', description: [{ lang: 'en', value: 'CWE-917' }] }, { source: 'security@apache.org', type: 'Secondary', description: [{ lang: 'en', value: 'CWE-20' }, { lang: 'en', value: 'NVD-CWE-noinfo' }] }],
        references: [
          { url: 'https://logging.apache.org/log4j/2.x/security.html', source: 'security@apache.org', tags: ['Release Notes', 'Vendor Advisory'] },
          { url: 'https://github.com/apache/logging-log4j2/commit/c77b3cb39312b83b053d23a2158b99ac7de44dd3', source: 'security@apache.org', tags: ['Patch'] },
        ],
        configurations: [{ nodes: [{ operator: 'OR', negate: false, cpeMatch: [{ vulnerable: true, criteria: 'cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:*', versionStartIncluding: '2.0.1', versionEndExcluding: '2.3.1', matchCriteriaId: 'x' }] }] }],
      },
    },
    {
      cve: {
        id: 'CVE-2024-3094',
        published: '2024-03-29T17:15:21.150',
        lastModified: '2024-04-01T00:00:00.000',
        vulnStatus: 'Analyzed',
        descriptions: [{ lang: 'en', value: 'Malicious code was discovered in the upstream tarballs of xz, starting with version 5.6.0.' }],
        metrics: {
          cvssMetricV40: [{ source: 'secalert@redhat.com', type: 'Secondary', cvssData: { version: '4.0', vectorString: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', baseScore: 9.3, baseSeverity: 'CRITICAL' } }],
        },
        weaknesses: [{ description: [{ lang: 'en', value: 'CWE-506' }] }],
        references: [{ url: 'https://www.openwall.com/lists/oss-security/2024/03/29/4', tags: [] }],
      },
    },
    {
      cve: {
        id: 'CVE-2023-99999',
        published: '2023-01-01T00:00:00.000',
        lastModified: '2023-02-01T00:00:00.000',
        vulnStatus: 'Rejected',
        descriptions: [{ lang: 'en', value: 'Rejected reason: This candidate was withdrawn by its CNA.' }],
        metrics: {},
        references: [],
      },
    },
    { cve: { descriptions: [] } },
  ],
};

const byId = (advisories: Advisory[]) => new Map(advisories.map((a) => [a.id, a]));

describe.each(databases)('trivy、NVD 与编号映射（$name）', (database) => {
  let kb: KbDatabase;
  let dir: string;
  beforeAll(async () => {
    kb = await openKb(database);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kb-'));
  });
  afterAll(async () => {
    await kb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports the trivy database folder, one record per vulnerability id', async () => {
    const summary = await importKnowledge(kb.db, TRIVY_DB);
    expect(summary.kind).toBe('trivy');
    expect(summary.errors).toEqual([]);
    expect(summary.imported).toBeGreaterThan(40);
    const record = await kb.db.selectFrom('kb_import_records').selectAll().where('id', '=', summary.recordId).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ kind: 'trivy', status: 2, progress: 100, imported: summary.imported });

    const advisories = byId(await loadAdvisories(kb.db));
    const jquery = advisories.get('CVE-2019-11358')!;
    expect(jquery.affected).toEqual([{ ecosystem: 'npm', distribution: null, name: 'jquery', ranges: [], versions: [], vulnerable: ['< 3.4.0'], patched: ['3.4.0'], fixed: ['3.4.0'] }]);
    expect(jquery.summary).not.toBe('');

    const jackson = [...advisories.values()].flatMap((a) => a.affected.filter((p) => p.ecosystem === 'maven' && p.name === 'com.fasterxml.jackson.core:jackson-databind').map((p) => [a.id, p.vulnerable, p.fixed]));
    expect(jackson.sort()).toEqual([
      ['CVE-2020-9548', ['>= 2.0.0, <= 2.9.10.3'], ['2.9.10.4']],
      ['CVE-2021-20190', ['[2.9.0,2.9.10.7)'], ['2.9.10.7']],
    ]);

    // vulnerability.yaml: NVD's CVSS wins over the vendor's and over the severity word (LOW).
    const bash = advisories.get('CVE-2022-3715')!;
    expect([bash.level, bash.score, bash.vector]).toEqual([2, 7.8, 'CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H']);
    expect(bash.cwes).toEqual(['CWE-787']);
    expect(bash.published).toBe('2023-01-05T15:15:00.000Z');
    // No fix on Ubuntu 22.04: every version is affected.
    expect(bash.affected).toEqual([{ ecosystem: 'deb', distribution: 'ubuntu:22.04', name: 'bash', ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }], versions: [], vulnerable: [], patched: [], fixed: [], fixState: 'affected' }]);
    // trivy's Status is kept per release: Red Hat will not fix bash's CVE-2019-18276 (5), Debian 9
    // has reached its end of life (7); an entry with a fixed version is fixed.
    const states = (id: string) => advisories.get(id)!.affected.map((p) => `${p.distribution} ${p.name} ${p.fixState}`).sort();
    expect(states('CVE-2019-18276')).toEqual(expect.arrayContaining(['debian:9 bash end_of_life', 'redhat:7 bash will_not_fix']));
    expect(states('CVE-2020-29573')).toEqual(expect.arrayContaining(['redhat:6 glibc end_of_life']));
    expect(new Set(states('CVE-2019-1559').map((s) => s.split(' ')[2]))).toEqual(new Set(['fixed']));
    expect([advisories.get('CVE-2016-9401')!.level, advisories.get('CVE-2016-9401')!.score]).toEqual([4, 5.5]);

    const openssl = advisories.get('CVE-2019-1549')!;
    expect(openssl.affected.map((p) => [p.ecosystem, p.distribution, p.name, p.vulnerable])).toEqual([
      ['apk', 'alpine:3.9', 'openssl', ['< 1.1.1d-r0']],
      ['apk', 'alpine:3.10', 'openssl', ['< 1.1.1d-r0']],
    ]);
    // Red Hat advisories are filed under their CVEs; cpe.yaml gives the release.
    const rhsa = advisories.get('CVE-2019-1559')!;
    expect(rhsa.aliases.sort()).toEqual(['RHSA-2019:2304', 'RHSA-2019:2471']);
    expect(rhsa.affected.map((p) => `${p.distribution} ${p.name} ${p.fixed[0]}`).sort()).toEqual([
      'redhat:6 openssl 0:1.0.1e-58.el6_10',
      'redhat:7 openssl 1:1.0.2k-19.el7',
      'redhat:7 openssl-libs 1:1.0.2k-19.el7',
    ]);
    // Only patched constraints given: kept as trivy gives them.
    expect(advisories.get('CVE-2021-38193')!.affected[0]).toMatchObject({ ecosystem: 'cargo', name: 'ammonia', vulnerable: [], patched: ['>= 3.1.0', '>= 2.1.3, < 3.0.0'], fixed: ['3.1.0', '2.1.3'] });
    expect(advisories.get('CVE-2022-42975')!.affected[0]).toMatchObject({ ecosystem: 'hex', name: 'phoenix' });
    expect(advisories.get('CVE-2019-14806')!.affected[0]).toMatchObject({ ecosystem: 'pypi', name: 'werkzeug' });

    const row = await kb.db.selectFrom('kb_advisories').select(['source', 'origin']).where('advisory_id', '=', 'CVE-2020-9548').executeTakeFirstOrThrow();
    expect(row).toEqual({ source: 'trivy', origin: 'GitHub Security Advisory Maven' });

    const hash = await contentHash(kb.db);
    const again = await importKnowledge(kb.db, TRIVY_DB);
    expect([again.imported, again.updated, again.unchanged]).toEqual([0, 0, summary.imported]);
    expect(await contentHash(kb.db)).toBe(hash);
  });

  it('imports NVD CVE 2.0 feeds, plain and gzipped', async () => {
    const plain = path.join(dir, 'nvdcve-2.0-2021.json');
    fs.writeFileSync(plain, JSON.stringify(nvdFeed, null, 2));
    const summary = await importKnowledge(kb.db, plain);
    expect(summary).toMatchObject({ kind: 'nvd', files: 1, imported: 3, updated: 0, unchanged: 0, failed: 1 });
    expect(summary.errors).toEqual([{ file: 'nvdcve-2.0-2021.json', message: '第 4 条记录缺少有效的 CVE 编号，已跳过' }]);

    const log4j = await kb.db.selectFrom('kb_advisories').selectAll().where('advisory_id', '=', 'CVE-2021-44228').executeTakeFirstOrThrow();
    expect(log4j).toMatchObject({ source: 'nvd', origin: 'NVD', level: 1, score: 10, cvss_version: '3.1', cve: 'CVE-2021-44228', published: '2021-12-10T10:15:09.143Z', withdrawn: null });
    expect(JSON.parse(log4j.cwes)).toEqual(['CWE-917', 'CWE-20']);
    expect(JSON.parse(log4j.fix_commits)).toEqual(['https://github.com/apache/logging-log4j2/commit/c77b3cb39312b83b053d23a2158b99ac7de44dd3']);
    expect(log4j.details).toMatch(/^Apache Log4j2 2\.0-beta9/);

    const advisories = byId(await loadAdvisories(kb.db));
    expect(advisories.get('CVE-2024-3094')).toMatchObject({ level: 1, score: 9.3, affected: [], withdrawn: false });
    expect(advisories.get('CVE-2024-3094')!.vector).toMatch(/^CVSS:4\.0\//);
    expect(advisories.get('CVE-2023-99999')).toMatchObject({ withdrawn: true, level: 16 });

    // The same feed gzipped: nothing changed. A feed entry never replaces a trivy/OSV row with packages.
    const feed = structuredClone(nvdFeed);
    feed.vulnerabilities.push({ cve: { id: 'CVE-2019-11358', published: '2019-04-20T00:29:00.000', lastModified: '2030-01-01T00:00:00.000', vulnStatus: 'Modified', descriptions: [{ lang: 'en', value: 'jQuery before 3.4.0 mishandles jQuery.extend.' }], metrics: {}, references: [] } } as never);
    const gz = path.join(dir, 'nvdcve-2.0-modified.json.gz');
    fs.writeFileSync(gz, zlib.gzipSync(JSON.stringify(feed)));
    const again = await importKnowledge(kb.db, gz);
    expect(again).toMatchObject({ kind: 'nvd', imported: 0, updated: 0, unchanged: 4, failed: 1 });
    const jquery = await kb.db.selectFrom('kb_advisories').select(['source']).where('advisory_id', '=', 'CVE-2019-11358').executeTakeFirstOrThrow();
    expect(jquery.source).toBe('trivy');
  });

  it('imports CNNVD/CNVD mappings from CSV and JSON, reporting bad rows by line', async () => {
    const csv = path.join(dir, 'mapping.csv');
    fs.writeFileSync(csv, '\uFEFFCNNVD编号,CVE编号,CNVD编号\n'
      + 'CNNVD-201904-1034,CVE-2019-11358,CNVD-2019-12345\n'
      + 'CNNVD-202112-799,cve-2021-44228,\n'
      + ',CVE-2020-0001,\n'
      + 'CNNVD-X,CVE-2020-0002,\n'
      + '\n'
      + 'CNNVD-201910-123,CVE-2019-1549,\n'
      + 'CNNVD-201910-124,CVE-2019,\n');
    const summary = await importKnowledge(kb.db, csv);
    expect(summary).toMatchObject({ kind: 'id-map', imported: 3, unchanged: 0, failed: 3 });
    expect(summary.errors).toEqual([
      { file: 'mapping.csv:4', message: '第 4 行：CVE-2020-0001 没有 CNNVD 或 CNVD 编号' },
      { file: 'mapping.csv:5', message: '第 5 行：CNNVD 编号格式不正确：CNNVD-X' },
      { file: 'mapping.csv:8', message: '第 8 行：CVE 编号格式不正确：CVE-2019' },
    ]);
    expect((await tableCounts(kb.db)).idMap).toBe(3);

    const advisories = byId(await loadAdvisories(kb.db));
    expect(advisories.get('CVE-2019-11358')!.aliases.sort()).toEqual(['CNNVD-201904-1034', 'CNVD-2019-12345']);
    expect(advisories.get('CVE-2021-44228')!.aliases).toEqual(['CNNVD-202112-799']);
    const display = await kb.db.selectFrom('kb_advisories').select(['cnnvd', 'cnvd']).where('advisory_id', '=', 'CVE-2019-11358').executeTakeFirstOrThrow();
    expect(display).toEqual({ cnnvd: 'CNNVD-201904-1034', cnvd: 'CNVD-2019-12345' });

    const again = await importKnowledge(kb.db, csv);
    expect(again).toMatchObject({ imported: 0, unchanged: 3, failed: 3 });
    expect((await tableCounts(kb.db)).idMap).toBe(3);

    const json = path.join(dir, 'mapping.json');
    fs.writeFileSync(json, JSON.stringify([{ cve: 'CVE-2019-11358', cnnvd: 'CNNVD-201904-1035', cnvd: null }, { cve: 'bad' }]));
    const fromJson = await importKnowledge(kb.db, json);
    expect(fromJson).toMatchObject({ kind: 'id-map', imported: 1, failed: 1 });
    expect(fromJson.errors[0]!.message).toBe('第 2 项：CVE 编号格式不正确：BAD');
    // A CVE's mapping is replaced as a whole by the newer file.
    expect(byId(await loadAdvisories(kb.db)).get('CVE-2019-11358')!.aliases).toEqual(['CNNVD-201904-1035']);
    const redisplayed = await kb.db.selectFrom('kb_advisories').select(['cnnvd', 'cnvd']).where('advisory_id', '=', 'CVE-2019-11358').executeTakeFirstOrThrow();
    expect(redisplayed).toEqual({ cnnvd: 'CNNVD-201904-1035', cnvd: null });
    expect((await tableCounts(kb.db)).idMap).toBe(3);
  });

  it('rates a CVE no advisory rates by the CNNVD level its mapping states (CNNVD 中危)', async () => {
    // Go vulndb states no severity for GO-2020-0001 (CVE-2020-36567).
    const goDoc = path.resolve(import.meta.dirname, '../../../../shared/corpora/advisories/go/GO-2020-0001.json');
    expect(await importKnowledge(kb.db, goDoc)).toMatchObject({ imported: 1 });
    const gin = { ecosystem: 'golang', name: 'github.com/gin-gonic/gin', version: '1.5.0' };
    const unrated = matchPackage(buildAdvisoryIndex(await loadAdvisories(kb.db)), gin);
    expect(unrated).toMatchObject([{ id: 'CVE-2020-36567', level: 16, severitySource: null }]);

    const csv = path.join(dir, 'mapping-levels.csv');
    fs.writeFileSync(csv, 'CVE编号,CNNVD编号,危害等级\nCVE-2020-36567,CNNVD-202212-4110,中危\nCVE-2020-0003,CNNVD-202001-0001,严重\nCVE-2020-0004,,高危\n');
    const summary = await importKnowledge(kb.db, csv);
    expect(summary).toMatchObject({ kind: 'id-map', imported: 1, failed: 2 });
    expect(summary.errors.map((e) => e.message)).toEqual([
      '第 3 行：CNNVD 等级无法识别：严重（应为 超危、高危、中危 或 低危）',
      '第 4 行：CVE-2020-0004 没有 CNNVD 或 CNVD 编号',
    ]);
    const rated = matchPackage(buildAdvisoryIndex(await loadAdvisories(kb.db)), gin);
    expect(rated).toMatchObject([{ id: 'CVE-2020-36567', level: 4, severitySource: 'CNNVD 中危' }]);
    expect(rated[0]!.aliases).toContain('CNNVD-202212-4110');
    // A stated severity (here a GHSA record of the same flaw) comes before the mapping's level.
    const ghsa = path.join(dir, 'GHSA-6vm3-jj99-7229.json');
    fs.writeFileSync(ghsa, JSON.stringify({
      schema_version: '1.4.0', id: 'GHSA-6vm3-jj99-7229', modified: '2023-06-12T18:45:41Z', aliases: ['CVE-2020-36567'], summary: 'gin log injection',
      affected: [{ package: { ecosystem: 'Go', name: 'github.com/gin-gonic/gin' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.6.0' }] }] }],
      database_specific: { severity: 'LOW' },
    }));
    expect(await importKnowledge(kb.db, ghsa)).toMatchObject({ imported: 1 });
    expect(matchPackage(buildAdvisoryIndex(await loadAdvisories(kb.db)), gin)).toMatchObject([{ level: 8, severitySource: 'GHSA 数据库评级 LOW' }]);
    await deleteAdvisories(kb.db, ['GO-2020-0001', 'GHSA-6vm3-jj99-7229']);
  });

  it('deletes advisories with their aliases and affected packages', async () => {
    const before = await tableCounts(kb.db);
    const removed = await deleteAdvisories(kb.db, ['CVE-2019-1559', 'CVE-2019-1549', 'NOT-THERE']);
    expect(removed).toBe(2);
    const after = await tableCounts(kb.db);
    expect(before.advisories - after.advisories).toBe(2);
    expect(before.aliases - after.aliases).toBe(2);
    expect(before.affected - after.affected).toBe(5);
  });
});

describe('OSV 生态映射与解析错误', () => {
  const affectedOf = (ecosystem: string, name: string) =>
    parseOsv(JSON.stringify({ id: 'TEST-1', affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.2' }] }] }] }), 'x.json').advisory.affected[0]!;

  it('maps OSV ecosystems to purl types and distributions', () => {
    const cases: [string, string, string, string | null, string][] = [
      ['npm', '@Scope/Pkg', 'npm', null, '@scope/pkg'],
      ['Maven', 'org.Apache:Commons', 'maven', null, 'org.apache:commons'],
      ['PyPI', 'Zope.Interface', 'pypi', null, 'zope-interface'],
      ['Go', 'github.com/Foo/Bar', 'golang', null, 'github.com/Foo/Bar'],
      ['Go', 'toolchain', 'golang', null, 'toolchain'],
      ['crates.io', 'Serde', 'cargo', null, 'serde'],
      ['RubyGems', 'Rails', 'gem', null, 'Rails'],
      ['Packagist', 'Laravel/Framework', 'composer', null, 'laravel/framework'],
      ['NuGet', 'Newtonsoft.Json', 'nuget', null, 'newtonsoft.json'],
      ['Pub', 'http', 'pub', null, 'http'],
      ['Hex', 'Phoenix', 'hex', null, 'phoenix'],
      ['CRAN', 'commonmark', 'cran', null, 'commonmark'],
      ['Hackage', 'aeson', 'hackage', null, 'aeson'],
      ['SwiftURL', 'github.com/apple/swift-nio', 'swift', null, 'github.com/apple/swift-nio'],
      ['Debian:11', 'OpenSSL', 'deb', 'debian:11', 'openssl'],
      ['Ubuntu:22.04:LTS', 'bash', 'deb', 'ubuntu:22.04', 'bash'],
      ['Alpine:v3.16', 'musl', 'apk', 'alpine:3.16', 'musl'],
      ['Red Hat:enterprise_linux:8::appstream', 'nodejs', 'rpm', 'redhat:8', 'nodejs'],
      ['Rocky Linux:9', 'kernel', 'rpm', 'rocky:9', 'kernel'],
      ['AlmaLinux:8', 'kernel', 'rpm', 'almalinux:8', 'kernel'],
      ['Wolfi', 'glibc', 'apk', 'wolfi', 'glibc'],
      ['OSS-Fuzz', 'libpng', 'oss-fuzz', null, 'libpng'],
    ];
    for (const [ecosystem, name, type, distribution, normalised] of cases) {
      expect([ecosystem, affectedOf(ecosystem, name)]).toMatchObject([ecosystem, { ecosystem: type, distribution, name: normalised, fixed: ['1.2'] }]);
    }
  });

  it('rejects malformed documents with Chinese messages', () => {
    expect(() => parseOsv('[1, 2]', 'a.json')).toThrow('不是 OSV 漏洞文档：顶层应为对象');
    expect(() => parseOsv('id: [', 'a.yaml')).toThrow(/^不是有效的 YAML 文档/);
    expect(() => parseOsv(JSON.stringify({ id: 'X-1', affected: [{ package: { name: 'a' } }] }), 'a.json')).toThrow('漏洞 X-1 的 affected[0].package 缺少 name 或 ecosystem');
    expect(() => parseOsv(JSON.stringify({ id: 'X-1', affected: [{ package: { name: 'a', ecosystem: 'npm' }, ranges: [{ type: 'SEMVER' }] }] }), 'a.json')).toThrow('漏洞 X-1 的 affected[0].ranges[0] 缺少 type 或 events');
    // YAML scalars stay strings: 1.10 is a version, not the number 1.1.
    expect(parseOsv('id: X-2\naffected:\n- package: {ecosystem: PyPI, name: a}\n  versions: [1.10, 2.0]\n', 'a.yaml').advisory.affected[0]!.versions).toEqual(['1.10', '2.0']);
  });
});
