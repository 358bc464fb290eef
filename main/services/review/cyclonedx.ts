// CycloneDX (JSON, or XML read into the same shape), including CycloneDX VEX documents: components,
// vulnerabilities with their VEX analysis, and licences.
import { XMLParser } from 'fast-xml-parser';
import type { ReviewDocument } from '../../../contract/ipc/desktop-contract.ts';
import { cell, imageLayerOf, licenceTable, list, obj, table, text, worstSeverity } from './tables.ts';

type Json = Record<string, unknown>;

function licencesOf(component: Json): string[] {
  const out: string[] = [];
  const licenses = component.licenses;
  // JSON: [{ license: { id | name } } | { expression }]; XML: { license: [...], expression }.
  const items = Array.isArray(licenses) ? licenses : [obj(licenses)];
  for (const item of items.map(obj)) {
    for (const lic of list(item.license).map(obj)) {
      const name = text(lic.id) || text(lic.name);
      if (name) out.push(name);
    }
    for (const expression of list(item.expression)) if (text(expression)) out.push(text(expression));
  }
  return out;
}

/** A component's properties by name (JSON `[{ name, value }]`; XML `<properties><property name="…">…`). */
function propertiesOf(component: Json): Map<string, string> {
  const out = new Map<string, string>();
  const items = Array.isArray(component.properties) ? component.properties : list(obj(component.properties).property);
  for (const p of items.map(obj)) {
    const name = text(p.name) || text(p['@_name']);
    if (name && !out.has(name)) out.set(name, text(p.value ?? p));
  }
  return out;
}

/** Components depth-first (components may nest). */
function flatten(components: unknown, out: Json[] = []): Json[] {
  for (const c of list(components).map(obj)) {
    out.push(c);
    flatten(c.components, out);
  }
  return out;
}

/** `urn:cdx:<serial>/1#<bom-ref>` (a BOM-Link) -> `<bom-ref>` */
const localRef = (ref: string) => (ref.startsWith('urn:cdx:') && ref.includes('#') ? decodeURIComponent(ref.slice(ref.indexOf('#') + 1)) : ref);

export function readCycloneDx(doc: Json, fileName: string): ReviewDocument {
  const components = flatten(doc.components);
  const byRef = new Map<string, string>();
  const label = (c: Json) => [text(c.name), text(c.version)].filter(Boolean).join('@');
  const meta = obj(obj(doc.metadata).component);
  for (const c of [meta, ...components]) if (text(c['bom-ref'])) byRef.set(text(c['bom-ref']), label(c));

  const licences = components.map(licencesOf);
  const componentRows = components.map((c, i) => ({
    name: cell(text(c.group) ? `${text(c.group)}:${text(c.name)}` : c.name),
    version: cell(c.version),
    purl: cell(c.purl),
    licenses: licences[i]!.join(', ') || null,
    scope: cell(c.scope),
    layer: imageLayerOf(propertiesOf(c)),
  }));
  // A container image's BOM says which layer each component came from.
  const layered = componentRows.some((r) => r.layer !== null);
  if (!layered) for (const r of componentRows) delete (r as { layer?: unknown }).layer;

  const vulnerabilityRows = list(doc.vulnerabilities).map(obj).map((v) => {
    const ratings = list(v.ratings).map(obj);
    const scores = ratings.filter((r) => text(r.score) !== '').map((r) => Number(text(r.score))).filter((n) => Number.isFinite(n));
    const analysis = obj(v.analysis);
    const affected = list(v.affects).map(obj).map((a) => localRef(text(a.ref))).filter(Boolean).map((ref) => byRef.get(ref) ?? ref);
    return {
      id: cell(v.id),
      severity: worstSeverity(ratings.map((r) => text(r.severity))),
      score: scores.length ? Math.max(...scores) : null,
      affected: affected.join(', ') || null,
      state: cell(analysis.state),
      justification: cell(analysis.justification),
      detail: cell(analysis.detail),
    };
  });

  const tables = [
    table('components', '组件', [['name', '名称'], ['version', '版本'], ['purl', 'PURL'], ['licenses', '许可证'], ['scope', '范围'], ...(layered ? [['layer', '镜像层'] as [string, string]] : [])], componentRows),
  ];
  if (vulnerabilityRows.length || doc.vulnerabilities !== undefined) {
    tables.push(table('vulnerabilities', '漏洞', [['id', '编号'], ['severity', '严重程度'], ['score', '评分'], ['affected', '影响组件'], ['state', 'VEX 状态'], ['justification', '理由'], ['detail', '说明']], vulnerabilityRows));
  }
  tables.push(licenceTable(licences));
  return {
    kind: 'sbom',
    fileName,
    standard: `CycloneDX ${text(doc.specVersion)}`.trim(),
    name: label(meta) || fileName,
    tables,
  };
}

const ARRAYS = new Set(['Entity', 'component', 'license', 'vulnerability', 'rating', 'target', 'tool', 'dependency', 'hash', 'reference']);

/** A CycloneDX XML document as the JSON shape, or null when it is not one. */
export function cycloneDxFromXml(root: Json): Json | null {
  const bom = obj(root.bom);
  if (!root.bom) return null;
  const ns = text(bom['@_xmlns']);
  const match = /cyclonedx\.org\/schema\/bom\/(\d+(?:\.\d+)*)/.exec(ns);
  if (!match) return null;
  const components = (node: unknown): Json[] => list(obj(node).component).map(obj).map((c) => ({ ...c, 'bom-ref': c['@_bom-ref'], scope: c.scope, components: c.components ? components(c.components) : undefined }));
  return {
    bomFormat: 'CycloneDX',
    specVersion: match[1],
    metadata: { component: obj(list(obj(bom.metadata).component)[0]) },
    components: components(bom.components),
    vulnerabilities: bom.vulnerabilities === undefined ? undefined : list(obj(bom.vulnerabilities).vulnerability).map(obj).map((v) => ({
      id: v.id,
      ratings: list(obj(v.ratings).rating),
      affects: list(obj(v.affects).target),
      analysis: v.analysis,
    })),
  };
}

export const xmlParser = () => new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => ARRAYS.has(name),
});
