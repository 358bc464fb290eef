// Offline review readers on real files: CycloneDX (JSON and XML, with a VEX), SPDX 2.3, OpenVEX
// from the shared corpora; an Excel workbook, a Word document, a PDF and a SWID tag zip made here
// with the same libraries the platform writes them with. Recognition is by content (a renamed
// file still opens), unknown files and folders are refused, zip bombs are stopped before inflating.
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import yazl from 'yazl';
import type { ReviewDocument, ReviewTable } from '../../../contract/ipc/desktop-contract.ts';
import { createReview, readForReview, REVIEW_MSG } from '../../../main/services/review/index.ts';

const corpora = path.resolve(import.meta.dirname, '../../../../shared/corpora');
const sbom = (...parts: string[]) => path.join(corpora, 'sbom', ...parts);

const tableOf = (doc: ReviewDocument, key: string): ReviewTable => {
  if (!('tables' in doc)) throw new Error(`${doc.kind} has no tables`);
  const found = doc.tables.find((t) => t.key === key);
  if (!found) throw new Error(`no table ${key}`);
  return found;
};

async function writeZip(file: string, entries: Array<[string, Buffer | string]>, compress = true): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of entries) zip.addBuffer(Buffer.isBuffer(body) ? body : Buffer.from(body), name, { compress });
  zip.end();
  const out = createWriteStream(file);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}

const swidTag = (name: string, version: string, tagId: string, regid: string) => `<?xml version="1.0" encoding="UTF-8"?>
<SoftwareIdentity xmlns="http://standards.iso.org/iso/19770/-2/2015/schema.xsd" name="${name}" version="${version}" tagId="${tagId}" versionScheme="semver">
  <Entity name="Cairn" regid="${regid}" role="tagCreator softwareCreator"/>
  <Meta product="${name}"/>
</SoftwareIdentity>
`;

