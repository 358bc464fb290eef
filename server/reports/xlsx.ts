// The Excel report and the component export, with exceljs: a 概述 sheet (title, summary facts,
// level counts, the summary charts as pictures), then one sheet per section of sections.ts with a
// bold filled header row that stays frozen, an auto filter, level cells in the level colours and
// numbers stored as numbers so they sort and sum.
import ExcelJS from 'exceljs';
import type { Fill, Font, Worksheet } from 'exceljs';
import { LEVEL_CODES, LICENSE_LEVEL_LABEL, VULNERABILITY_LEVEL_LABEL } from '../../contract/enums.ts';
import { summaryCharts } from './charts.ts';
import type { ReportModel } from './model.ts';
import { componentTableFor, LEVEL_COLOURS, sectionsFor, summaryFacts } from './sections.ts';
import type { AnyTableSection } from './sections.ts';
import { privateWriteStream } from '../files/private.ts';

const FONT_NAME = '微软雅黑';
const HEADER_FILL = 'FFE8ECF2';
const LABEL_FILL = 'FFF4F6F9';
/** Excel's limit on the text of one cell. */
const MAX_CELL_TEXT = 32767;
/** Columns whose text is a number in sections.ts (CVSS is written with one decimal) stored as numbers. */
const NUMERIC_TEXT_COLUMNS: Record<string, string> = { CVSS: '0.0' };

const argb = (colour: string) => `FF${colour.replace('#', '').toUpperCase()}`;
const solid = (colour: string): Fill => ({ type: 'pattern', pattern: 'solid', fgColor: { argb: colour }, bgColor: { argb: colour } });
const font = (extra: Partial<Font> = {}): Partial<Font> => ({ name: FONT_NAME, size: 10, ...extra });

// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Text Excel accepts in a cell: no characters XML cannot carry, at most 32,767 of them. */
function cellText(text: string): string {
  const clean = text.replace(INVALID_XML, '');
  return clean.length > MAX_CELL_TEXT ? clean.slice(0, MAX_CELL_TEXT) : clean;
}

/**
 * A valid, unique sheet name: at most 31 characters, none of []:*?/\ or ', not empty, and not a
 * name already taken (Excel compares names ignoring case).
 */
export function sheetName(title: string, taken: Set<string>): string {
  // An apostrophe is allowed inside a name, but exceljs quotes the print-title reference without
  // doubling it: a typographic one keeps the reference valid.
  const base = title.replace(/[[\]:*?/\\]/g, ' ').replace(/'/g, '’').trim().slice(0, 31) || 'Sheet';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - String(n).length - 1)}_${n}`;
  taken.add(name.toLowerCase());
  return name;
}

/** Excel column width (in characters) from a sections.ts relative width; CJK text is twice as wide. */
const columnWidth = (width: number) => Math.max(8, Math.round(width * 1.6));

function newWorkbook(model: ReportModel): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = `${model.tool.name} ${model.tool.version}`;
  workbook.lastModifiedBy = cellText(model.author);
  workbook.title = cellText(model.title);
  const at = new Date(model.generatedAt);
  workbook.created = Number.isNaN(at.getTime()) ? new Date() : at;
  workbook.modified = workbook.created;
  return workbook;
}

/** One sheet for a table section. */
function addSectionSheet(workbook: ExcelJS.Workbook, section: AnyTableSection, model: ReportModel, taken: Set<string>): Worksheet {
  const columns = section.columns;
  const sheet = workbook.addWorksheet(sheetName(section.title, taken), {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
    properties: { defaultRowHeight: 18 },
    // Printed: A4 landscape, as wide as the page, the header row on every page.
    pageSetup: { paperSize: 9, orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, printTitlesRow: '1:1' },
  });
  sheet.columns = columns.map((c) => ({ header: c.header, width: columnWidth(c.width) }));
  const header = sheet.getRow(1);
  header.height = 22;
  header.eachCell((cell) => {
    cell.font = font({ bold: true });
    cell.fill = solid(HEADER_FILL);
    cell.alignment = { vertical: 'middle' };
    cell.border = { bottom: { style: 'thin', color: { argb: 'FFC5CBD3' } } };
  });

  const rows = section.rows(model);
  if (rows.length === 0) {
    const note = sheet.getCell(2, 1);
    note.value = section.empty;
    note.font = font({ italic: true, color: { argb: 'FF666666' } });
    return sheet;
  }
  // One style object per kind of cell, shared by every cell of that kind: exceljs caches a style's
  // id by object, so shared objects are resolved once instead of once per cell (the difference
  // between seconds and a fraction of one on a 10,000-row sheet). They are never mutated.
  const plain: Partial<ExcelJS.Style> = {};
  const wrapped: Partial<ExcelJS.Style> = { alignment: { wrapText: true, vertical: 'top' } };
  const numeric = new Map<string, Partial<ExcelJS.Style>>();
  const levelStyles = new Map<number, Partial<ExcelJS.Style>>();
  const levelStyle = (level: number) => {
    let style = levelStyles.get(level);
    const colours = LEVEL_COLOURS[level];
    if (!style && colours) {
      style = { fill: solid(argb(colours.fill)), font: font({ color: { argb: argb(colours.text) } }) };
      levelStyles.set(level, style);
    }
    return style;
  };
  const numericStyle = (numFmt: string) => {
    let style = numeric.get(numFmt);
    if (!style) numeric.set(numFmt, (style = { numFmt }));
    return style;
  };
  for (const row of rows) {
    const values = columns.map((c) => {
      const value = c.value(row);
      if (typeof value === 'number') return value;
      if (NUMERIC_TEXT_COLUMNS[c.header] && value !== '' && Number.isFinite(Number(value))) return Number(value);
      return cellText(value);
    });
    const added = sheet.addRow(values);
    columns.forEach((c, i) => {
      const cell = added.getCell(i + 1);
      const numFmt = NUMERIC_TEXT_COLUMNS[c.header];
      const style = (c.level && levelStyle(c.level(row))) || (numFmt && typeof cell.value === 'number' ? numericStyle(numFmt) : plain);
      // A cell of several lines (a licence finding's evidence) wraps at them.
      cell.style = (typeof cell.value === 'string' && cell.value.includes('\n') ? wrapped : style) as ExcelJS.Style;
    });
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: rows.length + 1, column: columns.length } };
  return sheet;
}

