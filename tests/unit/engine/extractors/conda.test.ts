import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { parseCondaSpec, parseEnvironmentYml, parsePipRequirement } from '../../../../server/engine/extractors/conda/environment.ts';
import { parseCondaMeta, requestedFromHistory, splitMetaFileName } from '../../../../server/engine/extractors/conda/conda-meta.ts';
import { extractors } from '../../../../server/engine/extractors/conda/index.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { TRIVY } from '../../../support/golden.ts';
import { expectClaims } from './extractor.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const { scan } = useTempScan('cairn-conda-', extractors);

const ENV = `name: science
channels:
  - conda-forge
  - defaults
dependencies:
  - python=3.10.12=h955ad1f_0
  - numpy==1.26.0
  - conda-forge::pandas=2.1.1
  - scipy>=1.11        # a range: no exact version
  - matplotlib 3.8.0 py310h_0
  - pip
  - nomkl
  - pip:
      - requests==2.31.0
      - Flask[async]==3.0.0 ; python_version >= "3.8"
      - rich>=13
      - -r requirements.txt
      - git+https://github.com/o/r.git
      - -e .
prefix: /opt/conda/envs/science
`;

const meta = (name: string, version: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, version, build: 'h_0', ...extra }, null, 2);

describe('conda environment.yml', () => {
  it('matches environment.yml / environment.yaml', () => {
    const env = extractors.find((e) => e.name === 'conda-environment')!;
    expectClaims(env, ['envs/environment.yml', 'environment.yaml'], ['docker-compose.yml']);
  });

  it('reads the trivy fixture', () => {
    const t = parseEnvironmentYml(readFileSync(path.join(TRIVY, 'repo/conda-environment/environment.yaml'), 'utf8'), 'environment.yaml');
    expect(t.components.map((c) => [c.purl, c.name, c.version, c.direct, c.locations[0]!.startLine])).toEqual([['pkg:conda/bzip2@1.0.8', 'bzip2', '1.0.8', true, 5]]);
    expect(t.type).toBe('conda-environment');
  });

  it('conda specs and the pip sub-list', () => {
    const t = parseEnvironmentYml(ENV, 'environment.yml');
    expect(t.components.map((c) => [c.ecosystem, c.name, c.version, c.purl])).toEqual([
      ['conda', 'python', '3.10.12', 'pkg:conda/python@3.10.12'],
      ['conda', 'numpy', '1.26.0', 'pkg:conda/numpy@1.26.0'],
      ['conda', 'pandas', '2.1.1', 'pkg:conda/pandas@2.1.1'],
      ['conda', 'scipy', '', 'pkg:conda/scipy'],
      ['conda', 'matplotlib', '3.8.0', 'pkg:conda/matplotlib@3.8.0'],
      ['conda', 'pip', '', 'pkg:conda/pip'],
      ['conda', 'nomkl', '', 'pkg:conda/nomkl'],
      ['pypi', 'requests', '2.31.0', 'pkg:pypi/requests@2.31.0'],
      ['pypi', 'Flask', '3.0.0', 'pkg:pypi/flask@3.0.0'],
      ['pypi', 'rich', '', 'pkg:pypi/rich'],
    ]);
    expect(t.roots).toHaveLength(10);
    expect(t.components.find((c) => c.name === 'requests')!.locations).toEqual([{ file: 'environment.yml', startLine: 14, endLine: 14 }]);
  });

  it('spec helpers', () => {
    expect(parseCondaSpec('numpy=1.21.*')).toEqual({ name: 'numpy', version: '1.21' });
    expect(parseCondaSpec('numpy[version=">=1.0"]')).toEqual({ name: 'numpy', version: '' });
    expect(parseCondaSpec("numpy[version='1.22.0',build=py_0]")).toEqual({ name: 'numpy', version: '1.22.0' });
    expect(parseCondaSpec('conda-forge/linux-64::zlib==1.2.13=h_0')).toEqual({ name: 'zlib', version: '1.2.13' });
    expect(parseCondaSpec('a=1.0|1.1')).toEqual({ name: 'a', version: '' });
    expect(parsePipRequirement('pkg @ https://x/y.whl')).toEqual({ name: 'pkg', version: '' });
    expect(parsePipRequirement('--index-url https://x')).toBeUndefined();
  });

  it('empty input gives an empty target; malformed input throws ExtractError', () => {
    expect(parseEnvironmentYml('', 'environment.yml').components).toEqual([]);
    expect(parseEnvironmentYml('name: x\n', 'environment.yml').components).toEqual([]);
    for (const bad of ['dependencies: 5\n', '- a\n', 'dependencies:\n  - [unclosed\n', 'dependencies: {a: 1}\n']) {
      expect(() => parseEnvironmentYml(bad, 'environment.yml'), bad).toThrow(ExtractError);
    }
  });
});

