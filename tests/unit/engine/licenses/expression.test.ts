// Declared licences are free text in the wild; these cases are the ones seen most in manifests.
import { describe, expect, it } from 'vitest';
import { expressionIds, expressionLevel, normalizeDeclared } from '../../../../server/engine/matchers/licenses/expression.ts';
import {
  canonicalId, isDeprecated, licenseAttributes, licenseInfo, licenseLevel, licenseText,
} from '../../../../server/engine/matchers/licenses/knowledge.ts';

describe('许可证表达式规范化', () => {
  it.each([
    ['MIT', 'MIT'],
    ['mit', 'MIT'],
    ['Apache 2', 'Apache-2.0'],
    ['Apache-2', 'Apache-2.0'],
    ['Apache License, Version 2.0', 'Apache-2.0'],
    ['MIT License', 'MIT'],
    ['BSD', 'BSD-3-Clause'],
    ['GPLv2+', 'GPL-2.0-or-later'],
    ['GPL-2.0', 'GPL-2.0-only'],
    ['GPL-2.0+', 'GPL-2.0-or-later'],
    ['LGPL-2.1', 'LGPL-2.1-only'],
    ['AGPL-3.0', 'AGPL-3.0-only'],
    ['https://opensource.org/licenses/MIT', 'MIT'],
    ['http://www.apache.org/licenses/LICENSE-2.0', 'Apache-2.0'],
    ['http://www.apache.org/licenses/LICENSE-2.0.txt', 'Apache-2.0'],
    ['https://www.gnu.org/licenses/gpl-3.0.html', 'GPL-3.0-only'],
    ['(MIT OR Apache-2.0)', 'MIT OR Apache-2.0'],
    ['MIT OR GPL-2.0+', 'MIT OR GPL-2.0-or-later'],
    ['(MIT OR GPL-2.0) AND Apache-2.0', '(MIT OR GPL-2.0-only) AND Apache-2.0'],
    ['GPL-2.0 WITH Classpath-exception-2.0', 'GPL-2.0-only WITH Classpath-exception-2.0'],
    ['GPL-2.0-with-classpath-exception', 'GPL-2.0-only WITH Classpath-exception-2.0'],
    ['MIT or Apache 2', 'MIT OR Apache-2.0'],
    ['MIT / Apache-2.0', 'MIT OR Apache-2.0'],
    ['GPL-2.0-or-later and BSD', 'GPL-2.0-or-later AND BSD-3-Clause'],
    ['Dual MIT/GPL', 'MIT OR GPL-2.0-or-later'],
    ['MIT, Apache-2.0', 'MIT AND Apache-2.0'],
    ['Python Software Foundation License', 'PSF-2.0'],
    ['zlib/libpng', 'Zlib'],
    ['LGPL-2.1+', 'LGPL-2.1-or-later'],
    ['GNU General Public License v2 or later', 'GPL-2.0-or-later'],
    ['Apache-2.0 WITH LLVM-exception', 'Apache-2.0 WITH LLVM-exception'],
    // An operand SPDX has no id for is kept, never dropped with its obligation.
    ['MIT AND custom', 'MIT AND LicenseRef-custom'],
    ['MIT OR Apache-2.0 AND Foo Public License', 'MIT OR (Apache-2.0 AND LicenseRef-Foo-Public-License)'],
    ['GPL-2.0+ AND custom OR BSD-3-Clause', '(GPL-2.0-or-later AND LicenseRef-custom) OR BSD-3-Clause'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDeclared(input)).toBe(expected);
  });

  it('无法识别的文本返回 null', () => {
    expect(normalizeDeclared('')).toBeNull();
    expect(normalizeDeclared('UNLICENSED')).toBeNull();
    expect(normalizeDeclared('see LICENSE file')).toBeNull();
    expect(normalizeDeclared('qwerty zxcv')).toBeNull();
    // spdx-correct alone would answer MPL-2.0 here: a guess must name the licence family.
    expect(normalizeDeclared('completely unknown words')).toBeNull();
    expect(normalizeDeclared('GNU General Public License v2 or later')).toBe('GPL-2.0-or-later');
    expect(normalizeDeclared('Mozilla Public License 2.0')).toBe('MPL-2.0');
  });

  it('表达式中的许可证 id', () => {
    expect(expressionIds('(MIT OR GPL-2.0-only) AND Apache-2.0 WITH LLVM-exception')).toEqual(['MIT', 'GPL-2.0-only', 'Apache-2.0']);
  });
});

