// The PDF report: cover, table of contents, summary with charts, then the tables of sections.ts
// in order. pdfkit embeds the shipped Noto Sans SC files as subsets (only the glyphs used), so the
// file reads the same on a machine without CJK fonts. Pages are buffered so the table of contents
// and the header/footer (第 N 页 / 共 M 页) are written once the page count is known.
//
// Speed matters (thousands of components and findings): a cell whose text plainly fits on one
// line is written without the line wrapper, and only wider cells are measured for wrapping.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import { VULNERABILITY_LEVEL_LABEL, LICENSE_LEVEL_LABEL, LEVEL_CODES, UNRATED_FINDING, fixedInText, labelOf } from '../../contract/enums.ts';
import { summaryCharts } from './charts.ts';
import type { ReportChart } from './charts.ts';
import { reportFonts } from './fonts.ts';
import type { ReportModel, ReportVulnerability } from './model.ts';
import { LEVEL_COLOURS, VULNERABILITY_TABLE, reportTime, sectionsFor, summaryFacts } from './sections.ts';
import type { AnyTableSection } from './sections.ts';
import { privateWriteStream } from '../files/private.ts';

type Doc = PDFKit.PDFDocument;

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { top: 72, bottom: 64, left: 56, right: 56 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const BOTTOM = PAGE.height - MARGIN.bottom;

const COLOUR = {
  brand: '#1F3A5F',
  accent: '#2F6FB3',
  text: '#222222',
  muted: '#6B7480',
  rule: '#D5DAE1',
  zebra: '#F4F6F9',
  panel: '#F7F9FC',
  link: '#1F5AA6',
  warning: '#B3261E',
};
const FONT = { regular: 'NotoSansSC-Regular', bold: 'NotoSansSC-Bold' };
const TABLE_SIZE = 8;
/** The widest a column of short values (levels, versions, 直接依赖) may grow to stay on one line. */
/** The most a column's minimum width may be (pt); a longer unbreakable word breaks by character. */
const MAX_MIN_COLUMN = 60;
const CELL_PAD_X = 4;
const CELL_PAD_Y = 3.5;
/** Details for the most severe findings only, so a large task does not print thousands of pages. */
const DETAIL_LIMIT = 200;
const DETAIL_LEVELS = new Set<number>([1, 2]);
const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

interface TocEntry {
  title: string;
  /** The destination name of the section (link target). */
  dest: string;
  /** Index of the buffered page the section starts on. */
  page: number;
  depth: 0 | 1;
}

interface Layout {
  doc: Doc;
  model: ReportModel;
  toc: TocEntry[];
  /** The bookmark of the section being laid out (sub-parts hang below it). */
  outline: PDFKit.PDFOutline | null;
  /** Line heights per font size, measured once (the font's ascender + descender + gap). */
  lineHeight: (size: number) => number;
}

/** Writes the model's PDF report to `file`; resolves once the file is completely written. */
export async function writePdf(model: ReportModel, file: string): Promise<void> {
  const out = privateWriteStream(file);
  // Fail before any layout work when the file cannot be opened (missing folder, no permission).
  await once(out, 'ready');
  let charts: ReportChart[];
  try {
    charts = await summaryCharts(model);
  } catch (error) {
    out.destroy();
    throw error;
  }
  const fonts = reportFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    // The default would load Helvetica's AFM metrics: every piece of text uses our fonts instead.
    font: fonts.regular,
    // Our layout below is cheap per character; caching every distinct string's glyph run only
    // costs memory (and garbage-collection time) on a large report.
    fontLayoutCache: false,
    lang: 'zh-CN',
    displayTitle: true,
    info: { Title: model.title, Author: model.author, Creator: `${model.tool.name} ${model.tool.version}`, Producer: model.tool.name, Subject: model.project.name },
  });
  doc.pipe(out);
  const done = finished(out);
  try {
    doc.registerFont(FONT.regular, fonts.regular);
    doc.registerFont(FONT.bold, fonts.bold);
    fastLayout(doc, FONT.regular);
    fastLayout(doc, FONT.bold);
    compactFinishedPages(doc);
    const heights = new Map<number, number>();
    const layout: Layout = {
      doc,
      model,
      toc: [],
      outline: null,
      lineHeight: (size) => {
        let h = heights.get(size);
        if (h === undefined) {
          h = doc.font(FONT.regular).fontSize(size).currentLineHeight(true);
          heights.set(size, h);
        }
        return h;
      },
    };
    cover(layout);
    doc.addPage(); // the table of contents, filled in once the sections' pages are known
    summary(layout, charts);
    sectionsFor(model).forEach((section, i) => tableSection(layout, section, i + 1));
    tableOfContents(layout);
    headersAndFooters(layout);
  } catch (error) {
    // End the document anyway so the stream closes, then report the layout error.
    doc.end();
    await done.catch(() => undefined);
    throw error;
  }
  doc.end();
  await done;
}

