import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempScan } from '../../../support/temp-scan.ts';
import { extractFile } from './extractor.ts';
import type { Component, Target } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/bun/index.ts';


const { scan, scanMalformed } = useTempScan('cairn-bun-', extractors);

const byName = (t: Target) => new Map<string, Component>(t.components.map((c) => [`${c.name}@${c.version}`, c]));

const LOCK = `{
  // bun writes JSON with trailing commas
  "lockfileVersion": 1,
  "workspaces": {
    "": {
      "name": "mono",
      "dependencies": {
        "chalk": "^4",
      },
      "devDependencies": {
        "vitest": "^1",
      },
    },
    "packages/web": {
      "name": "web",
      "dependencies": {
        "chalk": "^5",
        "ui": "workspace:*",
      },
    },
  },
  "packages": {
    "chalk": ["chalk@4.1.2", "", { "dependencies": { "ansi-styles": "^4.1.0", "supports-color": "^7.1.0" } }, "sha512-a"],
    "ansi-styles": ["ansi-styles@4.3.0", "", {}, "sha512-b"],
    "supports-color": ["supports-color@7.2.0", "", { "dependencies": { "has-flag": "^4.0.0" } }, "sha512-c"],
    "has-flag": ["has-flag@4.0.0", "", {}, "sha512-d"],
    "vitest": ["vitest@1.6.0", "", { "dependencies": { "chalk": "^5" } }, "sha512-e"],
    "vitest/chalk": ["chalk@5.3.0", "", {}, "sha512-f"],
    "web/chalk": ["chalk@5.3.0", "", {}, "sha512-f"],
    "ui": ["ui@workspace:packages/ui"],
    "web": ["web@workspace:packages/web"],
    "@scope/a": ["@scope/a@1.0.0", "", { "dependencies": { "has-flag": "^3" } }, "sha512-g"],
    "@scope/a/has-flag": ["has-flag@3.0.0", "", {}, "sha512-h"],
  }
}
`;

describe('bun.lock', () => {
  it('解析工作区、嵌套键、尾随逗号和注释', async () => {
    const r = await scan({ 'bun.lock': LOCK });
    expect(r.problems).toEqual([]);
    const t = r.targets[0];
    expect(t).toMatchObject({ file: 'bun.lock', type: 'bun', project: { name: 'mono', version: '', purl: 'pkg:npm/mono' } });
    const m = byName(t);
    expect([...m.keys()].sort()).toEqual(['@scope/a@1.0.0', 'ansi-styles@4.3.0', 'chalk@4.1.2', 'chalk@5.3.0', 'has-flag@3.0.0', 'has-flag@4.0.0', 'supports-color@7.2.0', 'vitest@1.6.0']);
    expect(m.get('chalk@4.1.2')).toMatchObject({ direct: true, scope: 'runtime', dependsOn: ['pkg:npm/ansi-styles@4.3.0', 'pkg:npm/supports-color@7.2.0'], locations: [{ file: 'bun.lock', startLine: 23, endLine: 23 }] });
    expect(m.get('chalk@5.3.0')).toMatchObject({ direct: true, scope: 'runtime' });
    expect(m.get('chalk@5.3.0')!.locations).toHaveLength(2);
    expect(m.get('vitest@1.6.0')).toMatchObject({ direct: true, scope: 'development', dependsOn: ['pkg:npm/chalk@5.3.0'] });
    expect(m.get('@scope/a@1.0.0')!.dependsOn).toEqual(['pkg:npm/has-flag@3.0.0']);
    expect(t.roots).toEqual(['pkg:npm/chalk@4.1.2', 'pkg:npm/chalk@5.3.0', 'pkg:npm/vitest@1.6.0']);
  });

  it('读取 package.json 中的项目版本，bun.lockb 不处理', async () => {
    const r = await scan({ 'bun.lock': LOCK, 'package.json': { name: 'mono', version: '3.0.0' }, 'bun.lockb': 'binary' });
    expect(r.targets).toHaveLength(1);
    expect(r.targets[0].project?.purl).toBe('pkg:npm/mono@3.0.0');
  });

  it.each([
    ['{ "packages": { "a": ["a@1", } ', '不是有效的 JSON'],
    ['{ "packages": [] }', 'packages 不是对象'],
    ['"text"', '顶层不是对象'],
  ])('%j 报告中文问题', async (body, message) => {
    await scanMalformed('bun.lock', body, '{"packages": {"a": ["a@1.0.0", "", {}, "x"],},}', message);
  });

  it('跳过 bun 读不了的条目并报告行号，其余照常读取', async () => {
    const r = await scan({ 'bun.lock': '{\n  "packages": {\n    "a": { "x": 1 },\n    "b": ["b"],\n    "c": ["c@2.0.0", "", {}, "x"],\n  },\n}\n' });
    expect(r.problems.map((p) => p.message)).toEqual([
      'bun.lock 第 3 行：packages 中的“a”格式不正确，已跳过',
      'bun.lock 第 4 行：packages 中的“b”的“b”没有版本，已跳过',
    ]);
    expect(r.targets[0]!.components.map((c) => c.purl)).toEqual(['pkg:npm/c@2.0.0']);
  });

  it('嵌套过深的输入报告问题而不是崩溃', async () => {
    const r = await scan({ 'bun.lock': '['.repeat(200_000) });
    expect(r.problems.map((p) => p.message)).toEqual(['bun.lock 不是有效的 JSON（第 1 行嵌套层级过深）']);
  });
});

describe('a real bun.lock with what bun passes over', () => {
  it('skips the corrupt entry, lists it with its line, keeps the rest and ignores unknown fields', async () => {
    const root = path.join(import.meta.dirname, '../../../fixtures/public/lockfiles/bun');
    const t = await extractFile(extractors[0]!, root, 'bun.lock');
    expect(t.problems).toEqual(['bun.lock 第 23 行：packages 中的“long”格式不正确，已跳过']);
    expect(t.components.map((c) => [c.purl, c.direct, c.scope])).toEqual([
      ['pkg:npm/boolbase@1.0.0', false, 'runtime'],
      ['pkg:npm/css-what@2.1.3', true, 'development'],
      ['pkg:npm/nth-check@1.0.2', true, 'runtime'],
    ]);
  });
});
