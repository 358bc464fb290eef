// The one YAML reader of the extractors (pnpm-lock.yaml, yarn berry's yarn.lock, pubspec.lock,
// Podfile.lock, environment.yml). Lockfiles are machine-written block YAML, and the general
// `yaml` library takes seconds on a multi-megabyte lockfile, so a small block-YAML reader
// handles the common subset (block maps and sequences, plain and quoted scalars, comments,
// one-line flow collections such as `{integrity: sha512-x}` or `[darwin, linux]`) in one pass;
// anything else (anchors, aliases, tags, block scalars, multi-line scalars and flow
// collections) falls back to the `yaml` library. Two shapes of result from the same pass: a
// tree of YNodes with 1-based lines where every scalar is text (parseLockYaml), or plain
// JavaScript values the way `yaml`'s parse gives them, except that numbers stay text
// (parseYamlValues; for lockfiles walked as records). Parse errors become an ExtractError in
// Chinese.
import type { Node } from 'yaml';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { ExtractError } from '../../model.ts';

export type YNode =
  | { kind: 'map'; entries: Array<{ key: string; value: YNode; line: number }>; line: number; endLine: number }
  | { kind: 'seq'; items: YNode[]; line: number; endLine: number }
  | { kind: 'scalar'; value: string | null; line: number; endLine: number };

/** Entry of a map node by key. */
export function yget(node: YNode | undefined, key: string): YNode | undefined {
  if (node?.kind !== 'map') return undefined;
  for (const e of node.entries) if (e.key === key) return e.value;
  return undefined;
}

/** Scalar text of a node, when it is a non-null scalar. */
export const ytext = (node: YNode | undefined): string | undefined => (node?.kind === 'scalar' && node.value !== null ? node.value : undefined);

export const isEmptyNode = (node: YNode | undefined): boolean => !node || (node.kind === 'scalar' && (node.value === null || node.value === ''));

class Unsupported extends Error {}

interface Line { indent: number; text: string; no: number }

function stripComment(s: string): string {
  if (!s.includes('#')) return s;
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) {
        if (quote === "'" && s[i + 1] === "'") { i++; continue; }
        quote = '';
      } else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s:[{,-]/.test(s[i - 1]!)) quote = c;
    } else if (c === '#' && (i === 0 || s[i - 1] === ' ' || s[i - 1] === '\t')) return s.slice(0, i).trimEnd();
  }
  return s;
}

/** Text of a scalar (null for the null forms); Unsupported for what the fast reader leaves to the library. */
function scalar(raw: string): string | null {
  const s = raw.trim();
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  const c = s[0]!;
  if (c === '"') {
    if (s.length < 2 || !s.endsWith('"') || s.endsWith('\\"')) throw new Unsupported();
    const body = s.slice(1, -1);
    if (!body.includes('\\') && !body.includes('"')) return body;
    try { return JSON.parse(s) as string; } catch { throw new Unsupported(); }
  }
  if (c === "'") {
    if (s.length < 2 || !s.endsWith("'")) throw new Unsupported();
    const body = s.slice(1, -1);
    if (!body.includes("'")) return body;
    if (body.replace(/''/g, '').includes("'")) throw new Unsupported();
    return body.replace(/''/g, "'");
  }
  if ('&*!|>%@`{['.includes(c)) throw new Unsupported();
  return s;
}

/** A scalar as a plain value: unquoted true / false are booleans, numbers stay text. */
function typed(raw: string): string | boolean | null {
  const s = raw.trim();
  return s === 'true' ? true : s === 'false' ? false : scalar(s);
}

/** End (exclusive) of the quoted scalar starting at `from` in `s`, or -1 when it does not end. */
function quoteEnd(s: string, from: number): number {
  const q = s[from];
  for (let i = from + 1; i < s.length; i++) {
    if (s[i] === '\\' && q === '"') { i++; continue; }
    if (s[i] === q) {
      if (q === "'" && s[i + 1] === "'") { i++; continue; }
      return i + 1;
    }
  }
  return -1;
}

/** Splits `key: value` / `key:`; undefined when the text is not a mapping entry. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  const c = text[0]!;
  if (c === '"' || c === "'") {
    const end = quoteEnd(text, 0);
    if (end < 0) return undefined;
    const after = text.slice(end);
    if (!(after.startsWith(':') && (after.length === 1 || after[1] === ' '))) return undefined;
    return { key: scalar(text.slice(0, end)) ?? '', rest: after.slice(1).trim() };
  }
  if (c === '?' && (text.length === 1 || text[1] === ' ')) throw new Unsupported();
  if ('&*!|>%@`{['.includes(c)) throw new Unsupported();
  // A plain key ends at the first `: ` (or a `:` closing the line); no regex, so no backtracking.
  const cut = text.indexOf(': ');
  if (cut >= 0) return { key: text.slice(0, cut).trim(), rest: text.slice(cut + 2).trim() };
  if (text.endsWith(':')) return { key: text.slice(0, -1).trim(), rest: '' };
  return undefined;
}

const isFlow = (s: string) => s[0] === '{' || s[0] === '[';

/**
 * Reads the block YAML subset in one pass. `plain`: plain values (objects, arrays, strings,
 * booleans, null); otherwise YNodes. Unsupported when the text leaves the subset.
 */
