// OS package databases are found by location and content, with the corpus from osv-scalibr and
// go-rpmdb (read from ../shared/corpora, copied only into temporary folders).
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { detectOsDatabases, matchOsDatabase } from '../../../../server/engine/sources/unpack.ts';
import { useWorkspace } from './archives.ts';

const CORPUS = path.resolve('../shared/corpora/os');
const scalibr = (rel: string) => path.join(CORPUS, 'scalibr', rel);

const ws = useWorkspace();

async function place(from: string, rel: string): Promise<void> {
  const to = path.join(ws.dir, rel);
  await mkdir(path.dirname(to), { recursive: true });
  await copyFile(from, to);
}

describe('detectOsDatabases', () => {
  it('finds the corpus databases (and a pacman record) at their locations in a root filesystem', async () => {
    await place(scalibr('dpkg/testdata/dpkg/valid'), 'var/lib/dpkg/status');
    await place(scalibr('dpkg/testdata/dpkg/status.d/foo'), 'distroless/var/lib/dpkg/status.d/foo');
    await place(scalibr('dpkg/testdata/dpkg/status.d/foo.md5sums'), 'distroless/var/lib/dpkg/status.d/foo.md5sums');
    await place(scalibr('apk/testdata/installed'), 'alpine/lib/apk/db/installed');
    await place(scalibr('rpm/testdata/Packages_epoch'), 'centos/var/lib/rpm/Packages');
    await place(path.join(CORPUS, 'go-rpmdb/pkg/testdata/cbl-mariner-2.0/rpmdb.sqlite'), 'mariner/var/lib/rpm/rpmdb.sqlite');
    await place(path.resolve('tests/fixtures/os/pacman/var/lib/pacman/local/gmp-6.2.1-2/desc'), 'arch/var/lib/pacman/local/gmp-6.2.1-2/desc');
    await place(path.resolve('tests/fixtures/os/pacman/var/lib/pacman/local/gmp-6.2.1-2/files'), 'arch/var/lib/pacman/local/gmp-6.2.1-2/files');
    // Look-alikes that are not package databases.
    await writeFile(path.join(ws.dir, 'Packages'), 'Package: apt\nVersion: 2.6\n'); // an apt repository index
    await mkdir(path.join(ws.dir, 'docs'));
    await writeFile(path.join(ws.dir, 'docs/status'), 'all green\n');

    expect(await detectOsDatabases(ws.dir)).toEqual([
      { path: 'alpine/lib/apk/db/installed', manager: 'apk', format: 'apk-installed', atLocation: true, content: true },
      { path: 'arch/var/lib/pacman/local/gmp-6.2.1-2/desc', manager: 'pacman', format: 'pacman-desc', atLocation: true, content: true },
      { path: 'centos/var/lib/rpm/Packages', manager: 'rpm', format: 'rpm-bdb', atLocation: true, content: true },
      { path: 'distroless/var/lib/dpkg/status.d/foo', manager: 'dpkg', format: 'dpkg-status', atLocation: true, content: true },
      { path: 'mariner/var/lib/rpm/rpmdb.sqlite', manager: 'rpm', format: 'rpm-sqlite', atLocation: true, content: true },
      { path: 'var/lib/dpkg/status', manager: 'dpkg', format: 'dpkg-status', atLocation: true, content: true },
    ]);
  });

  it('reports empty or invalid databases at their locations (content false) for a later reader to reject', async () => {
    await place(scalibr('dpkg/testdata/dpkg/empty'), 'var/lib/dpkg/status');
    await place(scalibr('rpm/testdata/invalid'), 'var/lib/rpm/Packages');
    await place(scalibr('rpm/testdata/empty.sqlite'), 'usr/lib/sysimage/rpm/rpmdb.sqlite');
    expect((await detectOsDatabases(ws.dir)).map((d) => [d.path, d.content])).toEqual([
      ['usr/lib/sysimage/rpm/rpmdb.sqlite', false],
      ['var/lib/dpkg/status', false],
      ['var/lib/rpm/Packages', false],
    ]);
  });

  it('recognises bare databases outside their location by name and content', async () => {
    const apk = (await detectOsDatabases(scalibr('apk/testdata'))).map((d) => [d.path, d.atLocation]);
    expect(apk).toEqual([['installed', false]]);
    expect(await detectOsDatabases(scalibr('dpkg/testdata'))).toEqual([]); // no file named `status` there
  });

  it('no OS database path is a language lockfile name, and no lockfile is an OS database', () => {
    const lockfiles = [
      'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'Cargo.lock', 'go.mod', 'go.sum',
      'poetry.lock', 'Pipfile.lock', 'uv.lock', 'requirements.txt', 'pylock.toml', 'composer.lock', 'vendor/composer/installed.json',
      'Gemfile.lock', 'pom.xml', 'gradle.lockfile', 'packages.lock.json', 'Podfile.lock', 'Package.resolved', 'pubspec.lock',
      'mix.lock', 'conan.lock', 'Manifest.toml', 'conda-meta/numpy-1.26.json', 'vendor/modules.txt',
    ];
    for (const lockfile of lockfiles) expect(matchOsDatabase(lockfile), lockfile).toBeUndefined();
    const lockNames = new Set(lockfiles.map((f) => path.posix.basename(f)));
    for (const db of ['var/lib/dpkg/status', 'var/lib/dpkg/status.d/libc6', 'lib/apk/db/installed', 'var/lib/rpm/Packages', 'var/lib/rpm/Packages.db', 'var/lib/rpm/rpmdb.sqlite']) {
      expect(matchOsDatabase(db)?.atLocation, db).toBe(true);
      expect(lockNames.has(path.posix.basename(db)), db).toBe(false);
    }
    expect(matchOsDatabase('var/lib/dpkg/status.d/libc6.md5sums')).toBeUndefined();
  });

  it('only the OS package extractors claim OS database files, each at its manager\'s location', () => {
    const claims: Record<string, string[]> = {
      'var/lib/dpkg/status': ['dpkg'], 'var/lib/dpkg/status.d/foo': ['dpkg'], 'var/lib/dpkg/status.d/foo.md5sums': [], 'usr/lib/opkg/status': ['opkg'],
      'lib/apk/db/installed': ['apk'], 'var/lib/rpm/Packages': ['rpm'], 'var/lib/rpm/Packages.db': ['rpm'], 'var/lib/rpm/rpmdb.sqlite': ['rpm'], 'usr/lib/sysimage/rpm/rpmdb.sqlite': ['rpm'],
      'var/lib/pacman/local/gmp-6.2.1-2/desc': ['pacman'], 'var/lib/pacman/local/gmp-6.2.1-2/files': [], 'var/lib/pacman/local/ALPM_DB_VERSION': [],
    };
    for (const [db, names] of Object.entries(claims)) {
      expect(allExtractors.filter((e) => e.matches(db)).map((e) => e.name), db).toEqual(names);
      if (names.length) expect(matchOsDatabase(db)?.atLocation, db).toBe(true);
    }
  });
});
