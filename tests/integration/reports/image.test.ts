// Reports and exports of a container image run (issue 16): the CycloneDX BOM describes the image as
// a `container` (reference, manifest digest as version and hash, oci purl, platform and base
// system) with its `operating-system` component (os-release's ID and VERSION_ID) on which the
// OS packages hang, and gives each component its layer (cairn:image:layer:*), valid against the
// official 1.6 schema; the SPDX 2.3 document describes a CONTAINER package that CONTAINS the
// OPERATING_SYSTEM package (which CONTAINS the top-level OS packages) and the other top-level
// components, and annotates each component's layer, valid against the official schema where it is
// provided; the VEX exports name the image as the product; PDF, Word, Excel and the component exports carry a 容器镜像 section and a 镜像层 column.
// A model without an image writes none of it.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { PackageURL } from 'packageurl-js';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerStep } from '../../../contract/api/image.ts';
import { loadSbom, type ExtractContext, type InputFile } from '../../../server/engine/index.ts';
import { formatFileSize } from '../../../contract/format.ts';
import { writeComponentsCsv } from '../../../server/reports/csv.ts';
import { writeCycloneDx } from '../../../server/reports/cyclonedx.ts';
import { writeDocx } from '../../../server/reports/docx.ts';
import { imagePurl } from '../../../server/reports/image.ts';
import { writePdf } from '../../../server/reports/pdf.ts';
import { componentLayerText, sectionsFor, summaryFacts } from '../../../server/reports/sections.ts';
import { writeSpdx } from '../../../server/reports/spdx.ts';
import { writeCycloneDxVex, writeOpenVex, type OpenVexDocument } from '../../../server/reports/vex.ts';
import { writeComponentsXlsx, writeXlsx } from '../../../server/reports/xlsx.ts';
import { sampleImageReportModel, sampleReportModel } from '../../support/report-model.ts';

type Json = Record<string, unknown>;
type Property = { name: string; value: string };

const SPDX_SCHEMA = process.env.CAIRN_SPDX_SCHEMA || join(process.cwd(), '..', 'shared', 'schemas', 'spdx-schema.json');

const image = sampleImageReportModel({ components: 16, vulnerabilities: 10 });
const plain = sampleReportModel({ components: 16, vulnerabilities: 10 });
const img = image.image!;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-image-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function pdfText(file: string): Promise<string> {
  const task = getDocument({ data: new Uint8Array(await readFile(file)), useSystemFonts: false });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  await task.destroy();
  return pages.join('\n');
}

