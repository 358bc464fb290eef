// Files read in their own encoding, and binaries by their strings. The fixtures are built here
// from known text, byte for byte as the tools that write them do: a LICENSE saved as "Unicode" by
// Windows Notepad (UTF-16LE with a BOM, CRLF lines), a Latin-1 COPYING with accented names, a
// GB18030 Chinese notice, and an ELF and a PE image with notices among their strings.
import { describe, expect, it } from 'vitest';
import { detectCopyrights } from '../../../server/engine/detectors/copyright/index.ts';
import { licenseText } from '../../../server/engine/matchers/licenses/knowledge.ts';
import { createLicenseRecognizer } from '../../../server/engine/matchers/licenses/recognize.ts';
import { binaryStrings, decodeText, MAX_STRINGS_CHARS, readableText } from '../../../server/engine/text-decode.ts';

const recognizer = createLicenseRecognizer();
const ids = (text: string): string[] => [...new Set(recognizer.recognize(text).map((m) => m.spdx))].sort();

const MIT = `Copyright (c) 2021 Contoso Ltd.\n\n${licenseText('MIT')}`;
const crlf = (s: string): string => s.replace(/\r?\n/g, '\r\n');

// "版权所有 (C) 2019-2023 华为技术有限公司。保留一切权利。" and "本软件依据 MIT 许可证发布。" in GB18030,
// as Python's gb18030 codec writes them.
const GB_NOTICE = Buffer.from('b0e6c8a8cbf9d3d02028432920323031392d3230323320bbaaceaabcbccaf5d3d0cfdeb9abcbbea1a3b1a3c1f4d2bbc7d0c8a8c0fba1a3', 'hex');
const GB_MIT = Buffer.from('b1bec8edbcfed2c0bedd204d495420d0edbfc9d6a4b7a2b2bca1a3', 'hex');

describe('readableText: text files in their own encoding', () => {
  it('reads a UTF-16LE LICENSE with a byte-order mark, as Windows tools write it', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(crlf(MIT), 'utf16le')]);
    // The old reading (NUL bytes: a binary) skipped it.
    expect(bytes.subarray(0, 8192).includes(0)).toBe(true);
    const { text, encoding } = readableText(bytes);
    expect(encoding).toBe('utf-16le');
    expect(text).toBe(crlf(MIT));
    expect(ids(text)).toEqual(['MIT']);
    expect(detectCopyrights(text).holders.map((h) => h.value)).toEqual(['Contoso Ltd.']);
  });

  it('reads UTF-16BE with a mark and UTF-16LE without one', () => {
    const be = Buffer.from(crlf(MIT), 'utf16le').swap16();
    expect(readableText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toEqual({ text: crlf(MIT), encoding: 'utf-16be' });
    expect(readableText(Buffer.from(MIT, 'utf16le'))).toEqual({ text: MIT, encoding: 'utf-16le' });
  });

  it('reads UTF-8 with and without a byte-order mark', () => {
    const text = 'Copyright © 2020 Jürgen Groß\n';
    expect(readableText(Buffer.from(text))).toEqual({ text, encoding: 'utf-8' });
    expect(readableText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toEqual({ text, encoding: 'utf-8' });
  });

  it('falls back to Latin-1 / Windows-1252 for a COPYING with accented names', () => {
    const notice = 'Copyright (C) 1998 François Pinard, Jérôme Müller et Søren Ærø\n';
    const { text, encoding } = readableText(Buffer.from(notice, 'latin1'));
    expect(encoding).toBe('windows-1252');
    expect(text).toBe(notice);
    expect(detectCopyrights(text).copyrights.map((c) => c.value)).toEqual([expect.stringMatching(/^Copyright \(c\) 1998 Fran.ois Pinard, J.r.me M.ller et S.ren/)]);
    // Windows-1252's own characters: curly quotes and the euro sign.
    expect(decodeText(Buffer.from([0x93, 0x41, 0x53, 0x20, 0x49, 0x53, 0x94, 0x20, 0x80]))).toEqual({ text: '“AS IS” €', encoding: 'windows-1252' });
  });

  it('reads a GB18030 Chinese notice as Chinese, not as Latin-1', () => {
    const bytes = Buffer.concat([GB_NOTICE, Buffer.from('\n'), GB_MIT, Buffer.from('\n')]);
    const { text, encoding } = readableText(bytes);
    expect(encoding).toBe('gb18030');
    expect(text).toBe('版权所有 (C) 2019-2023 华为技术有限公司。保留一切权利。\n本软件依据 MIT 许可证发布。\n');
    expect(detectCopyrights(text).copyrights.length).toBeGreaterThan(0);
  });

  it('does not take Latin-1 text with a few accented letters for Chinese', () => {
    for (const s of ['Jérôme', 'Müller und Söhne, Köln', 'Mañana — café', 'Ærø']) {
      expect(decodeText(Buffer.from(`Copyright 2001 ${s}\n`, 'latin1')).encoding).toBe('windows-1252');
    }
  });
});

