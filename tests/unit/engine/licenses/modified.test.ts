// Modified and partial licence texts (modified.ts): real copies found in public repositories, each
// with its source. A text changed beyond what the SPDX matching guidelines allow is reported as
// LicenseRef-Cairn-modified-<nearest id> with the differing lines; standard copies that only change
// names, copyright lines, bullets or optional parts stay the standard licence.
import { describe, expect, it } from 'vitest';
import { licenseText } from '../../../../server/engine/matchers/licenses/knowledge.ts';
import { MODIFIED_MAX_SCORE, PARTIAL_MAX_SCORE, compareToStandard, diffWords, modifiedId } from '../../../../server/engine/matchers/licenses/modified.ts';
import { tokenize } from '../../../../server/engine/matchers/licenses/normalize-text.ts';
import { createLicenseRecognizer, type LicenseMatch } from '../../../../server/engine/matchers/licenses/recognize.ts';

const recognizer = createLicenseRecognizer();
const texts = (text: string): LicenseMatch[] => recognizer.recognize(text).filter((m) => m.kind === 'text');
const ids = (text: string): string[] => [...new Set(recognizer.recognize(text).map((m) => m.spdx))].sort();
// SPDX idstring for LicenseRef-: letters, digits, '.' and '-'.
const LICENSE_REF = /^LicenseRef-[A-Za-z0-9.-]+$/;

const MIT_DISCLAIMER = `THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;

const BSD_DISCLAIMER = `THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.`;

// egorovli/appointment-monitor LICENSE.md: "MIT License with Commercial Use Attribution" — MIT
// with obligations added for commercial users.
const COMMERCIAL_MIT = `MIT License with Commercial Use Attribution

Copyright (c) 2024 Anton Egorov

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

COMMERCIAL USE ATTRIBUTION:
If you use this Software in a commercial context or derive financial benefit
from it (including but not limited to selling products or services that
incorporate this Software, using it in a paid service, or generating revenue
through its use), you are required to:
1. Provide clear attribution to the original author (Anton Egorov) and this
   project in your product, documentation, or user interface.
2. Buy the author a beer (or equivalent beverage of your choice) as a token of
   appreciation. This can be done through a donation, a direct contribution,
   or by reaching out to the author.

${MIT_DISCLAIMER}
`;

// The JSON licence as quoted in maxhbr/LDBcollector md/JSON.md: MIT plus "The Software shall be
// used for Good, not Evil." The SPDX list has this text as a licence of its own (JSON).
const JSON_LICENSE = `Copyright (c) 2002 JSON.org

Permission is hereby granted, free of charge, to any person obtaining a
copy of this software and associated documentation files (the
"Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to
permit persons to whom the Software is furnished to do so, subject to
the following conditions:

The above copyright notice and this permission notice shall be included
in all copies or substantial portions of the Software.

The Software shall be used for Good, not Evil.

${MIT_DISCLAIMER}
`;

// BR1py/itertree docs/docs/licence.rst (an older version): MIT "incl. human protect patch".
const HUMAN_PROTECT_MIT = `The MIT License (MIT) incl. human protect patch
Copyright © 2022 <copyright holders>

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the “Software”), to deal in the Software without restriction, including without limitation
the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and
to permit persons to whom the Software is furnished to do so, subject to the following conditions:

*Human protect patch*:
The program and its derivative work will neither be modified or executed to harm any human being nor through
inaction permit any human being to be harmed.

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED “AS IS”, WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO
THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS
OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT
OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
`;

// falko-team/common-libraries License.md (the version with conditions 3–5): BSD-2-Clause with
// military, surveillance and legality conditions.
const MILITARY_BSD = `# BSD 2-Clause License with Additional Conditions

__Copyright (C) 2024-2025, Falko Team__

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

3. Redistributions or use of the source code, binary, or any derivative works may not be for military purposes,
   including but not limited to the development, testing, or deployment
   of military systems, weapons, or surveillance tools intended for military use.

