import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import {
  compareGoVersions, componentsFromModFile, extractors, goModExtractor, goVendorExtractor, parseGoSum, parseModFile,
} from '../../../../server/engine/extractors/golang/index.ts';
import { CORPORA, TRIVY } from '../../../support/golden.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims } from './extractor.ts';

const SCALIBR = path.join(CORPORA, 'lockfiles/scalibr/golang');
const gomodCase = (name: string) => readFileSync(path.join(SCALIBR, 'gomod/testdata', name), 'utf8');
const ids = (t: Target) => t.components.map((c) => `${c.name}@${c.version}`).sort();
const fromMod = (name: string, sum?: string) =>
  componentsFromModFile(parseModFile(gomodCase(name), 'go.mod'), 'go.mod', sum === undefined ? undefined : { entries: parseGoSum(gomodCase(sum)), file: 'go.sum' });

const { writeTree: tree } = useTempScan('cairn-go-', extractors);

describe('go.mod against trivy goldens (vulnerable packages are found)', () => {
  for (const golden of ['gomod.json.golden', 'gomod-skip.json.golden', 'gomod-vex.json.golden']) {
    it(golden, async () => {
      const result = await scanTree(path.join(TRIVY, 'repo/gomod'), { extractors });
      expect(result.problems).toEqual([]);
      const report = JSON.parse(readFileSync(path.join(TRIVY, 'golden', golden), 'utf8')) as {
        Results: Array<{ Target: string; Vulnerabilities?: Array<{ PkgName: string; InstalledVersion: string; PkgIdentifier: { PURL: string } }> }>;
      };
      let checked = 0;
      for (const r of report.Results) {
        const target = result.targets.find((t) => t.file === r.Target && t.type === 'gomod');
        expect(target, r.Target).toBeDefined();
        for (const v of r.Vulnerabilities ?? []) {
          const c = target!.components.find((x) => x.name === v.PkgName && x.version === v.InstalledVersion);
          expect(c, `${r.Target}: ${v.PkgName}@${v.InstalledVersion}`).toBeDefined();
          expect(decodeURIComponent(c!.purl)).toBe(decodeURIComponent(v.PkgIdentifier.PURL));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  it('reads the main fixture: module, direct and indirect requirements, lines', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo/gomod'), { extractors });
    const main = result.targets.find((t) => t.file === 'go.mod')!;
    expect(main.project).toEqual({ purl: 'pkg:golang/github.com/testdata/testdata', name: 'github.com/testdata/testdata', version: '' });
    expect(main.components).toHaveLength(18);
    expect(main.roots.sort()).toEqual([
      'pkg:golang/github.com/open-policy-agent/opa@v0.35.0',
      'pkg:golang/golang.org/x/net@v0.0.0-20211111083644-e5c967477495',
      'pkg:golang/golang.org/x/sys@v0.0.0-20211205182925-97ca703d548d',
    ]);
    const text = main.components.find((c) => c.name === 'golang.org/x/text')!;
    expect(text).toMatchObject({ direct: false, scope: 'runtime', locations: [{ file: 'go.mod', startLine: 20, endLine: 20 }] });
    // go 1.17: go.sum is not merged in.
    expect(main.components.some((c) => c.locations[0]!.file === 'go.sum')).toBe(false);
    // go 1.15 submodule: the go.sum completes the build list.
    const sub2 = result.targets.find((t) => t.file === 'submod2/go.mod')!;
    const docker = sub2.components.find((c) => c.name === 'github.com/docker/distribution')!;
    expect(docker).toMatchObject({ version: 'v2.7.1+incompatible', direct: false, locations: [{ file: 'submod2/go.sum' }] });
    expect(sub2.roots).toEqual(['pkg:golang/github.com/davecgh/go-spew@v1.1.0']);
  });
});

describe('go.mod edge cases (osv-scalibr testdata, go mod semantics)', () => {
  it('empty and invalid files', () => {
    expect(fromMod('empty.mod')).toMatchObject({ project: null, components: [], roots: [] });
    expect(() => fromMod('not-go-mod.mod')).toThrow(ExtractError);
    expect(() => fromMod('not-go-mod.mod')).toThrow(/不是 go.mod 指令/);
  });

  it('plain requirements; go and toolchain directives are not components', () => {
    expect(ids(fromMod('one-package.mod'))).toEqual(['github.com/BurntSushi/toml@v1.0.0']);
    expect(ids(fromMod('two-packages.mod'))).toEqual(['github.com/BurntSushi/toml@v1.0.0', 'gopkg.in/yaml.v2@v2.4.0']);
    expect(ids(fromMod('toolchain.mod'))).toEqual(['github.com/BurntSushi/toml@v1.0.0']);
    expect(ids(fromMod('toolchain-with-suffix.mod'))).toEqual(['github.com/BurntSushi/toml@v1.0.0']);
  });

  it('indirect requirements', () => {
    const t = fromMod('indirect-packages.mod');
    expect(t.project?.name).toBe('my-library');
    expect(t.components.filter((c) => c.direct).map((c) => c.name)).toEqual(['github.com/BurntSushi/toml', 'gopkg.in/yaml.v2']);
    expect(t.components.filter((c) => !c.direct).map((c) => c.name)).toEqual(['github.com/mattn/go-colorable', 'github.com/mattn/go-isatty', 'golang.org/x/sys']);
  });

  it('replacements by module, by version, by directory', () => {
    expect(ids(fromMod('replace-one.mod'))).toEqual(['example.com/fork/net@v1.4.5']);
    // Two requirements of golang.org/x/net: MVS keeps v1.2.3, which is replaced.
    expect(ids(fromMod('replace-mixed.mod'))).toEqual(['example.com/fork/net@v1.4.5']);
    expect(ids(fromMod('replace-different.mod'))).toEqual(['example.com/fork/foe@v1.4.5']);
    expect(ids(fromMod('replace-no-version.mod'))).toEqual(['example.com/fork/net@v1.4.5']);
    expect(ids(fromMod('replace-not-required.mod'))).toEqual(['github.com/BurntSushi/toml@v1.0.0', 'golang.org/x/net@v0.5.6']);
    // A directory replacement is the project's own code.
    expect(ids(fromMod('replace-local.mod'))).toEqual(['github.com/BurntSushi/toml@v1.0.0']);
    const replaced = fromMod('replace-one.mod').components[0]!;
    expect(replaced.locations.map((l) => l.startLine)).toEqual([2, 5]);
  });

  it('go < 1.17 completes the build list from go.sum (highest version per module)', () => {
    const t = fromMod('indirect-1.16.mod', 'indirect-1.16.sum');
    expect(ids(t)).toEqual([
      'github.com/davecgh/go-spew@v1.1.1',
      'github.com/pmezard/go-difflib@v1.0.0',
      'github.com/sirupsen/logrus@v1.9.3',
      'github.com/stretchr/objx@v0.1.0',
      'github.com/stretchr/testify@v1.7.0',
      'golang.org/x/sys@v0.0.0-20220715151400-c0bba94af5f8',
      'gopkg.in/check.v1@v0.0.0-20161208181325-20d25e280405',
      'gopkg.in/yaml.v3@v3.0.0-20200313102051-9f266ea9e77c',
    ]);
    expect(t.roots).toEqual(['pkg:golang/github.com/sirupsen/logrus@v1.9.3']);
    expect(t.components.find((c) => c.name === 'github.com/davecgh/go-spew')!.locations).toEqual([{ file: 'go.sum', startLine: 2, endLine: 2 }]);
  });

  it('go >= 1.17 ignores go.sum, even a broken one', async () => {
    const root = await tree({ 'go.mod': gomodCase('indirect-1.23.mod'), 'go.sum': gomodCase('indirect-1.23.sum') });
    const result = await scanTree(root, { extractors: [goModExtractor] });
    expect(result.problems).toEqual([]);
    expect(ids(result.targets[0]!)).toEqual(['github.com/sirupsen/logrus@v1.9.3', 'golang.org/x/sys@v0.0.0-20220715151400-c0bba94af5f8']);
  });
});

describe('go.mod syntax', () => {
  it('quoted paths, comments, one-line directives, empty blocks, retract/godebug/tool', () => {
    const mod = parseModFile([
      '// leading comment',
      'module "example.com/app" // the app',
      'go 1.22.1',
      'toolchain go1.22.4',
      'godebug default=go1.21',
      'require ()',
      'require `example.com/raw` v1.0.0',
      'require (',
      '\t"example.com/quoted" v0.1.0 // indirect; needed by raw',
      '\texample.com/plain v2.0.0+incompatible',
      ')',
      'retract [v0.0.1, v0.0.5]',
      'tool example.com/plain/cmd/gen',
      'exclude example.com/plain v1.9.0',
    ].join('\n'), 'go.mod');
    expect(mod.module).toEqual({ path: 'example.com/app', line: 2 });
    expect(mod.go).toBe('1.22.1');
    expect(mod.toolchain).toBe('go1.22.4');
    expect(mod.requires).toEqual([
      { path: 'example.com/raw', version: 'v1.0.0', indirect: false, line: 7 },
      { path: 'example.com/quoted', version: 'v0.1.0', indirect: true, line: 9 },
      { path: 'example.com/plain', version: 'v2.0.0+incompatible', indirect: false, line: 10 },
    ]);
    expect(mod.excludes).toEqual([{ path: 'example.com/plain', version: 'v1.9.0', line: 14 }]);
  });

  it('rejects malformed files with a Chinese message', () => {
    expect(() => parseModFile('require (\n\texample.com/a v1.0.0\n', 'go.mod')).toThrow(/缺少右括号/);
    expect(() => parseModFile('require example.com/a', 'go.mod')).toThrow(/require/);
    expect(() => parseModFile('replace a => ', 'go.mod')).toThrow(/replace/);
    expect(() => parseModFile('module "unterminated', 'go.mod')).toThrow(/引号未闭合/);
    expect(() => parseModFile('<html></html>', 'go.mod')).toThrow(ExtractError);
  });

  it('an excluded version gives way to the next higher one in go.sum', async () => {
    const root = await tree({
      'go.mod': 'module example.com/app\n\ngo 1.21\n\nrequire example.com/lib v1.2.0\n\nexclude example.com/lib v1.2.0\n',
      'go.sum': [
        'example.com/lib v1.2.0 h1:aaa=', 'example.com/lib v1.2.0/go.mod h1:bbb=',
        'example.com/lib v1.2.1 h1:ccc=', 'example.com/lib v1.3.0 h1:ddd=',
      ].join('\n'),
    });
    const result = await scanTree(root, { extractors: [goModExtractor] });
    expect(ids(result.targets[0]!)).toEqual(['example.com/lib@v1.2.1']);
  });

  it('orders Go versions by semver, pseudo-versions before releases', () => {
    const sorted = ['v1.10.0', 'v1.2.0', 'v1.2.0-rc.1', 'v0.0.0-20210101000000-abcdef', 'v1.2.0-beta.2', 'v1.2.0-beta.11', 'v2.0.0+incompatible', 'v1.2.0-alpha']
      .sort(compareGoVersions);
    expect(sorted).toEqual(['v0.0.0-20210101000000-abcdef', 'v1.2.0-alpha', 'v1.2.0-beta.2', 'v1.2.0-beta.11', 'v1.2.0-rc.1', 'v1.2.0', 'v1.10.0', 'v2.0.0+incompatible']);
    expect(compareGoVersions('v1.0.0+meta', 'v1.0.0')).toBe(0);
  });

  it('matches go.mod and vendor/modules.txt only', () => {
    expectClaims(goModExtractor, ['go.mod', 'a/b/go.mod'], ['a/go.mod.bak', 'a/ago.mod']);
    expectClaims(goVendorExtractor, ['vendor/modules.txt', 'x/vendor/modules.txt'], ['modules.txt', 'x/modules.txt']);
  });
});

describe('vendor/modules.txt', () => {
  it('reads the scalibr fixtures: replacements, local paths, header-only and malformed lines', async () => {
    const result = await scanTree(path.join(SCALIBR, 'vendormodules/testdata'), { extractors: [goVendorExtractor] });
    expect(result.problems).toEqual([]);
    const byFile = new Map(result.targets.map((t) => [t.file, t]));
    expect(byFile.get('empty/vendor/modules.txt')!.components).toEqual([]);
    const valid = byFile.get('valid/vendor/modules.txt')!;
    expect(ids(valid)).toEqual([
      'example.com/afterheaderonly@v0.3.0',
      'example.com/fork/net@v1.4.5',
      'example.com/headeronly@v0.1.0',
      'example.com/transitive@v0.2.0',
      'example.com/wildcard-fork@v0.2.0',
      'github.com/BurntSushi/toml@v1.2.1',
      'github.com/example/incompatible@v2.0.0+incompatible',
      'golang.org/x/crypto@v0.31.0',
    ]);
    // Without a go.mod beside vendor/, `## explicit` stands for a direct requirement.
    expect(valid.components.find((c) => c.name === 'example.com/transitive')!.direct).toBe(false);
    expect(valid.components.find((c) => c.name === 'golang.org/x/crypto')).toMatchObject({ direct: true, locations: [{ file: 'valid/vendor/modules.txt', startLine: 4, endLine: 4 }] });
    expect(ids(byFile.get('invalid/vendor/modules.txt')!)).toEqual(['github.com/example/replaced@v1.0.0', 'github.com/example/unused@v1.2.3', 'github.com/example/v2@v1.0.0']);
  });

  it('takes direct/indirect and the project from the go.mod beside vendor/', async () => {
    const root = await tree({
      'go.mod': 'module example.com/app\n\ngo 1.21\n\nrequire example.com/a v1.0.0\n\nrequire example.com/b v0.2.0 // indirect\n',
      'vendor/modules.txt': '# example.com/a v1.0.0\n## explicit; go 1.21\nexample.com/a\n# example.com/b v0.2.0\n## explicit; go 1.20\nexample.com/b/pkg\n',
    });
    const result = await scanTree(root, { extractors: [goVendorExtractor] });
    const t = result.targets[0]!;
    expect(t.type).toBe('gomod-vendor');
    expect(t.project?.name).toBe('example.com/app');
    expect(t.components.map((c) => [c.name, c.direct])).toEqual([['example.com/a', true], ['example.com/b', false]]);
    expect(t.roots).toEqual(['pkg:golang/example.com/a@v1.0.0']);
  });
});

describe('byte-order marks and CRLF line ends', () => {
  it('go.mod and go.sum', () => {
    const mod = parseModFile('\uFEFFmodule example.com/x\r\n\r\nrequire (\r\n\texample.com/a v1.0.0 // indirect\r\n)\r\n', 'go.mod');
    expect(mod.requires).toEqual([{ path: 'example.com/a', version: 'v1.0.0', indirect: true, line: 4 }]);
    expect(parseGoSum('\uFEFFexample.com/a v1.0.0 h1:x=\r\n')).toEqual([{ path: 'example.com/a', version: 'v1.0.0', line: 1, goModOnly: false }]);
  });
});
