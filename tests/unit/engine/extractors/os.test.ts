// OS package databases of an unpacked root filesystem: dpkg status (and distroless status.d,
// opkg), apk's installed database, the distribution from os-release, DEP-5 licences.
import { describe, expect, it } from 'vitest';
import {
  apkLicense, dep5License, dep5Licenses, extractors, parseApkInstalled, parseDpkgStatus, parseOsRelease, parseStanzas, relationGroups,
} from '../../../../server/engine/extractors/os/index.ts';
import { fileLocations, osPurl } from '../../../../server/engine/extractors/os/common.ts';
import { distroQualifier } from '../../../../server/engine/extractors/os/os-release.ts';
import { distributionKey } from '../../../../server/engine/matchers/distribution.ts';
import { withDistribution } from '../../../../server/engine/matchers/vulnerabilities.ts';
import { toCycloneDx, toSpdx } from '../../../../server/engine/output/formats.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims } from './extractor.ts';

const [dpkg, opkg, apk] = extractors as [typeof extractors[0], typeof extractors[0], typeof extractors[0]];

const stanza = (name: string, version: string, extra = '', status = 'install ok installed') =>
  `Package: ${name}\nStatus: ${status}\nArchitecture: amd64\nVersion: ${version}\n${extra}`;

describe('deb822 stanzas', () => {
  it('joins continuation lines, matches field names without case and records lines', () => {
    const [a, b] = parseStanzas('Package: a\nDescription: short\n long line\n .\n more\n\n\npackage: b\nVERSION: 1\n');
    expect(a!.fields.get('description')).toBe('short\nlong line\n.\nmore');
    expect([a!.startLine, a!.endLine]).toEqual([1, 5]);
    expect(b!.fields.get('version')).toBe('1');
    expect([b!.startLine, b!.endLine]).toEqual([8, 9]);
  });

  it('marks a stanza malformed for a line without a field, a stray continuation or a repeated field', () => {
    expect(parseStanzas('asdf\n')[0]!.error).toContain('第 1 行');
    expect(parseStanzas(' lead\nPackage: a\n')[0]!.error).toContain('续行');
    expect(parseStanzas('Package: a\nVersion: 1\nVersion: 2\n')[0]!.error).toContain('重复');
  });
});

describe('dpkg status', () => {
  it('keeps packages whose files are on disk, as dpkg-query shows their state', () => {
    const states = ['install ok installed', 'deinstall reinstreq installed', 'install ok unpacked', 'install ok half-configured',
      'install ok triggers-pending', 'purge ok installed', 'deinstall ok config-files', 'install reinstreq half-installed', 'purge ok not-installed'];
    const text = states.map((s, i) => stanza(`p${i}`, '1.0', '', s)).join('\n') + `\nPackage: nostatus\nVersion: 1\n`;
    expect(parseDpkgStatus(text).packages.map((p) => p.name)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    // distroless status.d records are written without Status by the image builder
    expect(parseDpkgStatus('Package: foo\nVersion: 1\n', { statusOptional: true }).packages.map((p) => p.name)).toEqual(['foo']);
  });

  it('reads source, maintainer and relationships; the epoch stays in the version', () => {
    const { packages, problems } = parseDpkgStatus(stanza('libssl3', '1:3.0.11-1~deb12u2',
      'Source: openssl (3.0.11-1)\nMaintainer: Debian OpenSSL Team <x@debian.org>\nPre-Depends: libc6 (>= 2.34)\nDepends: debconf | debconf-2.0, zlib1g:any\n'));
    expect(problems).toEqual([]);
    expect(packages[0]).toMatchObject({ name: 'libssl3', version: '1:3.0.11-1~deb12u2', architecture: 'amd64', source: 'openssl', sourceVersion: '3.0.11-1', maintainer: 'Debian OpenSSL Team <x@debian.org>' });
    expect(relationGroups(packages[0]!.depends)).toEqual([['libc6'], ['debconf', 'debconf-2.0'], ['zlib1g']]);
  });

  it('skips malformed stanzas with their lines named and reads the rest', () => {
    const text = [stanza('a', '1'), 'garbage line\n', stanza('b', '', ''), 'Status: install ok installed\nVersion: 1\n', stanza('c', '2'), stanza('c', '3')].join('\n');
    const { packages, problems } = parseDpkgStatus(text.replace('Version: \n', ''));
    expect(packages.map((p) => `${p.name}@${p.version}`)).toEqual(['a@1', 'c@2']);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/第 6 行的软件包记录无法解析/);
    expect(problems[1]).toContain('软件包 b 缺少 Version');
    expect(problems[2]).toContain('缺少 Package');
    expect(problems[3]).toContain('重复记录了软件包 c');
  });
});

