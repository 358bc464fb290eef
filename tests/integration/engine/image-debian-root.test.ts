// The done-when oracle of issue 16 for images: an OCI image built here from THIS machine's Debian
// root — layer 1 its os-release, dpkg status and file lists; layer 2 a rewritten status with a few
// packages purged (their file lists whited out), one upgraded and one installed, and a whiteout of
// a file — analysed through analyseInWorker as a run does, yields exactly the (name, version,
// architecture) set `dpkg-query` lists for the final status, each package at the layer that brought
// it (the purged absent, the untouched at layer 0 though layer 2 rewrote the status file); its
// feature file (镜像特征文件) analysed gives the same packages, layers, file listing and image record.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageURL } from 'packageurl-js';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseInWorker, writeImageFeatureFile } from '../../../server/engine/index.ts';
import { hasCommand } from '../../support/commands.ts';
import { writeOciLayout } from '../../support/registry.ts';

const STATUS = '/var/lib/dpkg/status';
const INFO = '/var/lib/dpkg/info';
const osRelease = ['/etc/os-release', '/usr/lib/os-release'].find((f) => existsSync(f));
const ready = hasCommand('dpkg-query', '--version') && existsSync(STATUS) && !!osRelease;

/** Current states (second letter of db:Status-Abbrev) whose files are on disk, as os-packages.test.ts reads dpkg-query. */
const ON_DISK = new Set(['i', 'U', 'F', 'W', 't']);

const temps: string[] = [];
afterAll(async () => { await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))); });