describe('许可证知识库', () => {
  it('SPDX 列表带全文、名称与 OSI 标记', () => {
    expect(licenseInfo('Apache-2.0')).toMatchObject({ name: 'Apache License 2.0', osiApproved: true, deprecated: false });
    expect(licenseText('MIT')).toContain('Permission is hereby granted');
    expect(isDeprecated('GPL-2.0')).toBe(true);
    expect(isDeprecated('GPL-2.0-only')).toBe(false);
    expect(canonicalId('apache-2.0')).toBe('Apache-2.0');
    expect(licenseInfo('Classpath-exception-2.0')?.isException).toBe(true);
  });

  it('风险等级：网络传染 1、强传染 2、弱传染 4、宽松 8、未知 16', () => {
    expect(licenseLevel('AGPL-3.0-only')).toBe(1);
    expect(licenseLevel('SSPL-1.0')).toBe(1);
    expect(licenseLevel('GPL-2.0-only')).toBe(2);
    expect(licenseLevel('GPL-3.0-or-later')).toBe(2);
    expect(licenseLevel('LGPL-2.1-or-later')).toBe(4);
    expect(licenseLevel('MPL-2.0')).toBe(4);
    expect(licenseLevel('EPL-2.0')).toBe(4);
    expect(licenseLevel('MIT')).toBe(8);
    expect(licenseLevel('Apache-2.0')).toBe(8);
    expect(licenseLevel('LicenseRef-foo')).toBe(16);
  });

  it('表达式等级：AND 取最严，OR 取最宽', () => {
    expect(expressionLevel('MIT AND GPL-2.0-only')).toBe(2);
    expect(expressionLevel('MIT OR GPL-2.0-only')).toBe(8);
    expect(expressionLevel('LicenseRef-x AND LGPL-2.1-only')).toBe(4);
    expect(expressionLevel('LicenseRef-x OR LGPL-2.1-only')).toBe(4);
    expect(expressionLevel('(MIT OR GPL-2.0-only) AND LGPL-2.1-only')).toBe(4);
    expect(expressionLevel('LicenseRef-x')).toBe(16);
  });

  it('表达式等级按给定的等级表（管理员修改后的等级）计算', () => {
    const edited = new Map<string, 1 | 2 | 4 | 8 | 16>([['MIT', 4], ['GPL-3.0-only', 2], ['Apache-2.0', 8]]);
    const levelOf = (id: string) => edited.get(id) ?? 16;
    expect(expressionLevel('MIT OR GPL-3.0-only', levelOf)).toBe(4);
    expect(expressionLevel('MIT AND Apache-2.0', levelOf)).toBe(4);
    expect(expressionLevel('Apache-2.0 OR MIT', levelOf)).toBe(8);
    // Not a valid expression: its worst known licence rates it, as if joined by AND.
    expect(expressionLevel('MIT, Apache-2.0 / GPL-3.0-only', levelOf)).toBe(2);
  });

  it('详情属性', () => {
    expect(licenseAttributes('GPL-3.0-or-later')).toMatchObject({ copyleft: 'strong', patentGrant: true, sourceDisclosure: true, fsfLibre: true });
    expect(licenseAttributes('AGPL-3.0-only')?.copyleft).toBe('network');
    expect(licenseAttributes('MPL-2.0')?.copyleft).toBe('weak');
    expect(licenseAttributes('Apache-2.0')).toMatchObject({ copyleft: 'none', patentGrant: true, osiApproved: true });
    expect(licenseAttributes('MIT')).toMatchObject({ copyleft: 'none', attribution: true, sourceDisclosure: false });
    expect(licenseAttributes('Nope-1.0')).toBeUndefined();
  });
});

describe('许可证等级数据', () => {
  it('levels.json 只含合法等级，且覆盖常见许可证', () => {
    for (const id of ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'GPL-2.0-only', 'LGPL-3.0-only', 'MPL-2.0', 'AGPL-3.0-only', 'EPL-1.0', 'ISC', 'CDDL-1.0']) {
      expect([1, 2, 4, 8]).toContain(licenseLevel(id));
    }
  });
});
