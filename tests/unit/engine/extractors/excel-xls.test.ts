// Legacy Excel 97-2003 (.xls) component lists: workbooks written by the test-only BIFF8 + CFB
// writer (tests/support/xls-writer.ts), imported through the public API; hostile containers.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { importComponentList } from '../../../../server/engine/extractors/excel/index.ts';
import { decodeRk, formatNumber, openCfb, xlsSheets } from '../../../../server/engine/extractors/excel/xls.ts';
import type { XlsCell, XlsSheetSpec } from '../../../support/xls-writer.ts';
import { biffWorkbook, cfb, encodeRk, xlsFile } from '../../../support/xls-writer.ts';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(tmpdir(), 'cairn-xls-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const HEADER = ['组件名称', '版本', '语言', '生态', 'purl', '许可证', '备注'];
const LONG_REMARK = `${'中文说明'.repeat(40)} then a long latin tail ${'x'.repeat(9000)} 结束`;

async function write(name: string, content: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}
const input = (file: string) => ({ path: file, read: () => readFile(file) });
const importBuffer = async (name: string, buffer: Buffer) => importComponentList(input(await write(name, buffer)));

const rows: XlsCell[][] = [
  ['组件清单（导出自旧系统）'],
  [],
  HEADER,
  ['lodash', '4.17.21', 'JavaScript', 'npm', null, 'MIT', LONG_REMARK],
  ['fastjson', { rk: 1.2 }, 'Java', 'maven', 'pkg:maven/com.alibaba/fastjson@1.2.83', 'Apache-2.0', null],
  ['requests', 2, 'Python', 'pypi', null, 'Apache-2.0', { rich: '富文本备注', runs: 3, ext: 20 }],
  ['guava', { formula: '31.1-jre' }, 'Java', 'maven', 'pkg:maven/com.google.guava/guava', { label: 'Apache-2.0' }, true],
  ['numpy', 1.26, 'Python', 'pypi', null, 'BSD-3-Clause', null],
];

describe('xls reader — units', () => {
  it('decodes RK values (integer and ×100 flags) and formats numbers like Excel "General"', () => {
    for (const v of [0, 1, -7, 123456, 1.2, 0.5, 0.125, -3.25, 12.34, 2 ** 29 - 1]) expect(decodeRk(encodeRk(v)!)).toBeCloseTo(v, 12);
    expect(encodeRk(12.34)! & 0x03).toBe(0x03);
    expect(encodeRk(7)! & 0x03).toBe(0x02);
    expect(encodeRk(0.125)! & 0x03).toBe(0x00);
    expect(formatNumber(2)).toBe('2');
    expect(formatNumber(1.1)).toBe('1.1');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(1 / 3)).toBe('0.333333333333333');
    expect(formatNumber(Number.NaN)).toBe('');
  });

  it('reads every cell type, skipping rich runs and phonetic data in a SST split over CONTINUE records', async () => {
    for (const maxRecord of [8224, 200, 37]) {
      const { buffer } = xlsFile([{ name: '组件清单', rows }], { maxRecord });
      const [sheet] = xlsSheets(buffer);
      expect(sheet!.name).toBe('组件清单');
      const got = [];
      for await (const r of sheet!.rows) got.push(r);
      expect(got.map((r) => r.row)).toEqual([1, 3, 4, 5, 6, 7, 8]);
      expect(got[1]!.cells).toEqual(HEADER);
      expect(got[2]!.cells[6]).toBe(LONG_REMARK);
      expect(got[3]).toMatchObject({ cells: ['fastjson', '1.2', 'Java', 'maven', 'pkg:maven/com.alibaba/fastjson@1.2.83', 'Apache-2.0'], numeric: [1] });
      expect(got[4]!.cells.slice(0, 2)).toEqual(['requests', '2']);
      expect(got[4]!.cells[6]).toBe('富文本备注');
      expect(got[5]!.cells).toEqual(['guava', '31.1-jre', 'Java', 'maven', 'pkg:maven/com.google.guava/guava', 'Apache-2.0', 'TRUE']);
      expect(got[5]!.numeric).toBeUndefined();
    }
  });

  it('reads MULRK runs, numeric formula results and skips hidden sheets', async () => {
    const { buffer } = xlsFile([
      { name: 'hidden', hidden: true, rows: [['x']] },
      { name: 'data', rows: [[{ mulrk: [1, 2.5, 300] }, null, null, { formula: 4.5 }]] },
    ]);
    const sheets = xlsSheets(buffer);
    expect(sheets.map((s) => [s.name, s.hidden])).toEqual([['hidden', true], ['data', false]]);
    const got = [];
    for await (const r of sheets[1]!.rows) got.push(r);
    expect(got).toEqual([{ row: 1, cells: ['1', '2.5', '300', '4.5'], numeric: [0, 1, 2, 3] }]);
  });

  it('reads workbooks from the mini stream, from regular sectors, with a DIFAT sector, in 512- and 4096-byte sectors', () => {
    const small = biffWorkbook([{ name: 'S', rows: [['a']] }]);
    const big = biffWorkbook([{ name: 'S', rows: [['a'.repeat(6000)]] }]);
    expect(small.length).toBeLessThan(4096);
    expect(big.length).toBeGreaterThan(4096);
    const variants = [small, big].flatMap((stream) => ([512, 4096] as const).flatMap((sectorSize) => [false, true].map((difat) => [stream, { sectorSize, difat }] as const)));
    for (const [stream, options] of variants) {
      const { buffer, streamSectors } = cfb('Workbook', stream, options);
      expect(streamSectors.length > 0).toBe(stream === big);
      const file = openCfb(buffer);
      const entry = file.entries.find((e) => e.name === 'Workbook')!;
      expect(file.read(entry).equals(stream)).toBe(true);
    }
  });
});

