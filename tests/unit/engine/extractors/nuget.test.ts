import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/nuget/index.ts';
import { exactNugetVersion, jsonObjectLines, pathKey } from '../../../../server/engine/extractors/nuget/common.ts';
import type { Component, ScanResult, Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { TRIVY } from '../../../support/golden.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const { scan: scanFiles } = useTempScan('cairn-nuget-', extractors);
const target = (r: ScanResult, file: string): Target => {
  const t = r.targets.find((x) => x.file === file);
  expect(t, `${file}: ${r.targets.map((x) => x.file).join(', ')}`).toBeDefined();
  return t!;
};
const byName = (t: Target) => new Map<string, Component>(t.components.map((c) => [c.name, c]));

describe('trivy fixtures', () => {
  it('packages.lock.json: direct packages, edges and trivy\'s line spans', async () => {
    const r = await scanTree(path.join(TRIVY, 'repo/nuget'), { extractors });
    const t = target(r, 'packages.lock.json');
    const c = byName(t);
    expect(c.get('Newtonsoft.Json')).toMatchObject({ purl: 'pkg:nuget/Newtonsoft.Json@12.0.3', direct: true, locations: [{ file: 'packages.lock.json', startLine: 5, endLine: 10 }] });
    expect(c.get('NuGet.Frameworks')).toMatchObject({ dependsOn: ['pkg:nuget/Newtonsoft.Json@12.0.3'], locations: [{ startLine: 11, endLine: 19 }] });
    expect(t.roots).toHaveLength(2);
  });
  it('deps.json: the project is the root, packages carry trivy\'s lines', async () => {
    const r = await scanTree(path.join(TRIVY, 'repo/dotnet'), { extractors });
    const t = target(r, 'datacollector.deps.json');
    expect(t.project).toEqual({ purl: 'pkg:nuget/Microsoft.VisualStudio.TestPlatform.Common@17.2.0-release-20220408-11', name: 'Microsoft.VisualStudio.TestPlatform.Common', version: '17.2.0-release-20220408-11' });
    expect(t.components).toMatchObject([{ purl: 'pkg:nuget/Newtonsoft.Json@9.0.1', locations: [{ startLine: 8, endLine: 14 }] }]);
  });
  it('Directory.Packages.props is a target of its own', async () => {
    const r = await scanTree(path.join(TRIVY, 'repo/packagesprops'), { extractors });
    expect(target(r, 'Directory.Packages.props').components).toMatchObject([{ purl: 'pkg:nuget/Newtonsoft.Json@9.0.1', locations: [{ startLine: 5, endLine: 5 }] }]);
  });
});

describe('packages.lock.json', () => {
  it('dedupes across frameworks, skips project references, names the sibling project', async () => {
    const lock = {
      version: 2,
      dependencies: {
        'net6.0': {
          A: { type: 'Direct', requested: '[1.0.0, )', resolved: '1.0.0', dependencies: { B: '2.0.0', Lib: '1.0.0' } },
          B: { type: 'Transitive', resolved: '2.0.0' },
          Lib: { type: 'Project' },
        },
        'net8.0': {
          A: { type: 'Direct', requested: '[1.0.0, )', resolved: '1.0.0', dependencies: { B: '2.1.0' } },
          B: { type: 'CentralTransitive', requested: '[2.1.0, )', resolved: '2.1.0' },
        },
      },
    };
    const r = await scanFiles({ 'src/App/packages.lock.json': JSON.stringify(lock, null, 2), 'src/App/App.csproj': '<Project Sdk="Microsoft.NET.Sdk"></Project>' });
    const t = target(r, 'src/App/packages.lock.json');
    expect(t.components.map((c) => [c.purl, c.direct])).toEqual([['pkg:nuget/A@1.0.0', true], ['pkg:nuget/B@2.0.0', false], ['pkg:nuget/B@2.1.0', false]]);
    expect(byName(t).get('A')!.dependsOn).toEqual(['pkg:nuget/B@2.0.0', 'pkg:nuget/B@2.1.0']);
    expect(byName(t).get('A')!.locations).toHaveLength(2);
    expect(t.project).toMatchObject({ name: 'App' });
    expect(t.roots).toEqual(['pkg:nuget/A@1.0.0']);
  });
  it('takes development scope from the project file beside it', async () => {
    const lock = { version: 1, dependencies: { 'net8.0': {
      Serilog: { type: 'Direct', resolved: '3.1.1', dependencies: { 'System.Memory': '4.5.5' } },
      'StyleCop.Analyzers': { type: 'Direct', resolved: '1.1.118', dependencies: { 'StyleCop.Analyzers.Unstable': '1.1.118' } },
      'StyleCop.Analyzers.Unstable': { type: 'Transitive', resolved: '1.1.118' },
      'System.Memory': { type: 'Transitive', resolved: '4.5.5' },
    } } };
    const r = await scanFiles({
      'App/packages.lock.json': JSON.stringify(lock),
      'App/App.csproj': '<Project><ItemGroup><PackageReference Include="Serilog" Version="3.1.1" /><PackageReference Include="StyleCop.Analyzers" Version="1.1.118"><PrivateAssets>all</PrivateAssets></PackageReference></ItemGroup></Project>',
      'Tests/packages.lock.json': JSON.stringify(lock),
      'Tests/Tests.csproj': '<Project><PropertyGroup><IsTestProject>true</IsTestProject></PropertyGroup></Project>',
    });
    expect(target(r, 'App/packages.lock.json').components.map((c) => [c.name, c.scope])).toEqual([
      ['Serilog', 'runtime'], ['StyleCop.Analyzers', 'development'], ['StyleCop.Analyzers.Unstable', 'development'], ['System.Memory', 'runtime'],
    ]);
    expect(target(r, 'Tests/packages.lock.json').components.every((c) => c.scope === 'development')).toBe(true);
    expect(target(r, 'Tests/packages.lock.json').project).toEqual({ purl: 'pkg:nuget/Tests', name: 'Tests', version: '' });
  });

  it('reports malformed JSON and wrong shapes in Chinese', async () => {
    const r = await scanFiles({ 'a/packages.lock.json': '{"version": 1, "dependencies": {', 'b/packages.lock.json': '[]', 'c/x.deps.json': '{}', 'd/obj/project.assets.json': 'nope' });
    expect(r.problems.map((p) => p.file)).toEqual(['a/packages.lock.json', 'b/packages.lock.json', 'c/x.deps.json', 'd/obj/project.assets.json']);
    expect(r.problems[0]!.message).toMatch(/不是有效的 NuGet 锁文件/);
    expect(r.problems[1]!.message).toMatch(/缺少 dependencies/);
    expect(r.problems[2]!.message).toMatch(/缺少 libraries/);
  });
});

describe('packages.config', () => {
  it('reads packages with lines and development dependencies', async () => {
    const r = await scanFiles({
      'Web/packages.config': '<?xml version="1.0" encoding="utf-8"?>\n<packages>\n  <package id="jQuery" version="3.4.1" targetFramework="net48" />\n  <package id="StyleCop.Analyzers" version="1.1.118" developmentDependency="true" />\n  <package id="Range" version="[1.0,2.0)" />\n</packages>\n',
      'Bad/packages.config': '<packages><package id="x" version="1"></packages>',
    });
    const t = target(r, 'Web/packages.config');
    expect(t.components.map((c) => [c.purl, c.scope, c.locations[0]!.startLine])).toEqual([
      ['pkg:nuget/jQuery@3.4.1', 'runtime', 3],
      ['pkg:nuget/StyleCop.Analyzers@1.1.118', 'development', 4],
      ['pkg:nuget/Range', 'runtime', 5],
    ]);
    expect(r.problems).toMatchObject([{ file: 'Bad/packages.config' }]);
    expect(r.problems[0]!.message).toMatch(/不是有效的 XML/);
  });
});

describe('PackageReference in project files', () => {
  it('uses Version attributes and elements, central versions walking up, VersionOverride and properties', async () => {
    const r = await scanFiles({
      'Directory.Packages.props': `<Project>
  <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally><SerilogVersion>3.1.1</SerilogVersion></PropertyGroup>
  <ItemGroup>
    <PackageVersion Include="Serilog" Version="$(SerilogVersion)" />
    <PackageVersion Include="Polly" Version="8.2.0" />
    <PackageVersion Include="xunit" Version="2.6.1" />
    <GlobalPackageReference Include="Nerdbank.GitVersioning" Version="3.6.133" />
  </ItemGroup>
</Project>`,
      'src/Directory.Build.props': '<Project><PropertyGroup><Company>Acme</Company></PropertyGroup><ItemGroup><PackageReference Include="Microsoft.SourceLink.GitHub" Version="8.0.0" PrivateAssets="All" /></ItemGroup></Project>',
      'src/App/App.csproj': `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net8.0</TargetFramework><Version>1.4.0</Version><DapperVersion>2.1.24</DapperVersion></PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Serilog" />
    <PackageReference Include="Polly" VersionOverride="7.2.4" />
    <PackageReference Include="Dapper" Version="$(DapperVersion)" />
    <PackageReference Include="Newtonsoft.Json">
      <Version>13.0.3</Version>
    </PackageReference>
    <PackageReference Include="Floating" Version="1.*" />
    <PackageReference Update="Serilog" Version="9.9.9" />
    <ProjectReference Include="../Lib/Lib.csproj" />
  </ItemGroup>
</Project>`,
      'tests/App.Tests/App.Tests.csproj': '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.8.0" /><PackageReference Include="xunit" /></ItemGroup></Project>',
      'legacy/Old.vbproj': '<Project ToolsVersion="15.0"><ItemGroup><Reference Include="System" /></ItemGroup></Project>',
      'broken/Broken.csproj': '<Project><ItemGroup></Project>',
    });
    const app = target(r, 'src/App/App.csproj');
    expect(app.project).toEqual({ purl: 'pkg:nuget/App@1.4.0', name: 'App', version: '1.4.0' });
    const c = byName(app);
    expect(Object.fromEntries(app.components.map((x) => [x.name, x.version]))).toEqual({
      'Microsoft.SourceLink.GitHub': '8.0.0',
      Serilog: '3.1.1',
      Polly: '7.2.4',
      Dapper: '2.1.24',
      'Newtonsoft.Json': '13.0.3',
      Floating: '',
      'Nerdbank.GitVersioning': '3.6.133',
    });
    expect(c.get('Microsoft.SourceLink.GitHub')).toMatchObject({ scope: 'development', locations: [{ file: 'src/Directory.Build.props' }] });
    expect(c.get('Nerdbank.GitVersioning')).toMatchObject({ scope: 'development', direct: true, locations: [{ file: 'Directory.Packages.props', startLine: 7, endLine: 7 }] });
    expect(c.get('Serilog')).toMatchObject({ scope: 'runtime', direct: true, locations: [{ file: 'src/App/App.csproj', startLine: 4, endLine: 4 }] });
    expect(c.get('Newtonsoft.Json')!.locations[0]).toEqual({ file: 'src/App/App.csproj', startLine: 7, endLine: 9 });
    expect(app.roots).toHaveLength(7);

    const tests = target(r, 'tests/App.Tests/App.Tests.csproj');
    expect(tests.components.map((x) => [x.purl, x.scope])).toEqual([
      ['pkg:nuget/Microsoft.NET.Test.Sdk@17.8.0', 'development'],
      ['pkg:nuget/xunit@2.6.1', 'development'],
      ['pkg:nuget/Nerdbank.GitVersioning@3.6.133', 'development'],
    ]);
    expect(target(r, 'legacy/Old.vbproj').components.map((x) => x.name)).toEqual(['Nerdbank.GitVersioning']);
    const props = target(r, 'Directory.Packages.props');
    expect(props.components.map((x) => [x.purl, x.direct])).toEqual([
      ['pkg:nuget/Serilog@3.1.1', false], ['pkg:nuget/Polly@8.2.0', false], ['pkg:nuget/xunit@2.6.1', false], ['pkg:nuget/Nerdbank.GitVersioning@3.6.133', true],
    ]);
    expect(r.problems.map((p) => p.file)).toEqual(['broken/Broken.csproj']);
  });

  it('follows an Import of the Directory.Packages.props one level up', async () => {
    const r = await scanFiles({
      'Directory.Packages.props': '<Project><ItemGroup><PackageVersion Include="A" Version="1.0.0" /><PackageVersion Include="B" Version="1.0.0" /></ItemGroup></Project>',
      'sub/Directory.Packages.props': '<Project><Import Project="$([MSBuild]::GetPathOfFileAbove(Directory.Packages.props, $(MSBuildThisFileDirectory)..))" /><ItemGroup><PackageVersion Include="B" Version="2.0.0" /></ItemGroup></Project>',
      'sub/p/P.csproj': '<Project><ItemGroup><PackageReference Include="A" /><PackageReference Include="b" /></ItemGroup></Project>',
    });
    expect(target(r, 'sub/p/P.csproj').components.map((c) => c.purl)).toEqual(['pkg:nuget/A@1.0.0', 'pkg:nuget/b@2.0.0']);
  });
});

describe('没有固定版本的声明', () => {
  it('PackageReference 的版本范围与浮动版本以空版本和声明的范围报告', async () => {
    const csproj = `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Serilog" Version="[2.10.0,3.0.0)" />
    <PackageReference Include="Dapper" Version="2.*" />
    <PackageReference Include="Polly" Version="[7.2.3]" />
    <PackageReference Include="NoVersion" />
  </ItemGroup>
</Project>`;
    const t = target(await scanFiles({ 'App/App.csproj': csproj }), 'App/App.csproj');
    expect(t.components.map((c) => [c.name, c.version, c.constraint])).toEqual([
      ['Serilog', '', '[2.10.0,3.0.0)'], ['Dapper', '', '2.*'], ['Polly', '7.2.3', undefined], ['NoVersion', '', undefined],
    ]);
  });

  it('旧式 <Reference>：packages 目录中的 HintPath 给出确切版本，只有程序集版本的以空版本和 Version= 报告，框架程序集不是组件', async () => {
    const csproj = `<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemGroup>
    <Reference Include="Newtonsoft.Json, Version=12.0.0.0, Culture=neutral, PublicKeyToken=30ad4fe6b2a6aeed, processorArchitecture=MSIL">
      <HintPath>..\\packages\\Newtonsoft.Json.12.0.3\\lib\\net45\\Newtonsoft.Json.dll</HintPath>
    </Reference>
    <Reference Include="log4net, Version=2.0.8.0, Culture=neutral, PublicKeyToken=669e0ddf0bb1aa2a, processorArchitecture=MSIL" />
    <Reference Include="System" />
    <Reference Include="System.Core" />
    <Reference Include="Microsoft.CSharp" />
    <Reference Include="LocalHelper" />
  </ItemGroup>
</Project>`;
    const t = target(await scanFiles({ 'Legacy/Legacy.csproj': csproj }), 'Legacy/Legacy.csproj');
    expect(t.components.map((c) => [c.purl, c.version, c.constraint, c.locations[0]!.startLine])).toEqual([
      ['pkg:nuget/Newtonsoft.Json@12.0.3', '12.0.3', undefined, 4],
      ['pkg:nuget/log4net', '', 'Version=2.0.8.0', 7],
    ]);
  });
});

describe('project.assets.json', () => {
  it('reads targets, edges, direct dependencies and development-only subgraphs', async () => {
    const assets = {
      version: 3,
      targets: {
        'net8.0': {
          'Serilog/3.1.1': { type: 'package', dependencies: { 'System.Memory': '4.5.5' } },
          'System.Memory/4.5.5': { type: 'package' },
          'StyleCop.Analyzers/1.1.118': { type: 'package', dependencies: { 'StyleCop.Analyzers.Unstable': '1.1.118' } },
          'StyleCop.Analyzers.Unstable/1.1.118': { type: 'package' },
          'Lib/1.0.0': { type: 'project', dependencies: { Serilog: '3.1.1' } },
        },
        'net8.0/linux-x64': {
          'Serilog/3.1.1': { type: 'package', dependencies: { 'System.Memory': '4.5.5' } },
          'System.Memory/4.5.5': { type: 'package' },
        },
      },
      libraries: { 'Serilog/3.1.1': { type: 'package' }, 'System.Memory/4.5.5': { type: 'package' }, 'StyleCop.Analyzers/1.1.118': { type: 'package' }, 'StyleCop.Analyzers.Unstable/1.1.118': { type: 'package' }, 'Lib/1.0.0': { type: 'project' } },
      project: {
        version: '2.0.0',
        restore: { projectName: 'App' },
        frameworks: { 'net8.0': { dependencies: { Serilog: { target: 'Package', version: '[3.1.1, )' }, 'StyleCop.Analyzers': { target: 'Package', version: '[1.1.118, )', suppressParent: 'All' } } } },
      },
    };
    const r = await scanFiles({ 'App/obj/project.assets.json': JSON.stringify(assets, null, 2) });
    const t = target(r, 'App/obj/project.assets.json');
    expect(t.project).toEqual({ purl: 'pkg:nuget/App@2.0.0', name: 'App', version: '2.0.0' });
    expect(t.components.map((c) => [c.name, c.direct, c.scope])).toEqual([
      ['Serilog', true, 'runtime'], ['System.Memory', false, 'runtime'], ['StyleCop.Analyzers', true, 'development'], ['StyleCop.Analyzers.Unstable', false, 'development'],
    ]);
    expect(byName(t).get('Serilog')!.dependsOn).toEqual(['pkg:nuget/System.Memory@4.5.5']);
    expect(byName(t).get('Serilog')!.locations[0]!.startLine).toBeGreaterThan(1);
    expect(t.roots.sort()).toEqual(['pkg:nuget/Serilog@3.1.1', 'pkg:nuget/StyleCop.Analyzers@1.1.118']);
  });
});

describe('large inputs', () => {
  it('reads a 5,000-package project.assets.json with two targets under 3 s', async () => {
    const libs: Record<string, unknown> = {};
    const libraries: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) {
      libs[`Pkg${i}/1.0.${i}`] = { type: 'package', dependencies: i ? { [`Pkg${i - 1}`]: `1.0.${i - 1}`, [`Pkg${Math.floor(i / 2)}`]: '1.0.0' } : {} };
      libraries[`Pkg${i}/1.0.${i}`] = { type: 'package', path: `pkg${i}/1.0.${i}` };
    }
    const assets = { version: 3, targets: { 'net8.0': libs, 'net8.0/win-x64': libs }, libraries, projectFileDependencyGroups: { 'net8.0': ['Pkg4999 >= 1.0.4999'] }, project: { restore: { projectName: 'Big' } } };
    const r = await scanFiles({ 'obj/project.assets.json': JSON.stringify(assets, null, 2) });
    const t = target(r, 'obj/project.assets.json');
    expect(t.components).toHaveLength(5000);
    expect(t.roots).toEqual(['pkg:nuget/Pkg4999@1.0.4999']);
    expect(t.components.every((c) => c.scope === 'runtime')).toBe(true);
  });
});

