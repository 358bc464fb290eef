// Embedded version strings, read from Debian's own libraries and programs in place: each version
// must be the upstream part of what dpkg says the owning package installed. Damaged and foreign
// files: problems in Chinese or nothing, never a crash or a whole-file read.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../../server/engine/extractors/native/index.ts';
import { cpeOf, versionStringExtractor } from '../../../../../server/engine/extractors/native/version-strings.ts';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import type { Target } from '../../../../../server/engine/model.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';
import { bytes, debianUpstream, inputFile, present } from './native-file.ts';

const LIB = '/usr/lib/x86_64-linux-gnu';
const ctx = { signal: new AbortController().signal } as never;
const { scan } = useTempScan('cairn-native-', extractors);

async function extract(source: string | Buffer, rel: string): Promise<Target[]> {
  return versionStringExtractor.extract(inputFile(source, rel), ctx);
}

/** [file, Debian package, component name, label] */
const DEBIAN: Array<[string, string, string, string]> = [
  [`${LIB}/libcrypto.so.3`, 'libssl3', 'openssl', 'OpenSSL'],
  [`${LIB}/libz.so.1`, 'zlib1g', 'zlib', 'zlib'],
  [`${LIB}/libcurl.so.4`, 'libcurl4', 'curl', 'curl'],
  [`${LIB}/libsqlite3.so.0`, 'libsqlite3-0', 'sqlite', 'SQLite'],
  [`${LIB}/libpng16.so.16`, 'libpng16-16', 'libpng', 'libpng'],
  [`${LIB}/libexpat.so.1`, 'libexpat1', 'expat', 'Expat'],
  [`${LIB}/libpcre2-8.so.0`, 'libpcre2-8-0', 'pcre2', 'PCRE2'],
  [`${LIB}/libpcre.so.3`, 'libpcre3', 'pcre', 'PCRE'],
  [`${LIB}/libbz2.so.1.0`, 'libbz2-1.0', 'bzip2', 'bzip2'],
  [`${LIB}/liblzma.so.5`, 'liblzma5', 'xz', 'xz / liblzma'],
  [`${LIB}/libjpeg.so.62`, 'libjpeg62-turbo', 'libjpeg-turbo', 'libjpeg-turbo'],
  [`${LIB}/libtiff.so.6`, 'libtiff6', 'libtiff', 'libtiff'],
  [`${LIB}/libgnutls.so.30`, 'libgnutls30', 'gnutls', 'GnuTLS'],
  [`${LIB}/libgcrypt.so.20`, 'libgcrypt20', 'libgcrypt', 'Libgcrypt'],
  [`${LIB}/libssh2.so.1`, 'libssh2-1', 'libssh2', 'libssh2'],
  [`${LIB}/libkrb5.so.3`, 'libkrb5-3', 'kerberos', 'MIT Kerberos'],
  [`${LIB}/libevent-2.1.so.7`, 'libevent-2.1-7', 'libevent', 'libevent'],
  [`${LIB}/liblz4.so.1`, 'liblz4-1', 'lz4', 'LZ4'],
  [`${LIB}/libharfbuzz.so.0`, 'libharfbuzz0b', 'harfbuzz', 'HarfBuzz'],
  ['/usr/bin/ssh', 'openssh-client', 'openssh', 'OpenSSH'],
  ['/bin/busybox', 'busybox', 'busybox', 'BusyBox'],
];

