// SPDX 2.x import (2.2 and 2.3 tested; 2.0/2.1 read the same way): JSON, YAML, XML, tag-value
// (own parser) and RDF/XML (fast-xml-parser). Every serialisation is first read into one
// normalised document (packages, files, relationships — `documentDescribes`, `hasFiles` and
// the files that follow a package in tag-value become DESCRIBES / CONTAINS relationships, as
// the specification defines), then mapped onto the engine's model.
import { XMLParser } from 'fast-xml-parser';
import { parse as parseYaml } from 'yaml';
import type { Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { ComponentTable, derivedPurl, ENTITY_REFUSAL, hasEntityDeclarations, normalizePurl, type PurlInfo } from './common.ts';

export interface SpdxPackage {
  id: string;
  name: string;
  version: string;
  purls: string[];
  licenseDeclared: string;
  licenseConcluded: string;
  /** primaryPackagePurpose (OPERATING-SYSTEM, CONTAINER, LIBRARY …), upper case with hyphens; '' when not given. */
  purpose?: string;
}
export interface SpdxFile { id: string; name: string }
export interface SpdxRelationship { from: string; type: string; to: string }
export interface SpdxDocument {
  spdxVersion: string;
  id: string;
  name: string;
  packages: SpdxPackage[];
  files: SpdxFile[];
  relationships: SpdxRelationship[];
}

export type SpdxFormat = 'json' | 'yaml' | 'xml' | 'tag' | 'rdf';

const fail = (detail: string): ExtractError => new ExtractError(`SPDX 文档格式错误：${detail}`);

/** Which SPDX serialisation a text is, by content; null when it is not SPDX. */
export function sniffSpdx(text: string): SpdxFormat | null {
  const head = text.slice(0, 4096).trimStart();
  if (head.startsWith('{')) return /"spdxVersion"\s*:/.test(text) ? 'json' : null;
  if (head.startsWith('<')) {
    if (/<rdf:RDF[\s>]/.test(head) && /spdx\.org\/rdf\/terms/.test(head)) return 'rdf';
    if (/<(?:\w+:)?(?:Document|SpdxDocument)[\s>]/.test(head) && /<spdxVersion>/.test(text)) return 'xml';
    return null;
  }
  if (/^SPDXVersion:\s*SPDX-/m.test(head)) return 'tag';
  // YAML writers may sort keys, so spdxVersion can come late in the document.
  if (/^["']?spdxVersion["']?\s*:\s*["']?SPDX-/m.test(text)) return 'yaml';
  return null;
}

/** Parses SPDX text of any supported serialisation into the normalised document. */
export function parseSpdx(text: string, format: SpdxFormat): SpdxDocument {
  if ((format === 'xml' || format === 'rdf') && hasEntityDeclarations(text)) throw new ExtractError(ENTITY_REFUSAL);
  switch (format) {
    case 'json': {
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch (error) {
        throw fail(`JSON 无法解析（${error instanceof Error ? error.message : String(error)}）`);
      }
      return fromObject(doc);
    }
    case 'yaml': {
      let doc: unknown;
      try {
        doc = parseYaml(text, { maxAliasCount: 100 });
      } catch (error) {
        throw fail(`YAML 无法解析（${error instanceof Error ? error.message : String(error)}）`);
      }
      return fromObject(doc);
    }
    case 'xml': {
      const root = parseXml(text);
      return fromObject(root.Document ?? root.SpdxDocument);
    }
    case 'tag':
      return parseTagValue(text);
    case 'rdf':
      return parseRdf(text);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON / YAML / XML: the same object shape.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v]);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : isObj(v) && '#text' in v ? str(v['#text']) : '');

function checkVersion(version: string): void {
  if (!version) throw fail('缺少 spdxVersion');
  if (!/^SPDX-2\.[0-3]$/.test(version)) throw fail(`不支持的版本 ${version}（支持 SPDX-2.0 至 SPDX-2.3）`);
}

