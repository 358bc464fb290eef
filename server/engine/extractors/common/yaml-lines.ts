// YAML for lockfile extractors (pubspec.lock, Podfile.lock, environment.yml), with 1-based lines.
// Lockfiles are machine-written block YAML, and the general `yaml` library takes seconds on a
// 5,000-package lockfile, so a small block-YAML reader handles the common subset (block maps and
// sequences, plain and quoted scalars, comments, empty flow collections) in one pass; anything
// else (anchors, tags, block scalars, flow collections, multi-line scalars) falls back to the
// `yaml` library. Parse errors become an ExtractError in Chinese.
import type { Node } from 'yaml';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
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

function scalar(raw: string): string | null {
  const s = raw.trim();
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  const c = s[0]!;
  if (c === '"') {
    if (s.length < 2 || !s.endsWith('"') || s.endsWith('\\"')) throw new Unsupported();
    const body = s.slice(1, -1);
    if (!body.includes('\\')) return body;
    try { return JSON.parse(s) as string; } catch { throw new Unsupported(); }
  }
  if (c === "'") {
    if (s.length < 2 || !s.endsWith("'")) throw new Unsupported();
    return s.slice(1, -1).replace(/''/g, "'");
  }
  if ('&*!|>%@`{['.includes(c)) throw new Unsupported();
  return s;
}

/** Splits `key: value` / `key:`; undefined when the text is not a mapping entry. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  const c = text[0];
  if (c === '"' || c === "'") {
    let i = 1;
    for (; i < text.length; i++) {
      if (text[i] === '\\' && c === '"') { i++; continue; }
      if (text[i] === c) {
        if (c === "'" && text[i + 1] === "'") { i++; continue; }
        break;
      }
    }
    const after = text.slice(i + 1);
    if (!(after.startsWith(':') && (after.length === 1 || after[1] === ' '))) return undefined;
    return { key: scalar(text.slice(0, i + 1)) ?? '', rest: after.slice(1).trim() };
  }
  if (c === '?' && (text.length === 1 || text[1] === ' ')) throw new Unsupported();
  // A plain key ends at the first `: ` (or a `:` closing the line); no regex, so no backtracking.
  const cut = text.indexOf(': ');
  if (cut >= 0) return { key: text.slice(0, cut).trim(), rest: text.slice(cut + 2).trim() };
  if (text.endsWith(':')) return { key: text.slice(0, -1).trim(), rest: '' };
  return undefined;
}

function fastParse(text: string, file: string): YNode | null {
  const lines: Line[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    let l = raw[i]!;
    if (l.endsWith('\r')) l = l.slice(0, -1);
    if (i === 0 && l.charCodeAt(0) === 0xfeff) l = l.slice(1);
    const body = l.trimStart();
    if (!body || body.startsWith('#')) continue;
    const indent = l.length - body.length;
    if (l.slice(0, indent).includes('\t')) throw new Unsupported();
    if (indent === 0 && (body.startsWith('---') || body.startsWith('...') || body.startsWith('%'))) throw new Unsupported();
    lines.push({ indent, text: stripComment(body), no: i + 1 });
  }
  let pos = 0;
  const isItem = (l: Line) => l.text === '-' || l.text.startsWith('- ');

  let depth = 0;
  const block = (indent: number): YNode => {
    if (++depth > 200) throw new ExtractError(`${file} 的 YAML 嵌套过深`);
    const first = lines[pos]!;
    const node = isItem(first) ? seq(indent) : map(indent);
    depth--;
    return node;
  };

  const valueAfter = (rest: string, line: Line, indent: number, allowSameIndentSeq: boolean): YNode => {
    if (rest) {
      if (rest === '{}') return { kind: 'map', entries: [], line: line.no, endLine: line.no };
      if (rest === '[]') return { kind: 'seq', items: [], line: line.no, endLine: line.no };
      const value = scalar(rest);
      const next = lines[pos];
      if (next && next.indent > indent) throw new Unsupported(); // multi-line scalar
      return { kind: 'scalar', value, line: line.no, endLine: line.no };
    }
    const next = lines[pos];
    if (next && next.indent > indent) return block(next.indent);
    if (next && allowSameIndentSeq && next.indent === indent && isItem(next)) return seq(indent);
    return { kind: 'scalar', value: null, line: line.no, endLine: line.no };
  };

  const map = (indent: number): YNode => {
    const start = lines[pos]!.no;
    const entries: Array<{ key: string; value: YNode; line: number }> = [];
    let endLine = start;
    while (pos < lines.length) {
      const line = lines[pos]!;
      if (line.indent < indent) break;
      if (line.indent > indent) throw new Unsupported();
      if (isItem(line)) break;
      const kv = splitKey(line.text);
      if (!kv) throw new Unsupported();
      pos++;
      const value = valueAfter(kv.rest, line, indent, true);
      entries.push({ key: kv.key, value, line: line.no });
      endLine = Math.max(line.no, value.endLine);
    }
    return { kind: 'map', entries, line: start, endLine };
  };

  const seq = (indent: number): YNode => {
    const start = lines[pos]!.no;
    const items: YNode[] = [];
    let endLine = start;
    while (pos < lines.length) {
      const line = lines[pos]!;
      if (line.indent !== indent || !isItem(line)) {
        if (line.indent > indent) throw new Unsupported();
        break;
      }
      const rest = line.text === '-' ? '' : line.text.slice(2);
      const restTrim = rest.trimStart();
      let item: YNode;
      if (!restTrim) {
        pos++;
        item = valueAfter('', line, indent, false);
      } else if (isItem({ ...line, text: restTrim }) || splitKey(restTrim)) {
        // An inline block: re-read the rest of the line as a line of its own, further indented.
        lines[pos] = { indent: indent + 2 + (rest.length - restTrim.length), text: restTrim, no: line.no };
        item = block(lines[pos]!.indent);
      } else {
        pos++;
        item = valueAfter(restTrim, line, indent, false);
      }
      items.push(item);
      endLine = Math.max(line.no, item.endLine);
    }
    return { kind: 'seq', items, line: start, endLine };
  };

  if (!lines.length) return null;
  const root = block(lines[0]!.indent);
  if (pos < lines.length) throw new Unsupported();
  return root;
}

function fromLibrary(text: string, file: string): YNode | null {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length) {
    const first = doc.errors[0]!;
    const at = first.linePos?.[0]?.line ?? counter.linePos(first.pos[0]).line;
    throw new ExtractError(`${file} 不是有效的 YAML（第 ${at} 行）：${first.message.split('\n')[0]}`);
  }
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

/** Parses a YAML lockfile into a line-annotated tree; null for an empty document. */
export function parseLockYaml(text: string, file: string): YNode | null {
  try {
    return fastParse(text, file);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
  }
  try {
    return fromLibrary(text, file);
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    throw new ExtractError(`${file} 不是有效的 YAML：${error instanceof Error ? error.message : String(error)}`);
  }
}
