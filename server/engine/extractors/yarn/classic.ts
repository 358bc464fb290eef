// Our parser for the classic (v1) yarn.lock format: indentation-nested blocks, one entry per
// comma-separated list of `name@range` patterns, `key value` fields, `"`-quoted strings.
import { ExtractError } from '../../model.ts';

export type ClassicValue = string | ClassicObject;
export interface ClassicObject { [key: string]: ClassicValue }

export interface ClassicEntry {
  patterns: string[];
  fields: ClassicObject;
  startLine: number;
  endLine: number;
}

function unquote(token: string, fail: (what: string) => never): string {
  if (!token.startsWith('"')) return token;
  try {
    return JSON.parse(token) as string;
  } catch {
    return fail('引号不匹配');
  }
}

/** Splits `a, "b c", d` on commas outside quotes. */
function splitPatterns(key: string, fail: (what: string) => never): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let k = 0; k < key.length; k++) {
    const c = key[k];
    if (c === '\\' && quoted) { cur += c + (key[k + 1] ?? ''); k++; continue; }
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) { out.push(cur.trim()); cur = ''; continue; }
    cur += c;
  }
  if (quoted) fail('引号不匹配');
  out.push(cur.trim());
  return out.filter(Boolean).map((p) => unquote(p, fail));
}

/** `key value` → [key, value]; the key may be quoted, the value may be quoted. */
function splitField(content: string, fail: (what: string) => never): [string, string | undefined] {
  let keyEnd: number;
  if (content.startsWith('"')) {
    let k = 1;
    while (k < content.length && content[k] !== '"') k += content[k] === '\\' ? 2 : 1;
    if (k >= content.length) fail('引号不匹配');
    keyEnd = k + 1;
  } else {
    keyEnd = content.search(/[\s:]/);
    if (keyEnd < 0) keyEnd = content.length;
  }
  const key = unquote(content.slice(0, keyEnd), fail);
  let rest = content.slice(keyEnd);
  if (rest.startsWith(':')) rest = rest.slice(1);
  rest = rest.trim();
  return [key, rest === '' ? undefined : unquote(rest, fail)];
}

class LineError extends Error {}

/**
 * Reads the entries. A malformed line costs only the entry it is in (up to the next top-level
 * line), told in `problems`; a file where no entry could be read at all is not a yarn.lock.
 */
export function parseClassic(text: string, file: string, problems: string[] = []): ClassicEntry[] {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n/);
  const entries: ClassicEntry[] = [];
  let lineNo = 0;
  const fail = (what: string): never => {
    throw new LineError(what);
  };
  let entry: ClassicEntry | undefined;
  // Objects open at each indentation level (index = indent / 2).
  let stack: ClassicObject[] = [];
  let pendingKey: string | undefined;
  let skipping = false; // inside an entry dropped for a malformed line
  const found: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    lineNo = k + 1;
    const raw = lines[k];
    if (!raw.trim() || raw.trimStart().startsWith('#')) continue;
    const top = raw[0] !== ' ' && raw[0] !== '\t';
    if (skipping && !top) continue;
    skipping = false;
    try {
      parseLine(raw);
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      const dropped = entry && top === false ? entry : undefined;
      if (dropped) entries.splice(entries.indexOf(dropped), 1);
      const what = dropped ? `条目“${dropped.patterns.join(', ')}”（第 ${dropped.startLine} 行起）` : top ? '该行及其下的字段' : '直到下一个条目的内容';
      found.push(`${file} 第 ${lineNo} 行：${error.message}，已跳过${what}`);
      entry = undefined;
      skipping = true;
    }
  }
  if (found.length && !entries.length) throw new ExtractError(`${file} 不是有效的 yarn.lock：${found[0]!.slice(file.length + 1).replace(/，已跳过.*$/, '')}`);
  problems.push(...found);
  return entries;

  function parseLine(raw: string): void {
    const indent = raw.length - raw.trimStart().length;
    const content = raw.trim();
    if (raw[indent - 1] === '\t' || indent % 2) fail('缩进不正确');
    const depth = indent / 2;
    if (depth === 0) {
      if (!content.endsWith(':')) fail('应为“名称@版本范围:”形式的条目');
      entry = { patterns: splitPatterns(content.slice(0, -1), fail), fields: {}, startLine: lineNo, endLine: lineNo };
      if (!entry.patterns.length) fail('条目没有名称');
      entries.push(entry);
      stack = [entry.fields];
      pendingKey = undefined;
      return;
    }
    if (!entry) fail('字段不属于任何条目');
    if (pendingKey !== undefined) {
      // The previous line opened an object: this line is inside it, or it was empty.
      const obj: ClassicObject = {};
      stack[stack.length - 1][pendingKey] = obj;
      if (depth === stack.length + 1) stack.push(obj);
      pendingKey = undefined;
    }
    if (depth > stack.length) fail('缩进过深');
    stack.length = depth;
    const [key, value] = splitField(content, fail);
    if (value === undefined) pendingKey = key;
    else stack[depth - 1][key] = value;
    entry!.endLine = lineNo;
  }
}

/** Name of a `name@range` pattern (scoped names keep their leading `@`). */
export function patternName(pattern: string): string {
  const at = pattern.indexOf('@', 1);
  return at < 0 ? pattern : pattern.slice(0, at);
}
