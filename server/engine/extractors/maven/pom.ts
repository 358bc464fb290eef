// Maven pom.xml without the network: the effective model as far as the scanned tree allows.
// - parents: <relativePath> (default ../pom.xml), else by coordinates among the reactor poms
//   reachable from the root pom.xml and from every pom.xml above the file (<modules>);
// - properties: custom, inherited, ${project.*} / ${project.parent.*} / ${pom.*}, nested,
//   cycles left unexpanded; activeByDefault profiles;
// - dependencyManagement inherited from parents plus BOM imports (scope import, type pom)
//   when the BOM is one of the reactor poms;
// - parents and BOMs outside every reactor are looked up by coordinates over the whole tree
//   (one shallow, bounded walk per scan);
// - dependencies inherited from parents; a dependency on another reactor module brings that
//   module's compile/runtime dependencies as transitive components (nearest wins, and the
//   project's own dependencyManagement pins transitive versions, as Maven does).
// Scopes: compile, runtime, system -> runtime; test, provided -> development (provided jars are
// supplied by the container and not shipped with the product). Unresolvable versions are ''.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Location, Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';
import { childEl, childEls, childText, decodeXmlBytes, parseXml } from '../common/xml.ts';
import type { XmlElement } from '../common/xml.ts';

interface RawDep {
  groupId: string;
  artifactId: string;
  version: string;
  scope: string;
  type: string;
  classifier: string;
  optional: string;
  file: string;
  line: number;
  endLine: number;
}

interface Coords { groupId: string; artifactId: string; version: string }

interface RawPom {
  file: string;
  groupId: string;
  artifactId: string;
  version: string;
  parent?: Coords & { relativePath?: string };
  props: Map<string, string>;
  deps: RawDep[];
  managed: RawDep[];
  modules: string[];
  licenses: string[];
}

/** A pom with its parents folded in; strings still uninterpolated. */
interface Model {
  file: string;
  groupId: string;
  artifactId: string;
  version: string;
  parent?: Coords;
  props: Map<string, string>;
  deps: RawDep[];
  managed: RawDep[];
  licenses: string[];
}

interface Managed { version: string; scope: string }

const MAX_PARENT_DEPTH = 32;
const MAX_REACTOR = 20_000;

// ---- parsing ---------------------------------------------------------------------------

function readDep(el: XmlElement, file: string): RawDep {
  return {
    groupId: childText(el, 'groupId') ?? '',
    artifactId: childText(el, 'artifactId') ?? '',
    version: childText(el, 'version') ?? '',
    scope: childText(el, 'scope') ?? '',
    type: childText(el, 'type') ?? '',
    classifier: childText(el, 'classifier') ?? '',
    optional: childText(el, 'optional') ?? '',
    file,
    line: el.line,
    endLine: el.endLine,
  };
}

const depsOf = (el: XmlElement | undefined, file: string) => childEls(childEl(el, 'dependencies'), 'dependency').map((d) => readDep(d, file));

function parsePom(root: XmlElement, file: string): RawPom {
  if (root.name !== 'project') throw new ExtractError(`${file} 不是 Maven POM：根元素是 <${root.name}>，应为 <project>`);
  const props = new Map<string, string>();
  const readProps = (el: XmlElement | undefined) => { for (const p of childEl(el, 'properties')?.children ?? []) props.set(p.name, p.text.trim()); };
  readProps(root);
  const deps = depsOf(root, file);
  const managed = depsOf(childEl(root, 'dependencyManagement'), file);
  for (const profile of childEls(childEl(root, 'profiles'), 'profile')) {
    if (childText(childEl(profile, 'activation'), 'activeByDefault') !== 'true') continue;
    readProps(profile);
    deps.push(...depsOf(profile, file));
    managed.push(...depsOf(childEl(profile, 'dependencyManagement'), file));
  }
  const parentEl = childEl(root, 'parent');
  const relEl = childEl(parentEl, 'relativePath');
  return {
    file,
    groupId: childText(root, 'groupId') ?? '',
    artifactId: childText(root, 'artifactId') ?? '',
    version: childText(root, 'version') ?? '',
    parent: parentEl && {
      groupId: childText(parentEl, 'groupId') ?? '',
      artifactId: childText(parentEl, 'artifactId') ?? '',
      version: childText(parentEl, 'version') ?? '',
      relativePath: relEl ? relEl.text.trim() : undefined,
    },
    props,
    deps,
    managed,
    modules: childEls(childEl(root, 'modules'), 'module').map((m) => m.text.trim()).filter(Boolean),
    licenses: childEls(childEl(root, 'licenses'), 'license').map((l) => childText(l, 'name') ?? '').filter(Boolean),
  };
}

