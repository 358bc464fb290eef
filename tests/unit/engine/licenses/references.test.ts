// Short references and machine-readable declarations: `License:` fields, `License ::` classifiers,
// short licence names and the OpenSSL/SSLeay acknowledgements, each read as exactly the licence it
// names, with its kind ('tag' for declarations, 'reference' for prose) and line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifierLicense, TROVE_LICENSES } from '../../../../server/engine/matchers/licenses/classifiers.ts';
import { isKnownLicense } from '../../../../server/engine/matchers/licenses/knowledge.ts';
import { createLicenseRecognizer, type LicenseMatch } from '../../../../server/engine/matchers/licenses/recognize.ts';

const recognizer = createLicenseRecognizer();
const found = (text: string): Pick<LicenseMatch, 'spdx' | 'kind' | 'score' | 'startLine'>[] =>
  recognizer.recognize(text).map(({ spdx, kind, score, startLine }) => ({ spdx, kind, score, startLine }));
const ids = (text: string): string[] => [...new Set(recognizer.recognize(text).map((m) => m.spdx))].sort();

describe('License: fields', () => {
  it.each([
    ['License: zlib', 'Zlib'],
    ['# License: MIT', 'MIT'],
    [' * @license MIT', 'MIT'],
    ['License: Apache-2.0', 'Apache-2.0'],
    ['License: GPL-2+', 'GPL-2.0-or-later'],
    ['License: Expat', 'MIT'],
    ['License: MIT + file LICENSE', 'MIT'],
    ['License: GPL (>= 2)', 'GPL-2.0-or-later'],
    ['License MIT', 'MIT'],
    ["__license__ = 'BSD-3-Clause'", 'BSD-3-Clause'],
  ])('%s → %s (tag)', (line, id) => {
    expect(found(`Name: example\n${line}\n`)).toEqual([{ spdx: id, kind: 'tag', score: 1, startLine: 2 }]);
  });

  it('reads an expression as one tag per licence, free text at a lower score', () => {
    expect(found('License-Expression: MIT OR Apache-2.0')).toEqual([
      { spdx: 'MIT', kind: 'tag', score: 1, startLine: 1 },
      { spdx: 'Apache-2.0', kind: 'tag', score: 1, startLine: 1 },
    ]);
    // An RPM spec's free text.
    expect(found('Name: foo\nLicense:        GPLv2+ and LGPLv2+\n').map((m) => [m.spdx, m.kind, m.score])).toEqual([
      ['GPL-2.0-or-later', 'tag', 0.9],
      ['LGPL-2.0-or-later', 'tag', 0.9],
    ]);
    // Debian copyright: "Artistic" is Perl's Artistic licence, "GPL-1+" GPL 1 or later.
    expect(ids('Files: *\nLicense: Artistic or GPL-1+\n')).toEqual(['Artistic-1.0-Perl', 'GPL-1.0-or-later']);
  });

  it('reads a bare family name as any version, at the confidence of a bare name', () => {
    expect(found('License:      GPL')).toEqual([{ spdx: 'GPL-1.0-or-later', kind: 'tag', score: 0.5, startLine: 1 }]);
    expect(found('License: GPL (/usr/share/common-licenses/GPL)')).toEqual([{ spdx: 'GPL-1.0-or-later', kind: 'tag', score: 0.5, startLine: 1 }]);
    expect(found('setup(\n    name="foo",\n    license="BSD",\n)')).toEqual([{ spdx: 'BSD-3-Clause', kind: 'tag', score: 0.5, startLine: 3 }]);
  });

  it('does not read the lines of a GPL notice or unknown values as fields', () => {
    expect(ids('License, or (at your option) any later version.')).toEqual([]);
    expect(ids('License for more details.')).toEqual([]);
    expect(ids('License: see LICENSE file')).toEqual([]);
    expect(ids('License: other')).toEqual([]);
    expect(ids('License: Proprietary')).toEqual([]);
    // A changelog line is a sentence, not a field.
    expect(ids('* **LICENSE:** Change from BSD modified to MIT ([5a63a1b](https://github.com/BerkeleyTrue/warning/commit/5a63a1b))')).toEqual([]);
  });
});

