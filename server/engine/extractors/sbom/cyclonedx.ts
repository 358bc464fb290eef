// CycloneDX 1.0–1.7 import (JSON 1.2+, XML 1.0+): the document is validated against the
// official schema of its version first and refused with the validator's reason when it does
// not conform; then components (nested ones flattened), licences, scopes and the dependency
// graph are mapped onto the engine's model.
import { XMLParser } from 'fast-xml-parser';
import type { Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { ComponentTable, derivedPurl, normalizePurl, type PurlInfo } from './common.ts';
import { validateCycloneDxJson, validateCycloneDxXml, type CycloneDxValidation } from './validate.ts';

/** The parts of a CycloneDX component we read, in the JSON shape (XML is converted to it). */
export interface CdxComponent {
  'bom-ref'?: string;
  type?: string;
  group?: string;
  name?: string;
  version?: string;
  purl?: string;
  scope?: string;
  licenses?: CdxLicense[];
  components?: CdxComponent[];
}
export type CdxLicense = { license?: { id?: string; name?: string }; expression?: string };
export interface CdxDependency { ref?: string; dependsOn?: string[] }
export interface CdxBom {
  specVersion?: string;
  metadata?: { component?: CdxComponent };
  components?: CdxComponent[];
  dependencies?: CdxDependency[];
}

function refused(validation: CycloneDxValidation): ExtractError {
  const [first = 'CycloneDX 文档不符合规范'] = validation.errors;
  const more = validation.errors.length > 1 ? `（另有 ${validation.errors.length - 1} 处问题）` : '';
  return new ExtractError(`${first}${more}`);
}

/** Imports a parsed CycloneDX JSON document (validated first). */
export async function importCycloneDxJson(doc: unknown, file: string): Promise<Target> {
  const validation = await validateCycloneDxJson(doc);
  if (!validation.valid) throw refused(validation);
  return cycloneDxBomToTarget(doc as CdxBom, file);
}

/** Imports CycloneDX XML text (validated against the XSD of its namespace version first). */
export async function importCycloneDxXml(text: string, file: string): Promise<Target> {
  const validation = await validateCycloneDxXml(text);
  if (!validation.valid) throw refused(validation);
  return cycloneDxBomToTarget(xmlToBom(text), file);
}

const ARRAY_PARENTS: Record<string, string> = { component: 'components', license: 'licenses', expression: 'licenses', dependency: '' };

function xmlParser(): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    htmlEntities: false,
    isArray: (name, jpath) => {
      if (!(name in ARRAY_PARENTS)) return false;
      const parent = ARRAY_PARENTS[name];
      if (!parent) return true;
      const path = String(jpath).split('.');
      return path[path.length - 2] === parent;
    },
  });
}

type XmlNode = Record<string, unknown>;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as XmlNode)['#text']);
  return undefined;
}

function nodes(value: unknown): XmlNode[] {
  if (Array.isArray(value)) return value.filter((v): v is XmlNode => !!v && typeof v === 'object');
  return value && typeof value === 'object' ? [value as XmlNode] : [];
}

function xmlComponent(node: XmlNode): CdxComponent {
  const licences: CdxLicense[] = [];
  for (const group of nodes(node.licenses)) {
    for (const licence of nodes(group.license)) licences.push({ license: { id: text(licence.id), name: text(licence.name) } });
    const expressions = Array.isArray(group.expression) ? group.expression : group.expression === undefined ? [] : [group.expression];
    for (const expression of expressions) {
      const value = text(expression);
      if (value) licences.push({ expression: value });
    }
  }
  const children = nodes(node.components).flatMap((list) => nodes(list.component)).map(xmlComponent);
  return {
    'bom-ref': text(node['@_bom-ref']),
    type: text(node['@_type']),
    group: text(node.group),
    name: text(node.name),
    version: text(node.version),
    purl: text(node.purl),
    scope: text(node.scope),
    licenses: licences,
    components: children,
  };
}