// ---------------------------------------------------------------------------------------------
// Fast text layout

/** Text that needs no OpenType shaping: Latin, punctuation, CJK and full-width forms (BMP only). */
const SIMPLE_TEXT = /^[\t\n\r\u0020-\u024F\u2000-\u206F\u2100-\u22FF\u3000-\u30FF\u3400-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]*$/;

interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}
interface Run {
  glyphs: Glyph[] | null;
  positions: Array<{ xAdvance: number; yAdvance: number; xOffset: number; yOffset: number; advanceWidth: number }> | null;
  advanceWidth: number;
}
interface EmbeddedFontInternals {
  font: { glyphForCodePoint(cp: number): Glyph };
  scale: number;
  layout(text: string, features?: unknown, onlyWidth?: boolean): Run;
}

/**
 * pdfkit shapes every distinct word with fontkit's full OpenType engine (GSUB/GPOS lookups of a
 * 30,000-glyph CJK font) and splits strings into words character by character, which dominates
 * the time of a large report. Chinese and Latin table text needs no shaping: map code points to
 * glyphs directly (cached per code point) and keep pdfkit's own path for anything else (complex
 * scripts, explicit features). Kerning is the only thing given up.
 */
function fastLayout(doc: Doc, name: string): void {
  doc.font(name);
  const embedded = (doc as unknown as { _font: EmbeddedFontInternals })._font;
  if (typeof embedded?.layout !== 'function' || typeof embedded.font?.glyphForCodePoint !== 'function') return;
  const shaped = embedded.layout.bind(embedded);
  const glyphs = new Map<number, Glyph>();
  const glyphFor = (cp: number): Glyph => {
    let glyph = glyphs.get(cp);
    if (!glyph) {
      glyph = embedded.font.glyphForCodePoint(cp);
      glyphs.set(cp, glyph);
    }
    return glyph;
  };
  embedded.layout = (text: string, features?: unknown, onlyWidth?: boolean): Run => {
    if (features || !SIMPLE_TEXT.test(text)) return shaped(text, features, onlyWidth);
    let advanceWidth = 0;
    if (onlyWidth) {
      for (let i = 0; i < text.length; i++) advanceWidth += glyphFor(text.charCodeAt(i)).advanceWidth;
      return { glyphs: null, positions: null, advanceWidth: advanceWidth * embedded.scale };
    }
    const run: Glyph[] = [];
    const positions: NonNullable<Run['positions']> = [];
    for (let i = 0; i < text.length; i++) {
      const glyph = glyphFor(text.charCodeAt(i));
      const advance = glyph.advanceWidth * embedded.scale;
      run.push(glyph);
      positions.push({ xAdvance: advance, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: advance });
      advanceWidth += advance;
    }
    return { glyphs: run, positions, advanceWidth };
  };
}

/**
 * pdfkit keeps a buffered page's content as one small Uint8Array per operator until the end
 * (millions for a thousand-page report: hundreds of MB and long garbage collections). Once a page
 * is finished, join its pieces into one buffer; later writes (header, footer) append as before.
 */
function compactFinishedPages(doc: Doc): void {
  let previous: unknown = null;
  doc.on('pageAdded', () => {
    const content = (previous as { content?: { buffer?: unknown } } | null)?.content;
    if (content && Array.isArray(content.buffer) && content.buffer.length > 1) content.buffer = [Buffer.concat(content.buffer as Uint8Array[])];
    previous = doc.page;
  });
}

// ---------------------------------------------------------------------------------------------
// Cover, contents, header and footer

