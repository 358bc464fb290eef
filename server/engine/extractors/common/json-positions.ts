// A small JSON parser that remembers where every value starts and ends (1-based lines), so
// extractors of JSON lockfiles (Package.resolved, conan.lock) can report locations. Iterative
// on containers' depth only through recursion with a hard limit, so hostile input cannot blow
// the stack; any syntax error throws a JsonSyntaxError carrying the line.
import { ExtractError } from '../../model.ts';

export interface JsonSpan { startLine: number; endLine: number }

export type JsonNode =
  | ({ kind: 'object'; entries: Map<string, JsonNode> } & JsonSpan)
  | ({ kind: 'array'; items: JsonNode[] } & JsonSpan)
  | ({ kind: 'string'; value: string } & JsonSpan)
  | ({ kind: 'number'; value: number } & JsonSpan)
  | ({ kind: 'boolean'; value: boolean } & JsonSpan)
  | ({ kind: 'null' } & JsonSpan);

export class JsonSyntaxError extends Error {
  line: number;
  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

const MAX_DEPTH = 256;

export function parseJsonWithLines(text: string): JsonNode {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;

  const fail = (what: string): never => { throw new JsonSyntaxError(what, line); };

  const skipWs = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 10) { line++; pos++; } else if (c === 32 || c === 9 || c === 13) pos++;
      else return;
    }
  };

  const parseString = (): string => {
    // pos is on the opening quote
    const start = ++pos;
    let simple = true;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (Number.isNaN(c)) fail('字符串没有结束');
      if (c === 34) break;
      if (c === 92) { simple = false; pos += 2; continue; }
      if (c === 10) fail('字符串中出现换行');
      pos++;
    }
    const raw = text.slice(start, pos);
    pos++;
    if (simple) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return fail('字符串转义无效');
    }
  };

  const parseValue = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail('嵌套层级过深');
    skipWs();
    const startLine = line;
    const c = text[pos];
    if (c === '{') {
      pos++;
      const entries = new Map<string, JsonNode>();
      skipWs();
      if (text[pos] === '}') { pos++; return { kind: 'object', entries, startLine, endLine: line }; }
      for (;;) {
        skipWs();
        if (text[pos] !== '"') fail('对象的键应为字符串');
        const key = parseString();
        skipWs();
        if (text[pos] !== ':') fail('对象的键后缺少冒号');
        pos++;
        entries.set(key, parseValue(depth + 1));
        skipWs();
        if (text[pos] === ',') { pos++; continue; }
        if (text[pos] === '}') { pos++; return { kind: 'object', entries, startLine, endLine: line }; }
        fail('对象中缺少逗号或右花括号');
      }
    }
    if (c === '[') {
      pos++;
      const items: JsonNode[] = [];
      skipWs();
      if (text[pos] === ']') { pos++; return { kind: 'array', items, startLine, endLine: line }; }
      for (;;) {
        items.push(parseValue(depth + 1));
        skipWs();
        if (text[pos] === ',') { pos++; continue; }
        if (text[pos] === ']') { pos++; return { kind: 'array', items, startLine, endLine: line }; }
        fail('数组中缺少逗号或右方括号');
      }
    }
    if (c === '"') return { kind: 'string', value: parseString(), startLine, endLine: line };
    if (text.startsWith('true', pos)) { pos += 4; return { kind: 'boolean', value: true, startLine, endLine: line }; }
    if (text.startsWith('false', pos)) { pos += 5; return { kind: 'boolean', value: false, startLine, endLine: line }; }
    if (text.startsWith('null', pos)) { pos += 4; return { kind: 'null', startLine, endLine: line }; }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(pos, pos + 64));
    if (m) { pos += m[0].length; return { kind: 'number', value: Number(m[0]), startLine, endLine: line }; }
    return fail(pos >= text.length ? '内容意外结束' : `无法识别的字符 “${text[pos]}”`);
  };

  const root = parseValue(0);
  skipWs();
  if (pos < text.length) fail('JSON 之后还有多余内容');
  return root;
}

/** Member of an object node, when the node is an object. */
export function member(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return node?.kind === 'object' ? node.entries.get(key) : undefined;
}

/** String value of a node, when it is a string. */
export function str(node: JsonNode | undefined): string | undefined {
  return node?.kind === 'string' ? node.value : undefined;
}

/** Parses a whole manifest, turning a syntax error into the user's ExtractError (with the line). */
export function parseJsonFile(text: string, file: string): JsonNode {
  try {
    return parseJsonWithLines(text);
  } catch (error) {
    const line = error instanceof JsonSyntaxError ? `第 ${error.line} 行` : '';
    throw new ExtractError(`${file} 不是有效的 JSON（${line}${error instanceof Error ? error.message : String(error)}）`);
  }
}
