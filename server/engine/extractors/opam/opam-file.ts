// The opam file format (opam 2.x): `field: value` pairs and `section "name"? { ... }` blocks.
// Values are strings ("..." or """..."""), identifiers and variables (`with-test`, `pkg:installed`),
// booleans, integers, lists `[ ... ]`, groups `( ... )`, logical formulas (`&`, `|`, `!`) and
// options `value { filter }`. What dependency reading needs is kept: each field's tokens, and for
// a `depends:` formula every package with its filter, split into the version constraint
// (`>= "2.8" & < "3.0"`, where the operator has no left operand) and the flags
// (`with-test`, `build`, `post`; a variable comparison such as `os = "win32"` is neither).

export class OpamSyntaxError extends Error {}

export type Token = { kind: 'string' | 'ident' | 'int' | 'op'; value: string; line: number };

export function tokenizeOpam(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '#') { while (i < n && source[i] !== '\n') i++; continue; }
    if (source.startsWith('(*', i)) {
      const end = source.indexOf('*)', i + 2);
      if (end < 0) throw new OpamSyntaxError(`第 ${line} 行的注释没有结束`);
      line += (source.slice(i, end).match(/\n/g) ?? []).length;
      i = end + 2;
      continue;
    }
    if (c === '"') {
      const triple = source.startsWith('"""', i);
      const quote = triple ? '"""' : '"';
      const start = line;
      let j = i + quote.length;
      let value = '';
      while (j < n && !source.startsWith(quote, j)) {
        if (source[j] === '\\' && j + 1 < n) {
          const e = source[j + 1]!;
          if (e === '\n') { line++; j += 2; while (j < n && (source[j] === ' ' || source[j] === '\t')) j++; continue; }
          value += ({ n: '\n', t: '\t', r: '\r', b: '\b' } as Record<string, string>)[e] ?? e;
          j += 2;
          continue;
        }
        if (source[j] === '\n') { if (!triple) throw new OpamSyntaxError(`第 ${start} 行的字符串没有结束`); line++; }
        value += source[j];
        j++;
      }
      if (j >= n) throw new OpamSyntaxError(`第 ${start} 行的字符串没有结束`);
      tokens.push({ kind: 'string', value, line: start });
      i = j + quote.length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_+-]*(?::[A-Za-z_][A-Za-z0-9_+-]*)*/.exec(source.slice(i, i + 256));
    if (ident) { tokens.push({ kind: 'ident', value: ident[0], line }); i += ident[0].length; continue; }
    const int = /^-?\d+/.exec(source.slice(i, i + 32));
    if (int) { tokens.push({ kind: 'int', value: int[0], line }); i += int[0].length; continue; }
    const op = /^(?:!=|<=|>=|\+=|=\+|=:|:=|[{}[\]()&|!=<>~?:])/.exec(source.slice(i, i + 2));
    if (!op) throw new OpamSyntaxError(`第 ${line} 行有无法识别的字符 ${JSON.stringify(c)}`);
    tokens.push({ kind: 'op', value: op[0], line });
    i += op[0].length;
  }
  return tokens;
}

const OPEN: Record<string, string> = { '[': ']', '{': '}', '(': ')' };