describe('the image in the SBOMs', () => {
  it('names the image by an oci purl with its digest, architecture, repository and tag', () => {
    const purl = PackageURL.fromString(imagePurl(img)!);
    expect(purl).toMatchObject({ type: 'oci', name: 'core-trade', version: img.manifestDigest });
    expect(purl.qualifiers).toEqual({ arch: 'amd64', repository_url: 'registry.example.com/bank/core-trade', tag: '2.3.0' });
    // Docker Hub's one-part names live under library/; a digest-only reference has no tag; an untagged archive has no purl.
    const hub = PackageURL.fromString(imagePurl({ ...img, reference: 'alpine:3.20', platform: 'linux/arm64/v8' })!);
    expect(hub).toMatchObject({ name: 'alpine', qualifiers: { arch: 'arm64', repository_url: 'docker.io/library/alpine', tag: '3.20' } });
    const pinned = PackageURL.fromString(imagePurl({ ...img, reference: `ghcr.io/acme/api@${img.manifestDigest}` })!);
    expect(pinned.qualifiers).toEqual({ arch: 'amd64', repository_url: 'ghcr.io/acme/api' });
    expect(imagePurl({ ...img, reference: null })).toBeNull();
  });

  it('describes the image as a CycloneDX container and gives each component its layer, schema-valid', async () => {
    const file = join(dir, 'image.CycloneDX.json');
    await writeCycloneDx(image, file);
    const text = await readFile(file, 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
    const bom = JSON.parse(text) as { metadata: { component: Json & { properties: Property[] } }; components: Array<Json & { properties: Property[] }>; dependencies: Array<{ ref: string; dependsOn?: string[] }> };
    const container = bom.metadata.component;
    expect(container).toMatchObject({
      type: 'container',
      name: img.reference,
      version: img.manifestDigest,
      'bom-ref': 'image-1',
      purl: imagePurl(img),
      hashes: [{ alg: 'SHA-256', content: img.manifestDigest.slice('sha256:'.length) }],
    });
    const props = Object.fromEntries(container.properties.map((p) => [p.name, p.value]));
    expect(props).toMatchObject({
      'cairn:image:reference': img.reference,
      'cairn:image:platform': 'linux/amd64',
      'cairn:image:os': 'Debian GNU/Linux 12 (bookworm)',
      'cairn:image:os:id': 'debian',
      'cairn:image:os:versionId': '12',
      'cairn:image:layers': '4',
      'cairn:image:size': String(img.size),
      'cairn:project': image.project.name,
      'cairn:subject': image.subject.name,
    });
    // The operating system is a component of its own (CycloneDX 1.5/1.6 operating-system): the
    // image depends on it and on its other top-level components; it on its top-level OS packages.
    const os = bom.components.find((c) => c.type === 'operating-system')!;
    expect(os).toMatchObject({ 'bom-ref': 'os-1', name: 'debian', version: '12', description: 'Debian GNU/Linux 12 (bookworm)' });
    expect(os.purl).toBeUndefined();
    const refOf = (name: string) => image.components.find((c) => c.name === name)!.ref;
    const roots = bom.dependencies.find((d) => d.ref === 'image-1')!.dependsOn ?? [];
    const osRoots = [refOf('base-files'), refOf('curl')];
    expect(new Set(roots)).toEqual(new Set(['os-1', ...image.edges.filter((e) => e.from === null && !osRoots.includes(e.to)).map((e) => e.to)]));
    expect(new Set(bom.dependencies.find((d) => d.ref === 'os-1')!.dependsOn)).toEqual(new Set(osRoots));
    // The packages below keep their own edges.
    expect(bom.dependencies.find((d) => d.ref === refOf('curl'))!.dependsOn).toEqual([refOf('libssl3')]);

    for (const c of image.components) {
      const out = bom.components.find((x) => x['bom-ref'] === c.ref)!;
      const layer = img.layers[c.layer!]!;
      const layerProps = out.properties.filter((p) => p.name.startsWith('cairn:image:'));
      expect(layerProps).toEqual([
        { name: 'cairn:image:layer:index', value: String(layer.index) },
        { name: 'cairn:image:layer:digest', value: layer.digest },
        ...(layer.createdBy ? [{ name: 'cairn:image:layer:createdBy', value: layer.createdBy }] : []),
      ].sort((a, b) => a.name.localeCompare(b.name) || a.value.localeCompare(b.value)));
    }
  }, 60_000);

  it('describes the image as an SPDX CONTAINER package that contains the components, with each layer annotated', async () => {
    const file = join(dir, 'image.spdx.json');
    await writeSpdx(image, file);
    const doc = JSON.parse(await readFile(file, 'utf8')) as { packages: Array<Json & { annotations?: Array<{ comment: string; annotationType: string; annotator: string; annotationDate: string }> }>; relationships: Json[] };
    const root = doc.packages[0]!;
    expect(root).toMatchObject({
      SPDXID: 'SPDXRef-Image-1',
      name: img.reference,
      versionInfo: img.manifestDigest,
      primaryPackagePurpose: 'CONTAINER',
      externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: imagePurl(img) }],
    });
    expect(root.annotations!.map((a) => a.comment)).toEqual(expect.arrayContaining(['cairn:image:platform: linux/amd64', 'cairn:image:os: Debian GNU/Linux 12 (bookworm)']));
    expect(String(root.comment)).toContain(`项目：${image.project.name}`);
    expect(doc.relationships).toContainEqual({ spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: 'SPDXRef-Image-1' });
    const contained = doc.relationships.filter((r) => r.spdxElementId === 'SPDXRef-Image-1' && r.relationshipType === 'CONTAINS').map((r) => r.relatedSpdxElement);
    const brought = new Set(image.edges.filter((e) => e.from !== null).map((e) => e.to));
    const topLevel = image.components.filter((c) => !brought.has(c.ref) || image.edges.some((e) => e.from === null && e.to === c.ref));
    // The operating system is a package the image contains, and it contains the top-level OS packages.
    const isDeb = (c: { ecosystem: string }) => c.ecosystem === 'deb';
    expect(new Set(contained)).toEqual(new Set(['SPDXRef-OperatingSystem-1', ...topLevel.filter((c) => !isDeb(c)).map((c) => `SPDXRef-Package-${c.ref}`)]));
    expect(doc.packages.find((p) => p.SPDXID === 'SPDXRef-OperatingSystem-1')).toMatchObject({ name: 'debian', versionInfo: '12', primaryPackagePurpose: 'OPERATING_SYSTEM', description: 'Debian GNU/Linux 12 (bookworm)' });
    const inOs = doc.relationships.filter((r) => r.spdxElementId === 'SPDXRef-OperatingSystem-1' && r.relationshipType === 'CONTAINS').map((r) => r.relatedSpdxElement);
    expect(new Set(inOs)).toEqual(new Set(topLevel.filter(isDeb).map((c) => `SPDXRef-Package-${c.ref}`)));
    expect(inOs).toHaveLength(2);
    expect(doc.relationships.some((r) => r.spdxElementId === 'SPDXRef-Image-1' && r.relationshipType === 'DEPENDS_ON')).toBe(false);

    for (const c of image.components) {
      const p = doc.packages.find((x) => x.SPDXID === `SPDXRef-Package-${c.ref}`)!;
      const layer = img.layers[c.layer!]!;
      expect(p.annotations!.map((a) => a.comment)).toEqual([
        `cairn:image:layer:index: ${layer.index}`,
        `cairn:image:layer:digest: ${layer.digest}`,
        ...(layer.createdBy ? [`cairn:image:layer:createdBy: ${layer.createdBy}`] : []),
      ]);
      for (const a of p.annotations!) expect(a).toMatchObject({ annotationType: 'OTHER', annotator: 'Tool: Cairn-0.1.0', annotationDate: '2026-11-22T08:00:00Z' });
    }
  });

  it.skipIf(!existsSync(SPDX_SCHEMA))('keeps the image document valid against the official SPDX 2.3 schema', async () => {
    const { default: Ajv } = await import('ajv');
    const { default: addFormats } = await import('ajv-formats');
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(await readFile(SPDX_SCHEMA, 'utf8')) as object);
    for (const model of [image, { ...image, image: { ...img, reference: null, os: null, created: null } }]) {
      const file = join(dir, `official-${model.image!.reference ? 'tagged' : 'untagged'}.spdx.json`);
      await writeSpdx(model, file);
      validate(JSON.parse(await readFile(file, 'utf8')));
      expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 5))).toEqual([]);
    }
  });

  it('names an untagged archive by its digest and still validates', async () => {
    const untagged = { ...image, image: { ...img, reference: null, os: null } };
    const file = join(dir, 'untagged.CycloneDX.json');
    await writeCycloneDx(untagged, file);
    const text = await readFile(file, 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
    const container = (JSON.parse(text) as { metadata: { component: Json & { properties: Property[] } } }).metadata.component;
    expect(container).toMatchObject({ type: 'container', name: img.manifestDigest, version: img.manifestDigest });
    expect(container.purl).toBeUndefined();
    expect(container.properties.map((p) => p.name)).not.toContain('cairn:image:os');
    // Without os-release there is no operating-system component; the OS packages hang from the image.
    const untaggedBom = JSON.parse(text) as { components: Array<{ type: string }>; dependencies: Array<{ ref: string; dependsOn?: string[] }> };
    expect(untaggedBom.components.some((c) => c.type === 'operating-system')).toBe(false);
    const curl = image.components.find((c) => c.name === 'curl')!.ref;
    expect(untaggedBom.dependencies.find((d) => d.ref === 'image-1')!.dependsOn).toContain(curl);
  });

  it('names the image in both VEX exports: the container in CycloneDX VEX, the product over its packages in OpenVEX', async () => {
    await writeCycloneDxVex(image, join(dir, 'image.vex.cdx.json'));
    const text = await readFile(join(dir, 'image.vex.cdx.json'), 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
    expect((JSON.parse(text) as { metadata: { component: Json } }).metadata.component).toMatchObject({ type: 'container', name: img.reference });

    await writeOpenVex(image, join(dir, 'image.openvex.json'));
    const vex = JSON.parse(await readFile(join(dir, 'image.openvex.json'), 'utf8')) as OpenVexDocument;
    expect(vex.statements).toHaveLength(image.vulnerabilities.length);
    for (const [i, statement] of vex.statements.entries()) {
      const v = image.vulnerabilities[i]!;
      expect(statement.products).toEqual([{ '@id': imagePurl(img), identifiers: { purl: imagePurl(img) }, subcomponents: [{ '@id': v.componentPurl, identifiers: { purl: v.componentPurl } }] }]);
    }
    await writeOpenVex(plain, join(dir, 'plain.openvex.json'));
    const plainVex = JSON.parse(await readFile(join(dir, 'plain.openvex.json'), 'utf8')) as OpenVexDocument;
    expect(plainVex.statements.every((s) => !s.products[0]!.subcomponents)).toBe(true);
  });

  it('re-imports both SBOMs through the engine as the image with its components', async () => {
    const { sbomExtractor } = await loadSbom();
    const ctx: ExtractContext = { readText: async () => undefined, list: async () => [], exists: async () => false, signal: new AbortController().signal };
    for (const [name, write] of [['reimport.CycloneDX.json', writeCycloneDx], ['reimport.spdx.json', writeSpdx]] as const) {
      const file = join(dir, name);
      await write(image, file);
      const input: InputFile = { path: name, size: (await stat(file)).size, read: () => readFile(file), text: () => readFile(file, 'utf8') };
      const [target] = await sbomExtractor.extract(input, ctx);
      expect(target!.project, name).toMatchObject({ name: 'core-trade', version: img.manifestDigest, purl: imagePurl(img) });
      expect(new Set(target!.components.map((c) => c.purl))).toEqual(new Set(image.components.map((c) => c.purl)));
      expect(target!.components.filter((c) => c.direct).length, name).toBe(image.edges.filter((e) => e.from === null).length);
    }
  }, 60_000);

  it('writes nothing of an image for any other run', async () => {
    await writeCycloneDx(plain, join(dir, 'plain.CycloneDX.json'));
    const text = await readFile(join(dir, 'plain.CycloneDX.json'), 'utf8');
    expect(text).not.toContain('cairn:image');
    expect((JSON.parse(text) as { metadata: { component: Json } }).metadata.component).toMatchObject({ type: 'application', 'bom-ref': 'project-1' });
    await writeSpdx(plain, join(dir, 'plain.spdx.json'));
    const spdx = await readFile(join(dir, 'plain.spdx.json'), 'utf8');
    expect(spdx).not.toContain('annotations');
    expect(spdx).not.toContain('CONTAINS');
    expect(spdx).not.toContain('CONTAINER');
  });
});