describe('deps.json', () => {
  it('takes edges and direct dependencies from the runtime target', async () => {
    const deps = {
      runtimeTarget: { name: '.NETCoreApp,Version=v8.0' },
      targets: {
        '.NETCoreApp,Version=v8.0': {
          'App/1.0.0': { dependencies: { Serilog: '3.1.1', Lib: '1.0.0' } },
          'Serilog/3.1.1': { dependencies: { 'System.Memory': '4.5.5' } },
          'System.Memory/4.5.5': {},
          'Lib/1.0.0': { dependencies: { 'System.Memory': '4.5.5' } },
        },
      },
      libraries: { 'App/1.0.0': { type: 'project' }, 'Serilog/3.1.1': { type: 'package' }, 'System.Memory/4.5.5': { type: 'package' }, 'Lib/1.0.0': { type: 'project' }, 'runtimepack.x/8.0.0': { type: 'runtimepack' } },
    };
    const r = await scanFiles({ 'bin/App.deps.json': JSON.stringify(deps, null, 2) });
    const t = target(r, 'bin/App.deps.json');
    expect(t.project!.name).toBe('App');
    expect(t.components.map((c) => [c.purl, c.direct, c.dependsOn])).toEqual([
      ['pkg:nuget/Serilog@3.1.1', true, ['pkg:nuget/System.Memory@4.5.5']],
      ['pkg:nuget/System.Memory@4.5.5', false, []],
    ]);
    expect(t.roots).toEqual(['pkg:nuget/Serilog@3.1.1']);
  });
});

