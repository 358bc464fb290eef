// NuGet packages on disk: *.nupkg files and the extracted packages of a global packages folder,
// each one component from its nuspec, read once when both are there.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../../server/engine/extractors/native/index.ts';
import { isExtractedNuspec, nugetPackageExtractor } from '../../../../../server/engine/extractors/native/nuget-packages.ts';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import { makeZip } from '../../../../support/make-zip.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';

const NEWTONSOFT = '/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll';
const { scan } = useTempScan('cairn-nupkg-', extractors);

/** A nuspec laid out as nuget.org serves Newtonsoft.Json's (metadata, licence expression, dependency groups). */
const nuspec = (id: string, version: string) => `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata minClientVersion="2.12">
    <id>${id}</id>
    <version>${version}</version>
    <title>Json.NET</title>
    <authors>James Newton-King</authors>
    <license type="expression">MIT</license>
    <licenseUrl>https://licenses.nuget.org/MIT</licenseUrl>
    <dependencies>
      <group targetFramework=".NETFramework2.0" />
      <group targetFramework=".NETStandard1.0">
        <dependency id="Microsoft.CSharp" version="4.3.0" exclude="Build,Analyzers" />
      </group>
    </dependencies>
  </metadata>
</package>
`;

const nupkg = (id: string, version: string) => makeZip({ entries: {
  '_rels/.rels': '<?xml version="1.0"?><Relationships/>',
  [`${id}.nuspec`]: nuspec(id, version),
  [`lib/net45/${id}.dll`]: Buffer.from('MZ'),
  '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
} });

describe('NuGet packages on disk', () => {
  it('a .nupkg: the package of its root nuspec, with its licence expression', async () => {
    const result = await scan({ 'artifacts/Newtonsoft.Json.13.0.3.nupkg': nupkg('Newtonsoft.Json', '13.0.3') });
    expect(result.problems).toEqual([]);
    expect(result.targets).toHaveLength(1);
    const [c] = result.targets[0]!.components;
    expect(c).toMatchObject({
      purl: 'pkg:nuget/Newtonsoft.Json@13.0.3', ecosystem: 'nuget', name: 'Newtonsoft.Json', version: '13.0.3', licenses: ['MIT'],
      confidence: CONFIDENCE.METADATA,
      evidence: [{ file: 'artifacts/Newtonsoft.Json.13.0.3.nupkg', rule: 'nupkg!/Newtonsoft.Json.nuspec', text: '<id>Newtonsoft.Json</id> <version>13.0.3</version>' }],
    });
  });

  it('a nuspec older than <license>: the licenseUrl where the address names a licence, nothing where it is a project page', async () => {
    const old = (id: string, url: string) => nuspec(id, '1.0.0').replace('    <license type="expression">MIT</license>\n', '').replace('https://licenses.nuget.org/MIT', url);
    const result = await scan({
      'a/a.1.0.0.nupkg': makeZip({ entries: { 'A.nuspec': old('A', 'http://www.apache.org/licenses/LICENSE-2.0') } }),
      'b/b.1.0.0.nupkg': makeZip({ entries: { 'B.nuspec': old('B', 'https://opensource.org/licenses/BSD-3-Clause') } }),
      // NUnit 2.6.4's own (Debian's nupkg-nunit.2.6.4): a page that only says what the licence is when fetched.
      'c/c.1.0.0.nupkg': makeZip({ entries: { 'C.nuspec': old('C', 'http://nunit.org/nuget/license.html') } }),
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.components[0]!.name, t.components[0]!.licenses])).toEqual([['A', ['Apache-2.0']], ['B', ['BSD-3-Clause']], ['C', []]]);
  });

  it('a global packages folder: each package once, from its nuspec, the .nupkg and the assemblies beside it skipped', async () => {
    const result = await scan({
      '.nuget/packages/newtonsoft.json/13.0.3/newtonsoft.json.nuspec': nuspec('Newtonsoft.Json', '13.0.3'),
      '.nuget/packages/newtonsoft.json/13.0.3/newtonsoft.json.13.0.3.nupkg': nupkg('Newtonsoft.Json', '13.0.3'),
      '.nuget/packages/serilog/3.1.1/serilog.nuspec': nuspec('Serilog', '3.1.1'),
      ...(existsSync(NEWTONSOFT) ? { '.nuget/packages/newtonsoft.json/13.0.3/lib/net45/Newtonsoft.Json.dll': readFileSync(NEWTONSOFT) } : {}),
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.components.map((c) => c.purl)])).toEqual([
      ['.nuget/packages/newtonsoft.json/13.0.3/newtonsoft.json.nuspec', ['pkg:nuget/Newtonsoft.Json@13.0.3']],
      ['.nuget/packages/serilog/3.1.1/serilog.nuspec', ['pkg:nuget/Serilog@3.1.1']],
    ]);
  });

  it('claims packages and extracted nuspecs, not a project\'s own nuspec', () => {
    expectClaims(nugetPackageExtractor,
      ['a/Foo.1.0.0.nupkg', 'home/.nuget/packages/foo.bar/2.0.0-beta.1/foo.bar.nuspec', 'packages/Foo/1.2.3.4/Foo.nuspec'],
      ['src/Foo/Foo.nuspec', 'packages/foo/latest/foo.nuspec', 'packages/foo/1.0.0/bar.nuspec', 'Foo.nupkg.sha512']);
    expect(isExtractedNuspec('x/1.0.0/x.nuspec')).toBe(true);
  });

  it('damaged packages: a problem each in Chinese', async () => {
    const result = await scan({
      'a/text.nupkg': 'not a zip',
      'b/empty.1.0.0.nupkg': makeZip({ entries: { 'lib/x.dll': 'MZ' } }),
      'c/bad.1.0.0.nupkg': makeZip({ entries: { 'bad.nuspec': '<package><metadata><id>' } }),
      'd/noid.1.0.0.nupkg': makeZip({ entries: { 'noid.nuspec': '<package><metadata><version>1.0.0</version></metadata></package>' } }),
    });
    expect(result.targets).toEqual([]);
    expect(result.problems.map((p) => [p.file, p.message])).toEqual([
      ['a/text.nupkg', 'a/text.nupkg 不是有效的 NuGet 包：不是 zip 文件'],
      ['b/empty.1.0.0.nupkg', 'b/empty.1.0.0.nupkg 不是有效的 NuGet 包：根目录没有 .nuspec 文件'],
      ['c/bad.1.0.0.nupkg', expect.stringContaining('c/bad.1.0.0.nupkg 不是有效的 XML')],
      ['d/noid.1.0.0.nupkg', 'd/noid.1.0.0.nupkg 中的 nuspec 缺少 <metadata><id>，不是 NuGet 包清单'],
    ]);
  });
});
