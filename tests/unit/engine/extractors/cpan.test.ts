import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/cpan/index.ts';
import { parseCpanfile, parseCpanfileSnapshot, splitDistribution } from '../../../../server/engine/extractors/cpan/snapshot.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/cpan');
const extractor = extractors[0]!;
const { scan } = useTempScan('cairn-carton-', extractors);

// The shape `carton install` writes, three distributions requiring one another.
const SNAPSHOT = `# carton snapshot format: version 1.0
DISTRIBUTIONS
  Module-Runtime-0.016
    pathname: Z/ZE/ZEFRAM/Module-Runtime-0.016.tar.gz
    provides:
      Module::Runtime 0.016
    requirements:
      Module::Build 0
      perl 5.006
  Plack-1.0050
    pathname: M/MI/MIYAGAWA/Plack-1.0050.tar.gz
    provides:
      Plack 1.0050
      Plack::Util undef
    requirements:
      Try::Tiny 0
      Module::Runtime 0.016
      perl 5.012000
  Try-Tiny-0.31
    pathname: E/ET/ETHER/Try-Tiny-0.31.tar.gz
    provides:
      Try::Tiny 0.31
    requirements:
      Exporter 5.57
  Test-Deep-1.204
    pathname: R/RJ/RJBS/Test-Deep-1.204.tar.gz
    provides:
      Test::Deep 1.204
    requirements:
      Test::More 0.88
`;

describe('Perl cpanfile.snapshot', () => {
  it('claims cpanfile.snapshot only', () => {
    expectClaims(extractor, ['cpanfile.snapshot', 'app/cpanfile.snapshot'], ['cpanfile', 'META.json', 'Makefile.PL']);
  });

  it('reads a project\'s snapshot: the distribution by its CPAN author, not its modules', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'p5-List-Flatten-XS'), 'cpanfile.snapshot');
    expect(t.type).toBe('carton');
    expect(t.ecosystem).toBe('cpan');
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.direct, c.scope, c.dependsOn, c.locations])).toEqual([
      ['Test-LeakTrace', '0.15', 'pkg:cpan/GFUJI/Test-LeakTrace@0.15', true, 'runtime', [], [{ file: 'cpanfile.snapshot', startLine: 3, endLine: 12 }]],
    ]);
  });

  it('edges through the modules each distribution provides; perl and core modules get none; unrequired distributions are the roots', () => {
    const t = parseCpanfileSnapshot(SNAPSHOT, 'cpanfile.snapshot');
    expect(t.components.map((c) => [c.purl, c.direct, c.dependsOn])).toEqual([
      ['pkg:cpan/ZEFRAM/Module-Runtime@0.016', false, []],
      ['pkg:cpan/MIYAGAWA/Plack@1.0050', true, ['pkg:cpan/ETHER/Try-Tiny@0.31', 'pkg:cpan/ZEFRAM/Module-Runtime@0.016']],
      ['pkg:cpan/ETHER/Try-Tiny@0.31', false, []],
      ['pkg:cpan/RJBS/Test-Deep@1.204', true, []],
    ]);
  });

  it('a sibling cpanfile names the declared distributions, test-phase ones as development', async () => {
    const result = await scan({
      'cpanfile.snapshot': SNAPSHOT,
      cpanfile: "requires 'Plack', '1.0';\nrequires \"Try::Tiny\";\n\non 'test' => sub {\n    requires 'Test::Deep'; # comparisons\n};\n",
    });
    expect(result.problems).toEqual([]);
    expect(result.targets[0]!.components.map((c) => [c.name, c.direct, c.scope])).toEqual([
      ['Module-Runtime', false, 'runtime'],
      ['Plack', true, 'runtime'],
      ['Try-Tiny', true, 'runtime'],
      ['Test-Deep', true, 'development'],
    ]);
  });

  it('cpanfile phases and distribution names', () => {
    const req = parseCpanfile("requires 'A';\non develop => sub { recommends 'B'; };\ntest_requires 'C';\nfeature 'x', 'X' => sub { requires 'D'; };\n");
    expect([...req.runtime]).toEqual(['A', 'D']);
    expect([...req.development]).toEqual(['B', 'C']);
    expect(splitDistribution('libwww-perl-6.76')).toEqual({ name: 'libwww-perl', version: '6.76' });
    expect(splitDistribution('Moose-2.2207-TRIAL')).toEqual({ name: 'Moose', version: '2.2207-TRIAL' });
    expect(splitDistribution('version-v0.9930')).toEqual({ name: 'version', version: 'v0.9930' });
  });

  it('empty and malformed snapshots', () => {
    expect(parseCpanfileSnapshot('# carton snapshot format: version 1.0\nDISTRIBUTIONS\n', 'cpanfile.snapshot').components).toEqual([]);
    expect(() => parseCpanfileSnapshot('DISTRIBUTIONS\n    pathname: A/AB/ABC/X-1.tar.gz\n', 'cpanfile.snapshot')).toThrow(ExtractError);
    expect(() => parseCpanfileSnapshot('DISTRIBUTIONS\n  X-1\n    not a field\n', 'cpanfile.snapshot')).toThrow(/第 3 行/);
  });
});
