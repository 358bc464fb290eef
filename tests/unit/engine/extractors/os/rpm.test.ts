import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBerkeleyDb } from '../../../../../server/engine/extractors/os/rpm/bdb.ts';
import { distroFromVendor, parseOsRelease, parseReleaseFile, readRpmDatabase, rpmExtractor, rpmPurl, splitSourceRpm, systemRootOf, type RpmComponent } from '../../../../../server/engine/extractors/os/rpm/extractor.ts';
import { rpmLicense } from '../../../../../server/engine/extractors/os/rpm/license.ts';
import { readNdb } from '../../../../../server/engine/extractors/os/rpm/ndb.ts';
import { extractors } from '../../../../../server/engine/extractors/os/rpm/index.ts';
import { normalizeDeclared } from '../../../../../server/engine/matchers/licenses/expression.ts';
import { treeContext } from '../../../../../server/engine/sources/tree.ts';
import { buildBdb, buildNdb, packageHeader, swapBdbEndianness, type PackageSpec } from '../../../../support/rpmdb.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';

const CORPUS = path.resolve('../shared/corpora/os');
const EPOCH_BDB = readFileSync(path.join(CORPUS, 'scalibr/rpm/testdata/Packages_epoch'));
const MARINER = readFileSync(path.join(CORPUS, 'go-rpmdb/pkg/testdata/cbl-mariner-2.0/rpmdb.sqlite'));
const { scan, writeTree } = useTempScan('cairn-rpm-', extractors);

const PKGS: PackageSpec[] = [
  { name: 'bash', version: '5.1.8', release: '6.el9', license: 'GPLv3+', sourceRpm: 'bash-5.1.8-6.el9.src.rpm', vendor: 'Rocky Enterprise Software Foundation', files: ['/usr/bin/bash', '/usr/bin/sh'], provides: ['/bin/sh', 'bash'], requires: ['libc.so.6()(64bit)', 'rpmlib(CompressedFileNames)'] },
  { name: 'glibc', version: '2.34', release: '60.el9', epoch: 0, license: 'LGPLv2+ and LGPLv2+ with exceptions and GPLv2+', provides: ['libc.so.6()(64bit)'], requires: ['/usr/bin/sh'] },
  { name: 'tzdata', version: '2023c', release: '1.el9', arch: 'noarch', license: 'Public Domain', files: Array.from({ length: 400 }, (_, i) => `/usr/share/zoneinfo/zone-with-a-long-name-${i}`) },
  { name: 'gpg-pubkey', version: 'b86b3716', release: '61e69f29', arch: '(none)', license: 'pubkey' },
];
const BLOBS = PKGS.map(packageHeader);
const OS_RELEASE = 'NAME="Rocky Linux"\nVERSION="9.2 (Blue Onyx)"\nID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.2"\n';

const names = (packages: { name: string; epoch: number | null; version: string; release: string; arch: string }[]) =>
  packages.map((p) => `${p.name}\t${p.epoch ?? 0}\t${p.version}-${p.release}\t${p.arch}`).sort();

