// The OS package extractors on real package databases that public repositories hold
// (tests/fixtures/public/os, each folder's README names its source): dpkg status files of
// Ubuntu 12.04, an Ubuntu 19.04 cross toolchain and Termux on aarch64 against dpkg-query run on
// the same files (the (name, version, architecture) set in the states whose files are on disk,
// the source package and version); Alpine 3.6, 3.8.2 and 3.20 installed databases against their
// records (name, version, architecture, origin, licence, purl with the release's distro); and
// one real dpkg root and one real apk root as OCI images analysed as a run analyses an image:
// the components the extractor gives, each at the layer that brought it, and the image's
// os-release.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageURL } from 'packageurl-js';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseInWorker, loadExtractors, scanTree, type Component } from '../../../server/engine/index.ts';
import { hasCommand } from '../../support/commands.ts';
import { writeOciLayout } from '../../support/registry.ts';

const { families } = await loadExtractors();

const PUBLIC = path.resolve(import.meta.dirname, '../../fixtures/public/os');
const DPKG_ROOTS = ['ubuntu-12.04', 'ubuntu-19.04-cross', 'termux-aarch64'];
const APK_ROOTS = ['alpine-3.6', 'alpine-3.8.2', 'alpine-3.20'];
const hasDpkgQuery = hasCommand('dpkg-query', '--version');

const temps: string[] = [];
afterAll(async () => { await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))); });
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** A root's OS packages as the scan of its folder gives them. */
async function scanRoot(root: string): Promise<{ components: Component[]; problems: string[] }> {
  const scan = await scanTree(root, { extractors: families.os });
  return { components: scan.targets.flatMap((t) => t.components), problems: scan.problems.map((p) => p.message) };
}

async function writeTree(files: Record<string, string>): Promise<string> {
  const root = await tempDir('cairn-public-os-');
  for (const [rel, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), body);
  }
  return root;
}

const qualifiers = (purl: string) => PackageURL.fromString(purl).qualifiers ?? {};
const row = (name: string, version: string, arch: string) => `${name}\t${version}\t${arch}`;

// ---- dpkg ------------------------------------------------------------------------------------------

/**
 * The states (db:Status-Status) the dpkg extractor documents as "files on disk": installed,
 * unpacked, half-configured and triggers pending or awaited; not not-installed, config-files
 * (only conffiles left) or half-installed (an installation or removal that broke off).
 */
const ON_DISK = new Set(['installed', 'unpacked', 'half-configured', 'triggers-awaited', 'triggers-pending']);

interface DpkgRow { name: string; version: string; arch: string; state: string; source: string; sourceVersion: string }

