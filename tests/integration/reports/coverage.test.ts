// Never a false all-clear in a report (issue 14 item 1): a model whose run was analysed while the
// knowledge base held nothing for golang and was 45 days old says 漏洞结果不完整 and why in every
// format — PDF (text read back with pdfjs-dist), Word, Excel, CSV, CycloneDX and SPDX — and its
// golang components read 未覆盖, not 无漏洞. A complete model says nothing of the kind.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryCharts } from '../../../server/reports/charts.ts';
import { writeComponentsCsv } from '../../../server/reports/csv.ts';
import { writeCycloneDx } from '../../../server/reports/cyclonedx.ts';
import { writeDocx } from '../../../server/reports/docx.ts';
import { writePdf } from '../../../server/reports/pdf.ts';
import { COMPONENT_TABLE, summaryFacts } from '../../../server/reports/sections.ts';
import { writeSpdx } from '../../../server/reports/spdx.ts';
import { writeXlsx } from '../../../server/reports/xlsx.ts';
import { sampleReportModel } from '../../support/report-model.ts';

async function pdfText(file: string): Promise<string> {
  const task = getDocument({ data: new Uint8Array(readFileSync(file)), useSystemFonts: false });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let i = 1; i <= Math.min(pdf.numPages, 6); i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  await task.destroy();
  return pages.join('\n');
}

describe('reports of an incomplete result', () => {
  const incomplete = sampleReportModel({ components: 16, vulnerabilities: 10, incomplete: true });
  const complete = sampleReportModel({ components: 16, vulnerabilities: 10 });
  // A package of an ecosystem the knowledge base holds nothing for can have no finding.
  for (const c of incomplete.components) if (!c.covered) c.vulnerabilityCount = 0;
  const golang = incomplete.components.filter((c) => c.ecosystem === 'golang');
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(path.join(tmpdir(), 'cairn-coverage-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the uncovered components 未覆盖 and states the result in the summary facts', () => {
    expect(golang.length).toBeGreaterThan(0);
    const risk = COMPONENT_TABLE.columns.find((c) => c.header === '风险等级')!;
    for (const c of golang) expect(risk.value(c)).toBe('未覆盖（知识库未收录该生态）');
    expect(risk.value(incomplete.components.find((c) => c.covered && c.risk === 32)!)).toBe('无漏洞');
    expect(COMPONENT_TABLE.intro(incomplete)).toContain(`其中 ${golang.length} 个组件所属生态未被知识库收录`);
    expect(Object.fromEntries(summaryFacts(incomplete))['漏洞结果']).toBe(incomplete.coverage.headline);
    expect(Object.fromEntries(summaryFacts(complete))['漏洞结果']).toMatch(/^完整/);
  });

  it('says 漏洞结果不完整 and why in the PDF text', async () => {
    const file = path.join(dir, 'incomplete.pdf');
    await writePdf(incomplete, file);
    const text = await pdfText(file);
    expect(text).toContain('漏洞结果不完整');
    expect(text).toContain('知识库中没有 golang 生态的漏洞数据');
    expect(text).toContain('知识库已 45 天未更新');
    expect(text).toContain('未覆盖');

    const clean = path.join(dir, 'complete.pdf');
    await writePdf(complete, clean);
    expect(await pdfText(clean)).not.toContain('不完整');
  }, 60_000);

  it('says so in the Word report, the Excel overview and every CSV row', async () => {
    await writeDocx(incomplete, path.join(dir, 'r.docx'));
    const { value: text } = await mammoth.extractRawText({ path: path.join(dir, 'r.docx') });
    expect(text).toContain(incomplete.coverage.headline!);
    expect(text).toContain('未覆盖（知识库未收录该生态）');

    await writeXlsx(incomplete, path.join(dir, 'r.xlsx'));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path.join(dir, 'r.xlsx'));
    const cells: string[] = [];
    workbook.getWorksheet('概述')!.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
    expect(cells).toContain(incomplete.coverage.headline);

    await writeComponentsCsv(incomplete, path.join(dir, 'r.csv'));
    const lines = readFileSync(path.join(dir, 'r.csv'), 'utf8').slice(1).split('\r\n').filter(Boolean);
    expect(lines[0]!.endsWith(',漏洞结果')).toBe(true);
    expect(lines.slice(1).every((l) => l.includes('漏洞结果不完整'))).toBe(true);
    await writeComponentsCsv(complete, path.join(dir, 'c.csv'));
    expect(readFileSync(path.join(dir, 'c.csv'), 'utf8')).not.toContain('漏洞结果');
  });

  it('carries it in the SBOMs: a CycloneDX property that still validates, SPDX comments', async () => {
    await writeCycloneDx(incomplete, path.join(dir, 'r.cdx.json'));
    const text = readFileSync(path.join(dir, 'r.cdx.json'), 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
    const bom = JSON.parse(text) as { metadata: { component: { properties: Array<{ name: string; value: string }> } }; components: Array<{ 'bom-ref': string; properties?: Array<{ name: string; value: string }> }> };
    expect(bom.metadata.component.properties).toContainEqual({ name: 'cairn:vulnerabilityCoverage', value: incomplete.coverage.headline });
    const go = bom.components.find((c) => c['bom-ref'] === golang[0]!.ref)!;
    expect(go.properties).toContainEqual({ name: 'cairn:vulnerabilityCoverage', value: '未覆盖：知识库未收录该生态' });

    await writeSpdx(incomplete, path.join(dir, 'r.spdx.json'));
    const doc = JSON.parse(readFileSync(path.join(dir, 'r.spdx.json'), 'utf8')) as { creationInfo: { comment?: string }; packages: Array<{ name: string; comment?: string }> };
    expect(doc.creationInfo.comment).toBe(incomplete.coverage.headline);
    expect(doc.packages[0]!.comment).toContain('漏洞结果不完整');
    expect(doc.packages.find((p) => p.name === golang[0]!.name)!.comment).toBe('漏洞未覆盖：知识库未收录该生态');
  }, 60_000);

  it('draws 未覆盖 apart from 无漏洞 in the component risk chart', async () => {
    const charts = await summaryCharts(incomplete);
    expect(charts.map((c) => c.key)).toContain('componentRisks');
  });
});