/** A small ELF image: header, some machine code and data, then .rodata with the strings. */
function elfWith(strings: string[]): Buffer {
  const header = Buffer.alloc(64);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(header);
  const code = Buffer.from([0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x10, 0x89, 0x7d, 0xfc, 0xc9, 0xc3, 0x0f, 0x1f, 0x00, 0x90, 0x90]);
  const rodata = Buffer.concat(strings.map((s) => Buffer.concat([Buffer.from(s), Buffer.from([0])])));
  return Buffer.concat([header, code, Buffer.alloc(32), rodata, Buffer.alloc(16, 0xff)]);
}

/** A small PE image: MZ stub, then a version resource whose values are UTF-16LE strings. */
function peWith(values: string[]): Buffer {
  const stub = Buffer.alloc(128);
  stub.write('MZ', 0, 'latin1');
  stub.write('This program cannot be run in DOS mode.', 78, 'latin1');
  const resource = Buffer.concat(values.map((v) => Buffer.concat([Buffer.from([0x2c, 0x00, 0x01, 0x00]), Buffer.from(`${v}\0`, 'utf16le'), Buffer.alloc(2)])));
  return Buffer.concat([stub, Buffer.from('PE\0\0', 'latin1'), Buffer.alloc(40), resource]);
}

describe('readableText: binaries by their printable strings', () => {
  it('reads the notice of a shared library', () => {
    const so = elfWith([
      'libfoo.so.1',
      'Copyright (C) 2015 Free Software Foundation, Inc.',
      'This library is free software; you can redistribute it and/or modify it under the terms of the GNU Lesser General Public License as published by the Free Software Foundation; either version 2.1 of the License, or (at your option) any later version.',
      '%d/%d',
    ]);
    const { text, encoding } = readableText(so);
    expect(encoding).toBe('binary');
    expect(text.split('\n')).toContain('Copyright (C) 2015 Free Software Foundation, Inc.');
    // Short runs ("%d/%d", bits of machine code) are not strings.
    expect(text).not.toContain('%d/%d');
    expect(ids(text)).toEqual(['LGPL-2.1-or-later']);
    expect(detectCopyrights(text).holders.map((h) => h.value)).toEqual(['Free Software Foundation, Inc.']);
  });

  it('reads a DLL version resource written in UTF-16LE, © and Chinese included', () => {
    const dll = peWith(['CompanyName', 'Contoso Ltd.', 'LegalCopyright', 'Copyright © 2021 Contoso Ltd.', '版权所有 (C) 2021 华为技术有限公司']);
    const lines = readableText(dll).text.split('\n');
    expect(lines).toContain('This program cannot be run in DOS mode.');
    expect(lines).toContain('LegalCopyright');
    expect(lines).toContain('Copyright © 2021 Contoso Ltd.');
    expect(lines).toContain('版权所有 (C) 2021 华为技术有限公司');
    expect(detectCopyrights(lines.join('\n')).holders.map((h) => h.value)).toContain('Contoso Ltd.');
  });

  it('does not take machine code or NUL-separated ASCII for text', () => {
    // C strings one after another: not UTF-16 "ideographs" (73 71 6c 69 … would read as 煳楬…).
    expect(binaryStrings(Buffer.from('\0sqlite3_free\0sqlite3_malloc\0sqlite3_open_v2\0', 'latin1')).split('\n')).toEqual(['sqlite3_free', 'sqlite3_malloc', 'sqlite3_open_v2']);
    // Valid UTF-8 by chance inside code ("9©Ú"): no copyright sign out of it.
    const code = Buffer.concat([Buffer.from([0x01]), Buffer.from(')Z%iEi%:)Z9©Ú):):):'), Buffer.from([0x02])]);
    expect(binaryStrings(code)).not.toContain('©');
    expect(detectCopyrights(binaryStrings(code)).copyrights).toEqual([]);
  });

  it('keeps UTF-8 text inside a string whole and bounds the output', () => {
    expect(binaryStrings(Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('Copyright © 2020 Jürgen Groß'), Buffer.from([0, 0xff, 0xfe, 0])]))).toBe('Copyright © 2020 Jürgen Groß');
    const big = Buffer.concat(Array.from({ length: 2000 }, (_, i) => Buffer.from(`string number ${i} of many\0`)));
    expect(binaryStrings(big, 1000).length).toBeLessThanOrEqual(1000);
    expect(binaryStrings(big).length).toBeLessThanOrEqual(MAX_STRINGS_CHARS);
    expect(binaryStrings(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x49, 0x48]))).toBe('');
  });
});
