// Paket's paket.lock, packages.config and old-style project references, on real public files.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/nuget/index.ts';
import { packagesConfigExtractor } from '../../../../server/engine/extractors/nuget/config.ts';
import { paketLockExtractor, parsePaketLock } from '../../../../server/engine/extractors/nuget/paket.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/nuget');
const { scan } = useTempScan('cairn-paket-', extractors);
const rows = (t: Target) => t.components.map((c) => [c.purl, c.direct, c.dependsOn, c.locations[0]!.startLine]);

describe('paket.lock', () => {
  it('claims paket.lock only', () => {
    expectClaims(paketLockExtractor, ['paket.lock', 'src/paket.lock'], ['paket.dependencies', 'external.paket.lock.bak']);
  });

  it('indentation gives the edges; framework restrictions and settings are passed over; roots are what nothing needs', async () => {
    const t = await extractFile(paketLockExtractor, path.join(FIXTURES, 'paket-framework-restrictions'), 'paket.lock');
    expect(t.problems).toBeUndefined();
    expect(t).toMatchObject({ type: 'paket', ecosystem: 'nuget', project: null });
    expect(rows(t)).toEqual([
      ['pkg:nuget/Microsoft.Bcl@1.1.10', false, ['pkg:nuget/Microsoft.Bcl.Build@1.0.21'], 5],
      ['pkg:nuget/Microsoft.Bcl.Async@1.0.168', false, ['pkg:nuget/Microsoft.Bcl@1.1.10'], 7],
      ['pkg:nuget/Microsoft.Bcl.Build@1.0.21', false, [], 9],
      ['pkg:nuget/StackExchange.Redis@1.0.481', true, ['pkg:nuget/Microsoft.Bcl@1.1.10', 'pkg:nuget/Microsoft.Bcl.Async@1.0.168'], 10],
    ]);
    expect(t.roots).toEqual(['pkg:nuget/StackExchange.Redis@1.0.481']);
  });

  it('groups: the same package in two groups at two versions, group settings passed over', async () => {
    const groups = await extractFile(paketLockExtractor, path.join(FIXTURES, 'paket-multiple-groups'), 'paket.lock');
    expect(rows(groups)).toEqual([
      ['pkg:nuget/FSharp.Core@4.7.2', true, [], 9],
      ['pkg:nuget/FSharp.Core@7.0', true, [], 17],
    ]);
    const legacy = await extractFile(paketLockExtractor, path.join(FIXTURES, 'paket-legacy-groups'), 'paket.lock');
    expect(rows(legacy)).toEqual([
      ['pkg:nuget/Newtonsoft.Json@6.0.3', true, [], 4],
      ['pkg:nuget/Newtonsoft.Json@5.0.2', true, [], 10],
    ]);
  });

  it('HTTP downloads and GIT repositories are generic components with where they come from', async () => {
    const http = await extractFile(paketLockExtractor, path.join(FIXTURES, 'paket-http'), 'paket.lock');
    expect(http.components.map((c) => [c.purl, c.ecosystem, c.name, c.version])).toEqual([
      ['pkg:generic/stanford-ner-2015-12-09.zip?download_url=http%3A%2F%2Fnlp.stanford.edu%2Fsoftware%2Fstanford-ner-2015-12-09.zip', 'generic', 'stanford-ner-2015-12-09.zip', ''],
      ['pkg:generic/stanford-segmenter-2015-12-09.zip?download_url=http%3A%2F%2Fnlp.stanford.edu%2Fsoftware%2Fstanford-segmenter-2015-12-09.zip', 'generic', 'stanford-segmenter-2015-12-09.zip', ''],
    ]);
    const git = await extractFile(paketLockExtractor, path.join(FIXTURES, 'paket-git'), 'paket.lock');
    expect(git.components.map((c) => [c.purl, c.ecosystem, c.name, c.version, c.direct])).toEqual([
      ['pkg:nuget/Argu@1.1.3', 'nuget', 'Argu', '1.1.3', true],
      ['pkg:generic/nupkgtest@05366e390e7552a569f3f328a0f3094249f3b93b?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Fforki%2Fnupkgtest.git%4005366e390e7552a569f3f328a0f3094249f3b93b', 'generic', 'github.com/forki/nupkgtest', '05366e390e7552a569f3f328a0f3094249f3b93b', true],
    ]);
  });

  it('GITHUB files; paket.dependencies beside the lock names the direct packages per group', async () => {
    const lock = `RESTRICTION: || (== net6.0) (== netstandard2.0)
NUGET
  remote: https://api.nuget.org/v3/index.json
    FSharp.Core (6.0.5) - content: none
    Giraffe (5.0.0)
      FSharp.Core (>= 4.7)
      Microsoft.IO.RecyclableMemoryStream (>= 1.3.5)
    Microsoft.IO.RecyclableMemoryStream (2.2.1)
GITHUB
  remote: fsprojects/FSharpx.Collections
  specs:
    src/FSharpx.Collections/Collections.fs (a1b69514a64c94ec46b37e7fd0f471b8c63e2a5b)

GROUP Build
NUGET
  remote: https://api.nuget.org/v3/index.json
    Fake.Core.Target (5.23.1)
      FSharp.Core (>= 6.0)
    FSharp.Core (6.0.5)
    ?? garbage
`;
    const result = await scan({
      'paket.lock': lock,
      'paket.dependencies': 'source https://api.nuget.org/v3/index.json\nnuget FSharp.Core\nnuget Giraffe ~> 5\ngithub fsprojects/FSharpx.Collections src/FSharpx.Collections/Collections.fs\n\ngroup Build\n  nuget Fake.Core.Target\n',
    });
    const t = result.targets.find((x) => x.type === 'paket')!;
    expect(t.components.map((c) => [c.purl, c.direct])).toEqual([
      ['pkg:nuget/FSharp.Core@6.0.5', true],
      ['pkg:nuget/Giraffe@5.0.0', true],
      ['pkg:nuget/Microsoft.IO.RecyclableMemoryStream@2.2.1', false],
      ['pkg:generic/FSharpx.Collections@a1b69514a64c94ec46b37e7fd0f471b8c63e2a5b?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Ffsprojects%2FFSharpx.Collections%40a1b69514a64c94ec46b37e7fd0f471b8c63e2a5b#src/FSharpx.Collections/Collections.fs', true],
      ['pkg:nuget/Fake.Core.Target@5.23.1', true],
    ]);
    expect(t.components.find((c) => c.name === 'Fake.Core.Target')!.dependsOn).toEqual(['pkg:nuget/FSharp.Core@6.0.5']);
    expect(t.components[0]!.locations).toEqual([{ file: 'paket.lock', startLine: 4, endLine: 4 }, { file: 'paket.lock', startLine: 19, endLine: 19 }]);
    expect(result.problems.map((p) => p.message)).toEqual([expect.stringContaining('paket.lock 第 20 行：无法识别的条目“?? garbage”，已跳过')]);
    expect(parsePaketLock('', 'paket.lock').components).toEqual([]);
  });
});

