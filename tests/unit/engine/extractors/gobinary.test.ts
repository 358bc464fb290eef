// Go executables: build information read from real binaries (tests/fixtures/gobinary, built by
// its build.sh with Debian's Go 1.19 for Linux, Windows and macOS) and, for the pointer-based
// layout of Go < 1.18 that no toolchain here writes, from an ELF file laid out as that linker did.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferAccess } from '../../../../server/engine/extractors/common/random-access.ts';
import {
  extractors, goBinaryExtractor, parseModInfo, readGoBuildInfo, stdlibVersion,
} from '../../../../server/engine/extractors/golang/index.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/gobinary');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const { scan } = useTempScan('cairn-gobin-', extractors);

const FRAME_START = Buffer.from('3077af0c9274080241e1c107e6d618e6', 'hex');
const FRAME_END = Buffer.from('f932433186182072008242104116d8f2', 'hex');

/**
 * A minimal ELF executable with one writable PT_LOAD segment holding the Go < 1.18 build info:
 * the 32-byte header whose two pointers lead to Go string headers (pointer, length).
 */
function pointerElf(version: string, modinfo: string, opts: { ptrSize: 4 | 8; bigEndian: boolean }): Buffer {
  const { ptrSize, bigEndian } = opts;
  const is64 = ptrSize === 8;
  const vbase = 0x500000;
  const segOffset = 0x1000;
  const mod = Buffer.concat([FRAME_START, Buffer.from(modinfo), FRAME_END]);
  const ver = Buffer.from(version);
  const seg = Buffer.alloc(0x60 + ver.length + mod.length);
  const ptr = (at: number, value: number) => {
    if (is64) { if (bigEndian) seg.writeBigUInt64BE(BigInt(value), at); else seg.writeBigUInt64LE(BigInt(value), at); } else if (bigEndian) seg.writeUInt32BE(value, at); else seg.writeUInt32LE(value, at);
  };
  Buffer.from('\xff Go buildinf:', 'latin1').copy(seg, 0);
  seg[14] = ptrSize;
  seg[15] = bigEndian ? 1 : 0;
  ptr(16, vbase + 0x20);
  ptr(16 + ptrSize, vbase + 0x40);
  ptr(0x20, vbase + 0x60); ptr(0x20 + ptrSize, ver.length);
  ptr(0x40, vbase + 0x60 + ver.length); ptr(0x40 + ptrSize, mod.length);
  ver.copy(seg, 0x60);
  mod.copy(seg, 0x60 + ver.length);

  const file = Buffer.alloc(Math.max(segOffset + seg.length, 128 * 1024));
  file.writeUInt32BE(0x7f454c46, 0);
  file[4] = is64 ? 2 : 1;
  file[5] = bigEndian ? 2 : 1;
  file[6] = 1;
  const w16 = (v: number, at: number) => (bigEndian ? file.writeUInt16BE(v, at) : file.writeUInt16LE(v, at));
  const w32 = (v: number, at: number) => (bigEndian ? file.writeUInt32BE(v, at) : file.writeUInt32LE(v, at));
  const w64 = (v: number, at: number) => (bigEndian ? file.writeBigUInt64BE(BigInt(v), at) : file.writeBigUInt64LE(BigInt(v), at));
  const phoff = is64 ? 64 : 52;
  if (is64) {
    w64(phoff, 0x20); w16(56, 0x36); w16(1, 0x38); w16(64, 0x3a);
    const p = phoff;
    w32(1, p); w32(6, p + 4); w64(segOffset, p + 8); w64(vbase, p + 16); w64(vbase, p + 24); w64(seg.length, p + 32); w64(seg.length, p + 40); w64(0x1000, p + 48);
  } else {
    w32(phoff, 0x1c); w16(32, 0x2a); w16(1, 0x2c); w16(40, 0x2e);
    const p = phoff;
    w32(1, p); w32(segOffset, p + 4); w32(vbase, p + 8); w32(vbase, p + 12); w32(seg.length, p + 16); w32(seg.length, p + 20); w32(6, p + 24); w32(0x1000, p + 28);
  }
  seg.copy(file, segOffset);
  return file;
}

const MODINFO_117 = [
  'path\tgithub.com/acme/tool/cmd/tool',
  'mod\tgithub.com/acme/tool\tv1.2.3\th1:abc=',
  'dep\tgithub.com/pkg/errors\tv0.9.1\th1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=',
  'dep\tgolang.org/x/text\tv0.3.0',
  '=>\tgolang.org/x/text\tv0.3.8\th1:abcd=',
  'dep\tgithub.com/acme/local\tv0.0.0-00010101000000-000000000000',
  '=>\t../local\t',
  '',
].join('\n');

