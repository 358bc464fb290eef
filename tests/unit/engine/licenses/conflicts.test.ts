// The licence compatibility model: the well-known pairs (FSF matrix, secondary-licence clauses,
// section 13 of GPL-3.0/AGPL-3.0), OR/AND/WITH/or-later semantics, closed-source outbound, unknown
// licences, and sweeps over the rule data itself (explanations, selectors, reachability, SPDX ids).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_RULES,
  EXCEPTIONS,
  LICENSES,
  MESSAGES,
  NON_SPDX_LICENSES,
  PAIR_RULES,
  SAME_LICENSE_RULE,
} from '../../../../server/engine/matchers/licenses/compatibility.ts';
import { checkCompatibility, licenseCategory, MODELLED_LICENSES } from '../../../../server/engine/matchers/licenses/conflicts.ts';

const readJson = (relative: string): string[] => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../${relative}`, import.meta.url)), 'utf8'));
const verdict = (outbound: string, inbound: string) => checkCompatibility(outbound, inbound).verdict;
/** Cairn's own rules alone (the OSADL matrix decides first in the product; see osadl.test.ts). */
const cairn = (outbound: string, inbound: string) => checkCompatibility(outbound, inbound, { osadl: false });

describe('议题中的示例', () => {
  it('GPL-2.0-only 项目引入 Apache-2.0 组件：不兼容', () => {
    expect(cairn('GPL-2.0-only', 'Apache-2.0')).toEqual({
      verdict: 'incompatible',
      explanation: 'Apache-2.0 的专利终止与赔偿条款被 GPL-2.0 视为额外限制，二者不兼容（GPL-3.0 才兼容 Apache-2.0）。',
      rule: 'apache2-gpl2',
      source: 'cairn',
    });
  });

  it('Apache-2.0 项目引入 MIT 组件：兼容', () => {
    expect(cairn('Apache-2.0', 'MIT')).toEqual({
      verdict: 'compatible',
      explanation: 'MIT 是宽松许可证，只要求保留版权和许可声明，可并入 Apache-2.0 项目。',
      rule: 'category:permissive->open',
      source: 'cairn',
    });
  });

  it('闭源产品引入 MIT OR GPL-3.0-only 组件：选择 MIT', () => {
    const result = cairn('LicenseRef-proprietary', 'MIT OR GPL-3.0-only');
    expect(result).toMatchObject({ verdict: 'compatible', chosen: 'MIT' });
    expect(result.explanation).toMatch(/^可选择 MIT 授权使用：/);
    expect(result.explanation).toContain('闭源产品');
  });
});

describe('GPL 家族的版本语义', () => {
  it('Apache-2.0 与 GPL-3.0 兼容，与 GPL-2.0-or-later 项目经升级兼容', () => {
    expect(cairn('GPL-3.0-only', 'Apache-2.0').rule).toBe('apache2-gpl3');
    const upgraded = cairn('GPL-2.0-or-later', 'Apache-2.0');
    expect(upgraded.verdict).toBe('compatible');
    expect(upgraded.explanation).toContain('允许以 GPL-3.0 分发组合作品');
    expect(verdict('LGPL-2.1-only', 'Apache-2.0')).toBe('incompatible');
  });

  it('GPL-2.0-only 与 GPL-3.0 互不兼容，GPL-2.0-or-later 可以升级', () => {
    expect(cairn('GPL-3.0-only', 'GPL-2.0-only')).toMatchObject({ verdict: 'incompatible', rule: 'gpl2only-gpl3' });
    expect(cairn('GPL-2.0-only', 'GPL-3.0-only')).toMatchObject({ verdict: 'incompatible', rule: 'gpl3-gpl2only' });
    const upgrade = cairn('GPL-3.0-only', 'GPL-2.0-or-later');
    expect(upgrade).toMatchObject({ verdict: 'compatible', rule: 'same-license' });
    expect(upgrade.explanation).toContain('GPL-2.0-or-later 允许选择 GPL-3.0');
    expect(verdict('GPL-3.0-or-later', 'GPL-2.0+')).toBe('compatible');
    expect(cairn('GPL-2.0-or-later', 'GPL-3.0-only').verdict).toBe('compatible');
    // OSADL: a project that keeps offering "or later" cannot take in code locked to one version.
    expect(verdict('GPL-2.0-or-later', 'GPL-3.0-only')).toBe('incompatible');
    expect(cairn('GPL-2.0-or-later', 'GPL-2.0-only').verdict).toBe('compatible');
    expect(verdict('GPL-2.0-or-later', 'GPL-2.0-only')).toBe('incompatible');
  });

  it('LGPL 转为 GPL：2.x 可进入 GPL-2.0/3.0，3.0 只能进入 GPL-3.0', () => {
    expect(cairn('GPL-2.0-only', 'LGPL-2.1-only')).toMatchObject({ verdict: 'compatible', rule: 'lgpl2-gpl' });
    expect(verdict('GPL-3.0-only', 'LGPL-2.1-only')).toBe('compatible');
    expect(verdict('GPL-3.0-only', 'LGPL-2.0-or-later')).toBe('compatible');
    expect(cairn('GPL-2.0-only', 'LGPL-3.0-only')).toMatchObject({ verdict: 'incompatible', rule: 'lgpl3-gpl2' });
    expect(verdict('GPL-3.0-or-later', 'LGPL-3.0-or-later')).toBe('compatible');
    expect(cairn('AGPL-3.0-only', 'LGPL-2.1-or-later').verdict).toBe('compatible');
    // OSADL: "Check dependency" (linked or combined, not inserted) — a person has to look.
    expect(verdict('AGPL-3.0-only', 'LGPL-2.1-or-later')).toBe('check');
  });

  it('AGPL-3.0 与 GPL-3.0 依第 13 条可组合，与 GPL-2.0 不行', () => {
    const combined = cairn('GPL-3.0-only', 'AGPL-3.0-only');
    expect(combined).toMatchObject({ verdict: 'compatible', rule: 'agpl3-gpl3' });
    expect(combined.explanation).toContain('第 13 条');
    expect(cairn('AGPL-3.0-or-later', 'GPL-3.0-or-later').rule).toBe('gpl3-agpl3');
    expect(verdict('GPL-2.0-only', 'AGPL-3.0-only')).toBe('incompatible');
    expect(verdict('AGPL-3.0-only', 'GPL-2.0-only')).toBe('incompatible');
  });
});

describe('特殊许可证对', () => {
  it('MPL-2.0 经次级许可证条款兼容 GPL，MPL-1.1 与无 Copyleft 例外版本不兼容', () => {
    const mpl = cairn('GPL-2.0-or-later', 'MPL-2.0');
    expect(mpl).toMatchObject({ verdict: 'compatible', rule: 'mpl2-secondary-license' });
    expect(mpl.explanation).toContain('次级许可证');
    expect(verdict('GPL-3.0-only', 'MPL-2.0-no-copyleft-exception')).toBe('incompatible');
    expect(verdict('GPL-3.0-only', 'MPL-1.1')).toBe('incompatible');
    expect(verdict('GPL-3.0-only', 'MPL-1.1+')).toBe('compatible');
  });

  it('EPL、CDDL、CPL 与 GPL 不兼容；EPL-2.0 声明了次级许可证时可选 GPL', () => {
    expect(cairn('GPL-2.0-only', 'EPL-1.0').rule).toBe('epl1-cpl-gpl');
    const epl2 = cairn('GPL-2.0-only', 'EPL-2.0');
    expect(epl2.verdict).toBe('incompatible');
    expect(epl2.explanation).toContain('次级许可证');
    const dual = cairn('GPL-2.0-only', 'EPL-2.0 OR GPL-2.0-or-later WITH Classpath-exception-2.0');
    expect(dual).toMatchObject({ verdict: 'compatible', chosen: 'GPL-2.0-or-later WITH Classpath-exception-2.0' });
    expect(cairn('GPL-2.0-only', 'CDDL-1.0')).toMatchObject({ verdict: 'incompatible', rule: 'cddl-gpl' });
    expect(verdict('GPL-3.0-only', 'CDDL-1.1')).toBe('incompatible');
    expect(verdict('GPL-2.0-only', 'CPL-1.0')).toBe('incompatible');
  });

  it('广告条款（BSD-4-Clause、OpenSSL、SSLeay）与 GPL 不兼容，OpenSSL 例外除外', () => {
    expect(cairn('GPL-2.0-only', 'BSD-4-Clause').rule).toBe('advertising-clause-gpl');
    expect(verdict('MIT', 'BSD-4-Clause')).toBe('compatible');
    expect(verdict('GPL-2.0-or-later', 'OpenSSL')).toBe('incompatible');
    expect(verdict('GPL-3.0-only', 'SSLeay-standalone')).toBe('incompatible');
    expect(cairn('GPL-2.0-or-later WITH openvpn-openssl-exception', 'OpenSSL')).toMatchObject({
      verdict: 'compatible',
      rule: 'exception:openvpn-openssl-exception',
    });
  });

  it('CC-BY-SA-4.0 单向并入 GPL-3.0，3.0 版不行', () => {
    expect(verdict('GPL-3.0-only', 'CC-BY-SA-4.0')).toBe('compatible');
    expect(cairn('CC-BY-SA-4.0', 'GPL-3.0-only').rule).toBe('gpl3-cc-by-sa4');
    expect(verdict('GPL-3.0-only', 'CC-BY-SA-3.0')).toBe('incompatible');
    expect(verdict('CC-BY-SA-4.0', 'CC-BY-SA-3.0')).toBe('compatible');
  });

  it('EUPL-1.2 可按附录转为 GPL，反之不行', () => {
    expect(cairn('GPL-3.0-only', 'EUPL-1.2').rule).toBe('eupl12-compatible-list');
    expect(verdict('EUPL-1.2', 'GPL-3.0-only')).toBe('incompatible');
    expect(verdict('GPL-3.0-only', 'EUPL-1.1')).toBe('incompatible');
  });
});

describe('闭源（专有）项目', () => {
  it('强 Copyleft 与网络 Copyleft 不可用于闭源产品', () => {
    expect(cairn('NONE', 'GPL-3.0-only').rule).toBe('category:strong-copyleft->closed');
    expect(verdict('LicenseRef-proprietary', 'AGPL-3.0-or-later')).toBe('incompatible');
    expect(verdict('LicenseRef-proprietary', 'SSPL-1.0')).toBe('incompatible');
    expect(verdict('UNLICENSED', 'GPL-2.0-or-later')).toBe('incompatible');
  });

  it('LGPL 动态链接时可用，条件写在说明里', () => {
    const lgpl = cairn('LicenseRef-proprietary', 'LGPL-2.1-or-later');
    expect(lgpl.verdict).toBe('compatible');
    expect(lgpl.explanation).toContain('动态链接时可用');
    expect(cairn('NONE', 'MPL-2.0').explanation).toContain('修改过的 MPL-2.0 文件');
  });

  it('宽松、公有领域与带链接例外的组件可用于闭源产品', () => {
    expect(cairn('NONE', 'BSD-3-Clause').explanation).toBe('BSD-3-Clause 是宽松许可证，只要求保留版权和许可声明，可用于闭源产品。');
    expect(verdict('NONE', '0BSD')).toBe('compatible');
    expect(cairn('NONE', 'GPL-2.0-only WITH Classpath-exception-2.0').rule).toBe('exception:Classpath-exception-2.0');
    expect(verdict('NONE', 'GPL-3.0-or-later WITH GCC-exception-3.1')).toBe('compatible');
    expect(verdict('NONE', 'GPL-2.0-only WITH Linux-syscall-note')).toBe('compatible');
  });

  it('非商业与限制使用许可证', () => {
    expect(verdict('NONE', 'CC-BY-NC-4.0')).toBe('incompatible');
    const json = cairn('NONE', 'JSON');
    expect(json.verdict).toBe('unknown');
    expect(json.explanation).toContain('Good, not Evil');
    expect(verdict('MIT', 'JSON')).toBe('incompatible');
    expect(verdict('Apache-2.0', 'Apache-2.0 WITH Commons-Clause')).toBe('incompatible');
    expect(verdict('NONE', 'BUSL-1.1')).toBe('unknown');
    expect(cairn('NONE', 'LicenseRef-proprietary')).toMatchObject({ verdict: 'unknown', rule: 'category:proprietary->other' });
    expect(verdict('GPL-3.0-only', 'LicenseRef-commercial')).toBe('incompatible');
  });
});

describe('开源宽松项目', () => {
  it('宽松项目不能引入强 Copyleft，可在动态链接时使用 LGPL', () => {
    expect(verdict('MIT', 'GPL-2.0-only')).toBe('incompatible');
    expect(verdict('Apache-2.0', 'AGPL-3.0-only')).toBe('incompatible');
    expect(cairn('MIT', 'LGPL-3.0-only').explanation).toContain('动态链接时可用');
    expect(cairn('MIT', 'EPL-2.0').verdict).toBe('compatible');
    // OSADL: copyleft (EPL-2.0, LGPL) cannot be redistributed under a non-copyleft licence.
    expect(verdict('MIT', 'EPL-2.0')).toBe('incompatible');
    expect(verdict('MIT', 'LGPL-3.0-only')).toBe('incompatible');
  });
});

describe('表达式语义', () => {
  it('AND：所有部分都须兼容，第一个不兼容的部分给出说明', () => {
    const result = checkCompatibility('NONE', 'MIT AND GPL-3.0-only');
    expect(result).toMatchObject({ verdict: 'incompatible', rule: 'category:strong-copyleft->closed' });
    expect(result.explanation).toMatch(/^须同时遵守 MIT AND GPL-3.0-only，其中 GPL-3.0 是强 Copyleft/);
    expect(verdict('NONE', 'LicenseRef-acme AND MIT')).toBe('unknown');
  });

  it('OR：选最优选项，无条件兼容优先于有条件兼容', () => {
    expect(checkCompatibility('NONE', '(MIT OR GPL-2.0-only) AND BSD-3-Clause')).toMatchObject({
      verdict: 'compatible',
      chosen: 'MIT AND BSD-3-Clause',
    });
    expect(checkCompatibility('NONE', 'LGPL-2.1-only OR MIT').chosen).toBe('MIT');
    expect(checkCompatibility('NONE', 'LicenseRef-acme OR ISC').chosen).toBe('ISC');
    const none = checkCompatibility('NONE', 'GPL-2.0-only OR GPL-3.0-only');
    expect(none.verdict).toBe('incompatible');
    expect(none.chosen).toBeUndefined();
    expect(none.explanation).toContain('所有选项都不兼容');
  });

  it('WITH：LLVM 例外消除 Apache-2.0 与 GPL-2.0 的冲突，未建模的例外按基础许可证判断', () => {
    expect(checkCompatibility('GPL-2.0-only', 'Apache-2.0 WITH LLVM-exception')).toMatchObject({ verdict: 'compatible', rule: 'exception:LLVM-exception' });
    expect(verdict('NONE', 'GPL-2.0-only WITH Font-exception-2.0')).toBe('incompatible');
    expect(verdict('NONE', 'GPL-2.0-with-classpath-exception')).toBe('compatible');
  });

  it('大小写与 + 写法被修正', () => {
    expect(checkCompatibility('NONE', 'gpl-3.0-only or mit')).toMatchObject({ verdict: 'compatible', chosen: 'MIT' });
    expect(verdict('GPL-3.0-only', 'LGPL-2.1+')).toBe('compatible');
  });

  it('双授权项目：每个对外许可证都须满足', () => {
    expect(verdict('MIT OR Apache-2.0', 'BSD-2-Clause')).toBe('compatible');
    expect(verdict('MIT OR Apache-2.0', 'GPL-2.0-only')).toBe('incompatible');
    const dual = checkCompatibility('Apache-2.0 OR GPL-2.0-only', 'Apache-2.0');
    expect(dual.verdict).toBe('incompatible');
    expect(dual.explanation).toContain('对 GPL-2.0-only 而言');
  });
});

describe('未知许可证', () => {
  it('模型之外、LicenseRef、无法解析与未声明都给出 unknown', () => {
    expect(checkCompatibility('MIT', 'LicenseRef-acme')).toMatchObject({ verdict: 'unknown', rule: 'license-ref' });
    expect(checkCompatibility('MIT', 'Foo-Bar')).toMatchObject({ verdict: 'unknown', rule: 'unparseable' });
    expect(checkCompatibility('MIT', 'Zed')).toMatchObject({ verdict: 'unknown', rule: 'unknown-license' });
    expect(checkCompatibility('MIT', 'NONE')).toMatchObject({ verdict: 'unknown', rule: 'no-license' });
    expect(checkCompatibility('NOASSERTION', 'MIT').verdict).toBe('unknown');
    expect(checkCompatibility('LicenseRef-acme-public', 'MIT')).toMatchObject({ verdict: 'unknown', rule: 'unknown-outbound' });
    expect(checkCompatibility('MIT', 'LicenseRef-acme').explanation).toContain('LicenseRef-acme');
  });
});

describe('licenseCategory', () => {
  it('按 id 给出类别，表达式与未知 id 给 null', () => {
    expect(licenseCategory('MIT')).toBe('permissive');
    expect(licenseCategory('GPL-2.0-or-later')).toBe('strong-copyleft');
    expect(licenseCategory('LGPL-2.1+')).toBe('weak-copyleft-library');
    expect(licenseCategory('MPL-2.0')).toBe('weak-copyleft-file');
    expect(licenseCategory('AGPL-3.0-only')).toBe('network-copyleft');
    expect(licenseCategory('CC0-1.0')).toBe('public-domain');
    expect(licenseCategory('CC-BY-NC-4.0')).toBe('non-commercial');
    expect(licenseCategory('Commons-Clause')).toBe('restricted');
    expect(licenseCategory('LicenseRef-proprietary')).toBe('proprietary');
    expect(licenseCategory('NONE')).toBeNull();
    expect(licenseCategory('Zed')).toBeNull();
    expect(licenseCategory('MIT OR ISC')).toBeNull();
  });
});

describe('规则数据', () => {
  const rules = [SAME_LICENSE_RULE, ...PAIR_RULES, ...CATEGORY_RULES];
  const texts = [...rules.map((r) => [r.id, r.explanation]), ...Object.entries(EXCEPTIONS).map(([id, e]) => [id, e.explanation]), ...Object.entries(MESSAGES)];
  const spdxId = (key: string) => (LICENSES[key]?.gnu ? `${key}-only` : key);
  const expand = (selectors: readonly string[]) =>
    Object.keys(LICENSES).filter((key) =>
      selectors.some((s) => {
        const entry = LICENSES[key]!;
        const closed = ['proprietary', 'non-commercial', 'restricted'].includes(entry.category);
        if (s === '*') return true;
        if (s === '@gnu') return entry.gnu === true;
        if (s === '@closed') return closed;
        if (s === '@open') return !closed;
        if (s.startsWith('@')) return entry.category === s.slice(1);
        return s === key;
      }),
    );

  it('每条规则与消息都有一句以“。”结尾的中文说明，且只用已知占位符', () => {
    expect(texts.length).toBeGreaterThan(60);
    for (const [id, text] of texts) {
      expect(text, id).toMatch(/[\u4e00-\u9fff]/);
      expect(text!.endsWith('。'), id).toBe(true);
      expect(text!.split('。').length, `${id} 只有一句`).toBe(2);
      for (const [, name] of text!.matchAll(/\{(\w+)\}/g)) expect(['in', 'out', 'product', 'restriction', 'exception', 'text'], id).toContain(name);
    }
  });

  it('规则 id 唯一，选择器只引用已建模的许可证或类别', () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const categories = new Set(Object.values(LICENSES).map((e) => `@${e.category}`));
    for (const rule of rules) {
      for (const selector of [...rule.inbound, ...rule.outbound]) {
        const valid = selector === '*' || ['@gnu', '@open', '@closed'].includes(selector) || categories.has(selector) || selector in LICENSES;
        expect(valid, `${rule.id}: ${selector}`).toBe(true);
      }
    }
  });

  it('每条配对规则都至少对一对许可证生效（没有被前面的规则遮蔽）', () => {
    for (const rule of PAIR_RULES) {
      const hit = expand(rule.inbound).some((inKey) =>
        expand(rule.outbound).some((outKey) => inKey !== outKey && cairn(spdxId(outKey), spdxId(inKey)).rule === rule.id),
      );
      expect(hit, rule.id).toBe(true);
    }
  });

  it('任意两个已建模许可证之间都有规则给出判断', () => {
    const keys = Object.keys(LICENSES);
    for (const outKey of keys) {
      for (const inKey of keys) {
        const result = checkCompatibility(spdxId(outKey), spdxId(inKey));
        expect(result.rule, `${outKey} <= ${inKey}`).not.toBe('no-rule');
        expect(result.rule, `${outKey} <= ${inKey}`).not.toBe('unparseable');
      }
    }
  });

  it('非商业与限制使用类许可证都写明了限制', () => {
    for (const [id, entry] of Object.entries(LICENSES)) {
      if (entry.category === 'non-commercial' || entry.category === 'restricted') expect(entry.restriction, id).toBeTruthy();
    }
  });
});

describe('MODELLED_LICENSES', () => {
  const spdx = new Set(readJson('node_modules/spdx-license-list/spdx-simple.json'));
  const exceptions = new Set(readJson('node_modules/spdx-exceptions/index.json'));

  it('至少 60 个，除有意标注的非 SPDX 项外都是合法 SPDX id', () => {
    expect(MODELLED_LICENSES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(MODELLED_LICENSES).size).toBe(MODELLED_LICENSES.length);
    expect(NON_SPDX_LICENSES).toEqual(['Commons-Clause', 'LicenseRef-proprietary']);
    for (const id of MODELLED_LICENSES) {
      if (NON_SPDX_LICENSES.includes(id)) continue;
      expect(spdx.has(id), id).toBe(true);
    }
    for (const id of Object.keys(EXCEPTIONS)) expect(exceptions.has(id), id).toBe(true);
  });

  it('覆盖议题列出的常用许可证', () => {
    const required = [
      'MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', '0BSD', 'Unlicense', 'CC0-1.0', 'Zlib', 'BSL-1.0', 'PostgreSQL',
      'Python-2.0', 'PSF-2.0', 'X11', 'MIT-0', 'WTFPL', 'Artistic-1.0', 'Artistic-2.0', 'Ruby', 'OFL-1.1', 'CC-BY-3.0', 'CC-BY-4.0',
      'CC-BY-SA-3.0', 'CC-BY-SA-4.0', 'CC-BY-NC-4.0', 'LGPL-2.0-only', 'LGPL-2.1-or-later', 'LGPL-3.0-only', 'GPL-2.0-only',
      'GPL-2.0-or-later', 'GPL-3.0-only', 'GPL-3.0-or-later', 'AGPL-3.0-only', 'AGPL-3.0-or-later', 'MPL-1.1', 'MPL-2.0', 'EPL-1.0',
      'EPL-2.0', 'CDDL-1.0', 'CDDL-1.1', 'CPL-1.0', 'EUPL-1.1', 'EUPL-1.2', 'OSL-3.0', 'AFL-3.0', 'MS-PL', 'MS-RL', 'Unicode-DFS-2016',
      'Unicode-3.0', 'BlueOak-1.0.0', 'UPL-1.0', 'NCSA', 'OpenSSL', 'SSLeay-standalone', 'libpng-2.0', 'curl', 'Beerware', 'JSON',
      'SSPL-1.0', 'BUSL-1.1', 'Elastic-2.0', 'Commons-Clause',
    ];
    expect(required.filter((id) => !MODELLED_LICENSES.includes(id))).toEqual([]);
  });
});
