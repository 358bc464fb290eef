// OS package databases against dpkg itself: every dpkg and opkg status file of osv-scalibr's test
// data and this machine's own /var/lib/dpkg/status yield the (name, version, architecture) set
// `dpkg-query -W` lists in the states whose files are on disk; apk's installed databases the
// records the format holds; a root filesystem tarball through analyse() the packages with
// distribution purls.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageURL } from 'packageurl-js';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseInWorker, loadExtractors, scanTree, type Component, type ScanProblem } from '../../../server/engine/index.ts';

const { families } = await loadExtractors();

const CORPUS = path.resolve(import.meta.dirname, '../../../../shared/corpora/os/scalibr');
const DPKG_DATA = path.join(CORPUS, 'dpkg/testdata');
const APK_DATA = path.join(CORPUS, 'apk/testdata');

const hasCommand = (cmd: string, ...args: string[]): boolean => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasDpkgQuery = hasCommand('dpkg-query', '--version');
const hasTar = hasCommand('tar', '--version');

const temps: string[] = [];
afterAll(async () => { await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))); });
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** Current states (second letter of db:Status-Abbrev) whose files are on disk: installed, unpacked, half-configured, triggers-awaited/-pending. */
const ON_DISK = new Set(['i', 'U', 'F', 'W', 't']);

/** What dpkg-query lists for a status file, or null when dpkg refuses the file as a whole. */
async function dpkgQuery(statusText: string): Promise<{ onDisk: string[]; all: number } | null> {
  const admin = await tempDir('cairn-dpkg-admin-');
  await writeFile(path.join(admin, 'status'), statusText);
  let out: string;
  try {
    out = execFileSync('dpkg-query', [`--admindir=${admin}`, '-W', '-f=${Package}\\t${Version}\\t${Architecture}\\t${db:Status-Abbrev}\\n'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
  const rows = out.split('\n').filter(Boolean).map((l) => l.split('\t'));
  return { onDisk: rows.filter((r) => ON_DISK.has(r[3]![1]!)).map((r) => r.slice(0, 3).join('\t')).sort(), all: rows.length };
}

const archOf = (c: Component) => PackageURL.fromString(c.purl).qualifiers?.arch ?? '';

/** Scans a tree holding just `files` with the OS package extractors. */
async function scanFiles(files: Record<string, string>): Promise<{ components: Component[]; problems: ScanProblem[] }> {
  const root = await tempDir('cairn-osdb-');
  for (const [rel, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), body);
  }
  const scan = await scanTree(root, { extractors: families.os });
  return { components: scan.targets.flatMap((t) => t.components), problems: scan.problems };
}

/** The scan's packages of a status file at `rel` as dpkg-query rows, and its problems' messages. */
async function ours(text: string, rel = 'var/lib/dpkg/status'): Promise<{ set: string[]; problems: string[] }> {
  const { components, problems } = await scanFiles({ [rel]: text });
  return { set: components.map((c) => `${c.name}\t${c.version}\t${archOf(c)}`).sort(), problems: problems.map((p) => p.message) };
}

/** os-release's ID and VERSION_ID (just those; the extractor reads the same file itself). */
const releaseField = (text: string, key: string) => new RegExp(`^${key}=["']?([^"'\n]*)`, 'm').exec(text)?.[1] ?? '';

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => statSync(path.join(dir, n)).isFile()).sort() : []);

