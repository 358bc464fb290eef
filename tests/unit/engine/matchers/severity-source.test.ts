// Which source set a finding's level (issue 14, item 2): CVSS v4 / v3.x / v2 vectors, the severity an
// advisory database states, NVD metrics reached through an alias, and 未评级 when nothing rates the
// flaw. Real advisories from ../shared/corpora (RustSec, Go vulndb); the GHSA and NVD records are
// those databases' documents for the same flaw, cut to the fields the knowledge base reads.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assessSeverity, severityDatabase, severitySourceLabel, storedSeveritySource } from '../../../../server/engine/matchers/severity.ts';
import { buildAdvisoryIndex, matchPackage } from '../../../../server/engine/matchers/vulnerabilities.ts';
import { osvRecord } from '../../../../server/kb/formats/osv.ts';
import { parseNvdFeed } from '../../../../server/kb/formats/nvd.ts';
import { UNRATED_FINDING } from '../../../../contract/enums.ts';

const ADVISORIES = path.resolve(import.meta.dirname, '../../../../../shared/corpora/advisories');
const corpus = (file: string) => osvRecord(JSON.parse(readFileSync(path.join(ADVISORIES, file), 'utf8')));

/** GHSA's record of GO-2020-0001 (github.com/advisories/GHSA-6vm3-jj99-7229): a stated severity, no vector. */
const ghsa = osvRecord({
  schema_version: '1.4.0', id: 'GHSA-6vm3-jj99-7229', modified: '2023-06-12T18:45:41Z', published: '2022-12-27T00:30:23Z',
  aliases: ['CVE-2020-36567'], summary: 'Gin Web Framework does not properly sanitize filename parameter',
  affected: [{ package: { ecosystem: 'Go', name: 'github.com/gin-gonic/gin' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.6.0' }] }] }],
  database_specific: { severity: 'MODERATE', github_reviewed: true, cwe_ids: ['CWE-116'] },
});

/** NVD's CVE-2020-36567 (API 2.0 feed shape): its own CVSS 3.1 assessment. */
const nvd = parseNvdFeed(JSON.stringify({
  format: 'NVD_CVE', version: '2.0', vulnerabilities: [{
    cve: {
      id: 'CVE-2020-36567', published: '2022-12-27T22:15:09.610', lastModified: '2023-01-06T18:23:47.410', vulnStatus: 'Analyzed',
      descriptions: [{ lang: 'en', value: 'Unsanitized input in the default logger in github.com/gin-gonic/gin before v1.6.0 allows remote attackers to inject arbitrary log lines.' }],
      metrics: { cvssMetricV31: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '3.1', vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N', baseScore: 7.5, baseSeverity: 'HIGH' } }] },
      weaknesses: [{ source: 'nvd@nist.gov', type: 'Primary', description: [{ lang: 'en', value: 'CWE-117' }] }],
    },
  }],
})).records[0]!;

const gin = { ecosystem: 'golang', name: 'github.com/gin-gonic/gin', version: '1.5.0' };

describe('评级来源', () => {
  it('CVSS 向量：按版本、数据库与分数记录来源（真实 RustSec 记录：v3.0 与 v4.0）', () => {
    const v3 = corpus('crates.io/RUSTSEC-2016-0001.json').advisory;
    expect(v3).toMatchObject({ level: 2, score: 8.1, severitySource: 'CVSS:3.0 RustSec 8.1' });
    const v4 = corpus('crates.io/RUSTSEC-2024-0445.json').advisory;
    expect(v4.severitySource).toMatch(/^CVSS:4\.0 RustSec \d\.\d$/);
    expect(v4.severitySource).toBe(`CVSS:4.0 RustSec ${v4.score!.toFixed(1)}`);
    expect(assessSeverity([{ vector: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' }], null, 'NVD').source).toBe('CVSS:2.0 NVD 7.5');
  });

  it('没有向量时用数据库声明的评级；都没有时为未评级', () => {
    expect(ghsa.advisory).toMatchObject({ level: 4, score: null, severitySource: 'GHSA 数据库评级 MODERATE' });
    // Go vulndb states no severity at all.
    const go = corpus('go/GO-2020-0001.json').advisory;
    expect(go).toMatchObject({ level: 16, score: null });
    expect(go.severitySource).toBeNull();
    expect(nvd.advisory).toMatchObject({ level: 2, score: 7.5, severitySource: 'CVSS:3.1 NVD 7.5' });
  });

  it('发现的等级取该漏洞所有记录中优先的一条：经别名找到的 NVD 向量优先于数据库评级', () => {
    const go = corpus('go/GO-2020-0001.json').advisory;
    // Only the Go record: unrated, 未评级 with the reason.
    expect(matchPackage(buildAdvisoryIndex([go]), gin)).toMatchObject([{ id: 'CVE-2020-36567', level: 16, severitySource: null }]);
    expect(UNRATED_FINDING).toEqual({ label: '未评级', reason: '知识库中该漏洞没有 CVSS 评分或评级' });
    // The GHSA alias states MODERATE.
    expect(matchPackage(buildAdvisoryIndex([go, ghsa.advisory]), gin)).toMatchObject([{ level: 4, severitySource: 'GHSA 数据库评级 MODERATE' }]);
    // NVD's entry for the CVE alias has a CVSS 3.1 vector: it sets the level.
    expect(matchPackage(buildAdvisoryIndex([go, ghsa.advisory, nvd.advisory]), gin)).toMatchObject([{ level: 2, score: 7.5, severitySource: 'CVSS:3.1 NVD 7.5' }]);
    // A version outside the affected range has no finding.
    expect(matchPackage(buildAdvisoryIndex([go, nvd.advisory]), { ...gin, version: '1.6.0' })).toEqual([]);
  });

  it('知识库记录加载时按存储的列给出来源', () => {
    expect(storedSeveritySource({ source: 'nvd', advisoryId: 'CVE-2021-44228', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', score: 10, level: 1 })).toBe('CVSS:3.1 NVD 10.0');
    expect(storedSeveritySource({ source: 'osv', advisoryId: 'GHSA-jfh8-c2jp-5v3q', vector: null, score: null, level: 1 })).toBe('GHSA 数据库评级 CRITICAL');
    expect(storedSeveritySource({ source: 'osv', advisoryId: 'PYSEC-2021-19', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, level: 1 })).toBe('CVSS:3.1 PyPA 9.8');
    expect(storedSeveritySource({ source: 'trivy', advisoryId: 'CVE-2019-10744', vector: null, score: null, level: 2 })).toBe('trivy 数据库评级 HIGH');
    expect(storedSeveritySource({ source: 'custom', advisoryId: 'CAIRN-2026-0001', origin: '系统漏洞库', vector: null, score: null, level: 2 })).toBe('系统漏洞库 人工评级 高危');
    expect(storedSeveritySource({ source: 'osv', advisoryId: 'GO-2020-0001', vector: null, score: null, level: 16 })).toBeNull();
    expect(severityDatabase('osv', 'RUSTSEC-2016-0001')).toBe('RustSec');
    expect(severitySourceLabel({ database: 'GHSA', version: null, score: null, level: 2, word: 'high' })).toBe('GHSA 数据库评级 HIGH');
  });
});
