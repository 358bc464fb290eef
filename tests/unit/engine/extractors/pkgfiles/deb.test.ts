// Debian package files read in place: two real Debian 12 packages (tests/fixtures/public/pkgfiles,
// control.tar.xz), the same packages rebuilt by dpkg-deb with gzip, zstd and no compression, as
// a .udeb and as opkg .ipk in both layouts; dpkg-deb itself is the oracle of the control fields.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import { debFileExtractor } from '../../../../../server/engine/extractors/pkgfiles/index.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';

const FIXTURES = path.resolve('tests/fixtures/public/pkgfiles');
const LZF = 'liblzf1_3.6-3_amd64.deb';
const WEBENC = 'python3-webencodings_0.5.1-5_all.deb';
// What the dpkg extractor reads from the same copyright file installed (os/copyright.ts): MIT/X11
// has no SPDX id, install-sh's stanza further down is FSFUL.
const LZF_LICENSES = ['BSD-2-Clause', 'BSD-3-Clause OR GPL-2.0-only', 'LicenseRef-MIT-X11', 'FSFUL'];
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

const work = mkdtempSync(path.join(tmpdir(), 'cairn-deb-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The package unpacked by dpkg-deb and built again with another compression of its members. */
function rebuild(name: string, compression: 'gzip' | 'zstd' | 'none' | 'xz'): Buffer {
  const dir = mkdtempSync(path.join(work, 'pkg-'));
  execFileSync('dpkg-deb', ['-R', path.join(FIXTURES, name), `${dir}/root`]);
  execFileSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '-b', `${dir}/root`, `${dir}/out.deb`], { stdio: 'ignore' });
  return readFileSync(`${dir}/out.deb`);
}

