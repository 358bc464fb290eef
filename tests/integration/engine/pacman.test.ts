// pacman's local database against pacman itself (Debian's pacman-package-manager, installed by
// .ci/run): packages made in the test (a .PKGINFO and files in a tar, as makepkg would pack them)
// are installed with `pacman -U` into a fresh root, some as dependencies; the scan of that root
// must list exactly the (name, version, architecture) set `pacman -Q` lists, with the licences,
// install reasons and dependencies `pacman -Qi` shows, and the same root as a tarball through
// analyse(). (alpm's version ordering against pacman's own `vercmp`: the unit test.)
import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PackageURL } from 'packageurl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseInWorker, loadExtractors, scanTree, type Component } from '../../../server/engine/index.ts';

const { families } = await loadExtractors();

interface Pkg {
  name: string;
  version: string;
  arch: string;
  base?: string;
  licenses?: string[];
  depends?: string[];
  provides?: string[];
  files: string[];
  asDeps?: boolean;
}

const PACKAGES: Pkg[] = [
  { name: 'glibc', version: '2.39+r52+gf8e4623421-1', arch: 'x86_64', licenses: ['GPL-2.0-or-later', 'LGPL-2.1-or-later'], provides: ['libc.so=6-64'], files: ['usr/lib/libc.so.6'], asDeps: true },
  { name: 'bash', version: '5.2.026-2', arch: 'x86_64', licenses: ['GPL-3.0-or-later'], depends: ['glibc', 'readline>=8.0'], provides: ['sh'], files: ['usr/bin/bash', 'usr/bin/sh'] },
  { name: 'readline', version: '8.2.010-1', arch: 'x86_64', licenses: ['GPL3'], depends: ['glibc'], provides: ['libreadline.so=8-64'], files: ['usr/lib/libreadline.so.8'], asDeps: true },
  { name: 'python-six', version: '1.16.0-9', arch: 'any', base: 'python-six', licenses: ['MIT'], depends: ['sh'], files: ['usr/lib/python3.12/site-packages/six.py'] },
  { name: 'tzdata', version: '1:2024a-1', arch: 'any', licenses: ['custom:public domain'], files: Array.from({ length: 80 }, (_, i) => `usr/share/zoneinfo/Zone${i}`), asDeps: true },
  { name: 'lib32-zlib', version: '1.3.1-1', arch: 'x86_64', base: 'lib32-zlib', licenses: ['Zlib'], depends: ['libc.so=6-64'], files: ['usr/lib32/libz.so.1'] },
];

const hasPacman = spawnSync('pacman', ['--version'], { stdio: 'ignore' }).status === 0;
const hasTar = spawnSync('tar', ['--version'], { stdio: 'ignore' }).status === 0;

let work: string;
let root: string;
beforeAll(async () => {
  if (!hasPacman) throw new Error('需要 Debian 的 pacman-package-manager 软件包作为对照（apt-get install pacman-package-manager；.ci/run 会安装）');
  work = await mkdtemp(path.join(tmpdir(), 'cairn-pacman-'));
  root = path.join(work, 'root');
  await mkdir(path.join(root, 'var/lib/pacman'), { recursive: true });
  await mkdir(path.join(root, 'etc'), { recursive: true });
  await writeFile(path.join(root, 'etc/os-release'), 'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\nANSI_COLOR="38;2;23;147;209"\n');
  const conf = path.join(work, 'pacman.conf');
  await writeFile(conf, '[options]\nArchitecture = auto\nSigLevel = Never\nLocalFileSigLevel = Never\n');
  for (const p of PACKAGES) {
    const build = path.join(work, 'build', p.name);
    for (const f of p.files) {
      await mkdir(path.dirname(path.join(build, f)), { recursive: true });
      await writeFile(path.join(build, f), `${p.name} ${f}\n`);
      if (f.startsWith('usr/bin/')) await chmod(path.join(build, f), 0o755);
    }
    const info = [
      `pkgname = ${p.name}`, `pkgbase = ${p.base ?? p.name}`, `pkgver = ${p.version}`, `pkgdesc = ${p.name} made by the test`,
      'url = https://example.org/', 'builddate = 1700000000', 'packager = Cairn Test <test@example.org>', 'size = 1024', `arch = ${p.arch}`,
      ...(p.licenses ?? []).map((l) => `license = ${l}`), ...(p.depends ?? []).map((d) => `depend = ${d}`), ...(p.provides ?? []).map((d) => `provides = ${d}`),
    ];
    await writeFile(path.join(build, '.PKGINFO'), `${info.join('\n')}\n`);
    const archive = path.join(work, `${p.name}.pkg.tar`);
    execFileSync('tar', ['-cf', archive, '-C', build, '.PKGINFO', ...[...new Set(p.files.map((f) => f.split('/')[0]!))]]);
    execFileSync('pacman', [
      '-r', root, '--dbpath', path.join(root, 'var/lib/pacman'), '--config', conf, '--logfile', path.join(work, 'pacman.log'),
      '--cachedir', path.join(work, 'cache'), '--hookdir', path.join(work, 'hooks'), '--gpgdir', path.join(work, 'gpg'),
      '-U', '--noconfirm', '-dd', '--noscriptlet', ...(p.asDeps ? ['--asdeps'] : []), archive,
    ], { stdio: 'ignore' });
  }
}, 120_000);
afterAll(async () => { if (work) await rm(work, { recursive: true, force: true }); });

