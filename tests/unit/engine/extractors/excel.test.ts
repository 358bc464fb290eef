// Excel / CSV component lists (getCodeType 34): real .xlsx files written with exceljs and CSVs in
// UTF-8, UTF-8 with BOM and GBK, imported through the public API.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import type { Component } from '../../../../server/engine/model.ts';
import { excelListExtractor, extractors, importComponentList, lookupEcosystem, splitLicenses } from '../../../../server/engine/extractors/excel/index.ts';
import { cfb } from '../../../support/xls-writer.ts';
import { expectClaims } from './extractor.ts';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(tmpdir(), 'cairn-excel-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

type Cell = string | number | null;
const HEADER = ['组件名称', '版本', '语言/生态', 'purl', '许可证', '备注'];

async function xlsx(name: string, rows: Cell[][], sheetName = '组件清单'): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  rows.forEach((r, i) => { ws.getRow(i + 1).values = r.map((v) => v ?? undefined) as ExcelJS.CellValue[]; });
  const file = path.join(dir, name);
  await wb.xlsx.writeFile(file);
  return file;
}

async function write(name: string, content: Buffer | string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

/** A zip of stored (uncompressed) entries, in the given order. */
function storedZip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.from(content);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(0x0800, 6); local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16); central.writeUInt32LE(data.length, 20); central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28); central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  const count = Object.keys(entries).length;
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(count, 8); end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralSize, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

const input = (file: string) => ({ path: file, read: () => readFile(file) });
const byName = (components: Component[], name: string) => components.find((c) => c.name === name);