/** The ar members of a package, extracted by binutils' ar. */
function members(name: string): Record<string, Buffer> {
  const dir = mkdtempSync(path.join(work, 'ar-'));
  execFileSync('ar', ['x', path.join(FIXTURES, name)], { cwd: dir });
  const list = execFileSync('ar', ['t', path.join(FIXTURES, name)], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return Object.fromEntries(list.map((m) => [m, readFileSync(path.join(dir, m))]));
}

const field = (name: string, key: string) => execFileSync('dpkg-deb', ['-f', path.join(FIXTURES, name), key], { encoding: 'utf8' }).trim();

const { scan, writeTree } = useTempScan('cairn-debfile-', [debFileExtractor]);

describe('deb package files', () => {
  it('claims .deb, .udeb and .ipk files', () => {
    expectClaims(debFileExtractor, ['a.deb', 'pool/main/x_1_amd64.udeb', 'bin/p_1_mips.ipk', 'X.DEB'], ['a.debx', 'deb', 'a.rpm', 'control']);
  });

  it('reads the control file of a real package: purl, version, licences of its copyright file, evidence', async () => {
    const result = await scan({ [`pool/${LZF}`]: fixture(LZF), [`pool/${WEBENC}`]: fixture(WEBENC) });
    expect(result.problems).toEqual([]);
    const lzf = result.targets.find((t) => t.file === `pool/${LZF}`)!;
    expect(lzf.type).toBe('deb-file');
    expect(lzf.components).toEqual([{
      purl: 'pkg:deb/debian/liblzf1@3.6-3?arch=amd64&upstream=liblzf',
      ecosystem: 'deb', name: 'liblzf1', version: '3.6-3', direct: true, scope: 'runtime',
      locations: [{ file: `pool/${LZF}` }],
      licenses: LZF_LICENSES,
      dependsOn: [],
      maintainer: 'Timo Röhling <timo@gaussglocke.de>',
      evidence: [{ file: `pool/${LZF}!/control.tar.xz!/control`, rule: 'control', text: 'Package: liblzf1; Version: 3.6-3', offset: 0 }],
      confidence: CONFIDENCE.METADATA,
    }]);
    expect(lzf.roots).toEqual([lzf.components[0]!.purl]);
    // dpkg-deb reads the same fields.
    expect([lzf.components[0]!.name, lzf.components[0]!.version, lzf.components[0]!.maintainer]).toEqual([field(LZF, 'Package'), field(LZF, 'Version'), field(LZF, 'Maintainer')]);

    const webenc = result.targets.find((t) => t.file === `pool/${WEBENC}`)!.components[0]!;
    expect(webenc.purl).toBe('pkg:deb/debian/python3-webencodings@0.5.1-5?arch=all&upstream=python-webencodings');
    expect(webenc.licenses).toEqual(['BSD-3-Clause', 'MIT']); // upstream's, then debian/*'s
    expect(webenc.maintainer).toBe(field(WEBENC, 'Maintainer'));
  });

  it.each(['gzip', 'zstd', 'none'] as const)('reads control.tar and data.tar compressed with %s (dpkg-deb -Z)', async (compression) => {
    const built = rebuild(LZF, compression);
    const result = await scan({ [LZF]: built });
    expect(result.problems).toEqual([]);
    const c = result.targets[0]!.components[0]!;
    expect([c.name, c.version, c.licenses]).toEqual(['liblzf1', '3.6-3', LZF_LICENSES]);
    const member = { gzip: 'control.tar.gz', zstd: 'control.tar.zst', none: 'control.tar' }[compression];
    expect(c.evidence![0]!.file).toBe(`${LZF}!/${member}!/control`);
  });

  it('reads a .udeb and both opkg .ipk layouts (ar, and a gzipped tar of the members)', async () => {
    const m = members(LZF);
    const dir = mkdtempSync(path.join(work, 'ipk-'));
    const { writeFileSync } = await import('node:fs');
    for (const [name, body] of Object.entries(m)) writeFileSync(path.join(dir, name), body);
    execFileSync('tar', ['-czf', 'old.ipk', './debian-binary', './control.tar.xz', './data.tar.xz'], { cwd: dir });
    const result = await scan({ 'd-i/liblzf1_3.6-3_amd64.udeb': fixture(LZF), 'opkg/liblzf1_3.6-3_amd64.ipk': fixture(LZF), 'old/liblzf1.ipk': readFileSync(path.join(dir, 'old.ipk')) });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.components[0]!.purl])).toEqual([
      ['d-i/liblzf1_3.6-3_amd64.udeb', 'pkg:deb/debian/liblzf1@3.6-3?arch=amd64&upstream=liblzf'],
      ['old/liblzf1.ipk', 'pkg:deb/openwrt/liblzf1@3.6-3?arch=amd64&upstream=liblzf'],
      ['opkg/liblzf1_3.6-3_amd64.ipk', 'pkg:deb/openwrt/liblzf1@3.6-3?arch=amd64&upstream=liblzf'],
    ]);
  });

  it('a truncated or damaged package is a problem in Chinese; the other package is still read', async () => {
    const whole = fixture(LZF);
    const root = await writeTree({
      'cut.deb': whole.subarray(0, 900),
      'cut-in-control.deb': whole.subarray(0, 200),
      'empty.deb': Buffer.alloc(0),
      'text.deb': 'not a package\n',
      [`ok/${WEBENC}`]: fixture(WEBENC),
    });
    const { scanTree } = await import('../../../../../server/engine/index.ts');
    const result = await scanTree(root, { extractors: [debFileExtractor] });
    expect(result.targets.map((t) => t.file)).toEqual([`ok/${WEBENC}`]);
    const byFile = Object.fromEntries(result.problems.map((p) => [p.file, p.message]));
    expect(Object.keys(byFile).sort()).toEqual(['cut-in-control.deb', 'cut.deb', 'empty.deb', 'text.deb']);
    expect(byFile['cut.deb']).toMatch(/^Debian 软件包 cut\.deb 已损坏：成员 control\.tar\.xz 声明 \d+ 字节，超出文件末尾（文件被截断）$/);
    expect(byFile['cut-in-control.deb']).toMatch(/已损坏|截断/);
    expect(byFile['empty.deb']).toBe('Debian 软件包 empty.deb 是空文件');
    expect(byFile['text.deb']).toBe('Debian 软件包 text.deb 不是有效的软件包（既不是 ar 归档，也不是 gzip 压缩的 tar）');
    for (const message of Object.values(byFile)) expect(message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('a control.tar that decompresses beyond the cap is refused as a bomb', async () => {
    const m = members(LZF);
    const dir = mkdtempSync(path.join(work, 'bomb-'));
    const { writeFileSync } = await import('node:fs');
    // 20 MiB of zeros as the control member, gzip-compressed (about 20 KiB).
    writeFileSync(path.join(dir, 'debian-binary'), m['debian-binary']!);
    const { gzipSync } = await import('node:zlib');
    writeFileSync(path.join(dir, 'control.tar.gz'), gzipSync(Buffer.alloc(20 * 1024 * 1024)));
    writeFileSync(path.join(dir, 'data.tar.xz'), m['data.tar.xz']!);
    execFileSync('ar', ['rc', 'bomb.deb', 'debian-binary', 'control.tar.gz', 'data.tar.xz'], { cwd: dir });
    const result = await scan({ 'bomb.deb': readFileSync(path.join(dir, 'bomb.deb')), [WEBENC]: fixture(WEBENC) });
    expect(result.targets.map((t) => t.file)).toEqual([WEBENC]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.message).toMatch(/^Debian 软件包 bomb\.deb 的 control\.tar\.gz .*疑似压缩炸弹/);
  });
});
