// Distribution fix states in matching (issue 16 item 6): a not_affected statement for the exact
// release produces no finding and beats an entry naming the distribution without a release;
// will_not_fix, fix_deferred, end_of_life and under_investigation produce a finding marked with
// that state and no fixed-in version; binary and source package entries of one flaw stay one
// finding, and distinct flaws of the two lists never merge.
import { describe, expect, it } from 'vitest';
import type { Advisory, AffectedPackage } from '../../../../server/engine/matchers/advisory.ts';
import { distributionKey } from '../../../../server/engine/matchers/distribution.ts';
import { buildAdvisoryIndex, matchPackage, withDistribution } from '../../../../server/engine/matchers/vulnerabilities.ts';
import { recommendedUpgrade } from '../../../../server/kb/advisory-view.ts';
import { fixedInText } from '../../../../contract/enums.ts';

const os = (over: Partial<AffectedPackage> & Pick<AffectedPackage, 'ecosystem' | 'name' | 'distribution'>): AffectedPackage => ({
  ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }], versions: [], vulnerable: [], patched: [], fixed: [], ...over,
});
const advisory = (id: string, affected: AffectedPackage[], aliases: string[] = []): Advisory => ({
  id, aliases, summary: id, level: 4, score: null, vector: null, exploit: 16, cwes: [], published: null, modified: null, withdrawn: false, affected,
});

