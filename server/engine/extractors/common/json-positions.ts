// The one JSON reader of the extractors: it remembers where values start and end (1-based
// lines), so extractors of JSON lockfiles (package-lock.json, bun.lock, composer.lock,
// Package.resolved, conan.lock) can report locations. Two shapes of result from the same pass:
// a tree of JsonNodes (every value with its lines; Package.resolved, conan.lock), or plain
// JavaScript values plus the line span of every object and array (big lockfiles walked as
// records: npm, bun, composer). Optionally tolerant of what bun.lock adds on top of JSON (`//`
// and `/* */` comments, trailing commas). Linear in the input, strings are scanned with
// indexOf; recursion has a hard depth limit, so hostile input cannot blow the stack; any
// syntax error throws a JsonSyntaxError carrying the line.
import { ExtractError } from '../../model.ts';

export interface JsonSpan { startLine: number; endLine: number }

export type JsonNode =
  | ({ kind: 'object'; entries: Map<string, JsonNode> } & JsonSpan)
  | ({ kind: 'array'; items: JsonNode[] } & JsonSpan)
  | ({ kind: 'string'; value: string } & JsonSpan)
  | ({ kind: 'number'; value: number } & JsonSpan)
  | ({ kind: 'boolean'; value: boolean } & JsonSpan)
  | ({ kind: 'null' } & JsonSpan);

export interface JsonOptions {
  /** Accept `//` and `/* *\/` comments and trailing commas (bun.lock). */
  jsonc?: boolean;
}

/**
 * Plain values only: each member of the object at the top-level key `of` (package-lock.json's
 * `packages`) is handed to `revive` as soon as it is parsed, with its span, and what `revive`
 * answers takes its place. A huge lockfile's records so become the reader's own small ones one at
 * a time: the parsed record is garbage at once instead of all of them living until the walk.
 */
export interface JsonRevive {
  of: string;
  revive(key: string, value: unknown, span: JsonSpan | undefined): unknown;
}

/** Plain JavaScript values with the line span of every object and array in them. */
export interface JsonValues {
  value: unknown;
  spans: WeakMap<object, JsonSpan>;
}

