// CycloneDX 1.6 JSON (`.CycloneDX.json`), built with the CycloneDX library's models and JSON
// serializer so that the output follows the specification's shapes (tools, licences, ratings,
// dependencies): the project as metadata.component, every component with its purl, licence and
// scope, the dependency graph, and the vulnerabilities with their ratings, fixes and the
// analysts' VEX analysis. vex.ts reuses buildBom for the CycloneDX VEX export.
import { COMPONENT_NOT_COVERED, COMPONENT_NOT_COVERED_REASON } from '../../contract/coverage.ts';
import { randomUUID } from 'node:crypto';
import { Enums, Models, Serialize, Spec, SPDX } from '@cyclonedx/cyclonedx-library';
import { CONFIDENCE, identityTechnique } from '../engine/index.ts';
import { VULNERABILITY_MARK_LABEL, fixedInText } from '../../contract/enums.ts';
import type { Level, ReportComponent, ReportModel, ReportVulnerability } from './model.ts';
import { documentName, spdxLicence } from './spdx.ts';
import { writePrivateFile } from '../files/private.ts';
import { digestHash, imageOperatingSystem, imageProperties, imagePurl, layerProperties, osRootRefs } from './image.ts';

const { Vulnerability: V } = Models;
type Component = InstanceType<typeof Models.Component>;

const SEVERITY_OF_LEVEL: Record<Level, `${Enums.Vulnerability.Severity}`> = {
  1: 'critical',
  2: 'high',
  4: 'medium',
  8: 'low',
  16: 'unknown',
};

/** Our VEX codes (contract VEX_LABEL) as CycloneDX analysis states; 0 待定 has no analysis. */
const ANALYSIS_STATE_OF_VEX: Record<number, `${Enums.Vulnerability.AnalysisState}` | undefined> = {
  1: 'not_affected',
  2: 'exploitable',
  3: 'resolved',
  4: 'in_triage',
};

