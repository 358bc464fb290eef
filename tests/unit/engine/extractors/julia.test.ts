import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/julia/index.ts';
import { parseJuliaManifest } from '../../../../server/engine/extractors/julia/manifest.ts';
import { purlTypeOfOsvEcosystem } from '../../../../contract/ecosystems.ts';
import { TRIVY } from '../../../support/golden.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/julia');
const extractor = extractors[0]!;
const short = (purl: string) => purl.replace('pkg:julia/', '').split('?')[0];

describe('Julia Manifest.toml', () => {
  it('claims manifests (versioned and Julia-prefixed) only', () => {
    expectClaims(extractor, ['Manifest.toml', 'env/Manifest-v1.11.toml', 'JuliaManifest.toml'], ['Project.toml', 'manifest.toml', 'Manifest.toml.bak']);
  });

  it('reads trivy\'s format-2.0 manifest: standard libraries take julia_version, edges by name, unrequired packages as roots', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'trivy-primary-v1.8'), 'Manifest.toml');
    expect(t.type).toBe('julia');
    expect(t.project).toBeNull();
    expect(t.components.map((c) => [c.name, c.version, c.purl, c.direct, c.dependsOn.map(short), c.locations[0]!.startLine, c.locations[0]!.endLine])).toEqual([
      ['Dates', '1.8.5', 'pkg:julia/Dates@1.8.5?uuid=ade2ca70-3891-5945-98fb-dc099432e06a', false, ['Printf@1.8.5'], 7, 9],
      ['JSON', '0.21.4', 'pkg:julia/JSON@0.21.4?uuid=682c06a0-de6a-54ab-a142-c8b1cf79cde6', true, ['Dates@1.8.5', 'Mmap@1.8.5', 'Parsers@2.5.10', 'Unicode@1.8.5'], 11, 15],
      ['Mmap', '1.8.5', 'pkg:julia/Mmap@1.8.5?uuid=a63ad114-7e13-5084-954f-fe012c677804', false, [], 17, 18],
      ['Parsers', '2.5.10', 'pkg:julia/Parsers@2.5.10?uuid=69de0a69-1ddd-5017-9359-2bf0b02dc9f0', false, ['Dates@1.8.5', 'PrecompileTools@1.1.1', 'UUIDs@1.8.5'], 20, 24],
      ['PrecompileTools', '1.1.1', 'pkg:julia/PrecompileTools@1.1.1?uuid=aea7be01-6a6a-4083-8856-8a6e6704d82a', false, ['Preferences@1.4.0'], 26, 30],
      ['Preferences', '1.4.0', 'pkg:julia/Preferences@1.4.0?uuid=21216c6a-2e73-6563-6e65-726566657250', false, ['TOML@1.0.0'], 32, 36],
      ['Printf', '1.8.5', 'pkg:julia/Printf@1.8.5?uuid=de0858da-6303-5e67-8744-51eddeeeb8d7', false, ['Unicode@1.8.5'], 38, 40],
      ['Random', '1.8.5', 'pkg:julia/Random@1.8.5?uuid=9a3f8284-a2c9-5f02-9a11-845980a1fd5c', false, ['SHA@0.7.0', 'Serialization@1.8.5'], 42, 44],
      ['SHA', '0.7.0', 'pkg:julia/SHA@0.7.0?uuid=ea8e919c-243c-51af-8825-aaa63cd721ce', false, [], 46, 48],
      ['Serialization', '1.8.5', 'pkg:julia/Serialization@1.8.5?uuid=9e88b42a-f829-5b0c-bbe9-9e923198166b', false, [], 50, 51],
      ['TOML', '1.0.0', 'pkg:julia/TOML@1.0.0?uuid=fa267f1f-6049-4f14-aa54-33bafae1ed76', false, ['Dates@1.8.5'], 53, 56],
      ['UUIDs', '1.8.5', 'pkg:julia/UUIDs@1.8.5?uuid=cf7118a7-6976-5b1a-9a39-7adc72f591a4', false, ['Random@1.8.5', 'SHA@0.7.0'], 58, 60],
      ['Unicode', '1.8.5', 'pkg:julia/Unicode@1.8.5?uuid=4ec0a83e-493e-50e2-b9ac-8f72acf5a8f5', false, [], 62, 63],
    ]);
    expect(t.roots).toEqual(['pkg:julia/JSON@0.21.4?uuid=682c06a0-de6a-54ab-a142-c8b1cf79cde6']);
  });

  it('reads trivy\'s format-1.0 manifest: two packages of one name told apart by UUID, name → UUID dependency tables', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'trivy-format-v1.0'), 'Manifest.toml');
    const uuid = (purl: string) => purl.split('uuid=')[1]!.slice(0, 8);
    expect(t.components.map((c) => [c.name, c.version, uuid(c.purl), c.direct, c.dependsOn.map(uuid), c.locations[0]!.startLine, c.locations[0]!.endLine])).toEqual([
      ['Foo', '', '767738be', true, ['2a550a13', '6801f525', 'b5ec9b9c'], 1, 5],
      ['Foo', '', '6f418443', false, ['b5ec9b9c'], 7, 10],
      ['Bar', '', '2a550a13', false, ['6801f525', '6f418443'], 12, 17],
      ['Baz', '', '6801f525', false, ['6f418443', 'b5ec9b9c'], 19, 24],
      ['Qux', '', 'b5ec9b9c', false, [], 26, 28],
    ]);
  });

  it('the sibling Project.toml declares the direct packages by UUID (trivy\'s julia corpus, a shadowed name)', async () => {
    const t = await extractFile(extractor, path.join(TRIVY, 'repo/julia'), 'Manifest.toml');
    expect(t.project).toEqual({ purl: 'pkg:julia/packageName@0.1.0?uuid=1c653b0a-0b5a-4cff-b25a-92f0db012773', name: 'packageName', version: '0.1.0' });
    expect(t.components.map((c) => [c.purl, c.direct, c.dependsOn])).toEqual([
      ['pkg:julia/A@1.9.0?uuid=ead4f63c-334e-11e9-00e6-e7f0a5f21b60', true, ['pkg:julia/B@1.9.0?uuid=f41f7b98-334e-11e9-1257-49272045fb24']],
      ['pkg:julia/B@1.9.0?uuid=f41f7b98-334e-11e9-1257-49272045fb24', false, []],
      ['pkg:julia/B@1.9.0?uuid=edca9bc6-334e-11e9-3554-9595dbb4349c', true, []],
    ]);
    // trivy's own report of the same folder names the same three packages.
    const golden = readFileSync(path.join(TRIVY, 'golden/julia-spdx.json.golden'), 'utf8');
    for (const c of t.components) expect(golden).toContain(c.purl);
  });

  it('empty and malformed manifests', () => {
    expect(parseJuliaManifest('julia_version = "1.10.0"\nmanifest_format = "2.0"\n', 'Manifest.toml').components).toEqual([]);
    expect(() => parseJuliaManifest('[[deps.A]\n', 'Manifest.toml')).toThrow(ExtractError);
    expect(() => parseJuliaManifest('manifest_format = "2.0"\n[[deps.A]]\nversion = "1.0.0"\n', 'Manifest.toml')).toThrow(/A 缺少 uuid/);
  });

  it('OSV\'s Julia advisories meet these components', () => {
    expect(purlTypeOfOsvEcosystem('Julia')).toBe('julia');
  });
});
