// Licence families (families.ts): the clauses that set one member apart decide, not the shared
// bulk of the text. The real-world texts for every family pair are in family-texts.test.ts.
import { describe, expect, it } from 'vitest';
import { bsdConditions, bsdTemplateConditions, decideByClauses, familyMembers, familyNames, familyOf, gfdlVariant, gnuGrant, gnuNamedNotGranted, parentLicences, textNames } from '../../../../server/engine/matchers/licenses/families.ts';
import { licenseText } from '../../../../server/engine/matchers/licenses/knowledge.ts';
import { tokenize } from '../../../../server/engine/matchers/licenses/normalize-text.ts';
import { createLicenseRecognizer } from '../../../../server/engine/matchers/licenses/recognize.ts';

const recognizer = createLicenseRecognizer();
const ids = (text: string): string[] => [...new Set(recognizer.recognize(text).map((m) => m.spdx))].sort();
const words = (text: string): string => tokenize(text).words.join(' ');

describe('许可证家族：归属', () => {
  it('每个家族的成员归入同一家族，其他许可证不属于任何家族', () => {
    expect(['GPL-2.0-only', 'LGPL-2.1-or-later', 'AGPL-3.0-only'].map(familyOf)).toEqual(['GNU', 'GNU', 'GNU']);
    expect(['MPL-1.1', 'NPL-1.0', 'CPAL-1.0'].map(familyOf)).toEqual(['MPL', 'MPL', 'MPL']);
    expect(['CECILL-2.1', 'CECILL-B', 'EUPL-1.2', 'CDDL-1.1', 'EPL-2.0', 'CPL-1.0', 'Apache-1.1', 'BSD-3-Clause', 'GFDL-1.3-only'].map(familyOf)).toEqual(['CeCILL', 'CeCILL', 'EUPL', 'CDDL', 'EPL', 'EPL', 'Apache', 'BSD', 'GFDL']);
    expect(familyOf('MIT')).toBeUndefined();
    expect(familyMembers('MPL-1.1')).toEqual(expect.arrayContaining(['MPL-1.0', 'MPL-2.0', 'NPL-1.0', 'NPL-1.1', 'CPAL-1.0']));
    expect(familyMembers('MPL-1.1')).not.toContain('MPL-1.1');
  });
});

describe('许可证家族：GNU 声明的授权语句', () => {
  it('授权语句中的许可证名称、版本与“或任何更高版本”决定标识', () => {
    const cases: [string, string][] = [
      ['modify it under the terms of the GNU Lesser General Public License as published by the Free Software Foundation; either version 2.1 of the License, or (at your option) any later version.', 'LGPL-2.1-or-later'],
      ['it under the terms of the GNU General Public License version 2 and only version 2 as published by the Free Software Foundation.', 'GPL-2.0-only'],
      ['it under the terms of the GNU Lesser General Public License version 3 as published by the Free Software Foundation.', 'LGPL-3.0-only'],
      ['modify it under the terms of the GNU Library General Public License version 2 as published by the Free Software Foundation.', 'LGPL-2.0-only'],
      ['under the terms of the GNU Affero General Public License as published by the Free Software Foundation, either version 3 of the License, or (at your option) any later version.', 'AGPL-3.0-or-later'],
      ['under the terms of the GNU General Public License as published by the Free Software Foundation, using version 2 of the License.', 'GPL-2.0-only'],
      ['it under the terms of the GNU General Public License as published by the Free Software Foundation; either version 1, or (at your option) any later version.', 'GPL-1.0-or-later'],
    ];
    for (const [text, id] of cases) expect({ text, id: gnuGrant(words(`This program is free software; you can redistribute it and/or ${text}`))?.spdx }).toEqual({ text, id });
  });

  it('后文的“See the GNU General Public License”不改变授权语句所说的 LGPL', () => {
    const notice = 'it under the terms of the GNU Lesser General Public License version 3 as published by the Free Software Foundation. This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; See the GNU General Public License for more details, or any later version.';
    expect(gnuGrant(words(notice))?.spdx).toBe('LGPL-3.0-only');
  });

  it('未写版本的声明不给出标识（交给通用规则）', () => {
    expect(gnuGrant(words('under the terms of the GNU General Public License as published by the Free Software Foundation.'))).toBeUndefined();
    expect(gnuGrant(words('no licence named here'))).toBeUndefined();
  });
});