/** The rating method a CVSS vector is written in; `other` for anything else. */
function ratingMethodOf(vector: string | null): `${Enums.Vulnerability.RatingMethod}` | undefined {
  if (!vector) return undefined;
  if (vector.startsWith('CVSS:4.')) return 'CVSSv4';
  if (vector.startsWith('CVSS:3.1')) return 'CVSSv31';
  if (vector.startsWith('CVSS:3.')) return 'CVSSv3';
  if (/^\(?AV:[LAN]\/AC:[HML]\/Au:/.test(vector)) return 'CVSSv2';
  return 'other';
}

/** Where an id is published: NVD for CVEs, GitHub for GHSAs, the Chinese databases, else OSV. */
function sourceOf(id: string): { name: string; url?: string } {
  if (/^CVE-\d{4}-\d+$/i.test(id)) return { name: 'NVD', url: `https://nvd.nist.gov/vuln/detail/${id}` };
  if (/^GHSA-/i.test(id)) return { name: 'GitHub', url: `https://github.com/advisories/${id}` };
  if (/^CNNVD-/i.test(id)) return { name: 'CNNVD' };
  if (/^CNVD-/i.test(id)) return { name: 'CNVD' };
  return { name: 'OSV', url: `https://osv.dev/vulnerability/${encodeURIComponent(id)}` };
}

/**
 * The fix advice of a finding: the smallest fixed version above the installed one (with every
 * known fixed version), else why none above it can be named, else the component's recommended
 * version.
 */
export function recommendationOf(v: ReportVulnerability, component: ReportComponent | undefined): string | null {
  if (v.upgrade.version) return `升级到 ${v.upgrade.version} 或更高版本（已知修复版本：${v.fixedVersions.join(' / ')}）`;
  if (v.fixedVersions.length) return v.upgrade.reason;
  // The distribution said no fix is coming (or when): that, not another version, is the advice.
  if (v.fixState && v.fixState !== 'affected' && v.fixState !== 'fixed') return v.upgrade.reason;
  if (component?.recommendVersion) return `升级到推荐版本 ${component.recommendVersion}`;
  return null;
}

/** Every id of a finding other than its primary one: aliases, CVE, CNNVD, CNVD. */
export function otherIdsOf(v: ReportVulnerability): string[] {
  return [...new Set([...v.aliases, v.cve, v.cnnvd, v.cnvd].filter((id): id is string => !!id && id !== v.id))];
}

function source(id: string): InstanceType<typeof V.Source> {
  const { name, url } = sourceOf(id);
  return new V.Source({ name, url });
}

function licencesOf(text: string | null): InstanceType<typeof Models.LicenseRepository> {
  const licences = new Models.LicenseRepository();
  const licence = spdxLicence(text);
  if (licence.expression === 'NOASSERTION') return licences;
  const whole = licence.extracted.length === 1 && licence.expression === licence.extracted[0]!.id;
  if (whole) licences.add(new Models.NamedLicense(licence.extracted[0]!.text));
  // A single id on CycloneDX's list as a licence id; anything else (`+`, compounds, ids CycloneDX's
  // list lacks) as an expression.
  else if (!licence.extracted.length && SPDX.isSupportedSpdxId(licence.expression)) licences.add(new Models.SpdxLicense(licence.expression));
  else licences.add(new Models.LicenseExpression(licence.expression));
  return licences;
}

function property(name: string, value: string): InstanceType<typeof Models.Property> {
  return new Models.Property(`cairn:${name}`, value);
}

function componentOf(c: ReportComponent, image: ReportModel['image']): Component {
  const component = new Models.Component(Enums.ComponentType.Library, c.name, {
    bomRef: c.ref,
    version: c.version || undefined,
    purl: c.purl || undefined,
    scope: c.scope === 'dev' || c.scope === 'optional' ? Enums.ComponentScope.Optional : Enums.ComponentScope.Required,
    licenses: licencesOf(c.license),
  });
  component.properties.add(property('direct', String(c.direct)));
  if (c.scope) component.properties.add(property('scope', c.scope));
  for (const l of c.locations) component.properties.add(property('location', l.line ? `${l.file}:${l.line}` : l.file));
  if (c.mark && c.mark !== 'N') component.properties.add(property('mark', c.markRemark ? `${c.mark}：${c.markRemark}` : c.mark));
  if (c.recommendVersion) component.properties.add(property('recommendVersion', c.recommendVersion));
  if (c.constraint) component.properties.add(property('versionConstraint', c.constraint));
  if (!c.covered) component.properties.add(property('vulnerabilityCoverage', `${COMPONENT_NOT_COVERED}：${COMPONENT_NOT_COVERED_REASON}`));
  // An image run's component: the layer it first appeared in (server/reports/image.ts names them).
  for (const [name, value] of layerProperties(image, c.layer)) component.properties.add(property(name, value));
  return component;
}

function vulnerabilityOf(v: ReportVulnerability, bomRef: string, affected: InstanceType<typeof Models.BomRef>, component: ReportComponent | undefined): InstanceType<typeof V.Vulnerability> {
  const vulnerability = new V.Vulnerability({
    bomRef,
    id: v.id,
    source: source(v.id),
    description: v.description || v.title || undefined,
    recommendation: recommendationOf(v, component) ?? undefined,
    published: v.published && !Number.isNaN(Date.parse(v.published)) ? new Date(v.published) : undefined,
  });
  for (const id of otherIdsOf(v)) vulnerability.references.add(new V.Reference(id, source(id)));
  vulnerability.ratings.add(
    new V.Rating({
      source: source(v.id),
      score: v.score ?? undefined,
      severity: SEVERITY_OF_LEVEL[v.originalLevel] as Enums.Vulnerability.Severity,
      method: ratingMethodOf(v.vector) as Enums.Vulnerability.RatingMethod | undefined,
      vector: v.vector ?? undefined,
    }),
  );
  if (v.level !== v.originalLevel) {
    // An analyst's own level, kept beside the published one with the reason given.
    vulnerability.ratings.add(
      new V.Rating({
        source: new V.Source({ name: 'Cairn' }),
        severity: SEVERITY_OF_LEVEL[v.level] as Enums.Vulnerability.Severity,
        method: Enums.Vulnerability.RatingMethod.Other,
        justification: v.levelRemark || '分析人员调整了漏洞等级',
      }),
    );
  }
  for (const cwe of v.cwes) {
    const number = Number(/(\d+)$/.exec(cwe)?.[1]);
    if (Number.isInteger(number) && number > 0) vulnerability.cwes.add(number);
  }
  for (const url of v.references) if (/^https?:\/\//i.test(url)) vulnerability.advisories.add(new V.Advisory(url));
  vulnerability.affects.add(new V.Affect(affected));
  const state = ANALYSIS_STATE_OF_VEX[v.vex];
  if (state) {
    const analysis = new V.Analysis({ state: state as Enums.Vulnerability.AnalysisState, detail: v.vexRemark || undefined });
    if ((v.vex === 2 || v.vex === 3) && v.fixedVersions.length) analysis.response.add(Enums.Vulnerability.AnalysisResponse.Update);
    // The distribution will not (or can no longer) ship a fix for the component's release.
    if (v.vex === 2 && !v.fixedVersions.length && (v.fixState === 'will_not_fix' || v.fixState === 'end_of_life')) analysis.response.add(Enums.Vulnerability.AnalysisResponse.WillNotFix);
    vulnerability.analysis = analysis;
  }
  if (v.fixState && v.fixState !== 'fixed' && v.fixState !== 'affected') vulnerability.properties.add(property('fixState', fixedInText([], v.fixState)));
  if (v.mark) vulnerability.properties.add(property('mark', `${VULNERABILITY_MARK_LABEL[v.mark as keyof typeof VULNERABILITY_MARK_LABEL] ?? v.mark}${v.markRemark ? `：${v.markRemark}` : ''}`));
  if (v.title) vulnerability.properties.add(property('title', v.title));
  return vulnerability;
}

export interface BomOptions {
  /** VEX: only the vulnerabilities and the components they affect, without the dependency graph. */
  vex?: boolean;
}

/**
 * What the BOM describes (metadata.component): the project as an application; for an image run
 * the image as a container, named by its reference (else its digest), version the manifest digest,
 * with its purl, digest hash, platform and base system, and the project named in a property.
 */
function subjectComponent(model: ReportModel): Component {
  const image = model.image;
  if (!image) {
    return new Models.Component(Enums.ComponentType.Application, model.project.name || model.subject.name, {
      bomRef: `project-${model.project.id}`,
      version: model.subject.version ?? undefined,
      description: documentName(model),
      licenses: licencesOf(model.project.outboundLicense),
    });
  }
  const hashes = new Models.HashDictionary();
  const hash = digestHash(image.manifestDigest);
  if (hash) hashes.set(hash.algorithm as Enums.HashAlgorithm, hash.hex);
  const component = new Models.Component(Enums.ComponentType.Container, image.reference ?? image.manifestDigest, {
    bomRef: `image-${model.project.id}`,
    version: image.manifestDigest,
    description: documentName(model),
    purl: imagePurl(image) ?? undefined,
    hashes,
    licenses: licencesOf(model.project.outboundLicense),
  });
  component.properties.add(property('project', model.project.name));
  if (model.subject.version) component.properties.add(property('subjectVersion', model.subject.version));
  for (const [name, value] of imageProperties(image)) component.properties.add(property(name, value));
  return component;
}

export function buildBom(model: ReportModel, options: BomOptions = {}): InstanceType<typeof Models.Bom> {
  const projectComponent = subjectComponent(model);
  projectComponent.properties.add(property('subject', model.subject.name));
  projectComponent.properties.add(property('codeType', model.project.codeTypeLabel));
  projectComponent.properties.add(property('taskSeq', String(model.task.seq)));
  // The vulnerability results' completeness, in words: 完整, or 漏洞结果不完整：<why>.
  projectComponent.properties.add(property('vulnerabilityCoverage', model.coverage.headline ?? '完整'));
  const tool = new Models.Component(Enums.ComponentType.Application, model.tool.name, { version: model.tool.version });
  const bom = new Models.Bom({
    serialNumber: `urn:uuid:${randomUUID()}`,
    version: 1,
    metadata: new Models.Metadata({
      timestamp: new Date(model.generatedAt),
      tools: new Models.Tools({ components: new Models.ComponentRepository([tool]) }),
      authors: model.author ? new Models.OrganizationalContactRepository([new Models.OrganizationalContact({ name: model.author })]) : undefined,
      component: projectComponent,
    }),
  });

  const affectedRefs = new Set(model.vulnerabilities.map((v) => v.componentRef));
  const byRef = new Map<string, Component>();
  const reportComponents = new Map(model.components.map((c) => [c.ref, c]));
  for (const c of model.components) {
    if (options.vex && !affectedRefs.has(c.ref)) continue;
    const component = componentOf(c, model.image);
    byRef.set(c.ref, component);
    bom.components.add(component);
  }
  // An image's operating system (os-release): a component the container depends on, and which
  // depends on the OS packages nothing else brings in (server/reports/image.ts).
  const os = options.vex ? null : imageOperatingSystem(model.image);
  const osComponent = os
    ? new Models.Component(Enums.ComponentType.OperatingSystem, os.name, { bomRef: `os-${model.project.id}`, version: os.version || undefined, description: os.description })
    : null;
  const osRoots = osComponent ? osRootRefs(model.components, model.edges) : new Set<string>();
  if (osComponent) {
    osComponent.properties.add(property('image:os', os!.description));
    bom.components.add(osComponent);
    projectComponent.dependencies.add(osComponent.bomRef);
    for (const ref of osRoots) {
      const to = byRef.get(ref);
      if (to) osComponent.dependencies.add(to.bomRef);
    }
  }
  if (!options.vex) {
    for (const edge of model.edges) {
      // The operating system holds its top-level packages, not the container directly.
      if (edge.from === null && osRoots.has(edge.to)) continue;
      const from = edge.from === null ? projectComponent : byRef.get(edge.from);
      const to = byRef.get(edge.to);
      if (from && to && from !== to) from.dependencies.add(to.bomRef);
    }
  }
  const vulnerabilityRefs = new Set<string>();
  for (const v of model.vulnerabilities) {
    const ref = byRef.get(v.componentRef)?.bomRef ?? new Models.BomRef(v.componentRef);
    // Stable refs (the library would draw random ones): finding id at component, unique.
    let bomRef = `${v.id}@${v.componentRef}`;
    for (let n = 2; vulnerabilityRefs.has(bomRef); n++) bomRef = `${v.id}@${v.componentRef}#${n}`;
    vulnerabilityRefs.add(bomRef);
    bom.vulnerabilities.add(vulnerabilityOf(v, bomRef, ref, reportComponents.get(v.componentRef)));
  }
  return bom;
}

/** CycloneDX 1.6 JSON text of a BOM, lists sorted so that equal models give equal files. */
export function serializeBom(bom: InstanceType<typeof Models.Bom>): string {
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}

export async function writeCycloneDx(model: ReportModel, file: string): Promise<void> {
  await writePrivateFile(file, withEvidence(serializeBom(buildBom(model)), model));
}

/**
 * CycloneDX 1.6 `evidence` of components identified in built artefacts (the identity: technique,
 * rules and confidence; the occurrences: file and byte offset). The library's model has no
 * evidence, so it is added to the serialised document, whose shape the library already checked.
 */
export function withEvidence(json: string, model: ReportModel): string {
  const byRef = new Map(model.components.filter((c) => c.evidence.length).map((c) => [c.ref, c]));
  if (!byRef.size) return json;
  const bom = JSON.parse(json) as { components?: Array<Record<string, unknown>> };
  for (const component of bom.components ?? []) {
    const c = byRef.get(String(component['bom-ref']));
    if (!c) continue;
    const confidence = c.confidence ?? CONFIDENCE.METADATA;
    component.evidence = {
      identity: [{
        field: 'purl',
        confidence,
        ...(c.purl && { concludedValue: c.purl }),
        methods: c.evidence.map((e) => ({ technique: identityTechnique(confidence), confidence, value: `${e.rule}: ${e.file}${e.text ? ` (${e.text})` : ''}` })),
      }],
      occurrences: c.evidence.map((e) => ({ location: e.file, ...(e.offset !== null && { offset: e.offset }), ...(e.text && { additionalContext: e.text }) })),
    };
  }
  return `${JSON.stringify(bom, null, 2)}\n`;
}