describe('rpm purls', () => {
  const base = { epoch: null, arch: 'x86_64', license: '', vendor: '', size: null, files: [], filesTruncated: false, provides: [], requires: [] };
  const rocky = { id: 'rocky', versionId: '9.2' };
  it('carry the source rpm as upstream when the package was built from one of another name (the matcher meets its advisories too)', () => {
    expect(rpmPurl({ ...base, name: 'openssl-libs', epoch: 1, version: '3.0.7', release: '24.el9', sourceRpm: 'openssl-3.0.7-24.el9.src.rpm' }, 'rocky', rocky))
      .toBe('pkg:rpm/rocky/openssl-libs@3.0.7-24.el9?arch=x86_64&distro=rocky-9.2&epoch=1&upstream=openssl');
    // A source built at another version says so; a package named as its source carries none.
    expect(rpmPurl({ ...base, name: 'python3-libs', version: '3.9.16', release: '1.el9_2.1', sourceRpm: 'python3.9-3.9.16-1.el9_2.1.src.rpm' }, 'rocky', rocky))
      .toBe('pkg:rpm/rocky/python3-libs@3.9.16-1.el9_2.1?arch=x86_64&distro=rocky-9.2&upstream=python3.9');
    expect(rpmPurl({ ...base, name: 'kernel-core', version: '5.14.0', release: '284.el9', sourceRpm: 'kernel-5.14.0-284.30.1.el9.src.rpm' }, 'rocky', rocky))
      .toBe('pkg:rpm/rocky/kernel-core@5.14.0-284.el9?arch=x86_64&distro=rocky-9.2&upstream=kernel%405.14.0-284.30.1.el9');
    expect(rpmPurl({ ...base, name: 'bash', version: '5.1.8', release: '6.el9', sourceRpm: 'bash-5.1.8-6.el9.src.rpm' }, 'rocky', rocky))
      .toBe('pkg:rpm/rocky/bash@5.1.8-6.el9?arch=x86_64&distro=rocky-9.2');
  });
});

