// Licence recognition on whole texts, headers, tags and mixed files; line ranges are 1-based.
import { describe, expect, it } from 'vitest';
import { licenseText } from '../../../../server/engine/matchers/licenses/knowledge.ts';
import { createLicenseRecognizer } from '../../../../server/engine/matchers/licenses/recognize.ts';

const recognizer = createLicenseRecognizer();
const ids = (text: string): string[] => [...new Set(recognizer.recognize(text).map((m) => m.spdx))].sort();

const APACHE_HEADER = `/*
 * Copyright 2020 Example Corp.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package com.example;

public final class Main {
  public static void main(String[] args) {
    System.out.println("hello");
  }
}
`;

describe('许可证文本识别', () => {
  it.each(['MIT', 'Apache-2.0', 'GPL-3.0-only', 'BSD-3-Clause', 'MPL-2.0', 'ISC', 'LGPL-2.1-only', 'EPL-2.0', 'AGPL-3.0-only', 'GFDL-1.2-only', 'GFDL-1.3-only'])('完整文本 %s', (id) => {
    const matches = recognizer.recognize(licenseText(id));
    expect(matches[0]).toMatchObject({ spdx: id, kind: 'text' });
    expect(matches[0]?.score).toBeGreaterThan(0.9);
    expect(ids(licenseText(id))).toEqual([id]);
  });

  it('源文件头部的 Apache 声明', () => {
    const matches = recognizer.recognize(APACHE_HEADER, 'Main.java');
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ spdx: 'Apache-2.0', kind: 'header', startLine: 4, endLine: 14 });
  });

  it('GPL 标准头部区分 only / or-later', () => {
    const later = `# This program is free software; you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation; either version 2 of the License, or
# (at your option) any later version.
#
# This program is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
# GNU General Public License for more details.
`;
    expect(ids(later)).toEqual(['GPL-2.0-or-later']);
    expect(ids('/* Licensed under the GNU General Public License version 2 only. */')).toEqual(['GPL-2.0-only']);
  });

  it('SPDX-License-Identifier 标签', () => {
    const text = '// SPDX-License-Identifier: (MIT OR GPL-2.0+)\nint main(void) { return 0; }\n';
    const matches = recognizer.recognize(text, 'main.c');
    expect(matches.map((m) => [m.spdx, m.kind, m.startLine])).toEqual([
      ['MIT', 'tag', 1],
      ['GPL-2.0-or-later', 'tag', 1],
    ]);
  });

  it('一个文件中的两个许可证及其行范围', () => {
    const mit = licenseText('MIT');
    const bsd = licenseText('BSD-2-Clause');
    const text = `Third-party notices\n\n== part one ==\n${mit}\n\n== part two ==\n${bsd}\n`;
    const mitStart = 4;
    const mitLines = mit.split('\n').length;
    const matches = recognizer.recognize(text, 'NOTICE');
    expect(matches.map((m) => m.spdx)).toEqual(['MIT', 'BSD-2-Clause']);
    const [first, second] = matches;
    expect(first?.startLine).toBeGreaterThanOrEqual(mitStart);
    expect(first?.startLine).toBeLessThanOrEqual(mitStart + 2);
    expect(first?.endLine).toBeLessThanOrEqual(mitStart + mitLines);
    expect(first?.endLine).toBeGreaterThan(mitStart + mitLines - 4);
    const bsdStart = mitStart + mitLines + 2;
    expect(second?.startLine).toBeGreaterThanOrEqual(bsdStart);
    expect(second?.startLine).toBeLessThanOrEqual(bsdStart + 4);
    expect(second?.endLine).toBe(text.split('\n').length - 1);
  });

  it('名称引用', () => {
    expect(ids('This library is released under the MIT License.')).toEqual(['MIT']);
    expect(ids('Licensed under the Eclipse Public License v1.0')).toEqual(['EPL-1.0']);
    expect(ids('// the original program is under the 0-BSD license.')).toEqual(['0BSD']);
    expect(ids('Copyright 2020 Example. Licensed under the Apache 2.0 license.')).toEqual(['Apache-2.0']);
    // A product version is not a licence.
    expect(ids('// Copyright 2020 Example. Works with Apache 2.0 and nginx.')).toEqual([]);
    expect(ids('This file is licensed under the GNU Lesser General Public License v2.1 or later.')).toEqual(['LGPL-2.1-or-later']);
  });

  it('被用来作对比或排除的名称不算授权', () => {
    expect(ids('flex is distributed under a BSD-style license, and not under the GNU General Public License (GPL).')).toEqual(['BSD-3-Clause']);
    expect(ids('Contrary to the GNU Public License (GPL) the Apache Software License does not make any claims over your extensions.')).toEqual([]);
    expect(ids('# The libraries are licensed under GPL and as such, BSD license may not apply for the combination.')).toEqual(['GPL-1.0-or-later']);
    // Set-apart words only count right next to the name: the Apache notice still reads.
    expect(ids(APACHE_HEADER)).toEqual(['Apache-2.0']);
  });

  it('字符串常量里的声明（程序打印的许可证）', () => {
    const printed = [
      'msgid ""',
      '"Example is free software; you can redistribute it and/or modify \\n"',
      '"it under the terms of the GNU General Public License as published by \\n"',
      '"the Free Software Foundation; either version 2 of the License, or \\n"',
      '"(at your option) any later version.\\n"',
      '"\\n"',
      '"Example is distributed in the hope that it will be useful, \\n"',
      '"but WITHOUT ANY WARRANTY; without even the implied warranty of \\n"',
      '"MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the \\n"',
      '"GNU General Public License for more details.\\n"',
      '"\\n"',
      '"You should have received a copy of the GNU General Public License \\n"',
      '"along with Example; if not, write to the Free Software Foundation, Inc., \\n"',
      '"51 Franklin St, Fifth Floor, Boston, MA  02110-1301 USA"',
    ].join('\n');
    expect(ids(printed)).toEqual(['GPL-2.0-or-later']);
  });

  it('笼统的 “BSD license” 让位于同一文件里的 BSD 全文', () => {
    const text = `This code is distributed under the terms of the BSD Licence as follows:\n\n${licenseText('BSD-2-Clause')}`;
    expect(ids(text)).toEqual(['BSD-2-Clause']);
    expect(ids('Released under the BSD license.')).toEqual(['BSD-3-Clause']);
  });

  it('没有许可证的文件', () => {
    expect(recognizer.recognize('export const add = (a: number, b: number): number => a + b;\n', 'add.ts')).toEqual([]);
    expect(recognizer.recognize('# Title\n\nSome README text about installation and usage.\n', 'README.md')).toEqual([]);
    expect(recognizer.recognize('', 'empty')).toEqual([]);
  });
});