/** Reads an already parsed SPDX JSON/YAML object (e.g. the predicate of an in-toto statement). */
export function fromObject(doc: unknown): SpdxDocument {
  if (!isObj(doc)) throw fail('根节点不是对象');
  const spdxVersion = str(doc.spdxVersion);
  checkVersion(spdxVersion);
  const id = str(doc.SPDXID);
  if (!id) throw fail('缺少文档的 SPDXID');
  const relationships: SpdxRelationship[] = [];
  const packages = list(doc.packages).map((raw, index): SpdxPackage => {
    if (!isObj(raw)) throw fail(`第 ${index + 1} 个软件包不是对象`);
    const pkgId = str(raw.SPDXID);
    const name = str(raw.name);
    if (!pkgId) throw fail(`第 ${index + 1} 个软件包缺少 SPDXID`);
    if (!name) throw fail(`软件包 ${pkgId} 缺少 name`);
    const purls: string[] = [];
    for (const ref of list(raw.externalRefs)) {
      if (!isObj(ref)) continue;
      const category = str(ref.referenceCategory).replace(/_/g, '-').toUpperCase();
      if (str(ref.referenceType) === 'purl' && (category === 'PACKAGE-MANAGER' || category === '')) purls.push(str(ref.referenceLocator));
    }
    for (const file of list(raw.hasFiles)) if (str(file)) relationships.push({ from: pkgId, type: 'CONTAINS', to: str(file) });
    return { id: pkgId, name, version: str(raw.versionInfo), purls, licenseDeclared: str(raw.licenseDeclared), licenseConcluded: str(raw.licenseConcluded), ...(str(raw.primaryPackagePurpose) && { purpose: purposeOf(str(raw.primaryPackagePurpose)) }) };
  });
  const files = list(doc.files).map((raw, index): SpdxFile => {
    if (!isObj(raw)) throw fail(`第 ${index + 1} 个文件不是对象`);
    const fileId = str(raw.SPDXID);
    if (!fileId) throw fail(`第 ${index + 1} 个文件缺少 SPDXID`);
    return { id: fileId, name: str(raw.fileName) };
  });
  for (const described of list(doc.documentDescribes)) if (str(described)) relationships.push({ from: id, type: 'DESCRIBES', to: str(described) });
  list(doc.relationships).forEach((raw, index) => {
    if (!isObj(raw)) throw fail(`第 ${index + 1} 个关系不是对象`);
    const from = str(raw.spdxElementId);
    const type = str(raw.relationshipType).toUpperCase();
    const to = str(raw.relatedSpdxElement);
    if (!from || !type || !to) throw fail(`第 ${index + 1} 个关系缺少 spdxElementId、relationshipType 或 relatedSpdxElement`);
    relationships.push({ from, type, to });
  });
  return { spdxVersion, id, name: str(doc.name), packages, files, relationships: dedupe(relationships) };
}

const XML_ARRAYS = new Set(['packages', 'files', 'relationships', 'externalRefs', 'documentDescribes', 'hasFiles']);

function parseXml(text: string): Obj {
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    parseTagValue: false,
    trimValues: true,
    htmlEntities: false,
    isArray: (name) => XML_ARRAYS.has(name),
  });
  try {
    return parser.parse(text, true) as Obj;
  } catch (error) {
    throw fail(`XML 无法解析（${error instanceof Error ? error.message : String(error)}）`);
  }
}

