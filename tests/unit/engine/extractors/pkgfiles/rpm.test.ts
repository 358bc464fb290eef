// RPM package files built at test time by rpmbuild (Debian's `rpm`, installed by .ci/run): a binary
// and a source package with an epoch, a legacy Fedora licence expression and a vendor; `rpm -qp`
// on the same files is the oracle. Then what a damaged file does: a truncated file, a main header
// whose index claims more than the file holds, a lead of another format.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import { readRpmFile, rpmFileExtractor } from '../../../../../server/engine/extractors/pkgfiles/rpm.ts';
import { bufferAccess } from '../../../../../server/engine/extractors/common/random-access.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';

const SPEC = `Name: cairn-hello
Version: 1.2.3
Release: 4.fc39
Epoch: 2
Summary: A file to package
License: MIT and (BSD or GPLv2+)
Vendor: Fedora Project
BuildArch: noarch

%description
A file to package.

%install
mkdir -p %{buildroot}/usr/share/cairn-hello
echo hello > %{buildroot}/usr/share/cairn-hello/hello.txt

%files
/usr/share/cairn-hello/hello.txt
`;

let top: string;
let binary: Buffer;
let source: Buffer;
const BINARY = 'cairn-hello-1.2.3-4.fc39.noarch.rpm';
const SOURCE = 'cairn-hello-1.2.3-4.fc39.src.rpm';

beforeAll(() => {
  if (spawnSync('rpmbuild', ['--version']).status !== 0) throw new Error('需要 Debian 的 rpm 软件包（rpmbuild；.ci/run 会安装）');
  top = mkdtempSync(path.join(tmpdir(), 'cairn-rpmfile-'));
  mkdirSync(path.join(top, 'SPECS'));
  writeFileSync(path.join(top, 'SPECS/hello.spec'), SPEC);
  execFileSync('rpmbuild', ['--define', `_topdir ${top}`, '-ba', path.join(top, 'SPECS/hello.spec')], { stdio: 'ignore' });
  binary = readFileSync(path.join(top, 'RPMS/noarch', BINARY));
  source = readFileSync(path.join(top, 'SRPMS', SOURCE));
});
afterAll(() => { if (top) rmSync(top, { recursive: true, force: true }); });

const qf = (file: string, format: string) => execFileSync('rpm', ['-qp', '--qf', format, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

const { scan } = useTempScan('cairn-rpmfile-scan-', [rpmFileExtractor]);

describe('rpm package files', () => {
  it('claims .rpm files', () => {
    expectClaims(rpmFileExtractor, ['a.rpm', 'x/b-1.0-1.src.rpm', 'C.RPM'], ['a.rpmnew', 'rpm', 'var/lib/rpm/Packages']);
  });

  it('reads the header of a binary and a source package as rpm -qp does', async () => {
    const result = await scan({ [`dist/${BINARY}`]: binary, [`dist/${SOURCE}`]: source });
    expect(result.problems).toEqual([]);
    const [bin, src] = [BINARY, SOURCE].map((f) => result.targets.find((t) => t.file === `dist/${f}`)!);
    const offset = (await readRpmFile(bufferAccess(binary))).headerOffset;
    expect(bin!.type).toBe('rpm-file');
    expect(bin!.components).toEqual([{
      purl: 'pkg:rpm/fedora/cairn-hello@1.2.3-4.fc39?arch=noarch&epoch=2',
      ecosystem: 'rpm', name: 'cairn-hello', version: '2:1.2.3-4.fc39', direct: true, scope: 'runtime',
      locations: [{ file: `dist/${BINARY}` }],
      licenses: ['MIT AND (BSD-3-Clause OR GPL-2.0-or-later)'],
      dependsOn: [],
      evidence: [{ file: `dist/${BINARY}`, rule: 'RPM 头部', text: 'cairn-hello-2:1.2.3-4.fc39.noarch', offset }],
      confidence: CONFIDENCE.METADATA,
    }]);
    expect(src!.components[0]!.purl).toBe('pkg:rpm/fedora/cairn-hello@1.2.3-4.fc39?arch=src&epoch=2');

    // rpm's own reading of the same file.
    const file = path.join(top, 'RPMS/noarch', BINARY);
    const [name, epoch, version, release, arch] = qf(file, '%{NAME}\t%{EPOCH}\t%{VERSION}\t%{RELEASE}\t%{ARCH}').split('\t');
    const c = bin!.components[0]!;
    expect(c.name).toBe(name);
    expect(c.version).toBe(`${epoch}:${version}-${release}`);
    expect(c.evidence![0]!.text).toBe(`${name}-${epoch}:${version}-${release}.${arch}`);
    // The main header starts where rpm's lead and padded signature end: its magic is there.
    expect(binary.readUInt32BE(offset)).toBe(0x8eade801);
  });

  it('damaged files are problems in Chinese; the good file is still read', async () => {
    const offset = (await readRpmFile(bufferAccess(binary))).headerOffset;
    // The main header's index count raised to 60000 entries: it then claims more than the file holds.
    const bigIndex = Buffer.from(binary);
    bigIndex.writeUInt32BE(60_000, offset + 8);
    // An index entry whose offset points past the data store.
    const badEntry = Buffer.from(binary);
    badEntry.writeInt32BE(0x7fff0000, offset + 16 + 8);
    const result = await scan({
      'cut.rpm': binary.subarray(0, offset + 40),
      'lead.rpm': binary.subarray(0, 50),
      'index.rpm': bigIndex,
      'entry.rpm': badEntry,
      'deb.rpm': Buffer.concat([Buffer.from('!<arch>\n'), Buffer.alloc(120)]),
      [`ok/${BINARY}`]: binary,
    });
    expect(result.targets.map((t) => t.file)).toEqual([`ok/${BINARY}`]);
    const byFile = Object.fromEntries(result.problems.map((p) => [p.file, p.message]));
    expect(byFile).toEqual({
      'cut.rpm': expect.stringMatching(/^RPM 软件包 cut\.rpm 无法读取：主头部声明 \d+ 字节，超出文件末尾（文件被截断）$/),
      'lead.rpm': 'RPM 软件包 lead.rpm 无法读取：文件头（lead）不完整（文件被截断）',
      'index.rpm': expect.stringMatching(/^RPM 软件包 index\.rpm 无法读取：主头部声明 \d+ 字节，超出文件末尾/),
      'entry.rpm': expect.stringMatching(/^RPM 软件包 entry\.rpm 无法读取：标签 \d+ 的偏移 \d+ 超出数据区/),
      'deb.rpm': 'RPM 软件包 deb.rpm 无法读取：不是 RPM 软件包（缺少 lead 标识 ED AB EE DB）',
    });
  });
});
