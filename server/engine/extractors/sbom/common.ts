// Shared by the CycloneDX and SPDX importers: text decoding, purl normalisation, the component
// table (one component per purl, edges by purl), licence strings.
import { PackageURL } from 'packageurl-js';
import type { Component, Ecosystem, Scope, Target } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const ECOSYSTEMS: ReadonlySet<string> = new Set<Ecosystem>([
  'npm', 'maven', 'pypi', 'golang', 'cargo', 'gem', 'composer', 'nuget', 'cocoapods',
  'swift', 'pub', 'hex', 'conan', 'conda', 'julia', 'terraform', 'githubactions', 'hackage', 'cran', 'cpan', 'luarocks', 'opam', 'nix', 'brew', 'pear', 'pecl', 'wordpress', 'bazel', 'deb', 'apk', 'rpm', 'alpm', 'generic',
]);

/** Decodes bytes by their BOM (UTF-8, UTF-16 LE/BE); without a BOM, UTF-16 is recognised by NUL bytes. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[3] === 0) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function ecosystemOfType(type: string): Ecosystem {
  const lower = type.toLowerCase();
  if (lower === 'go') return 'golang';
  if (lower === 'alpine') return 'apk';
  return ECOSYSTEMS.has(lower) ? (lower as Ecosystem) : 'generic';
}

export interface PurlInfo {
  purl: string;
  ecosystem: Ecosystem;
  /** The name as its ecosystem writes it. */
  name: string;
  version: string;
}

/** Ecosystems whose package name carries the purl namespace, and how they join it. */
const NAME_JOIN: Record<string, string> = { maven: ':', npm: '/', golang: '/', composer: '/', swift: '/', github: '/', gitlab: '/', bitbucket: '/', docker: '/', oci: '/', huggingface: '/', cran: '/', conan: '/' };

/** purl types whose namespace says what kind of package it is rather than being part of its name. */
const KIND_NAMESPACE: ReadonlySet<string> = new Set(['wordpress']);

/** Parses and re-serialises a purl (canonical form); null when it is not a valid purl. */
export function normalizePurl(raw: string): PurlInfo | null {
  let parsed: PackageURL;
  try {
    parsed = PackageURL.fromString(raw.trim());
  } catch {
    return null;
  }
  const join = NAME_JOIN[parsed.type];
  // A WordPress purl's namespace is the kind (plugin, theme, core); the slug alone is the name.
  const name = parsed.namespace && !KIND_NAMESPACE.has(parsed.type) ? (join ? `${parsed.namespace}${join}${parsed.name}` : `${parsed.namespace}/${parsed.name}`) : parsed.name;
  return { purl: parsed.toString(), ecosystem: ecosystemOfType(parsed.type), name, version: parsed.version ?? '' };
}

/**
 * A component without a (valid) purl is kept under a derived `pkg:generic/` purl built from its
 * group, name and version, so that it still takes part in the graph and licence checks.
 */
export function derivedPurl(name: string, version: string, group?: string): PurlInfo {
  const purl = purlOf('generic', { namespace: group || null, name: name || 'unknown', version: version || null });
  return { purl, ecosystem: 'generic', name: group ? `${group}/${name}` : name, version };
}

export interface ComponentInput {
  key: string;
  info: PurlInfo;
  scope: Scope;
  licenses: string[];
  topLevel: boolean;
}

/** Collects components keyed by document-local refs, merging duplicates of one purl. */
export class ComponentTable {
  readonly byPurl = new Map<string, Component>();
  readonly purlOfKey = new Map<string, string>();
  readonly topLevel = new Set<string>();
  private readonly edges = new Map<string, Set<string>>();
  private readonly file: string;

  constructor(file: string) {
    this.file = file;
  }

  add(input: ComponentInput): Component {
    const { info } = input;
    let component = this.byPurl.get(info.purl);
    if (!component) {
      component = {
        purl: info.purl, ecosystem: info.ecosystem, name: info.name, version: info.version,
        direct: false, scope: input.scope, locations: [{ file: this.file }], licenses: [], dependsOn: [],
      };
      this.byPurl.set(info.purl, component);
    } else if (input.scope === 'runtime') {
      component.scope = 'runtime';
    }
    for (const licence of input.licenses) if (!component.licenses.includes(licence)) component.licenses.push(licence);
    if (input.key && !this.purlOfKey.has(input.key)) this.purlOfKey.set(input.key, info.purl);
    // Some producers refer to components by purl instead of bom-ref.
    if (!this.purlOfKey.has(info.purl)) this.purlOfKey.set(info.purl, info.purl);
    if (input.topLevel) this.topLevel.add(info.purl);
    return component;
  }

  /** Records an edge between two document refs; unknown refs and self-edges are ignored. */
  link(fromKey: string, toKey: string): void {
    const from = this.purlOfKey.get(fromKey);
    const to = this.purlOfKey.get(toKey);
    if (!from || !to || from === to) return;
    let set = this.edges.get(from);
    if (!set) this.edges.set(from, (set = new Set()));
    set.add(to);
  }

  /**
   * Builds the target. Roots are the project's edges when the document names a project with
   * edges, else the given root refs; direct components are the roots, or without any, the
   * components the document lists at top level.
   */
  toTarget(type: string, project: PurlInfo | null, rootKeys: readonly string[] = []): Target {
    const projectEdges = project ? this.edges.get(project.purl) : undefined;
    const fromKeys = [...new Set(rootKeys.map((key) => this.purlOfKey.get(key)).filter((purl): purl is string => !!purl))];
    const roots = projectEdges && projectEdges.size ? [...projectEdges] : fromKeys;
    for (const [from, set] of this.edges) {
      const component = this.byPurl.get(from);
      if (component) component.dependsOn = [...set];
    }
    const direct = new Set(roots.length ? roots : this.topLevel);
    const components: Component[] = [];
    for (const component of this.byPurl.values()) {
      if (project && component.purl === project.purl) continue;
      component.direct = direct.has(component.purl);
      components.push(component);
    }
    const ecosystems = new Set(components.map((c) => c.ecosystem));
    const ecosystem: Ecosystem = ecosystems.size === 1 ? [...ecosystems][0]! : 'generic';
    return {
      file: this.file,
      type,
      ecosystem,
      project: project ? { purl: project.purl, name: project.name, version: project.version } : null,
      roots,
      components,
    };
  }
}

/** DTD entity declarations are never needed by SBOMs and enable entity-expansion attacks. */
export const hasEntityDeclarations = (xml: string): boolean => /<!ENTITY/i.test(xml);
export const ENTITY_REFUSAL = '出于安全原因，不接受声明了 DTD 实体（<!ENTITY>）的 XML 文档';