describe('packages.config and old-style references', () => {
  it('reads trivy\'s packages.config: developmentDependency, allowedVersions passed over', async () => {
    const t = await extractFile(packagesConfigExtractor, path.join(FIXTURES, 'trivy-packages-config'), 'packages.config');
    expect(t.components.map((c) => [c.purl, c.version, c.scope, c.direct])).toEqual([
      ['pkg:nuget/Microsoft.Net.Compilers@1.0.0', '1.0.0', 'development', true],
      ['pkg:nuget/Newtonsoft.Json@8.0.3', '8.0.3', 'runtime', true],
    ]);
  });

  it('an old-style csproj: HintPath folder versions, assembly versions as constraints, framework assemblies left out', async () => {
    const result = await scan({
      'App/App.csproj': `<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemGroup>
    <Reference Include="Newtonsoft.Json, Version=12.0.0.0, Culture=neutral, PublicKeyToken=30ad4fe6b2a6aeed, processorArchitecture=MSIL">
      <HintPath>..\\packages\\Newtonsoft.Json.12.0.3\\lib\\net45\\Newtonsoft.Json.dll</HintPath>
      <Private>True</Private>
    </Reference>
    <Reference Include="Vendor.Sdk, Version=3.1.0.0, Culture=neutral">
      <HintPath>..\\lib\\Vendor.Sdk.dll</HintPath>
    </Reference>
    <Reference Include="System" />
    <Reference Include="System.Data, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089" />
    <Reference Include="Microsoft.CSharp" />
  </ItemGroup>
</Project>
`,
    });
    const t = result.targets.find((x) => x.type === 'msbuild')!;
    expect(t.components.map((c) => [c.purl, c.version, c.constraint, c.locations[0]!.startLine])).toEqual([
      ['pkg:nuget/Newtonsoft.Json@12.0.3', '12.0.3', undefined, 4],
      ['pkg:nuget/Vendor.Sdk', '', 'Version=3.1.0.0', 8],
    ]);
  });
});
