// Pipfile and pyproject.toml without a lock: every declared dependency is reported, pinned ones
// with their version, the rest with version '' and the range they declare.
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/python/index.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const { scan } = useTempScan('cairn-pydeclared-', extractors);

const rows = (components: Array<{ name: string; version: string; constraint?: string; scope: string }>) =>
  components.map((c) => [c.name, c.version, c.constraint, c.scope]);

describe('Pipfile without Pipfile.lock', () => {
  it('reports packages and dev-packages with their pins or declared ranges', async () => {
    const pipfileText = [
      '[[source]]', 'url = "https://pypi.org/simple"', 'verify_ssl = true', 'name = "pypi"', '',
      '[packages]', 'requests = "*"', 'django = ">=4.2,<5"', 'flask = "==3.0.0"', 'records = {version = "~=0.5"}', 'mylib = {path = ".", editable = true}', '',
      '[dev-packages]', 'pytest = "*"', '',
      '[requires]', 'python_version = "3.11"', '',
    ].join('\n');
    const result = await scan({ Pipfile: pipfileText });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t).toMatchObject({ file: 'Pipfile', type: 'pipfile' });
    expect(rows(t.components)).toEqual([
      ['requests', '', '*', 'runtime'],
      ['django', '', '>=4.2,<5', 'runtime'],
      ['flask', '3.0.0', undefined, 'runtime'],
      ['records', '', '~=0.5', 'runtime'],
      ['pytest', '', '*', 'development'],
    ]);
    expect(t.components.find((c) => c.name === 'django')!.locations).toEqual([{ file: 'Pipfile', startLine: 8, endLine: 8 }]);
    expect(t.components.every((c) => c.direct)).toBe(true);
  });

  it('leaves the Pipfile to Pipfile.lock when the lock is there', async () => {
    const result = await scan({ Pipfile: '[packages]\nrequests = "*"\n', 'Pipfile.lock': JSON.stringify({ _meta: {}, default: { requests: { version: '==2.31.0' } }, develop: {} }) });
    expect(result.targets.map((t) => [t.type, t.components.map((c) => c.purl)])).toEqual([['pipenv', ['pkg:pypi/requests@2.31.0']]]);
  });
});

describe('pyproject.toml without a lock', () => {
  it('PEP 621 dependencies, optional dependencies and dependency groups', async () => {
    const text = [
      '[project]', 'name = "demo"', 'version = "0.3.0"', 'dependencies = [', '  "httpx>=0.27",', '  "pydantic==2.7.1",', '  "rich (>=13.0, <14)",', '  "tomli; python_version < \'3.11\'",', ']', '',
      '[project.optional-dependencies]', 'cli = ["click>=8"]', '',
      '[dependency-groups]', 'test = ["pytest>=8", {include-group = "lint"}]', 'lint = ["ruff"]', '',
      '[build-system]', 'requires = ["hatchling"]', 'build-backend = "hatchling.build"', '',
    ].join('\n');
    const result = await scan({ 'svc/pyproject.toml': text });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t).toMatchObject({ file: 'svc/pyproject.toml', type: 'pyproject', project: { name: 'demo', version: '0.3.0' } });
    expect(rows(t.components)).toEqual([
      ['httpx', '', '>=0.27', 'runtime'],
      ['pydantic', '2.7.1', undefined, 'runtime'],
      ['rich', '', '>=13.0,<14', 'runtime'],
      ['tomli', '', '*', 'runtime'],
      ['click', '', '>=8', 'runtime'],
      ['pytest', '', '>=8', 'development'],
      ['ruff', '', '*', 'development'],
    ]);
    expect(t.components[0]!.locations).toEqual([{ file: 'svc/pyproject.toml', startLine: 5, endLine: 5 }]);
  });

  it('Poetry dependencies and groups; python itself and path dependencies are not packages', async () => {
    const text = [
      '[tool.poetry]', 'name = "app"', 'version = "1.0.0"', '',
      '[tool.poetry.dependencies]', 'python = "^3.10"', 'fastapi = "^0.110"', 'uvicorn = {version = "0.29.0", extras = ["standard"]}', 'shared = {path = "../shared"}', '',
      '[tool.poetry.group.dev.dependencies]', 'black = "*"', '',
    ].join('\n');
    const t = (await scan({ 'pyproject.toml': text })).targets[0]!;
    expect(rows(t.components)).toEqual([
      ['fastapi', '', '^0.110', 'runtime'],
      ['uvicorn', '0.29.0', undefined, 'runtime'],
      ['black', '', '*', 'development'],
    ]);
  });

  it('leaves pyproject.toml to the lock beside it', async () => {
    const result = await scan({ 'pyproject.toml': '[project]\nname = "x"\ndependencies = ["six"]\n', 'uv.lock': 'version = 1\n\n[[package]]\nname = "six"\nversion = "1.16.0"\nsource = { registry = "https://pypi.org/simple" }\n' });
    expect(result.targets.map((t) => t.type)).toEqual(['uv']);
  });
});
