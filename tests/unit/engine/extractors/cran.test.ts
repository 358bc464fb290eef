import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/cran/index.ts';
import { dependencyNames, parseDcf, parseRenvLock } from '../../../../server/engine/extractors/cran/renv-lock.ts';
import { parseDescription } from '../../../../server/engine/extractors/cran/description.ts';
import { purlTypeOfOsvEcosystem } from '../../../../contract/ecosystems.ts';
import { schemeForEcosystem } from '../../../../server/engine/matchers/versions/index.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/cran');
const extractor = extractors[0]!;
const description = extractors[1]!;
const { scan } = useTempScan('cairn-renv-', extractors);

/** renv >= 1.0 writes the DESCRIPTION fields; renv < 1.0 a Requirements list. */
const LOCK = JSON.stringify({
  R: { Version: '4.3.1', Repositories: [{ Name: 'CRAN', URL: 'https://cloud.r-project.org' }] },
  Packages: {
    cli: { Package: 'cli', Version: '3.6.1', Source: 'Repository', Repository: 'CRAN', Depends: ['R (>= 3.4)'], Imports: ['utils'] },
    glue: { Package: 'glue', Version: '1.6.2', Source: 'Repository', Repository: 'RSPM', Requirements: [] },
    rlang: { Package: 'rlang', Version: '1.1.1', Source: 'Repository', Repository: 'CRAN', Depends: 'R (>= 3.5.0)', Imports: 'utils' },
    lifecycle: { Package: 'lifecycle', Version: '1.0.3', Source: 'Repository', Repository: 'CRAN', Imports: 'cli (>= 3.4.0), glue, rlang (>= 1.1.0)' },
    dplyr: { Package: 'dplyr', Version: '1.1.2', Source: 'GitHub', RemoteType: 'github', RemoteHost: 'api.github.com', RemoteUsername: 'tidyverse', RemoteRepo: 'dplyr', RemoteSha: 'c1bbe5f', Requirements: ['R', 'cli', 'lifecycle', 'methods'] },
    mypkg: { Package: 'mypkg', Version: '0.0.1', Source: 'Local', RemoteType: 'local', RemoteUrl: '~/mypkg' },
  },
}, null, 2);

describe('R renv.lock', () => {
  it('claims renv.lock only', () => {
    expectClaims(extractor, ['renv.lock', 'analysis/renv.lock'], ['DESCRIPTION', 'renv/activate.R', 'renv.lock.bak']);
  });

  it('reads renv\'s Bioconductor lock file: Bioconductor packages with their repository, the Local package left out', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'renv-bioconductor'), 'renv.lock');
    expect(t.type).toBe('renv');
    expect(t.ecosystem).toBe('cran');
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.direct, c.scope, c.dependsOn, c.locations])).toEqual([
      ['BiocGenerics', '0.38.0', 'pkg:cran/BiocGenerics@0.38.0?repository_url=https%3A%2F%2Fbioconductor.org', true, 'runtime', [], [{ file: 'renv.lock', startLine: 15, endLine: 24 }]],
      ['limma', '3.50.0', 'pkg:cran/limma@3.50.0?repository_url=https%3A%2F%2Fbioconductor.org', true, 'runtime', [], [{ file: 'renv.lock', startLine: 25, endLine: 34 }]],
    ]);
  });

  it('edges from Requirements and from Depends/Imports/LinkingTo; without a DESCRIPTION the unrequired packages are the roots', () => {
    const t = parseRenvLock(LOCK, 'renv.lock');
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.direct, c.dependsOn])).toEqual([
      ['cli', '3.6.1', 'pkg:cran/cli@3.6.1', false, []],
      ['glue', '1.6.2', 'pkg:cran/glue@1.6.2', false, []],
      ['rlang', '1.1.1', 'pkg:cran/rlang@1.1.1', false, []],
      ['lifecycle', '1.0.3', 'pkg:cran/lifecycle@1.0.3', false, ['pkg:cran/cli@3.6.1', 'pkg:cran/glue@1.6.2', 'pkg:cran/rlang@1.1.1']],
      ['dplyr', '1.1.2', 'pkg:cran/dplyr@1.1.2?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Ftidyverse%2Fdplyr%40c1bbe5f', true, ['pkg:cran/cli@3.6.1', 'pkg:cran/lifecycle@1.0.3']],
    ]);
    expect(t.roots).toEqual(['pkg:cran/dplyr@1.1.2?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Ftidyverse%2Fdplyr%40c1bbe5f']);
  });

  it('a sibling DESCRIPTION names the declared packages and the project', async () => {
    const result = await scan({
      'renv.lock': LOCK,
      DESCRIPTION: 'Package: analysis\nVersion: 0.2.0\nDepends: R (>= 4.1)\nImports:\n    glue,\n    rlang (>= 1.1.0)\nSuggests: testthat\n',
    });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.project).toEqual({ purl: 'pkg:cran/analysis@0.2.0', name: 'analysis', version: '0.2.0' });
    expect(t.roots).toEqual(['pkg:cran/glue@1.6.2', 'pkg:cran/rlang@1.1.1']);
  });

  it('DESCRIPTION fields and dependency lists', () => {
    expect(parseDcf('Package: x\nImports: a,\n  b (>= 1),\n\tc\nTitle: T\n').get('Imports')).toBe('a, b (>= 1), c');
    expect(dependencyNames('R (>= 3.5), data.table (>= 1.14), , Rcpp')).toEqual(['R', 'data.table', 'Rcpp']);
  });

  it('empty and malformed lock files', () => {
    expect(parseRenvLock('', 'renv.lock').components).toEqual([]);
    expect(parseRenvLock('{"R": {"Version": "4.3.1"}}', 'renv.lock').components).toEqual([]);
    expect(() => parseRenvLock('{"Packages": [', 'renv.lock')).toThrow(ExtractError);
    expect(() => parseRenvLock('{"Packages": []}', 'renv.lock')).toThrow(/Packages 应为对象/);
    const partial = parseRenvLock('{"Packages": {\n  "x": {"Package": "x"},\n  "y": {"Package": "y", "Version": "1.0"}\n}}', 'renv.lock');
    expect(partial.components.map((c) => c.purl)).toEqual(['pkg:cran/y@1.0']);
    expect(partial.problems).toEqual(['renv.lock 第 2 行的包 x 缺少 Version，未列入组件']);
  });

  it('OSV\'s CRAN advisories meet these components under the CRAN version scheme', () => {
    expect(purlTypeOfOsvEcosystem('CRAN')).toBe('cran');
    expect(schemeForEcosystem('cran').id).toBe('cran');
  });
});

