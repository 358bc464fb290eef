// Pipfile.lock, poetry.lock, uv.lock, pdm.lock, pylock.toml and installed distributions: trivy
// fixtures plus synthetic cases (scopes, groups, edges, root project, malformed input).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../../../server/engine/model.ts';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/python/index.ts';
import { installed, isInstalledMetadata, licensesOf, parseHeaders } from '../../../../server/engine/extractors/python/installed.ts';
import { pdm } from '../../../../server/engine/extractors/python/pdm.ts';
import { pipenv } from '../../../../server/engine/extractors/python/pipenv.ts';
import { poetry } from '../../../../server/engine/extractors/python/poetry.ts';
import { isPylock, pylock } from '../../../../server/engine/extractors/python/pylock.ts';
import { uv } from '../../../../server/engine/extractors/python/uv.ts';
import { TRIVY } from '../../../support/golden.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const { scan } = useTempScan('cairn-py-', extractors);

function memCtx(files: Record<string, string>): ExtractContext {
  return {
    signal: new AbortController().signal,
    readText: async (p) => files[p],
    list: async (dir) => {
      const prefix = dir ? `${dir}/` : '';
      return [...new Set(Object.keys(files).filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split('/')[0]))];
    },
    exists: async (p) => p in files,
  };
}

async function run(extractor: Extractor, files: Record<string, string>, entry: string): Promise<Target> {
  const text = files[entry];
  const file: InputFile = { path: entry, size: text.length, read: async () => Buffer.from(text), text: async () => text };
  const targets = await extractor.extract(file, memCtx(files));
  expect(targets).toHaveLength(1);
  return targets[0];
}

async function fixture(extractor: Extractor, repo: string, names: string[], entry: string): Promise<Target> {
  const files: Record<string, string> = {};
  for (const n of names) files[n] = await readFile(path.join(TRIVY, 'repo', repo, n), 'utf8');
  return run(extractor, files, entry);
}

const byName = (t: Target): Record<string, Component> => Object.fromEntries(t.components.map((c) => [c.name, c]));

describe('Pipfile.lock', () => {
  it('trivy 示例：版本去掉 ==，行号覆盖整个条目', async () => {
    const t = await fixture(pipenv, 'pipenv', ['Pipfile.lock'], 'Pipfile.lock');
    expect(t.type).toBe('pipenv');
    expect(t.components).toEqual([expect.objectContaining({
      name: 'werkzeug', version: '0.11.1', purl: 'pkg:pypi/werkzeug@0.11.1', scope: 'runtime',
      locations: [{ file: 'Pipfile.lock', startLine: 19, endLine: 26 }],
    })]);
  });

  it('develop 为 development；Pipfile 决定直接依赖；两处都有时取 runtime', async () => {
    const lock = JSON.stringify({
      _meta: {},
      default: { six: { version: '==1.16.0' }, idna: { version: '==3.4' }, local: { path: '.', editable: true }, vcs: { git: 'https://x/y.git', ref: 'abc' } },
      develop: { pytest: { version: '==8.0.0' }, six: { version: '==1.16.0' } },
    }, null, 4);
    const t = await run(pipenv, { 'sub/Pipfile.lock': lock, 'sub/Pipfile': '[packages]\nsix = "*"\n[dev-packages]\npytest = "*"\n' }, 'sub/Pipfile.lock');
    const c = byName(t);
    expect(Object.keys(c).sort()).toEqual(['idna', 'pytest', 'six', 'vcs']);
    expect(c.six).toMatchObject({ scope: 'runtime', direct: true });
    expect(c.pytest).toMatchObject({ scope: 'development', direct: true });
    expect(c.idna.direct).toBe(false);
    expect(c.vcs.version).toBe('');
    expect(t.roots.sort()).toEqual(['pkg:pypi/pytest@8.0.0', 'pkg:pypi/six@1.16.0']);
  });

  it('无效 JSON 抛出中文 ExtractError', async () => {
    await expect(run(pipenv, { 'Pipfile.lock': '{"default": ' }, 'Pipfile.lock')).rejects.toThrow(ExtractError);
    await expect(run(pipenv, { 'Pipfile.lock': '{"default": ' }, 'Pipfile.lock')).rejects.toThrow(/不是有效的 JSON/);
  });
});