function cover({ doc, model }: Layout): void {
  // Options given to addPage replace the document's, size included: A4 must be repeated here.
  doc.addPage({ size: 'A4', margins: { top: 0, bottom: 0, left: 0, right: 0 } });
  const bandHeight = 330;
  doc.rect(0, 0, PAGE.width, bandHeight).fill(COLOUR.brand);
  doc.rect(0, bandHeight, PAGE.width, 8).fill(COLOUR.accent);
  doc.rect(MARGIN.left, 120, 48, 4).fill('#F5C518');
  doc.font(FONT.bold).fontSize(12).fillColor('#C9D6E8').text(`${model.tool.name} 软件成分分析平台`, MARGIN.left, 84, { lineBreak: false });
  doc.font(FONT.bold).fontSize(28).fillColor('#FFFFFF').text(model.title, MARGIN.left, 150, { width: CONTENT_WIDTH });
  const subtitle = [model.subject.name + (model.subject.version ? ` ${model.subject.version}` : ''), model.project.name].filter(Boolean).join(' · ');
  doc.font(FONT.regular).fontSize(14).fillColor('#DCE5F2').text(subtitle, MARGIN.left, doc.y + 12, { width: CONTENT_WIDTH });

  const rows: Array<[string, string]> = [
    ['应用', model.subject.name + (model.subject.version ? `（${model.subject.version}）` : '')],
    ['项目', model.project.name],
    ['检测对象', model.project.codeTypeLabel || '--'],
    ['任务', `#${model.task.seq}，完成于 ${reportTime(model.task.finishedAt)}`],
    ['生成时间', reportTime(model.generatedAt)],
    ['生成人', model.author || '--'],
    ['分析工具', `${model.tool.name} ${model.tool.version}`],
  ];
  let y = bandHeight + 70;
  const labelWidth = 90;
  for (const [label, value] of rows) {
    doc.font(FONT.regular).fontSize(11).fillColor(COLOUR.muted).text(label, MARGIN.left, y, { lineBreak: false });
    doc.font(FONT.bold).fontSize(11).fillColor(COLOUR.text).text(value, MARGIN.left + labelWidth, y, { width: CONTENT_WIDTH - labelWidth });
    y = Math.max(doc.y, y + 18) + 10;
    doc.moveTo(MARGIN.left, y - 6).lineTo(MARGIN.left + CONTENT_WIDTH, y - 6).lineWidth(0.5).strokeColor(COLOUR.rule).stroke();
  }
  doc.font(FONT.regular).fontSize(9).fillColor(COLOUR.muted);
  const note = `本报告由 ${model.tool.name} ${model.tool.version} 根据检测结果自动生成，内容反映生成时的分析数据。`;
  doc.text(note, MARGIN.left, PAGE.height - 80, { width: CONTENT_WIDTH, align: 'center' });
}

function tableOfContents({ doc, toc, lineHeight }: Layout): void {
  doc.switchToPage(1);
  doc.y = MARGIN.top;
  heading(doc, '目录', 0);
  let y = doc.y + 6;
  for (const entry of toc) {
    const size = entry.depth === 0 ? 12 : 10.5;
    const indent = entry.depth === 0 ? 0 : 24;
    const font = entry.depth === 0 ? FONT.bold : FONT.regular;
    const pageText = String(entry.page); // buffered index == printed number (the cover is not numbered)
    doc.font(font).fontSize(size).fillColor(COLOUR.text);
    const titleWidth = doc.widthOfString(entry.title);
    const pageWidth = doc.widthOfString(pageText);
    const h = lineHeight(size);
    doc.text(entry.title, MARGIN.left + indent, y, { lineBreak: false });
    doc.text(pageText, MARGIN.left + CONTENT_WIDTH - pageWidth, y, { lineBreak: false });
    // Dot leader between the title and the page number.
    const from = MARGIN.left + indent + titleWidth + 6;
    const to = MARGIN.left + CONTENT_WIDTH - pageWidth - 6;
    if (to > from) {
      doc.save().moveTo(from, y + h * 0.72).lineTo(to, y + h * 0.72).lineWidth(0.8).dash(1, { space: 2.5 }).strokeColor('#A9B1BC').stroke().restore();
    }
    doc.goTo(MARGIN.left, y, CONTENT_WIDTH, h, entry.dest);
    y += h + (entry.depth === 0 ? 10 : 6);
  }
}