// ---- per-scan caches (keyed by the scan's context) ---------------------------------------

interface Cache {
  raw: Map<string, Promise<RawPom | undefined>>;
  reactor: Map<string, Promise<Map<string, string[]>>>;
  /** Finished results only (never pending promises, so parent/BOM cycles cannot deadlock). */
  models: Map<string, Model>;
  managed: Map<string, Map<string, Managed>>;
  tree?: Promise<Map<string, string[]>>;
}
const caches = new WeakMap<ExtractContext, Cache>();
function cacheOf(ctx: ExtractContext): Cache {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = { raw: new Map(), reactor: new Map(), models: new Map(), managed: new Map() }));
  return c;
}

/** Reads and parses another pom of the tree; a missing or broken one is simply unavailable. */
function loadRaw(ctx: ExtractContext, file: string): Promise<RawPom | undefined> {
  const cache = cacheOf(ctx).raw;
  let p = cache.get(file);
  if (!p) {
    p = ctx.readText(file).then((text) => (text === undefined ? undefined : parsePom(parseXml(text, file), file))).catch(() => undefined);
    cache.set(file, p);
  }
  return p;
}

/** Joins a root-relative directory and a relative path; undefined when it leaves the root. */
function joinRel(dir: string, rel: string): string | undefined {
  const joined = path.posix.normalize(path.posix.join(dir || '.', rel.replace(/\\/g, '/')));
  if (joined.startsWith('../') || joined === '..' || path.posix.isAbsolute(joined)) return undefined;
  return joined === '.' ? '' : joined;
}

const pomPathOf = (dir: string, rel: string) => {
  const p = joinRel(dir, rel);
  if (p === undefined) return undefined;
  return p.endsWith('.xml') || p.endsWith('.pom') ? p : p ? `${p}/pom.xml` : 'pom.xml';
};

/** g:a -> pom paths for the reactor whose top pom is `seed` (breadth first over <modules>). */
function reactorFrom(ctx: ExtractContext, seed: string): Promise<Map<string, string[]>> {
  const cache = cacheOf(ctx).reactor;
  let p = cache.get(seed);
  if (!p) {
    p = (async () => {
      const index = new Map<string, string[]>();
      const seen = new Set([seed]);
      let level = [seed];
      while (level.length && seen.size < MAX_REACTOR) {
        ctx.signal.throwIfAborted();
        const poms = await Promise.all(level.map((f) => loadRaw(ctx, f)));
        const next: string[] = [];
        for (const raw of poms) {
          if (!raw) continue;
          const ga = `${raw.groupId || raw.parent?.groupId || ''}:${raw.artifactId}`;
          index.set(ga, [...(index.get(ga) ?? []), raw.file]);
          for (const m of raw.modules) {
            const child = pomPathOf(path.posix.dirname(raw.file), m);
            if (child !== undefined && !seen.has(child)) { seen.add(child); next.push(child); }
          }
        }
        level = next;
      }
      return index;
    })();
    cache.set(seed, p);
  }
  return p;
}

const TREE_SKIP = new Set(['src', 'target', 'build', 'node_modules', 'bower_components', 'out', 'bin', 'obj']);
const TREE_MAX_DEPTH = 6;
const TREE_MAX_DIRS = 5000;