4. Redistributions or use of the source code, binary, or any derivative works may not be for surveillance purposes,
   including but not limited to the development, testing, or deployment
   of systems intended for unauthorized monitoring, data collection, or espionage
   targeting individuals or organizations without their explicit consent.

5. Redistributions or use of the source code, binary, or any derivative works may not be for activities that violate
   the laws of Spain or the European Union, including but not limited
   to the development, testing, or deployment of systems or tools
   that facilitate illegal activities, infringe on intellectual property rights,
   or compromise privacy and data protection regulations
   under the General Data Protection Regulation (GDPR) or other applicable laws.

> ${BSD_DISCLAIMER}
`;

// lovetwice1012/ToNRoundCounter license.md: BSD-3-Clause with conditions 4–9 added.
const POLITICAL_BSD = `**Copyright (c) yussy, 2025
All rights reserved.**

Redistribution and use in source and binary forms, with or without modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice,
   this list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

3. Neither the name of the copyright holder nor the names of its contributors
   may be used to endorse or promote products derived from this software
   without specific prior written permission.

4. When redistributing software or any files that uses, derives from or modifies this
   softwareor text-based files , you must include not only this software or text-based files’s license notice but
   also the license notices of any third‑party works contained in the
   distributed materials, and display them prominently in an easily
   discoverable location within the distribution.

5. Use of this software or any files for political or religious purposes is prohibited.

6. Use of this software or any files to harm others or to carry out antisocial activities
   is prohibited.

7. If you wish to reuse any text‑based files (e.g. JSON) included with this
   software in other works, you must first disclose to the licensor (yussy)
   your intended purpose, the name of the target program, and any other
   information requested by yussy, and obtain explicit permission.

8. All executable files or any files bundled with this software are governed by the terms
   of this license.

9. You may not use any bundled executable files or any files automatically
   generated to support their operation separately from the primary
   executable.

---