describe('helpers', () => {
  it('pins only exact NuGet versions', () => {
    expect(exactNugetVersion('13.0.3')).toBe('13.0.3');
    expect(exactNugetVersion('[13.0.3]')).toBe('13.0.3');
    expect(exactNugetVersion('[1.0, 2.0)')).toBe('');
    expect(exactNugetVersion('1.*')).toBe('');
    expect(exactNugetVersion('$(X)')).toBe('');
  });
  it('indexes JSON object lines, escapes and arrays included', () => {
    const text = '{\n "a": {\n  "b\\"c": {\n   "x": [ {"y": 1} ],\n   "s": "}{"\n  }\n }\n}';
    const lines = jsonObjectLines(text, 2);
    expect(lines.get(pathKey('a'))).toEqual([2, 7]);
    expect(lines.get(pathKey('a', 'b"c'))).toEqual([3, 6]);
  });
});

describe('odd but valid JSON', () => {
  it('skips nameless entries instead of failing the file', async () => {
    const r = await scanFiles({
      'a/packages.lock.json': JSON.stringify({ version: 1, dependencies: { 'net8.0': { '': { type: 'Direct', resolved: '1.0.0' }, X: { type: 'Direct', resolved: '1.0.0', dependencies: { '': '1.0.0' } } }, other: 5 } }),
      'b/x.deps.json': JSON.stringify({ targets: { t: { '/1.0': { dependencies: { '': '1.0' } } } }, libraries: { '/1.0': { type: 'project' }, '/2.0': { type: 'package' }, 'Y/2.0': { type: 'package' } } }),
      'c/obj/project.assets.json': JSON.stringify({ targets: { t: { '/1.0': { type: 'package' }, 'Z/1.0': { type: 'package', dependencies: { '': '1.0' } } } } }),
    });
    // What NuGet cannot restore from is told (file, line); other files have nothing to skip.
    expect(r.problems.map((p) => p.message)).toEqual([
      'a/packages.lock.json 第 1 行：“net8.0”中有一个没有名称的条目，已跳过',
      'a/packages.lock.json：目标框架“other”的依赖不是对象，已跳过',
    ]);
    expect(target(r, 'a/packages.lock.json').components.map((c) => c.purl)).toEqual(['pkg:nuget/X@1.0.0']);
    expect(target(r, 'b/x.deps.json').components.map((c) => c.purl)).toEqual(['pkg:nuget/Y@2.0']);
    expect(target(r, 'b/x.deps.json').project).toBeNull();
    expect(target(r, 'c/obj/project.assets.json').components.map((c) => c.purl)).toEqual(['pkg:nuget/Z@1.0']);
  });
});
