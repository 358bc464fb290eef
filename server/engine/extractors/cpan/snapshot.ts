// Perl Carton's `cpanfile.snapshot` ("# carton snapshot format: version 1.0"): under
// `DISTRIBUTIONS`, one entry per installed CPAN distribution (`  Try-Tiny-0.30`) with its
// `pathname` (`E/ET/ETHER/Try-Tiny-0.30.tar.gz`: the uploading author's CPAN id and the archive),
// the modules it `provides` and the modules it `requirements` (module name and minimum version).
// A component is a distribution: pkg:cpan/<AUTHOR>/<Distribution>@<version> as purl-spec's cpan
// type has it (author upper-case, distribution name, never a module name). Edges go from a
// distribution to the distributions providing the modules it requires; `perl` and modules of the
// Perl core (provided by no locked distribution) get none. The sibling `cpanfile` says which
// modules the project requires itself (`requires 'Plack';`), and in which phase (`on test =>
// sub { … }`: development); without one, the distributions no other one requires are the roots.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');

interface Dist {
  id: string;
  line: number;
  endLine: number;
  pathname?: string;
  provides: string[];
  requires: string[];
}

/** `Try-Tiny-0.30` (or the archive's name) → distribution name and version. */
export function splitDistribution(id: string): { name: string; version: string } {
  const m = /^(.+?)-(v?\d[\w.]*(?:-TRIAL)?)$/.exec(id);
  return m ? { name: m[1]!, version: m[2]! } : { name: id, version: '' };
}

function parseDists(text: string, file: string): Dist[] {
  const lines = text.split(/\r?\n/);
  const dists: Dist[] = [];
  let inDistributions = false;
  let current: Dist | undefined;
  let list: 'provides' | 'requires' | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!raw.trim() || raw.trimStart().startsWith('#')) continue;
    const indent = /^ */.exec(raw)![0].length;
    const body = raw.trim();
    if (indent === 0) {
      inDistributions = body === 'DISTRIBUTIONS';
      current = undefined;
      continue;
    }
    if (!inDistributions) continue;
    if (indent === 2) {
      current = { id: body, line: i + 1, endLine: i + 1, provides: [], requires: [] };
      dists.push(current);
      list = undefined;
      continue;
    }
    if (!current) throw new ExtractError(`${file} 第 ${i + 1} 行不属于任何发行包（缩进有误）`);
    current.endLine = i + 1;
    if (indent === 4) {
      const m = /^([\w-]+):\s*(.*)$/.exec(body);
      if (!m) throw new ExtractError(`${file} 第 ${i + 1} 行应为“字段: 值”`);
      list = m[1] === 'provides' ? 'provides' : m[1] === 'requirements' ? 'requires' : undefined;
      if (m[1] === 'pathname') current.pathname = m[2]!.trim();
      continue;
    }
    if (list) {
      const module = body.split(/\s+/)[0]!;
      (list === 'provides' ? current.provides : current.requires).push(module);
    }
  }
  return dists;
}

export interface CpanfileRequirements { runtime: Set<string>; development: Set<string> }

/** The modules a cpanfile requires (`requires`, `recommends`), by phase: runtime, or development for test / develop / build / configure. */
export function parseCpanfile(text: string): CpanfileRequirements {
  const result: CpanfileRequirements = { runtime: new Set(), development: new Set() };
  const source = text.replace(/#.*$/gm, '');
  const phases: Array<{ phase: string; depth: number }> = [];
  let depth = 0;
  const token = /\bon\s+['"]?(\w+)['"]?\s*=>\s*sub\s*\{|\{|\}|\b(?:requires|recommends|test_requires|build_requires|configure_requires|author_requires)\s*\(?\s*['"]([^'"]+)['"]/g;
  for (let m = token.exec(source); m; m = token.exec(source)) {
    const text0 = m[0];
    if (m[1]) { depth++; phases.push({ phase: m[1], depth }); continue; }
    if (text0 === '{') { depth++; continue; }
    if (text0 === '}') {
      if (phases.length && phases[phases.length - 1]!.depth === depth) phases.pop();
      depth = Math.max(0, depth - 1);
      continue;
    }
    const module = m[2]!;
    const keyword = text0.split(/[\s(]/)[0]!;
    const phase = phases[phases.length - 1]?.phase ?? 'runtime';
    const dev = phase !== 'runtime' || (keyword !== 'requires' && keyword !== 'recommends');
    (dev ? result.development : result.runtime).add(module);
  }
  return result;
}

export function parseCpanfileSnapshot(text: string, file: string, declared?: CpanfileRequirements): Target {
  const target: Target = { file, type: 'carton', ecosystem: 'cpan', project: null, roots: [], components: [] };
  const dists = parseDists(text, file);
  const providers = new Map<string, Dist>();
  for (const d of dists) for (const module of d.provides) if (!providers.has(module)) providers.set(module, d);
  const components = new Map<Dist, Component>();
  for (const d of dists) {
    const archive = d.pathname ? baseName(d.pathname).replace(/\.(tar\.gz|tgz|tar\.bz2|tbz|zip|tar)$/i, '') : '';
    const { name, version } = splitDistribution(archive || d.id);
    const author = d.pathname && /^[A-Z]\/[A-Z]{2}\/([A-Za-z0-9-]+)\//.exec(d.pathname)?.[1]?.toUpperCase();
    components.set(d, {
      purl: purlOf('cpan', { namespace: author || null, name, version }), ecosystem: 'cpan', name, version, direct: false, scope: 'runtime',
      locations: [{ file, startLine: d.line, endLine: d.endLine }], licenses: [], dependsOn: [],
    });
  }
  const required = new Set<Dist>();
  for (const d of dists) {
    const component = components.get(d)!;
    for (const module of d.requires) {
      const provider = providers.get(module);
      if (!provider || provider === d) continue;
      const purl = components.get(provider)!.purl;
      if (!component.dependsOn.includes(purl)) component.dependsOn.push(purl);
      required.add(provider);
    }
  }
  for (const d of dists) {
    const component = components.get(d)!;
    if (declared) {
      const runtime = d.provides.some((m) => declared.runtime.has(m));
      const development = d.provides.some((m) => declared.development.has(m));
      component.direct = runtime || development;
      if (development && !runtime) component.scope = 'development';
    } else component.direct = !required.has(d);
  }
  target.components = [...components.values()];
  target.roots = target.components.filter((c) => c.direct).map((c) => c.purl);
  return target;
}

export const cartonExtractor: Extractor = {
  name: 'carton',
  ecosystem: 'cpan',
  reads: ['cpanfile.snapshot'],
  matches: (p) => baseName(p) === 'cpanfile.snapshot',
  async extract(file: InputFile, ctx: ExtractContext) {
    const cpanfile = await ctx.readText(`${dirOf(file.path)}cpanfile`).catch(() => undefined);
    return [parseCpanfileSnapshot(await file.text(), file.path, cpanfile ? parseCpanfile(cpanfile) : undefined)];
  },
};