function headersAndFooters({ doc, model, lineHeight }: Layout): void {
  const range = doc.bufferedPageRange();
  const numbered = range.count - 1; // the cover carries no number
  for (let i = range.start + 1; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing in the margins must not make pdfkit open a new page.
    const margins = doc.page.margins;
    doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLOUR.muted);
    const top = 34;
    doc.text(model.title, MARGIN.left, top, { lineBreak: false });
    const right = `${model.subject.name} / ${model.project.name}`;
    const rightWidth = Math.min(doc.widthOfString(right), CONTENT_WIDTH / 2);
    doc.text(right, MARGIN.left + CONTENT_WIDTH - rightWidth, top, { width: rightWidth, height: lineHeight(8.5), ellipsis: true, lineBreak: false });
    doc.moveTo(MARGIN.left, top + 18).lineTo(MARGIN.left + CONTENT_WIDTH, top + 18).lineWidth(0.8).strokeColor(COLOUR.brand).stroke();
    const footerY = PAGE.height - 42;
    doc.moveTo(MARGIN.left, footerY - 6).lineTo(MARGIN.left + CONTENT_WIDTH, footerY - 6).lineWidth(0.5).strokeColor(COLOUR.rule).stroke();
    const footer = `第 ${i - range.start} 页 / 共 ${numbered} 页`;
    doc.font(FONT.regular).fontSize(8.5).fillColor(COLOUR.muted);
    doc.text(footer, MARGIN.left + (CONTENT_WIDTH - doc.widthOfString(footer)) / 2, footerY, { lineBreak: false });
    doc.text(`${model.tool.name} ${model.tool.version}`, MARGIN.left, footerY, { lineBreak: false });
    doc.page.margins = margins;
  }
}

// ---------------------------------------------------------------------------------------------
// Headings and flow helpers

function heading(doc: Doc, title: string, depth: 0 | 1): void {
  if (depth === 0) {
    doc.font(FONT.bold).fontSize(17).fillColor(COLOUR.brand).text(title, MARGIN.left, doc.y, { lineBreak: false });
    const y = doc.y + 27;
    doc.moveTo(MARGIN.left, y).lineTo(MARGIN.left + CONTENT_WIDTH, y).lineWidth(1.2).strokeColor(COLOUR.brand).stroke();
    doc.y = y + 12;
  } else {
    const y = doc.y;
    doc.rect(MARGIN.left, y + 4, 3.5, 14).fill(COLOUR.accent);
    doc.font(FONT.bold).fontSize(12).fillColor(COLOUR.text).text(title, MARGIN.left + 10, y, { lineBreak: false });
    doc.y = y + 25;
  }
}

/**
 * Starts a numbered section with its bookmark, destination and contents entry: on a new page,
 * or below a short previous section when most of the page is still free (`mayContinue`).
 */
function startSection(layout: Layout, title: string, dest: string, mayContinue = false): void {
  const { doc, toc } = layout;
  if (mayContinue && doc.y < BOTTOM - 320) {
    doc.y += 20;
  } else {
    doc.addPage();
    doc.y = MARGIN.top;
  }
  doc.addNamedDestination(dest, 'XYZ', 0, PAGE.height - doc.y + 12, null);
  layout.outline = doc.outline.addItem(title);
  toc.push({ title, dest, page: doc.bufferedPageRange().count - 1, depth: 0 });
  heading(doc, title, 0);
}

function ensureSpace(doc: Doc, height: number): boolean {
  if (doc.y + height <= BOTTOM) return false;
  doc.addPage();
  doc.y = MARGIN.top;
  return true;
}

function paragraph(doc: Doc, text: string, size = 10, colour = COLOUR.text): void {
  doc.font(FONT.regular).fontSize(size).fillColor(colour).text(text, MARGIN.left, doc.y, { width: CONTENT_WIDTH, lineGap: 2 });
  doc.y += 6;
}

// ---------------------------------------------------------------------------------------------
// 一、概述

