// The matcher on hand-built advisories: exact-version semantics of OSV ranges, version lists and
// constraint strings; one finding per flaw across aliases; withdrawn advisories ignored; levels
// from the best record; risk levels; the recommended upgrade.
import { describe, expect, it } from 'vitest';
import type { Advisory, AffectedPackage } from '../../../../server/engine/matchers/advisory.ts';
import { buildAdvisoryIndex, matchComponents, matchPackage, recommendVersion, riskLevel, withDistribution } from '../../../../server/engine/matchers/vulnerabilities.ts';

const affected = (over: Partial<AffectedPackage> & Pick<AffectedPackage, 'ecosystem' | 'name'>): AffectedPackage => ({
  distribution: null, ranges: [], versions: [], vulnerable: [], patched: [], fixed: [], ...over,
});

const advisory = (over: Partial<Advisory> & Pick<Advisory, 'id'>): Advisory => ({
  aliases: [], summary: '', level: 16, score: null, vector: null, exploit: 16, cwes: [], published: null, modified: null, withdrawn: false, affected: [], ...over,
});

const lodash = advisory({
  id: 'GHSA-jf85-cpcp-j695',
  aliases: ['CVE-2019-10744'],
  summary: 'Prototype Pollution in lodash',
  level: 1, score: 9.1, vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:H', exploit: 1,
  affected: [affected({ ecosystem: 'npm', name: 'lodash', ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.12' }] }], fixed: ['4.17.12'] })],
});

describe('漏洞匹配', () => {
  it('OSV 范围按精确版本判断：修复版本及以上不受影响', () => {
    const index = buildAdvisoryIndex([lodash]);
    expect(matchPackage(index, { ecosystem: 'npm', name: 'lodash', version: '4.17.11' }).map((f) => f.id)).toEqual(['CVE-2019-10744']);
    expect(matchPackage(index, { ecosystem: 'npm', name: 'lodash', version: '4.17.12' })).toEqual([]);
    expect(matchPackage(index, { ecosystem: 'npm', name: 'lodash', version: '4.17.21' })).toEqual([]);
    expect(matchPackage(index, { ecosystem: 'npm', name: 'lodash-es', version: '4.17.11' })).toEqual([]);
  });

  it('同一漏洞的多个来源（别名相同）只算一个发现，等级取评分最好的记录', () => {
    const osv = advisory({
      id: 'PYSEC-2019-140', aliases: ['CVE-2019-14806'], summary: 'Werkzeug insufficient randomness',
      affected: [affected({ ecosystem: 'pypi', name: 'werkzeug', ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '0.15.3' }] }], fixed: ['0.15.3'] })],
    });
    const ghsa = advisory({
      id: 'GHSA-gq9m-qvpx-68hc', aliases: ['CVE-2019-14806'], level: 2, score: 7.5, vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', exploit: 1,
      affected: [affected({ ecosystem: 'pypi', name: 'Werkzeug', vulnerable: ['< 0.15.3'], fixed: ['0.15.3'] })],
    });
    // An NVD-style record that only describes the flaw.
    const nvd = advisory({ id: 'CVE-2019-14806', level: 2, score: 7.5, vector: 'AV:N/AC:L/Au:N/C:P/I:N/A:N', cwes: ['CWE-331'] });
    const index = buildAdvisoryIndex([osv, ghsa, nvd]);
    const findings = matchPackage(index, { ecosystem: 'pypi', name: 'Werkzeug', version: '0.11' });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      id: 'CVE-2019-14806',
      aliases: ['GHSA-gq9m-qvpx-68hc', 'PYSEC-2019-140'],
      level: 2,
      score: 7.5,
      vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
      exploit: 1,
      cwes: ['CWE-331'],
      fixedVersions: ['0.15.3'],
      sources: ['GHSA-gq9m-qvpx-68hc', 'PYSEC-2019-140'],
    });
  });

  it('已撤回的漏洞不参与匹配', () => {
    const index = buildAdvisoryIndex([{ ...lodash, withdrawn: true }]);
    expect(matchPackage(index, { ecosystem: 'npm', name: 'lodash', version: '4.17.4' })).toEqual([]);
  });

  it('版本列表、last_affected 与约束字符串', () => {
    const listed = advisory({ id: 'GO-2022-0001', affected: [affected({ ecosystem: 'golang', name: 'example.com/mod', versions: ['v1.2.3'] })] });
    const last = advisory({ id: 'RUSTSEC-2020-0001', affected: [affected({ ecosystem: 'cargo', name: 'crate', ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { last_affected: '1.4.0' }] }] })] });
    const maven = advisory({ id: 'CVE-2021-20190', affected: [affected({ ecosystem: 'maven', name: 'com.fasterxml.jackson.core:jackson-databind', vulnerable: ['[2.9.0,2.9.10.7)'], patched: ['2.9.10.7'] })] });
    const index = buildAdvisoryIndex([listed, last, maven]);
    expect(matchPackage(index, { ecosystem: 'golang', name: 'example.com/mod', version: 'v1.2.3' })).toHaveLength(1);
    expect(matchPackage(index, { ecosystem: 'golang', name: 'example.com/mod', version: 'v1.2.4' })).toHaveLength(0);
    expect(matchPackage(index, { ecosystem: 'cargo', name: 'crate', version: '1.4.0' })).toHaveLength(1);
    expect(matchPackage(index, { ecosystem: 'cargo', name: 'crate', version: '1.4.1' })).toHaveLength(0);
    expect(matchPackage(index, { ecosystem: 'cargo', name: 'crate', version: '0.9.0' })).toHaveLength(0);
    const jackson = { ecosystem: 'maven', name: 'com.fasterxml.jackson.core:jackson-databind' };
    expect(matchPackage(index, { ...jackson, version: '2.9.1' })).toHaveLength(1);
    expect(matchPackage(index, { ...jackson, version: '2.9.10.7' })).toHaveLength(0);
    expect(matchPackage(index, { ...jackson, version: '2.8.11' })).toHaveLength(0);
  });

  it('操作系统软件包只匹配同一发行版', () => {
    const apk = advisory({ id: 'CVE-2019-14697', affected: [affected({ ecosystem: 'apk', name: 'musl', distribution: 'alpine:3.9', vulnerable: ['< 1.1.20-r5'], fixed: ['1.1.20-r5'] })] });
    const index = buildAdvisoryIndex([apk]);
    expect(matchPackage(index, { ecosystem: 'apk', name: 'musl', version: '1.1.20-r4', distribution: 'alpine:3.9' })).toHaveLength(1);
    expect(matchPackage(index, { ecosystem: 'apk', name: 'musl', version: '1.1.20-r4', distribution: 'alpine:3.10' })).toHaveLength(0);
  });

  it('扫描得到的操作系统软件包：purl 的 distro（debian-12、alpine-3.9.4）对上知识库的发行版（debian:12、alpine:3.9），带 epoch 的版本照 dpkg 比较', () => {
    const deb = advisory({ id: 'DSA-5000-1', affected: [affected({ ecosystem: 'deb', name: 'git', distribution: 'debian:12', ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1:2.39.5-0+deb12u1' }] }], fixed: ['1:2.39.5-0+deb12u1'] })] });
    const apk = advisory({ id: 'CVE-2019-14697', affected: [affected({ ecosystem: 'apk', name: 'musl', distribution: 'alpine:3.9', vulnerable: ['< 1.1.20-r5'], fixed: ['1.1.20-r5'] })] });
    const index = buildAdvisoryIndex([deb, apk]);
    const found = matchComponents(index, [
      { ecosystem: 'deb', name: 'git', version: '1:2.39.2-1.1', purl: 'pkg:deb/debian/git@2.39.2-1.1?arch=amd64&distro=debian-12&epoch=1' },
      { ecosystem: 'deb', name: 'git', version: '1:2.39.5-0+deb12u1', purl: 'pkg:deb/debian/git@2.39.5-0%2Bdeb12u1?arch=amd64&distro=debian-12&epoch=1' },
      { ecosystem: 'deb', name: 'git', version: '1:2.39.2-1.1', purl: 'pkg:deb/debian/git@2.39.2-1.1?arch=amd64&distro=debian-11&epoch=1' },
      { ecosystem: 'apk', name: 'musl', version: '1.1.20-r4', purl: 'pkg:apk/alpine/musl@1.1.20-r4?arch=x86_64&distro=alpine-3.9.4' },
    ].map(withDistribution));
    expect(found.map((f) => f.findings.length)).toEqual([1, 0, 0, 1]);
  });

  it('发行版按源码包发布公告：libssl3 由 purl 的 upstream=openssl 匹配到 openssl 的公告，源码包版本不同时用 upstream 里的版本', () => {
    const dsa = advisory({ id: 'DSA-5532-1', affected: [affected({ ecosystem: 'deb', name: 'openssl', distribution: 'debian:12', ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0.11-1~deb12u2' }] }], fixed: ['3.0.11-1~deb12u2'] })] });
    const index = buildAdvisoryIndex([dsa]);
    const found = matchComponents(index, [
      { ecosystem: 'deb', name: 'libssl3', version: '3.0.11-1~deb12u1', purl: 'pkg:deb/debian/libssl3@3.0.11-1~deb12u1?arch=amd64&distro=debian-12&upstream=openssl' },
      { ecosystem: 'deb', name: 'libssl3', version: '3.0.11-1~deb12u2', purl: 'pkg:deb/debian/libssl3@3.0.11-1~deb12u2?arch=amd64&distro=debian-12&upstream=openssl' },
      // No source recorded: the binary name alone does not meet the source package's advisory.
      { ecosystem: 'deb', name: 'libssl3', version: '3.0.11-1~deb12u1', purl: 'pkg:deb/debian/libssl3@3.0.11-1~deb12u1?arch=amd64&distro=debian-12' },
      // A binary version of its own (a -dbg or transitional package): the source's version decides.
      { ecosystem: 'deb', name: 'openssl-provider', version: '9.9', purl: 'pkg:deb/debian/openssl-provider@9.9?distro=debian-12&upstream=openssl%403.0.11-1~deb12u1' },
      // The same flaw under the binary and the source name is one finding.
      { ecosystem: 'deb', name: 'openssl', version: '3.0.11-1~deb12u1', purl: 'pkg:deb/debian/openssl@3.0.11-1~deb12u1?distro=debian-12&upstream=openssl' },
    ].map(withDistribution));
    expect(found.map((f) => f.findings.map((x) => x.id))).toEqual([['DSA-5532-1'], [], [], ['DSA-5532-1'], ['DSA-5532-1']]);
  });

  it('组件风险等级：最严重的漏洞；无漏洞 32；版本未知 64', () => {
    const index = buildAdvisoryIndex([lodash]);
    const [vulnerable, clean, unknown] = matchComponents(index, [
      { ecosystem: 'npm', name: 'lodash', version: '4.17.4' },
      { ecosystem: 'npm', name: 'lodash', version: '4.17.21' },
      { ecosystem: 'npm', name: 'lodash', version: '' },
    ]);
    expect(vulnerable!.risk).toBe(1);
    expect(clean!.risk).toBe(32);
    expect(unknown!.risk).toBe(64);
    expect(riskLevel('1.0.0', [])).toBe(32);
  });

  it('推荐版本：不低于当前版本、没有已知漏洞的最近版本，优先正式版', () => {
    const second = advisory({
      id: 'CVE-2020-8203', level: 2,
      affected: [affected({ ecosystem: 'npm', name: 'lodash', ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.19' }] }], fixed: ['4.17.19'] })],
    });
    const pre = advisory({
      id: 'GHSA-test-pre', level: 4,
      affected: [affected({ ecosystem: 'npm', name: 'lodash', ranges: [{ type: 'SEMVER', events: [{ introduced: '4.17.20-beta.1' }, { fixed: '4.17.20' }] }], fixed: ['4.17.20'] })],
    });
    const index = buildAdvisoryIndex([lodash, second, pre]);
    expect(recommendVersion(index, { ecosystem: 'npm', name: 'lodash', version: '4.17.4' }).version).toBe('4.17.19');
    expect(recommendVersion(index, { ecosystem: 'npm', name: 'lodash', version: '4.17.19' })).toMatchObject({ version: '4.17.19', reason: '当前版本无已知漏洞' });
    expect(recommendVersion(index, { ecosystem: 'npm', name: 'lodash', version: '' }).version).toBeNull();
    const unfixed = buildAdvisoryIndex([advisory({ id: 'X-1', affected: [affected({ ecosystem: 'npm', name: 'left-pad', ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] })] })]);
    expect(recommendVersion(unfixed, { ecosystem: 'npm', name: 'left-pad', version: '1.0.0' })).toEqual({ version: null, reason: '知识库中没有不受已知漏洞影响的更高版本' });
  });
});