describe('Go build info from real executables', () => {
  for (const [name, format, goos] of [
    ['hello-linux-amd64', 'elf', 'linux'], ['hello-windows-amd64.exe', 'pe', 'windows'], ['hello-darwin-arm64', 'macho', 'darwin'],
  ] as const) {
    it(`${name}: ${format}, the modules and their replacement as go version -m prints them`, async () => {
      const info = await readGoBuildInfo(bufferAccess(fixture(name)));
      expect(info?.format).toBe(format);
      expect(info?.goVersion).toBe(readFileSync(path.join(FIXTURES, 'GO_VERSION'), 'utf8').split(' ')[2]);
      expect(info?.path).toBe('example.com/hello');
      expect(info?.main).toEqual({ path: 'example.com/hello', version: '(devel)', sum: '' });
      expect(info?.deps).toEqual([
        { path: 'example.com/colors', version: 'v0.3.0', sum: '', replace: { path: 'example.com/colors', version: 'v0.3.1', sum: 'h1:19mHgu1EZJYwR0IyyWlNdSlkV+wun17wyHh2payWMFc=' } },
        { path: 'example.com/greeting', version: 'v1.4.2', sum: 'h1:zcGb9xG001+vbRQgcokt1bJd8K1g1HAb60dG6EFo2wI=' },
      ]);
      expect(info?.settings.get('GOOS')).toBe(goos);
    });
  }

  it('a universal (fat) Mach-O file: the build info of its first architecture', async () => {
    const thin = fixture('hello-darwin-arm64');
    const header = Buffer.alloc(4096);
    header.writeUInt32BE(0xcafebabe, 0);
    header.writeUInt32BE(1, 4);
    header.writeUInt32BE(0x0100000c, 8); // CPU_TYPE_ARM64
    header.writeUInt32BE(0, 12);
    header.writeUInt32BE(4096, 16);
    header.writeUInt32BE(thin.length, 20);
    header.writeUInt32BE(12, 24);
    const info = await readGoBuildInfo(bufferAccess(Buffer.concat([header, thin])));
    expect(info?.format).toBe('macho');
    expect(info?.deps.map((d) => d.path)).toEqual(['example.com/colors', 'example.com/greeting']);
  });

  it('is scanned where an image keeps it: main module, replaced dependency, stdlib, with the path in the image', async () => {
    const result = await scan({
      'usr/local/bin/hello': fixture('hello-linux-amd64'),
      'app/hello.exe': fixture('hello-windows-amd64.exe'),
      'usr/local/bin/notes': 'plain text, not an executable\n'.repeat(5000),
      'usr/local/bin/tiny': Buffer.from('\x7fELF'),
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.type])).toEqual([['app/hello.exe', 'gobinary'], ['usr/local/bin/hello', 'gobinary']]);
    const linux = result.targets.find((t) => t.file === 'usr/local/bin/hello')!;
    const go = readFileSync(path.join(FIXTURES, 'GO_VERSION'), 'utf8').split(' ')[2]!.slice(2);
    expect(linux.components.map((c) => c.purl).sort()).toEqual([
      'pkg:golang/example.com/colors@v0.3.1',
      'pkg:golang/example.com/greeting@v1.4.2',
      // Built without -trimpath, so -ldflags (and the -X version in it) is in the build info.
      'pkg:golang/example.com/hello@v2.5.0',
      `pkg:golang/stdlib@${go}`,
    ]);
    const main = linux.components.find((c) => c.name === 'example.com/hello')!;
    expect(main.direct).toBe(true);
    expect(main.dependsOn.sort()).toEqual(['pkg:golang/example.com/colors@v0.3.1', 'pkg:golang/example.com/greeting@v1.4.2', `pkg:golang/stdlib@${go}`]);
    expect(linux.roots).toEqual([main.purl]);
    for (const c of linux.components) expect(c.locations).toEqual([{ file: 'usr/local/bin/hello' }]);
    // -trimpath drops -ldflags from the build info: the main module's version is unknown.
    const windows = result.targets.find((t) => t.file === 'app/hello.exe')!;
    expect(windows.components.find((c) => c.name === 'example.com/hello')!.purl).toBe('pkg:golang/example.com/hello');
  });
});

