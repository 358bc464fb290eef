// setuptools projects: setup.py and setup.cfg, read when no lock beside them names exact versions.
//   setup.py is read as text, never run: the keyword arguments (or dict keys) `install_requires`,
//   `extras_require`, `tests_require` and `setup_requires`, whose value is a list, a tuple, a dict
//   of lists, a `"""..."""`.split() string, a sum of those, or a name assigned one of those in the
//   same file (`install_requires=requires`). What is computed at run time (a file read, a
//   comprehension) is passed over.
//   setup.cfg: `[options]` install_requires / tests_require / setup_requires and
//   `[options.extras_require]`, one requirement per (continuation) line; `file:` values read the
//   requirement files they name.
// install_requires and extras are runtime, tests_require and setup_requires development (as
// pyproject.toml's optional-dependencies and dependency-groups are in declared.ts). A requirement
// pinned with `==` has its version, any other is version '' with its range as the constraint.
import path from 'node:path';
import type { ExtractContext, Extractor, InputFile, Scope, Target } from '../../model.ts';
import { expressionAt, lineAt, literals, withoutComments } from '../common/python-source.ts';
import { component, parseRequirementHead, pinnedVersion, projectOf, TargetBuilder } from './common.ts';

const LOCKS = ['poetry.lock', 'uv.lock', 'pdm.lock', 'pylock.toml', 'Pipfile.lock'];
const KEYWORDS: Record<string, Scope> = { install_requires: 'runtime', extras_require: 'runtime', tests_require: 'development', setup_requires: 'development' };
const PY_WORDS = new Set(['for', 'in', 'if', 'else', 'and', 'or', 'not', 'True', 'False', 'None', 'lambda', 'is']);

export interface SetupRequirement { spec: string; scope: Scope; line: number }

/** A PEP 508 requirement as a component's name, version and constraint; undefined when it is not one. */
function requirementOf(spec: string): { name: string; version: string; constraint?: string } | undefined {
  const text = spec.trim();
  if (!text || /\.(txt|in|cfg|py)$/.test(text) || text.includes('/') || text.startsWith('-')) return undefined;
  const head = parseRequirementHead(text.split(';')[0]!);
  if (!head) return undefined;
  const rest = head.rest.trim();
  if (rest.startsWith('@')) return { name: head.name, version: '' }; // a direct URL names no range
  const range = rest.replace(/^\((.*)\)$/, '$1').replace(/\s+/g, '');
  if (range && !/^[<>=!~]/.test(range)) return undefined;
  const version = pinnedVersion(range);
  return { name: head.name, version, ...(version ? {} : { constraint: range || '*' }) };
}

