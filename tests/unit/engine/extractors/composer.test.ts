import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims } from './extractor.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { composerInstalledExtractor, composerLockExtractor, composerPurl, extractors } from '../../../../server/engine/extractors/composer/index.ts';
import { TRIVY } from '../../../support/golden.ts';

const { scan } = useTempScan('cairn-composer-', extractors);
const by = (t: Target, name: string) => t.components.find((c) => c.name === name)!;

const pkg = (name: string, version: string, extra: Record<string, unknown> = {}) => ({ name, version, type: 'library', ...extra });

describe('composer.lock', () => {
  it('matches composer.lock and installed.json', () => {
    expectClaims(composerLockExtractor, ['composer.lock', 'app/composer.lock'], ['composer.json']);
    expectClaims(composerInstalledExtractor, ['vendor/composer/installed.json', 'installed.json'], ['vendor/composer/installed.php']);
  });

  it('reads the trivy fixture: licences, lines, require edges without platform packages', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo/composer'), { extractors });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t).toMatchObject({ file: 'composer.lock', type: 'composer', ecosystem: 'composer', project: null, roots: ['pkg:composer/guzzlehttp/guzzle@7.4.4'] });
    expect(by(t, 'guzzlehttp/guzzle')).toEqual({
      purl: 'pkg:composer/guzzlehttp/guzzle@7.4.4', ecosystem: 'composer', name: 'guzzlehttp/guzzle', version: '7.4.4', direct: true, scope: 'runtime',
      locations: [{ file: 'composer.lock', startLine: 9, endLine: 129 }], licenses: ['MIT'], dependsOn: ['pkg:composer/guzzlehttp/psr7@1.8.3'],
    });
    expect(by(t, 'guzzlehttp/psr7')).toMatchObject({ direct: false, dependsOn: [], locations: [{ startLine: 130, endLine: 245 }] });
  });

  it('packages-dev are development; composer.json says what is direct; replace/provide satisfy requires', async () => {
    const lock = {
      packages: [
        pkg('acme/app-lib', 'v2.1.0', { require: { php: '>=8.1', 'ext-json': '*', 'psr/log-implementation': '^1', 'Symfony/Polyfill-Mbstring': '^1' }, license: 'Apache-2.0' }),
        pkg('monolog/monolog', '3.5.0', { require: { 'psr/log': '^3' }, provide: { 'psr/log-implementation': '3.0.0' }, license: ['MIT'] }),
        pkg('psr/log', '3.0.0', { license: ['MIT'] }),
        pkg('symfony/polyfill-php80', '1.28.0', { replace: { 'symfony/polyfill-mbstring': '*' } }),
      ],
      'packages-dev': [
        pkg('phpunit/phpunit', '10.5.1', { require: { 'sebastian/diff': '^5' }, license: ['BSD-3-Clause'] }),
        pkg('sebastian/diff', '5.0.3'),
      ],
    };
    const result = await scan({
      'composer.lock': JSON.stringify(lock, null, 4),
      'composer.json': JSON.stringify({ name: 'acme/site', require: { php: '^8.1', 'acme/app-lib': '^2' }, 'require-dev': { 'phpunit/phpunit': '^10' } }),
    });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.project).toEqual({ purl: 'pkg:composer/acme/site', name: 'acme/site', version: '' });
    expect(by(t, 'acme/app-lib')).toMatchObject({
      purl: 'pkg:composer/acme/app-lib@v2.1.0', direct: true, scope: 'runtime', licenses: ['Apache-2.0'],
      dependsOn: ['pkg:composer/monolog/monolog@3.5.0', 'pkg:composer/symfony/polyfill-php80@1.28.0'],
    });
    expect(by(t, 'monolog/monolog')).toMatchObject({ direct: false, dependsOn: ['pkg:composer/psr/log@3.0.0'] });
    expect(by(t, 'phpunit/phpunit')).toMatchObject({ direct: true, scope: 'development', dependsOn: ['pkg:composer/sebastian/diff@5.0.3'] });
    expect(by(t, 'sebastian/diff')).toMatchObject({ direct: false, scope: 'development' });
    expect(t.roots).toEqual(['pkg:composer/acme/app-lib@v2.1.0']);
    // Lines of each package object, in both arrays.
    expect(by(t, 'psr/log').locations[0]!.startLine).toBeGreaterThan(by(t, 'monolog/monolog').locations[0]!.endLine!);
    expect(by(t, 'sebastian/diff').locations[0]!.startLine).toBeGreaterThan(by(t, 'phpunit/phpunit').locations[0]!.endLine!);
  });

  it('without composer.json, packages nothing requires are taken as direct', async () => {
    const lock = { packages: [pkg('a/top', '1.0.0', { require: { 'b/leaf': '^1' } }), pkg('b/leaf', '1.2.0')] };
    const result = await scan({ 'sub/composer.lock': JSON.stringify(lock) });
    const t = result.targets[0]!;
    expect(t.components.map((c) => [c.name, c.direct])).toEqual([['a/top', true], ['b/leaf', false]]);
    expect(t.components[0]!.locations).toEqual([{ file: 'sub/composer.lock', startLine: 1, endLine: 1 }]);
  });

  it('reports malformed lockfiles in Chinese', async () => {
    const result = await scan({
      'a/composer.lock': '{"packages": [',
      'b/composer.lock': '{"packages": {"x": 1}}',
      'c/composer.lock': '{"packages": [{"version": "1.0"}]}',
      'd/composer.lock': '[]',
    });
    expect(result.problems.map((p) => p.file)).toEqual(['a/composer.lock', 'b/composer.lock', 'c/composer.lock', 'd/composer.lock']);
    expect(result.problems[0]!.message).toMatch(/^无法解析 a\/composer.lock：不是有效的 JSON/);
    // A section or an entry Composer cannot use is passed over, named with its line; the file still yields a target.
    expect(result.problems[1]!.message).toBe('b/composer.lock 第 1 行：packages 不是数组，已跳过');
    expect(result.problems[2]!.message).toBe('c/composer.lock 第 1 行：包条目缺少 name，已跳过');
    expect(result.targets.map((t) => [t.file, t.components.length])).toEqual([['b/composer.lock', 0], ['c/composer.lock', 0]]);
  });
});

