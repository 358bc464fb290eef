// The Word report: the same content as the PDF (sections.ts), laid out with the `docx` package.
// Cover, a static table of contents linked to bookmarks (a TOC field would make Word and WPS ask
// to update fields when the file opens), the summary with its charts, then every table section.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  Document,
  Footer,
  Header,
  HeadingLevel,
  ImageRun,
  InternalHyperlink,
  LineRuleType,
  Packer,
  PageBreak,
  PageNumber,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TextRun,
  VerticalAlignTable,
  WidthType,
} from 'docx';
import type { IFontAttributesProperties } from 'docx';
import { summaryCharts } from './charts.ts';
import type { ReportChart } from './charts.ts';
import type { ReportModel } from './model.ts';
import { LEVEL_COLOURS, reportTime, sectionsFor, summaryFacts } from './sections.ts';
import type { AnyTableSection } from './sections.ts';
import { privateWriteStream } from '../files/private.ts';

// Latin text in Arial, Chinese in 微软雅黑 (the name Chinese Word writes; FONT_TABLE below gives
// its English name, character set and PANOSE class so Word and WPS substitute a Chinese sans-serif
// where it is not installed). `hint: eastAsia` makes shared punctuation take the Chinese font.
const FONT: IFontAttributesProperties = { ascii: 'Arial', hAnsi: 'Arial', cs: 'Arial', eastAsia: '微软雅黑', hint: 'eastAsia' };

// A4 in twips, with 2 cm side margins: the tables are scaled to the width between them.
const PAGE_WIDTH = 11906;
const PAGE_HEIGHT = 16838;
const MARGIN_X = 1134;
const MARGIN_Y = 1247;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;

const TABLE_FONT_SIZE = 16; // half-points: 8 pt keeps the 9-column component table readable on A4 portrait
const HEADER_FILL = 'E8ECF2';
const BORDER_COLOUR = 'C5CBD3';
const OVERVIEW_ANCHOR = 'sec_overview';
const TABLE_TEXT_STYLE = 'ReportTableText';

const CHINESE_NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];
/** 1 → 一, 12 → 十二 (enough for the few sections a report has). */
function chineseNumeral(n: number): string {
  if (n <= 10) return CHINESE_NUMERALS[n - 1]!;
  return `十${CHINESE_NUMERALS[(n % 10) - 1] ?? ''}`;
}

// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Model text without the characters XML 1.0 cannot carry (a scanned manifest may hold any). */
const clean = (text: string) => text.replace(INVALID_XML, '');

const hex = (colour: string) => colour.replace('#', '').toUpperCase();
const anchorOf = (section: AnyTableSection) => `sec_${section.key}`;

const cellBorders = {
  top: { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOUR },
  bottom: { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOUR },
  left: { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOUR },
  right: { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOUR },
  insideHorizontal: { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOUR },
  insideVertical: { style: BorderStyle.SINGLE, size: 4, color: BORDER_COLOUR },
};
const cellMargins = { top: 40, bottom: 40, left: 80, right: 80 };

/** Relative column widths scaled to the content width in twips (the last column takes the rounding). */
function scaledWidths(widths: readonly number[]): number[] {
  const total = widths.reduce((a, b) => a + b, 0);
  const scaled = widths.map((w) => Math.floor((w / total) * CONTENT_WIDTH));
  scaled[scaled.length - 1]! += CONTENT_WIDTH - scaled.reduce((a, b) => a + b, 0);
  return scaled;
}

function cell(text: string, width: number, options: { bold?: boolean; fill?: string; colour?: string } = {}): TableCell {
  return new TableCell({
    width: { size: width, type: WidthType.DXA },
    verticalAlign: VerticalAlignTable.CENTER,
    ...(options.fill ? { shading: { type: ShadingType.CLEAR, color: 'auto', fill: options.fill } } : {}),
    children: [
      new Paragraph({
        style: TABLE_TEXT_STYLE,
        // A cell of several lines (a licence finding's evidence) breaks at them.
        children: clean(text).split('\n').map((line, i) => new TextRun({
          text: line, ...(i > 0 ? { break: 1 } : {}), ...(options.bold ? { bold: true } : {}), ...(options.colour ? { color: options.colour } : {}),
        })),
      }),
    ],
  });
}