/** dpkg-query's rows (name, version, architecture) in the on-disk states, for a status file's text. */
async function dpkgQuery(statusText: string): Promise<string[]> {
  const admin = await mkdtemp(path.join(tmpdir(), 'cairn-dpkg-admin-'));
  temps.push(admin);
  await writeFile(path.join(admin, 'status'), statusText);
  const out = execFileSync('dpkg-query', [`--admindir=${admin}`, '-W', '-f=${Package}\\t${Version}\\t${Architecture}\\t${db:Status-Abbrev}\\n'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((l) => l.split('\t')).filter((r) => ON_DISK.has(r[3]![1]!)).map((r) => r.slice(0, 3).join('\t')).sort();
}

const field = (stanza: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'm').exec(stanza)?.[1]?.trim() ?? '';

describe.skipIf(!ready)('an image built from this machine\'s Debian root, against dpkg-query', () => {
  it('the (name, version, architecture) set equals dpkg-query of the final status, each package at its layer', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'cairn-debian-image-'));
    temps.push(work);
    const statusText = await readFile(STATUS, 'utf8');
    const stanzas = statusText.split(/\n\n+/).filter((s) => s.trim());
    const before = await dpkgQuery(statusText);
    expect(before.length).toBeGreaterThan(50);

    // Purged in layer 2: three installed packages that nothing essential is (dpkg does not check here).
    const installed = stanzas.filter((s) => /^Status: install ok installed$/m.test(s) && field(s, 'Essential') !== 'yes' && field(s, 'Priority') !== 'required');
    expect(installed.length).toBeGreaterThan(10);
    const purged = new Set([0.2, 0.5, 0.8].map((f) => field(installed[Math.floor(installed.length * f)]!, 'Package')));
    expect(purged.size).toBe(3);
    // Upgraded in layer 2: one more, its version bumped; installed in layer 2: a package layer 1 lacks.
    const upgradedStanza = installed.find((s) => !purged.has(field(s, 'Package')) && field(s, 'Package') !== 'dpkg')!;
    const upgraded = field(upgradedStanza, 'Package');
    const oldVersion = field(upgradedStanza, 'Version');
    const newVersion = `${oldVersion}+cairn1`;
    const arch = execFileSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).trim();
    const added = `Package: cairn-layer-probe\nStatus: install ok installed\nPriority: optional\nSection: misc\nMaintainer: Cairn <cairn@example.invalid>\nArchitecture: ${arch}\nVersion: 2.0-1\nDescription: a package only the second layer installs\n`;
    const finalStatus = [
      ...stanzas.filter((s) => !purged.has(field(s, 'Package'))).map((s) => (s === upgradedStanza ? s.replace(/^Version: .*$/m, `Version: ${newVersion}`) : s)),
      added,
    ].map((s) => s.trimEnd()).join('\n\n') + '\n';

    // Layer 1: os-release (a relative link in Debian; here the file), the status and every file list.
    const base: Record<string, string> = {
      'etc/os-release': await readFile(osRelease!, 'utf8'),
      'etc/motd': existsSync('/etc/motd') ? await readFile('/etc/motd', 'utf8') : 'welcome\n',
      'var/lib/dpkg/status': statusText,
    };
    const lists = existsSync(INFO) ? readdirSync(INFO).filter((n) => n.endsWith('.list')) : [];
    for (const name of lists) base[`var/lib/dpkg/info/${name}`] = await readFile(path.join(INFO, name), 'utf8');
    // Layer 2: the rewritten status (no whiteout needed), the purged packages' file lists and a file whited out.
    const top: Record<string, string> = { 'var/lib/dpkg/status': finalStatus, 'etc/.wh.motd': '' };
    for (const name of lists) if (purged.has(name.replace(/(:[^.]+)?\.list$/, ''))) top[`var/lib/dpkg/info/.wh.${name}`] = '';

    const built = await writeOciLayout(path.join(work, 'layout'), 'debian-root:test', [{ architecture: arch, layers: [base, top] }]);
    const result = await analyseInWorker({
      file: built.layoutDir, fileName: 'debian-root', kind: 'image', modes: [1], workDir: path.join(work, 'analysis'), platform: `linux/${arch}`,
    });

    const oracle = await dpkgQuery(finalStatus);
    const row = (name: string, version: string, a: string) => `${name}\t${version}\t${a}`;
    const archOf = (purl: string) => PackageURL.fromString(purl).qualifiers?.arch ?? '';
    const debs = result.components.filter((c) => c.purl.startsWith('pkg:deb/'));
    const found = debs.map((c) => row(c.name, c.version, archOf(c.purl))).sort();
    expect(found).toEqual(oracle);
    expect(found.length).toBe(before.length - [...before].filter((r) => purged.has(r.split('\t')[0]!)).length + 1);
    expect(result.components.length).toBe(debs.length);
    expect(result.problems).toEqual([]);

    // Each package's layer: the purged are gone, the upgraded and the added are layer 1's, the rest layer 0's.
    const layerOf = new Map(debs.map((c) => [c.name, c.layer]));
    for (const name of purged) expect(layerOf.has(name), name).toBe(false);
    expect(debs.find((c) => c.name === upgraded)!.version).toBe(newVersion);
    expect(layerOf.get(upgraded)).toBe(1);
    expect(layerOf.get('cairn-layer-probe')).toBe(1);
    const atZero = debs.filter((c) => c.name !== upgraded && c.name !== 'cairn-layer-probe');
    expect(atZero.every((c) => c.layer === 0), atZero.filter((c) => c.layer !== 0).map((c) => `${c.name}@${c.layer}`).join(', ')).toBe(true);
    expect(result.image!.layers.map((l) => [l.index, l.digest, l.components])).toEqual([
      [0, built.platforms[`linux/${arch}`]!.layers[0], debs.length - 2],
      [1, built.platforms[`linux/${arch}`]!.layers[1], 2],
    ]);
    expect(result.image!.os?.id).toBe('debian');

    // The whiteouts applied: the deleted file and the purged packages' file lists are not in the tree.
    const paths = new Set(result.files.map((f) => f.path));
    expect(paths.has('etc/motd')).toBe(false);
    expect(paths.has('etc/os-release')).toBe(true);
    for (const name of lists) expect(paths.has(`var/lib/dpkg/info/${name}`), name).toBe(!(`var/lib/dpkg/info/.wh.${name}` in top));
    // dpkg's own file list still locates its files.
    if (lists.includes('dpkg.list')) expect(debs.find((c) => c.name === 'dpkg')!.locations.map((l) => l.file)).toContain('usr/bin/dpkg');

    // Its feature file (镜像特征文件) gives the same packages at the same layers, and the same image record.
    const feature = path.join(work, 'debian-root.cairn-feature.zip');
    await writeImageFeatureFile(built.layoutDir, feature, { platform: `linux/${arch}` });
    const fromFeature = await analyseInWorker({ file: feature, fileName: 'debian-root.cairn-feature.zip', kind: 'image', modes: [1], workDir: path.join(work, 'feature-analysis') });
    const key = (c: (typeof result.components)[number]) => `${c.purl} ${c.layer} ${c.locations.map((l) => l.file).sort().join(',')}`;
    expect(fromFeature.components.map(key).sort()).toEqual(result.components.map(key).sort());
    expect(fromFeature.image).toEqual(result.image);
    expect(fromFeature.files.map((f) => `${f.path} ${f.size}`).sort()).toEqual(result.files.map((f) => `${f.path} ${f.size}`).sort());
  }, 180_000);
});