function fastParse(text: string, file: string, plain: boolean): unknown {
  const lines: Line[] = [];
  const raw = text.split('\n');
  const hasTab = text.includes('\t');
  for (let i = 0; i < raw.length; i++) {
    let l = raw[i]!;
    if (l.endsWith('\r')) l = l.slice(0, -1);
    if (i === 0 && l.charCodeAt(0) === 0xfeff) l = l.slice(1);
    const body = l.trimStart();
    if (!body || body.startsWith('#')) continue;
    const indent = l.length - body.length;
    if (hasTab && l.slice(0, indent).includes('\t')) throw new Unsupported();
    if (indent === 0 && (body.startsWith('---') || body.startsWith('...') || body.startsWith('%'))) {
      // One document marker before any content is just the start of the (only) document.
      if (!lines.length && stripComment(body) === '---') continue;
      throw new Unsupported();
    }
    lines.push({ indent, text: stripComment(body), no: i + 1 });
  }
  let pos = 0;
  const isItem = (l: string) => l === '-' || l.startsWith('- ');
  const lastLine = () => lines[pos - 1]!.no;
  const scalarOf = (rest: string, no: number): unknown => (plain ? typed(rest) : { kind: 'scalar', value: scalar(rest), line: no, endLine: no });

  /** One-line flow collection (`{a: b, c: [d]}`), ending exactly at the end of `s`. */
  const flow = (s: string, no: number): unknown => {
    let i = 0;
    let depth = 0;
    const ws = () => { while (s[i] === ' ') i++; };
    const item = (stops: string, key: boolean): unknown => {
      ws();
      let j: number;
      if (s[i] === '"' || s[i] === "'") {
        j = quoteEnd(s, i);
        if (j < 0) throw new Unsupported();
      } else {
        j = i;
        while (j < s.length && !stops.includes(s[j]!) && !(key && s[j] === ':' && (s[j + 1] === ' ' || s[j + 1] === undefined))) j++;
      }
      const t = s.slice(i, j).trim();
      i = j;
      if (!t) throw new Unsupported();
      if (!key) return scalarOf(t, no);
      const k = scalar(t); // also turns away anchors, aliases, tags and nested flows as keys
      return t[0] === '"' || t[0] === "'" ? k ?? '' : t;
    };
    const value = (): unknown => {
      ws();
      if (++depth > 100) throw new Unsupported();
      let out: unknown;
      if (s[i] === '{') {
        i++;
        const obj: Record<string, unknown> = {};
        const entries: Array<{ key: string; value: YNode; line: number }> = [];
        ws();
        if (s[i] === '}') i++;
        else {
          for (;;) {
            const k = item(':,}', true) as string;
            ws();
            if (s[i] !== ':') throw new Unsupported();
            i++;
            const v = value();
            if (!plain) entries.push({ key: k, value: v as YNode, line: no });
            else if (k === '__proto__') throw new Unsupported();
            else obj[k] = v;
            ws();
            if (s[i] === ',') { i++; continue; }
            if (s[i] === '}') { i++; break; }
            throw new Unsupported();
          }
        }
        out = plain ? obj : { kind: 'map', entries, line: no, endLine: no };
      } else if (s[i] === '[') {
        i++;
        const items: unknown[] = [];
        ws();
        if (s[i] === ']') i++;
        else {
          for (;;) {
            items.push(value());
            ws();
            if (s[i] === ',') { i++; continue; }
            if (s[i] === ']') { i++; break; }
            throw new Unsupported();
          }
        }
        out = plain ? items : { kind: 'seq', items, line: no, endLine: no };
      } else out = item(',}]', false);
      depth--;
      return out;
    };
    const v = value();
    ws();
    if (i !== s.length) throw new Unsupported();
    return v;
  };

  let depth = 0;
  const block = (indent: number): unknown => {
    if (++depth > 200) throw new ExtractError(`${file} 的 YAML 嵌套过深`);
    const node = isItem(lines[pos]!.text) ? seq(indent) : map(indent);
    depth--;
    return node;
  };

  const valueAfter = (rest: string, line: Line, indent: number, allowSameIndentSeq: boolean): unknown => {
    if (rest) {
      const value = isFlow(rest) ? flow(rest, line.no) : scalarOf(rest, line.no);
      const next = lines[pos];
      if (next && next.indent > indent) throw new Unsupported(); // multi-line scalar
      return value;
    }
    const next = lines[pos];
    if (next && next.indent > indent) return block(next.indent);
    if (next && allowSameIndentSeq && next.indent === indent && isItem(next.text)) return seq(indent);
    return plain ? null : { kind: 'scalar', value: null, line: line.no, endLine: line.no };
  };

  const map = (indent: number): unknown => {
    const start = lines[pos]!.no;
    const obj: Record<string, unknown> = {};
    const entries: Array<{ key: string; value: YNode; line: number }> = [];
    while (pos < lines.length) {
      const line = lines[pos]!;
      if (line.indent < indent) break;
      if (line.indent > indent) throw new Unsupported();
      if (isItem(line.text)) break;
      const kv = splitKey(line.text);
      if (!kv) throw new Unsupported();
      pos++;
      const value = valueAfter(kv.rest, line, indent, true);
      if (!plain) entries.push({ key: kv.key, value: value as YNode, line: line.no });
      else if (kv.key === '__proto__') throw new Unsupported();
      else obj[kv.key] = value;
    }
    return plain ? obj : { kind: 'map', entries, line: start, endLine: lastLine() };
  };

  const seq = (indent: number): unknown => {
    const start = lines[pos]!.no;
    const items: unknown[] = [];
    while (pos < lines.length) {
      const line = lines[pos]!;
      if (line.indent !== indent || !isItem(line.text)) {
        if (line.indent > indent) throw new Unsupported();
        break;
      }
      const rest = line.text === '-' ? '' : line.text.slice(2);
      const restTrim = rest.trimStart();
      if (!restTrim) {
        pos++;
        items.push(valueAfter('', line, indent, false));
      } else if (!isFlow(restTrim) && (isItem(restTrim) || splitKey(restTrim))) {
        // An inline block: re-read the rest of the line as a line of its own, further indented.
        lines[pos] = { indent: indent + 2 + (rest.length - restTrim.length), text: restTrim, no: line.no };
        items.push(block(lines[pos]!.indent));
      } else {
        pos++;
        items.push(valueAfter(restTrim, line, indent, false));
      }
    }
    return plain ? items : { kind: 'seq', items, line: start, endLine: lastLine() };
  };

  if (!lines.length) return null;
  const root = block(lines[0]!.indent);
  if (pos < lines.length) throw new Unsupported();
  return root;
}