describe('许可证家族：区分条款', () => {
  it('区域中出现的、对手文本没有的条款决定成员', () => {
    expect(decideByClauses(['MPL-1.1', 'NPL-1.1'], words('NETSCAPE PUBLIC LICENSE Version 1.1 AMENDMENTS The Netscape Public License Version 1.1 ("NPL") consists of the Mozilla Public License Version 1.1'))).toBe('NPL-1.1');
    expect(decideByClauses(['CECILL-2.0', 'CECILL-2.1'], words('CeCILL FREE SOFTWARE LICENSE AGREEMENT Version 2.1 dated 2013-06-21'))).toBe('CECILL-2.1');
    expect(decideByClauses(['EUPL-1.1', 'EUPL-1.2'], words('EUROPEAN UNION PUBLIC LICENCE v. 1.2 EUPL © the European Union 2007, 2016'))).toBe('EUPL-1.2');
    expect(decideByClauses(['CDDL-1.0', 'CDDL-1.1'], words('4.1. New Versions. Oracle is the initial license steward and may publish revised'))).toBe('CDDL-1.1');
    expect(decideByClauses(['EPL-1.0', 'CPL-1.0'], words('Eclipse Public License - v 1.0 THE ACCOMPANYING PROGRAM IS PROVIDED'))).toBe('EPL-1.0');
    expect(decideByClauses(['Apache-1.0', 'Apache-1.1'], words('The Apache Software License, Version 1.1'))).toBe('Apache-1.1');
  });

  it('两个成员共有的条款不作决定：NPL-1.1 文本本身引用 MPL 1.1 的标题', () => {
    expect(decideByClauses(['MPL-1.1', 'NPL-1.1'], words('MOZILLA PUBLIC LICENSE Version 1.1 1. Definitions.'))).toBeUndefined();
  });

  it('各自的条款都出现时不作决定，交给相似度排序', () => {
    expect(decideByClauses(['EUPL-1.1', 'EUPL-1.2'], words('European Union Public Licence v. 1.1 and European Union Public Licence v. 1.2'))).toBeUndefined();
    expect(decideByClauses(['EUPL-1.2'], words('European Union Public Licence v. 1.2'))).toBeUndefined();
  });

  it('NPL-1.1 的标准文本自带 MPL 1.1 的 Exhibit A 声明', () => {
    expect(textNames('NPL-1.1', 'MPL-1.1')).toBe(true);
    expect(textNames('MPL-1.1', 'NPL-1.1')).toBe(false);
  });
});

describe('许可证家族：BSD 的条件清单', () => {
  it('完整的 BSD 文本按所列条件归类，截断的文本不作判断', () => {
    expect(bsdTemplateConditions('BSD-2-Clause')).toBe('binary');
    expect(bsdTemplateConditions('BSD-3-Clause')).toBe('binary endorse');
    expect(bsdTemplateConditions('BSD-4-Clause')).toBe('binary endorse advertising');
    expect(bsdTemplateConditions('BSD-Source-Code')).toBe('endorse');
    expect(bsdConditions(words('Redistribution and use in source and binary forms are permitted: 1. Redistributions of source code must retain the above copyright notice.'))).toBeUndefined();
  });

  it('缺少二进制分发条款的两条款文本不是 BSD-3-Clause', () => {
    const text = [
      ' Redistribution and use in source and binary forms, with or without',
      ' modification, are permitted provided that the following conditions',
      ' are met:',
      ' 1. Redistributions of source code must retain the above copyright',
      '    notice, this list of conditions and the following disclaimer.',
      ' 2. The name of the author may not be used to endorse or promote',
      '    products derived from this software without specific prior',
      '    written permission.',
      ' .',
      " THIS SOFTWARE IS PROVIDED BY THE NETBSD FOUNDATION, INC. AND CONTRIBUTORS",
      " ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED",
      ' TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR',
      ' PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE FOUNDATION OR CONTRIBUTORS',
      ' BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR',
      ' CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF',
      ' SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS',
      ' INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN',
      ' CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE)',
      ' ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE',
      ' POSSIBILITY OF SUCH DAMAGE.',
    ].join('\n');
    // Its name clause is worded as in BSD-3-Clause copies, not as BSD-Source-Code's, so the
    // modified-text check (modified.ts) reports it as a modified BSD-Source-Code.
    expect(ids(text)).toEqual([expect.stringMatching(/^(LicenseRef-Cairn-modified-)?BSD-Source-Code$/)]);
  });
});