describe('importComponentList — .xlsx', () => {
  it('imports good rows with canonical purls, licences and locations', async () => {
    const file = await xlsx('good.xlsx', [
      HEADER,
      ['org.slf4j:slf4j-api', '1.7.36', 'Java', null, 'MIT', '日志门面'],
      ['com.google.guava/guava', '32.1.2-jre', 'Maven', null, 'Apache License, Version 2.0', null],
      ['@babel/core', '7.23.0', 'JavaScript', null, 'MIT', null],
      ['Django_Rest', '3.14.0', 'Python', null, 'BSD-3-Clause', null],
      ['github.com/gorilla/mux', '1.8.0', 'Go', null, null, null],
      ['serde', '1.0.188', 'Rust', null, 'MIT OR Apache-2.0', null],
      ['rails', '7.0.8', 'Ruby', null, 'MIT', null],
      ['laravel/framework', '10.0.0', 'PHP', null, 'MIT', null],
      ['Newtonsoft.Json', '13.0.1', '.NET', null, 'MIT', null],
      ['zlib/1.2.13', null, 'C/C++', null, 'Zlib', null],
      ['github.com/apple/swift-nio', '2.58.0', 'Swift', null, 'Apache-2.0', null],
      ['http', '1.1.0', 'Dart', null, 'BSD-3-Clause', null],
      ['phoenix', '1.7.7', 'Elixir', null, 'MIT', null],
      ['openssl', '1.1.1k', 'CentOS', null, 'OpenSSL', null],
      ['my-lib', '2.0', '其他', null, 'MIT；Apache-2.0、BSD-2-Clause/ISC', null],
      [null, null, null, 'pkg:npm/lodash@4.17.21', 'MIT', null],
      ['numpy', 1.26, 'Python', null, null, null],
    ]);
    const { target, rejected, warnings, remarks, stats } = await importComponentList(input(file));
    expect(rejected).toEqual([]);
    expect(target.type).toBe('excel');
    expect(target.file).toBe(file);
    expect(target.ecosystem).toBe('generic');
    expect(stats).toMatchObject({ format: 'xlsx', sheet: '组件清单', rows: 17, imported: 17 });
    expect(target.components.map((c) => c.purl)).toEqual([
      'pkg:maven/org.slf4j/slf4j-api@1.7.36',
      'pkg:maven/com.google.guava/guava@32.1.2-jre',
      'pkg:npm/%40babel/core@7.23.0',
      'pkg:pypi/django-rest@3.14.0',
      'pkg:golang/github.com/gorilla/mux@v1.8.0',
      'pkg:cargo/serde@1.0.188',
      'pkg:gem/rails@7.0.8',
      'pkg:composer/laravel/framework@10.0.0',
      'pkg:nuget/Newtonsoft.Json@13.0.1',
      'pkg:conan/zlib@1.2.13',
      'pkg:swift/github.com/apple/swift-nio@2.58.0',
      'pkg:pub/http@1.1.0',
      'pkg:hex/phoenix@1.7.7',
      'pkg:rpm/centos/openssl@1.1.1k',
      'pkg:generic/my-lib@2.0',
      'pkg:npm/lodash@4.17.21',
      'pkg:pypi/numpy@1.26',
    ]);
    expect(target.roots).toEqual(target.components.map((c) => c.purl));
    const slf4j = byName(target.components, 'org.slf4j:slf4j-api')!;
    expect(slf4j).toEqual({
      purl: 'pkg:maven/org.slf4j/slf4j-api@1.7.36', ecosystem: 'maven', name: 'org.slf4j:slf4j-api', version: '1.7.36',
      direct: true, scope: 'runtime', locations: [{ file, startLine: 2 }], licenses: ['MIT'], dependsOn: [],
    });
    expect(byName(target.components, 'com.google.guava:guava')!.licenses).toEqual(['Apache License, Version 2.0']);
    expect(byName(target.components, 'serde')!.licenses).toEqual(['MIT OR Apache-2.0']);
    expect(byName(target.components, 'my-lib')!.licenses).toEqual(['MIT', 'Apache-2.0', 'BSD-2-Clause', 'ISC']);
    expect(byName(target.components, 'zlib')!.version).toBe('1.2.13');
    expect(byName(target.components, 'github.com/gorilla/mux')!.version).toBe('v1.8.0');
    expect(byName(target.components, 'laravel/framework')!.ecosystem).toBe('composer');
    expect(byName(target.components, 'lodash')!.locations).toEqual([{ file, startLine: 17 }]);
    expect(target.components.every((c) => c.direct && c.scope === 'runtime')).toBe(true);
    expect(remarks).toEqual([{ row: 2, purl: 'pkg:maven/org.slf4j/slf4j-api@1.7.36', remark: '日志门面' }]);
    // A version Excel stored as a number may have lost a trailing 0: imported, with a note.
    expect(warnings).toEqual([
      { row: 18, reason: '第 18 行：版本“1.26”在 Excel 中是数字格式，末尾的 0 可能已丢失（如 1.10 会变成 1.1、2.0 会变成 2），请将版本列设为文本格式后核对' },
    ]);
  });

  it('reports rows it cannot understand by spreadsheet row number, imports the rest', async () => {
    const file = await xlsx('bad.xlsx', [
      HEADER,
      ['org.slf4j:slf4j-api', '1.7.36', 'Java', null, null, null],
      [],
      ['legacy-ledger', '1.0', 'Cobol', null, null, null],
      [null, '1.0', 'Java', null, null, null],
      ['x', '1.0', 'Java', 'npm/lodash@1', null, null],
      ['slf4j-api', '1.7.36', 'Java', null, null, null],
      ['requests', null, 'Python', null, null, null],
      ['something', '1.0', null, null, null, null],
      ['org.yaml:snakeyaml', '2.0', null, null, null, null],
      ['swift-nio', '2.0.0', 'Swift', null, null, null],
      ['lodash', 'latest', 'npm', null, null, null],
      [null, null, null, 'pkg:maven/guava@1', null, null],
    ]);
    const { target, rejected, warnings, stats } = await importComponentList(input(file));
    expect(rejected).toEqual([
      { row: 4, reason: '第 4 行：无法识别的生态“Cobol”，请填写 purl' },
      { row: 5, reason: '第 5 行：缺少组件名称：请填写组件名称，或填写 purl' },
      { row: 6, reason: '第 6 行：purl“npm/lodash@1”无效：应以 pkg: 开头，如 pkg:maven/org.slf4j/slf4j-api@1.7.36' },
      { row: 7, reason: '第 7 行：Maven 组件名称“slf4j-api”应写作 groupId:artifactId（如 org.slf4j:slf4j-api），或填写 purl' },
      { row: 9, reason: '第 9 行：未填写语言/生态：请填写语言/生态（如 Java、Python），或填写 purl' },
      { row: 11, reason: '第 11 行：Swift 组件名称应包含来源路径（如 github.com/apple/swift-nio），或填写 purl' },
      { row: 13, reason: '第 13 行：purl“pkg:maven/guava@1”无效：maven 类型必须包含命名空间' },
    ]);
    expect(target.components.map((c) => c.purl)).toEqual([
      'pkg:maven/org.slf4j/slf4j-api@1.7.36',
      'pkg:pypi/requests',
      'pkg:maven/org.yaml/snakeyaml@2.0',
      'pkg:npm/lodash',
    ]);
    expect(warnings).toEqual([
      { row: 8, reason: '第 8 行：未填写版本，按未知版本处理' },
      { row: 10, reason: '第 10 行：未填写语言/生态，按 Maven 坐标（groupId:artifactId）识别' },
      { row: 12, reason: '第 12 行：版本“latest”不是确定的版本，按未知版本处理' },
    ]);
    expect(stats).toMatchObject({ rows: 11, imported: 4 });
  });

  it('lets a valid purl win over the other columns and notes the disagreement', async () => {
    const file = await xlsx('purl.xlsx', [
      HEADER,
      ['log4j', '2.14.0', 'Python', 'pkg:maven/org.apache.logging.log4j/log4j-core@2.17.1', null, null],
      ['guava', '32.1.2-jre', 'Java', 'pkg:maven/com.google.guava/guava', null, null],
      ['gorilla', '1.8.0', 'Go', 'pkg:golang/github.com/gorilla/mux', null, null],
      ['PyYAML', null, 'Python', 'pkg:pypi/PyYAML@6.0.1', null, null],
      [null, null, null, 'pkg:github/package-url/purl-spec@1.0', null, null],
      [null, null, null, 'pkg:deb/debian/curl@7.88.1-10?arch=amd64', null, null],
    ]);
    const { target, rejected, warnings } = await importComponentList(input(file));
    expect(rejected).toEqual([]);
    expect(target.components.map((c) => [c.purl, c.ecosystem, c.name, c.version])).toEqual([
      ['pkg:maven/org.apache.logging.log4j/log4j-core@2.17.1', 'maven', 'org.apache.logging.log4j:log4j-core', '2.17.1'],
      ['pkg:maven/com.google.guava/guava@32.1.2-jre', 'maven', 'com.google.guava:guava', '32.1.2-jre'],
      ['pkg:golang/github.com/gorilla/mux@v1.8.0', 'golang', 'github.com/gorilla/mux', 'v1.8.0'],
      ['pkg:pypi/pyyaml@6.0.1', 'pypi', 'pyyaml', '6.0.1'],
      ['pkg:github/package-url/purl-spec@1.0', 'generic', 'package-url/purl-spec', '1.0'],
      ['pkg:deb/debian/curl@7.88.1-10?arch=amd64', 'deb', 'curl', '7.88.1-10'],
    ]);
    expect(warnings.map((w) => w.reason)).toEqual([
      '第 2 行：版本列“2.14.0”与 purl 中的版本“2.17.1”不一致，以 purl 为准',
      '第 2 行：语言/生态“Python”与 purl 类型 maven 不一致，以 purl 为准',
      '第 2 行：组件名称“log4j”与 purl 中的名称“org.apache.logging.log4j:log4j-core”不一致，以 purl 为准',
      '第 4 行：组件名称“gorilla”与 purl 中的名称“github.com/gorilla/mux”不一致，以 purl 为准',
      '第 6 行：purl 类型“github”暂无对应的生态支持，按通用组件记录',
    ]);
  });

  it('merges duplicate rows, keeping every row as a location and the union of licences', async () => {
    const file = await xlsx('dup.xlsx', [
      HEADER,
      ['org.slf4j:slf4j-api', '1.7.36', 'Java', null, 'MIT', null],
      ['org.slf4j/slf4j-api', '1.7.36', 'Maven', null, 'MIT, Apache-2.0', null],
      [null, null, null, 'pkg:maven/org.slf4j/slf4j-api@1.7.36', null, null],
    ]);
    const { target, warnings, stats } = await importComponentList(input(file));
    expect(target.components).toHaveLength(1);
    expect(target.components[0]!.locations).toEqual([{ file, startLine: 2 }, { file, startLine: 3 }, { file, startLine: 4 }]);
    expect(target.components[0]!.licenses).toEqual(['MIT', 'Apache-2.0']);
    expect(target.ecosystem).toBe('maven');
    expect(warnings.map((w) => w.reason)).toEqual(['第 3 行：与第 2 行重复，已合并', '第 4 行：与第 2 行重复，已合并']);
    expect(stats).toMatchObject({ rows: 3, imported: 1, duplicates: 2 });
  });

  it('matches the header tolerantly, below a title row, in any column order, on any sheet', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('封面').addRow(['某某系统开源组件清单']);
    const ws = wb.addWorksheet('Sheet2');
    ws.addRow(['某某系统开源组件清单（2024 年）']);
    ws.addRow([]);
    ws.addRow([' Ｒｅｍａｒｋ ', 'LICENSE', 'Ecosystem', 'Version', '组件名称（必填）*', 'PURL']);
    ws.addRow(['备注一', 'MIT', 'ＪａｖａＳｃｒｉｐｔ', '１．２．３', 'left-pad', null]);
    ws.addRow([null, null, 'Java（Maven）', '1.0', 'com.example:demo', null]);
    ws.getCell('D7').value = { richText: [{ text: '2.' }, { text: '0' }] };
    ws.getCell('E7').value = { text: 'express', hyperlink: 'https://expressjs.com' };
    ws.getCell('C7').value = { formula: 'C4', result: 'JavaScript' };
    const file = path.join(dir, 'header.xlsx');
    await wb.xlsx.writeFile(file);
    const { target, rejected, remarks, stats } = await importComponentList(input(file));
    expect(rejected).toEqual([]);
    expect(stats.sheet).toBe('Sheet2');
    expect(target.components.map((c) => c.purl)).toEqual(['pkg:npm/left-pad@1.2.3', 'pkg:maven/com.example/demo@1.0', 'pkg:npm/express@2.0']);
    expect(target.components[0]!.locations).toEqual([{ file, startLine: 4 }]);
    expect(remarks).toEqual([{ row: 4, purl: 'pkg:npm/left-pad@1.2.3', remark: '备注一' }]);
  });

  it('reads inline strings and has no need of shared strings or styles (as Java/WPS exporters write)', async () => {
    const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const file = await write('inline.xlsx', storedZip({
      '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="清单" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns}"><sheetData>`
        + `<row r="1">${inline('A1', '组件名称')}${inline('B1', '版本')}${inline('C1', '语言/生态')}</row>`
        + `<row r="3">${inline('A3', 'fastjson')}${inline('B3', '1.2.83')}${inline('C3', 'Java')}</row>`
        + `<row r="4">${inline('A4', 'com.alibaba:fastjson')}${inline('B4', '1.2.83')}${inline('C4', 'Java')}</row>`
        + `<row r="5">${inline('A5', 'jinja2')}<c r="B5"><v>3</v></c>${inline('C5', 'Python')}</row>`
        + '</sheetData></worksheet>',
    }));
    const { target, rejected, warnings, stats } = await importComponentList(input(file));
    expect(stats.sheet).toBe('清单');
    expect(target.components.map((c) => [c.purl, c.locations[0]!.startLine])).toEqual([['pkg:maven/com.alibaba/fastjson@1.2.83', 4], ['pkg:pypi/jinja2@3', 5]]);
    expect(rejected.map((r) => r.row)).toEqual([3]);
    expect(warnings.map((w) => w.row)).toEqual([5]);
  });

  it('fails clearly when no sheet has a header', async () => {
    const file = await xlsx('noheader.xlsx', [['a', 'b'], ['c', 'd']]);
    await expect(importComponentList(input(file))).rejects.toThrow(/未找到表头.*组件名称/);
    await expect(importComponentList(input(file))).rejects.toBeInstanceOf(ExtractError);
  });

  it('refuses more rows than the limit with a clear error', async () => {
    const rows: Cell[][] = [HEADER];
    for (let i = 0; i < 150; i++) rows.push([`pkg-${i}`, '1.0.0', 'npm', null, null, null]);
    const file = await xlsx('limit.xlsx', rows);
    const spooled = async () => (await readdir(tmpdir())).filter((f) => f.startsWith(`tmp-${process.pid}-`));
    const before = await spooled();
    await expect(importComponentList(input(file), { maxRows: 100 })).rejects.toThrow('组件清单超过 100 行的上限（第 102 行），请拆分为多个文件后分别上传');
    expect(await spooled()).toEqual(before); // no worksheet spooled to a temporary file and left behind
    const ok = await importComponentList(input(file), { maxRows: 150 });
    expect(ok.target.components).toHaveLength(150);
  });

  it('streams a 20 000-row workbook', async () => {
    const file = path.join(dir, 'big.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
    const ws = writer.addWorksheet('组件清单');
    ws.addRow(HEADER).commit();
    for (let i = 0; i < 20_000; i++) ws.addRow([`com.example.g${i % 50}:artifact-${i}`, `1.${i % 100}.0`, 'Java', null, 'Apache-2.0', null]).commit();
    ws.commit();
    await writer.commit();
    const { target, rejected, stats } = await importComponentList(input(file));
    expect(rejected).toEqual([]);
    expect(stats.rows).toBe(20_000);
    expect(target.components).toHaveLength(20_000);
    expect(target.components[19_999]).toMatchObject({ purl: 'pkg:maven/com.example.g49/artifact-19999@1.99.0', locations: [{ file, startLine: 20_001 }] });
  }, 60_000);

  it('honours an aborted signal', async () => {
    const file = await xlsx('abort.xlsx', [HEADER, ['a', '1', 'npm', null, null, null]]);
    await expect(importComponentList(input(file), { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe('importComponentList — refused and malformed files', () => {
  const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);

  it('exceljs cannot read a legacy .xls (an OLE2 container); ours is read (excel-xls.test.ts), a damaged one refused in Chinese', async () => {
    await expect(new ExcelJS.Workbook().xlsx.load(ole as unknown as ArrayBuffer)).rejects.toThrow();
    const file = await write('old.xls', ole);
    await expect(importComponentList(input(file))).rejects.toThrow(/^文件 old\.xls 不是有效的 \.xls 工作簿（.*），请在 Excel 或 WPS 中重新另存为 \.xlsx 后上传$/);
    await expect(importComponentList(input(file))).rejects.toBeInstanceOf(ExtractError);
    // The same container renamed to .xlsx: recognised by its content
    const renamed = await write('renamed.xlsx', ole);
    await expect(importComponentList(input(renamed))).rejects.toThrow(/不是有效的 \.xls 工作簿/);
    // An .xlsx protected by an open password is an OLE2 container with an EncryptionInfo stream.
    const encrypted = await write('secret.xlsx', cfb('EncryptionInfo', Buffer.alloc(300, 1)).buffer);
    await expect(importComponentList(input(encrypted))).rejects.toThrow('工作簿 secret.xlsx 设置了打开密码，请取消密码后再上传');
    // ... also when the container is damaged but names that stream
    const damaged = await write('damaged-secret.xlsx', Buffer.concat([ole, Buffer.from('EncryptionInfo', 'utf16le')]));
    await expect(importComponentList(input(damaged))).rejects.toThrow(/设置了打开密码/);
    // An HTML table exported under an .xls name is refused too; a real .xlsx under that name is read.
    await expect(importComponentList(input(await write('export.xls', '<table><tr><td>组件名称</td></tr></table>')))).rejects.toThrow(
      '文件 export.xls 不是真正的 Excel 工作簿（可能是网页导出的表格），请在 Excel 或 WPS 中打开后另存为 .xlsx 或 .csv 再上传',
    );
    const xlsxNamedXls = await write('really-xlsx.xls', await readFile(await xlsx('really.xlsx', [HEADER, ['lodash', '4.17.21', 'npm', null, null, null]])));
    expect((await importComponentList(input(xlsxNamedXls))).target.components.map((c) => c.purl)).toEqual(['pkg:npm/lodash@4.17.21']);
  });

  it('random bytes named .xlsx -> ExtractError in Chinese', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    const file = await write('random.xlsx', bytes);
    const error = await importComponentList(input(file)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractError);
    expect((error as Error).message).toBe('文件 random.xlsx 不是有效的 .xlsx 工作簿（文件已损坏或并非 Excel 格式），请在 Excel 或 WPS 中重新另存为 .xlsx 后上传');
  });

  it('a truncated workbook and a zip that is not a workbook -> ExtractError', async () => {
    const good = await readFile(await xlsx('whole.xlsx', [HEADER, ['a', '1', 'npm', null, null, null]]));
    const cut = await write('cut.xlsx', good.subarray(0, Math.floor(good.length / 2)));
    await expect(importComponentList(input(cut))).rejects.toThrow(/不是有效的 .xlsx 工作簿/);
    const docx = await write('notbook.xlsx', storedZip({ 'word/document.xml': '<w:document/>' }));
    await expect(importComponentList(input(docx))).rejects.toThrow(/不是 Excel 工作簿/);
  });

  it('empty files and unsupported types', async () => {
    await expect(importComponentList(input(await write('empty.csv', '')))).rejects.toThrow('文件 empty.csv 是空文件');
    await expect(importComponentList(input(await write('list.ods', 'x')))).rejects.toThrow(/另存为 .xlsx 或 .csv/);
    await expect(importComponentList(input(await write('list.pdf', '%PDF-1.4')))).rejects.toThrow(/不支持的文件类型 .pdf/);
    await expect(importComponentList(input(await write('big.csv', 'x'.repeat(2048))), { maxBytes: 1024 })).rejects.toThrow(/超过/);
  });
});

describe('importComponentList — CSV', () => {
  const csv = [
    '组件名称,版本,语言/生态,purl,许可证,备注',
    'org.slf4j:slf4j-api,1.7.36,Java,,MIT,日志',
    '',
    '"@babel/core",7.23.0,JavaScript,,"MIT, Apache-2.0",',
    'legacy,1.0,Cobol,,,',
    '木兰组件,2.0,其他,,"木兰宽松许可证，第2版","多行',
    '备注"',
    'lodash,4.17.21,npm,,,',
  ].join('\r\n');
  const expectImported = async (file: string, encoding: string) => {
    const { target, rejected, remarks, stats } = await importComponentList(input(file));
    expect(stats).toMatchObject({ format: 'csv', encoding, rows: 5, blank: 1, imported: 4 });
    expect(target.components.map((c) => c.purl)).toEqual([
      'pkg:maven/org.slf4j/slf4j-api@1.7.36',
      'pkg:npm/%40babel/core@7.23.0',
      'pkg:generic/%E6%9C%A8%E5%85%B0%E7%BB%84%E4%BB%B6@2.0',
      'pkg:npm/lodash@4.17.21',
    ]);
    expect(target.components[2]!.name).toBe('木兰组件');
    expect(target.components[2]!.licenses).toEqual(['木兰宽松许可证, 第2版']);
    expect(target.components[1]!.licenses).toEqual(['MIT', 'Apache-2.0']);
    // Rows as Excel numbers them: the blank line counts, a quoted line break does not.
    expect(rejected).toEqual([{ row: 5, reason: '第 5 行：无法识别的生态“Cobol”，请填写 purl' }]);
    expect(target.components[3]!.locations[0]!.startLine).toBe(7);
    expect(remarks.map((r) => r.remark)).toEqual(['日志', '多行\r\n备注']);
  };

  it('UTF-8 without BOM', async () => { await expectImported(await write('list.csv', csv), 'utf-8'); });
  it('a quote left open is a clear error', async () => {
    const file = await write('open.csv', '组件名称,版本,语言/生态\nlodash,"4.17.21,npm\n');
    await expect(importComponentList(input(file))).rejects.toThrow(/CSV 文件 open.csv 格式不正确：第 \d+ 行附近的引号没有闭合/);
    await expect(importComponentList(input(file))).rejects.toBeInstanceOf(ExtractError);
  });
  it('UTF-8 with BOM', async () => { await expectImported(await write('bom.csv', `\ufeff${csv}`), 'utf-8'); });
  it('GBK (Chinese Excel "CSV（逗号分隔）")', async () => {
    const gbk = iconv.encode(csv, 'gbk');
    expect(gbk.equals(Buffer.from(csv))).toBe(false);
    await expectImported(await write('gbk.csv', gbk), 'gb18030');
  });
  it('UTF-16 with BOM, tab separated (Excel "Unicode 文本")', async () => {
    const tsv = csv.replace(/,/g, '\t').replace('"MIT\t Apache-2.0"', '"MIT, Apache-2.0"').replace('木兰宽松许可证，第2版', '木兰宽松许可证，第2版');
    await expectImported(await write('unicode.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tsv, 'utf16le')])), 'utf-16le');
  });
  it('a bare list of purls', async () => {
    const file = await write('purls.csv', 'purl\npkg:cargo/serde@1.0.188\npkg:gem/rails@7.0.8\n');
    const { target } = await importComponentList(input(file));
    expect(target.components.map((c) => c.purl)).toEqual(['pkg:cargo/serde@1.0.188', 'pkg:gem/rails@7.0.8']);
  });
  it('the ecosystems of issue 17 by their usual names', async () => {
    const rows = ['组件名称,版本,语言/生态', 'lpeg,1.0.2-1,Lua', 'alcotest,1.5.0,OCaml', 'glibc,2.34-210,Nix', 'openssl@3,3.2.1,Homebrew', 'Archive_Tar,1.4.14,PEAR', 'memcached,3.2.0,PECL', 'akismet,5.0.2,WordPress', 'rules_python,1.4.1,Bazel'];
    const { target } = await importComponentList(input(await write('new.csv', `${rows.join('\n')}\n`)));
    expect(target.components.map((c) => [c.purl, c.name])).toEqual([
      ['pkg:luarocks/lpeg@1.0.2-1', 'lpeg'], ['pkg:opam/alcotest@1.5.0', 'alcotest'], ['pkg:nix/glibc@2.34-210', 'glibc'], ['pkg:brew/openssl%403@3.2.1', 'openssl@3'],
      ['pkg:pear/Archive_Tar@1.4.14', 'Archive_Tar'], ['pkg:pecl/memcached@3.2.0', 'memcached'], ['pkg:wordpress/plugin/akismet@5.0.2', 'akismet'], ['pkg:bazel/rules_python@1.4.1', 'rules_python'],
    ]);
  });
  it('English headers and semicolons', async () => {
    const file = await write('en.csv', 'Name;Version;Language;License\nrequests;2.31.0;PyPI;Apache-2.0\n');
    const { target } = await importComponentList(input(file));
    expect(target.components.map((c) => c.purl)).toEqual(['pkg:pypi/requests@2.31.0']);
  });
});

describe('ecosystem names and licences', () => {
  it.each([
    ['Java', 'maven'], ['java/maven', 'maven'], ['Maven（Java）', 'maven'], ['Kotlin', 'maven'], ['JavaScript', 'npm'],
    ['Node.js', 'npm'], ['ＰＹＴＨＯＮ', 'pypi'], ['pip', 'pypi'], ['Golang', 'golang'], ['Rust', 'cargo'], ['Ruby', 'gem'],
    ['PHP', 'composer'], ['.NET', 'nuget'], ['C#', 'nuget'], ['C/C++', 'conan'], ['C语言', 'conan'], ['C++', 'conan'],
    ['Swift', 'swift'], ['Objective-C', 'cocoapods'], ['Dart', 'pub'], ['Flutter', 'pub'], ['Elixir', 'hex'],
    ['Erlang', 'hex'], ['conda', 'conda'], ['Debian', 'deb'], ['Alpine', 'apk'], ['openEuler', 'rpm'], ['其他', 'generic'],
  ])('%s -> %s', (value, type) => {
    expect(lookupEcosystem(value)?.type).toBe(type);
  });
  it('rejects unknown and contradictory names', () => {
    expect(lookupEcosystem('Cobol')).toBeUndefined();
    expect(lookupEcosystem('Java/Python')).toBeUndefined();
    expect(lookupEcosystem('')).toBeUndefined();
  });
  it('splits licence lists but keeps SPDX expressions and long names whole', () => {
    expect(splitLicenses('MIT OR Apache-2.0')).toEqual(['MIT OR Apache-2.0']);
    expect(splitLicenses('GPL-2.0-only WITH Classpath-exception-2.0')).toEqual(['GPL-2.0-only WITH Classpath-exception-2.0']);
    expect(splitLicenses('MIT/Apache-2.0')).toEqual(['MIT', 'Apache-2.0']);
    expect(splitLicenses('MIT；BSD-3-Clause、ISC')).toEqual(['MIT', 'BSD-3-Clause', 'ISC']);
    expect(splitLicenses('Apache License, Version 2.0')).toEqual(['Apache License, Version 2.0']);
    expect(splitLicenses('MIT, MIT')).toEqual(['MIT']);
    expect(splitLicenses('  ')).toEqual([]);
  });
});

describe('excel extractor', () => {
  it('claims files named as component lists only', () => {
    expect(extractors).toEqual([excelListExtractor]);
    expectClaims(excelListExtractor, ['项目组件清单.xlsx', 'docs/组件清单-v2.CSV', 'docs/第三方组件列表.xlsm', '组件清单.xls'], ['components.xlsx', '组件清单导入模板.xlsx', '~$组件清单.xlsx']);
  });

  const ctx = { readText: async () => undefined, list: async () => [], exists: async () => false, signal: new AbortController().signal };
  const inputFile = (file: string, rel: string) => ({ path: rel, size: 0, read: () => readFile(file), text: async () => (await readFile(file)).toString() });

  it('extracts one target; a list with nothing importable is a problem', async () => {
    const good = await xlsx('项目组件清单.xlsx', [HEADER, ['lodash', '4.17.21', 'npm', null, null, null], ['x', '1', 'Cobol', null, null, null]]);
    const targets = await excelListExtractor.extract(inputFile(good, 'docs/项目组件清单.xlsx'), ctx);
    expect(targets).toHaveLength(1);
    expect(targets[0]!.file).toBe('docs/项目组件清单.xlsx');
    expect(targets[0]!.components[0]!.locations).toEqual([{ file: 'docs/项目组件清单.xlsx', startLine: 2 }]);
    const bad = await xlsx('坏组件清单.xlsx', [HEADER, ['x', '1', 'Cobol', null, null, null]]);
    await expect(excelListExtractor.extract(inputFile(bad, '坏组件清单.xlsx'), ctx)).rejects.toThrow('组件清单 坏组件清单.xlsx 中没有可导入的组件：第 2 行：无法识别的生态“Cobol”，请填写 purl');
  });
});
