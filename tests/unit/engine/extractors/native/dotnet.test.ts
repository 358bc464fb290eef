// .NET assemblies: the NuGet package named by an assembly's version resource, read from real
// assemblies in place (Debian's Newtonsoft.Json, the WiX assemblies electron-winstaller ships from
// the npm registry), and what is not a package: native DLLs, framework folders, an app's own
// entry assembly, a self-contained app's runtime, damaged files.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dotnetAssemblyExtractor, packageVersion, parseVersionInfo } from '../../../../../server/engine/extractors/native/dotnet.ts';
import { extractors } from '../../../../../server/engine/extractors/native/index.ts';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import type { Target } from '../../../../../server/engine/model.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';
import { debianUpstream, inputFile } from './native-file.ts';

const NEWTONSOFT = '/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll';
const WIX = path.resolve(import.meta.dirname, '../../../../../node_modules/electron-winstaller/vendor');
const { scan } = useTempScan('cairn-dotnet-', extractors);
const none = { exists: async () => false, signal: new AbortController().signal } as never;

const extract = (source: string | Buffer, rel: string, ctx = none): Promise<Target[]> => dotnetAssemblyExtractor.extract(inputFile(source, rel), ctx);

describe('assemblies with a version resource', () => {
  it.skipIf(!existsSync(NEWTONSOFT) || !debianUpstream('libnewtonsoft-json5.0-cil'))('Debian\'s Newtonsoft.Json: the package at dpkg\'s upstream version, from ProductVersion 6.0.8.18111', async () => {
    const [target] = await extract(NEWTONSOFT, 'app/bin/Newtonsoft.Json.dll');
    expect(target!.type).toBe('dotnet-assembly');
    const [c] = target!.components;
    expect(c!.purl).toBe(`pkg:nuget/Newtonsoft.Json@${debianUpstream('libnewtonsoft-json5.0-cil')}`);
    expect(c!.confidence).toBe(CONFIDENCE.MANIFEST);
    expect(c!.evidence).toEqual([{
      file: 'app/bin/Newtonsoft.Json.dll', rule: '.NET 版本资源',
      text: 'ProductName=Json.NET; ProductVersion=6.0.8.18111; FileVersion=6.0.8.18111; CompanyName=Newtonsoft; OriginalFilename=Newtonsoft.Json.dll',
      offset: expect.any(Number),
    }]);
    // The offset is the VS_VERSIONINFO block's: its key follows the three 16-bit fields.
    const bytes = readFileSync(NEWTONSOFT);
    expect(bytes.toString('utf16le', c!.evidence![0]!.offset! + 6, c!.evidence![0]!.offset! + 6 + 30)).toBe('VS_VERSION_INFO');
  });

  it.skipIf(!existsSync(path.join(WIX, 'Microsoft.Deployment.WindowsInstaller.dll')))('WiX\'s Microsoft.Deployment.WindowsInstaller.dll (electron-winstaller, npm registry): 3.10.0', async () => {
    const [target] = await extract(path.join(WIX, 'Microsoft.Deployment.WindowsInstaller.dll'), 'tools/Microsoft.Deployment.WindowsInstaller.dll');
    expect(target!.components.map((c) => c.purl)).toEqual(['pkg:nuget/Microsoft.Deployment.WindowsInstaller@3.10.0']);
  });

  it.skipIf(!existsSync(path.join(WIX, '7z-x64.dll')))('a native DLL (7-Zip) has no CLR header: not a NuGet package', async () => {
    expect(await extract(path.join(WIX, '7z-x64.dll'), 'tools/7z-x64.dll')).toEqual([]);
  });

  it('the versions NuGet gives a package', () => {
    expect(packageVersion('13.0.3+0a2e291c0d9c0c7675d445703e51750363a549ef', '13.0.3.27908')).toBe('13.0.3');
    expect(packageVersion('6.0.8.18111', '6.0.8.18111')).toBe('6.0.8');
    expect(packageVersion('2.0.0-beta.4', '2.0.0.0')).toBe('2.0.0-beta.4');
    expect(packageVersion('Release build', '4.7')).toBe('4.7.0');
    expect(packageVersion(undefined, undefined)).toBe('');
  });

  it('only *.dll is claimed', () => {
    expectClaims(dotnetAssemblyExtractor, ['bin/Newtonsoft.Json.dll', 'x/SERILOG.DLL'], ['bin/app.exe', 'lib/libz.so', 'Newtonsoft.Json.xml']);
  });
});

describe.skipIf(!existsSync(NEWTONSOFT))('what is not a package', () => {
  const bytes = () => readFileSync(NEWTONSOFT);

  it('framework folders: Mono, a dotnet runtime, reference packs', async () => {
    for (const rel of ['usr/lib/mono/4.5/Newtonsoft.Json.dll', 'usr/share/dotnet/shared/Microsoft.NETCore.App/8.0.1/Newtonsoft.Json.dll', 'usr/share/dotnet/packs/Microsoft.NETCore.App.Ref/8.0.1/ref/net8.0/Newtonsoft.Json.dll']) {
      expect(await extract(bytes(), rel), rel).toEqual([]);
    }
  });

  it('an app\'s entry assembly beside its runtimeconfig.json; System.* beside System.Private.CoreLib.dll', async () => {
    const result = await scan({
      'app/Newtonsoft.Json.dll': bytes(),
      'app/Newtonsoft.Json.runtimeconfig.json': '{}',
      'self/System.Text.Json.dll': bytes(),
      'self/System.Private.CoreLib.dll': 'x',
      'lib/System.Text.Json.dll': bytes(),
    });
    expect(result.targets.filter((t) => t.type === 'dotnet-assembly').map((t) => [t.file, t.components[0]!.purl])).toEqual([['lib/System.Text.Json.dll', 'pkg:nuget/System.Text.Json@6.0.8']]);
  });

  it('a truncated assembly, a resource directory pointing anywhere: nothing, no crash', async () => {
    expect(await extract(bytes().subarray(0, 4096), 'bin/Newtonsoft.Json.dll')).toEqual([]);
    const damaged = Buffer.from(bytes());
    const at = damaged.indexOf(Buffer.from('VS_VERSION_INFO', 'utf16le')) - 6;
    damaged.writeUInt16LE(0xffff, at); // wLength past the resource
    expect(await extract(damaged, 'bin/Newtonsoft.Json.dll')).toEqual([]);
  });

  it('a version resource with no strings: nothing to name the version from', () => {
    expect(parseVersionInfo(Buffer.alloc(64))).toEqual(new Map());
  });
});