const pacman = (...args: string[]) => execFileSync('pacman', ['-r', root, '--dbpath', path.join(root, 'var/lib/pacman'), ...args], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });

/** `pacman -Qi`'s fields of every package, by name. */
function pacmanInfo(): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const block of pacman('-Qi').split(/\n\s*\n/)) {
    const fields: Record<string, string> = {};
    let key = '';
    for (const line of block.split('\n')) {
      const m = /^(\S[^:]*?)\s*: (.*)$/.exec(line);
      if (m) { key = m[1]!; fields[key] = m[2]!.trim(); } else if (key && line.trim()) fields[key] += ` ${line.trim()}`;
    }
    if (fields.Name) out.set(fields.Name, fields);
  }
  return out;
}
const list = (value: string | undefined) => (!value || value === 'None' ? [] : value.split(/\s{2,}/));
const archOf = (c: Component) => PackageURL.fromString(c.purl).qualifiers?.arch ?? '';

describe.skipIf(!hasTar)('pacman local database against pacman itself', () => {
  it('the scan lists what pacman -Q lists, with -Qi\'s licences, reasons and dependencies', async () => {
    const scan = await scanTree(root, { extractors: families.os });
    expect(scan.problems).toEqual([]);
    expect(scan.targets.map((t) => [t.file, t.type, t.ecosystem])).toEqual([['var/lib/pacman/local', 'pacman', 'alpm']]);
    const components = scan.targets[0]!.components;

    const oracle = pacman('-Q').split('\n').filter(Boolean).sort();
    expect(oracle).toHaveLength(PACKAGES.length);
    expect(components.map((c) => `${c.name} ${c.version}`).sort()).toEqual(oracle);

    const info = pacmanInfo();
    const byPurl = new Map(components.map((c) => [c.purl, c]));
    for (const c of components) {
      const qi = info.get(c.name)!;
      const p = PACKAGES.find((x) => x.name === c.name)!;
      expect(archOf(c), c.name).toBe(qi.Architecture);
      expect(c.purl, c.name).toBe(new PackageURL('alpm', 'arch', c.name, c.version, { arch: qi.Architecture!, distro: 'arch', upstream: p.base ?? p.name }, null).toString());
      // pacman writes the licences as given; ours are their SPDX reading, one each.
      expect(list(qi.Licenses), c.name).toEqual(p.licenses);
      expect(c.licenses, c.name).toHaveLength(p.licenses!.length);
      expect(c.direct, c.name).toBe(qi['Install Reason'] === 'Explicitly installed');
      // Each dependency pacman shows points at the package that satisfies it (all are installed here).
      const wanted = list(qi['Depends On']);
      expect(c.dependsOn.map((d) => byPurl.get(d)!.name).sort(), c.name).toEqual(
        wanted.map((d) => {
          const name = d.replace(/[<>=].*$/, '');
          return PACKAGES.find((x) => x.name === name || (x.provides ?? []).some((v) => v.replace(/=.*$/, '') === name))!.name;
        }).sort(),
      );
      expect(c.locations[0]!.file).toBe(`var/lib/pacman/local/${c.name}-${c.version}/desc`);
    }
    const readline = components.find((c) => c.name === 'readline')!;
    expect(readline.licenses).toEqual(['GPL-3.0-or-later']);
    expect(components.find((c) => c.name === 'tzdata')!.licenses).toEqual(['LicenseRef-public-domain']);
    // Owned files: pacman -Ql's regular files, at most the bound.
    const owned = pacman('-Ql', 'bash').split('\n').filter(Boolean).map((l) => l.split(' ')[1]!.replace(/^.*?\/root\//, '')).filter((f) => !f.endsWith('/'));
    expect(components.find((c) => c.name === 'bash')!.locations.slice(1).map((l) => l.file).sort()).toEqual(owned.sort());
    expect(components.find((c) => c.name === 'tzdata')!.locations).toHaveLength(50);
  });

  it('the same root as a tarball through analyse()', async () => {
    const tarball = path.join(work, 'rootfs.tar');
    execFileSync('tar', ['-cf', tarball, '-C', root, '.']);
    const result = await analyseInWorker({ file: tarball, fileName: 'rootfs.tar', kind: 'source', modes: [1], workDir: path.join(work, 'analysis') });
    expect(result.problems).toEqual([]);
    expect(result.targets).toEqual([{ file: 'var/lib/pacman/local', type: 'pacman', components: PACKAGES.length }]);
    expect(result.components.map((c) => `${c.name} ${c.version} ${archOf(c)}`).sort()).toEqual(PACKAGES.map((p) => `${p.name} ${p.version} ${p.arch}`).sort());
  });
});
