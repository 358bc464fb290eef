// Declared licences in the inventory: each declaration repaired to SPDX, all joined with AND, and
// null when nothing can be understood.
import { describe, expect, it } from 'vitest';
import type { Component, ScanResult } from '../../../../server/engine/model.ts';
import { inventory, licenseExpressionOf } from '../../../../server/engine/output/inventory.ts';

describe('组件许可证表达式', () => {
  it('把声明的许可证规范化为一个 SPDX 表达式', () => {
    expect(licenseExpressionOf(['MIT'])).toBe('MIT');
    expect(licenseExpressionOf(['Apache 2'])).toBe('Apache-2.0');
    expect(licenseExpressionOf(['(MIT OR GPL-2.0)'])).toBe('MIT OR GPL-2.0-only');
    expect(licenseExpressionOf(['MIT', 'Apache License, Version 2.0', 'MIT'])).toBe('MIT AND Apache-2.0');
    expect(licenseExpressionOf(['GPLv2+', 'MIT OR Apache-2.0'])).toBe('GPL-2.0-or-later AND (MIT OR Apache-2.0)');
  });

  it('无法理解的声明不进入表达式', () => {
    expect(licenseExpressionOf([])).toBeNull();
    expect(licenseExpressionOf(['see LICENSE file'])).toBeNull();
    expect(licenseExpressionOf(['see LICENSE file', 'BSD-3-Clause'])).toBe('BSD-3-Clause');
  });
});

describe('声明的版本范围', () => {
  const unpinned = (file: string, constraint?: string): Component => ({
    purl: 'pkg:pypi/flask', ecosystem: 'pypi', name: 'flask', version: '', direct: true, scope: 'runtime',
    locations: [{ file, startLine: 1, endLine: 1 }], licenses: [], dependsOn: [], ...(constraint ? { constraint } : {}),
  });
  const result = (components: Component[]): ScanResult => ({
    root: '/x', problems: [], stats: { files: 1, bytes: 1, ms: 0 },
    targets: components.map((c) => ({ file: c.locations[0]!.file, type: 'pip', ecosystem: 'pypi', project: null, roots: [], components: [c] })),
  });

  it('未固定版本的组件带着声明的范围进入清单；多个清单声明不同范围时各列一次', () => {
    expect(inventory(result([unpinned('a/requirements.txt', '>=2')]))[0]).toMatchObject({ version: '', constraint: '>=2' });
    const merged = inventory(result([unpinned('a/requirements.txt', '>=2'), unpinned('b/requirements.txt', '>=2'), unpinned('c/requirements.txt', '<3'), unpinned('d/requirements.txt')]));
    expect(merged).toHaveLength(1);
    expect(merged[0]!.constraint).toBe('>=2 | <3');
    expect(inventory(result([unpinned('d/requirements.txt')]))[0]!.constraint).toBeUndefined();
  });
});
