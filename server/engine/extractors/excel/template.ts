// The downloadable Chinese template for Excel component lists (getCodeType 34): a 组件清单 sheet
// with a styled header, text-formatted columns (so 1.10 stays 1.10), a drop-down for 语言/生态 and
// two example rows; a 说明 sheet with the rules and every accepted ecosystem spelling.
import ExcelJS from 'exceljs';
import type { DataValidation } from 'exceljs';
import { COLUMNS } from './columns.ts';
import { ECOSYSTEMS, TEMPLATE_CHOICES } from './ecosystems.ts';

export const TEMPLATE_FILE_NAME = '组件清单导入模板.xlsx';
export const TEMPLATE_DATA_SHEET = '组件清单';
export const TEMPLATE_HELP_SHEET = '说明';
/** The 备注 of the template's example rows; rows still carrying it are skipped on import. */
export const EXAMPLE_REMARK = '示例行，导入前请删除';

export const TEMPLATE_HEADERS = ['组件名称', '版本', '语言/生态', 'purl', '许可证', '备注'] as const;

export const EXAMPLE_ROWS: ReadonlyArray<readonly [string, string, string, string, string, string]> = [
  ['org.apache.logging.log4j:log4j-core', '2.17.1', 'Java', '', 'Apache-2.0', EXAMPLE_REMARK],
  ['lodash', '4.17.21', 'JavaScript', 'pkg:npm/lodash@4.17.21', 'MIT', EXAMPLE_REMARK],
];

const NOTES: Record<(typeof TEMPLATE_HEADERS)[number], string> = {
  组件名称: '必填（已填写 purl 时可不填）。Maven 组件写作 groupId:artifactId，npm 作用域包写作 @scope/name，Go 模块写完整模块路径。',
  版本: '建议填写确切版本，如 2.17.1；不填写时按未知版本处理。',
  '语言/生态': '必填（已填写 purl 时可不填）。可从下拉列表选择，也可填写“说明”工作表中列出的其他写法。',
  purl: '选填。填写后以 purl 为准，如 pkg:maven/org.slf4j/slf4j-api@1.7.36。',
  许可证: '选填。SPDX 标识或表达式，如 MIT、Apache-2.0、MIT OR Apache-2.0；多个许可证用逗号、分号或顿号分隔。',
  备注: '选填。',
};

const DATA_ROWS_WITH_VALIDATION = 5000;
const HEADER_FILL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } } as const;
const THIN = { style: 'thin', color: { argb: 'FFBFBFBF' } } as const;

export async function buildTemplate(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Cairn';
  workbook.created = new Date(0);
  workbook.modified = new Date(0);

  const sheet = workbook.addWorksheet(TEMPLATE_DATA_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = TEMPLATE_HEADERS.map((title) => {
    const spec = COLUMNS.find((c) => c.title === title);
    return { header: title, width: spec?.width ?? 20, style: { numFmt: '@' } };
  });
  const header = sheet.getRow(1);
  header.height = 22;
  header.eachCell((cell, col) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' }, name: '微软雅黑', size: 11 };
    cell.fill = HEADER_FILL;
    cell.alignment = { vertical: 'middle', horizontal: 'center' };
    cell.border = { top: THIN, left: THIN, bottom: THIN, right: THIN };
    cell.note = NOTES[TEMPLATE_HEADERS[col - 1]!];
  });
  for (const values of EXAMPLE_ROWS) {
    const row = sheet.addRow([...values]);
    row.eachCell({ includeEmpty: true }, (cell) => {
      cell.font = { italic: true, color: { argb: 'FF7F7F7F' } };
      cell.numFmt = '@';
    });
  }
  sheet.autoFilter = 'A1:F1';
  const choices = `"${TEMPLATE_CHOICES.join(',')}"`;
  // One range, not one validation per cell: exceljs' per-cell "squeeze" sorts addresses as
  // strings and writes overlapping ranges (C10:C5001 and C2:C5001), which Excel repairs.
  (sheet as unknown as { dataValidations: { add(address: string, validation: DataValidation): void } }).dataValidations.add(
    `C2:C${DATA_ROWS_WITH_VALIDATION + 1}`,
    {
      type: 'list',
      allowBlank: true,
      formulae: [choices],
      showErrorMessage: true,
      errorStyle: 'warning',
      errorTitle: '语言/生态',
      error: '该值不在下拉列表中。如确为其他写法（见“说明”工作表），请选择“是”保留。',
      showInputMessage: true,
      promptTitle: '语言/生态',
      prompt: '从列表选择，或填写“说明”工作表中的其他写法',
    },
  );

  const help = workbook.addWorksheet(TEMPLATE_HELP_SHEET);
  help.columns = [{ width: 22 }, { width: 40 }, { width: 70 }];
  const title = help.addRow(['组件清单导入说明']);
  title.font = { bold: true, size: 14 };
  help.addRow([]);
  for (const line of [
    '1. 在“组件清单”工作表中每行填写一个组件，第一行为表头，请勿修改表头名称。',
    '2. 第 2、3 行为示例，导入前请删除（备注仍为“示例行，导入前请删除”的行会被忽略）。',
    '3. 每行至少填写“组件名称 + 语言/生态”，或填写“purl”。purl 与其他列不一致时以 purl 为准。',
    '4. 无法识别的行会按行号列出原因并跳过，其余行正常导入；空行会被忽略，重复的组件会合并。',
    '5. 单个文件最多 100000 行。支持 .xlsx、.xls（Excel 97-2003）和 .csv（UTF-8 或 GBK 编码）。',
  ]) help.addRow([line]);
  help.addRow([]);
  const colHead = help.addRow(['列', '是否必填', '填写要求']);
  colHead.font = { bold: true };
  const required: Record<string, string> = { 组件名称: '必填（已填 purl 时可不填）', '语言/生态': '必填（已填 purl 时可不填）' };
  for (const title of TEMPLATE_HEADERS) help.addRow([title, required[title] ?? '选填', NOTES[title]]);
  help.addRow([]);
  const ecoHead = help.addRow(['purl 类型', '语言/生态', '可用写法（不区分大小写）']);
  ecoHead.font = { bold: true };
  for (const entry of ECOSYSTEMS) {
    help.addRow([entry.namespace ? `${entry.type}（${entry.namespace}）` : entry.type, entry.label, entry.aliases.join('、')]);
  }
  help.getColumn(3).alignment = { wrapText: true, vertical: 'top' };

  const out = await workbook.xlsx.writeBuffer();
  return Buffer.from(out as ArrayBuffer);
}
