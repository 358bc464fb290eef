import { describe, expect, it } from 'vitest';
import { jsonPieces } from '../../../../server/engine/output/write-json.ts';

const whole = (value: object) => [...jsonPieces(value)].join('');

describe('分段写出的 JSON 文档', () => {
  it('与 JSON.stringify(value, null, 2) 逐字节相同', () => {
    const documents: object[] = [
      {},
      [],
      { a: [], b: {}, c: [[]], d: [{}], e: null, f: 0, g: '' },
      // Left out of objects, null in arrays, as JSON.stringify does.
      { gone: undefined, fn: () => 1, sym: Symbol('x'), list: [undefined, () => 1, Symbol('y'), 1] },
      { at: new Date(0), nested: { at: new Date(0), deeper: { list: [new Date(0)] } } },
      { text: 'line\nbreak "quoted" \\ tab\t 中文 \u2028 end', 'key\nwith "quotes"': 1 },
      {
        tool: { name: 'Cairn', version: '1.0' },
        components: [
          { purl: 'pkg:npm/a@1', locations: [{ file: 'package-lock.json', startLine: 3, endLine: 9 }], licenses: ['MIT'], dependsOn: [] },
          { purl: 'pkg:npm/b@2', locations: [], licenses: [], dependsOn: ['pkg:npm/a@1'], nested: { deep: [[1, [2, { x: [] }]]] } },
        ],
        problems: [],
      },
      [1, 'two', { three: [3] }, [[4]]],
    ];
    for (const doc of documents) expect(whole(doc)).toBe(JSON.stringify(doc, null, 2));
  });
});