describe('R DESCRIPTION', () => {
  it('claims DESCRIPTION files only', () => {
    expectClaims(description, ['DESCRIPTION', 'renv/library/R-4.3/x86_64-pc-linux-gnu/cli/DESCRIPTION', 'usr/lib/R/site-library/cli/DESCRIPTION'], ['DESCRIPTION.md', 'description', 'NAMESPACE']);
  });

  it('an installed copy (Built:) is the package itself, with its version and licence', () => {
    const t = parseDescription(`${readFileSync(path.join(FIXTURES, 'syft-stringr/DESCRIPTION'), 'utf8')}Built: R 4.2.1; ; 2022-09-01 00:00:00 UTC; unix\n`, 'site-library/stringr/DESCRIPTION')!;
    expect(t.type).toBe('r-description');
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.direct, c.licenses, c.dependsOn, c.locations])).toEqual([
      ['stringr', '1.5.0.9000', 'pkg:cran/stringr@1.5.0.9000', true, ['MIT + file LICENSE'], [], [{ file: 'site-library/stringr/DESCRIPTION', startLine: 1, endLine: 47 }]],
    ]);
    expect(t.roots).toEqual(['pkg:cran/stringr@1.5.0.9000']);
  });

  it('source DESCRIPTION files (syft\'s stringr, renv\'s test package) and unrelated files of that name report nothing', async () => {
    expect(await description.extract({ path: 'DESCRIPTION', size: 0, read: async () => Buffer.from(''), text: async () => readFileSync(path.join(FIXTURES, 'syft-stringr/DESCRIPTION'), 'utf8') }, undefined as never)).toEqual([]);
    const result = await scan({
      'pkg/DESCRIPTION': readFileSync(path.join(FIXTURES, 'renv-description/DESCRIPTION'), 'utf8'),
      'docs/DESCRIPTION': 'A plain text file that describes the docs folder.\n',
      'lib/cli/DESCRIPTION': 'Package: cli\nVersion: 3.6.1\nLicense: MIT + file LICENSE\nBuilt: R 4.3.1; x86_64-pc-linux-gnu; 2023-07-01 00:00:00 UTC; unix\n',
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.components.map((c) => c.purl)])).toEqual([['lib/cli/DESCRIPTION', ['pkg:cran/cli@3.6.1']]]);
  });
});
