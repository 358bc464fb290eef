// A small tokenizer and term reader for the Elixir literal syntax that mix.lock uses:
// maps `%{"k": v, "k" => v}`, tuples `{...}`, lists `[...]` (with `key: value` keyword pairs),
// strings, atoms (`:name`, `:"quoted"`), numbers, `true`/`false`/`nil`, and `#` comments.
// The tokenizer is tolerant (it also walks mix.exs code); the term reader is strict.

export type TokenKind = 'str' | 'atom' | 'kw' | 'num' | 'ident' | 'punct' | 'other';
export interface Token { kind: TokenKind; value: string; line: number }

export class TermSyntaxError extends Error {
  line: number;
  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

// Character classes by code: 1 identifier start, 2 identifier continuation only, 4 digit.
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_]/.test(ch)) CLASS[c] = 1 | 2;
  else if (/[0-9]/.test(ch)) CLASS[c] = 2 | 4;
  else if (ch === '@' || ch === '?' || ch === '!') CLASS[c] = 2;
}
const isIdentStart = (code: number) => code < 128 && (CLASS[code]! & 1) !== 0;
const isIdent = (code: number) => code < 128 && (CLASS[code]! & 2) !== 0;
const isDigit = (code: number) => code < 128 && (CLASS[code]! & 4) !== 0;
const isSpace = (code: number) => code === 32 || code === 10 || code === 9 || code === 13;
const NUM_TAIL = /[0-9_.xXa-fA-FeE+-]/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  const countLines = (from: number, to: number) => {
    for (let k = text.indexOf('\n', from); k >= 0 && k < to; k = text.indexOf('\n', k + 1)) line++;
  };
  // Next backslash at or after i (cached: searching afresh for every string would be quadratic).
  let nextEscape = -2;
  const escapeFrom = (from: number) => {
    if (nextEscape !== -1 && nextEscape < from) nextEscape = text.indexOf('\\', from);
    return nextEscape;
  };
  const readString = (): string => {
    if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      const stop = end < 0 ? n : end;
      const body = text.slice(i + 3, stop);
      countLines(i, stop);
      i = end < 0 ? n : end + 3;
      return body;
    }
    i++;
    let out = '';
    for (;;) {
      const quote = text.indexOf('"', i);
      const escape = escapeFrom(i);
      if (quote < 0) throw new TermSyntaxError('字符串没有结束', line);
      if (escape < 0 || escape > quote) {
        countLines(i, quote);
        out += text.slice(i, quote);
        i = quote + 1;
        return out;
      }
      countLines(i, escape);
      out += text.slice(i, escape);
      const e = text[escape + 1] ?? '';
      out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
      if (e === '\n') line++;
      i = escape + 2;
    }
  };
  while (i < n) {
    const code = text.charCodeAt(i);
    if (code === 10) { line++; i++; continue; }
    if (code === 32 || code === 9 || code === 13 || code === 0xfeff) { i++; continue; }
    const c = text[i]!;
    if (c === '#') { const eol = text.indexOf('\n', i); i = eol < 0 ? n : eol; continue; }
    const start = line;
    if (c === '"') {
      const value = readString();
      if (text.charCodeAt(i) === 58 && (i + 1 >= n || isSpace(text.charCodeAt(i + 1)))) { i++; tokens.push({ kind: 'kw', value, line: start }); }
      else tokens.push({ kind: 'str', value, line: start });
      continue;
    }
    if (c === ':' && text[i + 1] === '"') {
      i++;
      tokens.push({ kind: 'atom', value: readString(), line: start });
      continue;
    }
    if (c === ':' && i + 1 < n && isIdentStart(text.charCodeAt(i + 1))) {
      let j = i + 1;
      while (j < n && (isIdent(text.charCodeAt(j)) || text.charCodeAt(j) === 46)) j++;
      tokens.push({ kind: 'atom', value: text.slice(i + 1, j), line: start });
      i = j;
      continue;
    }
    if (isIdentStart(code)) {
      let j = i;
      while (j < n && isIdent(text.charCodeAt(j))) j++;
      const value = text.slice(i, j);
      if (text.charCodeAt(j) === 58 && text.charCodeAt(j + 1) !== 58 && (j + 1 >= n || isSpace(text.charCodeAt(j + 1)))) { tokens.push({ kind: 'kw', value, line: start }); i = j + 1; }
      else { tokens.push({ kind: 'ident', value, line: start }); i = j; }
      continue;
    }
    if (isDigit(code) || (c === '-' && isDigit(text.charCodeAt(i + 1)))) {
      let j = i + 1;
      while (j < n && NUM_TAIL.test(text[j]!)) j++;
      tokens.push({ kind: 'num', value: text.slice(i, j), line: start });
      i = j;
      continue;
    }
    if (c === '%' && text[i + 1] === '{') { tokens.push({ kind: 'punct', value: '%{', line: start }); i += 2; continue; }
    if (c === '=' && text[i + 1] === '>') { tokens.push({ kind: 'punct', value: '=>', line: start }); i += 2; continue; }
    if (c === '?' && i + 1 < n) { i += text[i + 1] === '\\' ? 3 : 2; tokens.push({ kind: 'other', value: '?', line: start }); continue; }
    if (c === '{' || c === '}' || c === '[' || c === ']' || c === '(' || c === ')' || c === ',') { tokens.push({ kind: 'punct', value: c, line: start }); i++; continue; }
    tokens.push({ kind: 'other', value: c, line: start });
    i++;
  }
  return tokens;
}