describe('the image in the documents', () => {
  it('opens an image report with 容器镜像 and adds a 镜像层 column to the components only for an image run', () => {
    expect(sectionsFor(image).map((s) => s.title).slice(0, 2)).toEqual(['容器镜像', '组件清单']);
    expect(sectionsFor(plain).map((s) => s.title)).not.toContain('容器镜像');
    const headers = sectionsFor(image)[1]!.columns.map((c) => c.header);
    expect(headers.slice(3, 5)).toEqual(['依赖方式', '镜像层']);
    expect(sectionsFor(plain)[0]!.columns.map((c) => c.header)).not.toContain('镜像层');
    expect(componentLayerText(img, 1)).toBe('第 2 层 · RUN apt-get update && apt-get in…');
    expect(componentLayerText(img, 3)).toBe('第 4 层');
    expect(componentLayerText(img, null)).toBe('--');
    const facts = Object.fromEntries(summaryFacts(image));
    expect(facts).toMatchObject({ 容器镜像: img.reference, 清单摘要: img.manifestDigest, 平台: 'linux/amd64', 基础系统: 'Debian GNU/Linux 12 (bookworm)' });
    expect(Object.keys(Object.fromEntries(summaryFacts(plain)))).not.toContain('容器镜像');
    // A licence report stays the licence sections.
    expect(sectionsFor({ ...image, scope: 'license' }).map((s) => s.title)).not.toContain('容器镜像');
  });

  it('shows the image, its layers and each component\'s layer in the PDF', async () => {
    const file = join(dir, 'image.pdf');
    await writePdf(image, file);
    const text = (await pdfText(file)).replace(/\s+/g, '');
    for (const expected of ['容器镜像', img.reference!, 'linux/amd64', 'Debian GNU/Linux 12 (bookworm)', '构建步骤', 'ADD file:6f2d3e7a1c0b in /', '（镜像历史未记录构建步骤）', '镜像层', '第 4 层']) {
      expect(text, expected).toContain(expected.replace(/\s+/g, ''));
    }
    expect(text).toContain(img.manifestDigest.slice(0, 30));
    const clean = join(dir, 'plain.pdf');
    await writePdf(plain, clean);
    const plainText = await pdfText(clean);
    expect(plainText).not.toContain('容器镜像');
    expect(plainText).not.toContain('镜像层');
  }, 60_000);

  it('shows them in the Word report', async () => {
    const file = join(dir, 'image.docx');
    await writeDocx(image, file);
    const { value: text } = await mammoth.extractRawText({ path: file });
    for (const expected of ['容器镜像', img.reference!, img.manifestDigest, 'Debian GNU/Linux 12 (bookworm)', layerStep(img.layers[1]!.createdBy), '镜像层', '第 1 层']) expect(text).toContain(expected);
    await writeDocx(plain, join(dir, 'plain.docx'));
    expect((await mammoth.extractRawText({ path: join(dir, 'plain.docx') })).value).not.toContain('镜像层');
  }, 60_000);

  it('gives Excel a 容器镜像 sheet and a 镜像层 column, and the component exports the column too', async () => {
    const file = join(dir, 'image.xlsx');
    await writeXlsx(image, file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    expect(workbook.worksheets.map((w) => w.name).slice(0, 3)).toEqual(['概述', '容器镜像', '组件清单']);
    const layers = workbook.getWorksheet('容器镜像')!;
    expect(layers.getRow(1).values).toEqual([undefined, '镜像层', '构建步骤', '层摘要', '大小', '引入组件数']);
    expect(layers.getRow(3).values).toEqual([undefined, '第 2 层', layerStep(img.layers[1]!.createdBy), img.layers[1]!.digest, formatFileSize(img.layers[1]!.size), img.layers[1]!.components]);
    expect(layers.rowCount).toBe(5);
    const components = workbook.getWorksheet('组件清单')!;
    const header = components.getRow(1).values as unknown[];
    const column = header.indexOf('镜像层');
    expect(column).toBeGreaterThan(0);
    expect(components.getRow(2).getCell(column).value).toBe(componentLayerText(img, image.components[0]!.layer));

    await writeComponentsXlsx(image, join(dir, 'export.xlsx'));
    const exported = new ExcelJS.Workbook();
    await exported.xlsx.readFile(join(dir, 'export.xlsx'));
    expect(exported.worksheets[0]!.getRow(1).values).toContain('镜像层');

    await writeComponentsCsv(image, join(dir, 'export.csv'));
    const lines = (await readFile(join(dir, 'export.csv'), 'utf8')).slice(1).split('\r\n');
    expect(lines[0]!.split(',')).toContain('镜像层');
    expect(lines[1]).toContain(componentLayerText(img, image.components[0]!.layer));
    await writeComponentsCsv(plain, join(dir, 'plain.csv'));
    expect(await readFile(join(dir, 'plain.csv'), 'utf8')).not.toContain('镜像层');
  }, 60_000);
});
