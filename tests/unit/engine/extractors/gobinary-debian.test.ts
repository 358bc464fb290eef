// Go executables as Debian ships them (docker-registry and skopeo, installed by .ci/run; both built
// by Debian's toolchain and stripped) and the fixture binaries with module dependencies, stripped
// here with binutils: the modules found equal what `go version -m` (Debian's golang-go) prints.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIDENCE } from '../../../../server/engine/model.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { extractors, stdlibVersion } from '../../../../server/engine/extractors/golang/index.ts';
import { golangPurl } from '../../../../server/engine/purl.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/gobinary');
const { scan } = useTempScan('cairn-gobin-deb-', extractors);
const work = mkdtempSync(path.join(tmpdir(), 'cairn-strip-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `go version -m` of a binary, parsed: the purls its modules stand for (the replacement when there is one). */
function goVersionM(file: string): { main: string; purls: string[] } {
  const out = execFileSync('go', ['version', '-m', file], { encoding: 'utf8' });
  const lines = out.split('\n');
  const goVersion = lines[0]!.slice(lines[0]!.indexOf(': ') + 2).trim();
  let main = '';
  let mainVersion = '';
  const deps: Array<{ path: string; version: string }> = [];
  for (const line of lines.slice(1)) {
    const [, kind, a = '', b = ''] = line.split('\t');
    if (kind === 'path' && !main) main = a;
    else if (kind === 'mod') { main = a; mainVersion = b === '(devel)' ? '' : b; } else if (kind === 'dep') deps.push({ path: a, version: b });
    else if (kind === '=>') deps[deps.length - 1] = { path: a, version: b };
  }
  return { main: golangPurl(main, mainVersion), purls: [...deps.map((d) => golangPurl(d.path, d.version)), golangPurl('stdlib', stdlibVersion(goVersion))].sort() };
}

function expectLikeGoVersionM(target: Target, file: string, opts: { mainVersion?: string } = {}) {
  const expected = goVersionM(file);
  const main = target.components.find((c) => c.direct)!;
  // -X main.version=… is read as trivy reads it; `go version -m` prints (devel) for it.
  expect(golangPurl(main.name, opts.mainVersion === undefined ? main.version : '')).toBe(expected.main);
  expect(target.components.filter((c) => !c.direct).map((c) => c.purl).sort()).toEqual(expected.purls);
  expect(main.dependsOn.sort()).toEqual(expected.purls);
  const bytes = readFileSync(file);
  for (const c of target.components) {
    expect(c.confidence).toBe(CONFIDENCE.METADATA);
    expect(c.evidence).toHaveLength(1);
    const [ev] = c.evidence!;
    expect(ev!.rule).toBe('Go 构建信息');
    // The offset is that of the build info blob the linker wrote.
    expect(bytes.toString('latin1', ev!.offset!, ev!.offset! + 14)).toBe('\xff Go buildinf:');
  }
}

describe('Go executables from Debian packages', () => {
  for (const bin of ['/usr/bin/docker-registry', '/usr/bin/skopeo']) {
    it(`${bin}: the modules of \`go version -m\`, with evidence at the build info's offset`, async () => {
      const result = await scan({ [`usr/bin/${path.basename(bin)}`]: readFileSync(bin) });
      expect(result.problems).toEqual([]);
      expect(result.targets).toHaveLength(1);
      expectLikeGoVersionM(result.targets[0]!, bin);
      // Debian builds in GOPATH mode: the main package's path, the toolchain's standard library.
      expect(result.targets[0]!.components.map((c) => c.name)).toContain('stdlib');
    });
  }
});

describe('stripped Go executables', () => {
  const original = path.join(FIXTURES, 'hello-linux-amd64');
  const stripped = path.join(work, 'hello-strip');
  const objcopied = path.join(work, 'hello-objcopy');
  execFileSync('strip', ['-o', stripped, original]);
  execFileSync('objcopy', ['--strip-all', original, objcopied]);

  it('strip and objcopy --strip-all leave the build info: the same modules as `go version -m`', async () => {
    expect(readFileSync(stripped).length).toBeLessThan(readFileSync(original).length);
    for (const file of [original, stripped, objcopied]) {
      const result = await scan({ 'app/bin/hello': readFileSync(file) });
      expect(result.problems).toEqual([]);
      expectLikeGoVersionM(result.targets[0]!, file, { mainVersion: 'v2.5.0' });
      expect(result.targets[0]!.components.map((c) => c.purl).sort()).toEqual([
        'pkg:golang/example.com/colors@v0.3.1', 'pkg:golang/example.com/greeting@v1.4.2', 'pkg:golang/example.com/hello@v2.5.0', 'pkg:golang/stdlib@1.19.8',
      ]);
    }
  });

  it('without section headers (removed as sstrip does), the build info is found in the writable segment', async () => {
    for (const file of [stripped, '/usr/bin/docker-registry']) {
      const bytes = Buffer.from(readFileSync(file));
      // e_shoff, e_shnum, e_shstrndx of the ELF64 header.
      bytes.writeBigUInt64LE(0n, 0x28);
      bytes.writeUInt16LE(0, 0x3c);
      bytes.writeUInt16LE(0, 0x3e);
      const result = await scan({ 'bin/tool': bytes });
      expect(result.problems).toEqual([]);
      expect(result.targets[0]!.components.map((c) => c.purl).sort()).toEqual((await scan({ 'bin/tool': readFileSync(file) })).targets[0]!.components.map((c) => c.purl).sort());
    }
  });

  it('a writable segment claiming an absurd size (no section headers) is read only as far as the file goes', async () => {
    const bytes = Buffer.from(readFileSync(stripped));
    bytes.writeBigUInt64LE(0n, 0x28);
    bytes.writeUInt16LE(0, 0x3c);
    bytes.writeUInt16LE(0, 0x3e);
    const phoff = Number(bytes.readBigUInt64LE(0x20));
    const phentsize = bytes.readUInt16LE(0x36);
    let patched = 0;
    for (let i = 0; i < bytes.readUInt16LE(0x38); i++) {
      const o = phoff + i * phentsize;
      if (bytes.readUInt32LE(o) !== 1 || (bytes.readUInt32LE(o + 4) & 3) !== 2) continue;
      // p_filesz and p_memsz: a terabyte each.
      bytes.writeBigUInt64LE(1n << 40n, o + 32);
      bytes.writeBigUInt64LE(1n << 40n, o + 40);
      patched++;
    }
    expect(patched).toBe(1);
    const result = await scan({ 'bin/tool': bytes });
    expect(result.problems).toEqual([]);
    expect(result.targets[0]!.components.map((c) => c.name).sort()).toEqual(['example.com/colors', 'example.com/greeting', 'example.com/hello', 'stdlib']);
    // The same claim with the blob wiped: searched to the end of the file, then nothing found.
    const wiped = Buffer.from(bytes);
    for (let at = wiped.indexOf('\xff Go buildinf:', 0, 'latin1'); at >= 0; at = wiped.indexOf('\xff Go buildinf:', at + 1, 'latin1')) wiped[at] = 0;
    expect((await scan({ 'bin/tool': wiped })).targets).toEqual([]);
  });

  it('the evidence names the module line of the build info', async () => {
    const result = await scan({ 'bin/hello': readFileSync(stripped) });
    const colors = result.targets[0]!.components.find((c) => c.name === 'example.com/colors')!;
    expect(colors.evidence![0]!.text).toBe('dep example.com/colors v0.3.0 => example.com/colors v0.3.1');
    expect(result.targets[0]!.components.find((c) => c.name === 'stdlib')!.evidence![0]!.text).toBe('go1.19.8');
    expect(result.targets[0]!.components.find((c) => c.direct)!.evidence![0]!.text).toBe('mod example.com/hello (devel); v2.5.0');
  });
});