function summary(layout: Layout, charts: ReportChart[]): void {
  const { doc, model } = layout;
  startSection(layout, `${NUMERALS[0]}、概述`, 'summary');

  // An incomplete result says so before any figure, so no count reads as an all-clear.
  if (model.scope === 'full' && model.coverage.headline) {
    ensureSpace(doc, 60);
    paragraph(doc, model.coverage.headline, 11, COLOUR.warning);
  }
  heading(doc, '基本信息', 1);
  factsTable(layout, summaryFacts(model));
  doc.y += 10;

  const licence = model.scope === 'license';
  ensureSpace(doc, 110);
  heading(doc, licence ? '许可证风险等级统计' : '漏洞等级统计', 1);
  levelBoxes(doc, licence ? model.summary.licenseLevels : model.summary.vulnerabilityLevels, licence ? LICENSE_LEVEL_LABEL : VULNERABILITY_LEVEL_LABEL);
  doc.y += 10;

  if (charts.length === 0) return;
  ensureSpace(doc, 220);
  heading(doc, '统计图表', 1);
  const gap = 16;
  const w = (CONTENT_WIDTH - gap) / 2;
  for (let i = 0; i < charts.length; i += 2) {
    const pair = charts.slice(i, i + 2);
    const h = Math.max(...pair.map((c) => (c.height * w) / c.width));
    ensureSpace(doc, h + 28);
    const y = doc.y;
    pair.forEach((chart, j) => {
      const x = MARGIN.left + j * (w + gap);
      doc.rect(x, y, w, h + 26).lineWidth(0.6).strokeColor(COLOUR.rule).stroke();
      doc.font(FONT.bold).fontSize(10).fillColor(COLOUR.text).text(chart.title, x + 10, y + 6, { lineBreak: false });
      doc.image(chart.png, x + 2, y + 24, { width: w - 4, height: ((w - 4) * chart.height) / chart.width });
    });
    doc.y = y + h + 26 + 12;
  }
}

function factsTable({ doc, lineHeight }: Layout, facts: Array<[string, string]>): void {
  // Two key/value pairs per row: label | value | label | value.
  const labelW = 84;
  const valueW = CONTENT_WIDTH / 2 - labelW;
  const size = 9.5;
  for (let i = 0; i < facts.length; i += 2) {
    const pair = facts.slice(i, i + 2);
    doc.font(FONT.regular).fontSize(size);
    const h = Math.max(...pair.map(([, v]) => doc.heightOfString(v, { width: valueW - 2 * 6 })), lineHeight(size)) + 2 * 4;
    ensureSpace(doc, h);
    const y = doc.y;
    pair.forEach(([label, value], j) => {
      const x = MARGIN.left + j * (CONTENT_WIDTH / 2);
      doc.rect(x, y, labelW, h).fill(COLOUR.panel);
      doc.rect(x, y, labelW + valueW, h).lineWidth(0.5).strokeColor(COLOUR.rule).stroke();
      doc.font(FONT.regular).fontSize(size).fillColor(COLOUR.muted).text(label, x + 6, y + 4, { lineBreak: false });
      doc.font(FONT.bold).fontSize(size).fillColor(COLOUR.text).text(value, x + labelW + 6, y + 4, { width: valueW - 12 });
    });
    doc.y = y + h;
  }
}

function levelBoxes(doc: Doc, counts: Record<number, number>, labels: Record<number, string>): void {
  const gap = 10;
  const w = (CONTENT_WIDTH - gap * (LEVEL_CODES.length - 1)) / LEVEL_CODES.length;
  const h = 56;
  const y = doc.y;
  LEVEL_CODES.forEach((code, i) => {
    const x = MARGIN.left + i * (w + gap);
    const colour = LEVEL_COLOURS[code]!;
    doc.roundedRect(x, y, w, h, 4).fill(colour.fill);
    const count = String(counts[code] ?? 0);
    doc.font(FONT.bold).fontSize(22).fillColor(colour.text);
    doc.text(count, x + (w - doc.widthOfString(count)) / 2, y + 3, { lineBreak: false });
    const label = labels[code] ?? String(code);
    doc.font(FONT.regular).fontSize(10).fillColor(colour.text);
    doc.text(label, x + (w - doc.widthOfString(label)) / 2, y + 34, { lineBreak: false });
  });
  doc.y = y + h;
}

// ---------------------------------------------------------------------------------------------
// The tables

interface Cell {
  text: string;
  /** Lines when wrapped; 1 when it fits (drawn without the line wrapper). */
  lines: number;
  level?: number;
  numeric: boolean;
}

