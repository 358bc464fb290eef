// The Word and Excel reports and the component exports, written from the sample model and read
// back: Excel with exceljs (sheets, frozen header, auto filter, level colours, every row), Word
// with mammoth (title, contents, every section), CSV as bytes. With LibreOffice on the PATH both
// documents are also converted to PDF, which fails on a package it cannot open.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeComponentsCsv } from '../../../server/reports/csv.ts';
import { writeDocx } from '../../../server/reports/docx.ts';
import type { ReportModel } from '../../../server/reports/model.ts';
import { COMPONENT_TABLE, LEVEL_COLOURS, LICENSE_SECTIONS, REPORT_TITLES, TABLE_SECTIONS, sectionsFor } from '../../../server/reports/sections.ts';
import { sheetName, writeComponentsXlsx, writeXlsx } from '../../../server/reports/xlsx.ts';
import { hasCommand } from '../../support/commands.ts';
import { sampleReportModel } from '../../support/report-model.ts';

const hasSoffice = hasCommand('soffice', '--version');

/** The sample model with the awkward values a real scan brings: commas, quotes, markup, control characters. */
function awkwardModel(): ReportModel {
  const model = sampleReportModel();
  model.components[1]!.name = 'left-pad,"quoted"';
  model.components[2]!.name = 'ctrl\u0001name <&> 组件';
  model.components[3]!.license = '=HYPERLINK("http://example.com")';
  model.project.name = '核心\u0002交易服务';
  return model;
}

async function readWorkbook(file: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return workbook;
}

const argbOf = (colour: string) => `FF${colour.slice(1).toUpperCase()}`;