describe('Go < 1.18 build info (pointers to string headers)', () => {
  for (const opts of [{ ptrSize: 8, bigEndian: false }, { ptrSize: 4, bigEndian: true }] as const) {
    it(`${opts.ptrSize * 8}-bit ${opts.bigEndian ? 'big' : 'little'}-endian`, async () => {
      const info = await readGoBuildInfo(bufferAccess(pointerElf('go1.17.13', MODINFO_117, opts)));
      expect(info?.goVersion).toBe('go1.17.13');
      expect(info?.main?.version).toBe('v1.2.3');
      expect(info?.deps.map((d) => d.path)).toEqual(['github.com/pkg/errors', 'golang.org/x/text', 'github.com/acme/local']);
    });
  }

  it('becomes components: replacement by version wins, replacement by a directory has no version', async () => {
    const result = await scan({ 'bin/tool': pointerElf('go1.17.13', MODINFO_117, { ptrSize: 8, bigEndian: false }) });
    expect(result.targets).toHaveLength(1);
    expect(result.targets[0]!.components.map((c) => c.purl).sort()).toEqual([
      'pkg:golang/github.com/acme/local',
      'pkg:golang/github.com/acme/tool@v1.2.3',
      'pkg:golang/github.com/pkg/errors@v0.9.1',
      'pkg:golang/golang.org/x/text@v0.3.8',
      'pkg:golang/stdlib@1.17.13',
    ]);
  });
});

describe('Go binary details', () => {
  it('claims executables by name, not data or text files', () => {
    expectClaims(goBinaryExtractor,
      ['usr/local/bin/kubectl', 'app/server', 'ko-app/hello', 'bin/tool.v2', 'opt/x/tool.exe', 'server', 'usr/lib/cni/bridge'],
      ['usr/share/zoneinfo/UTC', 'etc/hostname', 'LICENSE', 'Makefile', 'src/main.go', 'usr/local/bin/script.sh', 'var/lib/dpkg/status', '.hidden', 'README']);
  });

  it('turns toolchain versions into the stdlib versions of the Go vulnerability database', () => {
    expect(stdlibVersion('go1.21.3')).toBe('1.21.3');
    expect(stdlibVersion('go1.22')).toBe('1.22.0');
    expect(stdlibVersion('go1.21rc2')).toBe('1.21.0-rc.2');
    expect(stdlibVersion('go1.20.4 X:boringcrypto')).toBe('1.20.4');
    expect(stdlibVersion('devel go1.23-abcdef')).toBe('');
  });

  it('reads build settings and a VCS stamp as a pseudo-version of the main module', async () => {
    const text = 'path\texample.com/app\nmod\texample.com/app\t(devel)\t\nbuild\tvcs.revision=0123456789abcdef0123\nbuild\tvcs.time=2024-03-04T05:06:07Z\n';
    const info = parseModInfo(text);
    expect(info.settings.get('vcs.revision')).toBe('0123456789abcdef0123');
    const result = await scan({ 'bin/app': pointerElf('go1.17.1', text, { ptrSize: 8, bigEndian: false }) });
    expect(result.targets[0]!.components.find((c) => c.name === 'example.com/app')!.version).toBe('v0.0.0-20240304050607-0123456789ab');
  });

  it('a program built from files (command-line-arguments) with directory replacements marked (devel)', async () => {
    const text = 'path\tcommand-line-arguments\ndep\tcnrm.example/cnrm\tv0.0.0-00010101000000-000000000000\n=>\t./private_repos/cnrm/\t(devel)\t\ndep\tgithub.com/gogo/protobuf\tv1.3.1\n=>\tgithub.com/gogo/protobuf\tv1.3.2\t\n';
    const result = await scan({ 'bin/cli': pointerElf('go1.17.2', text, { ptrSize: 8, bigEndian: false }) });
    expect(result.problems).toEqual([]);
    const target = result.targets[0]!;
    expect(target.components.map((c) => c.purl).sort()).toEqual(['pkg:golang/cnrm.example/cnrm', 'pkg:golang/github.com/gogo/protobuf@v1.3.2', 'pkg:golang/stdlib@1.17.2']);
    expect(target.roots.sort()).toEqual(target.components.map((c) => c.purl).sort());
  });

  it('damaged executables are not Go binaries and never fail the scan', async () => {
    // Deterministic corruption of the header tables of each real binary.
    let seed = 7;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    for (const name of ['hello-linux-amd64', 'hello-windows-amd64.exe', 'hello-darwin-arm64']) {
      const original = fixture(name);
      for (let round = 0; round < 60; round++) {
        const damaged = Buffer.from(original);
        for (let i = 0; i < 8; i++) damaged[Math.floor(random() * 4096)] = Math.floor(random() * 256);
        // Resolves (to build info or undefined) rather than rejecting.
        await readGoBuildInfo(bufferAccess(damaged));
        await readGoBuildInfo(bufferAccess(damaged.subarray(0, Math.floor(random() * damaged.length))));
      }
    }
  });

  it('leaves non-Go executables and other files alone', async () => {
    const elf = Buffer.alloc(100 * 1024);
    elf.writeUInt32BE(0x7f454c46, 0);
    elf[4] = 2; elf[5] = 1;
    const result = await scan({ 'usr/bin/cat': elf, 'data/blob': Buffer.alloc(70 * 1024, 0xab) });
    expect(result).toMatchObject({ targets: [], problems: [] });
  });
});
