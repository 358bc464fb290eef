// Haskell cabal-install's `cabal.project.freeze` (`cabal freeze`): the build plan pinned as a
// `constraints:` field, one comma-separated constraint per package — `any.aeson ==2.1.0.0` (any
// qualifier: the library everywhere in the plan), `aeson ==2.1.0.0` (older cabal), `any.base
// installed` (a GHC boot package taken from the compiler's database: no version written),
// `setup.Cabal ==…` / `pkg:setup.…` (what a Setup.hs is built with: build tooling) — and flag
// assignments (`tls +compat -hans`), which are no package. Fields follow the .cabal syntax: a
// field starts at the first column, indented lines continue it, `--` starts a comment.
// The freeze file is the whole plan and does not say which packages the project asked for; the
// sibling `*.cabal` files' `build-depends` do, and name the project. Without one, every package is
// reported as declared. No edges (the freeze records none). purl type hackage.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');

interface FieldPart { text: string; line: number }

/** The values of every field `name` in a .cabal-syntax file, split by commas, each with its line. */
export function cabalListField(text: string, name: string): FieldPart[] {
  const parts: FieldPart[] = [];
  const lines = text.split(/\r?\n/);
  const header = new RegExp(`^(\\s*)${name}\\s*:(.*)$`, 'i');
  for (let i = 0; i < lines.length; i++) {
    const m = header.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    const chunks: FieldPart[] = [{ text: m[2]!, line: i + 1 }];
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j]!;
      if (/^\s*--/.test(next) || next.trim() === '') continue;
      if ((/^\s*/.exec(next)![0].length) <= indent) break;
      chunks.push({ text: next, line: j + 1 });
      i = j;
    }
    for (const chunk of chunks) {
      // Commas inside braces belong to one item (`containers:{containers, foo}`).
      for (const piece of chunk.text.replace(/\s--.*$/, '').split(/,(?![^{]*\})/)) {
        const t = piece.trim();
        if (t) parts.push({ text: t, line: chunk.line });
      }
    }
  }
  return parts;
}

const CONSTRAINT = /^(?:(any|setup|[A-Za-z0-9][A-Za-z0-9-]*:(?:setup|exe))\.)?([A-Za-z0-9][A-Za-z0-9-]*)\s+(.+)$/;

export function parseCabalFreeze(text: string, file: string, declared?: ReadonlySet<string>): Target {
  const components = new Map<string, Component>();
  for (const { text: constraint, line } of cabalListField(text, 'constraints')) {
    const m = CONSTRAINT.exec(constraint);
    if (!m) continue;
    const [, qualifier, name, rest] = m as unknown as [string, string | undefined, string, string];
    const spec = rest.trim();
    if (/^[+-]/.test(spec)) continue; // flag assignments
    let version: string;
    const exact = /^==\s*([0-9][0-9.]*)$/.exec(spec);
    if (exact) version = exact[1]!;
    else if (spec === 'installed' || /^[<>=^]/.test(spec)) version = '';
    else continue;
    const scope = qualifier && qualifier !== 'any' ? 'development' : 'runtime';
    const purl = purlOf('hackage', { name, version });
    const existing = components.get(purl);
    if (existing) {
      if (scope === 'runtime') existing.scope = 'runtime';
      existing.locations.push({ file, startLine: line, endLine: line });
      continue;
    }
    components.set(purl, {
      purl, ecosystem: 'hackage', name, version, direct: declared ? declared.has(name.toLowerCase()) : true, scope,
      locations: [{ file, startLine: line, endLine: line }], licenses: [], dependsOn: [],
    });
  }
  const list = [...components.values()];
  return { file, type: 'cabal', ecosystem: 'hackage', project: null, roots: list.filter((c) => c.direct).map((c) => c.purl), components: list };
}

/** Package names a .cabal file's build-depends name, lower-cased. */
export function cabalBuildDepends(text: string): Set<string> {
  const names = new Set<string>();
  for (const { text: dep } of cabalListField(text, 'build-depends')) {
    const m = /^([A-Za-z0-9][A-Za-z0-9-]*)(?::[{A-Za-z0-9}, -]+)?/.exec(dep);
    if (m) names.add(m[1]!.toLowerCase());
  }
  return names;
}

/** The sibling .cabal files: the packages they depend on (their own names left out) and the first one's name and version. */
async function siblings(freezePath: string, ctx: ExtractContext): Promise<{ declared?: Set<string>; project: Target['project'] }> {
  const dir = dirOf(freezePath);
  const names = (await ctx.list(dir.replace(/\/$/, '')).catch(() => [] as string[])).filter((n) => n.endsWith('.cabal')).sort();
  if (!names.length) return { project: null };
  const declared = new Set<string>();
  const own = new Set<string>();
  let project: Target['project'] = null;
  for (const n of names) {
    const text = await ctx.readText(`${dir}${n}`).catch(() => undefined);
    if (!text) continue;
    for (const d of cabalBuildDepends(text)) declared.add(d);
    const name = /^name\s*:\s*(\S+)/im.exec(text)?.[1];
    const version = /^version\s*:\s*(\S+)/im.exec(text)?.[1] ?? '';
    if (name) {
      own.add(name.toLowerCase());
      project ??= { purl: purlOf('hackage', { name, version }), name, version };
    }
  }
  for (const o of own) declared.delete(o);
  return { declared: project ? declared : undefined, project };
}

export const cabalFreezeExtractor: Extractor = {
  name: 'cabal',
  ecosystem: 'hackage',
  reads: ['cabal.project.freeze'],
  matches: (p) => baseName(p) === 'cabal.project.freeze',
  async extract(file: InputFile, ctx: ExtractContext) {
    const { declared, project } = await siblings(file.path, ctx);
    const target = parseCabalFreeze(await file.text(), file.path, declared);
    target.project = project;
    return [target];
  },
};
