// Conan manifests, read when no conan.lock beside them names the resolved graph.
//   conanfile.txt: INI sections `[requires]` (runtime) and `[tool_requires]` / `[build_requires]`
//   / `[test_requires]` (development), one reference per line, `#` comments.
//   conanfile.py: read as text, never executed: the class attributes `requires`, `tool_requires`,
//   `build_requires`, `test_requires`, `python_requires` (a string, or a tuple / list of strings)
//   and the calls `self.requires("...")` (development when given `build=True`),
//   `self.tool_requires(...)`, `self.build_requires(...)`, `self.test_requires(...)`.
// A reference `name/version@user/channel#rev` pins its version; a range `name/[>1.0 <2]` leaves the
// version unknown and keeps the range (without its brackets) as the constraint. A reference built
// at run time (`f"fmt/{self._fmt}"`, `"zlib/1.3@%s/stable" % self.user`) keeps what is literal:
// the name, and the version when it is written out.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Scope, Target } from '../../model.ts';
import { expressionAt, lineAt, literals, withoutComments } from '../common/python-source.ts';
import { conanPurl } from './conan-lock.ts';

interface Declared { text: string; scope: Scope; line: number }

const LITERAL_NAME = /^[a-z0-9_][a-z0-9_+.-]*$/i;
const IDENT = /^[a-z0-9_][a-z0-9_.+-]*$/i;

/** One declared reference as a component; undefined when its name is not written out. */
export function declaredComponent(ref: string, scope: Scope, file: string, line: number): Component | undefined {
  const text = ref.trim().split('#')[0]!.split('%')[0]!.trim();
  const at = text.indexOf('@');
  const nameVersion = at < 0 ? text : text.slice(0, at);
  const slash = nameVersion.indexOf('/');
  if (slash <= 0) return undefined;
  const name = nameVersion.slice(0, slash).trim();
  const spec = nameVersion.slice(slash + 1).trim();
  if (!LITERAL_NAME.test(name)) return undefined;
  const range = /^\[(.*)\]$/.exec(spec);
  const version = !range && IDENT.test(spec) ? spec : '';
  const constraint = range ? range[1]!.trim() : undefined;
  const [user, channel] = at < 0 ? [] : text.slice(at + 1).split('/').map((s) => s.trim());
  const userOk = user && user !== '_' && IDENT.test(user);
  const channelOk = channel && channel !== '_' && IDENT.test(channel);
  const purl = conanPurl({ name, version, user: userOk && channelOk ? user : undefined, channel: userOk && channelOk ? channel : undefined });
  return {
    purl, ecosystem: 'conan', name, version, ...(constraint ? { constraint } : {}), direct: true, scope,
    locations: [{ file, startLine: line, endLine: line }], licenses: [], dependsOn: [],
  };
}

const TXT_SECTIONS: Record<string, Scope> = { requires: 'runtime', tool_requires: 'development', build_requires: 'development', test_requires: 'development' };

export function parseConanfileTxt(text: string): Declared[] {
  const out: Declared[] = [];
  let scope: Scope | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) return;
    const section = /^\[([^\]]+)\]$/.exec(line);
    if (section) { scope = TXT_SECTIONS[section[1]!.trim()]; return; }
    if (scope) out.push({ text: line, scope, line: i + 1 });
  });
  return out;
}

const PY_ATTRIBUTES: Record<string, Scope> = { requires: 'runtime', tool_requires: 'development', build_requires: 'development', test_requires: 'development', python_requires: 'development' };

