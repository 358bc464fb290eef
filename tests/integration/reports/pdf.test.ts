// The PDF report end to end: written from the sample model, then read back with poppler (text,
// fonts, rendered pages) the way a reader's viewer would see it. Also the summary charts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryCharts } from '../../../server/reports/charts.ts';
import { writePdf } from '../../../server/reports/pdf.ts';
import { REPORT_TITLES } from '../../../server/reports/sections.ts';
import { hasCommand } from '../../support/commands.ts';
import { sampleReportModel } from '../../support/report-model.ts';

const hasPoppler = hasCommand('pdftotext', '-v');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SHOTS = path.resolve('test-results');

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** Share of dark pixels in a binary (P5) PGM image. */
function darkShare(file: string): number {
  const data = readFileSync(file);
  // Header: P5 <whitespace> width height maxval, then one byte per pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error(`not a PGM: ${file}`);
  const pixels = data.subarray(header[0].length);
  let dark = 0;
  for (const p of pixels) if (p < 160) dark++;
  return dark / pixels.length;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cairn-pdf-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasPoppler)('PDF report', () => {
  const model = sampleReportModel();
  let file: string;
  beforeAll(async () => {
    file = path.join(dir, 'report.pdf');
    await writePdf(model, file);
  });

  it('carries the title, the contents and every section with real data', () => {
    const text = run('pdftotext', ['-layout', file, '-']);
    for (const expected of [model.title, '目录', '概述', '组件清单', '漏洞清单', '漏洞详情', '许可证清单', '许可证冲突', '审计标记与 VEX 声明', '标记记录', '第 1 页']) {
      expect(text).toContain(expected);
    }
    for (const c of model.components.slice(0, 5)) expect(text).toContain(c.name);
    expect(text).toContain(model.vulnerabilities[0]!.id);
    // The details (超危 and 高危) say which source set each level.
    expect(text).toContain('评级来源');
    expect(text).toContain('CVSS:3.1 NVD 9.8');
    expect(text).toContain('CVSS:3.1 GHSA 7.5');
    expect(text).toContain('网上银行系统');
  });

  it('sizes table columns to their content: short values stay on one line', () => {
    // pdftotext -layout keeps each visual line: a wrapped cell leaves its halves on two lines.
    const text = run('pdftotext', ['-layout', file, '-']);
    const indirect = model.components.filter((c) => !c.direct).length;
    expect(text.split('间接依赖').length - 1).toBeGreaterThanOrEqual(indirect);
    for (const id of ['Apache-2.0', 'BSD-3-Clause', 'GPL-2.0-only']) {
      const declared = model.components.filter((c) => c.license === id).length;
      expect(text.split(id).length - 1, id).toBeGreaterThanOrEqual(declared);
    }
    for (const v of model.vulnerabilities) expect(text).toContain(v.id);
  });

  it('numbers the pages in the footer and lists the real page of each section in the contents', () => {
    const pages = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [file]))![1]);
    const numbered = pages - 1; // the cover is not numbered
    expect(run('pdftotext', ['-f', '2', '-l', '2', file, '-'])).toContain(`第 1 页 / 共 ${numbered} 页`);
    expect(run('pdftotext', ['-f', '1', '-l', '1', file, '-'])).not.toContain('第 ');
    // The contents line of 二、组件清单 points at the page whose heading it is.
    const contents = run('pdftotext', ['-layout', '-f', '2', '-l', '2', file, '-']);
    const page = Number(/二、组件清单[ .…]*?(\d+)\s*$/m.exec(contents)![1]);
    expect(run('pdftotext', ['-f', String(page + 1), '-l', String(page + 1), file, '-'])).toContain('二、组件清单');
  });

  it('embeds only subsets of the shipped font', () => {
    const rows = run('pdffonts', [file]).split('\n').slice(2).filter((l) => l.trim());
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      // name type encoding emb sub uni object ID: "yes yes" for emb and sub.
      expect(row).toMatch(/^[A-Z]{6}\+NotoSansSC-/);
      expect(row).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+\s*$/);
    }
  });

  it('renders pages that are not blank (screenshots in test-results/report-pdf-*.png)', () => {
    mkdirSync(SHOTS, { recursive: true });
    run('pdftoppm', ['-r', '50', '-f', '1', '-l', '3', '-png', file, path.join(SHOTS, 'report-pdf')]);
    const shots = readdirSync(SHOTS).filter((f) => /^report-pdf-\d+\.png$/.test(f));
    expect(shots.length).toBeGreaterThanOrEqual(3);
    run('pdftoppm', ['-r', '50', '-f', '1', '-l', '3', '-gray', file, path.join(dir, 'page')]);
    const pgms = readdirSync(dir).filter((f) => f.endsWith('.pgm'));
    expect(pgms).toHaveLength(3);
    for (const pgm of pgms) expect(darkShare(path.join(dir, pgm))).toBeGreaterThan(0.01);
  });

  it('a licence report has the licence sections only', async () => {
    const licence = { ...sampleReportModel(), scope: 'license' as const, title: REPORT_TITLES.license };
    const out = path.join(dir, 'license.pdf');
    await writePdf(licence, out);
    const text = run('pdftotext', ['-layout', out, '-']);
    expect(text).toContain(REPORT_TITLES.license);
    expect(text).toContain('许可证清单');
    expect(text).toContain('许可证冲突');
    expect(text).toContain('GPL-2.0-only');
    expect(text).not.toContain('组件清单');
    expect(text).not.toContain('漏洞清单');
  });

  it('writes a model without findings with the empty-section sentences', async () => {
    const empty = sampleReportModel({ components: 0, vulnerabilities: 0 });
    const out = path.join(dir, 'empty.pdf');
    await writePdf(empty, out);
    const text = run('pdftotext', [out, '-']);
    expect(text).toContain('未识别到组件。');
    expect(text).toContain('未发现已知漏洞。');
  });

  it('caps the vulnerability details at 200 超危/高危 findings with a note', async () => {
    const big = sampleReportModel({ components: 50, vulnerabilities: 520 });
    const severe = big.vulnerabilities.filter((v) => v.level <= 2).length;
    const out = path.join(dir, 'capped.pdf');
    await writePdf(big, out);
    const text = run('pdftotext', [out, '-']);
    expect(text).toContain(`超危、高危漏洞共 ${severe} 个，以下仅列出前 200 个的详情`);
    // Each detail entry has one 参考链接 line.
    expect(text.split('参考链接').length - 1).toBe(200);
  }, 90_000);

  it('rejects when the file cannot be written', async () => {
    await expect(writePdf(model, path.join(dir, 'missing-folder', 'report.pdf'))).rejects.toThrow();
  });
});

describe('summary charts', () => {
  it('renders the four charts of a full report as PNG images', async () => {
    const charts = await summaryCharts(sampleReportModel());
    expect(charts.map((c) => c.title)).toEqual(['漏洞等级分布', '组件风险分布', '许可证风险分布', '组件生态分布']);
    for (const chart of charts) {
      expect(chart.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(chart.png.length).toBeGreaterThan(5_000);
      // Rasterised at twice the logical size (IHDR width/height, big-endian).
      expect(chart.png.readUInt32BE(16)).toBe(chart.width * 2);
      expect(chart.png.readUInt32BE(20)).toBe(chart.height * 2);
    }
  });

  it('gives a licence report the licence chart only, and draws empty data', async () => {
    const licence = await summaryCharts({ ...sampleReportModel(), scope: 'license' });
    expect(licence.map((c) => c.key)).toEqual(['licenseLevels']);
    const empty = await summaryCharts(sampleReportModel({ components: 0, vulnerabilities: 0 }));
    expect(empty).toHaveLength(4);
    for (const chart of empty) expect(chart.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });
});
