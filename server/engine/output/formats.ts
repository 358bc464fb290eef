// Scan output formats: our JSON (documented in the README), CycloneDX 1.6 JSON and SPDX 2.3 JSON.
import { randomUUID } from 'node:crypto';
import { parsePurl } from '../purl.ts';
import type { ScanResult } from '../model.ts';
import { inventory, type InventoryEntry } from './inventory.ts';

export const OUTPUT_FORMATS = ['json', 'cyclonedx', 'spdx'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ToolInfo { name: string; version: string }

export function toJson(result: ScanResult, tool: ToolInfo): object {
  return {
    tool,
    root: result.root,
    generatedAt: new Date().toISOString(),
    stats: result.stats,
    targets: result.targets.map((t) => ({ file: t.file, type: t.type, ecosystem: t.ecosystem, project: t.project, roots: t.roots, components: t.components.length })),
    problems: result.problems,
    components: inventory(result),
  };
}

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

function cdxComponent(c: InventoryEntry) {
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
    ...(c.locations.length && { evidence: { occurrences: c.locations.map((l) => ({ location: l.file, ...(l.startLine && { line: l.startLine }) })) } }),
    properties: [{ name: 'cairn:direct', value: String(c.direct) }, { name: 'cairn:ecosystem', value: c.ecosystem }],
  };
}

export function toCycloneDx(result: ScanResult, tool: ToolInfo, rootName: string): object {
  const components = inventory(result);
  const known = new Set(components.map((c) => c.purl));
  const rootRef = 'cairn:root';
  const direct = components.filter((c) => c.direct).map((c) => c.purl);
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: new Date().toISOString(),
      tools: { components: [{ type: 'application', name: tool.name, version: tool.version }] },
      component: { type: 'application', 'bom-ref': rootRef, name: rootName },
    },
    components: components.map(cdxComponent),
    dependencies: [
      { ref: rootRef, dependsOn: direct },
      // Edges only to components in the document: a dangling ref would make it invalid.
      ...components.map((c) => ({ ref: c.purl, dependsOn: c.dependsOn.filter((d) => known.has(d)) })),
    ],
  };
}

const spdxId = (i: number) => `SPDXRef-Package-${i + 1}`;
const spdxLicense = (licenses: string[]) => {
  if (!licenses.length) return 'NOASSERTION';
  const valid = licenses.every((l) => isExpression(l) || SPDX_ID.test(l));
  return valid ? licenses.map((l) => (isExpression(l) && licenses.length > 1 ? `(${l})` : l)).join(' AND ') : 'NOASSERTION';
};

export function toSpdx(result: ScanResult, tool: ToolInfo, rootName: string): object {
  const components = inventory(result);
  const ids = new Map(components.map((c, i) => [c.purl, spdxId(i)]));
  const relationships = [
    { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: 'SPDXRef-Root' },
    ...components.filter((c) => c.direct).map((c) => ({ spdxElementId: 'SPDXRef-Root', relationshipType: 'DEPENDS_ON', relatedSpdxElement: ids.get(c.purl)! })),
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
    creationInfo: { created: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), creators: [`Tool: ${tool.name}-${tool.version}`] },
    packages: [
      { SPDXID: 'SPDXRef-Root', name: rootName, downloadLocation: 'NOASSERTION', filesAnalyzed: false, primaryPackagePurpose: 'APPLICATION' },
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
      })),
    ],
    relationships,
  };
}