describe('License :: classifiers', () => {
  it('reads classifiers in setup.py, pyproject.toml and PKG-INFO as exactly their licence', () => {
    const setup = [
      'setup(',
      '    name="example",',
      '    classifiers=[',
      '        "Development Status :: 5 - Production/Stable",',
      '        "License :: OSI Approved :: GNU Lesser General Public License v3 or later (LGPLv3+)",',
      '        "Programming Language :: Python :: 3",',
      '    ],',
      ')',
    ].join('\n');
    // The GNU name inside the classifier is the classifier, not a second, looser reference.
    expect(found(setup)).toEqual([{ spdx: 'LGPL-3.0-or-later', kind: 'tag', score: 1, startLine: 5 }]);
    expect(found("classifiers = [\n  'License :: OSI Approved :: MIT License',\n  'License :: OSI Approved :: Apache Software License',\n]")).toEqual([
      { spdx: 'MIT', kind: 'tag', score: 1, startLine: 2 },
      { spdx: 'Apache-2.0', kind: 'tag', score: 0.5, startLine: 3 },
    ]);
    expect(found('Metadata-Version: 2.1\nName: foo\nClassifier: License :: OSI Approved :: zlib/libpng License\n')).toEqual([{ spdx: 'Zlib', kind: 'tag', score: 1, startLine: 3 }]);
  });

  it('reads nothing from classifiers that name no licence', () => {
    for (const c of ['License :: OSI Approved', 'License :: Other/Proprietary License', 'License :: Freeware', 'License :: Public Domain']) {
      expect(ids(`classifiers = ["${c}"]`)).toEqual([]);
    }
  });

  it('maps every licence classifier PyPI knows, each to a real SPDX id', () => {
    // Every `License ::` classifier of PyPI's list (fixture lists/trove_classifiers.py) is in the table.
    const fixture = readFileSync(path.join(import.meta.dirname, 'lists', 'trove_classifiers.py'), 'utf8');
    const classifiers = [...fixture.matchAll(/"(License :: [^"]+)"/g)].map((m) => m[1] ?? '');
    expect(classifiers.length).toBeGreaterThan(80);
    for (const c of classifiers) expect({ c, known: classifierLicense(c) !== undefined }).toEqual({ c, known: true });
    for (const [name, license] of Object.entries(TROVE_LICENSES)) if (license) expect({ name, id: license.spdx, known: isKnownLicense(license.spdx) }).toEqual({ name, id: license.spdx, known: true });
    expect(classifierLicense('License :: OSI Approved :: GNU General Public License v2 (GPLv2)')).toEqual({ spdx: 'GPL-2.0-only', exact: true });
    expect(classifierLicense('License :: CC0 1.0 Universal (CC0 1.0) Public Domain Dedication')).toEqual({ spdx: 'CC0-1.0', exact: true });
    expect(classifierLicense('Programming Language :: Python')).toBeUndefined();
  });
});

describe('a README\'s licence section', () => {
  it('reads the licence id right under a "License" heading', () => {
    expect(found('# foo\n\nUsage...\n\n## License\n\nMIT © Sindre Sorhus\n')).toEqual([{ spdx: 'MIT', kind: 'reference', score: 0.8, startLine: 7 }]);
    expect(ids('License\n-------\n\n[Apache-2.0](LICENSE)\n')).toEqual(['Apache-2.0']);
    expect(ids('## Licence\n\nISC\n')).toEqual(['ISC']);
    // Prose under the heading is read by the name rules, and other words are no licence.
    expect(ids('## License\n\nThis project is licensed under the MIT License.\n')).toEqual(['MIT']);
    expect(ids('## License\n\nCopyright 2020 Example. All rights reserved.\n')).toEqual([]);
    expect(ids('## License\n\nJSON files are generated.\n')).toEqual([]);
  });
});

describe('short names and acknowledgements', () => {
  it.each([
    ['This is free and unencumbered software. Licensed under the Unlicense.', 'Unlicense'],
    ['Released under the WTFPL.', 'WTFPL'],
    ['DO WHAT THE FUCK YOU WANT TO PUBLIC LICENSE, Version 2, December 2004', 'WTFPL'],
    ['This library is distributed under the zlib/libpng license.', 'Zlib'],
    ['Available under the zlib license, see below.', 'Zlib'],
    ['The project is dedicated to the public domain under CC0 1.0 Universal.', 'CC0-1.0'],
    ['Distributed under the Expat license.', 'MIT'],
  ])('%s → %s', (text, id) => {
    expect(found(text)).toEqual([{ spdx: id, kind: 'reference', score: 0.8, startLine: 1 }]);
  });

  it('reads the OpenSSL and SSLeay acknowledgements of a product notice', () => {
    const openssl = [
      'This product includes software developed by the OpenSSL Project',
      'for use in the OpenSSL Toolkit (http://www.openssl.org/)',
    ].join('\n');
    const ssleay = 'This product includes cryptographic software written by Eric Young (eay@cryptsoft.com)';
    // OpenSSL's licence is the OpenSSL and the original SSLeay licence together.
    expect(ids(`${openssl}\n${ssleay}\n`)).toEqual(['OpenSSL']);
    expect(found(`${openssl}\n`)).toEqual([{ spdx: 'OpenSSL', kind: 'reference', score: 0.8, startLine: 1 }]);
    expect(ids(`${ssleay}\n`)).toEqual(['SSLeay-standalone']);
    // OpenSSL 1.1.1's file header.
    const header = [
      '/*',
      ' * Copyright 1995-2016 The OpenSSL Project Authors. All Rights Reserved.',
      ' *',
      ' * Licensed under the OpenSSL license (the "License").  You may not use',
      ' * this file except in compliance with the License.  You can obtain a copy',
      ' * in the file LICENSE in the source distribution or at',
      ' * https://www.openssl.org/source/license.html',
      ' */',
    ].join('\n');
    expect(found(header)).toEqual([{ spdx: 'OpenSSL', kind: 'reference', score: 0.8, startLine: 4 }]);
  });
});