describe('poetry.lock', () => {
  it('trivy 示例：依赖边、由 pyproject.toml 确定直接依赖与项目', async () => {
    const t = await fixture(poetry, 'poetry', ['poetry.lock', 'pyproject.toml'], 'poetry.lock');
    const c = byName(t);
    expect(c.click).toMatchObject({ version: '8.1.3', direct: true, scope: 'runtime', dependsOn: ['pkg:pypi/colorama@0.4.6'] });
    expect(c.colorama.direct).toBe(false);
    expect(c.werkzeug.direct).toBe(true);
    expect(c.click.locations[0]).toEqual({ file: 'poetry.lock', startLine: 3, endLine: 16 });
    expect(t.project).toEqual({ purl: 'pkg:pypi/test@0.1.0', name: 'test', version: '0.1.0' });
    expect(t.roots.sort()).toEqual(['pkg:pypi/click@8.1.3', 'pkg:pypi/werkzeug@0.14']);
  });

  it('1.x 格式：没有 pyproject.toml 时按 category 判断 dev', async () => {
    const lock = [
      '[[package]]', 'name = "pytest"', 'version = "7.0.0"', 'category = "dev"', '',
      '[package.dependencies]', 'pluggy = ">=0.12,<2.0"', '',
      '[[package]]', 'name = "pluggy"', 'version = "1.0.0"', 'category = "dev"', '',
      '[[package]]', 'name = "requests"', 'version = "2.31.0"', 'category = "main"', '',
      '[metadata]', 'lock-version = "1.1"',
    ].join('\n');
    const t = await run(poetry, { 'poetry.lock': lock }, 'poetry.lock');
    const c = byName(t);
    expect(c.pytest).toMatchObject({ scope: 'development', dependsOn: ['pkg:pypi/pluggy@1.0.0'] });
    expect(c.pluggy.scope).toBe('development');
    expect(c.requests.scope).toBe('runtime');
    expect(t.project).toBeNull();
  });

  it('2.x 格式：pyproject 的 group 决定 dev，运行时可达者保持 runtime；多版本按约束挑选', async () => {
    const lock = [
      '[[package]]', 'name = "black"', 'version = "24.1.0"', 'groups = ["lint"]', '',
      '[package.dependencies]', 'click = ">=8.0.0"', 'packaging = [{version = "23.2", markers = "python_version >= \'3.8\'"}]', '',
      '[[package]]', 'name = "click"', 'version = "8.1.7"', 'groups = ["main", "lint"]', '',
      '[[package]]', 'name = "packaging"', 'version = "23.2"', 'groups = ["lint"]', '',
      '[[package]]', 'name = "packaging"', 'version = "21.0"', 'groups = ["lint"]', '',
      '[[package]]', 'name = "flask"', 'version = "3.0.0"', 'groups = ["main"]', '',
      '[package.dependencies]', 'click = ">=8.1.3"', '',
      '[metadata]', 'lock-version = "2.1"',
    ].join('\n');
    const pyproject = '[project]\nname = "demo"\nversion = "1.0"\ndependencies = ["flask>=3"]\n[tool.poetry.group.lint.dependencies]\nblack = "*"\n';
    const t = await run(poetry, { 'poetry.lock': lock, 'pyproject.toml': pyproject }, 'poetry.lock');
    const c = Object.fromEntries(t.components.map((x) => [x.purl, x]));
    expect(c['pkg:pypi/black@24.1.0']).toMatchObject({ scope: 'development', direct: true });
    expect(c['pkg:pypi/black@24.1.0'].dependsOn.sort()).toEqual(['pkg:pypi/click@8.1.7', 'pkg:pypi/packaging@23.2']);
    expect(c['pkg:pypi/click@8.1.7'].scope).toBe('runtime');
    expect(c['pkg:pypi/flask@3.0.0']).toMatchObject({ scope: 'runtime', direct: true });
    expect(t.project?.purl).toBe('pkg:pypi/demo@1.0');
  });

  it('无效 TOML 抛出中文 ExtractError', async () => {
    await expect(run(poetry, { 'poetry.lock': '[[package]\nname = "x"' }, 'poetry.lock')).rejects.toThrow(/poetry\.lock 文件 poetry\.lock 不是有效的 TOML/);
    await expect(run(poetry, { 'poetry.lock': 'package = 3' }, 'poetry.lock')).rejects.toThrow(ExtractError);
  });

  it('没有 name 的 [[package]] 跳过并报告行号，其余照常读取', async () => {
    const t = await run(poetry, { 'poetry.lock': '[[package]]\nversion = "1"\n\n[[package]]\nname = "six"\nversion = "1.16.0"\n' }, 'poetry.lock');
    expect(t.problems).toEqual(['poetry.lock 第 1 行：[[package]] 缺少 name，已跳过']);
    expect(t.components.map((c) => c.purl)).toEqual(['pkg:pypi/six@1.16.0']);
  });
});

