// Lists of licences (classifier lists, SPDX id arrays in code, licence databases) yield no
// findings; files that merely name several licences, or declare their own, still do. The real
// lists are in lists/ (sources in lists/README.md) and in the project's node_modules.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { licenseText } from '../../../../server/engine/matchers/licenses/knowledge.ts';
import { isLicenseList } from '../../../../server/engine/matchers/licenses/license-lists.ts';
import { createLicenseRecognizer } from '../../../../server/engine/matchers/licenses/recognize.ts';

const recognizer = createLicenseRecognizer();
const ids = (text: string): string[] => [...new Set(recognizer.recognize(text).map((m) => m.spdx))].sort();
const fixture = (name: string): string => readFileSync(path.join(import.meta.dirname, 'lists', name), 'utf8');
const require = createRequire(import.meta.url);
const packageFile = (name: string): string => readFileSync(require.resolve(name), 'utf8');

describe('licence lists', () => {
  it.each([
    ['PyPI trove classifiers', () => fixture('trove_classifiers.py')],
    ['SPDX ids and classifier names in a licence checker', () => fixture('ha_licenses.py')],
    ['ScanCode LicenseDB index', () => fixture('scancode-licensedb-index.json')],
    ['spdx-license-ids (a JSON array of SPDX ids)', () => packageFile('spdx-license-ids/index.json')],
    ['spdx-license-ids, minified onto one line', () => JSON.stringify(JSON.parse(packageFile('spdx-license-ids/index.json')))],
    ['spdx-license-list (ids, names, URLs)', () => packageFile('spdx-license-list/spdx.json')],
    ['spdx-license-list with every full text', () => packageFile('spdx-license-list/spdx-full.json')],
  ])('%s: a list, no findings', (_name, read) => {
    const text = read();
    expect(isLicenseList(text)).toBe(true);
    expect(recognizer.recognize(text)).toEqual([]);
  });

  it('a lock file or SBOM: other packages\' licence fields by the dozen', () => {
    const lock = JSON.stringify({ packages: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`node_modules/p${i}`, { version: '1.0.0', license: ['MIT', 'ISC', 'Apache-2.0', 'WTFPL', 'Unlicense'][i % 5] }])) }, null, 2);
    expect(isLicenseList(lock)).toBe(true);
    expect(recognizer.recognize(lock)).toEqual([]);
    const sbom = JSON.stringify({ bomFormat: 'CycloneDX', components: Array.from({ length: 40 }, (_, i) => ({ name: `c${i}`, licenses: [{ license: { id: 'MIT' } }] })) });
    expect(isLicenseList(sbom)).toBe(true);
    // A package's own manifest declares one licence: not a list.
    expect(isLicenseList(JSON.stringify({ name: 'foo', license: 'WTFPL' }, null, 2))).toBe(false);
  });

  it('a licence list in plain text or Markdown', () => {
    const ids20 = ['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', '0BSD', 'GPL-2.0-only', 'GPL-3.0-or-later', 'LGPL-2.1-only', 'MPL-2.0', 'EPL-2.0', 'CDDL-1.1', 'Zlib', 'Unlicense', 'CC0-1.0', 'BSL-1.0', 'AGPL-3.0-only', 'Artistic-2.0', 'MIT-0', 'UPL-1.0'];
    expect(isLicenseList(`Allowed licences:\n\n${ids20.map((id) => `- ${id}`).join('\n')}\n`)).toBe(true);
    expect(isLicenseList(`| id | approved |\n|---|---|\n${ids20.map((id) => `| ${id} | yes |`).join('\n')}\n`)).toBe(true);
    expect(ids(`# deny.toml\n[licenses]\nallow = [\n${ids20.map((id) => `    "${id}",`).join('\n')}\n]\n`)).toEqual([]);
  });
});

describe('not lists', () => {
  it('a package declaring its own licence by classifiers', () => {
    const setup = 'setup(\n    name="foo",\n    license="MIT",\n    classifiers=[\n        "License :: OSI Approved :: MIT License",\n        "Programming Language :: Python :: 3",\n    ],\n)\n';
    expect(isLicenseList(setup)).toBe(false);
    expect(ids(setup)).toEqual(['MIT']);
  });

  it('a notices file with many licences, each once, as texts', () => {
    const licences = ['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'Zlib', 'MPL-2.0', 'BSL-1.0', 'Unlicense', '0BSD', 'MIT-0', 'X11', 'NCSA', 'PostgreSQL'];
    const notices = licences.map((id, i) => `${'='.repeat(60)}\ncomponent-${i} 1.${i}.0\nLicense: ${id}\n${'='.repeat(60)}\n\n${licenseText(id)}\n`).join('\n');
    expect(isLicenseList(notices)).toBe(false);
    expect(ids(notices)).toEqual(expect.arrayContaining(licences));
  });

  it('a third-party summary naming each component\'s licence', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `component-${i}  1.0.${i}  ${['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC'][i % 4]}`);
    expect(isLicenseList(`Third-party components\n\n${rows.join('\n')}\n`)).toBe(false);
  });

  it('a Debian copyright file declaring the licence of each part', () => {
    const stanzas = Array.from({ length: 30 }, (_, i) => `Files: src/part${i}/*\nCopyright: 2010 Author ${i}\nLicense: ${['GPL-2+', 'LGPL-2.1+', 'BSD-3-clause', 'Expat'][i % 4]}\n`);
    const copyright = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n${stanzas.join('\n')}`;
    expect(isLicenseList(copyright)).toBe(false);
    expect(ids(copyright)).toEqual(['BSD-3-Clause', 'GPL-2.0-or-later', 'LGPL-2.1-or-later', 'MIT']);
  });

  it('source code with a few quoted ids', () => {
    expect(isLicenseList('const PERMISSIVE = new Set(["MIT", "ISC", "Apache-2.0", "BSD-3-Clause"]);\n// Copyright 2020 Example\n')).toBe(false);
    expect(isLicenseList(licenseText('GPL-3.0-only'))).toBe(false);
  });
});
