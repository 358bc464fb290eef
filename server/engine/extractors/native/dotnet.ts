// .NET assemblies (*.dll with a CLR header): the NuGet package an assembly comes from, by
// its Win32 version resource (VS_VERSIONINFO, what Explorer's "Details" tab shows): the package
// id is the assembly's name (OriginalFilename without .dll, the file's own name), the version
// the ProductVersion (AssemblyInformationalVersion, NuGet's package version by default) without
// its `+commit` metadata. CONFIDENCE.MANIFEST: what the author declared, not what NuGet resolved.
// Framework assemblies are not packages: those of a runtime folder (dotnet/shared/…, Mono's
// /usr/lib/mono, the .NET Framework's Windows folder, a self-contained app's runtime files beside
// System.Private.CoreLib.dll), mscorlib and netstandard, reference assemblies under packs/ and ref/.
// Nor are programs: *.exe files, and the entry assembly of a .NET Core app (the one beside its
// <name>.runtimeconfig.json). An assembly inside an extracted package whose nuspec is there is
// left to that nuspec.
import path from 'node:path/posix';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE } from '../../model.ts';
import { peOffsetOf } from '../common/executable.ts';
import type { ExecutableImage } from '../common/executable.ts';
import type { RandomAccess } from '../common/random-access.ts';
import { nugetPurl } from '../nuget/common.ts';
import { openNative } from './files.ts';

const RT_VERSION = 16;
/** A version resource is a few KiB; more is not one. */
const MAX_VERSION_RESOURCE = 64 * 1024;
const MAX_DIRECTORY_ENTRIES = 4096;

export interface VersionResource {
  /** StringFileInfo values of the first string table: ProductName, ProductVersion, FileVersion, CompanyName, OriginalFilename, ... */
  strings: Map<string, string>;
  /** File offset of the VS_VERSIONINFO block. */
  offset: number;
}

interface Block { key: string; value: Buffer; type: number; children: Block[] }

const align4 = (n: number) => (n + 3) & ~3;

/** One VS_VERSIONINFO-style block (wLength, wValueLength, wType, szKey, padding, Value, padding, Children) at `at`. */
function parseBlock(buf: Buffer, at: number, end: number, depth: number): Block | undefined {
  if (at + 6 > end || depth > 4) return undefined;
  const length = buf.readUInt16LE(at);
  const valueLength = buf.readUInt16LE(at + 2);
  const type = buf.readUInt16LE(at + 4);
  const blockEnd = Math.min(end, at + length);
  if (length < 6 || at + length > end) return undefined;
  let k = at + 6;
  while (k + 1 < blockEnd && buf.readUInt16LE(k) !== 0) k += 2;
  const key = buf.toString('utf16le', at + 6, k);
  const valueAt = align4(k + 2);
  // Text values count UTF-16 units (some writers count bytes): read up to the NUL within the block.
  const valueBytes = type === 1 ? Math.min(valueLength * 2, Math.max(0, blockEnd - valueAt)) : Math.min(valueLength, Math.max(0, blockEnd - valueAt));
  const value = buf.subarray(valueAt, valueAt + valueBytes);
  const children: Block[] = [];
  for (let c = align4(valueAt + valueBytes); c + 6 <= blockEnd;) {
    const child = parseBlock(buf, c, blockEnd, depth + 1);
    if (!child) break;
    children.push(child);
    c = align4(c + buf.readUInt16LE(c));
  }
  return { key, value, type, children };
}

const utf16z = (b: Buffer): string => {
  const s = b.toString('utf16le', 0, b.length - (b.length % 2));
  const nul = s.indexOf('\0');
  return (nul >= 0 ? s.slice(0, nul) : s).trim();
};

/** The strings of a VS_VERSIONINFO resource. */
export function parseVersionInfo(data: Buffer): Map<string, string> {
  const strings = new Map<string, string>();
  const root = parseBlock(data, 0, data.length, 0);
  if (root?.key !== 'VS_VERSION_INFO') return strings;
  const tables = root.children.find((c) => c.key === 'StringFileInfo')?.children ?? [];
  // The first table whose language says English or neutral, else the first.
  const table = tables.find((t) => /^(0000|0409|007f)/i.test(t.key)) ?? tables[0];
  for (const s of table?.children ?? []) if (s.key) strings.set(s.key, utf16z(s.value));
  return strings;
}

/** The first RT_VERSION resource of a PE image, read through the resource directory (three levels: type, name, language). */
export async function readVersionResource(src: RandomAccess, image: ExecutableImage): Promise<VersionResource | undefined> {
  const dir = image.directories?.[2];
  if (!dir?.rva || !dir.size) return undefined;
  const base = peOffsetOf(image, dir.rva, 16);
  if (base === undefined) return undefined;
  const readDir = async (at: number): Promise<Array<{ id: number; offset: number; isDir: boolean }>> => {
    const head = await src.read(at, 16);
    if (head.length < 16) return [];
    const count = Math.min(head.readUInt16LE(12) + head.readUInt16LE(14), MAX_DIRECTORY_ENTRIES);
    const table = await src.read(at + 16, count * 8);
    const out: Array<{ id: number; offset: number; isDir: boolean }> = [];
    for (let i = 0; i + 8 <= table.length; i += 8) {
      const name = table.readUInt32LE(i);
      const target = table.readUInt32LE(i + 4);
      out.push({ id: name & 0x80000000 ? -1 : name, offset: target & 0x7fffffff, isDir: (target & 0x80000000) !== 0 });
    }
    return out;
  };
  const types = await readDir(base);
  const version = types.find((e) => e.id === RT_VERSION && e.isDir);
  if (!version) return undefined;
  const names = await readDir(base + version.offset);
  const firstName = names.find((e) => e.isDir);
  if (!firstName) return undefined;
  const langs = await readDir(base + firstName.offset);
  const leaf = langs.find((e) => !e.isDir);
  if (!leaf) return undefined;
  const entry = await src.read(base + leaf.offset, 16);
  if (entry.length < 16) return undefined;
  const rva = entry.readUInt32LE(0);
  const size = Math.min(entry.readUInt32LE(4), MAX_VERSION_RESOURCE);
  const at = peOffsetOf(image, rva, size);
  if (at === undefined || size < 6) return undefined;
  return { strings: parseVersionInfo(await src.read(at, size)), offset: at };
}