describe('许可证家族：未授予的 GNU 版本', () => {
  it('作为例外或拒绝对象提到的 GNU 版本不是授权', () => {
    expect(gnuNamedNotGranted("NOT 'eligible' as defined by gcc's library exception to the GPL v3,")).toBe(true);
    expect(gnuNamedNotGranted('- do not upgrade to LGPLv3')).toBe(true);
    expect(gnuNamedNotGranted('Licensed under the GPL v2')).toBe(false);
    expect(ids('Note:\n- libexif is LGPLv2.1\n- do not statically link to it\n- do not upgrade to LGPLv3\n')).toEqual(['LGPL-2.1-only']);
  });

  it('文件里没有别的 GNU 授权时，例外条款中的 GPL 名称照常计入', () => {
    expect(ids('As a special exception to the GNU General Public License version 2, you may link this file with OpenSSL.')).toEqual(['GPL-2.0-only']);
  });
});

describe('许可证家族：声明中的成员名称', () => {
  it('识别通用引用规则不认识的成员名称', () => {
    const named = (text: string): string[] => familyNames(text).map((n) => n.spdx);
    expect(named('The contents of this file are subject to the Netscape Public License\n * Version 1.1 (the "License")')).toEqual(['NPL-1.1']);
    expect(named('This work is governed by the Common Public Attribution License Version 1.0 (the "CPAL")')).toEqual(['CPAL-1.0']);
    expect(named('# CeCILL-B FREE SOFTWARE LICENSE AGREEMENT')).toEqual(['CECILL-B']);
    expect(named('This software is governed by the CeCILL-C license under French law')).toEqual(['CECILL-C']);
    expect(named('distributed under the CeCILL license version 2.1')).toEqual(['CECILL-2.1']);
    expect(named('Licensed under the EUPL, Version 1.1 or – as soon they will be approved by the European Commission')).toEqual(['EUPL-1.1']);
    expect(named('European Union Public Licence v. 1.2')).toEqual(['EUPL-1.2']);
    expect(named('Licensed under the MIT License')).toEqual([]);
    expect(named('Licence CeCILL (C) INRIA 2004')).toEqual([]);
  });

  it('“based on the Mozilla Public License Version 1.1”说的是来源许可证', () => {
    expect([...parentLicences('The License is based on the Mozilla Public License Version 1.1 but Sections 14 and 15 have been added')]).toEqual(['MPL-1.1']);
    expect(parentLicences('Licensed under the Mozilla Public License Version 1.1').size).toBe(0);
  });
});

