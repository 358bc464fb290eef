// Golden checks for the CocoaPods, Swift, Pub, Hex, Conan and Conda extractors against trivy's
// fixture projects and goldens. mix.lock: trivy records no edges, so only packages are scored
// there (our edges are checked to stay inside the package set). conda: the golden is a
// CycloneDX SBOM (conda-cyclonedx.json.golden), compared by purl and licence.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExtractors, scanTree } from '../../../server/engine/index.ts';
import { expectGolden, PACKAGE_F1 } from '../../support/golden-check.ts';
import { ourSets, readGolden, score, TRIVY } from '../../support/golden.ts';

const { cocoapods, conan, conda, hex, pub, swift } = (await loadExtractors()).families;

const all = [...cocoapods, ...swift, ...pub, ...hex, ...conan, ...conda];

describe('golden: cocoapods, swift, pub, hex, conan, conda', () => {
  it('cocoapods Podfile.lock', () => expectGolden({ golden: 'cocoapods.json.golden', repo: 'cocoapods' }, all));
  it('swift Package.resolved', () => expectGolden({ golden: 'swift.json.golden', repo: 'swift' }, all));
  it('pub pubspec.lock', () => expectGolden({ golden: 'pubspec.lock.json.golden', repo: 'pubspec', includeDev: true }, all));
  it('conan conan.lock', () => expectGolden({ golden: 'conan.json.golden', repo: 'conan' }, all));

  it('hex mix.lock (packages; trivy records no edges)', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo', 'mixlock'), { extractors: all });
    expect(result.problems).toEqual([]);
    for (const golden of readGolden('mix.lock.json.golden')) {
      const target = result.targets.find((t) => t.file === golden.file)!;
      expect(target).toBeDefined();
      const ours = ourSets(target, golden.hasRoot);
      const pkg = score(golden.packages, ours.packages);
      console.log(`${'mix.lock.json.golden'.padEnd(32)} ${golden.file.padEnd(28)} 组件 F1 ${pkg.f1.toFixed(3)}（${golden.packages.size}）  依赖边 ${ours.edges.size} 条（trivy 不记录）`);
      expect(pkg.f1, `缺少 ${pkg.missing.join(', ')} 多出 ${pkg.extra.join(', ')}`).toBeGreaterThanOrEqual(PACKAGE_F1);
      expect(golden.edges.size).toBe(0);
      for (const edge of ours.edges) for (const end of edge.split(' -> ')) expect(ours.packages.has(end), edge).toBe(true);
      expect(ours.edges.has('pkg:hex/phoenix@1.6.13 -> pkg:hex/plug@1.14.0')).toBe(true);
    }
  });

  it('conda-meta against the CycloneDX golden', async () => {
    const bom = JSON.parse(readFileSync(path.join(TRIVY, 'golden', 'conda-cyclonedx.json.golden'), 'utf8')) as {
      components?: Array<{ purl?: string; licenses?: Array<{ license?: { name?: string; id?: string } }> }>;
    };
    const expected = new Map((bom.components ?? []).filter((c) => c.purl).map((c) => [c.purl!, (c.licenses ?? []).map((l) => l.license?.id ?? l.license?.name ?? '')]));
    const result = await scanTree(path.join(TRIVY, 'repo', 'conda'), { extractors: all });
    expect(result.problems).toEqual([]);
    const ours = new Map(result.targets.flatMap((t) => t.components).map((c) => [c.purl, c.licenses]));
    const pkg = score(new Set(expected.keys()), new Set(ours.keys()));
    console.log(`${'conda-cyclonedx.json.golden'.padEnd(32)} ${'conda-meta/*.json'.padEnd(28)} 组件 F1 ${pkg.f1.toFixed(3)}（${expected.size}）`);
    expect(pkg.f1).toBeGreaterThanOrEqual(PACKAGE_F1);
    for (const [purl, licenses] of expected) expect(ours.get(purl), purl).toEqual(licenses);
  });
});