/** Every requirement an expression of setup.py stands for, resolving names assigned in the file. */
function evaluate(text: string, expr: string, exprOffset: number, scope: Scope, seen: Set<string>, out: SetupRequirement[]): void {
  const lits = literals(expr);
  let cursor = 0;
  const gaps: Array<[number, number]> = [];
  for (const l of lits) {
    gaps.push([cursor, l.offset]);
    cursor = l.end;
    const after = expr.slice(l.end);
    if (/^\s*:(?!=)/.test(after)) continue; // a dict key (an extra's name)
    if (/[fF]/.test(l.prefix)) continue; // f-string: computed
    const split = /^\s*\.split\(\s*\)/.test(after);
    let at = 0;
    for (const piece of split ? l.value.split(/(\s+)/) : l.value.split(/(\n)/)) {
      const here = at;
      at += piece.length;
      if (!piece.trim()) continue;
      out.push({ spec: piece.trim(), scope, line: lineAt(text, exprOffset + l.valueOffset + here) });
    }
  }
  gaps.push([cursor, expr.length]);
  // Names outside the literals: variables assigned elsewhere in the file.
  for (const [from, to] of gaps) {
    const code = expr.slice(from, to);
    const ident = /(^|[^.\w])([A-Za-z_]\w*)\b(?!\s*[(.[])(?!\s*=[^=])/g;
    for (let m = ident.exec(code); m; m = ident.exec(code)) {
      const name = m[2]!;
      if (PY_WORDS.has(name) || seen.has(name)) continue;
      // A comprehension's variables are bound inside it: the whole expression is computed.
      if (/\bfor\b/.test(code)) continue;
      seen.add(name);
      const assign = new RegExp(`^[ \\t]*${name}[ \\t]*=(?!=)`, 'm').exec(text);
      if (!assign) continue;
      const start = assign.index + assign[0].length;
      evaluate(text, expressionAt(text, start), start, scope, seen, out);
    }
  }
}

export function parseSetupPy(source: string): { requirements: SetupRequirement[]; name?: string; version?: string } {
  const text = withoutComments(source);
  const requirements: SetupRequirement[] = [];
  const keyword = /\b(install_requires|extras_require|tests_require|setup_requires)\s*=(?!=)|(["'])(install_requires|extras_require|tests_require|setup_requires)\2\s*:/g;
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    // `install_requires = [...]` at the start of a line is a variable, read when something names it.
    if (m[1] && /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', m.index) + 1, m.index))) {
      const before = text.slice(0, m.index).trimEnd();
      if (!before.endsWith('(') && !before.endsWith(',')) continue;
    }
    const kind = (m[1] ?? m[3])!;
    const start = m.index + m[0].length;
    evaluate(text, expressionAt(text, start), start, KEYWORDS[kind]!, new Set(), requirements);
  }
  const literalArg = (key: string) => new RegExp(`\\b${key}\\s*=\\s*["']([^"'\\n]+)["']`).exec(text)?.[1];
  return { requirements, name: literalArg('name'), version: literalArg('version') };
}

/** setup.cfg as sections of keys with their (continuation-joined) lines and the line each starts on. */
function parseIni(text: string): Map<string, Map<string, Array<{ value: string; line: number }>>> {
  const sections = new Map<string, Map<string, Array<{ value: string; line: number }>>>();
  let section: Map<string, Array<{ value: string; line: number }>> | undefined;
  let current: Array<{ value: string; line: number }> | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (/^\s*[#;]/.test(raw) || !raw.trim()) return;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = new Map();
      sections.set(header[1]!.trim(), section);
      current = undefined;
      return;
    }
    if (/^\s/.test(raw)) {
      if (current) current.push({ value: raw.replace(/\s+#.*$/, '').trim(), line: i + 1 });
      return;
    }
    const eq = raw.search(/[=:]/);
    if (eq <= 0 || !section) { current = undefined; return; }
    current = [];
    section.set(raw.slice(0, eq).trim().toLowerCase().replace(/-/g, '_'), current);
    const value = raw.slice(eq + 1).replace(/\s+#.*$/, '').trim();
    if (value) current.push({ value, line: i + 1 });
  });
  return sections;
}

export async function parseSetupCfg(text: string, file: string, ctx?: ExtractContext): Promise<{ requirements: SetupRequirement[]; name?: string; version?: string }> {
  const ini = parseIni(text);
  const requirements: SetupRequirement[] = [];
  const take = async (lines: Array<{ value: string; line: number }> | undefined, scope: Scope) => {
    for (const { value, line } of lines ?? []) {
      const fileRef = /^file:\s*(.+)$/.exec(value);
      if (fileRef && ctx) {
        // `install_requires = file: requirements.txt` (setuptools ≥ 62.6): the files' lines.
        for (const name of fileRef[1]!.split(',').map((s) => s.trim()).filter(Boolean)) {
          const rel = path.posix.normalize(path.posix.join(path.posix.dirname(file), name));
          const body = await ctx.readText(rel).catch(() => undefined);
          for (const req of body?.split(/\r?\n/) ?? []) {
            const spec = req.replace(/(^|\s)#.*$/, '').trim();
            if (spec && !spec.startsWith('-')) requirements.push({ spec, scope, line });
          }
        }
        continue;
      }
      requirements.push({ spec: value, scope, line });
    }
  };
  const options = ini.get('options');
  await take(options?.get('install_requires'), 'runtime');
  await take(options?.get('tests_require'), 'development');
  await take(options?.get('setup_requires'), 'development');
  for (const lines of ini.get('options.extras_require')?.values() ?? []) await take(lines, 'runtime');
  const meta = ini.get('metadata');
  const plain = (key: string) => { const v = meta?.get(key)?.[0]?.value; return v && !/^(attr|file):/.test(v) ? v : undefined; };
  return { requirements, name: plain('name'), version: plain('version') };
}

function toTarget(file: string, type: string, parsed: { requirements: SetupRequirement[]; name?: string; version?: string }): Target[] {
  const builder = new TargetBuilder();
  for (const r of parsed.requirements) {
    const req = requirementOf(r.spec);
    if (!req) continue;
    builder.add(component({ ...req, direct: true, scope: r.scope, location: { file, startLine: r.line, endLine: r.line } }));
  }
  if (!builder.components.length) return [];
  const name = parsed.name && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(parsed.name) ? parsed.name : undefined;
  return [builder.target(file, type, name ? projectOf(name, parsed.version ?? '') : null)];
}

const sibling = (file: string, name: string) => (path.posix.dirname(file) === '.' ? name : `${path.posix.dirname(file)}/${name}`);
const locked = async (file: string, ctx: ExtractContext) => (await Promise.all(LOCKS.map((l) => ctx.exists(sibling(file, l))))).some(Boolean);

export const setupPy: Extractor = {
  name: 'setup.py',
  ecosystem: 'pypi',
  reads: ['setup.py'],
  matches: (p) => path.posix.basename(p) === 'setup.py',
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    if (await locked(file.path, ctx)) return [];
    return toTarget(file.path, 'setup.py', parseSetupPy(await file.text()));
  },
};

export const setupCfg: Extractor = {
  name: 'setup.cfg',
  ecosystem: 'pypi',
  reads: ['setup.cfg'],
  matches: (p) => path.posix.basename(p) === 'setup.cfg',
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    if (await locked(file.path, ctx)) return [];
    return toTarget(file.path, 'setup.cfg', await parseSetupCfg(await file.text(), file.path, ctx));
  },
};