> **DISCLAIMER**
>
> ${BSD_DISCLAIMER.split('\n').join('\n> ')}
`;

// cavnex/mc6809 documentation/LICENSE.md: the author offers a standard BSD licence and a modified
// one (binary redistribution only).
const MC6809_STANDARD = `    Copyright (c) 2016, Greg Miller
    All rights reserved.

    Redistribution and use in source and binary forms, with or without
    modification, are permitted provided that the following conditions are met:
        * Redistributions of source code must retain the above copyright
          notice, this list of conditions and the following disclaimer.
        * Redistributions in binary form must reproduce the above copyright
          notice, this list of conditions and the following disclaimer in the
          documentation and/or other materials provided with the distribution.
        * The name of the author may not be used to endorse or promote products
          derived from this software without specific prior written permission.

    THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
    ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
    WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
    DISCLAIMED. IN NO EVENT SHALL GREG MILLER BE LIABLE FOR ANY
    DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
    (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
    LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND
    ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
    (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
    SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
`;
const MC6809_MODIFIED = `    Copyright (c) 2016, Greg Miller
    All rights reserved.

    Redistribution and use in binary form, with or without
    modification, is permitted provided that the following condition are met:

        * The name of the author may not be used to endorse or promote products
          derived from this software without specific prior written permission.

    Redistribution in source form is not permitted under this license.

    THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
    ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
    WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
    DISCLAIMED. IN NO EVENT SHALL GREG MILLER BE LIABLE FOR ANY
    DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
    (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
    LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND
    ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
    (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
    SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
`;

// msinttypes stdint.h (Alexander Chemeris), as in ScanCode's licence test data
// (lic2/bsd-new_100.txt): clause 3 lost its "not" — the author's name MAY be used.
const NAME_MAY_BE_USED = `//  Copyright (c) 2006-2008 Alexander Chemeris
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are met:
//
//   1. Redistributions of source code must retain the above copyright notice,
//      this list of conditions and the following disclaimer.
//
//   2. Redistributions in binary form must reproduce the above copyright
//      notice, this list of conditions and the following disclaimer in the
//      documentation and/or other materials provided with the distribution.
//
//   3. The name of the author may be used to endorse or promote products
//      derived from this software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE AUTHOR \`\`AS IS'' AND ANY EXPRESS OR IMPLIED
// WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF
// MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO
// EVENT SHALL THE AUTHOR BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
// SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
// PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS;
// OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY,
// WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR
// OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF
// ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
`;

// rerdavies/rerdavies.github.io LICENSE.md: a standard MIT copy with its own copyright line.
const DAVIES_MIT = `MIT License
-----------
Copyright 2021-2024 Robin E. R. Davies

Permission is hereby granted, free of charge, to any person obtaining
a copy of this software and associated documentation files (the "Software"),
to deal in the Software without restriction, including without limitation
the rights to use, copy, modify, merge, publish, distribute, sublicense,
and/or sell copies of the Software, and to permit persons to whom the
Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

${MIT_DISCLAIMER}
`;

// isaacs/node-glob LICENSE: ISC with "THE AUTHOR" and a title.
const GLOB_ISC = `The ISC License

Copyright (c) 2009-2022 Isaac Z. Schlueter and Contributors

Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR
IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
`;

// ScanCode licence test data lic2/bsd-new_17.txt: a BSD-3-Clause copy that stops after clause 3
// (the warranty disclaimer is missing).
const BSD_WITHOUT_DISCLAIMER = `  * Redistribution and use in source and binary forms, with or without
  * modification, are permitted provided that the following conditions
  * are met:
  * 1. Redistributions of source code must retain the above copyright
  *    notice, this list of conditions and the following disclaimer.
  * 2. Redistributions in binary form must reproduce the above copyright
  *    notice, this list of conditions and the following disclaimer in the
  *    documentation and/or other materials provided with the distribution.
  * 3. Neither the name of nexB
  *    nor the names of its contributors may be used to endorse or promote
  *    products derived from this software without specific prior written
  *    permission.`;

// MadWifi's ieee80211_crypto.h: a BSD-3-Clause text with a GPL-2.0 alternative, as in ScanCode's
// licence test data (lic1/dual-bsd-gpl.txt).
const MADWIFI_DUAL = `/*-
 * Copyright (c) 2001 Atsushi Onoe
 * Copyright (c) 2002-2005 Sam Leffler, Errno Consulting
 * All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 * 1. Redistributions of source code must retain the above copyright
 *    notice, this list of conditions and the following disclaimer.
 * 2. Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in the
 *    documentation and/or other materials provided with the distribution.
 * 3. The name of the author may not be used to endorse or promote products
 *    derived from this software without specific prior written permission.
 *
 * Alternatively, this software may be distributed under the terms of the
 * GNU General Public License ("GPL") version 2 as published by the Free
 * Software Foundation.
 *
 * THIS SOFTWARE IS PROVIDED BY THE AUTHOR \`\`AS IS'' AND ANY EXPRESS OR
 * IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES
 * OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED.
 * IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY DIRECT, INDIRECT,
 * INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT
 * NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 * DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
 * THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF
 * THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 *
 * $Id: ieee80211_crypto.h 1441 2006-02-06 16:03:21Z mrenzmann $
 */`;

/** The modified-text finding nearest to `nearest` (an id, or a pattern for a family of look-alikes). */
function expectModified(matches: LicenseMatch[], nearest: string | RegExp): LicenseMatch {
  const m = matches.find((x) => (typeof nearest === 'string' ? x.nearest === nearest : nearest.test(x.nearest ?? '')));
  expect(m, JSON.stringify(matches)).toBeDefined();
  expect(m?.spdx).toBe(modifiedId(m?.nearest ?? ''));
  expect(m?.spdx).toMatch(LICENSE_REF);
  expect(m?.kind).toBe('text');
  expect(m?.score).toBeLessThanOrEqual(MODIFIED_MAX_SCORE);
  expect(m?.evidence?.length).toBeGreaterThan(0);
  return m!;
}

describe('逐词对齐 diffWords', () => {
  const w = (s: string): string[] => s.split(' ');
  it('相同文本没有差异', () => {
    expect(diffWords(w('a b c d'), w('a b c d'))).toEqual([]);
  });
  it('插入、删除与替换各成一段', () => {
    expect(diffWords(w('a b c d'), w('a b x y c d'))).toEqual([{ a0: 2, a1: 2, b0: 2, b1: 4 }]);
    expect(diffWords(w('a b c d'), w('a d'))).toEqual([{ a0: 1, a1: 3, b0: 1, b1: 1 }]);
    expect(diffWords(w('the copyright holder may not'), w('the author may not'))).toEqual([{ a0: 1, a1: 3, b0: 1, b1: 2 }]);
  });
  it('与前文重复的插入段移到最早的位置（整句插在标准句之前）', () => {
    // "the software shall be used ... the software is provided": the inserted sentence starts at
    // the first "the software", not in the middle of it.
    const std = w('included in all copies the software is provided as is');
    const copy = w('included in all copies the software shall be used for good the software is provided as is');
    expect(diffWords(std, copy)).toEqual([{ a0: 4, a1: 4, b0: 4, b1: 11 }]);
  });
  it('长文本（GPL-2.0 全文）对自身无差异，删去一段只报那一段', () => {
    const gpl = licenseText('GPL-2.0-only').toLowerCase().split(/\W+/).filter(Boolean);
    expect(diffWords(gpl, gpl)).toEqual([]);
    const cut = [...gpl.slice(0, 1000), ...gpl.slice(1040)];
    expect(diffWords(gpl, cut)).toEqual([{ a0: 1000, a1: 1040, b0: 1000, b1: 1000 }]);
  });
});

describe('修改过的许可证文本：LicenseRef 加最接近的标准标识', () => {
  it('MIT 加商业使用义务（egorovli/appointment-monitor）', () => {
    const m = expectModified(texts(COMMERCIAL_MIT), 'MIT');
    expect(m.evidence?.[0]).toBe('+ 1. Provide clear attribution to the original author (Anton Egorov) and this');
    expect(m.evidence).toContain('+ COMMERCIAL USE ATTRIBUTION:');
    // Its title names MIT only as the name of this modified text.
    expect(ids(COMMERCIAL_MIT)).toEqual([modifiedId('MIT')]);
  });

  it('“Good, not Evil” 的 JSON 许可证是 SPDX 列表里的 JSON，不是 MIT', () => {
    const found = texts(JSON_LICENSE);
    expect(found.map((m) => m.spdx)).toEqual(['JSON']);
    expect(found[0]?.score).toBeGreaterThan(0.9);
  });

  it('MIT 加 “human protect patch”（BR1py/itertree）', () => {
    const m = expectModified(texts(HUMAN_PROTECT_MIT), 'MIT');
    expect(m.evidence?.join('\n')).toContain('+ The program and its derivative work will neither be modified or executed to harm any human being nor through');
    // The title names MIT, but only as the name of this modified text.
    expect(ids(HUMAN_PROTECT_MIT)).toEqual([modifiedId('MIT')]);
  });

  it('BSD 加禁止军事用途等条件（falko-team/common-libraries）', () => {
    const all = recognizer.recognize(MILITARY_BSD);
    const m = all.find((x) => x.spdx.startsWith('LicenseRef-Cairn-modified-BSD-2-Clause'));
    expect(m, JSON.stringify(all)).toBeDefined();
    expect(m?.nearest).toMatch(/^BSD-2-Clause/);
    expect(m?.score).toBeLessThanOrEqual(MODIFIED_MAX_SCORE);
    // The added conditions come first among the lines that differ.
    expect(m?.evidence?.[0]).toBe('+ 3. Redistributions or use of the source code, binary, or any derivative works may not be for military purposes,');
    // "BSD 2-Clause License with Additional Conditions" is this text's title, not a BSD-2-Clause grant.
    expect(all.some((x) => x.spdx === 'BSD-2-Clause')).toBe(false);
  });

  it('BSD-3-Clause 加第 4–9 条（lovetwice1012/ToNRoundCounter）', () => {
    // The nearest standard text may be a BSD-3-Clause look-alike: the added conditions weigh on the choice.
    const m = expectModified(texts(POLITICAL_BSD), /^BSD-3-Clause/);
    expect(m.evidence).toContain('+ 5. Use of this software or any files for political or religious purposes is prohibited.');
    expect(m.evidence).toContain('+ 6. Use of this software or any files to harm others or to carry out antisocial activities');
    expect(ids(POLITICAL_BSD).filter((id) => !id.startsWith('LicenseRef-'))).toEqual([]);
  });

  it('只许二进制再分发的 BSD（cavnex/mc6809 的 “Modified BSD License”）', () => {
    // Nearest: a BSD text with one clause fewer or more (the family's condition lists weigh on it).
    const m = expectModified(texts(MC6809_MODIFIED), /^BSD-(3-Clause|Source-Code)$/);
    expect(m.evidence).toContain('+ Redistribution in source form is not permitted under this license.');
    // What the copy lacks: the source-code clause of either nearest text.
    expect(m.evidence?.some((line) => /^\u2212 (1\. )?Redistributions of source code must retain/.test(line))).toBe(true);
  });

  it('条款丢了否定词（“The name of the author may be used”）', () => {
    const m = expectModified(texts(NAME_MAY_BE_USED), 'BSD-3-Clause');
    expect(m.evidence).toContain('+ 3. The name of the author may be used to endorse or promote products');
  });

  it('同一文件里标准文本与修改文本各报各的', () => {
    const file = `## Standard BSD license\n\n${MC6809_STANDARD}\n\n## Modified BSD License\n\n${MC6809_MODIFIED}`;
    const found = texts(file);
    expect(found.map((m) => m.spdx)).toEqual(['BSD-3-Clause', expect.stringMatching(/^LicenseRef-Cairn-modified-BSD-(3-Clause|Source-Code)$/)]);
    expect(found[0]?.score).toBeGreaterThan(0.9);
  });

  it('LicenseRef 标识只含字母、数字、点和连字符', () => {
    expect(modifiedId('MIT')).toBe('LicenseRef-Cairn-modified-MIT');
    expect(modifiedId('GPL-2.0-only')).toBe('LicenseRef-Cairn-modified-GPL-2.0-only');
    expect(modifiedId('Foo+Bar_1')).toMatch(LICENSE_REF);
  });
});

