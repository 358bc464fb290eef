// The rpm databases of the corpora (../shared/corpora/os/), read by our engine and by rpm itself
// (Debian's `rpm`, installed by .ci/run): the set of (name, epoch, version-release, arch) must be
// the same, database by database. Debian's rpm 4.18 reads SQLite and, through bdb_ro, BerkeleyDB in
// either byte order, but is built without the NDB backend ("invalid %_db_backend: ndb"), and the
// corpora hold no NDB file: the NDB case packs the Mariner database's own header blobs into an NDB
// file and asserts the same set rpm reads from the original.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRpmDatabase, rpmTarget } from '../../../../../server/engine/extractors/os/rpm/index.ts';
import { buildBdb, buildNdb, packageHeader, swapBdbEndianness } from '../../../../support/rpmdb.ts';

const CORPUS = path.resolve('../shared/corpora/os');
const QF = '%{NAME}\\t%{EPOCHNUM}\\t%{VERSION}-%{RELEASE}\\t%{ARCH}\\n';
const fixture = (rel: string) => readFileSync(path.join(CORPUS, rel));

let work: string;
beforeAll(() => {
  const which = spawnSync('rpm', ['--version'], { encoding: 'utf8' });
  if (which.status !== 0) throw new Error('需要 Debian 的 rpm 软件包作为对照（apt-get install rpm；.ci/run 会安装）');
  work = mkdtempSync(path.join(tmpdir(), 'cairn-rpm-oracle-'));
});
afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

/** rpm's own reading of a database, copied into a fresh dbpath under the name rpm expects. */
function rpmQa(name: string, bytes: Buffer): string[] {
  const dir = mkdtempSync(path.join(work, 'db-'));
  writeFileSync(path.join(dir, name), bytes);
  const out = execFileSync('rpm', ['--dbpath', dir, '-qa', '--qf', QF], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split('\n').filter(Boolean).sort();
}

async function ours(bytes: Buffer): Promise<string[]> {
  const read = await readRpmDatabase(bytes);
  expect(read.skipped).toEqual([]);
  return read.packages.map((p) => `${p.name}\t${p.epoch ?? 0}\t${p.version}-${p.release}\t${p.arch}`).sort();
}

/** The header blobs of the Mariner SQLite database, in its hnum order. */
async function marinerBlobs(): Promise<Buffer[]> {
  const { DatabaseSync } = await import('node:sqlite');
  const image = Buffer.from(fixture('go-rpmdb/pkg/testdata/cbl-mariner-2.0/rpmdb.sqlite'));
  image[18] = 1;
  image[19] = 1;
  const db = new DatabaseSync(':memory:');
  db.deserialize(image);
  const rows = db.prepare('SELECT blob FROM Packages ORDER BY hnum').all() as { blob: Uint8Array }[];
  db.close();
  return rows.map((r) => Buffer.from(r.blob));
}

describe('rpm databases against rpm --dbpath -qa', () => {
  it('go-rpmdb cbl-mariner-2.0/rpmdb.sqlite (SQLite, WAL)', async () => {
    const bytes = fixture('go-rpmdb/pkg/testdata/cbl-mariner-2.0/rpmdb.sqlite');
    const expected = rpmQa('rpmdb.sqlite', bytes);
    expect(expected).toHaveLength(129);
    expect(await ours(bytes)).toEqual(expected);
    const read = await readRpmDatabase(bytes);
    const target = rpmTarget('var/lib/rpm/rpmdb.sqlite', read.packages, { id: 'mariner', versionId: '2.0' });
    expect(target.components).toHaveLength(expected.filter((l) => !l.startsWith('gpg-pubkey\t')).length);
    expect(new Set(target.components.map((c) => c.purl)).size).toBe(target.components.length);
  });

  it('scalibr rpm/testdata/Packages_epoch (BerkeleyDB, little-endian, with an epoch)', async () => {
    const bytes = fixture('scalibr/rpm/testdata/Packages_epoch');
    const expected = rpmQa('Packages', bytes);
    expect(expected).toEqual(['hello\t1\t0.0.1-rls\tx86_64']);
    expect(await ours(bytes)).toEqual(expected);
  });

  it('scalibr Packages_epoch byte-swapped to big-endian (as written on s390x)', async () => {
    const bytes = swapBdbEndianness(fixture('scalibr/rpm/testdata/Packages_epoch'));
    const expected = rpmQa('Packages', bytes);
    expect(expected).toEqual(['hello\t1\t0.0.1-rls\tx86_64']);
    expect(await ours(bytes)).toEqual(expected);
  });

  it.each([false, true])('the Mariner headers in a BerkeleyDB hash file, overflow pages (big-endian: %s)', async (bigEndian) => {
    const bytes = buildBdb(await marinerBlobs(), { bigEndian });
    const expected = rpmQa('Packages', bytes);
    expect(expected).toEqual(rpmQa('rpmdb.sqlite', fixture('go-rpmdb/pkg/testdata/cbl-mariner-2.0/rpmdb.sqlite')));
    expect(await ours(bytes)).toEqual(expected);
  });

  it('hand-made headers in a BerkeleyDB hash file, inline values and an epoch of 0', async () => {
    const blobs = [
      packageHeader({ name: 'bash', version: '5.1.8', release: '6.el9', license: 'GPLv3+' }),
      packageHeader({ name: 'glibc', version: '2.34', release: '60.el9', epoch: 0 }),
      packageHeader({ name: 'tzdata', version: '2023c', release: '1.el9', arch: 'noarch', files: Array.from({ length: 300 }, (_, i) => `/usr/share/zoneinfo/z${i}`) }),
    ];
    const bytes = buildBdb(blobs, { pageSize: 1024, inlineMax: 400 });
    const expected = rpmQa('Packages', bytes);
    expect(expected).toEqual(['bash\t0\t5.1.8-6.el9\tx86_64', 'glibc\t0\t2.34-60.el9\tx86_64', 'tzdata\t0\t2023c-1.el9\tnoarch']);
    expect(await ours(bytes)).toEqual(expected);
  });

  it('the Mariner headers in an NDB Packages.db (Debian rpm has no NDB backend: compared with its reading of the SQLite original)', async () => {
    const expected = rpmQa('rpmdb.sqlite', fixture('go-rpmdb/pkg/testdata/cbl-mariner-2.0/rpmdb.sqlite'));
    expect(await ours(buildNdb(await marinerBlobs()))).toEqual(expected);
  });

  it.each([['empty.sqlite', 'rpmdb.sqlite', '文件为空'], ['invalid', 'Packages', '不是 rpm 包数据库']])('scalibr %s: rpm lists nothing and we refuse it', async (file, name, message) => {
    const bytes = fixture(`scalibr/rpm/testdata/${file}`);
    const dir = mkdtempSync(path.join(work, 'db-'));
    writeFileSync(path.join(dir, name), bytes);
    const run = spawnSync('rpm', ['--dbpath', dir, '-qa', '--qf', QF], { encoding: 'utf8' });
    expect(run.stdout).toBe('');
    await expect(readRpmDatabase(bytes)).rejects.toThrow(message);
  });
});