describe('offline review readers', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-review-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a CycloneDX JSON SBOM: components with licences and purls, licence counts', async () => {
    const doc = await readForReview(sbom('examples/keycloak-10.0.2/bom.json'), 'bom.json');
    expect(doc).toMatchObject({ kind: 'sbom', standard: 'CycloneDX 1.2', name: 'keycloak-parent@10.0.2', fileName: 'bom.json' });
    const components = tableOf(doc, 'components');
    expect(components.title).toBe('组件');
    expect(components.columns.map((c) => c.title)).toEqual(['名称', '版本', 'PURL', '许可证', '范围']);
    expect(components.rows).toHaveLength(903);
    expect(components.rows[0]).toMatchObject({ name: 'org.bouncycastle:bcprov-jdk15on', version: '1.62', purl: 'pkg:maven/org.bouncycastle/bcprov-jdk15on@1.62?type=jar' });
    const licences = tableOf(doc, 'licenses');
    expect(licences.title).toBe('许可证');
    const apache = licences.rows.find((r) => r.licence === 'Apache-2.0');
    expect(apache?.count).toBeGreaterThan(100);
    // Every component is counted once per licence it has (or once as undeclared).
    expect(licences.rows.reduce((sum, r) => sum + Number(r.count), 0)).toBeGreaterThanOrEqual(903);
  });

  it('reads a CycloneDX VEX: severity, score, affected component and the VEX analysis', async () => {
    const doc = await readForReview(sbom('examples/VEX/vex.json'), 'vex.json');
    expect(doc).toMatchObject({ kind: 'sbom', standard: 'CycloneDX 1.4' });
    const vulns = tableOf(doc, 'vulnerabilities');
    expect(vulns.title).toBe('漏洞');
    expect(vulns.rows).toEqual([{
      id: 'CVE-2020-25649',
      severity: '高危',
      score: 8.2,
      affected: 'pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.10.0?type=jar',
      state: 'not_affected',
      justification: 'code_not_reachable',
      detail: 'Automated dataflow analysis and manual code review indicates that the vulnerable code is not reachable, either directly or indirectly.',
    }]);
    const many = await readForReview(sbom('examples/VEX/CISA-Use-Cases/Case-2/vex.json'), 'case2.json');
    expect(tableOf(many, 'vulnerabilities').rows).toHaveLength(19);
  });

  it('reads the same SBOM as CycloneDX XML', async () => {
    const json = await readForReview(sbom('examples/keycloak-10.0.2/bom.json'), 'bom.json');
    const xml = await readForReview(sbom('examples/keycloak-10.0.2/bom.xml'), 'bom.xml');
    expect(xml).toMatchObject({ kind: 'sbom', standard: 'CycloneDX 1.2', name: 'keycloak-parent@10.0.2' });
    // The XML export of this project also states each scope; the rest is the same data.
    const withoutScope = (doc: ReviewDocument) => tableOf(doc, 'components').rows.map(({ scope: _scope, ...row }) => row);
    expect(withoutScope(xml)).toEqual(withoutScope(json));
    expect(tableOf(xml, 'components').rows[0]!.scope).toBe('required');
    expect(tableOf(xml, 'licenses').rows).toEqual(tableOf(json, 'licenses').rows);
  });

  it('shows the image layer of each component of a container image\'s SBOM, and no such column otherwise', async () => {
    // trivy's CycloneDX of centos:7: its layer digest.
    const trivy = tableOf(await readForReview(path.join(corpora, 'trivy/sbom/centos-7-cyclonedx.json'), 'centos.json'), 'components');
    expect(trivy.columns.map((c) => c.title)).toContain('镜像层');
    expect(trivy.rows.find((r) => r.name === 'bash')?.layer).toBe('sha256:ac9208207adaac3a48e54a4dc6b49c69e78c3072d2b3add7efdabf814db2133b');
    // Cairn's own image exports: cairn:image:layer:index as 第 n 层, in CycloneDX properties and SPDX annotations.
    const cdx = path.join(dir, 'image.cdx.json');
    writeFileSync(cdx, JSON.stringify({
      bomFormat: 'CycloneDX', specVersion: '1.6', version: 1,
      metadata: { component: { type: 'container', name: 'registry.example.com/app:1.0', version: 'sha256:abc', 'bom-ref': 'image-1' } },
      components: [
        { type: 'library', name: 'openssl', version: '3.0.15', 'bom-ref': 'c1', properties: [{ name: 'cairn:direct', value: 'true' }, { name: 'cairn:image:layer:index', value: '0' }] },
        { type: 'library', name: 'express', version: '4.21.0', 'bom-ref': 'c2', properties: [{ name: 'cairn:image:layer:index', value: '2' }] },
      ],
    }));
    const image = await readForReview(cdx, 'image.cdx.json');
    expect(image).toMatchObject({ name: 'registry.example.com/app:1.0@sha256:abc' });
    expect(tableOf(image, 'components').rows.map((r) => [r.name, r.layer])).toEqual([['openssl', '第 1 层'], ['express', '第 3 层']]);
    const spdx = path.join(dir, 'image.spdx.json');
    const annotation = (comment: string) => ({ annotationType: 'OTHER', annotator: 'Tool: Cairn-1', annotationDate: '2026-11-22T08:00:00Z', comment });
    writeFileSync(spdx, JSON.stringify({
      spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT', name: 'app',
      packages: [
        { SPDXID: 'SPDXRef-Image-1', name: 'registry.example.com/app:1.0', primaryPackagePurpose: 'CONTAINER', annotations: [annotation('cairn:image:platform: linux/amd64')] },
        { SPDXID: 'SPDXRef-Package-c1', name: 'openssl', annotations: [annotation('cairn:image:layer:index: 1'), annotation('cairn:image:layer:digest: sha256:01')] },
      ],
      relationships: [{ spdxElementId: 'SPDXRef-Image-1', relationshipType: 'CONTAINS', relatedSpdxElement: 'SPDXRef-Package-c1' }],
    }));
    const spdxRows = tableOf(await readForReview(spdx, 'image.spdx.json'), 'components');
    expect(spdxRows.columns.map((c) => c.title)).toContain('镜像层');
    expect(spdxRows.rows.map((r) => [r.name, r.layer])).toEqual([['registry.example.com/app:1.0', null], ['openssl', '第 2 层']]);
    // Any other SBOM keeps its columns.
    const plain = tableOf(await readForReview(sbom('spdx-tools/data/SPDXJSONExample-v2.3.spdx.json'), 'example.spdx.json'), 'components');
    expect(plain.columns.map((c) => c.title)).not.toContain('镜像层');
    expect(plain.rows.every((r) => !('layer' in r))).toBe(true);
  });

  it('reads SPDX 2.3 JSON: packages with purls, relationships by name, licences', async () => {
    const doc = await readForReview(sbom('spdx-tools/data/SPDXJSONExample-v2.3.spdx.json'), 'example.spdx.json');
    expect(doc).toMatchObject({ kind: 'sbom', standard: 'SPDX 2.3', name: 'SPDX-Tools-v2.0' });
    const components = tableOf(doc, 'components');
    expect(components.rows).toHaveLength(4);
    expect(components.rows.find((r) => r.name === 'Jena')).toMatchObject({ version: '3.12.0', purl: 'pkg:maven/org.apache.jena/apache-jena@3.12.0' });
    expect(components.rows.find((r) => r.name === 'glibc')).toMatchObject({ version: '2.11.1', licenseConcluded: '(LGPL-2.0-only OR LicenseRef-3)' });
    const relationships = tableOf(doc, 'relationships');
    expect(relationships.title).toBe('关系');
    expect(relationships.rows).toHaveLength(7);
    expect(relationships.rows).toContainEqual({ from: 'glibc@2.11.1', type: 'DYNAMIC_LINK', to: 'Saxon@8.8', comment: null });
    expect(tableOf(doc, 'licenses').rows).toContainEqual({ licence: 'MPL-1.0', count: 1 });
  });

  it('reads OpenVEX statements', async () => {
    const doc = await readForReview(path.join(corpora, 'trivy/vex/file/openvex.json'), 'openvex.json');
    expect(doc).toMatchObject({ kind: 'sbom', standard: 'OpenVEX 0.2.0' });
    const statements = tableOf(doc, 'statements');
    expect(statements.title).toBe('声明');
    expect(statements.rows).toEqual([{
      vulnerability: 'CVE-2022-23628',
      products: 'pkg:golang/github.com/testdata/testdata（pkg:golang/github.com/open-policy-agent/opa@v0.35.0）',
      status: 'not_affected',
      justification: 'vulnerable_code_not_in_execute_path',
      impact: "The vulnerable code isn't called",
      action: null,
      timestamp: null,
    }]);
  });

  it('reads every sheet of an Excel workbook, header from the first row, capped at 20,000 rows', async () => {
    const workbook = new ExcelJS.Workbook();
    const summary = workbook.addWorksheet('概览');
    summary.addRow(['项目', '组件数', '生成时间']);
    summary.addRow(['pay-core', 42, new Date('2026-05-01T00:00:00Z')]);
    summary.addRow(['portal', { formula: 'B2*2', result: 84 }, { richText: [{ text: '富' }, { text: '文本' }] }]);
    const big = workbook.addWorksheet('组件');
    big.addRow(['名称', '版本']);
    for (let i = 0; i < 20_005; i += 1) big.addRow([`lib-${i}`, `1.${i}`]);
    const file = path.join(dir, 'report.xlsx');
    await workbook.xlsx.writeFile(file);

    const doc = await readForReview(file, 'report.xlsx');
    expect(doc.kind).toBe('sheets');
    if (doc.kind !== 'sheets') return;
    expect(doc.tables.map((t) => t.title)).toEqual(['概览', '组件（共 20005 行，仅显示前 20000 行）']);
    expect(doc.tables[0]!.columns).toEqual([{ key: 'c1', title: '项目' }, { key: 'c2', title: '组件数' }, { key: 'c3', title: '生成时间' }]);
    expect(doc.tables[0]!.rows).toEqual([
      { c1: 'pay-core', c2: 42, c3: '2026-05-01' },
      { c1: 'portal', c2: 84, c3: '富文本' },
    ]);
    expect(doc.tables[1]!.rows).toHaveLength(20_000);
    expect(doc.tables[1]!.rows[19_999]).toEqual({ c1: 'lib-19999', c2: '1.19999' });
  }, 60_000);

  it('reads a Word document as HTML', { timeout: 30_000 }, async () => {
    const document = new Document({
      sections: [{
        children: [
          new Paragraph({ children: [new TextRun({ text: '项目检测报告', bold: true })] }),
          new Table({ rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('组件')] }), new TableCell({ children: [new Paragraph('lodash')] })] })] }),
        ],
      }],
    });
    const file = path.join(dir, 'report.docx');
    writeFileSync(file, await Packer.toBuffer(document));
    const doc = await readForReview(file, 'report.docx');
    expect(doc.kind).toBe('html');
    if (doc.kind !== 'html') return;
    expect(doc.html).toContain('<strong>项目检测报告</strong>');
    expect(doc.html).toContain('<table>');
    expect(doc.html).toContain('lodash');
  });

  it('hands a PDF over as base64, recognised by content even under another name', async () => {
    const pdf = new PDFDocument();
    const chunks: Buffer[] = [];
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.text('Cairn report');
    pdf.end();
    await once(pdf, 'end');
    const bytes = Buffer.concat(chunks);
    const file = path.join(dir, 'renamed.bin');
    writeFileSync(file, bytes);
    const doc = await readForReview(file, 'renamed.bin');
    expect(doc.kind).toBe('pdf');
    if (doc.kind !== 'pdf') return;
    expect(Buffer.from(doc.base64, 'base64').equals(bytes)).toBe(true);
  });

  it('lists the tags of a SWID zip, and reads a single tag', async () => {
    const file = path.join(dir, 'swid.zip');
    await writeZip(file, [
      ['pay-core/lodash-4.17.21.swidtag', swidTag('lodash', '4.17.21', 'npm-lodash-4.17.21', 'npmjs.com')],
      ['pay-core/jackson-databind-2.10.0.swidtag', swidTag('jackson-databind', '2.10.0', 'maven-jackson-2.10.0', 'maven.apache.org')],
    ]);
    const doc = await readForReview(file, 'swid.zip');
    expect(doc.kind).toBe('swid');
    const tags = tableOf(doc, 'tags');
    expect(tags.rows).toEqual([
      { file: 'pay-core/jackson-databind-2.10.0.swidtag', name: 'jackson-databind', version: '2.10.0', tagId: 'maven-jackson-2.10.0', regid: 'maven.apache.org', entity: 'Cairn' },
      { file: 'pay-core/lodash-4.17.21.swidtag', name: 'lodash', version: '4.17.21', tagId: 'npm-lodash-4.17.21', regid: 'npmjs.com', entity: 'Cairn' },
    ]);
    const single = path.join(dir, 'one.swidtag');
    writeFileSync(single, swidTag('lodash', '4.17.21', 'npm-lodash-4.17.21', 'npmjs.com'));
    expect(tableOf(await readForReview(single, 'one.swidtag'), 'tags').rows).toHaveLength(1);
  });

  it('refuses unknown files, folders, missing files and zip bombs with clear messages', async () => {
    const text = path.join(dir, 'notes.json');
    writeFileSync(text, JSON.stringify({ hello: 'world' }));
    await expect(readForReview(text, 'notes.json')).rejects.toMatchObject({ code: 'unsupported-file', message: REVIEW_MSG.unsupported });
    const plain = path.join(dir, 'readme.txt');
    writeFileSync(plain, '这是一个文本文件');
    await expect(readForReview(plain, 'readme.txt')).rejects.toMatchObject({ code: 'unsupported-file' });
    const other = path.join(dir, 'other.zip');
    await writeZip(other, [['a.txt', 'x']]);
    await expect(readForReview(other, 'other.zip')).rejects.toMatchObject({ code: 'unsupported-file' });
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"bomFormat": "CycloneDX", ');
    await expect(readForReview(broken, 'broken.json')).rejects.toMatchObject({ code: 'unreadable-file', message: REVIEW_MSG.badJson });

    const review = createReview();
    await expect(review.openPath(dir)).rejects.toMatchObject({ code: 'not-a-file', message: REVIEW_MSG.notFile });
    await expect(review.openPath(path.join(dir, 'missing.pdf'))).rejects.toMatchObject({ code: 'not-found' });

    const bomb = path.join(dir, 'bomb.docx');
    await writeZip(bomb, [['word/document.xml', Buffer.alloc(20 * 1024 * 1024)]]);
    await expect(readForReview(bomb, 'bomb.docx')).rejects.toMatchObject({ message: REVIEW_MSG.zipRatio });
    const crowded = path.join(dir, 'crowded.zip');
    await writeZip(crowded, Array.from({ length: 10_001 }, (_, i) => [`t/${i}.swidtag`, ''] as [string, string]), false);
    await expect(readForReview(crowded, 'crowded.zip')).rejects.toMatchObject({ message: REVIEW_MSG.zipEntries });
  }, 60_000);

  it('in the web host reads only staged files, through symlinks too, and removes them after', async () => {
    const stage = path.join(dir, 'stage');
    mkdirSync(path.join(stage, 'batch'), { recursive: true });
    const staged = path.join(stage, 'batch', 'openvex.json');
    writeFileSync(staged, readFileSync(path.join(corpora, 'trivy/vex/file/openvex.json')));
    const review = createReview({ allowedRoots: [stage], removeAfter: (file) => file.startsWith(stage + path.sep) });
    await expect(review.openPath(sbom('examples/VEX/vex.json'))).rejects.toMatchObject({ code: 'forbidden-path', message: REVIEW_MSG.notAllowed });
    symlinkSync(sbom('examples/VEX/vex.json'), path.join(stage, 'batch', 'link.json'));
    await expect(review.openPath(path.join(stage, 'batch', 'link.json'))).rejects.toMatchObject({ code: 'forbidden-path' });
    expect(await review.openPath(staged)).toMatchObject({ kind: 'sbom', fileName: 'openvex.json' });
    expect(existsSync(staged)).toBe(false);
  });
});
