// setup.py / setup.cfg without a lock, and installed egg metadata pip lists: single-file
// `.egg-info` anywhere, `.egg-info/requires.txt` for an egg's dependencies.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/python/index.ts';
import { eggRequires, isInstalledMetadata } from '../../../../server/engine/extractors/python/installed.ts';
import { setupCfg, setupPy } from '../../../../server/engine/extractors/python/setup.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/pypi');
const { scan } = useTempScan('cairn-pysetup-', extractors);
const rows = (t: Target) => t.components.map((c) => [c.purl, c.version, c.constraint, c.scope, c.locations[0]!.startLine]);

describe('setup.py', () => {
  it('claims setup.py and setup.cfg by name', () => {
    expectClaims(setupPy, ['setup.py', 'pkg/setup.py'], ['setup.cfg', 'mysetup.py']);
    expectClaims(setupCfg, ['setup.cfg', 'pkg/setup.cfg'], ['setup.py', 'setup.cfg.in']);
  });

  it('reads requests\' setup.py: names assigned lists, tests_require, extras (marker keys), computed name', async () => {
    const t = await extractFile(setupPy, path.join(FIXTURES, 'requests-setup-py'), 'setup.py');
    expect(t).toMatchObject({ type: 'setup.py', ecosystem: 'pypi', project: null });
    expect(rows(t)).toEqual([
      ['pkg:pypi/chardet', '', '>=3.0.2,<3.1.0', 'runtime', 46],
      ['pkg:pypi/idna', '', '>=2.5,<2.7', 'runtime', 47],
      ['pkg:pypi/urllib3', '', '>=1.21.1,<1.23', 'runtime', 48],
      ['pkg:pypi/certifi', '', '>=2017.4.17', 'runtime', 49],
      ['pkg:pypi/pytest-httpbin@0.0.7', '0.0.7', undefined, 'development', 52],
      ['pkg:pypi/pytest-cov', '', '*', 'development', 52],
      ['pkg:pypi/pytest-mock', '', '*', 'development', 52],
      ['pkg:pypi/pytest-xdist', '', '*', 'development', 52],
      // in tests_require and in the socks extra: the runtime declaration wins
      ['pkg:pypi/pysocks', '', '>=1.5.6,!=1.5.7', 'runtime', 52],
      ['pkg:pypi/pytest', '', '>=2.8.0', 'development', 52],
      ['pkg:pypi/pyopenssl', '', '>=0.14', 'runtime', 98],
      ['pkg:pypi/cryptography', '', '>=1.3.4', 'runtime', 98],
      ['pkg:pypi/win-inet-pton', '', '*', 'runtime', 100],
    ]);
    expect(t.components.every((c) => c.direct)).toBe(true);
  });

  it('reads syft\'s setup.py fixtures: a list plus a """...""".split() string, pins, the project', async () => {
    const mixed = await extractFile(setupPy, path.join(FIXTURES, 'syft-mixed-format'), 'setup.py');
    expect(mixed.project).toMatchObject({ name: 'mixed-format-project', version: '1.0.0' });
    expect(rows(mixed)).toEqual([
      ['pkg:pypi/requests@2.31.0', '2.31.0', undefined, 'runtime', 11],
      ['pkg:pypi/django@4.2.23', '4.2.23', undefined, 'runtime', 12],
      ['pkg:pypi/flask@3.0.0', '3.0.0', undefined, 'runtime', 15],
    ]);
    const split = await extractFile(setupPy, path.join(FIXTURES, 'syft-multiline-split'), 'setup.py');
    expect(rows(split)).toEqual([
      ['pkg:pypi/django@4.2.23', '4.2.23', undefined, 'runtime', 10],
      ['pkg:pypi/cairosvg@2.7.1', '2.7.1', undefined, 'runtime', 11],
      ['pkg:pypi/pillow@11.0.0', '11.0.0', undefined, 'runtime', 12],
      ['pkg:pypi/requests@2.31.0', '2.31.0', undefined, 'runtime', 13],
      ['pkg:pypi/celery@5.3.4', '5.3.4', undefined, 'runtime', 14],
      ['pkg:pypi/pytest@7.4.3', '7.4.3', undefined, 'runtime', 18],
      ['pkg:pypi/black@23.12.1', '23.12.1', undefined, 'runtime', 19],
      ['pkg:pypi/mypy@1.7.1', '1.7.1', undefined, 'runtime', 20],
    ]);
  });

  it('passes over what only running setup.py would tell: comprehensions, file reads, f-strings, comments', async () => {
    const result = await scan({
      'setup.py': `import setuptools
# install_requires=['commented==1.0']
deps = [l.strip() for l in open('requirements.txt')]
setuptools.setup(
    name="demo", version="2.0",
    install_requires=deps + ["six>=1.16", f"numpy=={NP}"],
    setup_requires=('wheel',),
    url="https://example.com/x==1",
)
`,
    });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.project).toMatchObject({ name: 'demo', version: '2.0' });
    expect(rows(t)).toEqual([
      ['pkg:pypi/six', '', '>=1.16', 'runtime', 6],
      ['pkg:pypi/wheel', '', '*', 'development', 7],
    ]);
  });

  it('leaves setup.py and setup.cfg to a lock beside them', async () => {
    const result = await scan({
      'setup.py': 'from setuptools import setup\nsetup(install_requires=["six"])\n',
      'setup.cfg': '[options]\ninstall_requires =\n    six\n',
      'poetry.lock': '',
    });
    expect(result.targets.filter((t) => t.type.startsWith('setup'))).toEqual([]);
  });
});