export type Term =
  | { t: 'str' | 'atom' | 'num'; v: string; line: number; endLine: number }
  | { t: 'list' | 'tuple'; items: Term[]; line: number; endLine: number }
  | { t: 'map'; entries: Array<{ key: Term; value: Term }>; line: number; endLine: number };

const MAX_DEPTH = 200;

/** Reads exactly one term from the tokens (the whole input). */
export function readTerm(tokens: Token[]): Term {
  let pos = 0;
  const lastLine = tokens.length ? tokens[tokens.length - 1]!.line : 1;
  const peek = () => tokens[pos];
  const fail = (what: string): never => { throw new TermSyntaxError(what, peek()?.line ?? lastLine); };
  const expectPunct = (v: string) => { const t = peek(); if (t?.kind !== 'punct' || t.value !== v) fail(`此处应为 “${v}”`); pos++; return t!; };

  const seq = (close: string, depth: number, keywordPairs: boolean): { items: Term[]; endLine: number } => {
    const items: Term[] = [];
    for (;;) {
      const t = peek();
      if (!t) fail(`缺少 “${close}”`);
      if (t!.kind === 'punct' && t!.value === close) { pos++; return { items, endLine: t!.line }; }
      if (keywordPairs && t!.kind === 'kw') {
        pos++;
        const value = term(depth + 1);
        items.push({ t: 'tuple', items: [{ t: 'atom', v: t!.value, line: t!.line, endLine: t!.line }, value], line: t!.line, endLine: value.endLine });
      } else items.push(term(depth + 1));
      const after = peek();
      if (after?.kind === 'punct' && after.value === ',') { pos++; continue; }
      if (after?.kind === 'punct' && after.value === close) continue;
      fail(`此处应为 “,” 或 “${close}”`);
    }
  };

  const term = (depth: number): Term => {
    if (depth > MAX_DEPTH) fail('嵌套层级过深');
    const t = peek();
    if (!t) return fail('内容意外结束');
    pos++;
    if (t.kind === 'str' || t.kind === 'atom' || t.kind === 'num') return { t: t.kind, v: t.value, line: t.line, endLine: t.line };
    if (t.kind === 'ident' && (t.value === 'true' || t.value === 'false' || t.value === 'nil')) return { t: 'atom', v: t.value, line: t.line, endLine: t.line };
    if (t.kind === 'punct' && t.value === '[') { const s = seq(']', depth, true); return { t: 'list', items: s.items, line: t.line, endLine: s.endLine }; }
    if (t.kind === 'punct' && t.value === '{') { const s = seq('}', depth, false); return { t: 'tuple', items: s.items, line: t.line, endLine: s.endLine }; }
    if (t.kind === 'punct' && t.value === '%{') {
      const entries: Array<{ key: Term; value: Term }> = [];
      for (;;) {
        const k = peek();
        if (!k) fail('缺少 “}”');
        if (k!.kind === 'punct' && k!.value === '}') { pos++; return { t: 'map', entries, line: t.line, endLine: k!.line }; }
        let key: Term;
        if (k!.kind === 'kw') { pos++; key = { t: 'str', v: k!.value, line: k!.line, endLine: k!.line }; }
        else { key = term(depth + 1); expectPunct('=>'); }
        entries.push({ key, value: term(depth + 1) });
        const after = peek();
        if (after?.kind === 'punct' && after.value === ',') { pos++; continue; }
        if (after?.kind === 'punct' && after.value === '}') continue;
        fail('此处应为 “,” 或 “}”');
      }
    }
    pos--;
    return fail(`无法识别的内容 “${t.value}”`);
  };

  const result = term(0);
  if (pos < tokens.length) fail('多余的内容');
  return result;
}
