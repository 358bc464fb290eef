// Licence families told apart on real texts: every file under tests/fixtures/licenses/families/ was
// found in a public repository (README.md there names repository, path and commit) and is kept as
// found, trimmed to its licence part. Each family pair of issue 15 (Deliver 1) is proven on at least
// one real text of each side: the side's id is found and the other one is not.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLicenseRecognizer } from '../../../../server/engine/matchers/licenses/recognize.ts';

const DIR = path.resolve('tests/fixtures/licenses/families');

/** Each fixture and the exact set of ids it must yield. */
const FIXTURES: Record<string, string[]> = {
  'glibc-strlen.c': ['LGPL-2.1-or-later'],
  'kdelibs-klockfile.h': ['LGPL-2.0-only'],
  'kdelibs-kautosavefile.h': ['LGPL-2.0-or-later'],
  'linux-lpfc_mem.c': ['GPL-2.0-only'],
  'linux-vlan.c': ['GPL-2.0-or-later'],
  'gcc-gcc.cc': ['GPL-3.0-or-later'],
  'ifcopenshell-COPYING.LESSER': ['LGPL-3.0-only'],
  'spidermonkey-jsapi.cpp': ['GPL-2.0-or-later', 'LGPL-2.1-or-later', 'MPL-1.1'],
  'spidermonkey-prmjtime.c': ['NPL-1.0'],
  'gecko-jsapi.h': ['MPL-2.0'],
  'manuscripts-id.test.ts.txt': ['CPAL-1.0'],
  'tft-espi-widgets-LICENSE-CeCILL-C-en.md': ['CECILL-C'],
  'spectrochempy-paths.py': ['CECILL-B'],
  'gitb-NOTICE.md': ['EUPL-1.2'],
  'staffeli-LICENSE.md': ['EUPL-1.1'],
  'openzfs-zfs_context.h': ['CDDL-1.0'],
  'glassfish-FileListerRelative.java': ['CDDL-1.1', 'Classpath-exception-2.0', 'GPL-2.0-only'],
  'clojure-set.clj': ['EPL-1.0'],
  'glassfish-ha-api-HashableKey.java': ['Classpath-exception-2.0', 'EPL-2.0', 'GPL-2.0-only'],
  'harmony-Copyright.java': ['Apache-2.0'],
  'modulemaker-Standard.pm': ['Apache-1.1'],
  'nginx-LICENSE': ['BSD-2-Clause'],
  'numpy-LICENSE.txt': ['BSD-3-Clause'],
  'jemalloc-COPYING': ['BSD-2-Clause', 'BSD-3-Clause'],
  // "with no Invariant Sections" / "with the Invariant Sections being ..." name the GFDL variant.
  'pluma-legal.xml': ['GFDL-1.1-no-invariants-or-later'],
  'gcc-gcc.texi': ['GFDL-1.3-invariants-or-later'],
};

/** The family pairs of Deliver 1: LGPL/GPL of every version and -only/-or-later, MPL/NPL/CPAL, CeCILL, EUPL, CDDL, EPL, Apache, BSD, GFDL. */
const PAIRS: [string, string][] = [
  ['LGPL-2.1-or-later', 'GPL-2.0-or-later'],
  ['LGPL-2.0-only', 'GPL-2.0-only'],
  ['LGPL-3.0-only', 'GPL-3.0-or-later'],
  ['LGPL-2.0-only', 'LGPL-2.1-or-later'],
  ['LGPL-2.0-only', 'LGPL-2.0-or-later'],
  ['GPL-2.0-only', 'GPL-2.0-or-later'],
  ['GPL-2.0-or-later', 'GPL-3.0-or-later'],
  ['MPL-1.1', 'MPL-2.0'],
  ['MPL-1.1', 'NPL-1.0'],
  ['MPL-1.1', 'CPAL-1.0'],
  ['CECILL-C', 'CECILL-B'],
  ['EUPL-1.1', 'EUPL-1.2'],
  ['CDDL-1.0', 'CDDL-1.1'],
  ['EPL-1.0', 'EPL-2.0'],
  ['Apache-1.1', 'Apache-2.0'],
  ['BSD-2-Clause', 'BSD-3-Clause'],
  ['GFDL-1.1-no-invariants-or-later', 'GFDL-1.3-invariants-or-later'],
];

const recognizer = createLicenseRecognizer();
const found = new Map(Object.keys(FIXTURES).map((file) => [file, [...new Set(recognizer.recognize(readFileSync(path.join(DIR, file), 'utf8')).map((m) => m.spdx))].sort()]));

describe('许可证家族：公开仓库中的真实文本', () => {
  it('每个真实文本给出的许可证集合与它的来源声明一致', () => {
    for (const [file, expected] of Object.entries(FIXTURES)) expect({ file, ids: found.get(file) }).toEqual({ file, ids: [...expected].sort() });
  });

  it('README 列出每个文件的仓库、路径、提交和许可证', () => {
    const readme = readFileSync(path.join(DIR, 'README.md'), 'utf8');
    for (const [file, expected] of Object.entries(FIXTURES)) {
      const row = readme.split('\n').find((line) => line.includes(`\`${file}\``));
      expect({ file, listed: Boolean(row) }).toEqual({ file, listed: true });
      expect(row).toMatch(/\b[0-9a-f]{40}\b/);
      for (const id of expected) expect(row).toContain(id);
    }
  });

  it.each(PAIRS)('%s 与 %s 在真实文本上区分开', (a, b) => {
    for (const [side, other] of [[a, b], [b, a]] as const) {
      const texts = Object.entries(FIXTURES).filter(([, ids]) => ids.includes(side) && !ids.includes(other));
      expect({ side, texts: texts.length > 0 }).toEqual({ side, texts: true });
      for (const [file] of texts) {
        expect({ file, has: found.get(file)?.includes(side) }).toEqual({ file, has: true });
        expect({ file, confused: found.get(file)?.includes(other) }).toEqual({ file, confused: false });
      }
    }
  });
});
