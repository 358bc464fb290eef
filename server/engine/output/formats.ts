// Scan output formats: our JSON (documented in the README), CycloneDX 1.6 JSON and SPDX 2.3 JSON.
import { randomUUID } from 'node:crypto';
import { PackageURL } from 'packageurl-js';
import type { RunImage } from '../../../contract/api/image.ts';
import { layerStep } from '../../../contract/layer-step.ts';
import { parsePurl } from '../purl.ts';
import { parseImageReference } from '../sources/image/registry/reference.ts';
import { identityTechnique, type Evidence, type ScanResult } from '../model.ts';
import { inventory, type InventoryEntry } from './inventory.ts';

export { jsonPieces } from './write-json.ts';

export const OUTPUT_FORMATS = ['json', 'cyclonedx', 'spdx'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ToolInfo { name: string; version: string }

/** A container image scanned (scanImage): its record, and the layer each component (by purl) first appeared in. */
export interface ImageOutput {
  image: RunImage;
  layers: ReadonlyMap<string, number>;
}

/** The inventory, each component with its layer index when an image was scanned. */
function entries(result: ScanResult, image?: ImageOutput): InventoryEntry[] {
  const list = inventory(result);
  if (image) {
    for (const c of list) {
      const layer = image.layers.get(c.purl);
      if (layer !== undefined) c.layer = layer;
    }
  }
  return list;
}

export function toJson(result: ScanResult, tool: ToolInfo, image?: ImageOutput): object {
  return {
    tool,
    root: result.root,
    generatedAt: new Date().toISOString(),
    stats: result.stats,
    ...(image && { image: image.image }),
    targets: result.targets.map((t) => ({ file: t.file, type: t.type, ecosystem: t.ecosystem, project: t.project, roots: t.roots, components: t.components.length })),
    problems: result.problems,
    components: entries(result, image),
  };
}

/**
 * The image as a package URL (purl spec, type oci): `pkg:oci/app@sha256:…?arch=amd64&repository_url=host/team/app&tag=1.0`;
 * an image without a registry name (an untagged archive) is `pkg:oci/image@sha256:…`, its digest alone.
 */
export function imagePurl(image: RunImage): string {
  let name = 'image';
  const qualifiers: Record<string, string> = {};
  if (image.reference) {
    try {
      const ref = parseImageReference(image.reference);
      name = ref.repository.split('/').pop()!;
      qualifiers.repository_url = `${ref.registry}/${ref.repository}`;
      if (ref.tag) qualifiers.tag = ref.tag;
    } catch {
      // A name the registry grammar refuses (an archive's odd tag): the digest alone identifies it.
    }
  }
  const platform = image.platform.split('/');
  if (platform[1]) qualifiers.arch = platform[1];
  return new PackageURL('oci', undefined, name, image.manifestDigest, qualifiers, undefined).toString();
}

/** The image's name as the document describes it: its reference, else its digest. */
const imageName = (image: RunImage) => image.reference ?? image.manifestDigest;

/** What the image record says, as `cairn:image:*` properties (layers bottom first, one property each). */
function imageProperties(image: RunImage): Array<{ name: string; value: string }> {
  return [
    { name: 'cairn:image:manifestDigest', value: image.manifestDigest },
    { name: 'cairn:image:platform', value: image.platform },
    ...(image.os ? [{ name: 'cairn:image:os', value: image.os.prettyName || `${image.os.id} ${image.os.versionId}` }] : []),
    ...(image.created ? [{ name: 'cairn:image:created', value: image.created }] : []),
    { name: 'cairn:image:size', value: String(image.size) },
    ...image.layers.map((l) => ({ name: 'cairn:image:layer', value: `${l.index} ${l.digest}${l.createdBy ? ` ${layerStep(l.createdBy)}` : ''}` })),
  ];
}

/** A component's layer as properties: its index, digest and the step that made it. */
function layerProperties(image: ImageOutput | undefined, c: InventoryEntry): Array<{ name: string; value: string }> {
  const layer = c.layer === undefined ? undefined : image?.image.layers[c.layer];
  if (!layer) return [];
  return [
    { name: 'cairn:image:layer:index', value: String(layer.index) },
    { name: 'cairn:image:layer:digest', value: layer.digest },
    ...(layer.createdBy ? [{ name: 'cairn:image:layer:createdBy', value: layerStep(layer.createdBy) }] : []),
  ];
}

const sha256Of = (digest: string) => (digest.startsWith('sha256:') ? digest.slice(7) : null);

/** A licence string is an SPDX expression when it holds an operator; otherwise a single id or name. */
const isExpression = (l: string) => /\s(AND|OR|WITH)\s/.test(l);
const SPDX_ID = /^[A-Za-z0-9.+-]+$/;

function cdxLicenses(licenses: string[]) {
  if (licenses.length === 1 && isExpression(licenses[0]!)) return [{ expression: licenses[0] }];
  return licenses.map((l) => (SPDX_ID.test(l) ? { license: { id: l } } : { license: { name: l } }));
}

/** `Name <mail>` → its parts. */
function contact(maintainer: string): { name: string; email?: string } {
  const m = /^(.*?)\s*<([^<>]+)>\s*$/.exec(maintainer);
  return m && m[1] ? { name: m[1], email: m[2]! } : { name: maintainer };
}

function cdxComponent(c: InventoryEntry, image?: ImageOutput) {
  const p = parsePurl(c.purl);
  return {
    type: 'library',
    'bom-ref': c.purl,
    ...(p.namespace && { group: p.namespace }),
    name: p.name,
    ...(c.version && { version: c.version }),
    ...(c.maintainer && { authors: [contact(c.maintainer)] }),
    scope: c.scope === 'development' ? 'optional' : 'required',
    purl: c.purl,
    ...(c.licenses.length && { licenses: cdxLicenses(c.licenses) }),
    ...cdxEvidence(c),
    properties: [
      { name: 'cairn:direct', value: String(c.direct) }, { name: 'cairn:ecosystem', value: c.ecosystem },
      ...(c.constraint ? [{ name: 'cairn:versionConstraint', value: c.constraint }] : []),
      ...layerProperties(image, c),
    ],
  };
}

/**
 * CycloneDX 1.6 evidence: where the component was found (occurrences: the manifest line, or the
 * file and byte offset of the bytes that identified it in a binary) and, for components
 * identified in built artefacts, how (identity: the technique, the rules and the confidence).
 */
function cdxEvidence(c: InventoryEntry) {
  const evidence = c.evidence ?? [];
  const bytesOf = (e: Evidence | undefined) => (e ? { ...(e.offset !== undefined && { offset: e.offset }), ...(e.text && { additionalContext: e.text }) } : {});
  const occurrences = [
    // A location that is also where the identifying bytes were read carries their offset and text.
    ...c.locations.map((l) => ({ location: l.file, ...(l.startLine && { line: l.startLine }), ...bytesOf(evidence.find((e) => e.file === l.file)) })),
    ...evidence.filter((e) => !c.locations.some((l) => l.file === e.file)).map((e) => ({ location: e.file, ...bytesOf(e) })),
  ];
  const identity = c.evidence?.length && c.confidence !== undefined
    ? [{
        field: 'purl',
        confidence: c.confidence,
        concludedValue: c.purl,
        methods: c.evidence.map((e) => ({ technique: identityTechnique(c.confidence!), confidence: c.confidence!, value: `${e.rule}: ${e.file}${e.text ? ` (${e.text})` : ''}` })),
      }]
    : undefined;
  if (!occurrences.length && !identity) return {};
  return { evidence: { ...(identity && { identity }), ...(occurrences.length && { occurrences }) } };
}

/** The `cairn:` facts of a component SPDX 2.3 has no field for. */
function spdxProperties(c: InventoryEntry, image?: ImageOutput): Array<{ name: string; value: string }> {
  return [
    ...(image && c.layer !== undefined ? layerProperties(image, c) : []),
    ...(c.constraint ? [{ name: 'cairn:versionConstraint', value: c.constraint }] : []),
    ...(c.confidence !== undefined ? [{ name: 'cairn:confidence', value: String(c.confidence) }] : []),
    ...(c.evidence ?? []).map((e) => ({ name: 'cairn:evidence', value: `${e.rule}: ${e.file}${e.offset !== undefined ? ` @${e.offset}` : ''}${e.text ? ` (${e.text})` : ''}` })),
  ];
}

/** The document's subject: the scanned folder or archive, or the container image. */
function cdxRoot(rootRef: string, rootName: string, image?: ImageOutput) {
  if (!image) return { type: 'application', 'bom-ref': rootRef, name: rootName };
  const { image: record } = image;
  const digest = sha256Of(record.manifestDigest);
  return {
    type: 'container',
    'bom-ref': rootRef,
    name: imageName(record),
    version: record.manifestDigest,
    purl: imagePurl(record),
    ...(digest && { hashes: [{ alg: 'SHA-256', content: digest }] }),
    properties: imageProperties(record),
  };
}

const OS_PURL_TYPES = new Set(['deb', 'apk', 'rpm', 'alpm']);
const isOsPackage = (c: InventoryEntry) => OS_PURL_TYPES.has(/^pkg:([^/]+)\//.exec(c.purl)?.[1] ?? c.ecosystem);

/**
 * An image's operating system (os-release) as CycloneDX 1.5/1.6 and syft describe it: its own
 * `operating-system` component (SPDX: an OPERATING_SYSTEM package) that the image holds, holding
 * the OS packages nothing else brings in; null for an image without os-release.
 */
function operatingSystem(components: InventoryEntry[], image?: ImageOutput): { name: string; version: string; description: string; holds: Set<string> } | null {
  const os = image?.image.os;
  if (!os?.id) return null;
  const brought = new Set(components.flatMap((c) => c.dependsOn));
  const holds = new Set(components.filter((c) => isOsPackage(c) && (c.direct || !brought.has(c.purl))).map((c) => c.purl));
  return { name: os.id, version: os.versionId, description: os.prettyName || `${os.id} ${os.versionId}`.trim(), holds };
}

export function toCycloneDx(result: ScanResult, tool: ToolInfo, rootName: string, image?: ImageOutput): object {
  const components = entries(result, image);
  const known = new Set(components.map((c) => c.purl));
  const rootRef = 'cairn:root';
  const os = operatingSystem(components, image);
  const osRef = 'cairn:os';
  const direct = components.filter((c) => c.direct && !os?.holds.has(c.purl)).map((c) => c.purl);
  // Lists filled in place, not spread into copies (tens of thousands of components in a huge lockfile).
  const cdxComponents: object[] = os ? [{ type: 'operating-system', 'bom-ref': osRef, name: os.name, ...(os.version && { version: os.version }), description: os.description }] : [];
  for (const c of components) cdxComponents.push(cdxComponent(c, image));
  const dependencies: object[] = [{ ref: rootRef, dependsOn: os ? [osRef, ...direct] : direct }, ...(os ? [{ ref: osRef, dependsOn: [...os.holds] }] : [])];
  // Edges only to components in the document: a dangling ref would make it invalid. Most
  // components have none dangling: their own list then, not a copy.
  for (const c of components) dependencies.push({ ref: c.purl, dependsOn: c.dependsOn.every((d) => known.has(d)) ? c.dependsOn : c.dependsOn.filter((d) => known.has(d)) });
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: new Date().toISOString(),
      tools: { components: [{ type: 'application', name: tool.name, version: tool.version }] },
      component: cdxRoot(rootRef, rootName, image),
    },
    components: cdxComponents,
    dependencies,
  };
}