describe('DEP-5 copyright', () => {
  it('turns Debian short names into SPDX', () => {
    expect(dep5License('GPL-2+')).toBe('GPL-2.0-or-later');
    expect(dep5License('GPL-2')).toBe('GPL-2.0-only');
    expect(dep5License('LGPL-2.1+')).toBe('LGPL-2.1-or-later');
    expect(dep5License('Expat')).toBe('MIT');
    expect(dep5License('BSD-3-clause')).toBe('BSD-3-Clause');
    expect(dep5License('GPL-1+ or Artistic')).toBe('GPL-1.0-or-later OR Artistic-1.0-Perl');
    expect(dep5License('Apache-2.0 or GPL-2+ and Expat')).toBe('Apache-2.0 OR (GPL-2.0-or-later AND MIT)');
    expect(dep5License('GPL-3+ with Bison exception')).toBe('GPL-3.0-or-later WITH Bison-exception-2.2');
    expect(dep5License('public-domain')).toBe('LicenseRef-public-domain');
    // a name of Debian's own is kept as itself, not guessed into a neighbouring id
    expect(dep5License('MIT-like')).toBe('LicenseRef-MIT-like');
  });

  it('collects header and Files licences of a machine-readable file only', () => {
    const text = 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: x\n\n'
      + 'Files: *\nCopyright: 2020 A\nLicense: GPL-2+\n\nFiles: lib/*\nCopyright: B\nLicense: Expat\n\nFiles: more/*\nLicense: GPL-2+\n\n'
      + 'License: GPL-2+\n This program is free software.\n\nLicense: Zlib\n text\n';
    expect(dep5Licenses(text)).toEqual(['GPL-2.0-or-later', 'MIT']);
    expect(dep5Licenses('This package was debianized by someone.\n\nLicense: GPL\n')).toEqual([]);
  });
});