function tableSection(layout: Layout, section: AnyTableSection, index: number): void {
  const { doc, model } = layout;
  // The first table opens on its own page after the summary; later ones may follow a short one.
  startSection(layout, `${NUMERALS[index] ?? index + 1}、${section.title}`, section.key, index > 1);
  paragraph(doc, section.intro(model));
  const rows = section.rows(model);
  if (rows.length === 0) {
    emptyNote(layout, section.empty);
  } else {
    table(layout, section, rows);
  }
  if (section.key === VULNERABILITY_TABLE.key) vulnerabilityDetails(layout);
}

function emptyNote({ doc, lineHeight }: Layout, text: string): void {
  const h = lineHeight(10) + 20;
  ensureSpace(doc, h);
  const y = doc.y;
  doc.rect(MARGIN.left, y, CONTENT_WIDTH, h).fill(COLOUR.panel);
  doc.font(FONT.regular).fontSize(10).fillColor(COLOUR.muted).text(text, MARGIN.left + 12, y + 10, { lineBreak: false });
  doc.y = y + h + 8;
}

function table(layout: Layout, section: AnyTableSection, rows: readonly unknown[]): void {
  const { doc, lineHeight } = layout;
  const widths = columnWidths(doc, section, rows);
  const inner = widths.map((w) => w - 2 * CELL_PAD_X);
  const lh = lineHeight(TABLE_SIZE);
  const numericColumn = section.columns.map((c) => typeof c.value(rows[0]) === 'number');

  const measure = (text: string, i: number, font: string): number => {
    doc.font(font).fontSize(TABLE_SIZE);
    if (text.indexOf('\n') < 0 && doc.widthOfString(text) <= inner[i]!) return 1;
    return Math.max(1, Math.round(doc.heightOfString(text, { width: inner[i]! }) / lh));
  };

  const headerCells: Cell[] = section.columns.map((c, i) => ({ text: c.header, lines: measure(c.header, i, FONT.bold), numeric: numericColumn[i]! }));
  const headerHeight = Math.max(...headerCells.map((c) => c.lines)) * lh + 2 * CELL_PAD_Y;

  const drawHeader = () => {
    const y = doc.y;
    doc.rect(MARGIN.left, y, CONTENT_WIDTH, headerHeight).fill(COLOUR.brand);
    drawRow(doc, headerCells, widths, y, lh, FONT.bold, '#FFFFFF');
    doc.y = y + headerHeight;
  };

  ensureSpace(doc, headerHeight + lh * 2 + 4 * CELL_PAD_Y);
  drawHeader();
  rows.forEach((row, r) => {
    const cells: Cell[] = section.columns.map((c, i) => {
      const text = String(c.value(row));
      return { text, lines: measure(text, i, FONT.regular), level: c.level?.(row), numeric: numericColumn[i]! };
    });
    const height = Math.max(...cells.map((c) => c.lines)) * lh + 2 * CELL_PAD_Y;
    if (doc.y + height > BOTTOM) {
      doc.addPage();
      doc.y = MARGIN.top;
      drawHeader(); // the header row repeats at the top of every page of the table
    }
    const y = doc.y;
    if (r % 2 === 1) doc.rect(MARGIN.left, y, CONTENT_WIDTH, height).fill(COLOUR.zebra);
    drawRow(doc, cells, widths, y, lh, FONT.regular, COLOUR.text);
    doc.moveTo(MARGIN.left, y + height).lineTo(MARGIN.left + CONTENT_WIDTH, y + height).lineWidth(0.4).strokeColor(COLOUR.rule).stroke();
    doc.y = y + height;
  });
  doc.y += 10;
}

/**
 * Column widths from the content, much as a browser lays out an automatic table: each column
 * wants its values on one line (at most half the page) and needs at least its header and its
 * unbreakable words (at most MAX_MIN_COLUMN; longer words break by character). A few outliers do
 * not size a column: wants and needs are the 90th and 95th percentiles over the rows. When
 * everything fits the spare room is shared in proportion; otherwise each column gets its minimum
 * plus a share of the rest in proportion to how much more it wants. Short values (levels,
 * 直接依赖, versions) thus stay on one line and long ones (PURLs, explanations) wrap.
 */