function libraryDocument(text: string, file: string): { doc: Document; counter: LineCounter } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length) {
    const first = doc.errors[0]!;
    const at = first.linePos?.[0]?.line ?? counter.linePos(first.pos[0]).line;
    throw new ExtractError(`${file} 不是有效的 YAML（第 ${at} 行）：${first.message.split('\n')[0]}`);
  }
  return { doc, counter };
}

function nodesFromLibrary(text: string, file: string): YNode | null {
  const { doc, counter } = libraryDocument(text, file);
  const lineOf = (offset: number) => counter.linePos(offset).line;
  const endOf = (node: Node): number => {
    const [start, end] = [node.range![0], node.range![1]];
    let e = end;
    while (e > start && /\s/.test(text[e - 1]!)) e--;
    return lineOf(Math.max(start, e - 1));
  };
  let budget = 1_000_000;
  const convert = (node: unknown, depth: number): YNode => {
    if (--budget < 0 || depth > 200) throw new ExtractError(`${file} 的 YAML 结构过大或嵌套过深`);
    const n = node as Node | null;
    const line = n?.range ? lineOf(n.range[0]) : 1;
    const endLine = n?.range ? endOf(n) : line;
    if (isMap(n)) {
      return {
        kind: 'map', line, endLine,
        entries: n.items.map((pair) => {
          const k = pair.key as Node | null;
          const key = isScalar(k) ? String(k.value ?? '') : String(k ?? '');
          return { key, value: convert(pair.value, depth + 1), line: k?.range ? lineOf(k.range[0]) : line };
        }),
      };
    }
    if (isSeq(n)) return { kind: 'seq', items: n.items.map((i) => convert(i, depth + 1)), line, endLine };
    if (isScalar(n)) return { kind: 'scalar', value: n.value === null || n.value === undefined ? null : typeof n.value === 'object' ? JSON.stringify(n.value) : String(n.value), line, endLine };
    return { kind: 'scalar', value: null, line, endLine };
  };
  return doc.contents === null ? null : convert(doc.contents, 0);
}

function valuesFromLibrary(text: string, file: string): unknown {
  return libraryDocument(text, file).doc.toJS({ maxAliasCount: 100 });
}

function parse<T>(text: string, file: string, plain: boolean, fromLibrary: (text: string, file: string) => T): T {
  try {
    return fastParse(text, file, plain) as T;
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  try {
    return fromLibrary(text, file);
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    throw new ExtractError(`${file} 不是有效的 YAML：${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

/** Parses a YAML lockfile into a line-annotated tree; null for an empty document. */
export function parseLockYaml(text: string, file: string): YNode | null {
  return parse(text, file, false, nodesFromLibrary);
}

/** Parses a YAML lockfile into plain values (numbers stay text); null for an empty document. */
export function parseYamlValues(text: string, file: string): unknown {
  return parse(text, file, true, valuesFromLibrary);
}