/**
 * Last resort for parents and BOMs outside every reactor above a pom: g:a -> pom paths over
 * the whole tree, walked once per scan, shallow (6 levels) and bounded (5,000 folders),
 * skipping hidden, source and build-output folders and names that look like files.
 */
function treeIndex(ctx: ExtractContext): Promise<Map<string, string[]>> {
  const cache = cacheOf(ctx);
  cache.tree ??= (async () => {
    const poms: string[] = [];
    let level = [''];
    let visited = 0;
    for (let depth = 0; depth <= TREE_MAX_DEPTH && level.length && visited < TREE_MAX_DIRS; depth++) {
      ctx.signal.throwIfAborted();
      const listed = await Promise.all(level.map(async (dir) => [dir, await ctx.list(dir)] as const));
      visited += level.length;
      const next: string[] = [];
      for (const [dir, names] of listed) {
        if (names.includes('pom.xml')) poms.push(dir ? `${dir}/pom.xml` : 'pom.xml');
        for (const name of names) {
          if (name.startsWith('.') || TREE_SKIP.has(name) || /\.[A-Za-z0-9]{1,5}$/.test(name)) continue;
          next.push(dir ? `${dir}/${name}` : name);
        }
      }
      level = next.slice(0, Math.max(0, TREE_MAX_DIRS - visited));
    }
    const index = new Map<string, string[]>();
    const raws = await Promise.all(poms.map((f) => loadRaw(ctx, f)));
    for (const raw of raws) {
      if (!raw) continue;
      const ga = `${raw.groupId || raw.parent?.groupId || ''}:${raw.artifactId}`;
      index.set(ga, [...(index.get(ga) ?? []), raw.file]);
    }
    return index;
  })();
  return cache.tree;
}

/** Finds a pom of the tree by coordinates: in the reactors above `from`, then anywhere. */
async function findByCoords(ctx: ExtractContext, from: string, c: Coords, anywhere = true): Promise<string | undefined> {
  const seeds: string[] = [];
  for (let dir = path.posix.dirname(from); ; dir = path.posix.dirname(dir)) {
    seeds.push(dir === '.' ? 'pom.xml' : `${dir}/pom.xml`);
    if (dir === '.' || dir === '/' || !dir) break;
  }
  let fallback: string | undefined;
  const indexes = seeds.map((seed) => () => reactorFrom(ctx, seed));
  if (anywhere) indexes.push(() => treeIndex(ctx));
  for (const index of indexes) {
    if (fallback) break;
    const hits = (await index()).get(`${c.groupId}:${c.artifactId}`) ?? [];
    for (const hit of hits) {
      const raw = await loadRaw(ctx, hit);
      if (!raw) continue;
      const version = raw.version || raw.parent?.version || '';
      if (!c.version || version === c.version || version.includes('${')) return hit;
      fallback ??= hit;
    }
  }
  return fallback;
}

async function findParent(ctx: ExtractContext, raw: RawPom): Promise<string | undefined> {
  const parent = raw.parent!;
  const dir = path.posix.dirname(raw.file);
  const rel = parent.relativePath ?? '../pom.xml';
  if (rel) {
    const candidate = pomPathOf(dir === '.' ? '' : dir, rel);
    if (candidate !== undefined && candidate !== raw.file) {
      const p = await loadRaw(ctx, candidate);
      if (p && p.artifactId === parent.artifactId && (p.groupId || p.parent?.groupId) === parent.groupId) return candidate;
    }
  }
  const found = await findByCoords(ctx, raw.file, parent);
  return found === raw.file ? undefined : found;
}

// ---- effective model -------------------------------------------------------------------

const depKey = (d: RawDep) => `${d.groupId}:${d.artifactId}:${d.type || 'jar'}:${d.classifier}`;

function mergeDeps(inherited: RawDep[], own: RawDep[]): RawDep[] {
  if (!inherited.length) return own;
  const ownKeys = new Set(own.map(depKey));
  return [...inherited.filter((d) => !ownKeys.has(depKey(d))), ...own];
}