describe('许可证家族：识别结果', () => {
  it('每个家族成员的标准文本只识别为它自己，不混入同族的其他成员', () => {
    const members = ['GPL-1.0-only', 'GPL-2.0-only', 'GPL-3.0-only', 'LGPL-2.0-only', 'LGPL-2.1-only', 'LGPL-3.0-only', 'AGPL-3.0-only', 'MPL-1.0', 'MPL-1.1', 'MPL-2.0', 'NPL-1.0', 'NPL-1.1', 'CPAL-1.0', 'CECILL-1.0', 'CECILL-1.1', 'CECILL-2.0', 'CECILL-2.1', 'CECILL-B', 'CECILL-C', 'EUPL-1.0', 'EUPL-1.1', 'EUPL-1.2', 'CDDL-1.0', 'CDDL-1.1', 'EPL-1.0', 'EPL-2.0', 'CPL-1.0', 'Apache-1.0', 'Apache-1.1', 'Apache-2.0', 'GFDL-1.1-only', 'GFDL-1.2-only', 'GFDL-1.3-only', 'BSD-2-Clause', 'BSD-3-Clause', 'BSD-4-Clause'];
    for (const id of members) expect({ id, found: ids(licenseText(id)) }).toEqual({ id, found: [id] });
  });

  it('项目里单独的 COPYING.LESSER（不带后附的 GPL-3.0）识别为 LGPL-3.0-only', () => {
    const lesser = licenseText('LGPL-3.0-only').replace(/\n\s*GNU GENERAL PUBLIC LICENSE\s*\n\s*Version 3, 29 June 2007[\s\S]*$/, '');
    expect(lesser.length).toBeLessThan(licenseText('LGPL-3.0-only').length / 3);
    expect(ids(lesser)).toEqual(['LGPL-3.0-only']);
  });

  it('正文几乎相同的两个版本由标题行决定（CeCILL 2.1 正文配 2.0 的版本行）', () => {
    const retitled = licenseText('CECILL-2.1').replace('Version 2.1 dated 2013-06-21', 'Version 2.0 dated 2006-09-05');
    expect(ids(retitled)).toContain('CECILL-2.0');
    expect(ids(retitled)).not.toContain('CECILL-2.1');
  });

  it('GNU 声明：LGPL 的授权语句后跟“See the GNU General Public License”仍是 LGPL', () => {
    const notice = [
      ' *  This program is free software; you can redistribute it and/or modify',
      ' *  it under the terms of the GNU Lesser General Public License version 3 as',
      ' *  published by the Free Software Foundation.',
      ' *',
      ' *  This program is distributed in the hope that it will be useful,',
      ' *  but WITHOUT ANY WARRANTY; without even the implied warranty of',
      ' *  MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the',
      ' *  GNU General Public License for more details.',
    ].join('\n');
    expect(ids(notice)).toEqual(['LGPL-3.0-only']);
  });

  it('GNU 声明：“or (at your option)”折到下一行的“any later version”仍算 -or-later', () => {
    const notice = [
      'This program is free software; you can redistribute it and/or modify',
      'it under the terms of the GNU General Public License as published by',
      'the Free Software Foundation; either version 1, or (at your option)',
      'any later version.',
    ].join('\n');
    expect(ids(notice)).toEqual(['GPL-1.0-or-later']);
  });

  it('Debian 的 common-licenses 路径跟在同族声明后只是说明全文位置', () => {
    const text = [
      'This library is free software; you can redistribute it and/or modify it under the terms of the',
      'GNU Library General Public License as published by the Free Software Foundation; either version 2',
      'of the License, or (at your option) any later version.',
      'This library is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; without even',
      'the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU Library',
      'General Public License for more details.',
      '',
      'On Debian GNU/Linux systems, the complete text of the GNU Library General',
      'Public License can be found in /usr/share/common-licenses/LGPL-2 and version 3',
      'in /usr/share/common-licenses/LGPL-3',
    ].join('\n');
    expect(ids(text)).toEqual(['LGPL-2.0-or-later']);
  });
});

describe('许可证家族：GFDL 的不变章节变体', () => {
  const notice = (rest: string) => `Permission is granted to copy, distribute and/or modify this document
under the terms of the GNU Free Documentation License, Version 1.2
or any later version published by the Free Software Foundation;
${rest}`;

  it('声明里写明有无不变章节时给出 -no-invariants / -invariants', () => {
    expect(ids(notice('with no Invariant Sections, no Front-Cover Texts, and no Back-Cover Texts.'))).toEqual(['GFDL-1.2-no-invariants-or-later']);
    expect(ids(notice('with the Invariant Sections being "Funding Free Software", with the\nFront-Cover Texts being "A GNU Manual".'))).toEqual(['GFDL-1.2-invariants-or-later']);
    expect(ids(notice('A copy of the license is included in the section entitled "GNU Free Documentation License".'))).toEqual(['GFDL-1.2-or-later']);
  });

  it('全文附录里的示例声明不决定变体：全文仍是普通 GFDL', () => {
    expect(ids(licenseText('GFDL-1.3-only'))).toEqual(['GFDL-1.3-only']);
    expect(gfdlVariant('GFDL-1.3-only', 'with the Invariant Sections being LIST THEIR TITLES')).toBe('GFDL-1.3-only');
    expect(gfdlVariant('MIT', 'with no Invariant Sections')).toBe('MIT');
  });
});