describe.skipIf(!hasDpkgQuery || !existsSync(DPKG_DATA))('dpkg and opkg databases against dpkg-query (osv-scalibr test data)', () => {
  const databases = ['dpkg', 'opkg'].flatMap((kind) => files(path.join(DPKG_DATA, kind)).map((name) => `${kind}/${name}`));

  it('finds the test data', () => { expect(databases.length).toBeGreaterThanOrEqual(20); });

  for (const db of databases) {
    it(`${db}: the packages dpkg-query lists on disk, or the readable rest and a problem where dpkg refuses the file`, async () => {
      const text = await readFile(path.join(DPKG_DATA, db), 'utf8');
      const oracle = await dpkgQuery(text);
      const mine = await ours(text, db.startsWith('opkg/') ? 'usr/lib/opkg/status' : 'var/lib/dpkg/status');
      if (oracle) {
        expect(mine.set).toEqual(oracle.onDisk);
        expect(mine.problems).toEqual([]);
      } else {
        // dpkg stops at the first malformed stanza; a scan names it and reads the others.
        expect(mine.problems.length, `${db}: problems`).toBeGreaterThan(0);
        // What is left once the named stanzas are gone, dpkg reads the same way.
        const lines = text.split('\n');
        const kept = mine.problems.map((p) => /第 (\d+)(?:–(\d+))? 行/.exec(p)!).reduce((acc, m) => {
          const from = Number(m[1]) - 1;
          const to = Number(m[2] ?? m[1]);
          for (let i = from; i < to; i++) acc[i] = '';
          return acc;
        }, [...lines]);
        const repaired = kept.join('\n').replace(/\n{3,}/g, '\n\n');
        const again = await dpkgQuery(repaired);
        expect(again, `${db}: dpkg reads the file without the named stanzas`).not.toBeNull();
        expect(mine.set).toEqual(again!.onDisk);
      }
    });
  }

  it('status.d/foo (distroless): a record without Status is installed, the md5sums list is no database', async () => {
    const text = await readFile(path.join(DPKG_DATA, 'dpkg/status.d/foo'), 'utf8');
    // dpkg's view of the record with the Status distroless leaves out.
    const withStatus = text.split(/\n\n+/).map((s) => (/^Status:/m.test(s) || !s.trim() ? s : `${s.trimEnd()}\nStatus: install ok installed`)).join('\n\n');
    const mine = await scanFiles({ 'var/lib/dpkg/status.d/foo': text, 'var/lib/dpkg/status.d/foo.md5sums': await readFile(path.join(DPKG_DATA, 'dpkg/status.d/foo.md5sums'), 'utf8') });
    const set = mine.components.map((c) => `${c.name}\t${c.version}\t${archOf(c)}`);
    expect(set).toEqual((await dpkgQuery(withStatus))!.onDisk);
    expect(set).toEqual(['foo\t1.2.3\tamd64']);
    expect(mine.problems).toEqual([]);
  });
});

describe.skipIf(!hasDpkgQuery || !existsSync('/var/lib/dpkg/status'))('this machine\'s dpkg database', () => {
  it('equals dpkg-query, package for package', async () => {
    const text = await readFile('/var/lib/dpkg/status', 'utf8');
    const oracle = await dpkgQuery(text);
    expect(oracle).not.toBeNull();
    const mine = await ours(text);
    expect(mine.problems).toEqual([]);
    expect(mine.set.length).toBeGreaterThan(50);
    expect(mine.set).toEqual(oracle!.onDisk);
  });
});

describe.skipIf(!existsSync(APK_DATA))('apk installed databases (osv-scalibr test data)', () => {
  /** The records by the format itself: blank-line-separated, P:/V:/A: lines, each record needing both P and V. */
  const byFormat = (text: string) => text.split(/\n\s*\n/).flatMap((record) => {
    const field = (k: string) => new RegExp(`^${k}:(.*)$`, 'm').exec(record)?.[1];
    const malformed = record.split('\n').some((l) => l !== '' && l[1] !== ':');
    const name = field('P');
    const version = field('V');
    return !malformed && name && version ? [`${name}\t${version}\t${field('A') ?? ''}`] : [];
  }).sort();

  for (const name of files(APK_DATA)) {
    it(`${name}: every record the file holds`, async () => {
      const text = await readFile(path.join(APK_DATA, name), 'utf8');
      const { components, problems } = await scanFiles({ 'lib/apk/db/installed': text });
      expect(components.map((c) => `${c.name}\t${c.version}\t${archOf(c)}`).sort()).toEqual(byFormat(text));
      expect(problems.length > 0).toBe(name === 'invalid');
    });
  }

  it('the records in detail: origin, licence, files', async () => {
    const apkDb = async (name: string) => (await scanFiles({ 'lib/apk/db/installed': await readFile(path.join(APK_DATA, name), 'utf8') })).components;
    const installed = await apkDb('installed');
    expect(installed).toHaveLength(15);
    const data = installed.find((c) => c.name === 'alpine-baselayout-data')!;
    expect(data.purl).toBe('pkg:apk/alpine/alpine-baselayout-data@3.4.3-r1?arch=x86_64&upstream=alpine-baselayout');
    expect(data.licenses).toEqual(['GPL-2.0-only']);
    expect(data.locations.map((l) => l.file)).toContain('etc/fstab');
    expect((await apkDb('no-origin'))[0]!.purl).toBe('pkg:apk/alpine/pkgname@1.2.3?arch=x86_64');
    expect(archOf((await apkDb('different-arch'))[0]!)).toBe('noarch');
  });
});