/** The 概述 sheet: title, key facts, the counts per level and the summary charts. */
async function addOverviewSheet(workbook: ExcelJS.Workbook, model: ReportModel, taken: Set<string>): Promise<void> {
  const sheet = workbook.addWorksheet(sheetName('概述', taken), { views: [{ showGridLines: false }] });
  sheet.getColumn(1).width = 18;
  sheet.getColumn(2).width = 36;
  sheet.getColumn(3).width = 12;
  sheet.getColumn(4).width = 4;

  sheet.mergeCells(1, 1, 1, 3);
  const title = sheet.getCell(1, 1);
  title.value = cellText(model.title);
  title.font = font({ size: 16, bold: true });
  sheet.getRow(1).height = 30;

  let r = 3;
  for (const [label, value] of summaryFacts(model)) {
    const l = sheet.getCell(r, 1);
    l.value = label;
    l.font = font({ bold: true });
    l.fill = solid(LABEL_FILL);
    const v = sheet.getCell(r, 2);
    // Counts are numbers; everything else (names, times, "3 / 4") stays text.
    v.value = /^\d+$/.test(value) ? Number(value) : cellText(value);
    v.font = font();
    v.alignment = { horizontal: 'left' };
    r++;
  }

  r++;
  const licenceOnly = model.scope === 'license';
  const heads = licenceOnly ? ['等级', '许可证数'] : ['等级', '漏洞数', '许可证数'];
  heads.forEach((h, i) => {
    const cell = sheet.getCell(r, i + 1);
    cell.value = h;
    cell.font = font({ bold: true });
    cell.fill = solid(HEADER_FILL);
  });
  r++;
  for (const level of LEVEL_CODES) {
    const colours = LEVEL_COLOURS[level]!;
    const label = sheet.getCell(r, 1);
    label.value = licenceOnly ? LICENSE_LEVEL_LABEL[level] : VULNERABILITY_LEVEL_LABEL[level];
    label.fill = solid(argb(colours.fill));
    label.font = font({ bold: true, color: { argb: argb(colours.text) } });
    const counts = licenceOnly ? [model.summary.licenseLevels[level]] : [model.summary.vulnerabilityLevels[level], model.summary.licenseLevels[level]];
    counts.forEach((n, i) => {
      const cell = sheet.getCell(r, i + 2);
      cell.value = n;
      cell.font = font();
      cell.alignment = { horizontal: 'left' };
    });
    r++;
  }

  // Charts two to a row from column F, each under its title; exceljs places pictures by pixels.
  const charts = await summaryCharts(model);
  const CHART_COLUMNS = 7; // columns of 9 characters (~68 px) each: wider than a 400 px chart
  const CHART_ROWS = 16; // rows of 20 px: a 270 px chart plus its title row
  for (let col = 6; col < 6 + 2 * CHART_COLUMNS; col++) sheet.getColumn(col).width = 9;
  charts.forEach((chart, i) => {
    const col = 5 + (i % 2) * CHART_COLUMNS; // 0-based for images: 5 is column F
    const row = 2 + Math.floor(i / 2) * CHART_ROWS; // title in this 1-based row, picture below it
    const caption = sheet.getCell(row, col + 1);
    caption.value = chart.title;
    caption.font = font({ bold: true, size: 11 });
    const id = workbook.addImage({ buffer: chart.png as unknown as ExcelJS.Buffer, extension: 'png' });
    sheet.addImage(id, { tl: { col, row }, ext: { width: chart.width, height: chart.height } });
  });
}

async function save(workbook: ExcelJS.Workbook, file: string): Promise<void> {
  // As exceljs's own writeFile, into a private file.
  const out = privateWriteStream(file);
  const finished = new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
  // exceljs deflates in JavaScript: the fastest level halves that time for a file barely larger.
  await workbook.xlsx.write(out, { zip: { compression: 'DEFLATE', compressionOptions: { level: 1 } } });
  out.end();
  await finished;
}

/** Writes the Excel report of `model` to `file`: 概述, then one sheet per section. */
export async function writeXlsx(model: ReportModel, file: string): Promise<void> {
  const workbook = newWorkbook(model);
  const taken = new Set<string>();
  await addOverviewSheet(workbook, model, taken);
  for (const section of sectionsFor(model)) addSectionSheet(workbook, section, model, taken);
  await save(workbook, file);
}

/** Writes the component export: one 组件清单 sheet laid out like the report's. */
export async function writeComponentsXlsx(model: ReportModel, file: string): Promise<void> {
  const workbook = newWorkbook(model);
  addSectionSheet(workbook, componentTableFor(model), model, new Set());
  await save(workbook, file);
}