export function parseConanfilePy(source: string): { declared: Declared[]; name?: string; version?: string } {
  const text = withoutComments(source);
  const declared: Declared[] = [];
  // Class attributes: indented `requires = ...` (not `self.requires`).
  const attr = /^[ \t]+(requires|tool_requires|build_requires|test_requires|python_requires)[ \t]*=(?!=)/gm;
  for (let m = attr.exec(text); m; m = attr.exec(text)) {
    const start = m.index + m[0].length;
    const expr = expressionAt(text, start);
    for (const l of literals(expr)) declared.push({ text: l.value, scope: PY_ATTRIBUTES[m[1]!]!, line: lineAt(text, start + l.offset) });
  }
  const call = /\bself\.(requires|tool_requires|build_requires|test_requires)\s*\(/g;
  for (let m = call.exec(text); m; m = call.exec(text)) {
    const start = m.index + m[0].length - 1; // at the opening parenthesis
    const args = expressionAt(text, start);
    const first = literals(args)[0];
    if (!first || args.slice(1, first.offset).trim()) continue; // the reference is not a literal
    const build = m[1] === 'requires' && /\bbuild\s*=\s*True\b/.test(args);
    declared.push({ text: first.value, scope: m[1] === 'requires' && !build ? 'runtime' : 'development', line: lineAt(text, start + first.offset) });
  }
  const classAttr = (key: string) => new RegExp(`^[ \\t]+${key}[ \\t]*=[ \\t]*["']([^"'\\n]+)["']`, 'm').exec(text)?.[1];
  return { declared, name: classAttr('name'), version: classAttr('version') };
}

/** Python f-strings and %-formatting leave `{...}` / `%s` in the literal: keep what is literal. */
const literalPart = (ref: string) => ref.replace(/\{[^}]*\}|%[sd]/g, '\u0000');

function toTarget(file: string, type: string, declared: Declared[], project: Target['project']): Target {
  const byPurl = new Map<string, Component>();
  for (const d of declared) {
    const ref = literalPart(d.text);
    const at = ref.indexOf('@');
    const head = at < 0 ? ref : ref.slice(0, at);
    const tail = at < 0 ? '' : ref.slice(at);
    const slash = head.indexOf('/');
    const name = slash < 0 ? head : head.slice(0, slash);
    const version = slash < 0 ? '' : head.slice(slash + 1);
    if (name.includes('\u0000')) continue;
    // A placeholder in the version leaves it unknown; in user/channel it drops them.
    const c = declaredComponent(`${name}/${version.includes('\u0000') ? '' : version}${tail.includes('\u0000') ? '' : tail}`, d.scope, file, d.line);
    if (!c) continue;
    const seen = byPurl.get(c.purl);
    if (seen) {
      if (c.scope === 'runtime') seen.scope = 'runtime';
      seen.locations.push(...c.locations);
      continue;
    }
    byPurl.set(c.purl, c);
  }
  const components = [...byPurl.values()];
  return { file, type, ecosystem: 'conan', project, roots: components.map((c) => c.purl), components };
}

const lockBeside = (file: string, ctx: ExtractContext) => {
  const dir = path.posix.dirname(file);
  return ctx.exists(dir === '.' ? 'conan.lock' : `${dir}/conan.lock`);
};

export const conanfileTxtExtractor: Extractor = {
  name: 'conanfile',
  ecosystem: 'conan',
  reads: ['conanfile.txt'],
  matches: (p) => path.posix.basename(p) === 'conanfile.txt',
  async extract(file: InputFile, ctx: ExtractContext) {
    // conan.lock beside it names the resolved versions (its own extractor reads it).
    if (await lockBeside(file.path, ctx)) return [];
    const target = toTarget(file.path, 'conanfile', parseConanfileTxt(await file.text()), null);
    return target.components.length ? [target] : [];
  },
};

export const conanfilePyExtractor: Extractor = {
  name: 'conanfile.py',
  ecosystem: 'conan',
  reads: ['conanfile.py'],
  matches: (p) => path.posix.basename(p) === 'conanfile.py',
  async extract(file: InputFile, ctx: ExtractContext) {
    if (await lockBeside(file.path, ctx)) return [];
    const parsed = parseConanfilePy(await file.text());
    let project: Target['project'] = null;
    if (parsed.name && LITERAL_NAME.test(parsed.name)) {
      const version = parsed.version && IDENT.test(parsed.version) ? parsed.version : '';
      project = { purl: conanPurl({ name: parsed.name, version }), name: parsed.name, version };
    }
    const target = toTarget(file.path, 'conanfile.py', parsed.declared, project);
    return target.components.length ? [target] : [];
  },
};