const osRelease = ['/etc/os-release', '/usr/lib/os-release'].find((f) => existsSync(f));

describe.skipIf(!hasDpkgQuery || !hasTar || !osRelease || !existsSync('/var/lib/dpkg/status'))('a root filesystem tarball through analyse()', () => {
  it('yields this machine\'s packages with distribution purls', async () => {
    const work = await tempDir('cairn-rootfs-');
    const rootfs = path.join(work, 'rootfs');
    await mkdir(path.join(rootfs, 'var/lib/dpkg'), { recursive: true });
    await mkdir(path.join(rootfs, 'etc'), { recursive: true });
    await mkdir(path.join(rootfs, 'usr/lib'), { recursive: true });
    await copyFile('/var/lib/dpkg/status', path.join(rootfs, 'var/lib/dpkg/status'));
    // As Debian lays it out: etc/os-release a relative link to usr/lib/os-release.
    await copyFile(osRelease!, path.join(rootfs, 'usr/lib/os-release'));
    await symlink('../usr/lib/os-release', path.join(rootfs, 'etc/os-release'));
    // dpkg's own file list and copyright file: its installed files and DEP-5 licences.
    const withDpkgFiles = existsSync('/var/lib/dpkg/info/dpkg.list') && existsSync('/usr/share/doc/dpkg/copyright');
    if (withDpkgFiles) {
      await mkdir(path.join(rootfs, 'var/lib/dpkg/info'), { recursive: true });
      await mkdir(path.join(rootfs, 'usr/share/doc/dpkg'), { recursive: true });
      await copyFile('/var/lib/dpkg/info/dpkg.list', path.join(rootfs, 'var/lib/dpkg/info/dpkg.list'));
      await copyFile('/usr/share/doc/dpkg/copyright', path.join(rootfs, 'usr/share/doc/dpkg/copyright'));
    }
    const tarball = path.join(work, 'rootfs.tar');
    execFileSync('tar', ['-cf', tarball, '-C', rootfs, '.']);

    const result = await analyseInWorker({ file: tarball, fileName: 'rootfs.tar', kind: 'source', modes: [1], workDir: path.join(work, 'analysis') });
    const releaseText = await readFile(osRelease!, 'utf8');
    const id = releaseField(releaseText, 'ID');
    const distro = `${id}-${releaseField(releaseText, 'VERSION_ID') || releaseField(releaseText, 'VERSION_CODENAME')}`;
    const oracle = (await dpkgQuery(await readFile('/var/lib/dpkg/status', 'utf8')))!.onDisk;

    expect(result.targets).toEqual([{ file: 'var/lib/dpkg/status', type: 'dpkg', components: oracle.length }]);
    expect(result.problems).toEqual([]);
    const found = result.components.map((c) => {
      const purl = PackageURL.fromString(c.purl);
      expect(purl.type).toBe('deb');
      expect(purl.namespace).toBe(id);
      expect(purl.qualifiers?.distro).toBe(distro);
      const epoch = purl.qualifiers?.epoch;
      expect(c.version).toBe(epoch ? `${epoch}:${purl.version}` : purl.version);
      return `${c.name}\t${c.version}\t${archOf(c)}`;
    }).sort();
    expect(found).toEqual(oracle);
    if (withDpkgFiles) {
      const dpkg = result.components.find((c) => c.name === 'dpkg')!;
      expect(dpkg.locations[0]).toMatchObject({ file: 'var/lib/dpkg/status' });
      expect(dpkg.locations.map((l) => l.file)).toContain('usr/bin/dpkg');
      expect(dpkg.licenses).toContain('GPL-2.0-or-later');
    }
  }, 60_000);
});