describe('uv.lock', () => {
  it('trivy 示例：根项目、直接依赖与依赖边', async () => {
    const t = await fixture(uv, 'uv', ['uv.lock'], 'uv.lock');
    expect(t.project).toEqual({ purl: 'pkg:pypi/uv-test@0.1.0', name: 'uv-test', version: '0.1.0' });
    expect(t.roots.sort()).toEqual(['pkg:pypi/click@8.1.3', 'pkg:pypi/werkzeug@0.11.1']);
    const c = byName(t);
    expect(Object.keys(c).sort()).toEqual(['click', 'colorama', 'werkzeug']);
    expect(c.click).toMatchObject({ direct: true, dependsOn: ['pkg:pypi/colorama@0.4.6'] });
    expect(c.colorama.direct).toBe(false);
  });

  it('dev-dependencies 为 development；按版本区分同名包', async () => {
    const lock = [
      'version = 1', '',
      '[[package]]', 'name = "app"', 'version = "0.2.0"', 'source = { editable = "." }',
      'dependencies = [{ name = "numpy", version = "1.26.0", marker = "python_version < \'3.13\'" }, { name = "attrs" }]',
      '[package.optional-dependencies]', 'fast = [{ name = "orjson" }]',
      '[package.dev-dependencies]', 'dev = [{ name = "pytest" }]', '',
      '[[package]]', 'name = "numpy"', 'version = "1.26.0"', 'source = { registry = "https://pypi.org/simple" }', '',
      '[[package]]', 'name = "numpy"', 'version = "2.1.0"', 'source = { registry = "https://pypi.org/simple" }', '',
      '[[package]]', 'name = "attrs"', 'version = "23.1.0"', 'source = { registry = "https://pypi.org/simple" }', '',
      '[[package]]', 'name = "orjson"', 'version = "3.9.0"', 'source = { registry = "https://pypi.org/simple" }', '',
      '[[package]]', 'name = "pytest"', 'version = "8.0.0"', 'source = { registry = "https://pypi.org/simple" }',
      'dependencies = [{ name = "iniconfig" }, { name = "attrs" }]', '',
      '[[package]]', 'name = "iniconfig"', 'version = "2.0.0"', 'source = { registry = "https://pypi.org/simple" }',
    ].join('\n');
    const t = await run(uv, { 'uv.lock': lock }, 'uv.lock');
    const c = Object.fromEntries(t.components.map((x) => [x.purl, x]));
    expect(t.project?.name).toBe('app');
    expect(t.roots.sort()).toEqual(['pkg:pypi/attrs@23.1.0', 'pkg:pypi/numpy@1.26.0', 'pkg:pypi/orjson@3.9.0', 'pkg:pypi/pytest@8.0.0']);
    expect(c['pkg:pypi/pytest@8.0.0']).toMatchObject({ scope: 'development', direct: true });
    expect(c['pkg:pypi/iniconfig@2.0.0']).toMatchObject({ scope: 'development', direct: false });
    expect(c['pkg:pypi/attrs@23.1.0'].scope).toBe('runtime');
    expect(c['pkg:pypi/numpy@2.1.0'].direct).toBe(false);
    expect(c['pkg:pypi/pytest@8.0.0'].locations[0].startLine).toBeGreaterThan(1);
  });

  it('虚拟工作区：manifest members 为直接依赖', async () => {
    const lock = [
      'version = 1', '[manifest]', 'members = ["api", "worker"]', '',
      '[[package]]', 'name = "api"', 'version = "0.1.0"', 'source = { editable = "packages/api" }', 'dependencies = [{ name = "six" }]', '',
      '[[package]]', 'name = "worker"', 'version = "0.2.0"', 'source = { editable = "packages/worker" }', '',
      '[[package]]', 'name = "six"', 'version = "1.16.0"', 'source = { registry = "https://pypi.org/simple" }',
    ].join('\n');
    const t = await run(uv, { 'uv.lock': lock }, 'uv.lock');
    expect(t.project).toBeNull();
    expect(t.roots).toEqual(['pkg:pypi/api@0.1.0', 'pkg:pypi/worker@0.2.0']);
    expect(byName(t).api).toMatchObject({ direct: true, dependsOn: ['pkg:pypi/six@1.16.0'] });
    expect(byName(t).six.direct).toBe(false);
  });

  it('无效 TOML 抛出中文 ExtractError', async () => {
    await expect(run(uv, { 'uv.lock': 'version = \n' }, 'uv.lock')).rejects.toThrow(/uv\.lock 文件 uv\.lock 不是有效的 TOML/);
  });
});