describe('在匹配准则允许范围内的标准副本仍是标准许可证', () => {
  it.each([
    ['MIT（rerdavies.github.io，标题与版权行）', DAVIES_MIT, 'MIT'],
    ['ISC（isaacs/node-glob，THE AUTHOR）', GLOB_ISC, 'ISC'],
    ['BSD-3-Clause（cavnex/mc6809，作者名与 GREG MILLER）', MC6809_STANDARD, 'BSD-3-Clause'],
  ])('%s', (_name, text, id) => {
    const found = texts(text);
    expect(found.map((m) => m.spdx)).toEqual([id]);
    expect(found[0]?.score).toBeGreaterThan(0.8);
    expect(found[0]?.nearest).toBeUndefined();
    expect(found[0]?.evidence?.some((line) => /^[+\u2212] /.test(line))).toBe(false);
  });

  it.each(['MIT', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'Zlib', 'Apache-2.0', 'GPL-2.0-only', 'GPL-3.0-only', 'LGPL-2.1-only', 'MPL-2.0'])('SPDX 标准文本 %s', (id) => {
    expect(texts(licenseText(id)).map((m) => m.spdx)).toEqual([id]);
  });

  it('省略可选部分：Apache-2.0 没有标题和 “How to apply” 附录', () => {
    const full = licenseText('Apache-2.0');
    const body = full.slice(full.indexOf('1. Definitions.'), full.indexOf('END OF TERMS AND CONDITIONS'));
    const found = texts(body);
    expect(found.map((m) => m.spdx)).toEqual(['Apache-2.0']);
    expect(found[0]?.score).toBeGreaterThan(0.9);
  });

  it('省略可选部分：GPL-2.0 没有 “How to Apply” 附录', () => {
    const full = licenseText('GPL-2.0-only');
    expect(texts(full.slice(0, full.indexOf('END OF TERMS AND CONDITIONS'))).map((m) => m.spdx)).toEqual(['GPL-2.0-only']);
  });

  it('名称与占位符替换、编号改写：BSD-3-Clause 换成机构名', () => {
    const text = licenseText('BSD-3-Clause')
      .replace('<year> <owner>', '2008 Google Inc.')
      .replace('Neither the name of the copyright holder nor', 'Neither the name of Google Inc. nor')
      .replace(/^(\d)\. /gm, '($1) ');
    expect(texts(text).map((m) => m.spdx)).toEqual(['BSD-3-Clause']);
  });

  it('另一许可证作为可选项写进文本（MadWifi 的 BSD/GPL 双许可）不算修改', () => {
    expect(ids(MADWIFI_DUAL)).toEqual(['BSD-3-Clause', 'GPL-2.0-only']);
  });
});

