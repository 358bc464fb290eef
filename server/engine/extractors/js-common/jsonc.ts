// A JSON reader that also remembers where each object and array starts and ends (1-based lines),
// so lockfile entries can carry their location. Tolerates what bun.lock uses on top of JSON:
// `//` and `/* */` comments and trailing commas. Linear in the input; no recursion limit issues
// for lockfile depths (objects nest a handful of levels).
import { ExtractError } from '../../model.ts';

export interface Span { startLine: number; endLine: number }

export interface ParsedJson {
  value: unknown;
  /** Line span of every object and array in `value`. */
  spans: WeakMap<object, Span>;
}

export function parseJsonWithLines(text: string, file: string): ParsedJson {
  const spans = new WeakMap<object, Span>();
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;

  const fail = (what: string): never => {
    throw new ExtractError(`${file} 不是有效的 JSON：第 ${line} 行${what}`);
  };

  const skip = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 10) { line++; i++; } else if (c === 32 || c === 9 || c === 13) i++;
      else if (c === 47 && text.charCodeAt(i + 1) === 47) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? n : end;
      } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('注释没有结束');
        for (let k = i; k < end; k++) if (text.charCodeAt(k) === 10) line++;
        i = end + 2;
      } else break;
    }
  };

  const str = (): string => {
    const start = ++i;
    let escaped: boolean;
    for (;;) {
      const q = text.indexOf('"', i);
      if (q < 0) return fail('字符串没有结束');
      let back = 0;
      for (let k = q - 1; k >= start && text.charCodeAt(k) === 92; k--) back++;
      if (back % 2 === 0) {
        const raw = text.slice(start, q);
        escaped = raw.includes('\\');
        if (raw.includes('\n')) fail('字符串中含有换行');
        i = q + 1;
        if (!escaped) return raw;
        try {
          return JSON.parse(`"${raw}"`) as string;
        } catch {
          return fail('字符串转义无效');
        }
      }
      i = q + 1;
    }
  };

  const value = (): unknown => {
    skip();
    if (i >= n) fail('意外结束');
    const c = text.charCodeAt(i);
    if (c === 123) {
      const obj: Record<string, unknown> = {};
      const startLine = line;
      i++;
      for (;;) {
        skip();
        if (text.charCodeAt(i) === 125) { i++; break; }
        if (text.charCodeAt(i) !== 34) fail('应为属性名');
        const key = str();
        skip();
        if (text.charCodeAt(i) !== 58) fail('应为冒号');
        i++;
        const v = value();
        if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        else obj[key] = v;
        skip();
        const d = text.charCodeAt(i);
        if (d === 44) { i++; continue; }
        if (d === 125) { i++; break; }
        fail('应为逗号或右花括号');
      }
      spans.set(obj, { startLine, endLine: line });
      return obj;
    }
    if (c === 91) {
      const arr: unknown[] = [];
      const startLine = line;
      i++;
      for (;;) {
        skip();
        if (text.charCodeAt(i) === 93) { i++; break; }
        arr.push(value());
        skip();
        const d = text.charCodeAt(i);
        if (d === 44) { i++; continue; }
        if (d === 93) { i++; break; }
        fail('应为逗号或右方括号');
      }
      spans.set(arr, { startLine, endLine: line });
      return arr;
    }
    if (c === 34) return str();
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) return fail('含有无法识别的内容');
    i += m[0].length;
    return m[0] === 'true' ? true : m[0] === 'false' ? false : m[0] === 'null' ? null : Number(m[0]);
  };

  let result: unknown;
  try {
    result = value();
  } catch (error) {
    if (error instanceof RangeError) throw new ExtractError(`${file} 不是有效的 JSON：嵌套层级过深`);
    throw error;
  }
  skip();
  if (i < n) fail('之后还有多余的内容');
  return { value: result, spans };
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object field that is itself an object of strings (dependencies maps), else {}. */
export function stringMap(v: unknown): Record<string, string> {
  if (!isObject(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}
