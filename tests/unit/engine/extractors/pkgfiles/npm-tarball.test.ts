// npm package tarballs as the registry serves them (tests/fixtures/public/pkgfiles: debug, ms, chalk,
// @types/ms — package.json not first in debug's and chalk's, a top folder other than package/ in
// @types/ms's); then tarballs that are not npm packages, a truncated tarball and a gzip bomb.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import { npmTarballExtractor } from '../../../../../server/engine/extractors/pkgfiles/npm-tarball.ts';
import { inventory } from '../../../../../server/engine/output/inventory.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';

const FIXTURES = path.resolve('tests/fixtures/public/pkgfiles');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const manifestOf = (tgz: string, entry = 'package/package.json') => execFileSync('tar', ['-xzOf', path.join(FIXTURES, tgz), entry], { encoding: 'utf8' });
const offsetOf = (text: string, needle: string, after = '') => Buffer.byteLength(text.slice(0, text.indexOf(needle, after ? text.indexOf(after) : 0)));

const work = mkdtempSync(path.join(tmpdir(), 'cairn-npmtgz-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tar.gz made by GNU tar of the given files. */
function tgzOf(files: Record<string, string>): Buffer {
  const dir = mkdtempSync(path.join(work, 'tgz-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  execFileSync('tar', ['-czf', 'out.tgz', ...Object.keys(files)], { cwd: dir });
  return readFileSync(path.join(dir, 'out.tgz'));
}

const { scan } = useTempScan('cairn-npmtgzscan-', [npmTarballExtractor]);

describe('npm tarballs', () => {
  it('claims .tgz and .tar.gz files', () => {
    expectClaims(npmTarballExtractor, ['debug-4.3.4.tgz', 'x/y-1.0.0.tar.gz', 'Z.TGZ'], ['a.tar', 'a.gz', 'a.tgz.sig', 'package.json']);
  });

  it('reads the package and the dependencies it declares (exact, or the range as constraint)', async () => {
    const result = await scan({ 'vendor/debug-4.3.4.tgz': fixture('debug-4.3.4.tgz'), 'vendor/chalk-4.1.2.tgz': fixture('chalk-4.1.2.tgz') });
    expect(result.problems).toEqual([]);
    const debugJson = manifestOf('debug-4.3.4.tgz');
    const debug = result.targets.find((t) => t.file === 'vendor/debug-4.3.4.tgz')!;
    expect(debug.type).toBe('npm-tarball');
    expect(debug.roots).toEqual(['pkg:npm/debug@4.3.4']);
    expect(debug.components).toEqual([
      {
        purl: 'pkg:npm/debug@4.3.4', ecosystem: 'npm', name: 'debug', version: '4.3.4', direct: true, scope: 'runtime',
        locations: [{ file: 'vendor/debug-4.3.4.tgz' }], licenses: ['MIT'], dependsOn: ['pkg:npm/ms@2.1.2'],
        evidence: [{ file: 'vendor/debug-4.3.4.tgz!/package/package.json', rule: 'package.json', text: '"name": "debug", "version": "4.3.4"', offset: offsetOf(debugJson, '"name"') }],
        confidence: CONFIDENCE.METADATA,
      },
      {
        purl: 'pkg:npm/ms@2.1.2', ecosystem: 'npm', name: 'ms', version: '2.1.2', direct: false, scope: 'runtime',
        locations: [{ file: 'vendor/debug-4.3.4.tgz' }], licenses: [], dependsOn: [],
        evidence: [{ file: 'vendor/debug-4.3.4.tgz!/package/package.json', rule: 'package.json', text: '"ms": "2.1.2"', offset: offsetOf(debugJson, '"ms"', '"dependencies"') }],
        confidence: CONFIDENCE.MANIFEST,
      },
    ]);
    const chalk = result.targets.find((t) => t.file === 'vendor/chalk-4.1.2.tgz')!;
    expect(chalk.components.map((c) => [c.purl, c.version, c.constraint, c.licenses])).toEqual([
      ['pkg:npm/chalk@4.1.2', '4.1.2', undefined, ['MIT']],
      ['pkg:npm/ansi-styles', '', '^4.1.0', []],
      ['pkg:npm/supports-color', '', '^7.1.0', []],
    ]);
    expect(chalk.components[0]!.dependsOn).toEqual(['pkg:npm/ansi-styles', 'pkg:npm/supports-color']);
  });

  it('a tarball beside the one that declares it is the same component in the inventory', async () => {
    const result = await scan({ 'debug-4.3.4.tgz': fixture('debug-4.3.4.tgz'), 'ms-2.1.2.tgz': fixture('ms-2.1.2.tgz') });
    const ms = inventory(result).find((c) => c.purl === 'pkg:npm/ms@2.1.2')!;
    expect(ms.licenses).toEqual(['MIT']);
    expect(ms.locations.map((l) => l.file).sort()).toEqual(['debug-4.3.4.tgz', 'ms-2.1.2.tgz']);
  });

  it('reads a tarball whose top folder is not package/ (@types)', async () => {
    const result = await scan({ 'types-ms-0.7.34.tgz': fixture('types-ms-0.7.34.tgz') });
    expect(result.problems).toEqual([]);
    const c = result.targets[0]!.components[0]!;
    expect([c.purl, c.licenses, c.evidence![0]!.file]).toEqual(['pkg:npm/%40types/ms@0.7.34', ['MIT'], 'types-ms-0.7.34.tgz!/ms/package.json']);
    expect(JSON.parse(manifestOf('types-ms-0.7.34.tgz', 'ms/package.json')).version).toBe('0.7.34');
  });

  it('bundled dependencies are the packages in the tarball, with their exact versions (npm pack of a package bundling debug)', async () => {
    const dir = mkdtempSync(path.join(work, 'bundle-'));
    for (const [name, tgz] of [['debug', 'debug-4.3.4.tgz'], ['ms', 'ms-2.1.2.tgz']]) {
      mkdirSync(path.join(dir, 'node_modules', name!), { recursive: true });
      execFileSync('tar', ['-xzf', path.join(FIXTURES, tgz!), '--strip-components=1', '-C', path.join(dir, 'node_modules', name!)]);
    }
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bundler-demo', version: '1.0.0', license: 'ISC', dependencies: { debug: '^4.3.4', chalk: '^4.1.2' }, bundleDependencies: ['debug'] }));
    writeFileSync(path.join(dir, 'index.js'), 'module.exports = 1;\n');
    const packed = execFileSync('npm', ['pack', '--silent', '--offline'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop()!;
    const result = await scan({ 'bundler-demo-1.0.0.tgz': readFileSync(path.join(dir, packed)) });
    expect(result.problems).toEqual([]);
    const byPurl = Object.fromEntries(result.targets[0]!.components.map((c) => [c.purl, c]));
    expect(Object.keys(byPurl).sort()).toEqual(['pkg:npm/bundler-demo@1.0.0', 'pkg:npm/chalk', 'pkg:npm/debug@4.3.4', 'pkg:npm/ms@2.1.2']);
    expect(byPurl['pkg:npm/bundler-demo@1.0.0']!.dependsOn.sort()).toEqual(['pkg:npm/chalk', 'pkg:npm/debug@4.3.4']);
    expect(byPurl['pkg:npm/chalk']!.constraint).toBe('^4.1.2');
    const debug = byPurl['pkg:npm/debug@4.3.4']!;
    expect([debug.licenses, debug.dependsOn, debug.constraint, debug.confidence]).toEqual([['MIT'], ['pkg:npm/ms@2.1.2'], undefined, CONFIDENCE.METADATA]);
    expect(debug.evidence![0]!.file).toBe('bundler-demo-1.0.0.tgz!/package/node_modules/debug/package.json');
    expect(byPurl['pkg:npm/ms@2.1.2']!.licenses).toEqual(['MIT']);
  });

  it('passes over tarballs that are no npm package', async () => {
    const result = await scan({
      'src-1.0.tar.gz': tgzOf({ 'src-1.0/README': 'hello\n', 'src-1.0/main.c': 'int main(){}\n' }),
      'flat.tgz': tgzOf({ 'package.json': '{"name":"flat","version":"1.0.0"}' }),
      'private-app.tgz': tgzOf({ 'app/package.json': '{"private":true}' }),
      'not-gzip.tgz': 'plain text\n',
    });
    expect(result.targets).toEqual([]);
    expect(result.problems).toEqual([]);
  });

  it('a truncated npm tarball and a gzip bomb are problems in Chinese; the good tarball is still read', async () => {
    const chalk = fixture('chalk-4.1.2.tgz');
    const bomb = gzipSync(Buffer.alloc(100 * 1024 * 1024));
    const result = await scan({
      'cut.tgz': chalk.subarray(0, 3000),
      'bomb.tgz': bomb,
      'bad-json.tgz': tgzOf({ 'package/package.json': '{"name": "x",' }),
      'ok/ms-2.1.2.tgz': fixture('ms-2.1.2.tgz'),
    });
    expect(result.targets.map((t) => t.file)).toEqual(['ok/ms-2.1.2.tgz']);
    expect(Object.fromEntries(result.problems.map((p) => [p.file, p.message]))).toEqual({
      'cut.tgz': 'npm 软件包 cut.tgz 无法解压：数据不完整（文件可能被截断）',
      'bomb.tgz': expect.stringMatching(/^压缩包 bomb\.tgz 的压缩比超过 200:1 上限，疑似压缩炸弹，已停止读取$/),
      'bad-json.tgz': 'npm 软件包 bad-json.tgz 的 package/package.json 不是有效的 JSON',
    });
  });
});
