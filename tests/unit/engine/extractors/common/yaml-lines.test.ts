import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ExtractError } from '../../../../../server/engine/model.ts';
import { parseLockYaml, parseYamlValues, yget, ytext } from '../../../../../server/engine/extractors/common/yaml-lines.ts';
import type { YNode } from '../../../../../server/engine/extractors/common/yaml-lines.ts';

/** Numbers as text, the way the fast reader keeps them. */
const strings = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(strings) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strings(x)])) : typeof v === 'number' ? String(v) : v;

/** A YNode tree as plain values (all scalars text). */
const plainOf = (n: YNode | null): unknown =>
  n === null ? null : n.kind === 'map' ? Object.fromEntries(n.entries.map((e) => [e.key, plainOf(e.value)])) : n.kind === 'seq' ? n.items.map(plainOf) : n.value;
const text = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(text) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, text(x)])) : v === null ? null : String(v);

const SAMPLES = [
  "a:\n  'it''s': \"x\\ty\"\n  f: {b: [1, 'c, d'], e: {}}\n  s:\n    - one\n    - 'two'\nb: &x 1\nc: *x\n",
  'a:\n  x: 1\nb:\n  - k: v\n',
  "lockfileVersion: '9.0'\npackages:\n  '@a/b@1.0.0':\n    resolution: {integrity: sha512-x, tarball: 'https://x/y.tgz'}\n    engines: {node: '>=14'}\n    cpu: [arm64, x64]\n    os: []\n    dev: true\n    optional: 'false'\n",
  '---\n__metadata:\n  version: 6\n"a@npm:^1.0.0, a@npm:^1.1.0":\n  version: 1.2.0\n  resolution: "a@npm:1.2.0"\n  dependencies:\n    b: "npm:^2"\n  languageName: node\n',
  'x: [a, {b: c}, [d]]\ny: \'- z\'\n',
  'list:\n- a\n- b: 1\n  c: 2\n-\n  - d\nk: ~\nn: null\ne:\n',
  'a: b # comment\n"c": "d # not a comment"\nf: \'g #h\'\n',
  'a:\n  - {x: 1, y: 2}\n  - [3, 4]\n',
];

describe('YAML lockfile reader: plain values', () => {
  it.each(SAMPLES.map((s) => [s]))('agrees with the yaml library on %j', (sample) => {
    expect(strings(parseYamlValues(sample, 'x'))).toEqual(strings(parseYaml(sample)));
  });

  it('reads one-line flow collections, quotes and booleans', () => {
    expect(parseYamlValues("a: {integrity: sha512-x, n: 'it''s'}\nb: [darwin, \"li nux\"]\nc: true\nd: 'true'\ne: 6.0\n", 'x')).toEqual({
      a: { integrity: 'sha512-x', n: "it's" }, b: ['darwin', 'li nux'], c: true, d: 'true', e: '6.0',
    });
  });

  it('keeps __proto__ a plain key', () => {
    const v = parseYamlValues('__proto__:\n  polluted: yes\n', 'x') as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('an empty document is null', () => {
    expect(parseYamlValues('', 'x')).toBeNull();
    expect(parseYamlValues('# only a comment\n', 'x')).toBeNull();
  });

  it('invalid YAML and alias bombs become an ExtractError', () => {
    expect(() => parseYamlValues('a:\n  b: [1\n', 'f.yaml')).toThrow(ExtractError);
    expect(() => parseYamlValues('a:\n  b: [1\n', 'f.yaml')).toThrow(/^f\.yaml 不是有效的 YAML/);
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let k = 0; k < 12; k++) {
      const p = String.fromCharCode(97 + k);
      bomb.push(`${String.fromCharCode(98 + k)}: &${String.fromCharCode(98 + k)} [${Array(9).fill(`*${p}`).join(',')}]`);
    }
    expect(() => parseYamlValues(bomb.join('\n'), 'f.yaml')).toThrow(ExtractError);
  });
});

describe('YAML lockfile reader: line-annotated tree', () => {
  // (the tree does not resolve aliases: the first sample's `*x` is left out)
  it.each(SAMPLES.slice(1).map((s) => [s]))('agrees with the yaml library on %j', (sample) => {
    expect(plainOf(parseLockYaml(sample, 'x'))).toEqual(text(parseYaml(sample)));
  });

  it('gives entries and nodes their lines, flow collections included', () => {
    const root = parseLockYaml('# head\na:\n  b: {c: [d, e]}\n  f:\n    - g\n    - h: i\n      j: k\nl: m\n', 'x')!;
    expect([root.line, root.endLine]).toEqual([2, 8]);
    const a = yget(root, 'a')!;
    expect([a.line, a.endLine]).toEqual([3, 7]);
    const b = yget(a, 'b')!;
    expect(b.kind).toBe('map');
    expect([b.line, b.endLine]).toEqual([3, 3]);
    expect(ytext(yget(b, 'c')?.kind === 'seq' ? (yget(b, 'c') as { items: YNode[] }).items[1] : undefined)).toBe('e');
    const f = yget(a, 'f')!;
    expect(f.kind === 'seq' ? f.items.map((n) => [n.line, n.endLine]) : []).toEqual([[5, 5], [6, 7]]);
    expect(root.kind === 'map' ? root.entries.map((e) => [e.key, e.line]) : []).toEqual([['a', 2], ['l', 8]]);
  });

  it('reads flow collections itself (numbers keep their text, which the library would not)', () => {
    const root = parseLockYaml('a: {b: 6.0, c: [1.10]}\n', 'x');
    expect(plainOf(root)).toEqual({ a: { b: '6.0', c: ['1.10'] } });
  });

  it('reports the line of a YAML error', () => {
    expect(() => parseLockYaml('a: 1\nb:\n  c: [1\n', 'p.lock')).toThrow(/^p\.lock 不是有效的 YAML（第 \d 行）/);
  });

  it('an empty document is null', () => {
    expect(parseLockYaml('\n# x\n', 'x')).toBeNull();
  });
});
