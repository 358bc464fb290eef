// `cairn licenses`: a tree with a full licence text, a tagged and copyrighted source file, a file
// with nothing in it and a binary file gives per-file SPDX ids with lines, and the copyright
// statements, holders and authors; bad arguments are refused in Chinese.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { licensesCommand, LicensesUsageError, type FileFindings } from '../../../cli/commands/licenses.ts';
import { licenseText } from '../../../server/engine/index.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-licenses-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('cairn licenses', () => {
  it('finds licences with line ranges and copyrights per file', async () => {
    const tree = path.join(work, 'project');
    mkdirSync(path.join(tree, 'src'), { recursive: true });
    writeFileSync(path.join(tree, 'LICENSE'), licenseText('Apache-2.0'));
    writeFileSync(path.join(tree, 'src', 'index.js'), [
      '// SPDX-License-Identifier: MIT',
      '// Copyright (c) 2019-2021 Example Widgets Inc.',
      '// @author Jane Doe <jane@example.com>',
      '',
      'export const answer = 42;',
    ].join('\n'));
    writeFileSync(path.join(tree, 'src', 'plain.js'), 'export const nothing = null;\n');
    writeFileSync(path.join(tree, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x49, 0x48]));

    const { output, summary } = await licensesCommand([tree]);
    const doc = JSON.parse(output) as { stats: { files: number; skipped: number }; files: FileFindings[] };
    expect(doc.stats).toMatchObject({ files: 3, skipped: 1 });
    expect(doc.files.map((f) => f.path)).toEqual(['LICENSE', 'src/index.js']);

    const license = doc.files[0]!;
    expect(license.licenses.map((l) => l.spdx)).toEqual(['Apache-2.0']);
    expect(license.licenses[0]).toMatchObject({ kind: 'text', startLine: 1 });
    expect(license.licenses[0]!.score).toBeGreaterThan(0.9);
    // One finding for the whole text, its appendix (the standard header) included.
    expect(license.licenses[0]!.endLine).toBe(licenseText('Apache-2.0').trimEnd().split('\n').length);

    const source = doc.files[1]!;
    expect(source.licenses).toEqual([expect.objectContaining({ spdx: 'MIT', kind: 'tag', startLine: 1, endLine: 1 })]);
    expect(source.copyrights).toEqual([{ value: 'Copyright (c) 2019-2021 Example Widgets Inc.', startLine: 2, endLine: 2 }]);
    expect(source.holders).toEqual([{ value: 'Example Widgets Inc.', startLine: 2, endLine: 2 }]);
    expect(source.authors.map((a) => a.value)).toEqual(['Jane Doe <jane@example.com>']);
    expect(summary).toMatch(/识别完成：读取 3 个文件/);
  });

  it('reads each file in its own encoding and binaries by their strings', async () => {
    const tree = path.join(work, 'encodings');
    mkdirSync(tree, { recursive: true });
    // Notepad's "Unicode": UTF-16LE with a byte-order mark.
    writeFileSync(path.join(tree, 'LICENSE.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(licenseText('MIT').replace(/\n/g, '\r\n'), 'utf16le')]));
    writeFileSync(path.join(tree, 'AUTHORS'), Buffer.from('Copyright (C) 2003 Jérôme Lefèvre\n', 'latin1'));
    // A shared library: ELF header, code, then its strings.
    const strings = ['Copyright (C) 2012 Example Widgets Inc.', 'Licensed under the Apache License, Version 2.0'];
    writeFileSync(path.join(tree, 'libwidget.so'), Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56), ...strings.map((s) => Buffer.from(`${s}\0`)), Buffer.alloc(8, 0xff)]));

    const { output } = await licensesCommand([tree]);
    const doc = JSON.parse(output) as { stats: { files: number; skipped: number }; files: FileFindings[] };
    expect(doc.stats).toMatchObject({ files: 3, skipped: 0 });
    const byPath = new Map(doc.files.map((f) => [f.path, f]));
    expect(byPath.get('LICENSE.txt')?.licenses.map((l) => [l.spdx, l.kind])).toEqual([['MIT', 'text']]);
    expect(byPath.get('AUTHORS')?.copyrights[0]?.value).toMatch(/^Copyright \(c\) 2003 J.r.me Lef.vre$/);
    expect(byPath.get('libwidget.so')?.licenses.map((l) => l.spdx)).toEqual(['Apache-2.0']);
    expect(byPath.get('libwidget.so')?.holders.map((h) => h.value)).toEqual(['Example Widgets Inc.']);
  });

  it('refuses a missing path and an unknown format', async () => {
    await expect(licensesCommand([path.join(work, 'nope')])).rejects.toThrow(LicensesUsageError);
    await expect(licensesCommand([work, '--format', 'xml'])).rejects.toThrow('不支持的输出格式：xml');
    await expect(licensesCommand([])).rejects.toThrow('用法：cairn licenses');
  });
});