async function resolveModel(ctx: ExtractContext, raw: RawPom, stack: Set<string>): Promise<Model> {
  const cache = cacheOf(ctx).models;
  const done = cache.get(raw.file);
  if (done) return done;
  const model = await computeModel(ctx, raw, stack);
  cache.set(raw.file, model);
  return model;
}

async function computeModel(ctx: ExtractContext, raw: RawPom, stack: Set<string>): Promise<Model> {
  let parent: Model | undefined;
  if (raw.parent && stack.size < MAX_PARENT_DEPTH) {
    const parentFile = await findParent(ctx, raw);
    if (parentFile && !stack.has(parentFile)) {
      const parentRaw = await loadRaw(ctx, parentFile);
      if (parentRaw) parent = await resolveModel(ctx, parentRaw, new Set([...stack, raw.file]));
    }
  }
  const props = new Map(parent?.props);
  for (const [k, v] of raw.props) props.set(k, v);
  return {
    file: raw.file,
    groupId: raw.groupId || raw.parent?.groupId || '',
    artifactId: raw.artifactId,
    version: raw.version || raw.parent?.version || '',
    parent: raw.parent,
    props,
    deps: mergeDeps(parent?.deps ?? [], raw.deps),
    managed: mergeDeps(parent?.managed ?? [], raw.managed),
    licenses: raw.licenses.length ? raw.licenses : (parent?.licenses ?? []),
  };
}

/** ${...} interpolation over a model; unknown or cyclic references stay as written. */
function interpolator(model: Model): (value: string) => string {
  const builtin = (key: string): string | undefined => {
    const k = key.replace(/^(project|pom)\./, '');
    if (k === key && !['groupId', 'artifactId', 'version'].includes(key)) return undefined;
    switch (k) {
      case 'groupId': return model.groupId;
      case 'artifactId': return model.artifactId;
      case 'version': return model.version;
      case 'parent.groupId': return model.parent?.groupId;
      case 'parent.artifactId': return model.parent?.artifactId;
      case 'parent.version': return model.parent?.version;
      case 'basedir': return path.posix.dirname(model.file);
      default: return undefined;
    }
  };
  // `budget` bounds the work of one expansion (a=${b}${b}, b=${c}${c}, ... would be exponential).
  let budget = 0;
  const expand = (value: string, seen: Set<string>): string => {
    if (!value.includes('${')) return value;
    return value.replace(/\$\{([^${}]+)\}/g, (whole, key: string) => {
      if (seen.has(key) || seen.size > 32 || --budget < 0) return whole;
      const found = model.props.get(key) ?? builtin(key);
      if (found === undefined) return whole;
      seen.add(key);
      const out = expand(found, seen);
      seen.delete(key);
      return out;
    });
  };
  return (value) => {
    budget = 2000;
    return expand(value, new Set());
  };
}

async function managedOf(ctx: ExtractContext, model: Model, stack: Set<string>): Promise<Map<string, Managed>> {
  const cache = cacheOf(ctx).managed;
  const done = cache.get(model.file);
  if (done) return done;
  const out = await computeManaged(ctx, model, stack);
  cache.set(model.file, out);
  return out;
}