describe('os-release and distributions', () => {
  it('reads shell-style assignments', () => {
    expect(parseOsRelease('# c\nID=debian\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID=\'12\'\nX="a \\"q\\""\n'))
      .toEqual({ ID: 'debian', PRETTY_NAME: 'Debian GNU/Linux 12 (bookworm)', VERSION_ID: '12', X: 'a "q"' });
  });

  it('writes distro qualifiers as syft and matches them as the knowledge base names releases', () => {
    expect(distroQualifier({ id: 'debian', versionId: '12', codename: 'bookworm', name: '', file: '' })).toBe('debian-12');
    expect(distroQualifier({ id: 'debian', versionId: '', codename: 'trixie', name: '', file: '' })).toBe('debian-trixie');
    expect(distributionKey('debian-12')).toBe('debian:12');
    expect(distributionKey('debian-12.4')).toBe('debian:12');
    expect(distributionKey('alpine-3.19.0')).toBe('alpine:3.19');
    expect(distributionKey('ubuntu-22.04')).toBe('ubuntu:22.04');
    expect(distributionKey('alpine:3.19')).toBe('alpine:3.19');
    expect(distributionKey('wolfi-20230201')).toBe('wolfi');
    expect(distributionKey('opensuse-leap-15.5')).toBe('opensuse-leap:15.5');
    expect(distributionKey('debian-trixie')).toBe('debian-trixie');
    expect(withDistribution({ ecosystem: 'deb', purl: 'pkg:deb/debian/curl@7.88.1-10?arch=amd64&distro=debian-12' }).distribution).toBe('debian:12');
  });

  it('builds purls with the epoch as a qualifier and the source package as upstream', () => {
    const d = { id: 'debian', versionId: '12', codename: '', name: '', file: '' };
    expect(osPurl('deb', 'debian', { name: 'openssl', version: '3.0.11-1~deb12u2', architecture: 'amd64', source: 'openssl' }, d))
      .toBe('pkg:deb/debian/openssl@3.0.11-1~deb12u2?arch=amd64&distro=debian-12');
    expect(osPurl('deb', 'debian', { name: 'git', version: '1:2.39.5-0+deb12u1', architecture: 'amd64' }, d))
      .toBe('pkg:deb/debian/git@2.39.5-0+deb12u1?arch=amd64&distro=debian-12&epoch=1');
    expect(osPurl('deb', 'debian', { name: 'libssl3', version: '3.0.11-1', architecture: 'amd64', source: 'openssl' }, d))
      .toBe('pkg:deb/debian/libssl3@3.0.11-1?arch=amd64&distro=debian-12&upstream=openssl');
    expect(osPurl('deb', 'debian', { name: 'bash', version: '5.2.15-2+b2', architecture: 'amd64', source: 'bash', sourceVersion: '5.2.15-2' }, d))
      .toBe('pkg:deb/debian/bash@5.2.15-2+b2?arch=amd64&distro=debian-12&upstream=bash%405.2.15-2');
    expect(osPurl('apk', 'alpine', { name: 'musl', version: '1.2.4-r2', architecture: 'x86_64', source: 'musl' }, { id: 'alpine', versionId: '3.19.0', codename: '', name: '', file: '' }))
      .toBe('pkg:apk/alpine/musl@1.2.4-r2?arch=x86_64&distro=alpine-3.19.0');
  });

  it('lists installed files, not folders, programs before documentation, bounded', () => {
    const locations = fileLocations('img', ['/.', '/usr', '/usr/share/doc/x/copyright', '/usr/bin', '/usr/bin/x', '/usr/bin-x']);
    expect(locations.map((l) => l.file)).toEqual(['img/usr/bin-x', 'img/usr/bin/x', 'img/usr/share/doc/x/copyright']);
    expect(fileLocations('', Array.from({ length: 100 }, (_, i) => `/f${i}`))).toHaveLength(49);
  });
});

describe('apk installed database', () => {
  it('reads the records, their files and skips a malformed one', () => {
    const text = 'C:Q1x=\nP:musl\nV:1.2.4-r2\nA:x86_64\nL:MIT\no:musl\nm:Timo <t@x>\nD:so:libc.so=1\np:so:libc.musl-x86_64.so.1=1\nF:lib\nR:ld-musl-x86_64.so.1\nR:libc.musl-x86_64.so.1\n\n'
      + 'P:broken\nthis is no field\n\nV:1\n\nP:busybox\nV:1.36.1-r15\nA:x86_64\no:busybox\nD:so:libc.musl-x86_64.so.1\n';
    const { packages, problems } = parseApkInstalled(text);
    expect(packages.map((p) => `${p.name}@${p.version}`)).toEqual(['musl@1.2.4-r2', 'busybox@1.36.1-r15']);
    expect(packages[0]).toMatchObject({ origin: 'musl', license: 'MIT', maintainer: 'Timo <t@x>', files: ['lib', 'lib/ld-musl-x86_64.so.1', 'lib/libc.musl-x86_64.so.1'] });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('第 14–15 行');
    expect(problems[1]).toContain('缺少 P:');
  });

  it('reads L: as SPDX, a space-separated list as all of its licences', () => {
    expect(apkLicense('MIT AND BSD-2-Clause AND GPL-2.0-or-later')).toBe('MIT AND BSD-2-Clause AND GPL-2.0-or-later');
    expect(apkLicense('MIT BSD-3-Clause')).toBe('MIT AND BSD-3-Clause');
    expect(apkLicense('GPL2+')).toBe('GPL-2.0-or-later');
    expect(apkLicense('GPL2')).toBe('GPL-2.0-only');
    expect(apkLicense('MIT BSD GPL2+')).toBe('MIT AND BSD-3-Clause AND GPL-2.0-or-later');
  });

  it('keeps an operand SPDX does not know as a LicenseRef, never dropping it (libressl\'s real `L:custom`)', () => {
    expect(apkLicense('custom')).toBe('LicenseRef-custom');
    expect(apkLicense('MIT custom')).toBe('MIT AND LicenseRef-custom');
    expect(apkLicense('MIT AND custom')).toBe('MIT AND LicenseRef-custom');
    expect(apkLicense('(MIT OR Apache-2.0) AND custom:multiple')).toBe('(MIT OR Apache-2.0) AND LicenseRef-custom-multiple');
    expect(apkLicense('GPL-2.0-or-later WITH Classpath-exception-2.0')).toBe('GPL-2.0-or-later WITH Classpath-exception-2.0');
    // The list form inside an expression: both side-by-side operands apply.
    expect(apkLicense('GPL-2.0 OR MIT BSD-2-Clause')).toBe('GPL-2.0-only OR (MIT AND BSD-2-Clause)');
  });
});