function heading(text: string, anchor: string): Paragraph {
  return new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new Bookmark({ id: anchor, children: [new TextRun(text)] })] });
}

function cover(model: ReportModel): Paragraph[] {
  const lines: Array<[string, string]> = [
    ['应用', model.subject.name + (model.subject.version ? `（${model.subject.version}）` : '')],
    ['项目', model.project.name],
    ['任务', model.task.id > 0 ? `#${model.task.seq}` : '--'],
    ['生成时间', reportTime(model.generatedAt)],
    ['生成人', model.author],
  ];
  return [
    new Paragraph({ spacing: { before: 3600, after: 1200 }, alignment: AlignmentType.CENTER, children: [new TextRun({ text: clean(model.title), bold: true, size: 52 })] }),
    ...lines.map(
      ([label, value]) =>
        new Paragraph({
          alignment: AlignmentType.CENTER,
          spacing: { after: 160 },
          children: [new TextRun({ text: `${label}：`, bold: true, size: 26 }), new TextRun({ text: clean(value), size: 26 })],
        }),
    ),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      spacing: { before: 2400 },
      children: [new TextRun({ text: clean(`${model.tool.name} ${model.tool.version}`), color: '666666', size: 22 })],
    }),
    new Paragraph({ children: [new PageBreak()] }),
  ];
}

function contents(entries: Array<{ title: string; anchor: string }>): Paragraph[] {
  return [
    new Paragraph({ heading: HeadingLevel.TITLE, alignment: AlignmentType.CENTER, children: [new TextRun('目录')] }),
    ...entries.map(
      (e) =>
        new Paragraph({
          spacing: { after: 120 },
          children: [new InternalHyperlink({ anchor: e.anchor, children: [new TextRun({ text: e.title, color: '1F5FAD', size: 24 })] })],
        }),
    ),
    new Paragraph({ children: [new PageBreak()] }),
  ];
}

async function overview(model: ReportModel, title: string): Promise<Array<Paragraph | Table>> {
  const facts = summaryFacts(model);
  const widths = scaledWidths([1, 2]);
  const factTable = new Table({
    width: { size: CONTENT_WIDTH, type: WidthType.DXA },
    columnWidths: widths,
    layout: TableLayoutType.FIXED,
    borders: cellBorders,
    margins: cellMargins,
    rows: facts.map(([label, value]) => new TableRow({ cantSplit: true, children: [cell(label, widths[0]!, { bold: true, fill: HEADER_FILL }), cell(value, widths[1]!)] })),
  });
  const out: Array<Paragraph | Table> = [heading(title, OVERVIEW_ANCHOR)];
  // An incomplete result says so before any figure, so no count reads as an all-clear.
  if (model.scope === 'full' && model.coverage.headline) {
    out.push(new Paragraph({ spacing: { after: 160 }, children: [new TextRun({ text: model.coverage.headline, bold: true, color: 'B3261E' })] }));
  }
  out.push(factTable);
  const charts = await summaryCharts(model);
  if (charts.length > 0) out.push(new Paragraph({ spacing: { before: 240 }, children: [] }), chartGrid(charts));
  return out;
}

