// OCaml opam files as pkg:opam components (purl-spec's opam type; syft names them the same way).
// - `<name>.opam` / `opam` of a project: the project (`name:`, else the file or folder name, and
//   `version:`) and its `depends:` as direct components with their version constraints; a
//   dependency only for tests, documentation, building or a development setup (`with-test`,
//   `with-doc`, `build`, `with-dev-setup`, `dev`) is development scope.
// - `<name>.opam.locked` (`opam lock`, opam-monorepo): the whole resolved set, each pinned
//   `{= "version"}`; those the sibling `<name>.opam` declares are direct, and without it every one.
// - an installed package's file in a switch (`.opam-switch/packages/<name>.<version>/opam`): the
//   installed package itself, with its licence.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { dependencies, fieldString, fieldStrings, OpamSyntaxError, opamFields, type OpamDependency } from './opam-file.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
const DEV_FLAGS = new Set(['with-test', 'with-doc', 'build', 'with-dev-setup', 'dev']);
/** An installed package's opam file in a switch. */
const INSTALLED = /(?:^|\/)\.opam-switch\/packages\/([^/.][^/]*?)\.([^/]+)\/opam$/;

export const opamPurl = (name: string, version: string): string => purlOf('opam', { name, version });

function fieldsOf(source: string, file: string) {
  try {
    return opamFields(source);
  } catch (error) {
    if (error instanceof OpamSyntaxError) throw new ExtractError(`无法解析 ${file}：${error.message}`);
    throw error;
  }
}

function dependencyComponent(dep: OpamDependency, file: string, locked: boolean): Component {
  const exact = /^= (\S.*)$/.exec(dep.constraint);
  const version = exact && !exact[1]!.includes(' ') ? exact[1]! : '';
  const c: Component = {
    purl: opamPurl(dep.name, version), ecosystem: 'opam', name: dep.name, version, direct: !locked, scope: dep.flags.some((f) => DEV_FLAGS.has(f)) ? 'development' : 'runtime',
    locations: [{ file, startLine: dep.line, endLine: dep.line }], licenses: [], dependsOn: [],
  };
  if (!version && dep.constraint) c.constraint = dep.constraint;
  return c;
}

/** The project name an opam file stands for: `name:`, else `<name>.opam[.locked]`, else the folder of an `opam` file. */
function projectName(declared: string | undefined, file: string): string {
  if (declared) return declared;
  const base = baseName(file).replace(/\.locked$/, '');
  if (base !== 'opam') return base.replace(/\.opam$/, '');
  const dir = dirOf(file).replace(/\/$/, '');
  return baseName(dir);
}

export function parseOpam(source: string, file: string, declared?: ReadonlySet<string>): Target {
  const fields = fieldsOf(source, file);
  const installed = INSTALLED.exec(file);
  const locked = file.endsWith('.opam.locked');
  const name = projectName(fieldString(fields.get('name')), file);
  const version = fieldString(fields.get('version')) ?? installed?.[2] ?? '';
  const licenses = fieldStrings(fields.get('license'));
  const target: Target = { file, type: locked ? 'opam-locked' : 'opam', ecosystem: 'opam', project: null, roots: [], components: [] };
  if (installed) {
    const pkgName = fieldString(fields.get('name')) ?? installed[1]!;
    const purl = opamPurl(pkgName, version);
    target.components.push({
      purl, ecosystem: 'opam', name: pkgName, version, direct: true, scope: 'runtime',
      locations: [{ file, startLine: 1 }], licenses, dependsOn: [],
    });
    target.roots = [purl];
    return target;
  }
  target.project = name ? { purl: opamPurl(name, version), name, version } : null;
  const byPurl = new Map<string, Component>();
  for (const dep of dependencies(fields.get('depends'))) {
    if (dep.name === name) continue;
    const c = dependencyComponent(dep, file, locked);
    if (locked) c.direct = declared ? declared.has(c.name) : true;
    const existing = byPurl.get(c.purl);
    if (existing) { if (c.scope === 'runtime') existing.scope = 'runtime'; continue; }
    byPurl.set(c.purl, c);
  }
  target.components = [...byPurl.values()];
  target.roots = target.components.filter((c) => c.direct).map((c) => c.purl);
  return target;
}

/** The packages the project's own `<name>.opam` declares, for the direct flags of its lock. */
async function declaredOf(lockPath: string, ctx: ExtractContext): Promise<Set<string> | undefined> {
  const source = await ctx.readText(lockPath.replace(/\.locked$/, '')).catch(() => undefined);
  if (source === undefined) return undefined;
  try {
    return new Set(dependencies(opamFields(source).get('depends')).map((d) => d.name));
  } catch {
    return undefined;
  }
}

export const opamExtractor: Extractor = {
  name: 'opam',
  ecosystem: 'opam',
  reads: ['*.opam', '*.opam.locked', 'opam'],
  matches: (p) => {
    const base = baseName(p);
    return (base.endsWith('.opam') && base !== '.opam') || (base.endsWith('.opam.locked') && base !== '.opam.locked') || base === 'opam';
  },
  async extract(file: InputFile, ctx: ExtractContext) {
    if (baseName(file.path) === 'opam') {
      // An `opam` that is no opam file (the opam executable in an image, a script) is not read whole.
      const head = Buffer.from(file.readAt ? await file.readAt(0, 2048) : (await file.read()).subarray(0, 2048)).toString('utf8');
      if (!/^\s*(?:#.*\n\s*)*[a-z-]+\s*:/.test(head)) return [];
    }
    const text = await file.text();
    const declared = file.path.endsWith('.opam.locked') ? await declaredOf(file.path, ctx) : undefined;
    return [parseOpam(text, file.path, declared)];
  },
};
