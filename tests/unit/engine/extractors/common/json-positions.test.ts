import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../../server/engine/model.ts';
import {
  JsonSyntaxError, parseJsonFile, parseJsonValues, parseJsonValuesWithLines, parseJsonWithLines,
} from '../../../../../server/engine/extractors/common/json-positions.ts';
import type { JsonNode } from '../../../../../server/engine/extractors/common/json-positions.ts';

/** A JsonNode tree back to plain values. */
const plainOf = (node: JsonNode): unknown =>
  node.kind === 'object' ? Object.fromEntries([...node.entries].map(([k, v]) => [k, plainOf(v)]))
    : node.kind === 'array' ? node.items.map(plainOf)
      : node.kind === 'null' ? null : node.value;

const lineOf = (fn: () => unknown): number | undefined => {
  try { fn(); } catch (error) { return error instanceof JsonSyntaxError ? error.line : undefined; }
  return undefined;
};

describe('JSON with line numbers: JsonNode tree', () => {
  it('agrees with JSON.parse on values', () => {
    const node = parseJsonWithLines('{"a": [1, -2.5e3, true, false, null, "x\\u0041\\n"], "b": {}}');
    expect(node.kind).toBe('object');
    const a = node.kind === 'object' ? node.entries.get('a') : undefined;
    expect(a?.kind === 'array' ? a.items.map((i) => ('value' in i ? i.value : null)) : []).toEqual([1, -2500, true, false, null, 'xA\n']);
  });

  it('gives every value its lines', () => {
    const node = parseJsonWithLines('{\n "a": [\n  "x",\n  {"y": 1}\n ]\n}');
    expect([node.startLine, node.endLine]).toEqual([1, 6]);
    const a = node.kind === 'object' ? node.entries.get('a')! : undefined;
    expect([a?.startLine, a?.endLine]).toEqual([2, 5]);
    expect(a?.kind === 'array' ? a.items.map((i) => [i.startLine, i.endLine]) : []).toEqual([[3, 3], [4, 4]]);
  });

  it('refuses hostile nesting instead of overflowing the stack', () => {
    expect(() => parseJsonWithLines('['.repeat(10_000))).toThrow(/嵌套/);
  });
});

describe('JSON with line numbers: plain values and spans', () => {
  it('gives the same values as the tree and as JSON.parse', () => {
    const text = JSON.stringify({ a: [1, { b: 'c\u00e9"\\', d: null }], e: { f: [true, false, -0.5e-3] }, g: '' }, null, 2);
    expect(parseJsonValuesWithLines(text).value).toEqual(JSON.parse(text));
    expect(plainOf(parseJsonWithLines(text))).toEqual(JSON.parse(text));
  });

  it('records the span of every object and array', () => {
    const { value, spans } = parseJsonValuesWithLines('{\n "a": [1,\n 2],\n "b": {\n "c": {}\n }\n}');
    const v = value as { a: unknown[]; b: { c: object } };
    expect(spans.get(v as object)).toEqual({ startLine: 1, endLine: 7 });
    expect(spans.get(v.a)).toEqual({ startLine: 2, endLine: 3 });
    expect(spans.get(v.b)).toEqual({ startLine: 4, endLine: 6 });
    expect(spans.get(v.b.c)).toEqual({ startLine: 5, endLine: 5 });
  });

  it('spans of array elements ignore braces inside strings and nested arrays', () => {
    const text = '{\n "other": [{"x": 1}],\n "packages": [\n  {"name": "a}{", "n": [{"y": "]"}]},\n  {\n   "name": "b"\n  }\n ]\n}';
    const { value, spans } = parseJsonValuesWithLines(text);
    expect((value as { packages: object[] }).packages.map((p) => spans.get(p))).toEqual([{ startLine: 4, endLine: 4 }, { startLine: 5, endLine: 7 }]);
    const root = parseJsonValuesWithLines('[\n{"a": "\\"{"},\n{}\n]');
    expect((root.value as object[]).map((p) => root.spans.get(p))).toEqual([{ startLine: 2, endLine: 2 }, { startLine: 3, endLine: 3 }]);
  });

  it('keeps a __proto__ key as an own property', () => {
    const { value } = parseJsonValuesWithLines('{"__proto__": {"polluted": true}}');
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe('JSONC (bun.lock)', () => {
  it('records lines and handles escapes, line and block comments, trailing commas', () => {
    const { value, spans } = parseJsonValuesWithLines('/* c\n */ {"a": [1,\n 2,], // x\n "b": "x\\"\\u0041",}', { jsonc: true });
    expect(value).toEqual({ a: [1, 2], b: 'x"A' });
    expect(spans.get((value as { a: object }).a)).toEqual({ startLine: 2, endLine: 3 });
    const node = parseJsonWithLines('// head\n{"a": [1,],}', { jsonc: true });
    expect(plainOf(node)).toEqual({ a: [1] });
    expect(node.startLine).toBe(2);
  });

  it('strict JSON refuses comments and trailing commas', () => {
    for (const bad of ['{"a": 1,}', '[1,]', '// x\n{}', '/* x */ {}']) {
      expect(() => parseJsonValuesWithLines(bad), bad).toThrow(JsonSyntaxError);
      expect(() => parseJsonWithLines(bad), bad).toThrow(JsonSyntaxError);
    }
    expect(() => parseJsonValuesWithLines('{,}', { jsonc: true })).toThrow(JsonSyntaxError);
    expect(() => parseJsonValuesWithLines('{} /* open', { jsonc: true })).toThrow(/注释没有结束/);
  });
});

describe('JSON syntax errors', () => {
  it('carry the line', () => {
    expect(lineOf(() => parseJsonValuesWithLines('{\n "a": 1\n "b": 2\n}'))).toBe(3);
    expect(lineOf(() => parseJsonWithLines('{\n "pins": [\n  oops\n ]\n}'))).toBe(3);
    expect(lineOf(() => parseJsonValuesWithLines('{\n "a": "x\n"}'))).toBe(2);
    expect(() => parseJsonValuesWithLines('"abc')).toThrow(/字符串没有结束/);
    expect(() => parseJsonValuesWithLines('{"a": "\\u12"}')).toThrow(/转义/);
    expect(() => parseJsonValuesWithLines('{} x')).toThrow(/多余/);
    expect(() => parseJsonValuesWithLines('')).toThrow(/意外结束/);
    expect(() => parseJsonValuesWithLines('01')).toThrow(JsonSyntaxError);
  });

  it('become the user\'s ExtractError with file and line', () => {
    expect(() => parseJsonFile('{\n "a": tru}', 'x.json')).toThrow(ExtractError);
    expect(() => parseJsonFile('{\n "a": tru}', 'x.json')).toThrow('x.json 不是有效的 JSON（第 2 行');
    expect(() => parseJsonValues('{\n "a": tru}', 'y.lock')).toThrow('y.lock 不是有效的 JSON（第 2 行');
    expect(() => parseJsonValues('['.repeat(200_000), 'bun.lock', { jsonc: true })).toThrow('bun.lock 不是有效的 JSON（第 1 行嵌套层级过深）');
  });
});