describe('setup.cfg', () => {
  it('reads pytest\'s setup.cfg: install_requires with markers, setup_requires, [options.extras_require]', async () => {
    const t = await extractFile(setupCfg, path.join(FIXTURES, 'pytest-setup-cfg'), 'setup.cfg');
    expect(t.project).toMatchObject({ name: 'pytest', version: '' });
    expect(rows(t)).toEqual([
      ['pkg:pypi/iniconfig', '', '*', 'runtime', 47],
      ['pkg:pypi/packaging', '', '*', 'runtime', 48],
      ['pkg:pypi/pluggy', '', '>=1.3.0,<2.0', 'runtime', 49],
      ['pkg:pypi/colorama', '', '*', 'runtime', 50],
      ['pkg:pypi/exceptiongroup', '', '>=1.0.0rc8', 'runtime', 51],
      ['pkg:pypi/tomli', '', '>=1.0.0', 'runtime', 52],
      // also in the testing extra, which is runtime as pyproject's optional-dependencies are
      ['pkg:pypi/setuptools', '', '*', 'runtime', 57],
      ['pkg:pypi/setuptools-scm', '', '>=6.0', 'development', 58],
      ['pkg:pypi/argcomplete', '', '*', 'runtime', 68],
      ['pkg:pypi/attrs', '', '>=19.2.0', 'runtime', 69],
      ['pkg:pypi/hypothesis', '', '>=3.56', 'runtime', 70],
      ['pkg:pypi/mock', '', '*', 'runtime', 71],
      ['pkg:pypi/nose', '', '*', 'runtime', 72],
      ['pkg:pypi/pygments', '', '>=2.7.2', 'runtime', 73],
      ['pkg:pypi/requests', '', '*', 'runtime', 74],
      ['pkg:pypi/xmlschema', '', '*', 'runtime', 76],
    ]);
  });

  it('one-line values, file: requirement files, comments, attr: versions', async () => {
    const result = await scan({
      'setup.cfg': '[metadata]\nname = demo\nversion = attr: demo.__version__\n\n[options]\ninstall_requires = file: requirements/base.txt\ntests_require = pytest==8.0.0 ; comment-free\nsetup_requires =\n    # a comment\n    wheel\n',
      'requirements/base.txt': '# base\nrequests==2.31.0\n-r other.txt\nclick>=8\n',
    });
    const t = result.targets.find((x) => x.type === 'setup.cfg')!;
    expect(t.project).toMatchObject({ name: 'demo', version: '' });
    expect(rows(t)).toEqual([
      ['pkg:pypi/requests@2.31.0', '2.31.0', undefined, 'runtime', 6],
      ['pkg:pypi/click', '', '>=8', 'runtime', 6],
      ['pkg:pypi/pytest@8.0.0', '8.0.0', undefined, 'development', 7],
      ['pkg:pypi/wheel', '', '*', 'development', 10],
    ]);
  });
});

describe('installed metadata as pip lists it', () => {
  it('a single-file .egg-info is read outside site-packages too', async () => {
    expect(isInstalledMetadata('opt/tools/distlib-0.3.1-py3.9.egg-info')).toBe(true);
    expect(isInstalledMetadata('usr/lib/python2.7/lib-dynload/Python-2.7.egg-info')).toBe(true);
    expect(isInstalledMetadata('docs/how-to.egg-info.md')).toBe(false);
    const result = await scanTree(path.join(FIXTURES, 'trivy-distlib'), { extractors });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.type])).toEqual([['opt/tools/distlib-0.3.1-py3.9.egg-info', 'python-pkg']]);
    expect(result.targets[0]!.components).toEqual([expect.objectContaining({ purl: 'pkg:pypi/distlib@0.3.1', licenses: ['Python license'] })]);
  });

  it('requires.txt of an egg: unconditional and marker sections are edges, extras are not', async () => {
    // setuptools' own requires.txt (pypa/setuptools@aa8f6be, setuptools.egg-info/requires.txt): extras only.
    expect(eggRequires("\n[certs]\ncertifi==1.0.1\n\n[ssl:sys_platform=='win32']\nwincertstore==0.2\n")).toEqual([
      'certifi==1.0.1; extra == "certs"',
      'wincertstore==0.2; extra == "ssl" and sys_platform==\'win32\'',
    ]);
    const site = 'venv/lib/python3.8/site-packages';
    const result = await scan({
      [`${site}/app-1.0-py3.8.egg-info/PKG-INFO`]: 'Metadata-Version: 1.2\nName: app\nVersion: 1.0\n',
      [`${site}/app-1.0-py3.8.egg-info/requires.txt`]: 'six>=1.0\n\n[:python_version < "3.9"]\nzipp\n\n[test]\npytest\n',
      [`${site}/six-1.16.0.dist-info/METADATA`]: 'Name: six\nVersion: 1.16.0\n',
      [`${site}/zipp-3.1.0.dist-info/METADATA`]: 'Name: zipp\nVersion: 3.1.0\n',
      [`${site}/pytest-8.0.0.dist-info/METADATA`]: 'Name: pytest\nVersion: 8.0.0\n',
    });
    const app = result.targets.find((t) => t.file.endsWith('PKG-INFO'))!.components[0]!;
    expect(app.dependsOn).toEqual(['pkg:pypi/six@1.16.0', 'pkg:pypi/zipp@3.1.0']);
  });
});