describe('残缺文本', () => {
  it('缺了结尾免责声明：仍是该许可证，但分数降低并列出缺失的行', () => {
    const found = texts(BSD_WITHOUT_DISCLAIMER);
    expect(found.map((m) => m.spdx)).toEqual(['BSD-3-Clause']);
    expect(found[0]?.score).toBeLessThanOrEqual(PARTIAL_MAX_SCORE);
    expect(found[0]?.evidence?.[0]).toMatch(/^\u2212 THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS/);
  });

  it('缺了条件条款：LicenseRef', () => {
    const text = MC6809_STANDARD.replace(/ {8}\* Redistributions of source code[^\n]*\n[^\n]*\n/, '');
    const m = expectModified(texts(text), 'BSD-3-Clause');
    expect(m.evidence).toEqual(['\u2212 1. Redistributions of source code must retain the above copyright notice, this list of conditions and the following disclaimer.']);
  });

  it('免责声明中间删去责任限制：LicenseRef', () => {
    const text = MC6809_STANDARD.replace(/ +DISCLAIMED\. IN NO EVENT SHALL GREG MILLER BE LIABLE FOR ANY\n/, '    DISCLAIMED.\n');
    expectModified(texts(text), 'BSD-3-Clause');
  });

  it('少了二进制分发条款的 BSD-3-Clause 正是 SPDX 的 BSD-Source-Code：排第一的候选不合时取逐词相符的那个', () => {
    const text = MC6809_STANDARD.replace(/ {8}\* Redistributions in binary form[^\n]*\n[^\n]*\n[^\n]*\n/, '');
    const found = texts(text);
    expect(found.map((m) => m.spdx)).toEqual(['BSD-Source-Code']);
    expect(found[0]?.nearest).toBeUndefined();
  });
});