function columnWidths(doc: Doc, section: AnyTableSection, rows: readonly unknown[]): number[] {
  const sample = rows.length > 300 ? rows.slice(0, 300) : rows;
  const pad = 2 * CELL_PAD_X + 1;
  const percentile = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : 0);
  const wants: number[] = [];
  const needs: number[] = [];
  for (const c of section.columns) {
    doc.font(FONT.bold).fontSize(TABLE_SIZE);
    const header = doc.widthOfString(c.header);
    doc.font(FONT.regular);
    const extra = c.level ? 6 : 0;
    const widths: number[] = [];
    const words: number[] = [];
    for (const row of sample) {
      const text = String(c.value(row));
      widths.push(doc.widthOfString(text) + extra);
      // Where pdfkit may break a line: spaces, after a slash, after a hyphen before a letter
      // ("LGPL-2.1-or-later", but never inside "Apache-2.0").
      let word = 0;
      for (const part of text.split(/\s+|(?<=\/)|(?<=-)(?=[A-Za-z])/)) if (part) word = Math.max(word, doc.widthOfString(part) + extra);
      words.push(word);
    }
    const want = Math.min(Math.max(header, percentile(widths, 0.9)), CONTENT_WIDTH / 2) + pad;
    wants.push(want);
    needs.push(Math.min(want, Math.max(header, Math.min(percentile(words, 0.95), MAX_MIN_COLUMN)) + pad));
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const want = sum(wants);
  const need = sum(needs);
  if (want <= CONTENT_WIDTH) return wants.map((w) => (w * CONTENT_WIDTH) / want);
  if (need >= CONTENT_WIDTH) return needs.map((n) => (n * CONTENT_WIDTH) / need);
  const share = (CONTENT_WIDTH - need) / (want - need);
  return needs.map((n, i) => n + (wants[i]! - n) * share);
}

function drawRow(doc: Doc, cells: Cell[], widths: number[], y: number, lh: number, font: string, colour: string): void {
  doc.font(font).fontSize(TABLE_SIZE);
  // Each fillColor call writes an operator: set it only when it changes (thousands of rows).
  let current = '';
  const paint = (c: string) => {
    if (c !== current) doc.fillColor(c);
    current = c;
  };
  let x = MARGIN.left;
  cells.forEach((cell, i) => {
    const w = widths[i]!;
    const badge = cell.level !== undefined ? LEVEL_COLOURS[cell.level] : undefined;
    if (badge && cell.lines === 1) {
      // The level as a coloured label, so the severity reads at a glance.
      const tw = doc.widthOfString(cell.text);
      doc.roundedRect(x + CELL_PAD_X - 1, y + CELL_PAD_Y - 0.5, tw + 8, lh + 1, 2.5).fill(badge.fill);
      current = badge.fill;
      paint(badge.text);
      doc.text(cell.text, x + CELL_PAD_X + 3, y + CELL_PAD_Y - 0.5, { lineBreak: false });
    } else if (cell.lines === 1) {
      const tx = cell.numeric ? x + w - CELL_PAD_X - doc.widthOfString(cell.text) : x + CELL_PAD_X;
      paint(badge ? badge.fill : colour);
      doc.text(cell.text, tx, y + CELL_PAD_Y, { lineBreak: false });
    } else {
      paint(badge ? badge.fill : colour);
      doc.text(cell.text, x + CELL_PAD_X, y + CELL_PAD_Y, { width: w - 2 * CELL_PAD_X, align: cell.numeric ? 'right' : 'left' });
    }
    x += w;
  });
}

// ---------------------------------------------------------------------------------------------
// 漏洞详情 (超危 and 高危 only)

function vulnerabilityDetails(layout: Layout): void {
  const { doc, model, toc } = layout;
  const severe = model.vulnerabilities.filter((v) => DETAIL_LEVELS.has(v.level)).sort((a, b) => a.level - b.level);
  if (severe.length === 0) return;
  // Keep the heading with its first entry (an entry is about 200 pt high).
  ensureSpace(doc, 260);
  doc.y += 6;
  doc.addNamedDestination('vulnerabilityDetails', 'XYZ', 0, PAGE.height - doc.y + 10, null);
  (layout.outline ?? doc.outline).addItem('漏洞详情');
  toc.push({ title: '漏洞详情（超危、高危）', dest: 'vulnerabilityDetails', page: doc.bufferedPageRange().count - 1, depth: 1 });
  heading(doc, '漏洞详情（超危、高危）', 1);
  const shown = severe.slice(0, DETAIL_LIMIT);
  if (severe.length > DETAIL_LIMIT) {
    paragraph(doc, `超危、高危漏洞共 ${severe.length} 个，以下仅列出前 ${DETAIL_LIMIT} 个的详情，其余见上方漏洞清单。`, 9.5, COLOUR.muted);
  }
  for (const v of shown) detailEntry(layout, v);
}