describe('OS package extractors in a scan', () => {
  const { scan } = useTempScan('cairn-os-', extractors);

  it('claim the databases at their own locations only', () => {
    expectClaims(dpkg, ['var/lib/dpkg/status', 'layer/var/lib/dpkg/status', 'var/lib/dpkg/status.d/base', 'var/lib/dpkg/status.d/*'],
      ['var/lib/dpkg/status-old', 'var/lib/dpkg/status.d/base.md5sums', 'status', 'var/lib/dpkg/available']);
    expectClaims(opkg, ['usr/lib/opkg/status', 'var/lib/opkg/status'], ['usr/lib/opkg/info/x.list']);
    expectClaims(apk, ['lib/apk/db/installed', 'img/lib/apk/db/installed'], ['installed', 'lib/apk/db/scripts.tar']);
  });

  it('a Debian root filesystem: distro purls, licences, installed files, edges, manual/automatic installs', async () => {
    const result = await scan({
      'rootfs/usr/lib/os-release': 'ID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n',
      'rootfs/var/lib/dpkg/status': [
        stanza('libc6', '2.36-9+deb12u4', 'Source: glibc\nMaintainer: GNU Libc Maintainers <debian-glibc@lists.debian.org>\n'),
        stanza('curl', '7.88.1-10+deb12u5', 'Depends: libc6 (>= 2.34), libcurl4 | libcurl3-gnutls\n'),
        stanza('libcurl4', '7.88.1-10+deb12u5', 'Source: curl\nDepends: libc6\n'),
        'Status: install ok installed\nVersion: 1\n',
      ].join('\n'),
      'rootfs/var/lib/dpkg/info/libc6:amd64.list': '/.\n/lib\n/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu/libc.so.6\n/usr/share/doc/libc6/copyright\n',
      'rootfs/var/lib/dpkg/info/curl.list': '/.\n/usr\n/usr/bin\n/usr/bin/curl\n',
      'rootfs/usr/share/doc/curl/copyright': 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\nFiles: *\nCopyright: Daniel\nLicense: curl\n',
      'rootfs/var/lib/apt/extended_states': 'Package: libc6\nArchitecture: amd64\nAuto-Installed: 1\n\nPackage: libcurl4\nArchitecture: amd64\nAuto-Installed: 1\n',
    });
    expect(result.problems).toEqual([{ file: 'rootfs/var/lib/dpkg/status', message: expect.stringContaining('缺少 Package') as string }]);
    expect(result.problems[0]!.message).toContain('status：第 21–22 行');
    const [target] = result.targets;
    expect(target).toMatchObject({ file: 'rootfs/var/lib/dpkg/status', type: 'dpkg', ecosystem: 'deb' });
    expect(target).not.toHaveProperty('problems');
    const byName = new Map(target!.components.map((c) => [c.name, c]));
    const libc = 'pkg:deb/debian/libc6@2.36-9+deb12u4?arch=amd64&distro=debian-12&upstream=glibc';
    const libcurl = 'pkg:deb/debian/libcurl4@7.88.1-10+deb12u5?arch=amd64&distro=debian-12&upstream=curl';
    expect(byName.get('libc6')).toMatchObject({
      purl: libc, direct: false,
      locations: [{ file: 'rootfs/var/lib/dpkg/status', startLine: 1, endLine: 6 }, { file: 'rootfs/lib/x86_64-linux-gnu/libc.so.6' }, { file: 'rootfs/usr/share/doc/libc6/copyright' }],
    });
    expect(byName.get('curl')).toMatchObject({ direct: true, licenses: ['curl'], dependsOn: [libc, libcurl], locations: [{ file: 'rootfs/var/lib/dpkg/status' }, { file: 'rootfs/usr/bin/curl' }] });
    expect(target!.roots).toEqual([byName.get('curl')!.purl]);
    expect(byName.get('libc6')!.maintainer).toBe('GNU Libc Maintainers <debian-glibc@lists.debian.org>');
    // SBOM exports name the maintainer (CycloneDX authors, SPDX supplier)
    const cdx = toCycloneDx(result, { name: 'cairn', version: '0' }, 'rootfs') as { components: Array<{ name: string; authors?: unknown }> };
    expect(cdx.components.find((c) => c.name === 'libc6')!.authors).toEqual([{ name: 'GNU Libc Maintainers', email: 'debian-glibc@lists.debian.org' }]);
    const spdx = toSpdx(result, { name: 'cairn', version: '0' }, 'rootfs') as { packages: Array<{ name: string; supplier?: string }> };
    expect(spdx.packages.find((p) => p.name === 'libc6')!.supplier).toBe('Person: GNU Libc Maintainers (debian-glibc@lists.debian.org)');
  });

  it('distroless status.d records, without their checksum lists', async () => {
    const result = await scan({
      'etc/os-release': 'ID=debian\nVERSION_ID=12\n',
      'var/lib/dpkg/status.d/base': 'Package: base-files\nVersion: 12.4+deb12u5\nArchitecture: amd64\n',
      'var/lib/dpkg/status.d/base.md5sums': 'd41d8cd98f00b204e9800998ecf8427e  etc/issue\n',
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => t.components.map((c) => c.purl))).toEqual([['pkg:deb/debian/base-files@12.4+deb12u5?arch=amd64&distro=debian-12']]);
  });

  it('an Alpine root filesystem: world, origin, licences and edges', async () => {
    const result = await scan({
      'etc/alpine-release': '3.19.1\n',
      'etc/apk/world': 'busybox\nalpine-baselayout>=3\n',
      'lib/apk/db/installed': 'P:musl\nV:1.2.4_git20230717-r4\nA:x86_64\nL:MIT\no:musl\np:so:libc.musl-x86_64.so.1=1\nF:lib\nR:libc.musl-x86_64.so.1\n\n'
        + 'P:busybox\nV:1.36.1-r15\nA:x86_64\nL:GPL-2.0-only\no:busybox\nD:so:libc.musl-x86_64.so.1 !busybox-extras\nF:bin\nR:busybox\n\n'
        + 'P:ssl_client\nV:1.36.1-r15\nA:x86_64\nL:GPL-2.0-only\no:busybox\nD:musl\n',
    });
    expect(result.problems).toEqual([]);
    const components = result.targets[0]!.components;
    const musl = 'pkg:apk/alpine/musl@1.2.4_git20230717-r4?arch=x86_64&distro=alpine-3.19.1';
    expect(components.map((c) => [c.purl, c.direct, c.licenses, c.dependsOn])).toEqual([
      [musl, false, ['MIT'], []],
      ['pkg:apk/alpine/busybox@1.36.1-r15?arch=x86_64&distro=alpine-3.19.1', true, ['GPL-2.0-only'], [musl]],
      ['pkg:apk/alpine/ssl_client@1.36.1-r15?arch=x86_64&distro=alpine-3.19.1&upstream=busybox', false, ['GPL-2.0-only'], [musl]],
    ]);
    expect(components[0]!.locations.map((l) => l.file)).toEqual(['lib/apk/db/installed', 'lib/libc.musl-x86_64.so.1']);
  });

  it('opkg: the OpenWrt namespace from os-release', async () => {
    const result = await scan({
      'usr/lib/os-release': 'NAME="OpenWrt"\nID="openwrt"\nVERSION_ID="23.05.3"\n',
      'usr/lib/opkg/status': 'Package: ubus\nVersion: 2024.10.20~252a9b0c-r1\nStatus: install user installed\nArchitecture: x86_64\n',
      'usr/lib/opkg/info/ubus.list': '/bin/ubus\n',
    });
    expect(result.targets[0]!.components.map((c) => [c.purl, c.locations.length])).toEqual([['pkg:deb/openwrt/ubus@2024.10.20~252a9b0c-r1?arch=x86_64&distro=openwrt-23.05.3', 2]]);
  });
});