async function computeManaged(ctx: ExtractContext, model: Model, stack: Set<string>): Promise<Map<string, Managed>> {
  const interp = interpolator(model);
  const out = new Map<string, Managed>();
  const imports: Coords[] = [];
  for (const d of model.managed) {
    const g = interp(d.groupId);
    const a = interp(d.artifactId);
    const scope = interp(d.scope);
    if (scope === 'import') {
      if ((interp(d.type) || 'jar') === 'pom') imports.push({ groupId: g, artifactId: a, version: interp(d.version) });
      continue;
    }
    out.set(`${g}:${a}`, { version: interp(d.version), scope });
  }
  for (const bom of imports) {
    if (stack.size >= MAX_PARENT_DEPTH) break;
    const bomFile = await findByCoords(ctx, model.file, bom);
    if (!bomFile || stack.has(bomFile)) continue;
    const bomRaw = await loadRaw(ctx, bomFile);
    if (!bomRaw) continue;
    const next = new Set([...stack, bomFile]);
    const bomManaged = await managedOf(ctx, await resolveModel(ctx, bomRaw, next), next);
    for (const [k, v] of bomManaged) if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/** Maven versions: soft requirements are exact; `[1.0]` pins; other ranges and unresolved are ''. */
export function exactMavenVersion(v: string): string {
  const s = v.trim();
  if (!s || s.includes('${')) return '';
  if (/^[[(]/.test(s)) {
    const pinned = /^\[\s*([^,[\]()]+?)\s*\]$/.exec(s);
    return pinned ? pinned[1]! : '';
  }
  return /[,[\]()]/.test(s) ? '' : s;
}

const mavenScope = (scope: string): Scope => (scope === 'test' || scope === 'provided' ? 'development' : 'runtime');

const SPDX_BY_NAME: Array<[RegExp, string]> = [
  [/apache.*2/i, 'Apache-2.0'],
  [/^mit( license)?$/i, 'MIT'],
  [/eclipse public license.*2/i, 'EPL-2.0'],
  [/eclipse public license.*1/i, 'EPL-1.0'],
  [/^(new |revised )?bsd.*3|bsd-3/i, 'BSD-3-Clause'],
  [/bsd.*2|bsd-2/i, 'BSD-2-Clause'],
  [/lesser general public license.*2\.1|lgpl.*2\.1/i, 'LGPL-2.1-only'],
  [/mozilla public license.*2/i, 'MPL-2.0'],
];
function licenseId(name: string): string {
  for (const [re, id] of SPDX_BY_NAME) if (re.test(name)) return id;
  return name;
}

// ---- extraction ------------------------------------------------------------------------

interface Resolved {
  groupId: string; artifactId: string; version: string; scope: string; optional: boolean; location: Location;
  /** The declared range (`[1.0,2.0)`) when it pins no version. */
  constraint?: string;
}

function resolveDeps(model: Model, managed: Map<string, Managed>): Resolved[] {
  const interp = interpolator(model);
  const out: Resolved[] = [];
  for (const d of model.deps) {
    const groupId = interp(d.groupId);
    const artifactId = interp(d.artifactId);
    if (!groupId || !artifactId) continue;
    const m = managed.get(`${groupId}:${artifactId}`);
    const scope = interp(d.scope) || m?.scope || 'compile';
    if (scope === 'import') continue;
    const declared = (interp(d.version) || (m ? m.version : '')).trim();
    const version = exactMavenVersion(declared);
    out.push({
      groupId,
      artifactId,
      version,
      ...(!version && declared && !declared.includes('${') ? { constraint: declared } : {}),
      scope,
      optional: interp(d.optional) === 'true',
      location: { file: d.file, startLine: d.line, endLine: d.endLine },
    });
  }
  return out;
}

async function extractPom(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const cache = cacheOf(ctx).raw;
  let raw = await cache.get(file.path);
  if (!raw) {
    raw = parsePom(parseXml(decodeXmlBytes(await file.read()), file.path), file.path);
    cache.set(file.path, Promise.resolve(raw));
  }
  const model = await resolveModel(ctx, raw, new Set([raw.file]));
  const interp = interpolator(model);
  const rootManaged = await managedOf(ctx, model, new Set([raw.file]));
  const direct = resolveDeps(model, rootManaged);

  const components = new Map<string, Component>();
  const chosen = new Map<string, string>(); // g:a -> purl (nearest wins)
  const add = (r: Resolved, isDirect: boolean, scope: Scope, licenses: string[]): string => {
    const ga = `${r.groupId}:${r.artifactId}`;
    const purl = mavenPurl(r.groupId, r.artifactId, r.version);
    const existing = components.get(purl);
    if (existing) {
      existing.direct ||= isDirect;
      if (scope === 'runtime') existing.scope = 'runtime';
      if (!existing.locations.some((l) => l.file === r.location.file && l.startLine === r.location.startLine)) existing.locations.push(r.location);
    } else {
      components.set(purl, {
        purl, ecosystem: 'maven', name: ga, version: r.version, direct: isDirect, scope, locations: [r.location], licenses, dependsOn: [],
        ...(r.constraint ? { constraint: r.constraint } : {}),
      });
    }
    if (!chosen.has(ga)) chosen.set(ga, purl);
    return purl;
  };

  const roots: string[] = [];
  interface Pending { dep: Resolved; scope: Scope; purl: string; depth: number }
  let queue: Pending[] = [];
  for (const d of direct) {
    const purl = add(d, true, mavenScope(d.scope), []);
    if (!roots.includes(purl)) roots.push(purl);
    queue.push({ dep: d, scope: mavenScope(d.scope), purl, depth: 1 });
  }
  // Reactor modules: expand their dependencies breadth first (nearest wins).
  const expanded = new Set<string>();
  while (queue.length) {
    ctx.signal.throwIfAborted();
    const next: Pending[] = [];
    for (const item of queue) {
      if (expanded.has(item.purl) || item.depth > 50) continue;
      expanded.add(item.purl);
      const moduleFile = await findByCoords(ctx, raw.file, item.dep, false);
      if (!moduleFile || moduleFile === raw.file) continue;
      const moduleRaw = await loadRaw(ctx, moduleFile);
      if (!moduleRaw) continue;
      const moduleModel = await resolveModel(ctx, moduleRaw, new Set([moduleFile]));
      const moduleInterp = interpolator(moduleModel);
      if (moduleInterp(moduleModel.artifactId) !== item.dep.artifactId) continue;
      const moduleVersion = moduleInterp(moduleModel.version);
      if (item.dep.version && moduleVersion !== item.dep.version) continue;
      const component = components.get(item.purl)!;
      if (!component.licenses.length) component.licenses = moduleModel.licenses.map(licenseId);
      const moduleManaged = await managedOf(ctx, moduleModel, new Set([moduleFile]));
      for (const child of resolveDeps(moduleModel, moduleManaged)) {
        if (child.optional || !['compile', 'runtime', 'system'].includes(child.scope)) continue;
        const ga = `${child.groupId}:${child.artifactId}`;
        let purl = chosen.get(ga);
        if (!purl) {
          const pin = rootManaged.get(ga);
          const version = pin && exactMavenVersion(pin.version) ? exactMavenVersion(pin.version) : child.version;
          const scope: Scope = item.scope === 'development' ? 'development' : mavenScope(child.scope);
          purl = add({ ...child, version }, false, scope, []);
          next.push({ dep: { ...child, version }, scope, purl, depth: item.depth + 1 });
        } else if (item.scope === 'runtime') {
          const c = components.get(purl);
          if (c) c.scope = 'runtime';
        }
        if (purl !== item.purl && !component.dependsOn.includes(purl)) component.dependsOn.push(purl);
      }
    }
    queue = next;
  }

  const groupId = interp(model.groupId);
  const artifactId = interp(model.artifactId);
  const version = exactMavenVersion(interp(model.version));
  const project = artifactId && groupId && !artifactId.includes('${') && !groupId.includes('${')
    ? { purl: mavenPurl(groupId, artifactId, version), name: `${groupId}:${artifactId}`, version }
    : null;
  return [{ file: file.path, type: 'pom', ecosystem: 'maven', project, roots, components: [...components.values()] }];
}

/**
 * The pom Maven packs into every jar it builds (`lib.jar!/META-INF/maven/<g>/<a>/pom.xml` once the
 * upload's unpacker has opened the jar) describes how that jar was built, not the product: the jar
 * extractor identifies the jar from the pom.properties beside it, and what the jar ships inside
 * it is read from the nested jars themselves.
 */
const PACKAGED_POM = /!\/(?:.*\/)?META-INF\/maven\/[^/]+\/[^/]+\/pom\.xml$/;

export const pomExtractor: Extractor = {
  name: 'pom',
  ecosystem: 'maven',
  reads: ['pom.xml'],
  matches: (p) => (p === 'pom.xml' || p.endsWith('/pom.xml')) && !PACKAGED_POM.test(p),
  extract: extractPom,
};