describe('pdm.lock', () => {
  const lock = [
    '[metadata]', 'groups = ["default", "test"]', 'lock_version = "4.4"', '',
    '[[package]]', 'name = "requests"', 'version = "2.31.0"', 'groups = ["default"]',
    'dependencies = [', '    "charset-normalizer<4,>=2",', '    "idna<4,>=2.5",', ']', '',
    '[[package]]', 'name = "charset-normalizer"', 'version = "3.3.2"', 'groups = ["default"]', '',
    '[[package]]', 'name = "idna"', 'version = "3.6"', 'groups = ["default"]', '',
    '[[package]]', 'name = "pytest"', 'version = "8.0.0"', 'groups = ["test"]', 'dependencies = ["colorama; sys_platform == \\"win32\\""]', '',
    '[[package]]', 'name = "colorama"', 'version = "0.4.6"', 'groups = ["test"]', '',
    '[[package]]', 'name = "requests"', 'version = "2.31.0"', 'extras = ["socks"]', 'groups = ["default"]', 'dependencies = ["requests==2.31.0", "PySocks!=1.5.7,>=1.5.6"]', '',
    '[[package]]', 'name = "pysocks"', 'version = "1.7.1"', 'groups = ["default"]',
  ].join('\n');

  it('groups 决定 dev；extras 条目合并；无 pyproject 时入度为 0 的包为直接依赖', async () => {
    const t = await run(pdm, { 'pdm.lock': lock }, 'pdm.lock');
    const c = byName(t);
    expect(t.components).toHaveLength(6);
    expect(c.requests.dependsOn.sort()).toEqual(['pkg:pypi/charset-normalizer@3.3.2', 'pkg:pypi/idna@3.6', 'pkg:pypi/pysocks@1.7.1']);
    expect(c.pytest).toMatchObject({ scope: 'development', dependsOn: ['pkg:pypi/colorama@0.4.6'] });
    expect(c.requests.locations).toHaveLength(2);
    expect(t.roots.sort()).toEqual(['pkg:pypi/pytest@8.0.0', 'pkg:pypi/requests@2.31.0']);
  });

  it('pyproject.toml 决定直接依赖与项目', async () => {
    const pyproject = '[project]\nname = "svc"\nversion = "0.1"\ndependencies = ["requests[socks]"]\n[tool.pdm.dev-dependencies]\ntest = ["pytest"]\n';
    const t = await run(pdm, { 'pdm.lock': lock, 'pyproject.toml': pyproject }, 'pdm.lock');
    expect(t.project?.purl).toBe('pkg:pypi/svc@0.1');
    expect(byName(t).requests.direct).toBe(true);
    expect(byName(t).idna.direct).toBe(false);
    expect(byName(t).pytest).toMatchObject({ direct: true, scope: 'development' });
  });

  it('没有 name 的 [[package]] 跳过并报告行号，未知的段落不妨碍读取', async () => {
    const text = '[metadata]\ngroups = ["default"]\n\n[tool.future]\nx = 1\n\n[[package]]\nversion = "1.0"\n\n[[package]]\nname = "idna"\nversion = "3.6"\ngroups = ["default"]\n';
    const t = await run(pdm, { 'pdm.lock': text }, 'pdm.lock');
    expect(t.problems).toEqual(['pdm.lock 第 7 行：[[package]] 缺少 name，已跳过']);
    expect(t.components.map((c) => c.purl)).toEqual(['pkg:pypi/idna@3.6']);
  });
});

