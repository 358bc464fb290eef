// The machine-readable reports of the sample model: CycloneDX 1.6 and CycloneDX VEX against the
// official schema (the CycloneDX library's strict validator), both SBOMs re-imported through the
// engine's SBOM extractor with the same components, licences, scopes and graph, SPDX 2.3 and the
// SWID tags checked field by field against their specifications, OpenVEX statements checked for
// the fields v0.2.0 requires.
//
// Official SPDX 2.3 JSON schema and ISO/IEC 19770-2:2015 XSD: no npm or Debian package reachable
// here ships them, so they are read from ../shared/schemas/ (or CAIRN_SPDX_SCHEMA /
// CAIRN_SWID_XSD), never copied into the repository; the two official-schema tests run wherever
// they are provided, and the documents are always also held to strict checks written from the
// specifications' field definitions.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { XMLParser } from 'fast-xml-parser';
import { PackageURL } from 'packageurl-js';
import parseSpdx from 'spdx-expression-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import yauzl from 'yauzl';
import { loadSbom, type ExtractContext, type InputFile, type Target } from '../../../server/engine/index.ts';
import { writeCycloneDx } from '../../../server/reports/cyclonedx.ts';
import type { ReportModel } from '../../../server/reports/model.ts';
import { LICENSE_LIST_VERSION, spdxLicence, writeSpdx } from '../../../server/reports/spdx.ts';
import { CAIRN_SWID_NAMESPACE, SWID_NAMESPACE, writeSwidZip } from '../../../server/reports/swid.ts';
import { writeCycloneDxVex, writeOpenVex } from '../../../server/reports/vex.ts';
import { sampleReportModel } from '../../support/report-model.ts';

const { normalizePurl, sbomExtractor } = await loadSbom();

/** The official schemas, where they are provided (../shared/schemas/ beside the checkout). */
const provided = (variable: string, file: string): string | null => {
  const candidate = process.env[variable] || join(process.cwd(), '..', 'shared', 'schemas', file);
  return existsSync(candidate) ? candidate : null;
};
const SPDX_SCHEMA = provided('CAIRN_SPDX_SCHEMA', 'spdx-schema.json');
const SWID_XSD = provided('CAIRN_SWID_XSD', 'swid-2015.xsd');

type Json = Record<string, unknown>;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-sbom-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The sample model plus components that exercise licence conversion and XML escaping. */
function oddModel(): ReportModel {
  const model = sampleReportModel({ components: 12, vulnerabilities: 10 });
  const base = model.components[0]!;
  const odd = (ref: string, name: string, license: string | null, purl: string) => ({
    ...base, ref, name, version: '1.0.0', purl, license, direct: true, scope: 'runtime', vulnerabilityCount: 0, risk: 32,
  });
  model.components.push(
    odd('c900', 'vendor-sdk', 'Commercial', 'pkg:npm/vendor-sdk@1.0.0'),
    odd('c901', 'apache-named', 'Apache License, Version 2.0', 'pkg:npm/apache-named@1.0.0'),
    odd('c902', 'mixed', 'MIT or Proprietary Foo', 'pkg:npm/mixed@1.0.0'),
    odd('c903', 'a<b>&"c\'\u0001', 'mit', 'pkg:npm/escaped@1.0.0'),
    odd('c904', 'no-purl', null, ''),
  );
  for (const ref of ['c900', 'c901', 'c902', 'c903', 'c904']) model.edges.push({ from: null, to: ref });
  return model;
}

async function importWritten(file: string): Promise<Target> {
  const info = await stat(file);
  const name = basename(file);
  // The scan picks SBOMs by name: the report's extension must be one it recognises.
  expect(sbomExtractor.matches(name)).toBe(true);
  const folder = dirname(file);
  const ctx: ExtractContext = {
    readText: (path) => readFile(join(folder, path), 'utf8').catch(() => undefined),
    list: (path) => readdir(join(folder, path)).catch(() => []),
    exists: (path) => stat(join(folder, path)).then(() => true, () => false),
    signal: new AbortController().signal,
  };
  const input: InputFile = { path: name, size: info.size, read: () => readFile(file), text: () => readFile(file, 'utf8') };
  const targets = await sbomExtractor.extract(input, ctx);
  expect(targets).toHaveLength(1);
  return targets[0]!;
}