const spdxId = (i: number) => `SPDXRef-Package-${i + 1}`;
const spdxLicense = (licenses: string[]) => {
  if (!licenses.length) return 'NOASSERTION';
  const valid = licenses.every((l) => isExpression(l) || SPDX_ID.test(l));
  return valid ? licenses.map((l) => (isExpression(l) && licenses.length > 1 ? `(${l})` : l)).join(' AND ') : 'NOASSERTION';
};

/** The SPDX root package: the scanned folder or archive, or the container image. */
function spdxRoot(rootName: string, image?: ImageOutput) {
  const base = { SPDXID: 'SPDXRef-Root', downloadLocation: 'NOASSERTION', filesAnalyzed: false };
  if (!image) return { ...base, name: rootName, primaryPackagePurpose: 'APPLICATION' };
  const { image: record } = image;
  const digest = sha256Of(record.manifestDigest);
  return {
    ...base,
    name: imageName(record),
    versionInfo: record.manifestDigest,
    primaryPackagePurpose: 'CONTAINER',
    ...(digest && { checksums: [{ algorithm: 'SHA256', checksumValue: digest }] }),
    externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: imagePurl(record) }],
    comment: imageProperties(record).map((p) => `${p.name}=${p.value}`).join('\n'),
  };
}

export function toSpdx(result: ScanResult, tool: ToolInfo, rootName: string, image?: ImageOutput): object {
  const components = entries(result, image);
  const created = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const annotator = `Tool: ${tool.name}-${tool.version}`;
  const ids = new Map(components.map((c, i) => [c.purl, spdxId(i)]));
  const os = operatingSystem(components, image);
  const osId = 'SPDXRef-OperatingSystem';
  const relationships = [
    { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: 'SPDXRef-Root' },
    ...(os
      ? [
          { spdxElementId: 'SPDXRef-Root', relationshipType: 'CONTAINS', relatedSpdxElement: osId },
          ...[...os.holds].map((purl) => ({ spdxElementId: osId, relationshipType: 'CONTAINS', relatedSpdxElement: ids.get(purl)! })),
        ]
      : []),
    ...components.filter((c) => c.direct && !os?.holds.has(c.purl)).map((c) => ({ spdxElementId: 'SPDXRef-Root', relationshipType: 'DEPENDS_ON', relatedSpdxElement: ids.get(c.purl)! })),
    ...components.flatMap((c) =>
      c.dependsOn.filter((d) => ids.has(d)).map((d) => ({ spdxElementId: ids.get(c.purl)!, relationshipType: 'DEPENDS_ON', relatedSpdxElement: ids.get(d)! })),
    ),
  ];
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: rootName,
    documentNamespace: `https://cairn.invalid/spdx/${encodeURIComponent(rootName)}-${randomUUID()}`,
    creationInfo: { created, creators: [annotator] },
    packages: [
      spdxRoot(rootName, image),
      ...(os
        ? [{
            SPDXID: osId, name: os.name, ...(os.version && { versionInfo: os.version }), downloadLocation: 'NOASSERTION', filesAnalyzed: false,
            licenseConcluded: 'NOASSERTION', licenseDeclared: 'NOASSERTION', primaryPackagePurpose: 'OPERATING_SYSTEM', description: os.description,
          }]
        : []),
      ...components.map((c) => ({
        SPDXID: ids.get(c.purl)!,
        name: c.name,
        ...(c.version && { versionInfo: c.version }),
        ...(c.maintainer && { supplier: `Person: ${contact(c.maintainer).name}${contact(c.maintainer).email ? ` (${contact(c.maintainer).email})` : ''}` }),
        downloadLocation: 'NOASSERTION',
        filesAnalyzed: false,
        licenseConcluded: 'NOASSERTION',
        licenseDeclared: spdxLicense(c.licenses),
        externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: c.purl }],
        // SPDX 2.3 packages carry no properties: the layer, the declared range of an unpinned
        // component and how a binary one was identified go in an annotation, one `name=value` line each.
        ...(spdxProperties(c, image).length && {
          annotations: [{ annotator, annotationDate: created, annotationType: 'OTHER', comment: spdxProperties(c, image).map((p) => `${p.name}=${p.value}`).join('\n') }],
        }),
      })),
    ],
    relationships,
  };
}