describe('version strings of Debian libraries and programs', () => {
  for (const [file, pkg, name, label] of DEBIAN) {
    it.skipIf(!present(file) || !debianUpstream(pkg))(`${file} (${pkg}): ${name} at dpkg's upstream version`, async () => {
      const rel = file.slice(1);
      const targets = await extract(file, rel);
      expect(targets).toHaveLength(1);
      const [target] = targets;
      expect(target!.problems).toBeUndefined();
      expect(target!.type).toBe('native');
      // libevent's Debian version keeps upstream's release tag (2.1.12-stable): the version is its number.
      const version = debianUpstream(pkg)!.replace(/-stable$/, '');
      const c = target!.components.find((x) => x.name === name)!;
      expect(c, JSON.stringify(target!.components.map((x) => x.purl))).toBeDefined();
      expect(c.purl).toBe(`pkg:generic/${name}@${version}`);
      expect(c.ecosystem).toBe('generic');
      expect(c.confidence).toBe(CONFIDENCE.VERSION_STRING);
      expect(c.locations).toEqual([{ file: rel }]);
      const [evidence] = c.evidence!;
      expect(evidence!.file).toBe(rel);
      expect(evidence!.rule).toBe(`版本字符串 ${label}`);
      expect(evidence!.text).toContain(version.replace(/p\d+$/, ''));
      // The evidence's offset is where its text is in the file.
      const at = bytes(file).subarray(evidence!.offset!, evidence!.offset! + evidence!.text!.length).toString('latin1');
      expect(at).toBe(evidence!.text);
      expect(target!.roots).toContain(c.purl);
    });
  }

  it.skipIf(!present(`${LIB}/libc.so.6`) || !debianUpstream('libc6'))('glibc from its banner, not from its symbol versions', async () => {
    const [target] = await extract(`${LIB}/libc.so.6`, 'lib/libc.so.6');
    expect(target!.components.map((c) => c.purl)).toEqual([`pkg:generic/glibc@${debianUpstream('libc6')!.replace(/^(\d+\.\d+).*$/, '$1')}`]);
  });

  it.skipIf(!present('/usr/bin/python3.11') || !debianUpstream('python3.11-minimal'))('Python: the bare version only in a file named like the interpreter, of the same major.minor', async () => {
    const [target] = await extract('/usr/bin/python3.11', 'usr/bin/python3.11');
    expect(target!.components.map((c) => c.purl)).toEqual([`pkg:generic/python@${debianUpstream('python3.11-minimal')}`]);
    // The same bytes under another name: a bare "3.11.2" proves nothing.
    expect(await extract('/usr/bin/python3.11', 'usr/bin/tool')).toEqual([]);
  });

  it.skipIf(!present('/usr/bin/openssl') || !present('/usr/bin/curl'))('programs linking the library dynamically (openssl, curl): its version text there is the header they were built with, not a copy', async () => {
    for (const file of ['/usr/bin/openssl', '/usr/bin/curl']) {
      const targets = await extract(file, file.slice(1));
      expect(targets.flatMap((t) => t.components.map((c) => c.name)), file).toEqual([]);
    }
  });

  it.skipIf(!present('/usr/bin/ssh-keyscan'))('OpenSSH: the full version, not a compatibility pattern that is its prefix', async () => {
    const [target] = await extract('/usr/bin/ssh-keyscan', 'usr/bin/ssh-keyscan');
    expect(target!.components.map((c) => c.purl)).toEqual([`pkg:generic/openssh@${debianUpstream('openssh-client')}`]);
  });

  it.skipIf(!present(`${LIB}/libssl.so.3`))('libssl.so.3 carries no version of its own (OpenSSL speaks in libcrypto): nothing, no guess', async () => {
    expect(await extract(`${LIB}/libssl.so.3`, 'usr/lib/libssl.so.3')).toEqual([]);
  });

  it('claims shared libraries and executables, not text or data files', () => {
    expectClaims(versionStringExtractor,
      ['usr/lib/x86_64-linux-gnu/libssl.so.3', 'lib/libz.so.1.2.13', 'libfoo.so', 'bin/zlib1.dll', 'Frameworks/libcurl.4.dylib', 'usr/bin/curl', 'usr/sbin/nginx', 'app/server.exe', 'app/server'],
      ['README.md', 'usr/share/doc/zlib1g/copyright', 'lib/x.so.txt', 'etc/ssl/openssl.cnf', 'src/main.c', 'LICENSE']);
  });

  it('the CPE a matcher keyed by CPE looks for', () => {
    expect(cpeOf('openssl', '3.0.19')).toBe('cpe:2.3:a:openssl:openssl:3.0.19:*:*:*:*:*:*:*');
    expect(cpeOf('curl', '8.5.0')).toBe('cpe:2.3:a:haxx:curl:8.5.0:*:*:*:*:*:*:*');
    expect(cpeOf('nope', '1')).toBeUndefined();
  });
});