/** What the engine should read back: canonical purls, direct set, development set, edges. */
function expectedGraph(model: ReportModel) {
  const purlOf = new Map(model.components.map((c) => [c.ref, c.purl ? normalizePurl(c.purl)!.purl : `pkg:generic/${c.name}@${c.version}`]));
  const direct = new Set(model.edges.filter((e) => e.from === null).map((e) => purlOf.get(e.to)!));
  const edges = new Set(model.edges.filter((e) => e.from !== null).map((e) => `${purlOf.get(e.from!)}>${purlOf.get(e.to)}`));
  const dev = new Set(model.components.filter((c) => c.scope === 'dev').map((c) => purlOf.get(c.ref)!));
  return { purls: new Set(purlOf.values()), direct, edges, dev };
}

function importedGraph(target: Target) {
  return {
    purls: new Set(target.components.map((c) => c.purl)),
    direct: new Set(target.components.filter((c) => c.direct).map((c) => c.purl)),
    edges: new Set(target.components.flatMap((c) => c.dependsOn.map((to) => `${c.purl}>${to}`))),
    dev: new Set(target.components.filter((c) => c.scope === 'development').map((c) => c.purl)),
  };
}

// ---------------------------------------------------------------------------------------------
// CycloneDX

describe('CycloneDX 1.6', () => {
  const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);

  it('validates against the official 1.6 schema and carries components, graph and findings', async () => {
    const model = sampleReportModel();
    const file = join(dir, 'sample.CycloneDX.json');
    await writeCycloneDx(model, file);
    const text = await readFile(file, 'utf8');
    expect(await validator.validate(text)).toBeNull();
    // The validator does refuse what the schema forbids (so the null above means something).
    expect(await validator.validate(text.replace('"type": "library"', '"type": "librar"'))).not.toBeNull();

    const bom = JSON.parse(text) as Json & { components: Json[]; dependencies: Array<{ ref: string; dependsOn?: string[] }>; vulnerabilities: Json[]; metadata: Json };
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 });
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bom.metadata).toMatchObject({
      timestamp: model.generatedAt,
      tools: { components: [{ type: 'application', name: 'Cairn', version: '0.1.0' }] },
      component: { type: 'application', name: model.project.name, 'bom-ref': 'project-1', licenses: [{ license: { id: 'Apache-2.0' } }] },
    });
    expect(bom.components.map((c) => c['bom-ref']).sort()).toEqual(model.components.map((c) => c.ref).sort());
    const lodash = bom.components.find((c) => c['bom-ref'] === 'c1')!;
    expect(lodash).toMatchObject({ type: 'library', name: 'lodash', version: '1.0.0', purl: 'pkg:npm/lodash@1.0.0', scope: 'optional', licenses: [{ license: { id: 'MIT' } }] });
    const dual = bom.components.find((c) => c['bom-ref'] === 'c6')!;
    expect(dual.licenses).toEqual([{ expression: 'MIT OR Apache-2.0' }]);
    expect(bom.components.find((c) => c['bom-ref'] === 'c8')!.licenses).toBeUndefined();

    const dependsOn = new Set(bom.dependencies.flatMap((d) => (d.dependsOn ?? []).map((to) => `${d.ref}>${to}`)));
    const expected = new Set(model.edges.map((e) => `${e.from ?? 'project-1'}>${e.to}`));
    expect(dependsOn).toEqual(expected);

    expect(bom.vulnerabilities).toHaveLength(model.vulnerabilities.length);
    for (const v of model.vulnerabilities) {
      const out = bom.vulnerabilities.find((x) => x.id === v.id && (x.affects as Array<{ ref: string }>)[0]!.ref === v.componentRef) as Json & {
        ratings: Json[]; cwes: number[]; analysis?: Json; references: Array<{ id: string }>; advisories: Array<{ url: string }>;
      };
      expect(out, v.id).toBeDefined();
      expect(out.source).toEqual({ name: 'NVD', url: `https://nvd.nist.gov/vuln/detail/${v.id}` });
      const severity = { 1: 'critical', 2: 'high', 4: 'medium', 8: 'low', 16: 'unknown' }[v.level];
      expect(out.ratings[0]).toMatchObject({ severity, ...(v.score === null ? {} : { score: v.score, method: 'CVSSv31', vector: v.vector }) });
      expect(out.cwes).toEqual([20]);
      expect(out.published).toBe(v.published);
      expect(out.recommendation).toBe(`升级到 ${v.upgrade.version} 或更高版本（已知修复版本：${v.fixedVersions.join(' / ')}）`);
      expect(out.advisories).toEqual(v.references.map((url) => ({ url })));
      expect(out.references.map((r) => r.id).sort()).toEqual([...v.aliases, ...(v.cnnvd ? [v.cnnvd] : [])].sort());
      const state = { 0: undefined, 1: 'not_affected', 2: 'exploitable', 3: 'resolved', 4: 'in_triage' }[v.vex as 0 | 1 | 2 | 3 | 4];
      if (state) expect(out.analysis).toMatchObject({ state, ...(v.vexRemark ? { detail: v.vexRemark } : {}) });
      else expect(out.analysis).toBeUndefined();
    }
  }, 60_000);

  it('re-imports through the engine with the same components, direct set, scopes, licences and edges', async () => {
    for (const model of [sampleReportModel(), oddModel()]) {
      const file = join(dir, `reimport-${model.components.length}.CycloneDX.json`);
      await writeCycloneDx(model, file);
      const target = await importWritten(file);
      expect(target.type).toBe('cyclonedx');
      expect(target.project).toMatchObject({ name: model.project.name, version: 'V2.3' });
      expect(importedGraph(target)).toEqual(expectedGraph(model));
      const lodash = target.components.find((c) => c.purl === 'pkg:npm/lodash@1.0.0')!;
      expect(lodash.licenses).toEqual(['MIT']);
    }
  }, 60_000);

  it('keeps licences off the SPDX list as named licences and still validates', async () => {
    const model = oddModel();
    const file = join(dir, 'odd.CycloneDX.json');
    await writeCycloneDx(model, file);
    const text = await readFile(file, 'utf8');
    expect(await validator.validate(text)).toBeNull();
    const components = (JSON.parse(text) as { components: Json[] }).components;
    const licences = (ref: string) => components.find((c) => c['bom-ref'] === ref)!.licenses;
    expect(licences('c900')).toEqual([{ license: { name: 'Commercial' } }]);
    expect(licences('c901')).toEqual([{ license: { id: 'Apache-2.0' } }]);
    expect(licences('c902')).toEqual([{ expression: 'MIT OR LicenseRef-Proprietary-Foo' }]);
    expect(licences('c903')).toEqual([{ license: { id: 'MIT' } }]);
    expect(components.find((c) => c['bom-ref'] === 'c904')!.purl).toBeUndefined();
  }, 60_000);

  it('writes a CycloneDX VEX with the findings, their analysis and only the affected components', async () => {
    const model = sampleReportModel();
    const file = join(dir, 'sample.vex.cdx.json');
    await writeCycloneDxVex(model, file);
    const text = await readFile(file, 'utf8');
    expect(await validator.validate(text)).toBeNull();
    const bom = JSON.parse(text) as { components: Json[]; vulnerabilities: Array<Json & { affects: Array<{ ref: string }>; analysis?: { state: string } }>; dependencies?: Array<{ dependsOn?: string[] }> };
    const affected = new Set(model.vulnerabilities.map((v) => v.componentRef));
    expect(new Set(bom.components.map((c) => c['bom-ref']))).toEqual(affected);
    expect(bom.vulnerabilities).toHaveLength(model.vulnerabilities.length);
    for (const v of bom.vulnerabilities) expect(affected.has(v.affects[0]!.ref)).toBe(true);
    expect(bom.vulnerabilities.filter((v) => v.analysis?.state === 'not_affected')).toHaveLength(model.vulnerabilities.filter((v) => v.vex === 1).length);
    expect(bom.vulnerabilities.filter((v) => v.analysis?.state === 'exploitable')).toHaveLength(model.vulnerabilities.filter((v) => v.vex === 2).length);
    expect((bom.dependencies ?? []).every((d) => !d.dependsOn?.length)).toBe(true);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// SPDX 2.3

const RELATIONSHIP_TYPES = new Set(
  ('DESCRIBES DESCRIBED_BY CONTAINS CONTAINED_BY DEPENDS_ON DEPENDENCY_OF DEPENDENCY_MANIFEST_OF BUILD_DEPENDENCY_OF DEV_DEPENDENCY_OF ' +
    'OPTIONAL_DEPENDENCY_OF PROVIDED_DEPENDENCY_OF TEST_DEPENDENCY_OF RUNTIME_DEPENDENCY_OF EXAMPLE_OF GENERATES GENERATED_FROM ANCESTOR_OF ' +
    'DESCENDANT_OF VARIANT_OF DISTRIBUTION_ARTIFACT PATCH_FOR PATCH_APPLIED COPY_OF FILE_ADDED FILE_DELETED FILE_MODIFIED EXPANDED_FROM_ARCHIVE ' +
    'DYNAMIC_LINK STATIC_LINK DATA_FILE_OF TEST_CASE_OF BUILD_TOOL_OF DEV_TOOL_OF TEST_OF TEST_TOOL_OF DOCUMENTATION_OF OPTIONAL_COMPONENT_OF ' +
    'METAFILE_OF PACKAGE_OF AMENDS PREREQUISITE_FOR HAS_PREREQUISITE REQUIREMENT_DESCRIPTION_FOR SPECIFICATION_FOR OTHER').split(' '),
);
const DOCUMENT_FIELDS = new Set(['spdxVersion', 'dataLicense', 'SPDXID', 'name', 'documentNamespace', 'creationInfo', 'packages', 'files', 'snippets', 'relationships', 'hasExtractedLicensingInfos', 'externalDocumentRefs', 'annotations', 'comment', 'documentDescribes']);
const PACKAGE_FIELDS = new Set([
  'SPDXID', 'name', 'versionInfo', 'packageFileName', 'supplier', 'originator', 'downloadLocation', 'filesAnalyzed', 'packageVerificationCode',
  'checksums', 'homepage', 'sourceInfo', 'licenseConcluded', 'licenseInfoFromFiles', 'licenseDeclared', 'licenseComments', 'copyrightText',
  'summary', 'description', 'comment', 'externalRefs', 'attributionTexts', 'primaryPackagePurpose', 'releaseDate', 'builtDate', 'validUntilDate',
  'annotations', 'hasFiles',
]);
const PURPOSES = new Set(['APPLICATION', 'FRAMEWORK', 'LIBRARY', 'CONTAINER', 'OPERATING-SYSTEM', 'DEVICE', 'FIRMWARE', 'SOURCE', 'ARCHIVE', 'FILE', 'INSTALL', 'OTHER']);
const REF_CATEGORIES = new Set(['SECURITY', 'PACKAGE-MANAGER', 'PERSISTENT-ID', 'OTHER']);
const SPDX_ID = /^SPDXRef-[A-Za-z0-9.-]+$/;

/** Licence references of an SPDX expression (after checking it parses). */
function licenceRefs(expression: string): string[] {
  if (expression === 'NOASSERTION' || expression === 'NONE') return [];
  const walk = (node: parseSpdx.Info): string[] => ('license' in node ? (node.license.startsWith('LicenseRef-') ? [node.license] : []) : [...walk(node.left), ...walk(node.right)]);
  return walk(parseSpdx(expression));
}

/**
 * SPDX 2.3 conformance written from the specification's clauses 6–11 (the fields, their
 * cardinality and formats) — the official JSON schema is not available offline (see the top).
 * Returns the violations, empty when the document conforms.
 */
function spdx23Violations(doc: Json): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, message: string) => { if (!ok) problems.push(message); };
  for (const key of Object.keys(doc)) need(DOCUMENT_FIELDS.has(key), `unknown document field ${key}`);
  need(doc.spdxVersion === 'SPDX-2.3', 'spdxVersion');
  need(doc.dataLicense === 'CC0-1.0', 'dataLicense');
  need(doc.SPDXID === 'SPDXRef-DOCUMENT', 'SPDXID');
  need(typeof doc.name === 'string' && doc.name.length > 0, 'name');
  const namespace = String(doc.documentNamespace ?? '');
  need(/^https?:\/\/[^\s#]+$/.test(namespace) && URL.canParse(namespace), 'documentNamespace must be an absolute URI without #');
  need(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(namespace), 'documentNamespace must end in a UUID');
  const info = (doc.creationInfo ?? {}) as Json;
  need(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(String(info.created)), 'creationInfo.created must be YYYY-MM-DDThh:mm:ssZ');
  const creators = info.creators as unknown[];
  need(Array.isArray(creators) && creators.length > 0 && creators.every((c) => /^(Tool|Organization|Person): \S/.test(String(c))), 'creationInfo.creators');
  need(info.licenseListVersion === undefined || /^\d+\.\d+$/.test(String(info.licenseListVersion)), 'licenseListVersion must be M.N');

  const declaredRefs = new Set<string>();
  for (const e of (doc.hasExtractedLicensingInfos ?? []) as Json[]) {
    for (const key of Object.keys(e)) need(['licenseId', 'extractedText', 'name', 'comment', 'seeAlsos', 'crossRefs'].includes(key), `unknown extracted licensing field ${key}`);
    need(/^LicenseRef-[A-Za-z0-9.-]+$/.test(String(e.licenseId)), `extracted licenseId ${String(e.licenseId)}`);
    need(typeof e.extractedText === 'string' && e.extractedText.length > 0, `extractedText of ${String(e.licenseId)}`);
    need(!declaredRefs.has(String(e.licenseId)), `duplicate ${String(e.licenseId)}`);
    declaredRefs.add(String(e.licenseId));
  }
  const usedRefs = new Set<string>();
  const ids = new Set<string>(['SPDXRef-DOCUMENT']);
  const packages = doc.packages as Json[];
  need(Array.isArray(packages) && packages.length > 0, 'packages');
  for (const p of packages ?? []) {
    const id = String(p.SPDXID);
    for (const key of Object.keys(p)) need(PACKAGE_FIELDS.has(key), `${id}: unknown package field ${key}`);
    need(SPDX_ID.test(id), `${id}: SPDXID format`);
    need(!ids.has(id), `${id}: duplicate SPDXID`);
    ids.add(id);
    need(typeof p.name === 'string' && p.name.length > 0, `${id}: name`);
    need(p.versionInfo === undefined || (typeof p.versionInfo === 'string' && p.versionInfo.length > 0), `${id}: versionInfo`);
    need(p.downloadLocation === 'NOASSERTION' || p.downloadLocation === 'NONE' || URL.canParse(String(p.downloadLocation)), `${id}: downloadLocation`);
    need(p.filesAnalyzed === undefined || typeof p.filesAnalyzed === 'boolean', `${id}: filesAnalyzed`);
    if (p.filesAnalyzed === false) need(p.packageVerificationCode === undefined && p.hasFiles === undefined, `${id}: files not analysed but listed`);
    for (const field of ['licenseConcluded', 'licenseDeclared'] as const) {
      const value = String(p[field] ?? 'NOASSERTION');
      try {
        for (const ref of licenceRefs(value)) usedRefs.add(ref);
      } catch {
        problems.push(`${id}: ${field} ${value} is not an SPDX expression`);
      }
    }
    need(p.copyrightText === undefined || typeof p.copyrightText === 'string', `${id}: copyrightText`);
    need(p.primaryPackagePurpose === undefined || PURPOSES.has(String(p.primaryPackagePurpose)), `${id}: primaryPackagePurpose`);
    for (const ref of (p.externalRefs ?? []) as Json[]) {
      need(REF_CATEGORIES.has(String(ref.referenceCategory)), `${id}: referenceCategory`);
      need(typeof ref.referenceType === 'string' && typeof ref.referenceLocator === 'string' && !/\s/.test(ref.referenceLocator), `${id}: externalRef`);
      if (ref.referenceType === 'purl') {
        need(ref.referenceCategory === 'PACKAGE-MANAGER', `${id}: purl must be PACKAGE-MANAGER`);
        need((() => { try { PackageURL.fromString(String(ref.referenceLocator)); return true; } catch { return false; } })(), `${id}: purl ${String(ref.referenceLocator)}`);
      }
    }
  }
  for (const ref of usedRefs) need(declaredRefs.has(ref), `${ref} used but not declared in hasExtractedLicensingInfos`);
  for (const ref of declaredRefs) need(usedRefs.has(ref), `${ref} declared but not used`);
  let describes = 0;
  for (const r of (doc.relationships ?? []) as Json[]) {
    for (const key of Object.keys(r)) need(['spdxElementId', 'relationshipType', 'relatedSpdxElement', 'comment'].includes(key), `unknown relationship field ${key}`);
    need(RELATIONSHIP_TYPES.has(String(r.relationshipType)), `relationshipType ${String(r.relationshipType)}`);
    need(ids.has(String(r.spdxElementId)), `relationship from unknown ${String(r.spdxElementId)}`);
    need(ids.has(String(r.relatedSpdxElement)) || r.relatedSpdxElement === 'NOASSERTION' || r.relatedSpdxElement === 'NONE', `relationship to unknown ${String(r.relatedSpdxElement)}`);
    if (r.relationshipType === 'DESCRIBES' && r.spdxElementId === 'SPDXRef-DOCUMENT') describes++;
  }
  need(describes >= 1, 'the document must DESCRIBE at least one package');
  return problems;
}

describe('SPDX 2.3', () => {
  // The official schema (draft-07) where it is provided; the strict conformance check below
  // (spdx23Violations) holds everywhere.
  it.skipIf(!SPDX_SCHEMA)('validates against the official SPDX 2.3 JSON schema', async () => {
    // The schema is JSON Schema draft-07: Ajv's default class, not its 2019 one.
    const { default: Ajv } = await import('ajv');
    const { default: addFormats } = await import('ajv-formats');
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(await readFile(SPDX_SCHEMA!, 'utf8')) as object);
    for (const model of [sampleReportModel(), oddModel()]) {
      const file = join(dir, `official-${model.components.length}.spdx.json`);
      await writeSpdx(model, file);
      const valid = validate(JSON.parse(await readFile(file, 'utf8')));
      expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 5))).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it('conforms to SPDX 2.3 (fields, formats, licence expressions, references) for the sample and odd licences', async () => {
    for (const model of [sampleReportModel(), oddModel()]) {
      const file = join(dir, `sample-${model.components.length}.spdx.json`);
      await writeSpdx(model, file);
      const doc = JSON.parse(await readFile(file, 'utf8')) as Json;
      expect(spdx23Violations(doc)).toEqual([]);
      const packages = doc.packages as Json[];
      expect(packages).toHaveLength(model.components.length + 1);
      expect(doc.relationships).toContainEqual({ spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: 'SPDXRef-Project-1' });
      expect(packages[0]).toMatchObject({ SPDXID: 'SPDXRef-Project-1', name: model.project.name, licenseDeclared: 'Apache-2.0', primaryPackagePurpose: 'APPLICATION' });
      expect(doc.creationInfo).toEqual({ created: '2026-11-22T08:00:00Z', creators: ['Tool: Cairn-0.1.0', 'Person: admin'], licenseListVersion: LICENSE_LIST_VERSION });
    }
  });

  it('declares licences off the SPDX list as LicenseRefs and corrects near-misses', async () => {
    const file = join(dir, 'odd.spdx.json');
    await writeSpdx(oddModel(), file);
    const doc = JSON.parse(await readFile(file, 'utf8')) as { packages: Json[]; hasExtractedLicensingInfos: Json[] };
    const licence = (id: string) => doc.packages.find((p) => p.SPDXID === `SPDXRef-Package-${id}`)!.licenseDeclared;
    expect(licence('c900')).toBe('LicenseRef-Commercial');
    expect(licence('c901')).toBe('Apache-2.0');
    expect(licence('c902')).toBe('MIT OR LicenseRef-Proprietary-Foo');
    expect(licence('c903')).toBe('MIT');
    expect(licence('c904')).toBe('NOASSERTION');
    expect(licence('c6')).toBe('MIT OR Apache-2.0');
    expect(doc.hasExtractedLicensingInfos.map((e) => [e.licenseId, e.extractedText]).sort()).toEqual([
      ['LicenseRef-Commercial', 'Commercial'],
      ['LicenseRef-Proprietary-Foo', 'Proprietary Foo'],
    ]);
    expect(doc.packages.find((p) => p.SPDXID === 'SPDXRef-Package-c904')!.externalRefs).toBeUndefined();
    // Upper-case operators and the precedence of AND over OR are kept.
    expect(spdxLicence('(mit or Apache-2.0) and BSD-3-Clause').expression).toBe('(MIT OR Apache-2.0) AND BSD-3-Clause');
    expect(spdxLicence('GPL-2.0+ WITH Classpath-exception-2.0').expression).toBe('GPL-2.0+ WITH Classpath-exception-2.0');
  });

  it('re-imports through the engine with the same components, direct set, development scopes and edges', async () => {
    for (const model of [sampleReportModel(), oddModel()]) {
      const file = join(dir, `reimport-${model.components.length}.spdx.json`);
      await writeSpdx(model, file);
      const target = await importWritten(file);
      expect(target.type).toBe('spdx');
      expect(target.project).toMatchObject({ name: model.project.name, version: 'V2.3' });
      expect(importedGraph(target)).toEqual(expectedGraph(model));
      expect(target.components.find((c) => c.purl === 'pkg:npm/lodash@1.0.0')!.licenses).toEqual(['MIT']);
    }
  });

  it('states the SPDX licence list version of the installed list', async () => {
    const readme = await readFile(join(import.meta.dirname, '../../../node_modules/spdx-license-list/readme.md'), 'utf8');
    const version = /SPDX License List version (\d+\.\d+)/.exec(readme)?.[1];
    expect(version).toBe(LICENSE_LIST_VERSION);
  });
});

// ---------------------------------------------------------------------------------------------
// SWID

const LINK_RELS = new Set(['ancestor', 'component', 'feature', 'installationmedia', 'packageinstaller', 'parent', 'patches', 'requires', 'see-also', 'supersedes', 'supplemental']);
const META_ATTRIBUTES = new Set(['activationStatus', 'channelType', 'colloquialVersion', 'description', 'edition', 'entitlementDataRequired', 'entitlementKey', 'generator', 'persistentId', 'product', 'productFamily', 'revision', 'summary', 'unspscCode', 'unspscVersion']);
const VERSION_SCHEMES = new Set(['multipartnumeric', 'multipartnumeric+suffix', 'alphanumeric', 'decimal', 'semver', 'unknown']);

async function unzip(file: string): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.open(file, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))));
  const out = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        });
      });
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