describe('conda-meta', () => {
  it('matches conda-meta/*.json only', () => {
    const m = extractors.find((e) => e.name === 'conda-meta')!;
    expectClaims(m, ['opt/conda/conda-meta/zlib-1.2.13-h_0.json'], ['conda-meta/history', 'meta/zlib.json']);
  });

  it('reads the trivy fixture: name, version, licence', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo/conda'), { extractors });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.type, t.components.map((c) => [c.purl, c.licenses])])).toEqual([
      ['miniconda3/envs/testenv/conda-meta/openssl-1.1.1q-h7f8727e_0.json', 'conda-meta', [['pkg:conda/openssl@1.1.1q', ['OpenSSL']]]],
      ['miniconda3/envs/testenv/conda-meta/pip-22.2.2-py38h06a4308_0.json', 'conda-meta', [['pkg:conda/pip@22.2.2', ['MIT']]]],
    ]);
  });

  it('edges to installed siblings, direct from the history file', async () => {
    const result = await scan({
      'env/conda-meta/numpy-1.26.0-py310h_0.json': meta('numpy', '1.26.0', { license: 'BSD-3-Clause', depends: ['libblas >=3.9.0', 'python >=3.10,<3.11.0a0', 'missing-pkg'] }),
      'env/conda-meta/libblas-3.9.0-17_openblas.json': meta('libblas', '3.9.0'),
      'env/conda-meta/python-3.10.12-h955ad1f_0.json': meta('python', '3.10.12', { license: 'Python-2.0' }),
      'env/conda-meta/scipy-1.11.0-py310h_0.json': meta('scipy', '1.11.0'),
      'env/conda-meta/history': [
        '==> 2023-10-01 10:00:00 <==',
        '# cmd: conda create -n env python=3.10 numpy scipy',
        "# update specs: ['python=3.10', 'numpy', 'scipy']",
        '==> 2023-10-02 10:00:00 <==',
        "# remove specs: ['scipy']",
      ].join('\n'),
    });
    expect(result.problems).toEqual([]);
    const all = new Map(result.targets.flatMap((t) => t.components).map((c) => [c.name, c]));
    expect(all.get('numpy')!.dependsOn.sort()).toEqual(['pkg:conda/libblas@3.9.0', 'pkg:conda/python@3.10.12']);
    expect([...all.values()].filter((c) => c.direct).map((c) => c.name).sort()).toEqual(['numpy', 'python']);
    expect(all.get('python')!.licenses).toEqual(['Python-2.0']);
  });

  it('helpers', () => {
    expect(splitMetaFileName('ca-certificates-2023.08.22-h06a4308_0.json')).toEqual({ name: 'ca-certificates', version: '2023.08.22' });
    expect(splitMetaFileName('history')).toBeUndefined();
    expect([...requestedFromHistory("# update specs: ['a>=1', \"b\"]\n# install specs: ['c']\n")]).toEqual(['a', 'b', 'c']);
  });

  it('malformed records throw ExtractError in Chinese', () => {
    for (const bad of ['', '{', '[]', '{"name": "x"}', '{"version": "1"}', 'null']) {
      expect(() => parseCondaMeta(bad, 'conda-meta/x.json'), bad).toThrow(ExtractError);
    }
  });
});
