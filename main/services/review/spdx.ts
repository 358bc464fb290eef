// SPDX 2.x JSON: packages as components (purl from their external references), relationships,
// and licences (the concluded one, else the declared one).
import type { ReviewDocument } from '../../../contract/ipc/desktop-contract.ts';
import { cell, imageLayerOf, licenceTable, list, obj, table, text } from './tables.ts';

type Json = Record<string, unknown>;

const NO_VALUE = new Set(['NOASSERTION', 'NONE', '']);

export function readSpdx(doc: Json, fileName: string): ReviewDocument {
  const packages = list(doc.packages).map(obj);
  const names = new Map<string, string>();
  names.set(text(doc.SPDXID), text(doc.name));
  for (const p of packages) names.set(text(p.SPDXID), [text(p.name), text(p.versionInfo)].filter(Boolean).join('@'));
  for (const f of list(doc.files).map(obj)) names.set(text(f.SPDXID), text(f.fileName));
  const nameOf = (id: unknown) => names.get(text(id)) || text(id) || null;

  const licences = packages.map((p) => {
    const concluded = text(p.licenseConcluded);
    const chosen = NO_VALUE.has(concluded) ? text(p.licenseDeclared) : concluded;
    return NO_VALUE.has(chosen) ? [] : [chosen];
  });
  // A container image's document annotates each package with its layer (`name: value` comments).
  const layerOf = (p: Json) => imageLayerOf(new Map(list(p.annotations).map((a) => {
    const comment = text(obj(a).comment);
    const colon = comment.indexOf(': ');
    return colon > 0 ? [comment.slice(0, colon), comment.slice(colon + 2)] as [string, string] : ['', ''] as [string, string];
  }).filter(([name]) => name).reverse()));
  const components = packages.map((p) => ({
    name: cell(p.name),
    version: cell(p.versionInfo),
    licenseConcluded: cell(p.licenseConcluded),
    licenseDeclared: cell(p.licenseDeclared),
    purl: list(p.externalRefs).map(obj).filter((r) => text(r.referenceType) === 'purl').map((r) => text(r.referenceLocator)).join(', ') || null,
    layer: layerOf(p),
  }));
  const layered = components.some((c) => c.layer !== null);
  if (!layered) for (const c of components) delete (c as { layer?: unknown }).layer;
  const relationships = list(doc.relationships).map(obj).map((r) => ({
    from: nameOf(r.spdxElementId),
    type: cell(r.relationshipType),
    to: nameOf(r.relatedSpdxElement),
    comment: cell(r.comment),
  }));
  return {
    kind: 'sbom',
    fileName,
    standard: `SPDX ${text(doc.spdxVersion).replace(/^SPDX-/, '')}`,
    name: text(doc.name) || fileName,
    tables: [
      table('components', '组件', [['name', '名称'], ['version', '版本'], ['licenseConcluded', '认定许可证'], ['licenseDeclared', '声明许可证'], ['purl', 'PURL'], ...(layered ? [['layer', '镜像层'] as [string, string]] : [])], components),
      table('relationships', '关系', [['from', '元素'], ['type', '关系'], ['to', '关联元素'], ['comment', '备注']], relationships),
      licenceTable(licences),
    ],
  };
}