function detailEntry({ doc, lineHeight }: Layout, v: ReportVulnerability): void {
  const labelW = 60;
  const valueW = CONTENT_WIDTH - labelW - 16;
  const size = 9;
  const references = v.references.slice(0, 5);
  const fields: Array<[string, string]> = [
    ['组件', `${v.componentName}@${v.componentVersion}${v.componentPurl ? `（${v.componentPurl}）` : ''}`],
    ['漏洞名称', v.title || '--'],
    ['其他编号', [v.cnnvd, v.cnvd, ...v.aliases].filter(Boolean).join('，') || '--'],
    ['CVSS', v.score == null ? '--' : `${v.score.toFixed(1)}${v.vector ? `（${v.vector}）` : ''}`],
    ['评级来源', v.severitySource || (v.originalLevel === 16 ? `${UNRATED_FINDING.label}：${UNRATED_FINDING.reason}` : '--')],
    ['漏洞描述', v.description || '--'],
    ['修复版本', fixedInText(v.fixedVersions, v.fixState, '，', '暂无')],
    ['推荐升级', v.upgrade.version ? `升级到 ${v.upgrade.version} 或更高版本` : v.upgrade.reason],
  ];
  doc.font(FONT.regular).fontSize(size);
  const heights = fields.map(([, value]) => doc.heightOfString(value, { width: valueW, lineGap: 1 }));
  const refHeight = references.length > 0 ? references.length * lineHeight(size) : lineHeight(size);
  const titleH = 24;
  const total = titleH + heights.reduce((a, b) => a + b + 3, 0) + refHeight + 3 + 14;
  ensureSpace(doc, Math.min(total, BOTTOM - MARGIN.top));

  const top = doc.y;
  doc.rect(MARGIN.left, top, CONTENT_WIDTH, titleH).fill(COLOUR.panel);
  const badge = LEVEL_COLOURS[v.level]!;
  const label = labelOf(VULNERABILITY_LEVEL_LABEL, v.level);
  doc.font(FONT.bold).fontSize(size);
  const bw = doc.widthOfString(label) + 10;
  doc.roundedRect(MARGIN.left + 8, top + 5.5, bw, lineHeight(size), 2.5).fill(badge.fill);
  doc.fillColor(badge.text).text(label, MARGIN.left + 13, top + 5.5, { lineBreak: false });
  doc.font(FONT.bold).fontSize(10.5).fillColor(COLOUR.text).text(v.id, MARGIN.left + 16 + bw, top + 3.5, { lineBreak: false });
  let y = top + titleH + 4;
  fields.forEach(([name, value], i) => {
    doc.font(FONT.regular).fontSize(size).fillColor(COLOUR.muted).text(name, MARGIN.left + 8, y, { lineBreak: false });
    doc.fillColor(COLOUR.text).text(value, MARGIN.left + 8 + labelW, y, { width: valueW, lineGap: 1 });
    y += heights[i]! + 3;
  });
  doc.font(FONT.regular).fontSize(size).fillColor(COLOUR.muted).text('参考链接', MARGIN.left + 8, y, { lineBreak: false });
  if (references.length === 0) {
    doc.fillColor(COLOUR.text).text('--', MARGIN.left + 8 + labelW, y, { lineBreak: false });
    y += lineHeight(size);
  }
  for (const ref of references) {
    doc.fillColor(COLOUR.link).text(ref, MARGIN.left + 8 + labelW, y, { width: valueW, height: lineHeight(size), ellipsis: true, lineBreak: false, link: ref });
    y += lineHeight(size);
  }
  y += 6;
  doc.moveTo(MARGIN.left, y).lineTo(MARGIN.left + CONTENT_WIDTH, y).lineWidth(0.4).strokeColor(COLOUR.rule).stroke();
  doc.y = y + 8;
}
