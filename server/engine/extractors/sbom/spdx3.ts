// SPDX 3.0 (3.0.0, 3.0.1) in its JSON-LD serialisation: an object whose `@context` is
// https://spdx.org/rdf/3.0.x/spdx-context.jsonld and whose `@graph` lists the elements, each with
// a `type` and an `spdxId` (blank nodes: `@id`). Read: `software_Package` elements (name,
// `software_packageVersion`, the purl from `software_packageUrl` or an `externalIdentifier` of type
// packageUrl), `Relationship` / `LifecycleScopedRelationship` elements (`from`, `to[]`,
// `relationshipType`; dependsOn, contains, hasDynamicLink, hasStaticLink, hasOptionalDependency,
// hasProvidedDependency as edges; a lifecycle scope of build, development or test makes the
// targets development components), licences through hasDeclaredLicense (else hasConcludedLicense)
// to a `simplelicensing_LicenseExpression` (its `simplelicensing_licenseExpression`), an
// `expandedlicensing_ListedLicense` / `CustomLicense` or a listed licence's URL. The described
// elements are the `rootElement`s of the SpdxDocument and its software_Sbom, and the targets of
// `describes` relationships: a single described package is the project.
import type { Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { ComponentTable, derivedPurl, normalizePurl, type PurlInfo } from './common.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const strings = (v: unknown): string[] => list(v).map((x) => (isObj(x) ? str(x.spdxId) || str(x['@id']) : str(x))).filter(Boolean);

const SPDX3_CONTEXT = /spdx\.org\/rdf\/3\.\d+(?:\.\d+)?\/spdx-context\.jsonld/;

/** Whether a parsed JSON document is SPDX 3 JSON-LD. */
export function isSpdx3(doc: unknown): boolean {
  return isObj(doc) && list(doc['@context']).some((c) => typeof c === 'string' && SPDX3_CONTEXT.test(c)) && (Array.isArray(doc['@graph']) || isObj(doc.type));
}

/** Element type without a namespace prefix an expanded or differently compacted document may carry. */
const typeOf = (e: Obj): string => str(e.type ?? e['@type']).replace(/^.*[#/]/, '').replace(/^(?:spdx|software|core):/, '');

const EDGE_TYPES = new Set(['dependsOn', 'contains', 'hasDynamicLink', 'hasStaticLink', 'hasOptionalDependency', 'hasProvidedDependency', 'hasPrerequisite']);
const DEVELOPMENT_SCOPES = new Set(['build', 'development', 'test']);
const meaningful = (licence: string): boolean => !!licence && licence !== 'NOASSERTION' && licence !== 'NONE';
const LICENCE_URL = /^https?:\/\/spdx\.org\/licenses\/([^/#?]+?)(?:\.html|\.json)?$/;

export function spdx3ToTarget(doc: unknown, file: string): Target {
  if (!isSpdx3(doc)) throw new ExtractError('SPDX 3 文档格式错误：缺少 @context（spdx.org/rdf/3.0.x）或 @graph');
  const graph = Array.isArray((doc as Obj)['@graph']) ? ((doc as Obj)['@graph'] as unknown[]) : [doc];
  const elements = new Map<string, Obj>();
  for (const e of graph) {
    if (!isObj(e)) continue;
    const id = str(e.spdxId) || str(e['@id']);
    if (id) elements.set(id, e);
  }
  const packages = [...elements.entries()].filter(([, e]) => typeOf(e) === 'software_Package' || typeOf(e) === 'Package');
  if (packages.length === 0 && !graph.some((e) => isObj(e) && (typeOf(e) === 'SpdxDocument' || typeOf(e) === 'software_Sbom'))) {
    throw new ExtractError('SPDX 3 文档中既没有 SpdxDocument 也没有软件包（software_Package）');
  }
  const packageIds = new Set(packages.map(([id]) => id));

  const licenceOf = (id: string): string => {
    const e = elements.get(id);
    if (!e) return LICENCE_URL.exec(id)?.[1] ?? '';
    const t = typeOf(e);
    if (t === 'simplelicensing_LicenseExpression') return str(e.simplelicensing_licenseExpression).trim();
    if (t === 'expandedlicensing_ListedLicense') return LICENCE_URL.exec(id)?.[1] ?? str(e.name);
    if (t === 'expandedlicensing_CustomLicense') return str(e.name) || id;
    return str(e.simplelicensing_licenseExpression) || str(e.name);
  };

  const declared = new Map<string, string>();
  const concluded = new Map<string, string>();
  const development = new Set<string>();
  const edges: Array<[string, string]> = [];
  const incoming = new Set<string>();
  const described: string[] = [];
  const roots = new Set<string>();
  for (const e of elements.values()) {
    const t = typeOf(e);
    if (t === 'SpdxDocument' || t === 'software_Sbom' || t === 'Bom' || t === 'Bundle') for (const id of strings(e.rootElement)) roots.add(id);
    if (t !== 'Relationship' && t !== 'LifecycleScopedRelationship') continue;
    const type = str(e.relationshipType);
    const from = str(isObj(e.from) ? (e.from as Obj).spdxId : e.from);
    const to = strings(e.to);
    if (type === 'hasDeclaredLicense' || type === 'hasConcludedLicense') {
      const licence = to.map(licenceOf).filter(meaningful).join(' AND ');
      if (licence) (type === 'hasDeclaredLicense' ? declared : concluded).set(from, licence);
      continue;
    }
    if (type === 'describes') { for (const id of to) if (packageIds.has(id)) described.push(id); continue; }
    if (!EDGE_TYPES.has(type) || !packageIds.has(from)) continue;
    for (const id of to) {
      if (!packageIds.has(id) || id === from) continue;
      edges.push([from, id]);
      incoming.add(id);
      if (DEVELOPMENT_SCOPES.has(str(e.scope))) development.add(id);
    }
  }
  // The elements the document is about: described packages, else the root elements (through an Sbom to its roots).
  const rootPackages = new Set(described);
  if (rootPackages.size === 0) {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      if (packageIds.has(id)) { rootPackages.add(id); return; }
      const e = elements.get(id);
      if (e && (typeOf(e) === 'software_Sbom' || typeOf(e) === 'Bom' || typeOf(e) === 'Bundle' || typeOf(e) === 'SpdxDocument')) for (const r of strings(e.rootElement)) visit(r);
    };
    for (const id of roots) visit(id);
  }
  const projectId = rootPackages.size === 1 ? [...rootPackages][0]! : null;

  const table = new ComponentTable(file);
  let project: PurlInfo | null = null;
  for (const [id, e] of packages) {
    const info = purlInfo(e);
    if (id === projectId) project = info;
    const licence = declared.get(id) ?? concluded.get(id) ?? '';
    const scope: Scope = development.has(id) ? 'development' : 'runtime';
    const topLevel = rootPackages.size > 1 ? rootPackages.has(id) : !incoming.has(id);
    table.add({ key: id, info, scope, licenses: licence ? [licence] : [], topLevel });
  }
  for (const [from, to] of edges) table.link(from, to);
  return table.toTarget('spdx3', project, projectId ? [] : [...rootPackages]);
}

function purlInfo(e: Obj): PurlInfo {
  const candidates = [str(e.software_packageUrl)];
  for (const x of list(e.externalIdentifier)) {
    if (isObj(x) && str(x.externalIdentifierType) === 'packageUrl') candidates.push(str(x.identifier));
  }
  for (const raw of candidates) {
    const info = raw ? normalizePurl(raw) : null;
    if (info) return info;
  }
  return derivedPurl(str(e.name), str(e.software_packageVersion));
}