describe('只点名许可证的声明是引用，不是全文', () => {
  it.each([
    ['This project is licensed under the MIT License - see the LICENSE file for details.', 'MIT'],
    ['Licensed under the Apache License, Version 2.0.', 'Apache-2.0'],
    ['This library is released under the BSD 3-Clause License.', 'BSD-3-Clause'],
  ])('%s', (notice, id) => {
    const found = recognizer.recognize(notice);
    expect(found.map((m) => [m.spdx, m.kind])).toEqual([[id, 'reference']]);
    const full = recognizer.recognize(licenseText(id)).find((m) => m.spdx === id && m.kind === 'text');
    expect(found[0]?.score).toBeLessThan(full?.score ?? 0);
  });
});

describe('修改过的许可证文本：不误报', () => {
  it('年份不是条款：PSF-2.0 里自引的版权年份列表每次发布都会变长', () => {
    const psf = licenseText('PSF-2.0').replace(/2019 Python Software Foundation/, '2019, 2020, 2021, 2022, 2023 Python Software Foundation');
    expect(ids(psf)).toEqual(['PSF-2.0']);
  });

  it('匹配窗口在文本中途停下、下一个许可证重复同样的免责声明时，按本份文本自己的后文判断', () => {
    // Debian x11-utils 7.7+5, /usr/share/doc/x11-utils/copyright (xset's MIT text followed by
    // xlsfonts' notice): the matcher's window stopped at "shall be included in".
    const text = "  Copyright (c) 2009 Apple Inc.\n\n  Permission is hereby granted, free of charge, to any person obtaining a\n  copy of this software and associated documentation files (the \"Software\"),\n  to deal in the Software without restriction, including without limitation\n  the rights to use, copy, modify, merge, publish, distribute, sublicense,\n  and/or sell copies of the Software, and to permit persons to whom the\n  Software is furnished to do so, subject to the following conditions:\n\n  The above copyright notice and this permission notice shall be included in\n  all copies or substantial portions of the Software.\n\n  THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\n  IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,\n  FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL\n  THE ABOVE LISTED COPYRIGHT HOLDER(S) BE LIABLE FOR ANY CLAIM, DAMAGES OR\n  OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE,\n  ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER\n  DEALINGS IN THE SOFTWARE.\n\nxlsfonts:\n  Copyright 1989, 1993, 1998  The Open Group\n\n  Permission to use, copy, modify, distribute, and sell this software and its\n  documentation for any purpose is hereby granted without fee, provided that\n  the above copyright notice appear in all copies and that both that\n  copyright notice and this permission notice appear in supporting\n  documentation.\n\n  The above copyright notice and this permission notice shall be included in\n  all copies or substantial portions of the Software.\n\n  THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\n  IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,\n  FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.  IN NO EVENT SHALL THE\n  OPEN GROUP BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN\n  AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN\n  CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.\n\n  Except as contained in this notice, the name of The Open Group shall not be\n  used in advertising or otherwise to promote the sale, use or other dealings\n  in this Software without prior written authorization from The Open Group.\n\n";
    const { words, lines } = tokenize(text);
    const start = lines.findIndex((l) => l >= 3);
    let end = start;
    while ((lines[end + 1] ?? Infinity) <= 10) end++;
    expect(words.slice(end - 2, end + 1)).toEqual(['be', 'included', 'in']);
    expect(compareToStandard('MIT', words, lines, start, end, text.split('\n')).verdict).toBe('standard');
  });

  it('机读版权文件（DEP-5）里每段许可证文本止于下一个字段行', () => {
    const stanza = (name: string, id: string) => `License: ${name}\n${licenseText(id).split('\n').map((l) => (l.trim() ? ` ${l}` : ' .')).join('\n')}\n`;
    const copyright = [
      'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
      '',
      'Files: *',
      'Copyright: 2004-2010 Internet Systems Consortium, Inc.',
      'License: ISC',
      '',
      'Files: compat/*',
      'Copyright: 2012 Example Author',
      'License: Expat',
      '',
      stanza('ISC', 'ISC'),
      stanza('Expat', 'MIT'),
    ].join('\n');
    const found = texts(copyright);
    expect(found.map((m) => m.spdx)).toEqual(['ISC', 'MIT']);
  });
});