describe('rpm databases', () => {
  it('reads the BerkeleyDB fixture (little-endian, overflow pages) and the same file byte-swapped to big-endian', async () => {
    const le = await readRpmDatabase(EPOCH_BDB);
    expect(le.format).toBe('bdb');
    expect(names(le.packages)).toEqual(['hello\t1\t0.0.1-rls\tx86_64']);
    const be = await readRpmDatabase(swapBdbEndianness(EPOCH_BDB));
    expect(be.packages).toEqual(le.packages);
    expect(be.skipped).toEqual([]);
  });

  it.each([false, true])('reads a hand-built BerkeleyDB hash file with inline and overflow values (big-endian: %s)', async (bigEndian) => {
    const read = await readRpmDatabase(buildBdb(BLOBS, { bigEndian, pageSize: 1024, inlineMax: 300 }));
    expect(read.format).toBe('bdb');
    expect(names(read.packages)).toEqual(names(PKGS.map((p) => ({ ...p, epoch: p.epoch ?? null, arch: p.arch ?? 'x86_64' }))));
    expect(read.packages.find((p) => p.name === 'tzdata')!.files).toHaveLength(400);
  });

  it('skips a BerkeleyDB record whose overflow chain loops, is cut, or claims a huge length, and reads the rest', () => {
    const db = buildBdb(BLOBS, { pageSize: 1024, inlineMax: 300 });
    // tzdata's blob spans several overflow pages: the first of them that links to another is its start.
    const pages = db.length / 1024;
    const overflow = [...Array(pages).keys()].filter((p) => db[p * 1024 + 25] === 7 && db.readUInt32LE(p * 1024 + 16) !== 0);
    const looped = Buffer.from(db);
    looped.writeUInt32LE(overflow[0]!, overflow[0]! * 1024 + 16);
    const cut = Buffer.from(db);
    cut.writeUInt32LE(0, overflow[0]! * 1024 + 16);
    const huge = Buffer.from(db);
    for (let p = 1; p < pages; p++) {
      if (huge[p * 1024 + 25] !== 13) continue;
      for (let i = 1; i < huge.readUInt16LE(p * 1024 + 20); i += 2) {
        const at = p * 1024 + huge.readUInt16LE(p * 1024 + 26 + i * 2);
        if (huge[at] === 3) huge.writeUInt32LE(0xffffffff, at + 8);
      }
    }
    for (const [bad, reason] of [[looped, /成环/], [cut, /中断/], [huge, /超过上限/]] as const) {
      const records = readBerkeleyDb(bad);
      expect(records.filter((r) => r.blob)).not.toHaveLength(0);
      expect(records.some((r) => r.error && reason.test(r.error))).toBe(true);
    }
  });

  it('refuses what is not a BerkeleyDB hash file, and an encrypted one', async () => {
    const encrypted = Buffer.from(EPOCH_BDB);
    encrypted[24] = 1;
    await expect(readRpmDatabase(encrypted)).rejects.toThrow(/已加密/);
    const badPageSize = Buffer.from(EPOCH_BDB);
    badPageSize.writeUInt32LE(1000, 20);
    await expect(readRpmDatabase(badPageSize)).rejects.toThrow(/页大小 1000 无效/);
  });

  it('reads an NDB Packages.db, skipping a broken blob by name and keeping the others', async () => {
    const db = buildNdb(BLOBS);
    const read = await readRpmDatabase(db);
    expect(read.format).toBe('ndb');
    expect(read.packages.map((p) => p.name)).toEqual(['bash', 'glibc', 'tzdata', 'gpg-pubkey']);
    const broken = Buffer.from(db);
    const slot2 = 3 * 16;
    broken.write('XXXX', broken.readUInt32LE(slot2 + 8) * 16, 'latin1');
    const partial = await readRpmDatabase(broken);
    expect(partial.packages.map((p) => p.name)).toEqual(['bash', 'tzdata', 'gpg-pubkey']);
    expect(partial.skipped).toEqual([{ id: 2, reason: '数据块头的魔数不符' }]);
  });

  it('refuses hostile NDB fields without allocating for them', () => {
    const db = buildNdb(BLOBS);
    const slots = Buffer.from(db);
    slots.writeUInt32LE(0x7fffffff, 12);
    expect(() => readNdb(slots)).toThrow(/槽位表声明 2147483647 页/);
    const blobLen = Buffer.from(db);
    blobLen.writeUInt32LE(0xfffffff0, blobLen.readUInt32LE(2 * 16 + 8) * 16 + 12);
    expect(readNdb(blobLen)[0]).toEqual({ id: 1, error: '数据块长度 4294967280 与块数 ' + db.readUInt32LE(2 * 16 + 12) + ' 不符' });
    const outside = Buffer.from(db);
    outside.writeUInt32LE(0xffffffff, 2 * 16 + 8);
    expect(readNdb(outside)[0]!.error).toMatch(/超出文件/);
    const version = Buffer.from(db);
    version.writeUInt32LE(3, 4);
    expect(() => readNdb(version)).toThrow(/不支持的 NDB 版本 3/);
  });

  it('reads the SQLite fixture (WAL mode, as rpm leaves it) and skips a corrupt blob by its hnum', async () => {
    const read = await readRpmDatabase(MARINER);
    expect(read.format).toBe('sqlite');
    expect(read.packages).toHaveLength(129);
    expect(read.skipped).toEqual([]);
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE Packages (hnum INTEGER PRIMARY KEY AUTOINCREMENT, blob BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO Packages (hnum, blob) VALUES (?, ?)');
    insert.run(1, BLOBS[0]!);
    insert.run(7, Buffer.from([0, 0, 0, 9, 0, 0, 0, 0]));
    insert.run(9, BLOBS[1]!);
    const image = Buffer.from(db.serialize());
    db.close();
    const partial = await readRpmDatabase(image);
    expect(partial.packages.map((p) => p.name)).toEqual(['bash', 'glibc']);
    expect(partial.skipped).toEqual([{ id: 7, reason: expect.stringContaining('需要 152 字节，实际只有 8 字节') }]);
  });

  it('skips the one SQLite row whose overflow chain is damaged, whether SQLite notices or the header check does', async () => {
    const pages = MARINER.length / 4096;
    // An overflow page that links to another (its first 4 bytes: the next page, 1-based).
    const page = [...Array(pages).keys()].find((p) => p > 0 && MARINER[p * 4096] === 0 && MARINER.readUInt32BE(p * 4096) > 0 && MARINER.readUInt32BE(p * 4096) <= pages)!;
    const beyond = Buffer.from(MARINER);
    beyond.writeUInt32BE(pages + 50, page * 4096);
    const malformed = await readRpmDatabase(beyond);
    expect(malformed.packages).toHaveLength(128);
    expect(malformed.skipped).toEqual([{ id: expect.any(Number), reason: 'SQLite 记录读取失败：database disk image is malformed' }]);
    const looped = Buffer.from(MARINER);
    looped.writeUInt32BE(page + 1, page * 4096);
    const garbled = await readRpmDatabase(looped);
    expect(garbled.packages).toHaveLength(128);
    expect(garbled.skipped).toEqual([{ id: malformed.skipped[0]!.id, reason: expect.stringMatching(/超出/) }]);
  });

  it('refuses an empty file, an SQLite file without Packages, and something else', async () => {
    await expect(readRpmDatabase(Buffer.alloc(0))).rejects.toThrow('文件为空');
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE other (x)');
    const image = Buffer.from(db.serialize());
    db.close();
    await expect(readRpmDatabase(image)).rejects.toThrow(/没有 Packages 表/);
    await expect(readRpmDatabase(Buffer.from('invalid'))).rejects.toThrow(/不是 rpm 包数据库/);
  });
});

describe('rpm components', () => {
  it('maps rpm licence tags to SPDX, operand by operand, keeping what has no SPDX id as LicenseRef', () => {
    expect(rpmLicense('GPLv3+')).toBe('GPL-3.0-or-later');
    expect(rpmLicense('GPLv3')).toBe('GPL-3.0-only');
    expect(rpmLicense('GPL+ or Artistic')).toBe('GPL-1.0-or-later OR Artistic-1.0-Perl');
    expect(rpmLicense('BSD AND GPLv2+ AND Inner-Net AND ISC AND LGPLv2+ AND MIT')).toBe('BSD-3-Clause AND GPL-2.0-or-later AND Inner-Net-2.0 AND ISC AND LGPL-2.0-or-later AND MIT');
    expect(rpmLicense('(LGPLv3+ or GPLv2+) and GPLv3+')).toBe('(LGPL-3.0-or-later OR GPL-2.0-or-later) AND GPL-3.0-or-later');
    expect(rpmLicense('BSD AND Public Domain AND (ASL 2.0 OR CC0 1.0 OR OpenSSL)')).toBe('BSD-3-Clause AND LicenseRef-public-domain AND (Apache-2.0 OR CC0-1.0 OR OpenSSL)');
    expect(rpmLicense('LGPLv2+ and LGPLv2+ with exceptions')).toBe('LGPL-2.0-or-later AND LicenseRef-LGPLv2-plus-with-exceptions');
    expect(rpmLicense('Apache-2.0 AND (MIT OR BSD-3-Clause)')).toBe('Apache-2.0 AND (MIT OR BSD-3-Clause)');
    expect(rpmLicense('Redistributable, no modification permitted')).toBe('LicenseRef-Redistributable-no-modification-permitted');
    expect(rpmLicense('GPL and')).toBe('LicenseRef-GPL-and');
    expect(rpmLicense('')).toBeNull();
    expect(rpmLicense('(none)')).toBeNull();
  });

  it('gives expressions the inventory keeps as they are', async () => {
    const read = await readRpmDatabase(MARINER);
    for (const p of read.packages) {
      const spdx = rpmLicense(p.license);
      if (spdx) expect(normalizeDeclared(spdx), p.license).toBe(spdx);
    }
  });

  it('reads os-release and the helpers around it', () => {
    expect(parseOsRelease(OS_RELEASE)).toEqual({ id: 'rocky', versionId: '9.2' });
    expect(parseOsRelease("ID=opensuse-tumbleweed\nVERSION_ID='20240101'\n")).toEqual({ id: 'opensuse-tumbleweed', versionId: '20240101' });
    expect(parseOsRelease('NAME=x\n')).toBeUndefined();
    expect(parseReleaseFile('CentOS release 6.10 (Final)\n')).toEqual({ id: 'centos', versionId: '6' });
    expect(parseReleaseFile('CentOS Linux release 7.9.2009 (Core)')).toEqual({ id: 'centos', versionId: '7' });
    expect(parseReleaseFile('Red Hat Enterprise Linux Server release 6.10 (Santiago)')).toEqual({ id: 'rhel', versionId: '6.10' });
    expect(parseReleaseFile('Amazon Linux AMI release 2018.03')).toEqual({ id: 'amzn', versionId: '2018.03' });
    expect(parseReleaseFile('Something else 1.0')).toBeUndefined();
    expect(systemRootOf('layers/a/var/lib/rpm/Packages')).toBe('layers/a/');
    expect(systemRootOf('usr/lib/sysimage/rpm/Packages.db')).toBe('');
    expect(splitSourceRpm('glibc-2.34-2.cm2.src.rpm')).toEqual({ name: 'glibc', version: '2.34-2.cm2' });
    expect(splitSourceRpm('(none)')).toBeUndefined();
    expect(distroFromVendor([{ vendor: 'Microsoft Corporation' }, { vendor: 'Fedora Project' }, { vendor: 'Microsoft Corporation' }] as never)).toBe('mariner');
  });

  it('scans a root: purls with namespace, arch, epoch and distro, source rpm, files, edges, roots; gpg-pubkey left out', async () => {
    const result = await scan({ 'var/lib/rpm/rpmdb.sqlite': await sqliteOf(BLOBS), 'etc/os-release': OS_RELEASE });
    expect(result.problems).toEqual([]);
    expect(result.targets).toHaveLength(1);
    const target = result.targets[0]!;
    expect(target).toMatchObject({ file: 'var/lib/rpm/rpmdb.sqlite', type: 'rpm', ecosystem: 'rpm', project: null });
    const byName = new Map((target.components as RpmComponent[]).map((c) => [c.name, c]));
    expect([...byName.keys()].sort()).toEqual(['bash', 'glibc', 'tzdata']);
    const bash = byName.get('bash')!;
    expect(bash).toMatchObject({
      purl: 'pkg:rpm/rocky/bash@5.1.8-6.el9?arch=x86_64&distro=rocky-9.2', version: '5.1.8-6.el9', ecosystem: 'rpm',
      licenses: ['GPL-3.0-or-later'], locations: [{ file: 'var/lib/rpm/rpmdb.sqlite' }], scope: 'runtime',
      dependsOn: ['pkg:rpm/rocky/glibc@2.34-60.el9?arch=x86_64&distro=rocky-9.2&epoch=0'],
      rpm: { arch: 'x86_64', epoch: null, sourceName: 'bash', sourceVersion: '5.1.8-6.el9', vendor: 'Rocky Enterprise Software Foundation', files: ['/usr/bin/bash', '/usr/bin/sh'] },
    });
    // glibc requires /usr/bin/sh, a file bash owns: the edge goes both ways, so neither is a root.
    expect(byName.get('glibc')).toMatchObject({ version: '0:2.34-60.el9', dependsOn: [bash.purl], direct: false });
    expect(target.roots).toEqual([byName.get('tzdata')!.purl]);
    expect(byName.get('tzdata')!.purl).toBe('pkg:rpm/rocky/tzdata@2023c-1.el9?arch=noarch&distro=rocky-9.2');
  });

  it('finds os-release under usr/lib and a sub-root, a release file on older systems; without either, the namespace comes from the vendor and there is no distro', async () => {
    const result = await scan({
      'img/usr/lib/sysimage/rpm/Packages.db': buildNdb(BLOBS.slice(0, 1)),
      'img/usr/lib/os-release': 'ID=opensuse-leap\nVERSION_ID="15.5"\n',
      'bare/var/lib/rpm/Packages': buildBdb(BLOBS.slice(0, 1)),
      'old/var/lib/rpm/Packages': buildBdb(BLOBS.slice(0, 1)),
      'old/etc/redhat-release': 'CentOS release 6.10 (Final)\n',
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => t.components[0]!.purl)).toEqual([
      'pkg:rpm/rocky/bash@5.1.8-6.el9?arch=x86_64',
      'pkg:rpm/opensuse-leap/bash@5.1.8-6.el9?arch=x86_64&distro=opensuse-leap-15.5',
      'pkg:rpm/centos/bash@5.1.8-6.el9?arch=x86_64&distro=centos-6',
    ]);
  });

  it('reports an unreadable database as a problem and carries on; a partly corrupt one reports the skipped records as the target problems', async () => {
    const result = await scan({ 'var/lib/rpm/rpmdb.sqlite': '', 'other/var/lib/rpm/Packages': 'invalid' });
    expect(result.targets).toEqual([]);
    expect(result.problems.map((p) => p.message)).toEqual([
      'other/var/lib/rpm/Packages 无法读取：不是 rpm 包数据库（既非 SQLite，也非 BerkeleyDB 或 NDB）',
      'var/lib/rpm/rpmdb.sqlite 无法读取：文件为空',
    ]);

    const broken = buildNdb(BLOBS);
    broken.write('XXXX', broken.readUInt32LE(3 * 16 + 8) * 16, 'latin1');
    const root = await writeTree({ 'usr/lib/sysimage/rpm/Packages.db': broken });
    const ctx = treeContext(root, new AbortController().signal);
    const file = { path: 'usr/lib/sysimage/rpm/Packages.db', size: broken.length, read: async () => broken, text: async () => '' };
    const targets = await rpmExtractor.extract(file, ctx);
    expect(targets[0]!.components.map((c) => c.name)).toEqual(['bash', 'tzdata']);
    expect(targets[0]!.problems).toEqual(['usr/lib/sysimage/rpm/Packages.db 中有 1 条包记录损坏，已跳过：#2（数据块头的魔数不符）']);
    // Through the scan, they are the scan's problems.
    const scanned = await scan({ 'usr/lib/sysimage/rpm/Packages.db': broken });
    expect(scanned.problems).toEqual([{ file: file.path, message: 'usr/lib/sysimage/rpm/Packages.db 中有 1 条包记录损坏，已跳过：#2（数据块头的魔数不符）' }]);
    // Every record broken: the database is a problem of its own.
    const dead = buildNdb(BLOBS.slice(0, 1));
    dead.write('XXXX', dead.readUInt32LE(2 * 16 + 8) * 16, 'latin1');
    await expect(rpmExtractor.extract({ ...file, read: async () => dead }, ctx)).rejects.toThrow(/1 条包记录损坏/);
  });

  it('claims the database files rpm uses and nothing else', () => {
    for (const p of ['var/lib/rpm/rpmdb.sqlite', 'var/lib/rpm/Packages', 'var/lib/rpm/Packages.db', 'usr/lib/sysimage/rpm/Packages.db', 'usr/lib/sysimage/rpm/rpmdb.sqlite', 'x/var/lib/rpm/Packages']) {
      expect(rpmExtractor.matches(p), p).toBe(true);
    }
    for (const p of ['var/lib/rpm/Name', 'var/lib/rpm/rpmdb.sqlite-shm', 'rpmdb.sqlite', 'Packages', 'var/lib/rpm/Packages/x', 'avar/lib/rpm/Packages']) {
      expect(rpmExtractor.matches(p), p).toBe(false);
    }
    for (const name of rpmExtractor.reads) expect(rpmExtractor.matches(name)).toBe(true);
  });
});

async function sqliteOf(blobs: Buffer[]): Promise<Buffer> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE Packages (hnum INTEGER PRIMARY KEY AUTOINCREMENT, blob BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO Packages (blob) VALUES (?)');
  for (const b of blobs) insert.run(b);
  const image = Buffer.from(db.serialize());
  db.close();
  return image;
}
