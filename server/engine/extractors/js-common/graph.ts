// Shared assembly for the JavaScript lockfile extractors: lockfile entries become nodes (keyed by
// whatever identifies an entry in that format), nodes with the same purl merge into one component,
// and scope comes either from the lockfile's own dev flags or from reachability: whatever the
// runtime declarations reach is runtime, the rest is development.
import type { Component, ExtractContext, Location, Target } from '../../model.ts';
import { npmPurl } from '../../purl.ts';
import { licensesOf } from './manifest.ts';
import { licenceFromFiles } from './licence-file.ts';
import { dirOf, mapLimit } from './paths.ts';

export interface JsNode {
  id: string;
  name: string;
  version: string;
  purl: string;
  location?: Location;
  licenses: string[];
  /** Node ids this entry depends on (resolved by the extractor). */
  deps: string[];
  /** The lockfile's own dev flag, when the format records one. */
  dev?: boolean;
  /** Where the installed copy's package.json would be, to read its licence when absent here. */
  installedManifest?: string;
  /** The installed copy's licence files its licence was read from (its package.json declaring none). */
  licenseFiles?: string[];
}

export interface Assembly {
  file: string;
  type: string;
  project: { name: string; version: string } | null;
  /** Node ids the project declares as runtime dependencies (dependencies, optional, peer). */
  runtimeRoots: Iterable<string>;
  /** Node ids the project declares only as development dependencies. */
  devRoots: Iterable<string>;
  /** Use each node's `dev` flag instead of reachability. */
  explicitDev: boolean;
}

export function newNode(id: string, name: string, version: string, location?: Location): JsNode {
  return { id, name, version, purl: npmPurl(name, version), location, licenses: [], deps: [] };
}

/**
 * Fills in missing licences from installed package.json files (when node_modules was shipped),
 * and for an installed package whose package.json declares none, from its licence file
 * (licence-file.ts), which then becomes one of the component's locations.
 */
export async function readInstalledLicenses(nodes: Iterable<JsNode>, ctx: ExtractContext): Promise<void> {
  const wanted = [...nodes].filter((n) => !n.licenses.length && n.installedManifest);
  if (!wanted.length) return;
  // One probe first: most uploads carry no node_modules at all.
  const first = wanted[0].installedManifest!;
  const top = first.slice(0, first.indexOf('node_modules') + 'node_modules'.length);
  if (!(await ctx.exists(top))) return;
  await mapLimit(wanted, 32, async (n) => {
    ctx.signal.throwIfAborted();
    try {
      const text = await ctx.readText(n.installedManifest!);
      if (text === undefined) return;
      const pkg = JSON.parse(text) as unknown;
      if (typeof pkg !== 'object' || !pkg || Array.isArray(pkg)) return;
      const p = pkg as Record<string, unknown>;
      // A guessed (hoisted) location may hold another version of the package: not ours then.
      if (typeof p.version === 'string' && p.version !== n.version) return;
      n.licenses = licensesOf(p);
      if (n.licenses.length) return;
      const found = await licenceFromFiles(dirOf(n.installedManifest!), ctx);
      if (found) {
        n.licenses = found.licenses;
        n.licenseFiles = found.files;
      }
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      // An unreadable installed manifest only costs the licence.
    }
  });
}

function reach(nodes: Map<string, JsNode>, starts: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack: string[] = [];
  for (const s of starts) if (nodes.has(s) && !seen.has(s)) { seen.add(s); stack.push(s); }
  while (stack.length) {
    const n = nodes.get(stack.pop()!)!;
    for (const d of n.deps) if (nodes.has(d) && !seen.has(d)) { seen.add(d); stack.push(d); }
  }
  return seen;
}

/** `into` and the items of `more` it lacks, each once: `into` itself when none is new, else a new array of the exact size. */
function union(into: string[], more: readonly string[]): string[] {
  let added: string[] | undefined;
  for (const x of more) if (!into.includes(x) && !added?.includes(x)) (added ??= []).push(x);
  return added ? into.concat(added) : into;
}

/** Where a component is declared first (sorted); the licence files its licence was read from after. */
function locationsOf(locs: Location[], licenceFiles: string[]): Location[] {
  if (locs.length > 1) locs.sort((x, y) => x.file.localeCompare(y.file) || (x.startLine ?? 0) - (y.startLine ?? 0));
  if (!licenceFiles.length) return locs;
  return [...locs, ...licenceFiles.sort().filter((file) => !locs.some((l) => l.file === file)).map((file) => ({ file }))];
}

export function assemble(nodes: Map<string, JsNode>, a: Assembly): Target {
  const runtimeRoots = [...a.runtimeRoots].filter((id) => nodes.has(id));
  const devRoots = [...a.devRoots].filter((id) => nodes.has(id));
  const direct = new Set([...runtimeRoots, ...devRoots]);
  let isDev: (n: JsNode) => boolean;
  if (a.explicitDev) {
    isDev = (n) => n.dev === true;
  } else if (runtimeRoots.length || devRoots.length) {
    const runtime = reach(nodes, runtimeRoots);
    isDev = (n) => !runtime.has(n.id);
  } else {
    isDev = () => false;
  }

  // Plain arrays of the exact size, checked with includes and grown by concat: a component has a
  // handful of each, and a Set apiece (or an array grown by push, which reserves 17 slots) is most
  // of the memory of assembling a 40,000-component lockfile.
  interface Acc { first: JsNode; direct: boolean; runtime: boolean; locs: Location[]; licenceFiles: string[]; licenses: string[]; deps: string[] }
  const byPurl = new Map<string, Acc>();
  for (const n of nodes.values()) {
    let c = byPurl.get(n.purl);
    if (!c) {
      c = { first: n, direct: false, runtime: false, locs: [], licenceFiles: [], licenses: [], deps: [] };
      byPurl.set(n.purl, c);
    }
    if (!c.direct && direct.has(n.id)) c.direct = true;
    if (!c.runtime && !isDev(n)) c.runtime = true;
    if (n.location && !c.locs.some((l) => l.file === n.location!.file && l.startLine === n.location!.startLine)) c.locs = c.locs.concat(n.location);
    if (n.licenseFiles) c.licenceFiles = union(c.licenceFiles, n.licenseFiles);
    c.licenses = union(c.licenses, n.licenses);
    let added: string[] | undefined;
    for (const d of n.deps) {
      const child = nodes.get(d);
      if (child !== undefined && child.purl !== n.purl && !c.deps.includes(child.purl) && !added?.includes(child.purl)) (added ??= []).push(child.purl);
    }
    if (added) c.deps = c.deps.concat(added);
  }
  const components: Component[] = [];
  for (const [purl, c] of byPurl) {
    components.push({
      purl, ecosystem: 'npm', name: c.first.name, version: c.first.version, direct: c.direct,
      scope: c.runtime ? 'runtime' : 'development',
      locations: locationsOf(c.locs, c.licenceFiles),
      licenses: c.licenses,
      dependsOn: c.deps.length > 1 ? c.deps.sort() : c.deps,
    });
  }
  components.sort((x, y) => (x.purl < y.purl ? -1 : x.purl > y.purl ? 1 : 0));
  // Runtime declarations first, then development-only ones (their components say which is which).
  const roots = [...new Set([...runtimeRoots, ...devRoots].map((id) => nodes.get(id)!.purl))];
  const project = a.project && a.project.name
    ? { name: a.project.name, version: a.project.version, purl: npmPurl(a.project.name, a.project.version) }
    : null;
  return { file: a.file, type: a.type, ecosystem: 'npm', project, roots, components };
}
