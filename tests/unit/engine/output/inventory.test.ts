// Declared licences in the inventory: each declaration repaired to SPDX, all joined with AND, and
// null when nothing can be understood.
import { describe, expect, it } from 'vitest';
import { licenseExpressionOf } from '../../../../server/engine/output/inventory.ts';

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