function dedupe(relationships: SpdxRelationship[]): SpdxRelationship[] {
  const seen = new Set<string>();
  return relationships.filter((r) => {
    const key = `${r.from}\u0000${r.type}\u0000${r.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Tag-value.

function parseTagValue(text: string): SpdxDocument {
  const doc: SpdxDocument = { spdxVersion: '', id: '', name: '', packages: [], files: [], relationships: [] };
  type Element = { kind: 'package'; pkg: SpdxPackage } | { kind: 'file'; file: SpdxFile; container: SpdxPackage | null } | { kind: 'other' } | null;
  let current: Element = null;
  const pendingContains: Array<{ container: SpdxPackage; file: SpdxFile }> = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw fail(`第 ${i + 1} 行不是“标签: 值”的格式`);
    const tag = line.slice(0, colon).trim();
    let value = line.slice(colon + 1).trim();
    if (value.startsWith('<text>')) {
      const start = i + 1;
      while (!value.includes('</text>')) {
        i++;
        if (i >= lines.length) throw fail(`第 ${start} 行的 <text> 没有对应的 </text>`);
        value += `\n${lines[i]}`;
      }
      value = value.slice(value.indexOf('<text>') + 6, value.lastIndexOf('</text>'));
    }
    switch (tag) {
      case 'SPDXVersion': doc.spdxVersion = value; break;
      case 'DocumentName': doc.name = value; break;
      case 'SPDXID':
        if (!current) doc.id = value;
        else if (current.kind === 'package') current.pkg.id = value;
        else if (current.kind === 'file') current.file.id = value;
        break;
      case 'PackageName': {
        const pkg: SpdxPackage = { id: '', name: value, version: '', purls: [], licenseDeclared: '', licenseConcluded: '' };
        doc.packages.push(pkg);
        current = { kind: 'package', pkg };
        break;
      }
      case 'FileName': {
        const file: SpdxFile = { id: '', name: value };
        doc.files.push(file);
        // Files that follow a package belong to it (SPDX 2.3 §5.2.2).
        const container = doc.packages.at(-1) ?? null;
        current = { kind: 'file', file, container };
        if (container) pendingContains.push({ container, file });
        break;
      }
      case 'SnippetSPDXID': case 'LicenseID': current = { kind: 'other' }; break;
      case 'PackageVersion': if (current?.kind === 'package') current.pkg.version = value; break;
      case 'PackageLicenseDeclared': if (current?.kind === 'package') current.pkg.licenseDeclared = value; break;
      case 'PackageLicenseConcluded': if (current?.kind === 'package') current.pkg.licenseConcluded = value; break;
      case 'PrimaryPackagePurpose': if (current?.kind === 'package') current.pkg.purpose = purposeOf(value); break;
      case 'ExternalRef': {
        const [category = '', type = '', locator = ''] = value.split(/\s+/);
        if (current?.kind === 'package' && type === 'purl' && category.replace(/_/g, '-').toUpperCase() === 'PACKAGE-MANAGER') current.pkg.purls.push(locator);
        break;
      }
      case 'Relationship': {
        const [from, type, to] = value.split(/\s+/);
        if (!from || !type || !to) throw fail(`第 ${i + 1} 行的 Relationship 应为“元素 类型 元素”`);
        doc.relationships.push({ from, type: type.toUpperCase(), to });
        break;
      }
      default:
        break;
    }
  }
  checkVersion(doc.spdxVersion);
  if (!doc.id) throw fail('缺少文档的 SPDXID');
  for (const pkg of doc.packages) if (!pkg.id) throw fail(`软件包 ${pkg.name} 缺少 SPDXID`);
  for (const { container, file } of pendingContains) if (file.id) doc.relationships.push({ from: container.id, type: 'CONTAINS', to: file.id });
  doc.relationships = dedupe(doc.relationships);
  return doc;
}

// ---------------------------------------------------------------------------------------------
// RDF/XML: elements are typed nodes (`spdx:Package rdf:about=...#SPDXRef-x`) nested anywhere;
// references are `rdf:resource`. Relationship types are `...#relationshipType_dynamicLink`.

type RdfNode = Obj;

function parseRdf(text: string): SpdxDocument {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    trimValues: true,
    htmlEntities: false,
    isArray: (_name, _jpath, isLeaf, isAttribute) => !isAttribute && !isLeaf,
  });
  let root: Obj;
  try {
    root = parser.parse(text, true) as Obj;
  } catch (error) {
    throw fail(`RDF/XML 无法解析（${error instanceof Error ? error.message : String(error)}）`);
  }
  const rdf = list(root['rdf:RDF'])[0];
  if (!isObj(rdf)) throw fail('缺少 rdf:RDF 根元素');
  const doc: SpdxDocument = { spdxVersion: '', id: '', name: '', packages: [], files: [], relationships: [] };
  const packages = new Map<string, SpdxPackage>();
  const files = new Map<string, SpdxFile>();

  const fragment = (uri: string): string => {
    const hash = uri.lastIndexOf('#');
    return hash >= 0 ? uri.slice(hash + 1) : uri;
  };
  const idOf = (node: RdfNode): string => fragment(str(node['@rdf:about']));
  const ref = (value: unknown): string => {
    for (const item of list(value)) {
      if (!isObj(item)) continue;
      if (item['@rdf:resource']) return fragment(str(item['@rdf:resource']));
      for (const [key, child] of Object.entries(item)) {
        if (key.startsWith('@') || key === '#text') continue;
        const node = list(child)[0];
        if (isObj(node)) return idOf(node);
      }
    }
    return '';
  };
  const leaf = (node: RdfNode, key: string): string => str(list(node[key])[0]);

  function licence(value: unknown): string {
    const item = list(value)[0];
    if (item === undefined) return '';
    if (!isObj(item)) return str(item);
    if (item['@rdf:resource']) return licenceUri(str(item['@rdf:resource']));
    for (const [key, child] of Object.entries(item)) {
      if (key.startsWith('@')) continue;
      const node = list(child)[0];
      if (isObj(node)) return licenceNode(key, node);
    }
    return '';
  }
  function licenceUri(uri: string): string {
    const id = fragment(uri.replace(/^http:\/\/spdx\.org\/licenses\//, '#'));
    if (id === 'noassertion') return 'NOASSERTION';
    if (id === 'none') return 'NONE';
    return id;
  }
  function licenceNode(kind: string, node: RdfNode): string {
    const local = kind.replace(/^\w+:/, '');
    if (local === 'ConjunctiveLicenseSet' || local === 'DisjunctiveLicenseSet') {
      const members = list(node['spdx:member']).map((m) => licence([m])).filter(Boolean);
      return `(${members.join(local === 'ConjunctiveLicenseSet' ? ' AND ' : ' OR ')})`;
    }
    if (local === 'WithExceptionOperator') {
      const exception = list(node['spdx:licenseException'])[0];
      const exceptionNode = isObj(exception) ? list(exception['spdx:LicenseException'])[0] : undefined;
      const exceptionId = isObj(exceptionNode) ? leaf(exceptionNode, 'spdx:licenseExceptionId') : '';
      return `${licence(node['spdx:member'])} WITH ${exceptionId}`;
    }
    if (local === 'OrLaterOperator') return `${licence(node['spdx:member'])}+`;
    const about = str(node['@rdf:about']);
    if (about) return licenceUri(about);
    return leaf(node, 'spdx:licenseId');
  }

  const pending: Array<{ from: string; node: RdfNode }> = [];
  const describes: string[] = [];

  function visit(kind: string, node: RdfNode): void {
    const local = kind.replace(/^\w+:/, '');
    const id = idOf(node);
    if (local === 'SpdxDocument') {
      doc.id = id;
      doc.spdxVersion = leaf(node, 'spdx:specVersion') || doc.spdxVersion;
      doc.name = leaf(node, 'spdx:name') || doc.name;
      for (const described of list(node['spdx:describesPackage'])) describes.push(ref([described]));
    } else if (local === 'Package' && id) {
      let pkg = packages.get(id);
      if (!pkg) packages.set(id, (pkg = { id, name: '', version: '', purls: [], licenseDeclared: '', licenseConcluded: '' }));
      pkg.name ||= leaf(node, 'spdx:name');
      pkg.version ||= leaf(node, 'spdx:versionInfo');
      if (node['spdx:licenseDeclared'] !== undefined) pkg.licenseDeclared ||= licence(node['spdx:licenseDeclared']);
      if (node['spdx:licenseConcluded'] !== undefined) pkg.licenseConcluded ||= licence(node['spdx:licenseConcluded']);
      // `…#purpose_operatingSystem`
      const purpose = list(node['spdx:primaryPackagePurpose'])[0];
      const purposeUri = isObj(purpose) ? str(purpose['@rdf:resource']) : '';
      if (purposeUri) pkg.purpose ||= purposeOf(fragment(purposeUri).replace(/^purpose_/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
      for (const holder of list(node['spdx:externalRef'])) {
        const ext = isObj(holder) ? list(holder['spdx:ExternalRef'])[0] : undefined;
        if (!isObj(ext)) continue;
        const category = fragment(str(isObj(list(ext['spdx:referenceCategory'])[0]) ? (list(ext['spdx:referenceCategory'])[0] as Obj)['@rdf:resource'] : ''));
        const type = str(isObj(list(ext['spdx:referenceType'])[0]) ? (list(ext['spdx:referenceType'])[0] as Obj)['@rdf:resource'] : '');
        if (/purl$/.test(type) && /packageManager|package_manager|PACKAGE[-_]MANAGER/i.test(category)) {
          const locator = leaf(ext, 'spdx:referenceLocator');
          if (locator && !pkg.purls.includes(locator)) pkg.purls.push(locator);
        }
      }
      for (const file of list(node['spdx:hasFile'])) {
        const target = ref([file]);
        if (target) doc.relationships.push({ from: id, type: 'CONTAINS', to: target });
      }
    } else if (local === 'File' && id) {
      if (!files.has(id)) files.set(id, { id, name: leaf(node, 'spdx:fileName') });
      else files.get(id)!.name ||= leaf(node, 'spdx:fileName');
    }
    if (id) for (const holder of list(node['spdx:relationship'])) if (isObj(holder)) pending.push({ from: id, node: holder });
    // Descend into every nested element: packages and files appear inside relationships.
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith('@') || key === '#text') continue;
      for (const item of list(child)) {
        if (!isObj(item)) continue;
        for (const [innerKey, inner] of Object.entries(item)) {
          if (innerKey.startsWith('@') || innerKey === '#text') continue;
          for (const grand of list(inner)) if (isObj(grand) && /^[A-Z]/.test(innerKey.replace(/^\w+:/, ''))) visit(innerKey, grand);
        }
      }
    }
  }

  for (const [key, child] of Object.entries(rdf)) {
    if (key.startsWith('@')) continue;
    for (const node of list(child)) if (isObj(node)) visit(key, node);
  }
  for (const { from, node } of pending) {
    const relationship = list(node['spdx:Relationship'])[0];
    if (!isObj(relationship)) continue;
    const typeNode = list(relationship['spdx:relationshipType'])[0];
    const typeUri = isObj(typeNode) ? str(typeNode['@rdf:resource']) : '';
    const type = fragment(typeUri).replace(/^relationshipType_/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
    const to = ref(relationship['spdx:relatedSpdxElement']);
    if (type && to) doc.relationships.push({ from, type, to: to === 'noassertion' ? 'NOASSERTION' : to === 'none' ? 'NONE' : to });
  }
  for (const described of describes) if (described) doc.relationships.push({ from: doc.id, type: 'DESCRIBES', to: described });
  checkVersion(doc.spdxVersion);
  if (!doc.id) throw fail('缺少 spdx:SpdxDocument');
  doc.packages = [...packages.values()];
  doc.files = [...files.values()];
  for (const pkg of doc.packages) if (!pkg.name) throw fail(`软件包 ${pkg.id} 缺少 spdx:name`);
  doc.relationships = dedupe(doc.relationships);
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Mapping onto the model.

/** Relationship types that are dependency edges, as [direction]: `forward` A -> B, `reverse` B -> A. */
const EDGE_TYPES: Record<string, 'forward' | 'reverse'> = {
  DEPENDS_ON: 'forward', CONTAINS: 'forward', DYNAMIC_LINK: 'forward', STATIC_LINK: 'forward', HAS_PREREQUISITE: 'forward',
  DEPENDENCY_OF: 'reverse', CONTAINED_BY: 'reverse', PREREQUISITE_FOR: 'reverse', DEV_DEPENDENCY_OF: 'reverse',
  BUILD_DEPENDENCY_OF: 'reverse', TEST_DEPENDENCY_OF: 'reverse', OPTIONAL_DEPENDENCY_OF: 'reverse',
  PROVIDED_DEPENDENCY_OF: 'reverse', RUNTIME_DEPENDENCY_OF: 'reverse', DEPENDENCY_MANIFEST_OF: 'reverse',
};
/** The subject of these is only needed to build, test or develop the other element. */
const DEVELOPMENT_TYPES = new Set(['DEV_DEPENDENCY_OF', 'BUILD_DEPENDENCY_OF', 'TEST_DEPENDENCY_OF', 'DEV_TOOL_OF', 'BUILD_TOOL_OF', 'TEST_TOOL_OF', 'TEST_OF']);

const meaningful = (licence: string): boolean => !!licence && licence !== 'NOASSERTION' && licence !== 'NONE';

function purlInfo(pkg: SpdxPackage): PurlInfo {
  for (const raw of pkg.purls) {
    const info = normalizePurl(raw);
    if (info) return info;
  }
  return derivedPurl(pkg.name, pkg.version);
}

/** `operating_system` / `OPERATING-SYSTEM` → `OPERATING-SYSTEM`. */
const purposeOf = (value: string): string => value.trim().replace(/_/g, '-').toUpperCase();

export function spdxToTarget(doc: SpdxDocument, file: string): Target {
  const table = new ComponentTable(file);
  const packageIds = new Set(doc.packages.map((p) => p.id));
  const describedIds = new Set(doc.relationships.filter((r) => r.type === 'DESCRIBES' && r.from === doc.id).map((r) => r.to));
  // A container image's operating system (purpose OPERATING_SYSTEM, as Cairn and syft write it) is
  // what its OS packages make up, not a package: not listed, and what it contains hangs from the
  // described package.
  const systems = new Set(doc.packages.filter((p) => p.purpose === 'OPERATING-SYSTEM' && !p.purls.length && !describedIds.has(p.id)).map((p) => p.id));
  const development = new Set<string>();
  const incoming = new Set<string>();
  const edges: Array<[string, string]> = [];
  const described: string[] = [];
  for (const r of doc.relationships) {
    if (r.type === 'DESCRIBES' && r.from === doc.id && packageIds.has(r.to)) described.push(r.to);
    if (r.type === 'DESCRIBED_BY' && r.to === doc.id && packageIds.has(r.from)) described.push(r.from);
    if (DEVELOPMENT_TYPES.has(r.type)) development.add(r.from);
    const direction = EDGE_TYPES[r.type];
    if (!direction || !packageIds.has(r.from) || !packageIds.has(r.to)) continue;
    const edge: [string, string] = direction === 'forward' ? [r.from, r.to] : [r.to, r.from];
    if (systems.has(edge[1])) continue;
    edges.push(edge);
    if (!systems.has(edge[0])) incoming.add(edge[1]);
  }
  const projectId = described.length === 1 ? described[0]! : null;
  for (const edge of edges) if (systems.has(edge[0]) && projectId) edge[0] = projectId;
  let project: PurlInfo | null = null;
  for (const pkg of doc.packages) {
    if (systems.has(pkg.id)) continue;
    const info = purlInfo(pkg);
    if (pkg.id === projectId) project = info;
    const licence = meaningful(pkg.licenseDeclared) ? pkg.licenseDeclared : meaningful(pkg.licenseConcluded) ? pkg.licenseConcluded : '';
    const scope: Scope = development.has(pkg.id) ? 'development' : 'runtime';
    const topLevel = described.length > 1 ? described.includes(pkg.id) : !incoming.has(pkg.id);
    table.add({ key: pkg.id, info, scope, licenses: licence ? [licence] : [], topLevel });
  }
  for (const [from, to] of edges) table.link(from, to);
  return table.toTarget('spdx', project, projectId ? [] : described);
}