/** The charts two to a row in a borderless table, each under its title, scaled to the cell. */
function chartGrid(charts: ReportChart[]): Table {
  const half = Math.floor(CONTENT_WIDTH / 2);
  const widths = [half, CONTENT_WIDTH - half];
  // The cell width in pixels less its side margins (80 twips each).
  const maxPx = Math.floor(((half - 160) / 1440) * 96);
  const none = { style: BorderStyle.NONE, size: 0, color: 'auto' };
  const chartCell = (chart: ReportChart | undefined, width: number) => {
    if (!chart) return new TableCell({ width: { size: width, type: WidthType.DXA }, children: [new Paragraph({ children: [] })] });
    const scale = Math.min(1, maxPx / chart.width);
    return new TableCell({
      width: { size: width, type: WidthType.DXA },
      children: [
        new Paragraph({ alignment: AlignmentType.CENTER, spacing: { after: 60 }, children: [new TextRun({ text: chart.title, bold: true })] }),
        new Paragraph({
          alignment: AlignmentType.CENTER,
          spacing: { after: 200 },
          children: [
            new ImageRun({
              type: 'png',
              data: chart.png,
              transformation: { width: Math.round(chart.width * scale), height: Math.round(chart.height * scale) },
              altText: { name: chart.key, title: chart.title, description: chart.title },
            }),
          ],
        }),
      ],
    });
  };
  const rows: TableRow[] = [];
  for (let i = 0; i < charts.length; i += 2) {
    rows.push(new TableRow({ cantSplit: true, children: [chartCell(charts[i], widths[0]!), chartCell(charts[i + 1], widths[1]!)] }));
  }
  return new Table({
    width: { size: CONTENT_WIDTH, type: WidthType.DXA },
    columnWidths: widths,
    layout: TableLayoutType.FIXED,
    borders: { top: none, bottom: none, left: none, right: none, insideHorizontal: none, insideVertical: none },
    margins: { top: 0, bottom: 0, left: 80, right: 80 },
    rows,
  });
}

/**
 * Builds the Word document of a report model, each big table left as a placeholder paragraph.
 * The placeholder carries a random nonce, so no text from the model can pass for one.
 */
