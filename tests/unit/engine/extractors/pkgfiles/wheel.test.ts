// Python wheels and eggs read in place: Debian's own wheels of pip and setuptools
// (/usr/share/python-wheels, packages python3-pip-whl and python3-setuptools-whl, installed by
// .ci/run), CPython's test wheels and egg (tests/fixtures/public/pkgfiles); a wheelhouse whose
// wheel requires another beside it; a zip bomb, a truncated wheel and a wheel whose directory
// understates its METADATA.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import { eggExtractor, eggNameVersion, wheelExtractor, wheelNameVersion } from '../../../../../server/engine/extractors/pkgfiles/wheel.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';

const FIXTURES = path.resolve('tests/fixtures/public/pkgfiles');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const SYSTEM = '/usr/share/python-wheels';
const PIP = 'pip-23.0.1-py3-none-any.whl';
const SETUPTOOLS = 'setuptools-66.1.1-py3-none-any.whl';
const system = (name: string) => {
  if (!existsSync(path.join(SYSTEM, name))) throw new Error(`需要 Debian 的 ${name}（apt-get install python3-pip-whl python3-setuptools-whl；.ci/run 会安装）`);
  return readFileSync(path.join(SYSTEM, name));
};

const work = mkdtempSync(path.join(tmpdir(), 'cairn-wheel-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A zip made by Info-ZIP's `zip` of the given files. */
function zipOf(files: Record<string, string | Buffer>, level = '-6'): Buffer {
  const dir = mkdtempSync(path.join(work, 'zip-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  execFileSync('zip', ['-q', '-r', level, 'out.zip', ...Object.keys(files)], { cwd: dir });
  return readFileSync(path.join(dir, 'out.zip'));
}

const { scan } = useTempScan('cairn-wheelscan-', [wheelExtractor, eggExtractor]);

describe('Python wheels and eggs', () => {
  it('claims wheels anywhere and eggs outside site-packages', () => {
    expectClaims(wheelExtractor, [PIP, 'wheelhouse/x-1-py3-none-any.whl', 'lib/site-packages/a.whl'], ['a.whl.metadata', 'x.egg']);
    expectClaims(eggExtractor, ['dist/example-21.12-py3.6.egg', 'e.EGG'], ['lib/python3.8/site-packages/example-21.12-py3.6.egg', 'x/dist-packages/y.egg', 'a.whl']);
    expect(wheelNameVersion(PIP)).toEqual({ name: 'pip', version: '23.0.1' });
    expect(wheelNameVersion('foo_bar-1.0-1-cp311-cp311-manylinux_2_17_x86_64.whl')).toEqual({ name: 'foo_bar', version: '1.0' });
    expect(eggNameVersion('example-21.12-py3.6.egg')).toEqual({ name: 'example', version: '21.12' });
  });

  it("reads Debian's pip and setuptools wheels: name, version, licence, evidence", async () => {
    const pip = system(PIP);
    const result = await scan({ [`wheels/${PIP}`]: pip, [`wheels/${SETUPTOOLS}`]: system(SETUPTOOLS) });
    expect(result.problems).toEqual([]);
    const byFile = Object.fromEntries(result.targets.map((t) => [t.file, t]));
    const metadata = execFileSync('unzip', ['-p', path.join(SYSTEM, PIP), 'pip-23.0.1.dist-info/METADATA'], { encoding: 'utf8' });
    expect(byFile[`wheels/${PIP}`]!.type).toBe('wheel');
    expect(byFile[`wheels/${PIP}`]!.components).toEqual([{
      purl: 'pkg:pypi/pip@23.0.1', ecosystem: 'pypi', name: 'pip', version: '23.0.1', direct: true, scope: 'runtime',
      locations: [{ file: `wheels/${PIP}` }], licenses: ['MIT'], dependsOn: [],
      evidence: [{ file: `wheels/${PIP}!/pip-23.0.1.dist-info/METADATA`, rule: 'METADATA', text: 'Name: pip; Version: 23.0.1', offset: Buffer.byteLength(metadata.slice(0, metadata.indexOf('Name: pip'))) }],
      confidence: CONFIDENCE.METADATA,
    }]);
    expect(byFile[`wheels/${PIP}`]!.roots).toEqual(['pkg:pypi/pip@23.0.1']);
    // setuptools declares its licence by classifier only; its requirements are all extras'.
    const st = byFile[`wheels/${SETUPTOOLS}`]!.components[0]!;
    expect([st.purl, st.licenses, st.dependsOn]).toEqual(['pkg:pypi/setuptools@66.1.1', ['MIT'], []]);
  });

  it("reads CPython's test wheels and egg", async () => {
    const result = await scan({
      'dist/example-21.12-py3-none-any.whl': fixture('example-21.12-py3-none-any.whl'),
      'dist/example2-1.0.0-py3-none-any.whl': fixture('example2-1.0.0-py3-none-any.whl'),
      'eggs/example-21.12-py3.6.egg': fixture('example-21.12-py3.6.egg'),
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.type, t.components[0]!.purl, t.components[0]!.licenses, t.components[0]!.evidence![0]!.file, t.components[0]!.evidence![0]!.rule])).toEqual([
      ['dist/example-21.12-py3-none-any.whl', 'wheel', 'pkg:pypi/example@21.12', ['Apache-2.0'], 'dist/example-21.12-py3-none-any.whl!/example-21.12.dist-info/METADATA', 'METADATA'],
      ['dist/example2-1.0.0-py3-none-any.whl', 'wheel', 'pkg:pypi/example2@1.0.0', [], 'dist/example2-1.0.0-py3-none-any.whl!/example2-1.0.0.dist-info/METADATA', 'METADATA'],
      ['eggs/example-21.12-py3.6.egg', 'egg', 'pkg:pypi/example@21.12', ['Apache-2.0'], 'eggs/example-21.12-py3.6.egg!/EGG-INFO/PKG-INFO', 'PKG-INFO'],
    ]);
  });

  it('a wheel requiring another of the same wheelhouse depends on it; extras and absent ones are not edges', async () => {
    const pipMeta = execFileSync('unzip', ['-p', path.join(SYSTEM, PIP), 'pip-23.0.1.dist-info/METADATA'], { encoding: 'utf8' });
    // pip's own METADATA, renamed and given requirements: one beside it, one extra, one absent.
    const meta = pipMeta.replace('Name: pip', 'Name: pip-tools').replace('Version: 23.0.1', 'Version: 7.0.0')
      .replace('License: MIT', "License: MIT\nRequires-Dist: pip (>=22.2)\nRequires-Dist: setuptools ; extra == 'coverage'\nRequires-Dist: click>=8");
    const tools = zipOf({ 'pip_tools-7.0.0.dist-info/METADATA': meta, 'piptools/__init__.py': '' });
    const result = await scan({ 'wheelhouse/pip_tools-7.0.0-py3-none-any.whl': tools, [`wheelhouse/${PIP}`]: system(PIP), [`wheelhouse/${SETUPTOOLS}`]: system(SETUPTOOLS) });
    expect(result.problems).toEqual([]);
    const c = result.targets.find((t) => t.file.includes('pip_tools'))!.components[0]!;
    expect([c.purl, c.dependsOn]).toEqual(['pkg:pypi/pip-tools@7.0.0', ['pkg:pypi/pip@23.0.1']]);
  });

  it('a zip bomb, a truncated wheel and an understated entry are problems in Chinese; the rest is read', async () => {
    const bomb = zipOf({ 'bomb-1.0.dist-info/METADATA': Buffer.concat([Buffer.from('Metadata-Version: 2.1\nName: bomb\nVersion: 1.0\n\n'), Buffer.alloc(50 * 1024 * 1024, 0x20)]) }, '-9');
    const pip = system(PIP);
    // example's METADATA said to be 10 bytes in the central directory: inflating it gives more.
    const understated = Buffer.from(fixture('example-21.12-py3-none-any.whl'));
    const cd = understated.lastIndexOf(Buffer.from('PK\x01\x02'), understated.indexOf(Buffer.from('example-21.12.dist-info/METADATA'), understated.indexOf(Buffer.from('PK\x01\x02'))));
    understated.writeUInt32LE(10, cd + 24);
    const result = await scan({
      'bomb-1.0-py3-none-any.whl': bomb,
      'cut-1.0-py3-none-any.whl': pip.subarray(0, pip.length / 2),
      'understated-21.12-py3-none-any.whl': understated,
      'nometa-1.0-py3-none-any.whl': zipOf({ 'nometa/__init__.py': '' }),
      'ok/example-21.12-py3-none-any.whl': fixture('example-21.12-py3-none-any.whl'),
    });
    expect(result.targets.map((t) => t.file)).toEqual(['ok/example-21.12-py3-none-any.whl']);
    expect(Object.fromEntries(result.problems.map((p) => [p.file, p.message]))).toEqual({
      'bomb-1.0-py3-none-any.whl': 'Python wheel bomb-1.0-py3-none-any.whl 的 bomb-1.0.dist-info/METADATA 解压后有 50 MiB，超过元数据 4 MiB 上限，疑似压缩炸弹，已停止读取',
      'cut-1.0-py3-none-any.whl': 'Python wheel cut-1.0-py3-none-any.whl 已损坏：找不到 zip 中央目录',
      'understated-21.12-py3-none-any.whl': 'Python wheel understated-21.12-py3-none-any.whl 已损坏：example-21.12.dist-info/METADATA 无法解压（数据损坏，或解压后超过目录记录的 10 字节）',
      'nometa-1.0-py3-none-any.whl': 'Python wheel nometa-1.0-py3-none-any.whl 中没有 *.dist-info/METADATA',
    });
  });
});