/** Runtime and SDK folders whose assemblies are the framework, not packages. */
const FRAMEWORK_DIRS = /(^|\/)(shared\/Microsoft\.[\w.]+\/\d[^/]*\/|packs\/[^/]+\/|usr\/lib\/mono\/|Microsoft\.NET\/(Framework|assembly)|Windows\/assembly\/|ref\/net[\w.]*\/)/i;
const FRAMEWORK_NAMES = /^(mscorlib|netstandard|System\.Private\.[\w.]+|WindowsBase|Presentation(Core|Framework)[\w.]*|Accessibility)$/i;
/** A NuGet package id: letters, digits, `_`, `-`, `.` (nuget.org's rule), not starting with a dot. */
const NUGET_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/** `13.0.3+0a2e291c` -> `13.0.3`; `6.0.8.18111` -> `6.0.8` (the fourth part of an assembly's file version is its build number). */
export function packageVersion(productVersion: string | undefined, fileVersion: string | undefined): string {
  for (const raw of [productVersion, fileVersion]) {
    const v = (raw ?? '').trim().replace(/\+.*$/, '').replace(/\s.*$/, '');
    const m = /^(\d+)\.(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?$/.exec(v);
    if (!m) continue;
    return `${m[1]}.${m[2]}.${m[3] ?? '0'}${m[5] ?? ''}`;
  }
  return '';
}

const isCli = (image: ExecutableImage) => (image.directories?.[14]?.rva ?? 0) !== 0;

/** `<id>/<version>/lib/…` of an extracted package: the package's nuspec beside names it exactly (nuget-packages.ts). */
const IN_PACKAGE = /^((?:.*\/)?([^/]+)\/\d+(?:\.\d+){1,3}(?:[-+][^/]*)?)\/(lib|runtimes|ref|tools|build|buildTransitive|analyzers)\//;

async function extractAssembly(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  if (FRAMEWORK_DIRS.test(file.path)) return [];
  const inPackage = IN_PACKAGE.exec(file.path);
  if (inPackage && await ctx.exists(`${inPackage[1]}/${inPackage[2]}.nuspec`)) return [];
  const opened = await openNative(file);
  const image = opened?.exe.images[0];
  if (!opened || image?.format !== 'pe' || !isCli(image)) return [];
  const resource = await readVersionResource(opened.src, image);
  if (!resource || resource.strings.size === 0) return [];
  const own = path.basename(file.path).replace(/\.dll$/i, '');
  const original = (resource.strings.get('OriginalFilename') || resource.strings.get('InternalName') || '').replace(/\.(dll|exe)$/i, '');
  // The assembly's own name: the file may have been renamed, the resource says what it was built as.
  const id = original && original.toLowerCase() === own.toLowerCase() ? original : own;
  if (!NUGET_ID.test(id) || FRAMEWORK_NAMES.test(id)) return [];
  // A self-contained app carries the runtime's own assemblies beside System.Private.CoreLib.dll.
  const dir = path.dirname(file.path);
  if (/^(System|Microsoft)(\.|$)/i.test(id) && await ctx.exists(path.join(dir, 'System.Private.CoreLib.dll'))) return [];
  if (await ctx.exists(path.join(dir, `${own}.runtimeconfig.json`))) return [];
  const version = packageVersion(resource.strings.get('ProductVersion'), resource.strings.get('FileVersion'));
  const shown = ['ProductName', 'ProductVersion', 'FileVersion', 'CompanyName', 'OriginalFilename']
    .filter((k) => resource.strings.get(k))
    .map((k) => `${k}=${resource.strings.get(k)}`)
    .join('; ');
  const purl = nugetPurl(id, version);
  const component: Component = {
    purl, ecosystem: 'nuget', name: id, version, direct: true, scope: 'runtime',
    locations: [{ file: file.path }], licenses: [], dependsOn: [],
    evidence: [{ file: file.path, rule: '.NET 版本资源', text: shown.slice(0, 200), offset: resource.offset }],
    confidence: CONFIDENCE.MANIFEST,
  };
  return [{ file: file.path, type: 'dotnet-assembly', ecosystem: 'nuget', project: null, roots: [purl], components: [component] }];
}

export const dotnetAssemblyExtractor: Extractor = {
  name: 'dotnet-assembly',
  ecosystem: 'nuget',
  reads: ['*.dll'],
  matches: (p) => /\.dll$/i.test(p),
  extract: extractAssembly,
};