export class JsonSyntaxError extends Error {
  line: number;
  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

const MAX_DEPTH = 256;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/** The single pass behind both result shapes: JsonNodes when `spans` is undefined, else plain
 *  values with the spans of their objects and arrays recorded in `spans`. */
function read(text: string, options: JsonOptions, spans: WeakMap<object, JsonSpan> | undefined, revive?: JsonRevive): unknown {
  const n = text.length;
  const jsonc = options.jsonc === true;
  const plain = spans !== undefined;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;

  const fail = (what: string): never => { throw new JsonSyntaxError(what, line); };

  const skipWs = () => {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 10) { line++; pos++; } else if (c === 32 || c === 9 || c === 13) pos++;
      else if (c === 47 && jsonc && text.charCodeAt(pos + 1) === 47) {
        const end = text.indexOf('\n', pos);
        pos = end < 0 ? n : end;
      } else if (c === 47 && jsonc && text.charCodeAt(pos + 1) === 42) {
        const end = text.indexOf('*/', pos + 2);
        if (end < 0) fail('注释没有结束');
        for (let k = pos; k < end; k++) if (text.charCodeAt(k) === 10) line++;
        pos = end + 2;
      } else return;
    }
  };

  const parseString = (): string => {
    // pos is on the opening quote
    const start = ++pos;
    for (;;) {
      const q = text.indexOf('"', pos);
      if (q < 0) return fail(text.includes('\n', start) ? '字符串中出现换行' : '字符串没有结束');
      let back = 0;
      for (let k = q - 1; k >= start && text.charCodeAt(k) === 92; k--) back++;
      if (back % 2 === 0) {
        const raw = text.slice(start, q);
        if (raw.includes('\n')) fail('字符串中出现换行');
        pos = q + 1;
        if (!raw.includes('\\')) return raw;
        try {
          return JSON.parse(`"${raw}"`) as string;
        } catch {
          return fail('字符串转义无效');
        }
      }
      pos = q + 1;
    }
  };

  /**
   * `within`: 'revive' when this value is the object whose members `revive` replaces, 'revived'
   * inside one of those members: nobody asks for the spans of what revive reads, so none are kept.
   */
  const parseValue = (depth: number, within?: 'revive' | 'revived'): unknown => {
    if (depth > MAX_DEPTH) fail('嵌套层级过深');
    skipWs();
    const startLine = line;
    const c = text.charCodeAt(pos);
    if (c === 123) { // {
      pos++;
      // What revive reads is thrown away at once: as dictionaries (no prototype, so V8 keeps them in
      // dictionary mode) they cost no hidden class per new key order, which V8 would keep in the old
      // generation (a huge lockfile's dependency maps, each a new order of package names).
      const obj: Record<string, unknown> | undefined = !plain ? undefined : within === 'revived' ? Object.create(null) as Record<string, unknown> : {};
      const entries = plain ? undefined : new Map<string, JsonNode>();
      for (let first = true; ; first = false) {
        skipWs();
        if (text.charCodeAt(pos) === 125 && (first || jsonc)) break;
        if (text.charCodeAt(pos) !== 34) fail('对象的键应为字符串');
        const key = parseString();
        skipWs();
        if (text.charCodeAt(pos) !== 58) fail('对象的键后缺少冒号');
        pos++;
        let v: unknown;
        if (within === 'revive') {
          skipWs();
          const memberStart = line;
          v = parseValue(depth + 1, 'revived');
          v = revive!.revive(key, v, typeof v === 'object' && v !== null ? { startLine: memberStart, endLine: line } : undefined);
        } else {
          v = parseValue(depth + 1, within === 'revived' ? 'revived' : depth === 0 && revive?.of === key ? 'revive' : undefined);
        }
        if (entries) entries.set(key, v as JsonNode);
        else if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        else obj![key] = v;
        skipWs();
        const d = text.charCodeAt(pos);
        if (d === 44) { pos++; continue; }
        if (d === 125) break;
        fail('对象中缺少逗号或右花括号');
      }
      pos++;
      if (obj) {
        if (within !== 'revived') spans!.set(obj, { startLine, endLine: line });
        return obj;
      }
      return { kind: 'object', entries: entries!, startLine, endLine: line };
    }
    if (c === 91) { // [
      pos++;
      const items: unknown[] = [];
      for (let first = true; ; first = false) {
        skipWs();
        if (text.charCodeAt(pos) === 93 && (first || jsonc)) break;
        items.push(parseValue(depth + 1, within === 'revived' ? 'revived' : undefined));
        skipWs();
        const d = text.charCodeAt(pos);
        if (d === 44) { pos++; continue; }
        if (d === 93) break;
        fail('数组中缺少逗号或右方括号');
      }
      pos++;
      if (plain) {
        if (within !== 'revived') spans.set(items, { startLine, endLine: line });
        return items;
      }
      return { kind: 'array', items: items as JsonNode[], startLine, endLine: line };
    }
    if (c === 34) { // "
      const value = parseString();
      return plain ? value : { kind: 'string', value, startLine, endLine: line };
    }
    if (text.startsWith('true', pos)) { pos += 4; return plain ? true : { kind: 'boolean', value: true, startLine, endLine: line }; }
    if (text.startsWith('false', pos)) { pos += 5; return plain ? false : { kind: 'boolean', value: false, startLine, endLine: line }; }
    if (text.startsWith('null', pos)) { pos += 4; return plain ? null : { kind: 'null', startLine, endLine: line }; }
    const m = NUMBER.exec(text.slice(pos, pos + 64));
    if (m) {
      pos += m[0].length;
      const value = Number(m[0]);
      return plain ? value : { kind: 'number', value, startLine, endLine: line };
    }
    return fail(pos >= n ? '内容意外结束' : `无法识别的字符 “${text[pos]}”`);
  };

  const root = parseValue(0);
  skipWs();
  if (pos < n) fail('JSON 之后还有多余内容');
  return root;
}

/** Parses JSON into a tree of JsonNodes; throws a JsonSyntaxError. */
export function parseJsonWithLines(text: string, options: JsonOptions = {}): JsonNode {
  return read(text, options, undefined) as JsonNode;
}

/** Parses JSON into plain values and the spans of their objects and arrays; throws a JsonSyntaxError. */
export function parseJsonValuesWithLines(text: string, options: JsonOptions = {}, revive?: JsonRevive): JsonValues {
  const spans = new WeakMap<object, JsonSpan>();
  return { value: read(text, options, spans, revive), spans };
}

/** Member of an object node, when the node is an object. */
export function member(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return node?.kind === 'object' ? node.entries.get(key) : undefined;
}

/** String value of a node, when it is a string. */
export function str(node: JsonNode | undefined): string | undefined {
  return node?.kind === 'string' ? node.value : undefined;
}

/** "第 N 行<reason>" of a parse error, for a user's message. */
export function jsonErrorDetail(error: unknown): string {
  const line = error instanceof JsonSyntaxError ? `第 ${error.line} 行` : '';
  return `${line}${error instanceof Error ? error.message : String(error)}`;
}

function orExtractError<T>(file: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ExtractError(`${file} 不是有效的 JSON（${jsonErrorDetail(error)}）`);
  }
}

/** Parses a whole manifest into JsonNodes, turning a syntax error into the user's ExtractError (with the line). */
export function parseJsonFile(text: string, file: string, options: JsonOptions = {}): JsonNode {
  return orExtractError(file, () => parseJsonWithLines(text, options));
}

/** Parses a whole lockfile into plain values and spans, turning a syntax error into the user's ExtractError. */
export function parseJsonValues(text: string, file: string, options: JsonOptions = {}, revive?: JsonRevive): JsonValues {
  return orExtractError(file, () => parseJsonValuesWithLines(text, options, revive));
}