function xmlToBom(xml: string): CdxBom {
  const root = xmlParser().parse(xml) as XmlNode;
  const bom = nodes(root.bom)[0] ?? {};
  const metadata = nodes(bom.metadata)[0];
  const metaComponent = metadata ? nodes(metadata.component)[0] : undefined;
  const dependencies: CdxDependency[] = [];
  for (const list of nodes(bom.dependencies)) {
    for (const dependency of nodes(list.dependency)) {
      dependencies.push({ ref: text(dependency['@_ref']), dependsOn: nodes(dependency.dependency).map((d) => text(d['@_ref']) ?? '') });
    }
  }
  return {
    metadata: metaComponent ? { component: xmlComponent(metaComponent) } : undefined,
    components: nodes(bom.components).flatMap((list) => nodes(list.component)).map(xmlComponent),
    dependencies,
  };
}

/** `optional` and `excluded` components are not required at runtime: they count as development. */
function scopeOf(scope: string | undefined): Scope {
  return scope === 'optional' || scope === 'excluded' ? 'development' : 'runtime';
}

function licencesOf(component: CdxComponent): string[] {
  const out: string[] = [];
  for (const choice of component.licenses ?? []) {
    const value = choice.expression ?? choice.license?.id ?? choice.license?.name;
    if (value && value.trim()) out.push(value.trim());
  }
  return out;
}

function purlInfo(component: CdxComponent): PurlInfo {
  const version = component.version ?? '';
  const given = component.purl ? normalizePurl(component.purl) : null;
  return given ?? derivedPurl(component.name ?? '', version, component.group);
}

/** The target of a CycloneDX BOM in its JSON shape (other serialisations are converted to it). */
export function cycloneDxBomToTarget(bom: CdxBom, file: string, type = 'cyclonedx'): Target {
  const table = new ComponentTable(file);
  const meta = bom.metadata?.component;
  let project: PurlInfo | null = null;
  if (meta) {
    project = purlInfo(meta);
    table.add({ key: meta['bom-ref'] ?? '', info: project, scope: 'runtime', licenses: licencesOf(meta), topLevel: false });
    // Sub-components of the project are part of the inventory too.
    walk(meta.components ?? [], false);
  }
  // A container image's operating system (type operating-system, as Cairn, syft and trivy write
  // it) is what its OS packages make up, not a package: not listed, and what it depends on hangs
  // from the document's subject.
  const systems = new Set<string>();
  walk(bom.components ?? [], true);

  function walk(list: CdxComponent[], topLevel: boolean): void {
    // Iterative, so that deeply nested assemblies cannot overflow the stack.
    const stack: Array<{ component: CdxComponent; topLevel: boolean; parentScope: Scope | null }> = list
      .map((component) => ({ component, topLevel, parentScope: null as Scope | null }))
      .reverse();
    while (stack.length) {
      const { component, topLevel: top, parentScope } = stack.pop()!;
      const scope = component.scope ? scopeOf(component.scope) : (parentScope ?? 'runtime');
      if (component.type === 'operating-system' && !component.purl) {
        if (component['bom-ref']) systems.add(component['bom-ref']);
        const children = component.components ?? [];
        for (let i = children.length - 1; i >= 0; i--) stack.push({ component: children[i]!, topLevel: top, parentScope: scope });
        continue;
      }
      table.add({ key: component['bom-ref'] ?? '', info: purlInfo(component), scope, licenses: licencesOf(component), topLevel: top });
      const children = component.components ?? [];
      for (let i = children.length - 1; i >= 0; i--) stack.push({ component: children[i]!, topLevel: false, parentScope: scope });
    }
  }

  const subject = meta?.['bom-ref'];
  for (const dependency of bom.dependencies ?? []) {
    if (!dependency.ref) continue;
    const from = systems.has(dependency.ref) ? subject : dependency.ref;
    if (!from) continue;
    for (const child of dependency.dependsOn ?? []) if (!systems.has(child)) table.link(from, child);
  }
  return table.toTarget(type, project);
}