describe('importComponentList — .xls', () => {
  it('imports rows to purls with spreadsheet row numbers, and warns about numeric versions', async () => {
    const { buffer } = xlsFile([{ name: '组件清单', rows }]);
    expect(buffer.length).toBeGreaterThan(4096); // in regular FAT sectors
    const result = await importBuffer('old.xls', buffer);
    expect(result.stats).toMatchObject({ format: 'xls', sheet: '组件清单', rows: 5, imported: 5 });
    expect(result.rejected).toEqual([]);
    expect(result.target.components.map((c) => [c.purl, c.locations[0]!.startLine])).toEqual([
      ['pkg:npm/lodash@4.17.21', 4],
      ['pkg:maven/com.alibaba/fastjson@1.2.83', 5],
      ['pkg:pypi/requests@2', 6],
      ['pkg:maven/com.google.guava/guava@31.1-jre', 7],
      ['pkg:pypi/numpy@1.26', 8],
    ]);
    expect(result.remarks.find((r) => r.row === 4)?.remark).toBe(LONG_REMARK);
    const numeric = result.warnings.filter((w) => w.reason.includes('数字格式'));
    expect(numeric.map((w) => w.row)).toEqual([5, 6, 8]);
  });

  it('imports a tiny workbook stored in the mini stream, and an .xls whatever its extension', async () => {
    const tiny: XlsSheetSpec[] = [{ name: 'Sheet1', rows: [['组件名称', '版本', '生态'], ['lodash', '4.17.21', 'npm']] }];
    const { buffer } = xlsFile(tiny);
    expect(buffer.length).toBeLessThan(4096);
    const v4 = xlsFile(tiny, { sectorSize: 4096 }).buffer;
    expect((await importBuffer('v4.xls', v4)).target.components.map((c) => c.purl)).toEqual(['pkg:npm/lodash@4.17.21']);
    for (const name of ['tiny.xls', 'tiny.xlsx', 'tiny.et', 'tiny']) {
      const result = await importBuffer(name, buffer);
      expect(result.target.components.map((c) => c.purl)).toEqual(['pkg:npm/lodash@4.17.21']);
      expect(result.stats.format).toBe('xls');
    }
  });

  it('honours a declared ANSI code page (GBK) for 8-bit strings', async () => {
    const gbk = iconv.encode('备注', 'gbk').toString('latin1'); // stored as 8-bit characters
    const { buffer } = xlsFile([{ name: 'S', rows: [['组件名称', '版本', '生态', gbk], ['lodash', '1.0.0', 'npm', '内部使用']] }], { codepage: 936 });
    const result = await importBuffer('gbk.xls', buffer);
    expect(result.remarks).toEqual([{ row: 2, purl: 'pkg:npm/lodash@1.0.0', remark: '内部使用' }]);
  });

  it('refuses encrypted, BIFF5 and non-workbook containers in Chinese', async () => {
    const sheet: XlsSheetSpec[] = [{ name: 'S', rows: [['组件名称'], ['a']] }];
    await expect(importBuffer('secret.xls', xlsFile(sheet, { filepass: true }).buffer)).rejects.toThrow('工作簿 secret.xls 设置了打开密码，请取消密码后再上传');
    await expect(importBuffer('old5.xls', xlsFile(sheet, { version: 0x0500 }).buffer)).rejects.toThrow(/Excel 5\.0\/95 或更早版本的格式.*另存为 \.xlsx/);
    await expect(importBuffer('book.xls', xlsFile(sheet, { streamName: 'Book', version: 0x0500 }).buffer)).rejects.toThrow(/Excel 5\.0\/95/);
    await expect(importBuffer('doc.xls', cfb('WordDocument', Buffer.alloc(5000, 1)).buffer)).rejects.toThrow(/不是 Excel 工作簿/);
    const noHeader = await importBuffer('nohead.xls', xlsFile([{ name: 'S', rows: [['a', 'b']] }]).buffer).catch((e: unknown) => e);
    expect(noHeader).toBeInstanceOf(ExtractError);
    expect((noHeader as Error).message).toMatch(/未找到表头/);
  });
});

