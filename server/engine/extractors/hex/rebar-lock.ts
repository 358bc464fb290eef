// Erlang rebar3's rebar.lock. Two layouts, as rebar_config:consult_lock_file reads them:
//   old (before rebar3 3.5): one term, the list of locks `[{<<"app">>, Source, Level}, ...].`
//   versioned: `{"1.2.0", [Locks]}.` followed by a second term `[{pkg_hash, [...]}, {pkg_hash_ext, [...]}].`
// A lock's Source is `{pkg, <<"package">>, <<"version">>}` (a Hex package, possibly renamed: the
// app name is the first binary, the Hex package the second; rebar3 ≥ 3.7 may add the hash and a
// repo) or `{git, "url", {ref|tag|branch, "..."}}`. Level 0 is a dependency the project's
// rebar.config declares, deeper levels are pulled in; the file records no edges. The pkg_hash
// section is checksums only: rebar3 itself uses it to verify downloads, it names no packages.
// Hex packages become pkg:hex purls; git dependencies are Hex-ecosystem components too, named by
// their app and versioned by the ref they are locked at (`pkg:hex/bson@14308ab…`), as syft writes them.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export type ErlTerm =
  | { t: 'tuple'; items: ErlTerm[]; line: number; endLine: number }
  | { t: 'list'; items: ErlTerm[]; line: number; endLine: number }
  | { t: 'bin' | 'str' | 'atom' | 'int'; v: string; line: number; endLine: number };

class ErlSyntaxError extends Error {
  line: number;
  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

const MAX_DEPTH = 64;

/** Reads the `Term.` sequence of an Erlang consult file (the subset rebar.lock uses): tuples,
 *  lists, binaries `<<"...">>`, strings, atoms, integers, `%` comments. */
export function readErlangTerms(text: string): ErlTerm[] {
  let pos = 0;
  let line = 1;
  const n = text.length;
  const fail = (what: string): never => { throw new ErlSyntaxError(what, line); };
  const skip = () => {
    while (pos < n) {
      const c = text[pos]!;
      if (c === '\n') { line++; pos++; } else if (c === ' ' || c === '\t' || c === '\r') pos++;
      else if (c === '%') { const e = text.indexOf('\n', pos); pos = e < 0 ? n : e; } else return;
    }
  };
  const quoted = (q: string): string => {
    pos++;
    let out = '';
    while (pos < n && text[pos] !== q) {
      if (text[pos] === '\n') line++;
      if (text[pos] === '\\' && pos + 1 < n) { out += text[pos + 1]; pos += 2; continue; }
      out += text[pos++];
    }
    if (pos >= n) fail('字符串没有结束');
    pos++;
    return out;
  };
  const value = (depth: number): ErlTerm => {
    if (depth > MAX_DEPTH) fail('嵌套层级过深');
    skip();
    const start = line;
    const c = text[pos];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      pos++;
      const items: ErlTerm[] = [];
      skip();
      if (text[pos] === close) { pos++; return { t: c === '{' ? 'tuple' : 'list', items, line: start, endLine: line }; }
      for (;;) {
        items.push(value(depth + 1));
        skip();
        if (text[pos] === ',') { pos++; continue; }
        if (text[pos] === close) { pos++; break; }
        fail(`缺少逗号或“${close}”`);
      }
      return { t: c === '{' ? 'tuple' : 'list', items, line: start, endLine: line };
    }
    if (text.startsWith('<<', pos)) {
      pos += 2;
      skip();
      let v = '';
      if (text[pos] === '"') v = quoted('"');
      skip();
      if (!text.startsWith('>>', pos)) fail('二进制没有以 >> 结束');
      pos += 2;
      return { t: 'bin', v, line: start, endLine: line };
    }
    if (c === '"') return { t: 'str', v: quoted('"'), line: start, endLine: line };
    if (c === "'") return { t: 'atom', v: quoted("'"), line: start, endLine: line };
    const m = /^(?:-?\d+|[a-z][A-Za-z0-9_@]*)/.exec(text.slice(pos, pos + 256));
    if (!m) return fail(pos >= n ? '内容意外结束' : `无法识别的字符“${text[pos]}”`);
    pos += m[0].length;
    return { t: /^-?\d/.test(m[0]) ? 'int' : 'atom', v: m[0], line: start, endLine: line };
  };
  const terms: ErlTerm[] = [];
  for (;;) {
    skip();
    if (pos >= n) break;
    terms.push(value(0));
    skip();
    if (text[pos] !== '.') fail('项之后缺少“.”');
    pos++;
  }
  return terms;
}

