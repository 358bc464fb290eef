// pacman's local database (var/lib/pacman/local/<name>-<version>/desc and files): records of real
// Arch packages from syft's test data (tests/fixtures/os/pacman/README.md), one target per
// database however many desc files the scan offers, distro purls, licences, reason, edges through
// PROVIDES with libalpm's version rules, and malformed records as problems beside the good ones.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alpmVercmp, extractors, pacmanExtractor, pacmanLicense, parsePacmanDesc, parsePacmanFiles } from '../../../../../server/engine/extractors/os/index.ts';
import { scanTree } from '../../../../../server/engine/index.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';

const FIXTURE = path.resolve('tests/fixtures/os/pacman');
/**
 * pacman's `vercmp`: on the PATH where the distribution ships it, else pacman's own vercmp.c in its
 * essence (one call of libalpm's alpm_pkg_vercmp) built against the libalpm that Debian's
 * pacman-package-manager installs — Debian bookworm ships the library but not the program.
 */
function pacmanVercmp(): string {
  if (spawnSync('vercmp', ['1', '1'], { stdio: 'ignore' }).status === 0) return 'vercmp';
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-vercmp-'));
  writeFileSync(path.join(dir, 'vercmp.c'), '#include <stdio.h>\nint alpm_pkg_vercmp(const char *a, const char *b);\n'
    + 'int main(int argc, char **argv) { if (argc != 3) return 2; printf("%d\\n", alpm_pkg_vercmp(argv[1], argv[2])); return 0; }\n');
  const built = spawnSync('gcc', ['-o', path.join(dir, 'vercmp'), path.join(dir, 'vercmp.c'), '-l:libalpm.so.13'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`需要 Debian 的 pacman-package-manager（libalpm）与 gcc 作为对照（.ci/run 会安装）：${built.stderr || built.error?.message}`);
  return path.join(dir, 'vercmp');
}

const { scan, writeTree } = useTempScan('cairn-pacman-', extractors);
const ARCH_OS_RELEASE = 'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n';

const desc = (fields: Record<string, string | string[]>) =>
  Object.entries(fields).map(([k, v]) => `%${k}%\n${(Array.isArray(v) ? v : [v]).join('\n')}\n`).join('\n');

describe('pacman local database', () => {
  it('claims every desc under var/lib/pacman/local, under any folder prefix, and nothing else there', () => {
    expectClaims(pacmanExtractor,
      ['var/lib/pacman/local/gmp-6.2.1-2/desc', 'layers/3/var/lib/pacman/local/gmp-6.2.1-2/desc', 'img/rootfs/var/lib/pacman/local/a-1:1.0-1/desc'],
      ['var/lib/pacman/local/gmp-6.2.1-2/files', 'var/lib/pacman/local/gmp-6.2.1-2/mtree', 'var/lib/pacman/local/ALPM_DB_VERSION',
        'var/lib/pacman/sync/core.db', 'var/lib/pacman/local/desc', 'docs/desc', 'var/lib/pacman/local/a/b/desc']);
  });

  it('reads the real records (syft test data) as one target, with purls as syft writes them', async () => {
    const root = await writeTree({ 'etc/os-release': ARCH_OS_RELEASE });
    await cp(FIXTURE, root, { recursive: true });
    const result = await scanTree(root, { extractors });
    expect(result.problems).toEqual([]);
    expect(result.targets).toHaveLength(1);
    const [target] = result.targets;
    expect(target).toMatchObject({ file: 'var/lib/pacman/local', type: 'pacman', ecosystem: 'alpm', project: null });
    const byName = Object.fromEntries(target!.components.map((c) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(['emacs', 'gawk', 'gmp', 'tree-sitter']);
    expect(byName.gmp!.purl).toBe('pkg:alpm/arch/gmp@6.2.1-2?arch=x86_64&distro=arch&upstream=gmp');
    expect(byName.emacs!.purl).toBe('pkg:alpm/arch/emacs@29.3-3?arch=x86_64&distro=arch&upstream=emacs');
    // REASON 1: installed as a dependency; emacs has no REASON (explicit).
    expect(target!.roots).toEqual([byName.emacs!.purl]);
    expect([byName.gmp!.direct, byName['tree-sitter']!.direct, byName.emacs!.direct]).toEqual([false, false, true]);
    // emacs needs libtree-sitter.so=0-64, which tree-sitter provides; gmp's =1-64 is not satisfied by it.
    expect(byName.emacs!.dependsOn).toEqual([byName['tree-sitter']!.purl]);
    expect(byName.gmp!.dependsOn).toEqual([]);
    expect(byName.gmp!.licenses).toEqual(['LGPL-3.0-or-later', 'GPL-2.0-or-later']);
    expect(byName['tree-sitter']!.licenses).toEqual(['MIT']);
    // scalibr's gawk: an SPDX licence as written; sh, glibc and mpfr are not installed here.
    expect(byName.gawk).toMatchObject({ purl: 'pkg:alpm/arch/gawk@5.3.1-1?arch=x86_64&distro=arch&upstream=gawk', direct: false, licenses: ['GPL-3.0-or-later'], dependsOn: [] });
    expect(byName.gmp!.maintainer).toBe('Antonio Rojas <arojas@archlinux.org>');
    expect(byName.gmp!.locations).toEqual([
      { file: 'var/lib/pacman/local/gmp-6.2.1-2/desc', startLine: 1, endLine: 44 },
      ...['usr/include/gmp.h', 'usr/include/gmpxx.h', 'usr/lib/libgmp.so', 'usr/lib/libgmp.so.10', 'usr/lib/libgmp.so.10.4.1', 'usr/lib/libgmpxx.so',
        'usr/lib/libgmpxx.so.4', 'usr/lib/libgmpxx.so.4.6.1', 'usr/lib/pkgconfig/gmp.pc', 'usr/lib/pkgconfig/gmpxx.pc',
        'usr/share/info/gmp.info-1.gz', 'usr/share/info/gmp.info-2.gz', 'usr/share/info/gmp.info.gz'].map((file) => ({ file })),
    ]);
  });

  it('keeps the layer prefix for files and purls; namespace from os-release, arch without one; epoch kept in the version', async () => {
    const result = await scan({
      'img/etc/os-release': 'ID=manjaro\nVERSION_ID=24.0\n',
      'img/var/lib/pacman/local/zlib-1:1.3.1-2/desc': desc({ NAME: 'zlib', VERSION: '1:1.3.1-2', BASE: 'zlib', ARCH: 'x86_64', LICENSE: 'Zlib' }),
      'img/var/lib/pacman/local/zlib-1:1.3.1-2/files': '%FILES%\nusr/\nusr/lib/\nusr/lib/libz.so.1\n\n%BACKUP%\netc/zlib.conf\t0123\n\n',
      'bare/var/lib/pacman/local/filesystem-2024.04.07-1/desc': desc({ NAME: 'filesystem', VERSION: '2024.04.07-1', ARCH: 'any' }),
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => t.file)).toEqual(['bare/var/lib/pacman/local', 'img/var/lib/pacman/local']);
    const [bare, img] = result.targets.map((t) => t.components[0]!);
    expect(img!.purl).toBe('pkg:alpm/manjaro/zlib@1:1.3.1-2?arch=x86_64&distro=manjaro-24.0&upstream=zlib');
    expect(img!.version).toBe('1:1.3.1-2');
    expect(img!.locations.map((l) => l.file)).toEqual(['img/var/lib/pacman/local/zlib-1:1.3.1-2/desc', 'img/usr/lib/libz.so.1']);
    expect(bare!.purl).toBe('pkg:alpm/arch/filesystem@2024.04.07-1?arch=any');
  });

  it('resolves dependencies as libalpm does: by name or provision, version constraints included', async () => {
    const pkg = (name: string, version: string, more: Record<string, string | string[]> = {}) =>
      ({ [`var/lib/pacman/local/${name}-${version}/desc`]: desc({ NAME: name, VERSION: version, ARCH: 'x86_64', ...more }) });
    const result = await scan({
      ...pkg('bash', '5.2.026-2', { PROVIDES: 'sh' }),
      ...pkg('glibc', '2.39-1', { REASON: '1' }),
      ...pkg('openssl', '3.3.0-1', { PROVIDES: ['libcrypto.so=3-64', 'libssl.so=3-64'] }),
      ...pkg('app', '1.0-1', { DEPENDS: ['sh', 'glibc>=2.38', 'libcrypto.so=3-64', 'openssl<3', 'missing', 'sh>=1'] }),
    });
    const byName = Object.fromEntries(result.targets[0]!.components.map((c) => [c.name, c]));
    // `sh>=1`: bash provides sh without a version, which satisfies only an unversioned dependency.
    expect(byName.app!.dependsOn).toEqual([byName.bash!.purl, byName.glibc!.purl, byName.openssl!.purl]);
    expect(result.targets[0]!.roots.sort()).toEqual([byName.app!.purl, byName.bash!.purl, byName.openssl!.purl].sort());
  });

  it('reports malformed records and inconsistent folders as problems and keeps the rest', async () => {
    const result = await scan({
      'var/lib/pacman/local/ok-1.0-1/desc': desc({ NAME: 'ok', VERSION: '1.0-1', ARCH: 'x86_64' }),
      'var/lib/pacman/local/noversion-1.0-1/desc': desc({ NAME: 'noversion', ARCH: 'x86_64' }),
      'var/lib/pacman/local/junk-1.0-1/desc': 'this is not\na desc file\n',
      'var/lib/pacman/local/moved-2.0-1/desc': desc({ NAME: 'moved', VERSION: '1.0-1' }),
      'var/lib/pacman/local/nodesc-1.0-1/files': '%FILES%\nusr/bin/x\n',
      // osv-scalibr's invalid_value_eof: cut off after %VERSION%.
      'var/lib/pacman/local/gawk-5.3.1-1/desc': '%NAME%\ngawk\n\n%VERSION%\n',
    });
    expect(result.targets).toHaveLength(1);
    expect(result.targets[0]!.components.map((c) => c.name).sort()).toEqual(['moved', 'ok']);
    const messages = result.problems.map((p) => p.message).sort();
    expect(messages).toHaveLength(5);
    expect(messages.join('\n')).toContain('gawk-5.3.1-1/desc：软件包记录无法解析，已跳过：软件包 gawk 缺少 %VERSION%（版本）段');
    expect(messages.join('\n')).toContain('junk-1.0-1/desc：软件包记录无法解析，已跳过：第 1 行“this is not”不在任何 %段名% 之下');
    expect(messages.join('\n')).toContain('noversion-1.0-1/desc：软件包记录无法解析，已跳过：软件包 noversion 缺少 %VERSION%（版本）段');
    expect(messages.join('\n')).toContain('moved-2.0-1/desc：%NAME%/%VERSION%（moved 1.0-1）与所在文件夹名 moved-2.0-1 不一致');
    expect(messages.join('\n')).toContain('var/lib/pacman/local/nodesc-1.0-1 缺少 desc 文件');
  });

  it('a database with no readable record is one problem, no target', async () => {
    const result = await scan({ 'var/lib/pacman/local/x-1-1/desc': '%NAME%\n\n' });
    expect(result.targets).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.message).toContain('var/lib/pacman/local 中没有可读取的 pacman 软件包记录');
  });

  it('bounds the owned files it lists', async () => {
    const files = Array.from({ length: 500 }, (_, i) => `usr/share/zoneinfo/z${i}`);
    const result = await scan({
      'var/lib/pacman/local/tzdata-2024a-1/desc': desc({ NAME: 'tzdata', VERSION: '2024a-1', ARCH: 'any' }),
      'var/lib/pacman/local/tzdata-2024a-1/files': `%FILES%\n${files.join('\n')}\n\n`,
    });
    expect(result.targets[0]!.components[0]!.locations).toHaveLength(50);
  });
});

describe('pacman record parts', () => {
  it('parses desc sections (single values, lists, CRLF, BOM) and files', () => {
    const parsed = parsePacmanDesc('\uFEFF%NAME%\r\nfoo\r\n\r\n%VERSION%\r\n1-1\r\n\r\n%LICENSE%\r\nMIT\r\nApache\r\n\r\n%PACKAGER%\r\nUnknown Packager\r\n');
    expect(parsed.package).toMatchObject({ name: 'foo', version: '1-1', architecture: '', reason: 0, licenses: ['MIT', 'Apache'], startLine: 1, endLine: 12 });
    expect(parsed.package!.packager).toBeUndefined();
    expect(parsePacmanFiles('%FILES%\nusr/\nusr/bin/x\n\n%BACKUP%\netc/x.conf\tabc\n')).toEqual(['usr/', 'usr/bin/x']);
  });

  it('licences: SPDX as written, Arch\'s old names, custom ones kept', () => {
    expect(['GPL', 'GPL2', 'LGPL2.1', 'PerlArtistic', 'custom', 'custom:BSD', 'custom:Acme Terms', 'GPL-2.0-or-later OR MIT', 'LicenseRef-Foo'].map(pacmanLicense)).toEqual([
      'GPL-2.0-or-later', 'GPL-2.0-only', 'LGPL-2.1-only', 'Artistic-1.0-Perl', 'LicenseRef-custom', 'BSD-3-Clause', 'LicenseRef-Acme-Terms',
      'GPL-2.0-or-later OR MIT', 'LicenseRef-Foo',
    ]);
  });

  it('orders versions like vercmp', () => {
    const cases: [string, string, number][] = [
      ['1.0', '1.0', 0], ['1.0', '1.1', -1], ['1.0a', '1.0', -1], ['1.0.1', '1.0', 1], ['1:1.0', '2.0', 1], ['1.0-2', '1.0-10', -1],
      ['1.0', '1.0-5', 0], ['2.0', '10', -1], ['1.0rc1', '1.0', -1], ['1.0.a', '1.0', 1], ['1..0', '1.0', 1], ['1.0', '1_0', 0], ['2024.04.07-1', '2024.4.7-1', 0],
    ];
    for (const [a, b, want] of cases) expect(Math.sign(alpmVercmp(a, b)), `${a} vs ${b}`).toBe(want);
  });

  it('orders versions as pacman\'s own vercmp does (libalpm of Debian\'s pacman-package-manager, installed by .ci/run)', () => {
    const vercmp = pacmanVercmp();
    const versions = ['1.0', '1.0-1', '1.0-2', '1.0.1', '1.0a', '1.0rc1', '1.0.a', '1:0.9', '2:1.0-1', ':1.0', '1.0+r1+gabc', '1..0', '1_0', '2024.04.07', '2024.4.7-1', '10', '9.9', 'a', '1.0~beta', '1.0-1.1'];
    for (const a of versions) {
      for (const b of versions) {
        const want = Number(execFileSync(vercmp, [a, b], { encoding: 'utf8' }).trim());
        expect(Math.sign(alpmVercmp(a, b)), `${a} vs ${b}`).toBe(Math.sign(want));
      }
    }
  }, 60_000); // 400 runs of vercmp: seconds on a loaded machine
});