async function buildDocx(model: ReportModel, placeholder: (section: AnyTableSection) => string): Promise<Document> {
  const sections = sectionsFor(model);
  const overviewTitle = `${chineseNumeral(1)}、概述`;
  const entries = [
    { title: overviewTitle, anchor: OVERVIEW_ANCHOR },
    ...sections.map((s, i) => ({ title: `${chineseNumeral(i + 2)}、${s.title}`, anchor: anchorOf(s) })),
  ];
  const body: Array<Paragraph | Table> = [...cover(model), ...contents(entries), ...(await overview(model, overviewTitle))];
  sections.forEach((section, i) => {
    body.push(
      new Paragraph({ children: [new PageBreak()] }),
      heading(entries[i + 1]!.title, entries[i + 1]!.anchor),
      new Paragraph({ spacing: { after: 160 }, children: [new TextRun(clean(section.intro(model)))] }),
      section.rows(model).length === 0
        ? new Paragraph({ children: [new TextRun({ text: section.empty, color: '666666' })] })
        : new Paragraph({ children: [new TextRun(placeholder(section))] }),
    );
  });

  const small = { size: 18, color: '666666' };
  // Word wants a paragraph after a table that ends the body.
  body.push(new Paragraph({ children: [] }));
  return new Document({
    creator: clean(model.author),
    title: clean(model.title),
    description: clean(`${model.subject.name} / ${model.project.name}`),
    lastModifiedBy: clean(model.author),
    // Line spacing always names its rule: LibreOffice reads a bare w:line as exact and clips
    // the inline charts to a single line.
    styles: {
      default: {
        document: { run: { font: FONT, size: 21 }, paragraph: { spacing: { line: 300, lineRule: LineRuleType.AUTO } } },
        title: { run: { font: FONT, size: 36, bold: true, color: '000000' }, paragraph: { spacing: { after: 360 } } },
        heading1: { run: { font: FONT, size: 32, bold: true, color: '1F3864' }, paragraph: { spacing: { before: 240, after: 240 }, keepNext: true } },
      },
      paragraphStyles: [
        // The big tables' cells (written as XML by tableXml) name this style instead of repeating it.
        { id: TABLE_TEXT_STYLE, name: 'Report Table Text', basedOn: 'Normal', run: { size: TABLE_FONT_SIZE }, paragraph: { spacing: { before: 0, after: 0, line: 240, lineRule: LineRuleType.AUTO } } },
      ],
    },
    sections: [
      {
        properties: {
          titlePage: true,
          page: { size: { width: PAGE_WIDTH, height: PAGE_HEIGHT }, margin: { top: MARGIN_Y, bottom: MARGIN_Y, left: MARGIN_X, right: MARGIN_X, header: 567, footer: 567 } },
        },
        headers: {
          default: new Header({ children: [new Paragraph({ alignment: AlignmentType.RIGHT, children: [new TextRun({ text: clean(model.title), ...small })] })] }),
          // The cover has no header or page number.
          first: new Header({ children: [new Paragraph({ children: [] })] }),
        },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                alignment: AlignmentType.CENTER,
                children: [
                  new TextRun({ text: '第 ', ...small }),
                  new TextRun({ children: [PageNumber.CURRENT], ...small }),
                  new TextRun({ text: ' 页 / 共 ', ...small }),
                  new TextRun({ children: [PageNumber.TOTAL_PAGES], ...small }),
                  new TextRun({ text: ' 页', ...small }),
                ],
              }),
            ],
          }),
          first: new Footer({ children: [new Paragraph({ children: [] })] }),
        },
        children: body,
      },
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// The big tables. Tens of thousands of rows as docx objects take minutes and gigabytes, so the
// document is packed with a placeholder paragraph per table and the tables' XML is then streamed
// into word/document.xml in their place, written exactly as docx writes a table.

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Escapes text for XML and drops the characters XML 1.0 cannot carry at all. */
function xmlText(text: string): string {
  return clean(text).replace(/[&<>"]/g, (c) => XML_ESCAPES[c]!);
}

const border = (side: string) => `<w:${side} w:val="single" w:color="${BORDER_COLOUR}" w:sz="4"/>`;
const TABLE_PROPERTIES =
  `<w:tblPr><w:tblW w:type="dxa" w:w="${CONTENT_WIDTH}"/>` +
  `<w:tblBorders>${['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map(border).join('')}</w:tblBorders>` +
  `<w:tblLayout w:type="fixed"/>` +
  `<w:tblCellMar><w:top w:type="dxa" w:w="${cellMargins.top}"/><w:left w:type="dxa" w:w="${cellMargins.left}"/><w:bottom w:type="dxa" w:w="${cellMargins.bottom}"/><w:right w:type="dxa" w:w="${cellMargins.right}"/></w:tblCellMar>` +
  `</w:tblPr>`;

function cellXml(text: string, width: number, style: { bold?: boolean; fill?: string; colour?: string } = {}): string {
  const shading = style.fill ? `<w:shd w:fill="${style.fill}" w:color="auto" w:val="clear"/>` : '';
  const runProps = (style.bold ? '<w:b/><w:bCs/>' : '') + (style.colour ? `<w:color w:val="${style.colour}"/>` : '');
  return (
    `<w:tc><w:tcPr><w:tcW w:type="dxa" w:w="${width}"/>${shading}<w:vAlign w:val="center"/></w:tcPr>` +
    `<w:p><w:pPr><w:pStyle w:val="${TABLE_TEXT_STYLE}"/></w:pPr><w:r>${runProps ? `<w:rPr>${runProps}</w:rPr>` : ''}` +
    `<w:t xml:space="preserve">${xmlText(text)}</w:t></w:r></w:p></w:tc>`
  );
}

/** A section's table as WordprocessingML, in chunks of rows: header repeated on every page, level cells shaded. */
function* tableXml(section: AnyTableSection, model: ReportModel): Generator<string> {
  const widths = scaledWidths(section.columns.map((c) => c.width));
  yield `<w:tbl>${TABLE_PROPERTIES}<w:tblGrid>${widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>` +
    `<w:tr><w:trPr><w:cantSplit/><w:tblHeader/></w:trPr>${section.columns.map((c, i) => cellXml(c.header, widths[i]!, { bold: true, fill: HEADER_FILL })).join('')}</w:tr>`;
  let chunk = '';
  let count = 0;
  for (const row of section.rows(model)) {
    chunk += '<w:tr><w:trPr><w:cantSplit/></w:trPr>';
    section.columns.forEach((column, i) => {
      const level = column.level?.(row);
      const colours = level === undefined ? undefined : LEVEL_COLOURS[level];
      chunk += cellXml(String(column.value(row)), widths[i]!, colours ? { fill: hex(colours.fill), colour: hex(colours.text) } : {});
    });
    chunk += '</w:tr>';
    if (++count % 500 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}</w:tbl>`;
}

/** word/document.xml with every placeholder paragraph replaced by its section's table. */
function* documentXml(packed: string, model: ReportModel, placeholder: (section: AnyTableSection) => string): Generator<string> {
  let at = 0;
  for (const section of sectionsFor(model)) {
    const marker = packed.indexOf(placeholder(section), at);
    if (marker < 0) continue; // an empty section: it has its `empty` sentence instead
    const start = Math.max(packed.lastIndexOf('<w:p>', marker), packed.lastIndexOf('<w:p ', marker));
    const end = packed.indexOf('</w:p>', marker) + '</w:p>'.length;
    yield packed.slice(at, start);
    yield* tableXml(section, model);
    at = end;
  }
  yield packed.slice(at);
}

/**
 * The font table Word would write: the alternative (English) name, character set and PANOSE
 * class let Word and WPS substitute a similar font when one is not installed (another Chinese
 * sans-serif for 微软雅黑 rather than a Latin font), which an empty font table does not.
 */
const FONT_TABLE =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<w:fonts xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
  '<w:font w:name="Arial"><w:panose1 w:val="020B0604020202020204"/><w:charset w:val="00"/><w:family w:val="swiss"/><w:pitch w:val="variable"/>' +
  '<w:sig w:usb0="E0002EFF" w:usb1="C000785B" w:usb2="00000009" w:usb3="00000000" w:csb0="000001FF" w:csb1="00000000"/></w:font>' +
  '<w:font w:name="微软雅黑"><w:altName w:val="Microsoft YaHei"/><w:panose1 w:val="020B0503020204020204"/><w:charset w:val="86"/><w:family w:val="swiss"/><w:pitch w:val="variable"/>' +
  '<w:sig w:usb0="80000287" w:usb1="2ACF3C50" w:usb2="00000016" w:usb3="00000000" w:csb0="0004001F" w:csb1="00000000"/></w:font>' +
  '</w:fonts>';

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => (err || !zip ? reject(err ?? new Error('docx')) : resolve(zip))));
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error(entry.fileName));
      const parts: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => parts.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(parts)));
    });
  });
}

/** The packed document's entries in order (they are small: the tables are not in it yet). */
async function entriesOf(buffer: Buffer): Promise<Array<{ name: string; data: Buffer }>> {
  const zip = await openZip(buffer);
  const entries: Array<{ name: string; data: Buffer }> = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      readEntry(zip, entry).then((data) => {
        entries.push({ name: entry.fileName, data });
        zip.readEntry();
      }, reject);
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** Writes the Word report of `model` to `file`. */
export async function writeDocx(model: ReportModel, file: string): Promise<void> {
  const nonce = randomUUID();
  const placeholder = (section: AnyTableSection) => `cairn-table-${nonce}-${section.key}`;
  const packed = await Packer.toBuffer(await buildDocx(model, placeholder));
  const out = new yazl.ZipFile();
  const entries = await entriesOf(packed);
  // [Content_Types].xml first, as Office writes it: some readers sniff the package by it.
  entries.sort((a, b) => Number(b.name === '[Content_Types].xml') - Number(a.name === '[Content_Types].xml'));
  for (const { name, data } of entries) {
    if (name === 'word/document.xml') out.addReadStream(Readable.from(documentXml(data.toString('utf8'), model, placeholder)), name);
    else if (name === 'word/fontTable.xml') out.addBuffer(Buffer.from(FONT_TABLE, 'utf8'), name);
    else out.addBuffer(data, name);
  }
  out.end();
  await pipeline(out.outputStream, privateWriteStream(file));
}