describe('许可证识别：边界情况', () => {
  it('大文件只扫描关键字附近，行号仍是原文件行号', () => {
    const code = Array.from({ length: 6000 }, (_, i) => `const value${i} = compute(${i}); // step ${i}`).join('\n');
    const text = `${code}\n${APACHE_HEADER}`;
    expect(text.length).toBeGreaterThan(64 * 1024);
    const matches = recognizer.recognize(text, 'bundle.js');
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ spdx: 'Apache-2.0', kind: 'header', startLine: 6004, endLine: 6014 });
  });

  it('二进制内容中的许可证字符串', () => {
    const text = `\u0000\u0001ELF\u0000\u0000${'\u0000'.repeat(20)}Licensed under the MIT License.\u0000\u0002`;
    expect(ids(text)).toEqual(['MIT']);
  });

  it('标签中的例外也作为结果返回', () => {
    const matches = recognizer.recognize('# SPDX-License-Identifier: GPL-2.0-or-later WITH Classpath-exception-2.0\n');
    expect(matches.map((m) => m.spdx)).toEqual(['GPL-2.0-or-later', 'Classpath-exception-2.0']);
  });

  it('GPL 全文单独出现时报告 -only（附录中的示例声明不算 or-later）', () => {
    expect(ids(licenseText('GPL-2.0-only'))).toEqual(['GPL-2.0-only']);
    expect(ids(licenseText('LGPL-2.1-only'))).toEqual(['LGPL-2.1-only']);
  });

  it('打包的第三方许可证清单里同一文本出现很多次时每份都单独识别为标准文本（vite/vitest 的 LICENSE.md 式）', () => {
    const copy = (i: number) => `## dep-${i}\nLicense: MIT\nBy: Author ${i}\nRepository: example/dep-${i}\n\n> ${licenseText('MIT').replace('<year> <copyright holders>', `20${10 + i} Author ${i}`).split('\n').join('\n> ')}\n\n---------------------------------------\n\n`;
    const file = Array.from({ length: 12 }, (_, i) => copy(i)).join('');
    const texts = recognizer.recognize(file).filter((m) => m.kind === 'text');
    expect(texts.map((m) => m.spdx)).toEqual(Array.from({ length: 12 }, () => 'MIT'));
  });
});