const text = (t: ErlTerm | undefined): string | undefined => (t && (t.t === 'bin' || t.t === 'str' || t.t === 'atom') ? t.v : undefined);

export function parseRebarLock(source: string, file: string): Target {
  const target: Target = { file, type: 'rebar', ecosystem: 'hex', project: null, roots: [], components: [] };
  let terms: ErlTerm[];
  try {
    terms = readErlangTerms(source);
  } catch (error) {
    if (error instanceof ErlSyntaxError) throw new ExtractError(`${file} 不是有效的 rebar.lock（第 ${error.line} 行）：${error.message}`);
    throw error;
  }
  if (!terms.length) return target;
  const first = terms[0]!;
  // `{"1.2.0", Locks}` or the bare list of the old format.
  const locks = first.t === 'tuple' && first.items.length === 2 && first.items[0]!.t === 'str' ? first.items[1]! : first;
  if (locks.t !== 'list') throw new ExtractError(`${file} 不是 rebar.lock 格式：第一项应为锁定列表或 {"版本", [...]}`);

  const components = new Map<string, Component>();
  // rebar3 passes over a lock it cannot read: so do we, and list it with its line.
  const problems: string[] = [];
  for (const lock of locks.items) {
    const app = lock.t === 'tuple' ? text(lock.items[0]) : undefined;
    const source = lock.t === 'tuple' ? lock.items[1] : undefined;
    const level = lock.t === 'tuple' ? lock.items[2] : undefined;
    const kind = source?.t === 'tuple' ? text(source.items[0]) : undefined;
    if (!app || source?.t !== 'tuple' || (kind !== 'pkg' && kind !== 'git')) {
      problems.push(`${file} 第 ${lock.line} 行：锁定条目${app ? `“${app}”` : ''}不是 {<<"名称">>, {pkg|git, ...}, 层级} 形式，已跳过`);
      continue;
    }
    let name: string;
    let version: string;
    if (kind === 'pkg') {
      name = text(source.items[1]) ?? app;
      version = text(source.items[2]) ?? '';
    } else {
      // `{ref, "sha"}`, `{tag, "v1"}`, `{branch, "main"}`; rebar 2 wrote the bare string.
      const ref = source.items[2];
      name = app;
      version = (ref?.t === 'tuple' ? text(ref.items[1]) : text(ref)) ?? '';
    }
    if (!version) {
      problems.push(`${file} 第 ${lock.line} 行：锁定条目“${app}”没有版本或引用，已跳过`);
      continue;
    }
    let purl: string;
    try {
      purl = purlOf('hex', { name: name.toLowerCase(), version });
    } catch {
      problems.push(`${file} 第 ${lock.line} 行：锁定条目“${app}”的名称或版本无效，已跳过`);
      continue;
    }
    const direct = level?.t === 'int' && level.v === '0';
    const seen = components.get(purl);
    if (seen) { seen.direct ||= direct; continue; }
    components.set(purl, {
      purl, ecosystem: 'hex', name, version, direct, scope: 'runtime',
      locations: [{ file, startLine: lock.line, endLine: lock.endLine }], licenses: [], dependsOn: [],
    });
  }
  target.components = [...components.values()];
  target.roots = target.components.filter((c) => c.direct).map((c) => c.purl);
  if (problems.length) target.problems = problems;
  return target;
}

export const rebarExtractor: Extractor = {
  name: 'rebar',
  ecosystem: 'hex',
  reads: ['rebar.lock'],
  matches: (p) => baseName(p) === 'rebar.lock',
  async extract(file: InputFile) {
    return [parseRebarLock(await file.text(), file.path)];
  },
};