describe('office reports', () => {
  let dir: string;
  const model = awkwardModel();
  const licenceModel: ReportModel = { ...sampleReportModel(), scope: 'license', title: REPORT_TITLES.license };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cairn-office-'));
    await writeDocx(model, path.join(dir, 'report.docx'));
    await writeXlsx(model, path.join(dir, 'report.xlsx'));
    await writeDocx(licenceModel, path.join(dir, 'licence.docx'));
    await writeXlsx(licenceModel, path.join(dir, 'licence.xlsx'));
    await writeComponentsXlsx(model, path.join(dir, 'components.xlsx'));
    await writeComponentsCsv(model, path.join(dir, 'components.csv'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the Excel report: 概述 then one sheet per section, frozen and filtered, every row', async () => {
    const workbook = await readWorkbook(path.join(dir, 'report.xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['概述', ...TABLE_SECTIONS.map((s) => s.title)]);

    const overview = workbook.getWorksheet('概述')!;
    expect(overview.getCell('A1').value).toBe(model.title);
    expect(overview.getCell('B4').value).toBe('核心交易服务');
    const facts = overview.getColumn(1).values.filter((v) => typeof v === 'string');
    expect(facts).toEqual(expect.arrayContaining(['应用', '项目', '组件总数', '漏洞总数', '生成人']));
    // The summary charts are pictures on the overview.
    expect(overview.getImages().length).toBe(4);

    for (const section of TABLE_SECTIONS) {
      const sheet = workbook.getWorksheet(section.title)!;
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(section.columns.map((c) => c.header));
      expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(sheet.autoFilter).toBeTruthy();
      expect(sheet.pageSetup.printTitlesRow).toBe('1:1');
      expect(sheet.rowCount - 1).toBe(section.rows(model).length);
    }

    const components = workbook.getWorksheet('组件清单')!;
    expect(components.autoFilter).toBe(`A1:I${model.components.length + 1}`);
    // Row 2 is the first component: its risk cell in the risk colour, its counts as numbers.
    const first = model.components[0]!;
    const riskCell = components.getRow(2).getCell(6);
    expect(riskCell.fill).toMatchObject({ type: 'pattern', pattern: 'solid', fgColor: { argb: argbOf(LEVEL_COLOURS[first.risk]!.fill) } });
    expect(components.getRow(2).getCell(7).value).toBe(first.vulnerabilityCount);
    // Control characters are dropped, markup is kept as text.
    expect(components.getRow(4).getCell(1).value).toBe('ctrlname <&> 组件');

    const vulnerabilities = workbook.getWorksheet('漏洞清单')!;
    const scored = model.vulnerabilities.findIndex((v) => v.score !== null);
    expect(vulnerabilities.getRow(scored + 2).getCell(4).value).toBe(model.vulnerabilities[scored]!.score);
    // 推荐升级: the smallest fixed version above the installed one.
    expect(vulnerabilities.getRow(1).getCell(8).value).toBe('推荐升级');
    expect(vulnerabilities.getRow(2).getCell(8).value).toBe(model.vulnerabilities[0]!.upgrade.version);
    // 评级来源: the source that set the level, or 未评级 for a finding no source rates.
    expect(vulnerabilities.getRow(1).getCell(5).value).toBe('评级来源');
    model.vulnerabilities.forEach((v, i) => {
      expect(vulnerabilities.getRow(i + 2).getCell(5).value).toBe(v.severitySource || (v.level === 16 ? '未评级' : '--'));
    });
    expect(model.vulnerabilities[0]!.upgrade.version).toBe(model.vulnerabilities[0]!.fixedVersions[0]);
 
    // 依据: who decided each licence-conflict verdict, the OSADL matrix or Cairn's rules.
    const conflicts = workbook.getWorksheet('许可证冲突')!;
    expect(model.conflicts.length).toBeGreaterThan(0);
    expect(conflicts.getRow(1).getCell(5).value).toBe('依据');
    model.conflicts.forEach((c, i) => expect(conflicts.getRow(i + 2).getCell(5).value).toBe(c.source === 'osadl' ? 'OSADL 兼容性矩阵' : 'Cairn 规则'));
  });

  it('writes the licence report workbook with the licence sheets only', async () => {
    const workbook = await readWorkbook(path.join(dir, 'licence.xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['概述', ...LICENSE_SECTIONS.map((s) => s.title)]);
    expect(workbook.getWorksheet('概述')!.getImages().length).toBe(1);
  });

  it('writes the Word report: cover, contents, summary and every section', async () => {
    const { value: text } = await mammoth.extractRawText({ path: path.join(dir, 'report.docx') });
    expect(text).toContain(model.title);
    expect(text).toContain('目录');
    expect(text).toContain('一、概述');
    expect(text).toContain(model.subject.name);
    expect(text).toContain('生成人');
    expect(text).toContain('核心交易服务');
    sectionsFor(model).forEach((section, i) => {
      const numbered = `${['二', '三', '四', '五', '六', '七', '八'][i]}、${section.title}`;
      // Once in the contents, once as the heading.
      expect(text.split(numbered).length - 1).toBe(2);
      expect(text).toContain(section.intro(model));
    });
    // The conflict section credits the OSADL matrix with its version and licence (CC-BY-4.0).
    expect(text).toContain('OSADL 许可证兼容性矩阵（2026-02-12 版，© OSADL eG，CC-BY-4.0）');
    for (const c of model.components.slice(5, 10)) expect(text).toContain(c.purl);
    expect(text).toContain('ctrlname <&> 组件');
    expect(text).toContain('left-pad,"quoted"');

    const { value: html } = await mammoth.convertToHtml({ path: path.join(dir, 'report.docx') });
    // The contents link to the section headings' bookmarks, and the charts are pictures.
    expect(html).toContain('href="#sec_components"');
    expect(html).toContain('id="sec_components"');
    expect(html.match(/<img /g)?.length).toBe(4);

    // Every line spacing names its rule: LibreOffice reads a bare w:line as exact, which clipped
    // the charts to a sliver.
    const parts = ['word/document.xml', 'word/styles.xml'].map((part) => execFileSync('unzip', ['-p', path.join(dir, 'report.docx'), part]).toString('utf8'));
    const spacings = parts.flatMap((xml) => xml.match(/<w:spacing [^>]*w:line="[^>]*>/g) ?? []);
    expect(spacings.length).toBeGreaterThan(0);
    for (const spacing of spacings) expect(spacing).toContain('w:lineRule="auto"');
  });

  it('writes the licence Word report without the component and vulnerability sections', async () => {
    const { value: text } = await mammoth.extractRawText({ path: path.join(dir, 'licence.docx') });
    expect(text).toContain(REPORT_TITLES.license);
    expect(text).toContain('二、许可证清单');
    expect(text).toContain('三、许可证识别明细');
    expect(text).toContain('四、许可证冲突');
    expect(text).not.toContain('组件清单');
    expect(text).not.toContain('漏洞清单');
  });

  it('shows each licence finding\'s kind, score and evidence, and states a filter in Word and Excel', async () => {
    // As the generate call's licenceKinds / minScore leave it: full texts and references of at least 60.
    const filtered: ReportModel = {
      ...licenceModel,
      licenceFilter: { kinds: ['reference', 'text'], minScore: 60 },
      licenceFindings: licenceModel.licenceFindings.filter((f) => (f.kind === 'text' || f.kind === 'reference') && f.score >= 60),
    };
    await writeDocx(filtered, path.join(dir, 'filtered.docx'));
    await writeXlsx(filtered, path.join(dir, 'filtered.xlsx'));
    const statement = '仅包含识别方式为全文、引用、可信度 ≥ 60 的许可证。';

    const { value: text } = await mammoth.extractRawText({ path: path.join(dir, 'filtered.docx') });
    expect(text).toContain(statement);
    expect(text).toContain('许可证筛选');
    // The evidence lines, each on its own line; the modified text names its nearest licence.
    expect(text).toMatch(/Apache License\s*\n+\s*Version 2\.0, January 2004/);
    expect(text).toContain('（修改过的许可证文本，最接近 MIT）');
    expect(text).not.toContain('Released under a BSD license.');
    // Unfiltered, nothing is stated.
    const { value: whole } = await mammoth.extractRawText({ path: path.join(dir, 'licence.docx') });
    expect(whole).not.toContain('仅包含');
    expect(whole).toContain('// SPDX-License-Identifier: MIT');

    const workbook = await readWorkbook(path.join(dir, 'filtered.xlsx'));
    const overview = workbook.getWorksheet('概述')!;
    const facts = overview.getColumn(2).values.filter((v) => typeof v === 'string');
    expect(facts).toContain(statement);
    const sheet = workbook.getWorksheet('许可证识别明细')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['许可证', '文件位置', '识别方式', '可信度', '识别依据']);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual(['Apache-2.0', 'LICENSE:1-201', '全文', 98, 'Apache License\nVersion 2.0, January 2004\nhttp://www.apache.org/licenses/']);
    expect(sheet.getRow(2).getCell(5).alignment).toMatchObject({ wrapText: true });
    expect(sheet.rowCount - 1).toBe(2);
  });

  it('says so when a section has no rows', async () => {
    const empty: ReportModel = { ...sampleReportModel(), conflicts: [], markLogs: [] };
    const docx = path.join(dir, 'empty.docx');
    const xlsx = path.join(dir, 'empty.xlsx');
    await writeDocx(empty, docx);
    await writeXlsx(empty, xlsx);
    const { value: text } = await mammoth.extractRawText({ path: docx });
    expect(text).toContain('未发现许可证冲突。');
    expect(text).toContain('尚无标记记录。');
    const workbook = await readWorkbook(xlsx);
    expect(workbook.getWorksheet('许可证冲突')!.getCell('A2').value).toBe('未发现许可证冲突。');
  });

  it('writes the component export workbook: one 组件清单 sheet', async () => {
    const workbook = await readWorkbook(path.join(dir, 'components.xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['组件清单']);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(model.components.length + 1);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(2).getCell(1).value).toBe(model.components[0]!.name);
  });

  it('writes the component CSV: BOM, header, one line per component, RFC 4180 quoting', () => {
    const bytes = readFileSync(path.join(dir, 'components.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    lines.pop();
    expect(lines[0]).toBe(COMPONENT_TABLE.columns.map((c) => c.header).join(','));
    expect(lines).toHaveLength(model.components.length + 1);
    expect(lines[1]!.startsWith(`${model.components[0]!.name},${model.components[0]!.version},`)).toBe(true);
    expect(lines[2]!.startsWith('"left-pad,""quoted""",')).toBe(true);
    // A formula from a scanned manifest is not run by the spreadsheet.
    expect(lines[4]).toContain(`"'=HYPERLINK(""http://example.com"")"`);
  });

  it('names sheets as Excel allows', () => {
    const taken = new Set<string>();
    const long = sheetName('a[b]:c*d?e/f\\g' + '很长的名字'.repeat(10), taken);
    expect(long.length).toBeLessThanOrEqual(31);
    expect(long).not.toMatch(/[[\]:*?/\\]/);
    expect(sheetName("it's", taken)).toBe('it’s');
    expect(sheetName('组件清单', taken)).toBe('组件清单');
    expect(sheetName('组件清单', taken)).toBe('组件清单_2');
  });

  it.skipIf(!hasSoffice)('converts with LibreOffice to PDF', () => {
    for (const name of ['report.docx', 'report.xlsx']) {
      execFileSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', dir, path.join(dir, name)], { timeout: 120_000, stdio: 'ignore' });
      expect(existsSync(path.join(dir, name.replace(/\.\w+$/, '.pdf')))).toBe(true);
    }
  });
});