describe('vendor/composer/installed.json', () => {
  it('reads the trivy fixture (Composer 1 array shape)', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo/composer-vendor'), { extractors });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t).toMatchObject({ file: 'installed.json', type: 'composer-vendor', ecosystem: 'composer', project: null });
    expect(t.components.map((c) => [c.purl, c.licenses, c.locations[0]!.startLine, c.locations[0]!.endLine])).toEqual([
      ['pkg:composer/guzzlehttp/psr7@1.8.3', ['MIT'], 3, 115],
      ['pkg:composer/psr/http-message@1.1', ['MIT'], 116, 171],
      ['pkg:composer/ralouphie/getallheaders@3.0.3', ['MIT'], 172, 218],
    ]);
    expect(by(t, 'guzzlehttp/psr7').dependsOn).toEqual(['pkg:composer/psr/http-message@1.1', 'pkg:composer/ralouphie/getallheaders@3.0.3']);
  });

  it('Composer 2 shape with dev-package-names and the project composer.json two folders up', async () => {
    const installed = {
      packages: [
        pkg('laravel/framework', 'v10.0.0', { require: { 'psr/container': '^2' }, license: ['MIT'] }),
        pkg('psr/container', '2.0.2', { license: ['MIT'] }),
        pkg('mockery/mockery', '1.6.6', { license: ['BSD-3-Clause'] }),
      ],
      dev: true,
      'dev-package-names': ['mockery/mockery'],
    };
    const result = await scan({
      'app/vendor/composer/installed.json': JSON.stringify(installed, null, 2),
      'app/composer.json': JSON.stringify({ require: { 'laravel/framework': '^10' }, 'require-dev': { 'mockery/mockery': '^1.6' } }),
    });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.file).toBe('app/vendor/composer/installed.json');
    expect(t.components.map((c) => [c.name, c.direct, c.scope])).toEqual([
      ['laravel/framework', true, 'runtime'], ['psr/container', false, 'runtime'], ['mockery/mockery', true, 'development'],
    ]);
    expect(t.roots).toEqual(['pkg:composer/laravel/framework@v10.0.0']);
    expect(t.components[1]!.locations[0]).toEqual({ file: 'app/vendor/composer/installed.json', startLine: 14, endLine: 21 });
  });

  it('another tool\'s installed.json is left alone; a broken Composer one is reported', async () => {
    const result = await scan({
      'tools/installed.json': JSON.stringify({ installed: ['a', 'b'] }),
      'other/installed.json': '{ not json',
      'list/installed.json': JSON.stringify([{ name: 'plain-name', version: '1' }]),
      'vendor/composer/installed.json': JSON.stringify({ packages: 'nope' }),
    });
    expect(result.targets).toEqual([]);
    expect(result.problems).toEqual([{ file: 'vendor/composer/installed.json', message: expect.stringMatching(/^无法解析 vendor\/composer\/installed.json：/) }]);
  });
});

describe('helpers', () => {
  it('composer purls split vendor and name', () => {
    expect(composerPurl('symfony/console', 'v6.0.0')).toBe('pkg:composer/symfony/console@v6.0.0');
    expect(composerPurl('odd', '1.0')).toBe('pkg:composer/odd@1.0');
  });
});