/** dpkg-query's view of a status file's text (in a scratch admin dir: dpkg never sees the fixture folder). */
async function dpkgQuery(statusText: string): Promise<DpkgRow[]> {
  const admin = await tempDir('cairn-dpkg-admin-');
  await writeFile(path.join(admin, 'status'), statusText);
  const out = execFileSync('dpkg-query', [`--admindir=${admin}`, '-W',
    '-f=${Package}\\t${Version}\\t${Architecture}\\t${db:Status-Status}\\t${source:Package}\\t${source:Version}\\n'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((l) => {
    const [name, version, arch, state, source, sourceVersion] = l.split('\t') as [string, string, string, string, string, string];
    return { name, version, arch, state, source, sourceVersion };
  });
}

const onDiskRows = (rows: DpkgRow[]) => rows.filter((r) => ON_DISK.has(r.state)).map((r) => row(r.name, r.version, r.arch)).sort();
const debRows = (components: readonly { name: string; version: string; purl: string }[]) => components.map((c) => row(c.name, c.version, qualifiers(c.purl).arch ?? '')).sort();

describe.skipIf(!hasDpkgQuery)('dpkg status files of real systems, against dpkg-query', () => {
  it.each(DPKG_ROOTS)('%s: the packages on disk, with their purls, source packages and record lines', async (dir) => {
    const root = path.join(PUBLIC, dir);
    const text = await readFile(path.join(root, 'var/lib/dpkg/status'), 'utf8');
    const rows = await dpkgQuery(text);
    // dpkg read every stanza of the real file (it gives up on a file at the first one it cannot parse).
    expect(rows).toHaveLength(text.match(/^Package:/gm)!.length);

    const { components, problems } = await scanRoot(root);
    expect(problems).toEqual([]);
    expect(debRows(components)).toEqual(onDiskRows(rows));
    expect(components.length).toBeGreaterThan(25);

    const lines = text.split('\n');
    const byName = new Map(rows.map((r) => [r.name, r]));
    for (const c of components) {
      const r = byName.get(c.name)!;
      const purl = PackageURL.fromString(c.purl);
      // No release file in these roots: Debian's namespace, no distro qualifier.
      expect([purl.type, purl.namespace, purl.name]).toEqual(['deb', 'debian', c.name]);
      expect(purl.qualifiers?.distro).toBeUndefined();
      // The epoch is a qualifier, the purl version the rest (purl-spec for deb).
      const epoch = /^(\d+):(.*)$/.exec(r.version);
      expect(purl.version, c.name).toBe(epoch ? epoch[2] : r.version);
      expect(purl.qualifiers?.epoch, c.name).toBe(epoch?.[1]);
      // upstream: the source package when it differs, with its version when that differs (dpkg's own source:Package/source:Version).
      const upstream = r.sourceVersion !== r.version ? `${r.source}@${r.sourceVersion}` : r.source !== r.name ? r.source : undefined;
      expect(purl.qualifiers?.upstream, c.name).toBe(upstream);
      // The record's lines in the status file.
      const at = c.locations[0]!;
      expect(at.file).toBe('var/lib/dpkg/status');
      expect(lines[at.startLine! - 1], c.name).toBe(`Package: ${c.name}`);
      expect(lines.slice(at.startLine! - 1, at.endLine).join('\n')).toContain(`\nVersion: ${r.version}\n`);
      expect(lines[at.endLine!] ?? '', c.name).toBe('');
    }
  });

  it('every dpkg state on the real stanzas: the extractor keeps exactly what dpkg counts on disk', async () => {
    const real = await readFile(path.join(PUBLIC, 'ubuntu-12.04/var/lib/dpkg/status'), 'utf8');
    const states = ['install ok installed', 'install ok unpacked', 'install ok half-configured', 'install ok half-installed', 'deinstall ok config-files',
      'purge ok not-installed', 'install ok triggers-pending', 'hold ok installed', 'install reinstreq half-installed', 'deinstall ok unpacked'];
    const text = real.split(/\n\n+/).filter((s) => s.trim()).map((s, i) => {
      const status = states[i % states.length]!;
      // dpkg refuses triggers-pending without the triggers it waits for.
      return s.replace('Status: install ok installed', `Status: ${status}${status.endsWith('triggers-pending') ? '\nTriggers-Pending: ldconfig' : ''}`);
    }).join('\n\n') + '\n';
    const rows = await dpkgQuery(text);
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(['installed', 'unpacked', 'half-configured', 'half-installed', 'config-files', 'triggers-pending']));
    const { components, problems } = await scanRoot(await writeTree({ 'var/lib/dpkg/status': text }));
    expect(problems).toEqual([]);
    expect(debRows(components)).toEqual(onDiskRows(rows));
    expect(components.length).toBeLessThan(rows.length);
  });

  it('real field forms: `Source: name (version)`, epochs, unpacked packages, alternatives and Provides', async () => {
    const cross = (await scanRoot(path.join(PUBLIC, 'ubuntu-19.04-cross'))).components;
    const purl = (name: string) => cross.find((c) => c.name === name)?.purl;
    expect(purl('libgcc1')).toBe('pkg:deb/debian/libgcc1@9-20190402-1ubuntu1?arch=amd64&epoch=1&upstream=gcc-9%409-20190402-1ubuntu1');
    expect(purl('cpp-mips-linux-gnu')).toBe('pkg:deb/debian/cpp-mips-linux-gnu@8.3.0-1ubuntu3?arch=amd64&epoch=4&upstream=gcc-defaults-ports%401.181ubuntu3');
    expect(purl('libc6')).toBe('pkg:deb/debian/libc6@2.29-0ubuntu2?arch=amd64&upstream=glibc');
    expect(purl('tar')).toBe('pkg:deb/debian/tar@1.30+dfsg-5?arch=amd64');
    // Unpacked, not configured: their files are on disk, as dpkg-query's Status says.
    expect(purl('libgcc-7-dev-mipsel-cross')).toBe('pkg:deb/debian/libgcc-7-dev-mipsel-cross@7.4.0-8ubuntu1cross2?arch=all&upstream=gcc-7-cross-ports%4024ubuntu3');
    expect(purl('libn32gcc-7-dev-mipsel-cross')).toBeDefined();
    // Depends and Pre-Depends resolved to the installed packages; a name only provided resolves to its provider.
    const deps = (name: string) => cross.find((c) => c.name === name)!.dependsOn.map((p) => PackageURL.fromString(p).name).sort();
    expect(deps('file')).toEqual(['libc6', 'libmagic1']);
    expect(deps('dpkg')).toEqual(['libbz2-1.0', 'libc6', 'liblzma5', 'libselinux1', 'libzstd1', 'tar', 'zlib1g']);
    expect(deps('libc6-dev')).toEqual(['libc-dev-bin', 'libc6', 'linux-libc-dev']);

    const precise = (await scanRoot(path.join(PUBLIC, 'ubuntu-12.04'))).components;
    expect(precise.find((c) => c.name === 'libxdmcp6')!.purl).toBe('pkg:deb/debian/libxdmcp6@1.1.0-4?arch=amd64&epoch=1&upstream=libxdmcp');
    expect(precise.find((c) => c.name === 'libbsf-java')!.purl).toBe('pkg:deb/debian/libbsf-java@2.4.0-5?arch=all&epoch=1');
    // `debconf (>= 0.5) | debconf-2.0`: the first alternative installed.
    expect(precise.find((c) => c.name === 'memtest86+')!.dependsOn).toEqual([precise.find((c) => c.name === 'debconf')!.purl]);
    expect(precise.find((c) => c.name === 'sudo')!.maintainer).toBe('Ubuntu Developers <ubuntu-devel-discuss@lists.ubuntu.com>');

    const termux = (await scanRoot(path.join(PUBLIC, 'termux-aarch64'))).components;
    expect(termux.find((c) => c.name === 'libc++')!.purl).toBe('pkg:deb/debian/libc%2B%2B@19b?arch=aarch64');
    expect(termux.find((c) => c.name === 'bash')!.dependsOn.map((p) => PackageURL.fromString(p).name).sort())
      .toEqual(['command-not-found', 'libandroid-support', 'ncurses', 'readline', 'termux-tools']);
  });
});

// ---- apk -------------------------------------------------------------------------------------------

/** Every L: value in the fixtures and its SPDX reading (a new fixture with a new value must add it here). */
const APK_LICENCES: Record<string, string> = {
  'MIT': 'MIT',
  'GPL2': 'GPL-2.0-only',
  'GPL-2.0': 'GPL-2.0-only',
  'GPL-2.0-only': 'GPL-2.0-only',
  'zlib': 'Zlib',
  'Zlib': 'Zlib',
  'BSD': 'BSD-3-Clause',
  'Apache-2.0': 'Apache-2.0',
  'custom': 'LicenseRef-custom',
  'MIT BSD GPL2+': 'MIT AND BSD-3-Clause AND GPL-2.0-or-later',
  'MPL-2.0 AND MIT': 'MPL-2.0 AND MIT',
  'GPL-2.0-or-later AND LGPL-2.1-or-later': 'GPL-2.0-or-later AND LGPL-2.1-or-later',
  'MIT AND BSD-2-Clause AND GPL-2.0-or-later': 'MIT AND BSD-2-Clause AND GPL-2.0-or-later',
};

/** The distro qualifier each root's release file gives (none: the repository held none). */
const APK_DISTRO: Record<string, string | undefined> = { 'alpine-3.6': undefined, 'alpine-3.8.2': 'alpine-3.8.2', 'alpine-3.20': undefined };

/** The records of an installed database as the test reads them: the first value of each one-letter key, and the record's lines. */
function apkRecords(text: string): { fields: Record<string, string>; start: number; end: number }[] {
  const out: { fields: Record<string, string>; start: number; end: number }[] = [];
  let current: (typeof out)[number] | undefined;
  text.split('\n').forEach((line, i) => {
    if (line === '') { current = undefined; return; }
    if (!current) out.push((current = { fields: {}, start: i + 1, end: i + 1 }));
    current.end = i + 1;
    current.fields[line[0]!] ??= line.slice(2);
  });
  return out;
}

const apkPurl = (f: Record<string, string>, distro: string | undefined) => new PackageURL('apk', 'alpine', f.P!, f.V!, {
  arch: f.A!, ...(distro ? { distro } : {}), ...(f.o && f.o !== f.P ? { upstream: f.o } : {}),
}, null).toString();

describe('apk installed databases of real Alpine roots', () => {
  it.each(APK_ROOTS)('%s: one component per record with its origin, licence, purl and lines', async (dir) => {
    const root = path.join(PUBLIC, dir);
    const text = await readFile(path.join(root, 'lib/apk/db/installed'), 'utf8');
    const records = apkRecords(text);
    const { components, problems } = await scanRoot(root);
    expect(problems).toEqual([]);
    expect(components.map((c) => `${c.name}@${c.version}`)).toEqual(records.map((r) => `${r.fields.P}@${r.fields.V}`));
    components.forEach((c, i) => {
      const { fields, start, end } = records[i]!;
      expect(c.purl).toBe(apkPurl(fields, APK_DISTRO[dir]));
      expect(c.ecosystem).toBe('apk');
      expect(fields.L! in APK_LICENCES, `L:${fields.L} (${c.name})`).toBe(true);
      expect(c.licenses, c.name).toEqual([APK_LICENCES[fields.L!]]);
      expect(c.maintainer).toBe(fields.m);
      expect(c.locations[0]).toEqual({ file: 'lib/apk/db/installed', startLine: start, endLine: end });
    });
  });

  it('real relationships and files: so: names, /bin/sh, versioned names, conflicts', async () => {
    const names = (components: Component[], name: string) =>
      components.find((c) => c.name === name)!.dependsOn.map((p) => PackageURL.fromString(p).name).sort();
    const edge = (await scanRoot(path.join(PUBLIC, 'alpine-3.20'))).components;
    // `musl>=1.2.3_git20230424 ca-certificates-bundle so:libc.musl-x86_64.so.1 so:libcrypto.so.3 so:libssl.so.3 so:libz.so.1`
    expect(names(edge, 'apk-tools')).toEqual(['ca-certificates-bundle', 'libcrypto3', 'libssl3', 'musl', 'zlib']);
    // `/bin/sh` is what busybox-binsh provides.
    expect(names(edge, 'alpine-baselayout')).toEqual(['alpine-baselayout-data', 'busybox-binsh']);
    expect(edge.find((c) => c.name === 'libstdc++')!.purl).toBe('pkg:apk/alpine/libstdc%2B%2B@13.2.1_git20240309-r0?arch=x86_64&upstream=gcc');
    expect(edge.find((c) => c.name === 'musl')!.locations.slice(1).map((l) => l.file)).toEqual(['lib/ld-musl-x86_64.so.1', 'lib/libc.musl-x86_64.so.1']);

    const old = (await scanRoot(path.join(PUBLIC, 'alpine-3.6'))).components;
    // `!uclibc-utils` is a conflict, not a dependency.
    expect(names(old, 'musl-utils')).toEqual(['musl', 'scanelf']);

    const release = (await scanRoot(path.join(PUBLIC, 'alpine-3.8.2'))).components;
    expect(release.find((c) => c.name === 'musl')!.purl).toBe('pkg:apk/alpine/musl@1.1.19-r10?arch=x86_64&distro=alpine-3.8.2');
    expect(release.find((c) => c.name === 'ssl_client')!.purl).toBe('pkg:apk/alpine/ssl_client@1.28.4-r2?arch=x86_64&distro=alpine-3.8.2&upstream=busybox');
    // A file in a folder the record names with F:, read relative to the root.
    expect(release.find((c) => c.name === 'apk-tools')!.locations.map((l) => l.file)).toContain('sbin/apk');
  });
});

describe('the real databases as copies edit them: CRLF line ends, no final newline, a byte-order mark', () => {
  const variants: [string, (t: string) => string][] = [
    ['CRLF', (t) => t.replace(/\n/g, '\r\n')],
    ['no final newline', (t) => t.replace(/\n+$/, '')],
    ['BOM', (t) => `\uFEFF${t}`],
  ];
  const view = (components: Component[]) => components.map((c) => [c.purl, c.licenses.join(' '), c.dependsOn.length, c.locations[0]?.startLine, c.locations[0]?.endLine]);

  it.each(variants)('%s: the same packages, purls, licences, dependencies and lines', async (_, edit) => {
    for (const dir of [...DPKG_ROOTS, ...APK_ROOTS]) {
      const db = DPKG_ROOTS.includes(dir) ? 'var/lib/dpkg/status' : 'lib/apk/db/installed';
      const files: Record<string, string> = { [db]: edit(await readFile(path.join(PUBLIC, dir, db), 'utf8')) };
      if (dir === 'alpine-3.8.2') files['etc/os-release'] = edit(await readFile(path.join(PUBLIC, dir, 'etc/os-release'), 'utf8'));
      const edited = await scanRoot(await writeTree(files));
      expect(edited.problems, dir).toEqual([]);
      expect(view(edited.components), dir).toEqual(view((await scanRoot(path.join(PUBLIC, dir))).components));
    }
  });
});

// ---- images ----------------------------------------------------------------------------------------

/**
 * Ubuntu 19.04's /etc/os-release as `cat /etc/os-release` prints it in the ubuntu:19.04 image
 * (quoted verbatim in public build logs and documentation); the repository of the status file
 * held none.
 */
const UBUNTU_1904_OS_RELEASE = `NAME="Ubuntu"
VERSION="19.04 (Disco Dingo)"
ID=ubuntu
ID_LIKE=debian
PRETTY_NAME="Ubuntu 19.04"
VERSION_ID="19.04"
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"
VERSION_CODENAME=disco
UBUNTU_CODENAME=disco
`;

const stanzaName = (s: string) => /^Package: (.*)$/m.exec(s)?.[1] ?? '';
const recordName = (r: string) => /^P:(.*)$/m.exec(r)?.[1] ?? '';

async function analyseImage(layers: Record<string, string>[], name: string, links?: Record<string, string>[]) {
  const work = await tempDir('cairn-public-os-image-');
  const built = await writeOciLayout(path.join(work, 'layout'), `${name}:test`, [{ architecture: 'amd64', layers, ...(links ? { links } : {}) }]);
  const result = await analyseInWorker({
    file: built.layoutDir, fileName: name, kind: 'image', modes: [1], workDir: path.join(work, 'analysis'), platform: 'linux/amd64',
  });
  return { result, layerDigests: built.platforms['linux/amd64']!.layers };
}

describe('real package databases as image layers, analysed as a run analyses an image', () => {
  it.skipIf(!hasDpkgQuery)('Ubuntu 19.04: packages installed by a later layer are its, purged and removed ones are gone, the image is Ubuntu 19.04', async () => {
    const real = await readFile(path.join(PUBLIC, 'ubuntu-19.04-cross/var/lib/dpkg/status'), 'utf8');
    const stanzas = real.split(/\n\n+/).filter((s) => s.trim());
    // Layer 0: the base without the two cross-compiler front ends; layer 1 is the real database after
    // `apt-get install gcc-mips-linux-gnu`, `dpkg --configure -a`, `apt-get purge file` and `apt-get remove libmagic1`.
    const late = new Set(['gcc-mips-linux-gnu', 'cpp-mips-linux-gnu']);
    const base = stanzas.filter((s) => !late.has(stanzaName(s))).join('\n\n') + '\n\n';
    const final = stanzas
      .filter((s) => stanzaName(s) !== 'file')
      .map((s) => s.replace('Status: install ok unpacked', 'Status: install ok installed'))
      .map((s) => (stanzaName(s) === 'libmagic1' ? s.replace('Status: install ok installed', 'Status: deinstall ok config-files') : s))
      .join('\n\n') + '\n\n';

    // As Ubuntu's base-files lays it out: etc/os-release a relative link to usr/lib/os-release.
    const { result, layerDigests } = await analyseImage([
      { 'usr/lib/os-release': UBUNTU_1904_OS_RELEASE, 'var/lib/dpkg/status': base },
      { 'var/lib/dpkg/status': final },
    ], 'ubuntu-cross', [{ 'etc/os-release': '../usr/lib/os-release' }, {}]);
    expect(result.problems).toEqual([]);

    // The components: the extractor's for the final root, which are dpkg-query's on-disk packages.
    const expected = (await scanRoot(await writeTree({ 'etc/os-release': UBUNTU_1904_OS_RELEASE, 'var/lib/dpkg/status': final }))).components;
    const oracle = onDiskRows(await dpkgQuery(final));
    expect(debRows(expected)).toEqual(oracle);
    expect(result.components.map((c) => c.purl).sort()).toEqual(expected.map((c) => c.purl).sort());
    expect(debRows(result.components)).toEqual(oracle);
    expect(oracle.some((r) => r.startsWith('file\t') || r.startsWith('libmagic1\t'))).toBe(false);
    for (const c of result.components) {
      expect(PackageURL.fromString(c.purl).namespace).toBe('ubuntu');
      expect(qualifiers(c.purl).distro).toBe('ubuntu-19.04');
    }
    expect(result.components.find((c) => c.name === 'libgcc1')!.purl)
      .toBe('pkg:deb/ubuntu/libgcc1@9-20190402-1ubuntu1?arch=amd64&distro=ubuntu-19.04&epoch=1&upstream=gcc-9%409-20190402-1ubuntu1');

    // Layers: the two installed later are layer 1's, the rest (configured or not) layer 0's.
    for (const c of result.components) expect(c.layer, c.name).toBe(late.has(c.name) ? 1 : 0);
    expect(result.image!.layers.map((l) => [l.index, l.digest, l.components])).toEqual([
      [0, layerDigests[0], result.components.length - 2],
      [1, layerDigests[1], 2],
    ]);
    expect(result.image!.os).toEqual({ id: 'ubuntu', versionId: '19.04', prettyName: 'Ubuntu 19.04' });
    expect(result.image!.platform).toBe('linux/amd64');
  }, 180_000);

  it('Alpine 3.8.2: the apk root with its os-release, a later layer adding ssl_client and libtls', async () => {
    const osRelease = await readFile(path.join(PUBLIC, 'alpine-3.8.2/etc/os-release'), 'utf8');
    const real = await readFile(path.join(PUBLIC, 'alpine-3.8.2/lib/apk/db/installed'), 'utf8');
    const records = real.split(/\n\n+/).filter((r) => r.trim());
    const late = new Set(['ssl_client', 'libressl2.7-libtls']);
    const base = records.filter((r) => !late.has(recordName(r))).join('\n\n') + '\n\n';

    const { result, layerDigests } = await analyseImage([
      { 'etc/os-release': osRelease, 'lib/apk/db/installed': base },
      { 'lib/apk/db/installed': real },
    ], 'alpine');
    expect(result.problems).toEqual([]);

    const expected = (await scanRoot(path.join(PUBLIC, 'alpine-3.8.2'))).components;
    const view = (list: readonly { purl: string; version: string; licenses: string[] }[]) => list.map((c) => [c.purl, c.version, c.licenses]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(view(result.components)).toEqual(view(expected));
    expect(result.components).toHaveLength(13);
    for (const c of result.components) {
      expect(qualifiers(c.purl).distro).toBe('alpine-3.8.2');
      expect(c.layer, c.name).toBe(late.has(c.name) ? 1 : 0);
    }
    // libressl's `L:custom` stays a licence of the component and of its expression.
    const libcrypto = result.components.find((c) => c.name === 'libressl2.7-libcrypto')!;
    expect(libcrypto.licenses).toEqual(['LicenseRef-custom']);
    expect(libcrypto.licenseExpression).toBe('LicenseRef-custom');
    expect(result.components.find((c) => c.name === 'musl-utils')!.licenseExpression).toBe('MIT AND BSD-3-Clause AND GPL-2.0-or-later');

    expect(result.image!.layers.map((l) => [l.index, l.digest, l.components])).toEqual([
      [0, layerDigests[0], 11],
      [1, layerDigests[1], 2],
    ]);
    expect(result.image!.os).toEqual({ id: 'alpine', versionId: '3.8.2', prettyName: 'Alpine Linux v3.8' });
  }, 180_000);
});