describe('发行版修复状态', () => {
  it('will_not_fix / end_of_life / fix_deferred / under_investigation 产生发现，标明状态、没有修复版本', () => {
    const index = buildAdvisoryIndex([
      advisory('CVE-2019-18276', [
        os({ ecosystem: 'rpm', name: 'bash', distribution: 'redhat:8', fixState: 'will_not_fix' }),
        os({ ecosystem: 'deb', name: 'bash', distribution: 'debian:9', fixState: 'end_of_life' }),
        os({ ecosystem: 'deb', name: 'bash', distribution: 'debian:12', fixState: 'fix_deferred' }),
        os({ ecosystem: 'deb', name: 'bash', distribution: 'ubuntu:22.04', fixState: 'under_investigation' }),
        os({ ecosystem: 'deb', name: 'bash', distribution: 'ubuntu:24.04', ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '5.2.21-2ubuntu4' }] }], fixed: ['5.2.21-2ubuntu4'], fixState: 'fixed' }),
      ]),
    ]);
    const state = (ecosystem: string, distribution: string, version: string) =>
      matchPackage(index, { ecosystem, name: 'bash', version, distribution }).map((f) => [f.fixState, f.fixedVersions]);
    expect(state('rpm', 'redhat:8', '4.4.20-4.el8_6')).toEqual([['will_not_fix', []]]);
    expect(state('deb', 'debian:9', '4.4-5')).toEqual([['end_of_life', []]]);
    expect(state('deb', 'debian:12', '5.2.15-2+b2')).toEqual([['fix_deferred', []]]);
    expect(state('deb', 'ubuntu:22.04', '5.1-6ubuntu1')).toEqual([['under_investigation', []]]);
    expect(state('deb', 'ubuntu:24.04', '5.2.21-2ubuntu3')).toEqual([['fixed', ['5.2.21-2ubuntu4']]]);
    expect(state('deb', 'ubuntu:24.04', '5.2.21-2ubuntu4')).toEqual([]);
    // Another release says nothing about this one.
    expect(state('deb', 'debian:11', '5.1-2')).toEqual([]);
  });

  it('精确发行版本的 not_affected 不产生发现，并胜过不带版本号的通用条目', () => {
    const index = buildAdvisoryIndex([
      advisory('CVE-2023-0001', [
        os({ ecosystem: 'rpm', name: 'openssl', distribution: 'redhat' }),
        os({ ecosystem: 'rpm', name: 'openssl', distribution: 'redhat:9', ranges: [], fixState: 'not_affected' }),
      ]),
    ]);
    const ids = (distribution: string) => matchPackage(index, { ecosystem: 'rpm', name: 'openssl', version: '1:3.0.7-24.el9', distribution }).map((f) => f.id);
    expect(ids('redhat:9')).toEqual([]);
    // Release 8 has no statement of its own: the general entry applies.
    expect(ids('redhat:8')).toEqual(['CVE-2023-0001']);
  });

  it('源码包的 not_affected 同样取消二进制包名下的同一漏洞', () => {
    const index = buildAdvisoryIndex([
      advisory('DEBIAN-CVE-2024-0002', [os({ ecosystem: 'deb', name: 'libssl3', distribution: 'debian:12' })], ['CVE-2024-0002']),
      advisory('CVE-2024-0002', [os({ ecosystem: 'deb', name: 'openssl', distribution: 'debian:12', ranges: [], fixState: 'not_affected' })]),
    ]);
    const ref = { ecosystem: 'deb', name: 'libssl3', version: '3.0.11-1~deb12u2', distribution: 'debian:12', source: { name: 'openssl', version: '3.0.11-1~deb12u2' } };
    expect(matchPackage(index, ref)).toEqual([]);
  });

  it('二进制包与源码包各自的漏洞不会因编号位置相同而合并', () => {
    const index = buildAdvisoryIndex([
      advisory('CVE-2024-1000', [os({ ecosystem: 'deb', name: 'libssl3', distribution: 'debian:12' })]),
      advisory('CVE-2024-2000', [os({ ecosystem: 'deb', name: 'openssl', distribution: 'debian:12', fixState: 'will_not_fix' })]),
      advisory('DSA-5000-1', [os({ ecosystem: 'deb', name: 'openssl', distribution: 'debian:12', ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0.12-1' }] }], fixed: ['3.0.12-1'] })], ['CVE-2024-1000']),
    ]);
    const ref = { ecosystem: 'deb', name: 'libssl3', version: '3.0.11-1~deb12u2', distribution: 'debian:12', source: { name: 'openssl', version: '3.0.11-1~deb12u2' } };
    const findings = matchPackage(index, ref).map((f) => [f.id, f.fixState, f.fixedVersions]).sort();
    expect(findings).toEqual([
      ['CVE-2024-1000', 'fixed', ['3.0.12-1']],
      ['CVE-2024-2000', 'will_not_fix', []],
    ]);
  });

  it('按 purl 的 distro 限定符找到发行版本：红帽系与 SUSE 按公告的粒度', () => {
    expect(distributionKey('rhel-8.6')).toBe('redhat:8');
    expect(distributionKey('rocky-9.3')).toBe('rocky:9');
    expect(distributionKey('almalinux-8.9')).toBe('almalinux:8');
    expect(distributionKey('ol-8.7')).toBe('oracle:8');
    expect(distributionKey('sles-15.5')).toBe('sles:15.5');
    expect(distributionKey('opensuse-tumbleweed-20240101')).toBe('opensuse-tumbleweed');
    const c = withDistribution({ ecosystem: 'rpm', purl: 'pkg:rpm/rocky/openssl-libs@3.0.7-24.el9?arch=x86_64&epoch=1&distro=rocky-9.3&upstream=openssl', version: '1:3.0.7-24.el9' });
    expect([c.distribution, c.source]).toEqual(['rocky:9', { name: 'openssl', version: '1:3.0.7-24.el9' }]);
  });

  it('修复版本的文字与推荐升级说明发行版不修复的原因', () => {
    expect(fixedInText(['1.2.3', '1.3.0'], 'fixed')).toBe('1.2.3, 1.3.0');
    expect(fixedInText([], 'will_not_fix')).toBe('发行版不修复');
    expect(fixedInText([], 'end_of_life')).toBe('发行版已停止支持');
    expect(fixedInText([], 'affected')).toBe('暂无修复版本');
    expect(fixedInText([], 'affected', ', ', '--')).toBe('--');
    expect(recommendedUpgrade('rpm', '4.4.20-4.el8_6', [], 'will_not_fix')).toEqual({ version: null, reason: expect.stringContaining('发行版声明不修复') });
    expect(recommendedUpgrade('rpm', '4.4.20-4.el8_6', []).reason).toContain('知识库中没有该漏洞的修复版本');
  });
});

describe('发行版的 OSV 与 trivy 记录', () => {
  it('OSV 生态名映射到系统的发行版本（红帽取主版本，SUSE 取服务包）', async () => {
    const { mapOsvEcosystem } = await import('../../../../server/kb/formats/osv.ts');
    const map = (e: string) => mapOsvEcosystem(e).distribution;
    expect(map('Red Hat:enterprise_linux:9::appstream')).toBe('redhat:9');
    expect(map('Red Hat:rhel_aus:8.2::appstream')).toBe('redhat:8');
    expect(map('Rocky Linux:8')).toBe('rocky:8');
    expect(map('AlmaLinux:9')).toBe('almalinux:9');
    expect(map('SUSE:Linux Enterprise Server 15 SP5')).toBe('sles:15.5');
    expect(map('SUSE:Linux Enterprise Module for Basesystem 15 SP7')).toBe('sles:15.7');
    expect(map('SUSE:Linux Enterprise Server 15 SP6-LTSS')).toBe('sles:15.6');
    expect(map('SUSE:Linux Enterprise Micro 5.5')).toBe('sles-micro:5.5');
    expect(map('openSUSE:Leap 15.6')).toBe('opensuse-leap:15.6');
    expect(map('openSUSE:Tumbleweed')).toBe('opensuse-tumbleweed');
    expect(map('Ubuntu:Pro:14.04:LTS')).toBe('ubuntu:14.04');
  });

  it('OSV：upstream 是记录的其他编号，Alpine 的 fixed 0 即不受影响，Ubuntu 优先级作评级，未修复的发行版条目为 affected', async () => {
    const { osvRecord } = await import('../../../../server/kb/formats/osv.ts');
    const record = osvRecord({
      id: 'ALPINE-CVE-2023-45853', upstream: ['CVE-2023-45853'],
      affected: [
        { package: { ecosystem: 'Alpine:v3.18', name: 'zlib' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '0' }] }] },
        { package: { ecosystem: 'Alpine:v3.19', name: 'zlib' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.3.1-r0' }] }] },
        { package: { ecosystem: 'Alpine:v3.20', name: 'zlib' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }] },
      ],
    });
    expect(record.advisory.aliases).toEqual(['CVE-2023-45853']);
    expect(record.advisory.affected.map((p) => [p.distribution, p.fixState, p.fixed])).toEqual([
      ['alpine:3.18', 'not_affected', []],
      ['alpine:3.19', 'fixed', ['1.3.1-r0']],
      ['alpine:3.20', 'affected', []],
    ]);
    const ubuntu = osvRecord({ id: 'UBUNTU-CVE-2025-38094', upstream: ['CVE-2025-38094'], severity: [{ type: 'Ubuntu', score: 'medium' }], affected: [] });
    expect([ubuntu.advisory.level, ubuntu.advisory.aliases]).toEqual([4, ['CVE-2025-38094']]);
    // Chainguard / Wolfi: the latest advisory event of the package's components.
    const component = (status: string) => ({ components: [{ component_location: '/.PKGINFO', component_name: 'osv-scanner', component_type: 'apk', latest_event_status: status }] });
    const wolfi = osvRecord({
      id: 'CGA-g28p-h88f-jp6j', upstream: ['GHSA-vvjp-q62m-2vph'],
      affected: [
        { package: { ecosystem: 'Wolfi', name: 'osv-scanner' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '0' }] }], ecosystem_specific: component('false_positive_determination') },
        { package: { ecosystem: 'Chainguard', name: 'a' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }], ecosystem_specific: component('detection') },
        { package: { ecosystem: 'Chainguard', name: 'b' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }], ecosystem_specific: component('fix_not_planned') },
        { package: { ecosystem: 'Chainguard', name: 'c' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }], ecosystem_specific: component('pending_upstream_fix') },
        { package: { ecosystem: 'Chainguard', name: 'd' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }], ecosystem_specific: component('true_positive_determination') },
        { package: { ecosystem: 'Chainguard', name: 'e' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.7.3-r0' }] }], ecosystem_specific: component('fixed') },
      ],
    });
    expect(wolfi.advisory.affected.map((p) => `${p.distribution} ${p.name} ${p.fixState}`)).toEqual([
      'wolfi osv-scanner not_affected', 'chainguard a under_investigation', 'chainguard b will_not_fix', 'chainguard c fix_deferred', 'chainguard d affected', 'chainguard e fixed',
    ]);
    // Language packages carry no distribution statement.
    const npm = osvRecord({ id: 'GHSA-x', affected: [{ package: { ecosystem: 'npm', name: 'a' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '0' }] }] }] });
    expect(npm.advisory.affected[0]!.fixState).toBeUndefined();
  });

  it('trivy：Status 的各状态、Debian 旧格式的 State、not_affected 条目保留（不再丢弃）、SUSE 服务包', async () => {
    const { parseTrivyDb } = await import('../../../../server/kb/formats/trivy.ts');
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(tmpdir(), 'cairn-trivy-'));
    try {
      await writeFile(path.join(dir, 'vulnerability.yaml'), '- bucket: vulnerability\n  pairs: []\n');
      await writeFile(path.join(dir, 'data-source.yaml'), '- bucket: data-source\n  pairs: []\n');
      await writeFile(path.join(dir, 'os.yaml'), [
        '- bucket: debian 12', '  pairs:', '    - bucket: openssl', '      pairs:',
        ...[1, 2, 4, 5, 6, 7].map((s) => `        - key: CVE-2024-000${s}\n          value:\n            Status: ${s}`),
        '        - key: CVE-2024-0010', '          value:', '            State: ignored',
        '        - key: CVE-2024-0011', '          value:', '            FixedVersion: 3.0.11-1~deb12u2', '            Status: 3',
        '- bucket: SUSE Linux Enterprise 15-SP5', '  pairs:', '    - bucket: libopenssl3', '      pairs:',
        '        - key: SUSE-SU-2024:0001-1', '          value:', '            FixedVersion: 3.0.8-150500.5.8.1',
      ].join('\n'));
      const result = await parseTrivyDb(dir);
      expect(result.errors).toEqual([]);
      const states = Object.fromEntries(result.records.map((r) => [r.advisory.id, r.advisory.affected.map((p) => `${p.distribution} ${p.fixState}`).join()]));
      expect(states).toEqual({
        'CVE-2024-0001': 'debian:12 not_affected', 'CVE-2024-0002': 'debian:12 affected', 'CVE-2024-0004': 'debian:12 under_investigation',
        'CVE-2024-0005': 'debian:12 will_not_fix', 'CVE-2024-0006': 'debian:12 fix_deferred', 'CVE-2024-0007': 'debian:12 end_of_life',
        'CVE-2024-0010': 'debian:12 will_not_fix', 'CVE-2024-0011': 'debian:12 fixed', 'SUSE-SU-2024:0001-1': 'sles:15.5 fixed',
      });
      // A not_affected statement matches no version.
      const index = buildAdvisoryIndex(result.records.map((r) => r.advisory));
      const ids = matchPackage(index, { ecosystem: 'deb', name: 'openssl', version: '3.0.11-1~deb12u1', distribution: 'debian:12' }).map((f) => f.id).sort();
      expect(ids).not.toContain('CVE-2024-0001');
      expect(ids).toContain('CVE-2024-0011');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