describe('pylock.toml', () => {
  it('trivy 示例：依赖边，入度为 0 的包为直接依赖', async () => {
    const t = await fixture(pylock, 'pylock', ['pylock.toml'], 'pylock.toml');
    const c = byName(t);
    expect(c.click).toMatchObject({ version: '8.1.3', dependsOn: ['pkg:pypi/colorama@0.4.6'], direct: true });
    expect(c.colorama.direct).toBe(false);
    expect(t.roots.sort()).toEqual(['pkg:pypi/click@8.1.3', 'pkg:pypi/werkzeug@0.11.1']);
  });

  it('文件名、根项目目录与依赖组标记', async () => {
    expect(isPylock('pylock.toml')).toBe(true);
    expect(isPylock('a/pylock.dev.toml')).toBe(true);
    expect(isPylock('pylock.a.b.toml')).toBe(false);
    const lock = [
      'lock-version = "1.0"', 'default-groups = ["default"]', 'created-by = "uv"', '',
      '[[packages]]', 'name = "proj"', 'directory = { path = ".", editable = true }', 'dependencies = [{ name = "attrs" }]', '',
      '[[packages]]', 'name = "attrs"', 'version = "23.1.0"', '',
      '[[packages]]', 'name = "pytest"', 'version = "8.0.0"', 'marker = "\'dev\' in dependency_groups"',
    ].join('\n');
    const t = await run(pylock, { 'pylock.toml': lock }, 'pylock.toml');
    expect(t.project).toEqual({ purl: 'pkg:pypi/proj', name: 'proj', version: '' });
    expect(t.roots).toEqual(['pkg:pypi/attrs@23.1.0']);
    expect(byName(t).pytest.scope).toBe('development');
    expect(byName(t).proj).toBeUndefined();
  });

  it('无效 TOML 抛出中文 ExtractError', async () => {
    await expect(run(pylock, { 'pylock.toml': '[[packages]]\nname = "a"\nname = "b"\n' }, 'pylock.toml')).rejects.toThrow(/不是有效的 TOML/);
  });
});

