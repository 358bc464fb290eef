// The downloadable component-list template: its shape, and a round trip (build, fill, import).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTemplate, ECOSYSTEMS, EXAMPLE_REMARK, importComponentList, TEMPLATE_DATA_SHEET, TEMPLATE_FILE_NAME, TEMPLATE_HEADERS, TEMPLATE_HELP_SHEET,
} from '../../../../server/engine/extractors/excel/index.ts';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(tmpdir(), 'cairn-excel-template-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

async function load(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  return wb;
}

describe('buildTemplate', () => {
  it('has a Chinese file name', () => {
    expect(TEMPLATE_FILE_NAME).toBe('组件清单导入模板.xlsx');
  });

  it('builds a styled 组件清单 sheet with two example rows and a 说明 sheet', async () => {
    const buffer = await buildTemplate();
    expect(buffer.subarray(0, 2).toString()).toBe('PK');
    const wb = await load(buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual([TEMPLATE_DATA_SHEET, TEMPLATE_HELP_SHEET]);

    const sheet = wb.getWorksheet(TEMPLATE_DATA_SHEET)!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...TEMPLATE_HEADERS]);
    expect(TEMPLATE_HEADERS).toEqual(['组件名称', '版本', '语言/生态', 'purl', '许可证', '备注']);
    const head = sheet.getCell('A1');
    expect(head.font?.bold).toBe(true);
    expect(head.fill).toMatchObject({ type: 'pattern', pattern: 'solid' });
    expect(typeof head.note === 'string' ? head.note : JSON.stringify(head.note)).toContain('groupId:artifactId');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getColumn(1).width).toBeGreaterThan(20);
    expect(sheet.getColumn(2).numFmt).toBe('@');
    expect(sheet.getCell('B2').value).toBe('2.17.1');
    expect(sheet.getRow(2).getCell(6).value).toBe(EXAMPLE_REMARK);
    expect(sheet.getRow(3).getCell(4).value).toBe('pkg:npm/lodash@4.17.21');

    const validation = sheet.getCell('C500').dataValidation;
    expect(validation).toMatchObject({ type: 'list', allowBlank: true, errorStyle: 'warning' });
    const list = String(validation.formulae[0]);
    expect(list.length).toBeLessThanOrEqual(257); // Excel's limit for an inline list
    for (const choice of ['Java', 'JavaScript', 'Python', 'Go', 'Rust', '.NET', 'C/C++', '其他']) expect(list).toContain(choice);

    const help = wb.getWorksheet(TEMPLATE_HELP_SHEET)!;
    const text: string[] = [];
    help.eachRow((row) => row.eachCell((cell) => text.push(String(cell.value))));
    const all = text.join('\n');
    expect(all).toContain('组件清单导入说明');
    expect(all).toContain('支持 .xlsx、.xls（Excel 97-2003）和 .csv');
    for (const entry of ECOSYSTEMS) expect(all).toContain(entry.aliases[0]!);
  });

  it('the untouched template imports nothing: the example rows are skipped with a note', async () => {
    const file = path.join(dir, TEMPLATE_FILE_NAME);
    await writeFile(file, await buildTemplate());
    const { target, rejected, warnings, stats } = await importComponentList({ path: file, read: () => readFile(file) });
    expect(target.components).toEqual([]);
    expect(rejected).toEqual([]);
    expect(warnings).toEqual([
      { row: 2, reason: '第 2 行：模板示例行，已忽略' },
      { row: 3, reason: '第 3 行：模板示例行，已忽略' },
    ]);
    expect(stats.sheet).toBe(TEMPLATE_DATA_SHEET);
  });

  it('round trip: build, fill as a user would, import', async () => {
    const wb = await load(await buildTemplate());
    const sheet = wb.getWorksheet(TEMPLATE_DATA_SHEET)!;
    // The user edits the first example into a real row and keeps the second one.
    sheet.getRow(2).values = ['org.apache.logging.log4j:log4j-core', '2.14.1', 'Java', null, 'Apache-2.0', '生产环境使用'] as ExcelJS.CellValue[];
    sheet.addRow(['com.alibaba:fastjson', '1.2.83', 'Java/Maven', null, 'Apache-2.0', null]);
    sheet.addRow(['requests', '2.31.0', 'Python', null, 'Apache-2.0', null]);
    sheet.addRow(['github.com/gin-gonic/gin', 'v1.9.1', 'Go', null, 'MIT', null]);
    sheet.addRow(['vue', '3.3.4', 'JavaScript', null, 'MIT', null]);
    sheet.addRow(['mystery', '1.0', 'Fortran', null, null, null]);
    sheet.addRow([null, null, null, 'pkg:nuget/Newtonsoft.Json@13.0.3', 'MIT', null]);
    const file = path.join(dir, '填写后的组件清单.xlsx');
    await wb.xlsx.writeFile(file);

    const { target, rejected, warnings, remarks } = await importComponentList({ path: file, read: () => readFile(file) });
    expect(target.components.map((c) => [c.purl, c.locations[0]!.startLine])).toEqual([
      ['pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1', 2],
      ['pkg:maven/com.alibaba/fastjson@1.2.83', 4],
      ['pkg:pypi/requests@2.31.0', 5],
      ['pkg:golang/github.com/gin-gonic/gin@v1.9.1', 6],
      ['pkg:npm/vue@3.3.4', 7],
      ['pkg:nuget/Newtonsoft.Json@13.0.3', 9],
    ]);
    expect(rejected).toEqual([{ row: 8, reason: '第 8 行：无法识别的生态“Fortran”，请填写 purl' }]);
    expect(warnings).toEqual([{ row: 3, reason: '第 3 行：模板示例行，已忽略' }]);
    expect(remarks).toEqual([{ row: 2, purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1', remark: '生产环境使用' }]);
  });
});