/** A copy of an ELF file with section `index`'s size (64-bit little-endian) set to `size`. */
function withSectionSize(elf: Buffer, name: string, size: bigint): Buffer {
  const copy = Buffer.from(elf);
  const shoff = Number(copy.readBigUInt64LE(0x28));
  const shentsize = copy.readUInt16LE(0x3a);
  const shnum = copy.readUInt16LE(0x3c);
  const strtab = shoff + copy.readUInt16LE(0x3e) * shentsize;
  const names = Number(copy.readBigUInt64LE(strtab + 24));
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * shentsize;
    const at = names + copy.readUInt32LE(o);
    if (copy.toString('latin1', at, copy.indexOf(0, at)) === name) { copy.writeBigUInt64LE(size, o + 32); return copy; }
  }
  throw new Error(`no section ${name}`);
}

describe('damaged and foreign files', () => {
  const zlib = `${LIB}/libz.so.1`;

  it.skipIf(!present(zlib))('a truncated library: its section table is gone, a problem, and the bytes that remain are still read', async () => {
    const whole = bytes(zlib);
    const [target] = await extract(whole.subarray(0, whole.length - 512), 'lib/libz.so.1');
    expect(target!.problems).toEqual([expect.stringMatching(/^ELF 节表.*超出文件末尾：文件被截断或已损坏/)]);
    expect(target!.components.map((c) => c.name)).toEqual(['zlib']);
  });

  it.skipIf(!present(zlib))('an absurd section size: one problem, read up to the end of the file, no huge allocation', async () => {
    const damaged = withSectionSize(bytes(zlib), '.rodata', 0x7fff_ffff_ffffn);
    const [target] = await extract(damaged, 'lib/libz.so.1');
    expect(target!.problems).toEqual([expect.stringContaining('节 .rodata 的长度')]);
    expect(target!.components.map((c) => c.name)).toEqual(['zlib']);
  });

  it('a truncated ELF header, a 0-byte library, a linker script named libc.so, a text file in bin/: nothing read, no problem but the header', async () => {
    expect(await extract(Buffer.alloc(0), 'lib/libempty.so')).toEqual([]);
    expect(await extract(Buffer.from('/* GNU ld script */\nGROUP ( /lib/x86_64-linux-gnu/libc.so.6 )\n'.repeat(40)), 'usr/lib/libc.so')).toEqual([]);
    expect(await extract(Buffer.from('#!/bin/sh\necho OpenSSL 3.0.19 27 Jan 2026\n'.repeat(100)), 'usr/bin/fake')).toEqual([]);
    const head = Buffer.alloc(2048);
    head.write('\x7fELF\x02\x01\x01', 0, 'latin1');
    const [target] = await extract(head.subarray(0, 2048), 'lib/libcut.so');
    expect(target?.components ?? []).toEqual([]);
  });

  it.skipIf(!present(zlib))('scanned in a tree: the library read, the damaged one a problem, the linker script ignored', async () => {
    const whole = bytes(zlib);
    const result = await scan({
      'usr/lib/libz.so.1': whole,
      'usr/lib/libc.so': '/* GNU ld script */\nGROUP ( libc.so.6 )\n'.repeat(40),
      'broken/libz.so.1': withSectionSize(whole, '.rodata', 0xffff_ffffn),
    });
    expect(result.problems).toEqual([{ file: 'broken/libz.so.1', message: expect.stringContaining('超出文件末尾') }]);
    expect(result.targets.map((t) => [t.file, t.components.map((c) => c.name)])).toEqual([['broken/libz.so.1', ['zlib']], ['usr/lib/libz.so.1', ['zlib']]]);
  });

  it('a string across a chunk boundary is found once, at its offset', async () => {
    const big = Buffer.alloc((1 << 20) + 4096);
    const text = ' deflate 1.3.1 Copyright 1995-2024 Jean-loup Gailly and Mark Adler ';
    big.write('MZ', 0, 'latin1'); // An MZ file with no PE header is not an executable: use an ELF without sections.
    big.write('\x7fELF\x02\x01\x01', 0, 'latin1');
    const at = (1 << 20) - 10;
    big.write(text, at, 'latin1');
    const [target] = await extract(big, path.join('lib', 'libz.so'));
    expect(target!.components.map((c) => [c.purl, c.evidence![0]!.offset])).toEqual([['pkg:generic/zlib@1.3.1', at + 1]]);
  });
});