describe('已安装的包（dist-info / egg-info）', () => {
  const metadata = [
    'Metadata-Version: 2.1', 'Name: Flask', 'Version: 3.0.0', 'Summary: A simple framework',
    'License: BSD-3-Clause', 'Classifier: License :: OSI Approved :: BSD License',
    'Requires-Dist: Werkzeug>=3.0.0', 'Requires-Dist: click>=8.1.3', 'Requires-Dist: asgiref>=3.2 ; extra == "async"',
    'Requires-Dist: missing-one', '', 'Long description: ignored', 'Name: Other',
  ].join('\n');
  const site = 'venv/lib/python3.12/site-packages';

  it('匹配路径', () => {
    expect(isInstalledMetadata(`${site}/flask-3.0.0.dist-info/METADATA`)).toBe(true);
    expect(isInstalledMetadata('src/demo.egg-info/PKG-INFO')).toBe(true);
    expect(isInstalledMetadata('x/foo-1.0-py3.8.egg/EGG-INFO/PKG-INFO')).toBe(true);
    expect(isInstalledMetadata(`${site}/foo-1.0-py3.8.egg-info`)).toBe(true);
    expect(isInstalledMetadata(`${site}/foo-1.0-py3.8.egg`)).toBe(true);
    expect(isInstalledMetadata('dist/foo-1.0-py3.8.egg')).toBe(false);
    expect(isInstalledMetadata('docs/METADATA')).toBe(false);
  });

  it('名称、版本、许可证与指向同目录已安装包的依赖边', async () => {
    const t = await run(installed, {
      [`${site}/flask-3.0.0.dist-info/METADATA`]: metadata,
      [`${site}/werkzeug-3.0.1.dist-info/METADATA`]: 'Name: Werkzeug\nVersion: 3.0.1\n',
      [`${site}/click-8.1.7.dist-info/METADATA`]: 'Name: click\nVersion: 8.1.7\n',
      [`${site}/asgiref-3.7.0.dist-info/METADATA`]: 'Name: asgiref\nVersion: 3.7.0\n',
    }, `${site}/flask-3.0.0.dist-info/METADATA`);
    expect(t.type).toBe('python-pkg');
    expect(t.components).toEqual([expect.objectContaining({
      name: 'Flask', version: '3.0.0', purl: 'pkg:pypi/flask@3.0.0', licenses: ['BSD-3-Clause'], direct: false,
      dependsOn: ['pkg:pypi/werkzeug@3.0.1', 'pkg:pypi/click@8.1.7'],
      locations: [{ file: `${site}/flask-3.0.0.dist-info/METADATA` }],
    })]);
  });

  it('许可证来源：License-Expression、短 License、分类器', () => {
    expect(licensesOf(parseHeaders('License-Expression: MIT OR Apache-2.0\nLicense: whatever\n'))).toEqual(['MIT OR Apache-2.0']);
    expect(licensesOf(parseHeaders('License: UNKNOWN\nClassifier: License :: OSI Approved :: MIT License\nClassifier: License :: OSI Approved :: Apache Software License\n'))).toEqual(['MIT', 'Apache-2.0']);
    const long = 'License: Copyright (c) 2020 someone\n        Permission is hereby granted\n        to anyone\nClassifier: License :: OSI Approved :: MIT License\n';
    expect(licensesOf(parseHeaders(long))).toEqual(['MIT']);
    expect(licensesOf(parseHeaders('Name: x\n'))).toEqual([]);
  });

  it('PKG-INFO（latin-1 编码）与缺少字段', async () => {
    const latin = Buffer.from('Name: cafe-tools\nVersion: 1.0\nLicense: Licence \xe9crite\n', 'latin1');
    const file: InputFile = { path: 'src/x.egg-info/PKG-INFO', size: latin.length, read: async () => latin, text: async () => latin.toString() };
    const [decoded] = await installed.extract(file, memCtx({}));
    expect(decoded.components[0]).toMatchObject({ name: 'cafe-tools', licenses: ['Licence \u00e9crite'] });
    await expect(run(installed, { 'a.dist-info/METADATA': 'Name: caf\u00e9 tools\nVersion: 1\n' }, 'a.dist-info/METADATA')).rejects.toThrow(/缺少有效的 Name/);
    const ok = await run(installed, { 'src/demo.egg-info/PKG-INFO': 'Metadata-Version: 1.0\nName: demo\nVersion: 0.1.dev0\nLicense: MIT\n' }, 'src/demo.egg-info/PKG-INFO');
    expect(ok.components[0]).toMatchObject({ purl: 'pkg:pypi/demo@0.1.dev0', licenses: ['MIT'] });
    await expect(run(installed, { 'a.dist-info/METADATA': 'Name: demo\n' }, 'a.dist-info/METADATA')).rejects.toThrow(/缺少 Version/);
  });
});

describe('在目录树中扫描', () => {
  it('所有格式各成一个目标，格式错误的文件只报告问题', async () => {
    const result = await scan({
      'venv/lib/python3.12/site-packages/six-1.16.0.dist-info/METADATA': 'Name: six\nVersion: 1.16.0\nLicense: MIT\n',
      'requirements.txt': '-r requirements.txt\nsix==1.16.0\n',
      'poetry.lock': '[[package]\n',
      'svc/uv.lock': await readFile(path.join(TRIVY, 'repo/uv/uv.lock'), 'utf8'),
    });
    expect(result.targets.map((t) => `${t.type} ${t.file}`)).toEqual([
      'pip requirements.txt',
      'uv svc/uv.lock',
      'python-pkg venv/lib/python3.12/site-packages/six-1.16.0.dist-info/METADATA',
    ]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0].file).toBe('poetry.lock');
    expect(result.problems[0].message).toMatch(/不是有效的 TOML/);
  });
});