type Attrs = Record<string, string>;
interface ParsedTag { attrs: Attrs; entities: Attrs[]; links: Attrs[]; metas: Attrs[]; others: string[] }

function parseTag(xml: string): ParsedTag {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, isArray: (_name, _path, _leaf, isAttribute) => !isAttribute });
  const root = parser.parse(xml) as Record<string, Array<Record<string, unknown>>>;
  const identity = root.SoftwareIdentity?.[0] ?? {};
  const attrs: Attrs = {};
  const children: Record<string, Attrs[]> = {};
  for (const [key, value] of Object.entries(identity)) {
    if (Array.isArray(value)) children[key] = value as Attrs[];
    else attrs[key] = String(value);
  }
  const { Entity = [], Link = [], Meta = [], ...rest } = children;
  return { attrs, entities: Entity, links: Link, metas: Meta, others: Object.keys(rest) };
}

describe('SWID tags (ISO/IEC 19770-2:2015)', () => {
  // Every tag against the official XSD where it is provided; everywhere, well-formedness with
  // xmllint and the standard's element and attribute definitions below.
  it.skipIf(!SWID_XSD)('validates every tag against the official 19770-2:2015 XSD', async () => {
    const file = join(dir, 'official.zip');
    await writeSwidZip(oddModel(), file);
    // No network: the two W3C schemas the SWID schema imports by URL are read from beside it.
    const imports = { 'http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd': 'xmldsig-core-schema.xsd', 'http://www.w3.org/2001/xml.xsd': 'xml.xsd' };
    let contents = await readFile(SWID_XSD!, 'utf8');
    const preload = [];
    for (const [url, local] of Object.entries(imports)) {
      contents = contents.replaceAll(`schemaLocation="${url}"`, `schemaLocation="${local}"`);
      preload.push({ fileName: local, contents: await readFile(join(dirname(SWID_XSD!), local), 'utf8') });
    }
    const schema = { fileName: 'schema.xsd', contents };
    for (const [fileName, contents] of await unzip(file)) {
      const result = await validateXML({ xml: { fileName: basename(fileName), contents }, schema, preload });
      expect(result.errors, fileName).toEqual([]);
    }
  });

  it('writes one well-formed primary tag per component and one for the project, linked both ways', async () => {
    const model = oddModel();
    const file = join(dir, 'sample.zip');
    await writeSwidZip(model, file);
    const entries = await unzip(file);
    expect(entries.size).toBe(model.components.length + 1);
    for (const name of entries.keys()) {
      expect(name).toMatch(/^(components\/)?[\p{L}\p{N}_-][\p{L}\p{N}._-]*\.swidtag$/u);
      expect(name).not.toContain('..');
    }
    const result = await validateXML({ xml: [...entries].map(([fileName, contents]) => ({ fileName: fileName.replace(/^components\//, ''), contents })), normalization: 'format' });
    expect(result.errors).toEqual([]);

    const tags = [...entries.values()].map(parseTag);
    const tagIds = new Set(tags.map((t) => t.attrs.tagId));
    expect(tagIds.size).toBe(tags.length);
    for (const tag of tags) {
      expect(tag.attrs.xmlns).toBe(SWID_NAMESPACE);
      expect(tag.attrs['xmlns:cairn']).toBe(CAIRN_SWID_NAMESPACE);
      expect(tag.attrs.name).toBeTruthy();
      expect(tag.attrs.tagId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(VERSION_SCHEMES.has(tag.attrs.versionScheme!)).toBe(true);
      for (const key of Object.keys(tag.attrs)) expect(['xmlns', 'xmlns:cairn', 'name', 'tagId', 'tagVersion', 'version', 'versionScheme']).toContain(key);
      expect(tag.others).toEqual([]);
      expect(tag.entities).toHaveLength(1);
      expect(tag.entities[0]).toEqual({ name: 'Cairn', regid: 'http://invalid.unavailable', role: 'tagCreator' });
      for (const link of tag.links) {
        expect(LINK_RELS.has(link.rel!)).toBe(true);
        expect(link.href).toMatch(/^swid:/);
        expect(tagIds.has(link.href!.slice('swid:'.length))).toBe(true);
      }
      expect(tag.metas).toHaveLength(1);
      for (const key of Object.keys(tag.metas[0]!)) expect(META_ATTRIBUTES.has(key) || key.startsWith('cairn:')).toBe(true);
    }

    const project = tags.find((t) => t.attrs.name === model.project.name)!;
    expect(project.attrs.version).toBe('V2.3');
    expect(project.links.filter((l) => l.rel === 'component')).toHaveLength(model.components.length);
    expect(project.links.filter((l) => l.rel === 'requires')).toHaveLength(model.edges.filter((e) => e.from === null).length);
    const lodash = tags.find((t) => t.metas[0]!['cairn:purl'] === 'pkg:npm/lodash@1.0.0')!;
    expect(lodash.attrs).toMatchObject({ name: 'lodash', version: '1.0.0', versionScheme: 'semver' });
    expect(lodash.links[0]).toEqual({ rel: 'parent', href: `swid:${project.attrs.tagId}` });
    expect(lodash.links.filter((l) => l.rel === 'requires')).toHaveLength(model.edges.filter((e) => e.from === 'c1').length);
    // Markup in names is escaped, control characters XML cannot carry are dropped.
    expect(tags.filter((t) => t.attrs.name === 'a<b>&"c\'')).toHaveLength(1);
    expect([...entries.values()].some((xml) => xml.includes('name="a&lt;b&gt;&amp;&quot;c\'"'))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// OpenVEX

describe('OpenVEX v0.2.0', () => {
  it('states every finding with a valid status and the fields its status requires', async () => {
    const model = sampleReportModel();
    const file = join(dir, 'sample.openvex.json');
    await writeOpenVex(model, file);
    const doc = JSON.parse(await readFile(file, 'utf8')) as Json & { statements: Array<Json & { vulnerability: { name: string; aliases?: string[] }; products: Array<{ '@id': string }>; status: string }> };
    expect(doc['@context']).toBe('https://openvex.dev/ns/v0.2.0');
    expect(doc['@id']).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(doc).toMatchObject({ author: 'admin', timestamp: model.generatedAt, version: 1 });
    expect(doc.statements).toHaveLength(model.vulnerabilities.length);
    const statusOf = { 0: 'under_investigation', 1: 'not_affected', 2: 'affected', 3: 'fixed', 4: 'under_investigation' } as const;
    model.vulnerabilities.forEach((v, i) => {
      const s = doc.statements[i]!;
      expect(['not_affected', 'affected', 'fixed', 'under_investigation']).toContain(s.status);
      expect(s.status).toBe(statusOf[v.vex as keyof typeof statusOf]);
      expect(s.vulnerability.name).toBe(v.id);
      expect(s.vulnerability.aliases).toEqual(expect.arrayContaining(v.aliases));
      expect(s.products).toEqual([{ '@id': v.componentPurl, identifiers: { purl: v.componentPurl } }]);
      expect(() => PackageURL.fromString(s.products[0]!['@id'])).not.toThrow();
      if (s.status === 'not_affected') expect(s.impact_statement || s.justification).toBeTruthy();
      if (s.status === 'not_affected') expect(s.impact_statement).toBe(v.vexRemark || '分析人员判定不受影响');
      if (s.status === 'affected') expect(s.action_statement).toBe(`升级到 ${v.upgrade.version} 或更高版本（已知修复版本：${v.fixedVersions.join(' / ')}）`);
      else expect(s.action_statement).toBeUndefined();
    });
    expect(doc.statements.filter((s) => s.status === 'not_affected').length).toBeGreaterThan(0);
    expect(doc.statements.filter((s) => s.status === 'affected').length).toBeGreaterThan(0);
  });
});