describe('importComponentList — damaged .xls', () => {
  const good = () => xlsFile([{ name: '组件清单', rows }]);
  const expectCorrupt = async (name: string, buffer: Buffer) => {
    const error = await importBuffer(name, buffer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractError);
    expect((error as Error).message).toMatch(new RegExp(`文件 ${name.replace('.', '\\.')} 不是有效的 \\.xls 工作簿`));
  };

  it('a sector index out of range', async () => {
    const layout = good();
    const buffer = Buffer.from(layout.buffer);
    buffer.writeUInt32LE(99_999, 0x30); // first directory sector
    await expectCorrupt('baddir.xls', buffer);
    const fat = Buffer.from(layout.buffer);
    fat.writeUInt32LE(12_345, 512 + layout.streamSectors[0]! * 4); // a FAT entry of the stream's chain
    await expectCorrupt('badfat.xls', fat);
  });

  it('a FAT cycle does not hang', async () => {
    const layout = good();
    const buffer = Buffer.from(layout.buffer);
    const last = layout.streamSectors.at(-1)!;
    buffer.writeUInt32LE(layout.streamSectors[0]!, 512 + last * 4);
    await expectCorrupt('cycle.xls', buffer);
    const dirLoop = Buffer.from(layout.buffer);
    dirLoop.writeUInt32LE(layout.dirSector, 512 + layout.dirSector * 4);
    await expectCorrupt('dirloop.xls', dirLoop);
    const miniLoop = Buffer.from(xlsFile([{ name: 'S', rows: [['组件名称'], ['a']] }]).buffer);
    // The mini FAT (sector after the directory): its first entry pointing at itself.
    miniLoop.writeUInt32LE(0, 512 * (2 + 2));
    await expectCorrupt('miniloop.xls', miniLoop);
  });

  it('bad header fields, a huge declared size, truncation and broken BIFF records', async () => {
    const layout = good();
    const shift = Buffer.from(layout.buffer);
    shift.writeUInt16LE(20, 0x1e);
    await expectCorrupt('shift.xls', shift);
    const fats = Buffer.from(layout.buffer);
    fats.writeUInt32LE(0x7fffffff, 0x2c);
    await expectCorrupt('fats.xls', fats);
    const huge = Buffer.from(layout.buffer);
    huge.writeUInt32LE(0xfffffff0, 512 * (layout.dirSector + 1) + 128 + 0x78); // Workbook stream size
    await expectCorrupt('huge.xls', huge);
    await expectCorrupt('cut.xls', layout.buffer.subarray(0, 1536));
    await expectCorrupt('header.xls', layout.buffer.subarray(0, 300));
    // A record length running past the end of the stream.
    const biff = biffWorkbook([{ name: 'S', rows: [['组件名称'], ['a']] }]);
    biff.writeUInt16LE(0xffff, 2);
    await expectCorrupt('record.xls', cfb('Workbook', biff).buffer);
    // A sheet offset outside the stream.
    const offsets = biffWorkbook([{ name: 'S', rows: [['组件名称'], ['a']] }]);
    const at = offsets.indexOf(Buffer.from([0x85, 0x00]));
    offsets.writeUInt32LE(0x00ffffff, at + 4);
    await expectCorrupt('offset.xls', cfb('Workbook', offsets).buffer);
  });

  it('worksheets pointing at the same data are read once at most; an aborted import stops', async () => {
    const many = Array.from({ length: 200 }, (_, i) => [`no header ${i}`]);
    const biff = biffWorkbook([{ name: 'A', rows: many }, ...['B', 'C', 'D'].map((name) => ({ name, rows: [['x']] }))]);
    const sheets: number[] = [];
    for (let at = biff.indexOf(Buffer.from([0x85, 0x00])); at >= 0; at = biff.indexOf(Buffer.from([0x85, 0x00]), at + 1)) sheets.push(at);
    sheets.splice(4); // the BOUNDSHEET records, right after BOF and CODEPAGE (later hits are cell data)
    expect(sheets).toEqual([26, 39, 52, 65]);
    await expect(importBuffer('distinct.xls', cfb('Workbook', biff).buffer)).rejects.toThrow(/未找到表头/);
    for (const at of sheets.slice(1)) biff.writeUInt32LE(biff.readUInt32LE(sheets[0]! + 4), at + 4); // B, C, D := A
    await expectCorrupt('overlap.xls', cfb('Workbook', biff).buffer);
    const file = await write('abort.xls', xlsFile([{ name: 'S', rows }]).buffer);
    await expect(importComponentList(input(file), { signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it('random bytes after the OLE2 magic, and an OLE2 header with nothing after it', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      let x = seed;
      const bytes = Buffer.from(Array.from({ length: 4096 }, () => ((x = (x * 1103515245 + 12345) >>> 0) >>> 16) & 0xff));
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(bytes, 0);
      if (seed % 2) {
        // A plausible header, so the damage is met further in.
        bytes.writeUInt16LE(0xfffe, 0x1c);
        bytes.writeUInt16LE(9, 0x1e);
        bytes.writeUInt16LE(6, 0x20);
      }
      const error = await importBuffer(`random${seed}.xls`, bytes).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExtractError);
    }
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    await expectCorrupt('empty.xls', ole);
  });

  it('randomly damaged workbooks: a result or an ExtractError, never another error or a hang', async () => {
    const bases = [xlsFile([{ name: 'S', rows }], { maxRecord: 50 }).buffer, xlsFile([{ name: 'S', rows: [['组件名称'], ['a']] }]).buffer, xlsFile([{ name: 'S', rows }], { sectorSize: 4096 }).buffer];
    let x = 7;
    const random = (n: number) => ((x = (x * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let i = 0; i < 600; i++) {
      const bytes = Buffer.from(bases[i % bases.length]!);
      for (let k = 1 + random(8); k > 0; k--) bytes[random(bytes.length)] = random(256);
      const outcome = await importComponentList({ path: 'fuzz.xls', read: async () => bytes }).catch((e: unknown) => e);
      if (outcome instanceof Error) expect(outcome).toBeInstanceOf(ExtractError);
    }
  });

  it('random bytes named .xls (no OLE2 magic) are refused as not a workbook', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    await expect(importBuffer('noise.xls', bytes)).rejects.toThrow(/不是真正的 Excel 工作簿/);
  });
});

const soffice = (() => {
  for (const bin of ['soffice', 'libreoffice']) {
    try {
      execFileSync('which', [bin], { stdio: 'ignore' });
      return bin;
    } catch { /* not installed */ }
  }
  return undefined;
})();

describe.skipIf(!soffice)('importComponentList — .xls saved by LibreOffice', () => {
  it('an .xlsx converted to .xls by soffice imports like the original', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('组件清单');
    ws.addRow(['组件名称', '版本', '语言/生态', 'purl', '许可证', '备注']);
    ws.addRow(['lodash', '4.17.21', 'npm', null, 'MIT', LONG_REMARK]);
    ws.addRow(['requests', 2, 'pypi', null, 'Apache-2.0', null]);
    const work = await mkdtemp(path.join(dir, 'soffice-'));
    const source = path.join(work, 'list.xlsx');
    await wb.xlsx.writeFile(source);
    execFileSync(soffice!, ['--headless', `-env:UserInstallation=file://${work}/profile`, '--convert-to', 'xls', '--outdir', work, source], { stdio: 'ignore', timeout: 120_000 });
    expect(await readdir(work)).toContain('list.xls');
    const result = await importComponentList(input(path.join(work, 'list.xls')));
    expect(result.target.components.map((c) => [c.purl, c.locations[0]!.startLine])).toEqual([['pkg:npm/lodash@4.17.21', 2], ['pkg:pypi/requests@2', 3]]);
    expect(result.remarks[0]!.remark).toBe(LONG_REMARK);
    expect(result.warnings.some((w) => w.row === 3 && w.reason.includes('数字格式'))).toBe(true);
  }, 180_000);
});