/** Top-level fields: name → the tokens of its value (sections are passed over). */
export function opamFields(source: string): Map<string, { tokens: Token[]; line: number }> {
  const tokens = tokenizeOpam(source.replace(/^\uFEFF/, ''));
  const fields = new Map<string, { tokens: Token[]; line: number }>();
  let i = 0;
  const skipBalanced = (): void => {
    const stack: string[] = [];
    do {
      const t = tokens[i++];
      if (!t) throw new OpamSyntaxError('括号没有闭合');
      if (t.kind === 'op' && OPEN[t.value]) stack.push(OPEN[t.value]!);
      else if (t.kind === 'op' && (t.value === ']' || t.value === '}' || t.value === ')')) {
        if (stack.pop() !== t.value) throw new OpamSyntaxError(`第 ${t.line} 行的 ${t.value} 不匹配`);
      }
    } while (stack.length > 0);
  };
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t.kind !== 'ident') throw new OpamSyntaxError(`第 ${t.line} 行应为字段名，实为 ${t.value}`);
    const next = tokens[i + 1];
    if (next?.kind === 'op' && next.value === ':') {
      i += 2;
      const start = i;
      // A value runs until the next `ident :` or section at depth 0.
      while (i < tokens.length) {
        const v = tokens[i]!;
        if (v.kind === 'op' && OPEN[v.value]) { skipBalanced(); continue; }
        if (v.kind === 'ident' && i > start && (tokens[i + 1]?.value === ':' || tokens[i + 1]?.value === '{' || (tokens[i + 1]?.kind === 'string' && tokens[i + 2]?.value === '{'))) {
          // `ident :` starts the next field; `ident {` or `ident "x" {` a section — unless the ident is a value followed by its option filter.
          if (tokens[i + 1]?.value === ':') break;
          const prev = tokens[i - 1]!;
          if (prev.line !== v.line) break;
        }
        i++;
      }
      fields.set(t.value, { tokens: tokens.slice(start, i), line: t.line });
      continue;
    }
    // Section: ident ["name"] { ... }
    i++;
    if (tokens[i]?.kind === 'string') i++;
    if (tokens[i]?.value !== '{') throw new OpamSyntaxError(`第 ${t.line} 行的 ${t.value} 后应为冒号或 {`);
    skipBalanced();
  }
  return fields;
}

export const fieldString = (field: { tokens: Token[] } | undefined): string | undefined =>
  field && field.tokens[0]?.kind === 'string' ? field.tokens[0].value : undefined;

/** Strings of a field that is a string or a list of strings (`license: ["MIT" "ISC"]`). */
export function fieldStrings(field: { tokens: Token[] } | undefined): string[] {
  if (!field) return [];
  return field.tokens.filter((t) => t.kind === 'string').map((t) => t.value);
}

export interface OpamDependency { name: string; constraint: string; flags: string[]; line: number }

/** The packages of a dependency formula (`depends:`), each with its version constraint and flags. */
export function dependencies(field: { tokens: Token[] } | undefined): OpamDependency[] {
  if (!field) return [];
  const result: OpamDependency[] = [];
  const tokens = field.tokens;
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t.kind === 'string') {
      const dep: OpamDependency = { name: t.value, constraint: '', flags: [], line: t.line };
      i++;
      if (tokens[i]?.value === '{') {
        const end = matching(tokens, i);
        readFilter(tokens.slice(i + 1, end), dep);
        i = end + 1;
      }
      result.push(dep);
      continue;
    }
    if (t.kind === 'op' && t.value === '{') { i = matching(tokens, i) + 1; continue; }
    i++;
  }
  return result;
}

function matching(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const v = tokens[i]!;
    if (v.kind !== 'op') continue;
    if (v.value === '{' || v.value === '[' || v.value === '(') depth++;
    else if (v.value === '}' || v.value === ']' || v.value === ')') { depth--; if (depth === 0) return i; }
  }
  return tokens.length - 1;
}

const RELOPS = new Set(['=', '!=', '<', '<=', '>', '>=', '~']);

function readFilter(filter: Token[], dep: OpamDependency): void {
  const parts: string[] = [];
  let joiner = '';
  for (let i = 0; i < filter.length; i++) {
    const t = filter[i]!;
    const prev = filter[i - 1];
    const atStart = !prev || (prev.kind === 'op' && ['&', '|', '(', '!'].includes(prev.value));
    if (t.kind === 'op' && RELOPS.has(t.value) && atStart && filter[i + 1]?.kind === 'string') {
      parts.push(`${parts.length > 0 ? joiner || ' & ' : ''}${t.value === '=' ? '=' : t.value} ${filter[i + 1]!.value}`);
      i++;
      continue;
    }
    if (t.kind === 'op' && (t.value === '&' || t.value === '|')) { joiner = ` ${t.value} `; continue; }
    if (t.kind === 'ident' && !(filter[i + 1]?.kind === 'op' && RELOPS.has(filter[i + 1]!.value)) && !(prev?.kind === 'op' && RELOPS.has(prev.value))) {
      dep.flags.push(t.value);
    }
  }
  dep.constraint = parts.join('');
}
