// MSBuild project files: PackageReference items in *.csproj / *.fsproj / *.vbproj (Version as
// attribute or element, VersionOverride), central package management from the nearest
// Directory.Packages.props above the project (following an <Import> of the next one up),
// PackageReference items of the nearest Directory.Build.props, and $(Property) expansion from
// the PropertyGroups of those files. Directory.Packages.props / Packages.props are also targets
// of their own (PackageVersion declarations, GlobalPackageReference).
// Scope: PrivateAssets="all" and GlobalPackageReference (analyzers, build tools) are
// development; so is every package of a test project (IsTestProject, or a reference to
// Microsoft.NET.Test.Sdk).
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Location, Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { childText, decodeXmlBytes, parseXml } from '../common/xml.ts';
import type { XmlElement } from '../common/xml.ts';
import { exactNugetVersion, newComponent, nugetPurl } from './common.ts';

/** Attribute or child element, as MSBuild items allow both. */
const meta = (el: XmlElement, name: string): string | undefined => el.attrs[name] ?? childText(el, name);

/** Every element named `name` under ItemGroups (and Choose/When/Otherwise). */
function items(root: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (el: XmlElement) => {
    for (const c of el.children) {
      if (c.name === name) out.push(c);
      else if (['ItemGroup', 'Choose', 'When', 'Otherwise'].includes(c.name)) visit(c);
    }
  };
  visit(root);
  return out;
}

function properties(root: XmlElement, into: Map<string, string>): void {
  const visit = (el: XmlElement) => {
    for (const c of el.children) {
      if (c.name === 'PropertyGroup') for (const p of c.children) into.set(p.name.toLowerCase(), p.text.trim());
      else if (['Choose', 'When', 'Otherwise'].includes(c.name)) visit(c);
    }
  };
  visit(root);
}

function expander(props: Map<string, string>): (v: string | undefined) => string {
  let budget = 0; // bounds exponential self-referencing properties
  const expand = (v: string, depth: number): string =>
    depth > 16 || !v.includes('$(') ? v : v.replace(/\$\(([\w.-]+)\)/g, (whole, k: string) => {
      const found = props.get(k.toLowerCase());
      return found === undefined || --budget < 0 ? whole : expand(found, depth + 1);
    });
  return (v) => {
    budget = 2000;
    return expand((v ?? '').trim(), 0);
  };
}

interface Loaded { file: string; root: XmlElement }

async function loadXml(ctx: ExtractContext, file: string): Promise<Loaded | undefined> {
  const text = await ctx.readText(file);
  if (text === undefined) return undefined;
  try {
    return { file, root: parseXml(text, file) };
  } catch {
    return undefined;
  }
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const inDir = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

/** Nearest `name` at or above `dir` (root-relative), as MSBuild's GetPathOfFileAbove. */
async function findAbove(ctx: ExtractContext, dir: string, name: string): Promise<string | undefined> {
  for (let d = dir; ; d = dirOf(d)) {
    const candidate = inDir(d, name);
    if ((await ctx.list(d)).includes(name)) return candidate;
    if (!d) return undefined;
  }
}

/** Central package versions (lower-cased name -> version and where) for a project directory. */
async function centralVersions(ctx: ExtractContext, dir: string, props: Map<string, string>): Promise<{ versions: Map<string, { version: string; location: Location }>; global: Array<{ name: string; version: string; location: Location }> }> {
  const chain: Loaded[] = [];
  let next = await findAbove(ctx, dir, 'Directory.Packages.props');
  while (next && chain.length < 8 && !chain.some((c) => c.file === next)) {
    const loaded = await loadXml(ctx, next);
    if (!loaded) break;
    chain.push(loaded);
    const importsParent = loaded.root.children.some((c) => c.name === 'Import' && /Directory\.Packages\.props/i.test(c.attrs.Project ?? ''));
    const here = dirOf(next);
    if (!importsParent || !here) break;
    next = await findAbove(ctx, dirOf(here), 'Directory.Packages.props');
  }
  const versions = new Map<string, { version: string; location: Location }>();
  const global: Array<{ name: string; version: string; location: Location }> = [];
  // Outermost first so nearer files override.
  for (const loaded of chain.reverse()) {
    properties(loaded.root, props);
    const expand = expander(props);
    for (const el of items(loaded.root, 'PackageVersion')) {
      const name = expand(el.attrs.Include ?? el.attrs.Update);
      if (name) versions.set(name.toLowerCase(), { version: expand(meta(el, 'Version')), location: { file: loaded.file, startLine: el.line, endLine: el.endLine } });
    }
    for (const el of items(loaded.root, 'GlobalPackageReference')) {
      const name = expand(el.attrs.Include);
      if (name) global.push({ name, version: expand(meta(el, 'Version')), location: { file: loaded.file, startLine: el.line, endLine: el.endLine } });
    }
  }
  return { versions, global };
}

const FRAMEWORK_ASSEMBLY = /^(?:System|Microsoft|mscorlib|netstandard|WindowsBase|PresentationCore|PresentationFramework|Accessibility|UIAutomation\w*)(?:\.|$)/i;

async function extractProject(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const root = parseXml(decodeXmlBytes(await file.read()), file.path);
  if (root.name !== 'Project') throw new ExtractError(`${file.path} 不是 MSBuild 项目文件：根元素是 <${root.name}>，应为 <Project>`);
  const dir = dirOf(file.path);
  const props = new Map<string, string>();
  const buildPropsPath = await findAbove(ctx, dir, 'Directory.Build.props');
  const buildProps = buildPropsPath ? await loadXml(ctx, buildPropsPath) : undefined;
  if (buildProps) properties(buildProps.root, props);
  properties(root, props);
  const central = await centralVersions(ctx, dir, props);
  properties(root, props); // the project's own properties win over the props files
  const expand = expander(props);

  const refs: Array<{ el: XmlElement; file: string }> = [
    ...(buildProps ? items(buildProps.root, 'PackageReference').map((el) => ({ el, file: buildProps.file })) : []),
    ...items(root, 'PackageReference').map((el) => ({ el, file: file.path })),
  ];
  const isTest = expand(props.get('istestproject')).toLowerCase() === 'true'
    || refs.some(({ el }) => expand(el.attrs.Include).toLowerCase() === 'microsoft.net.test.sdk');

  const components = new Map<string, Component>();
  const add = (name: string, version: string, scope: Scope, location: Location, declared?: string) => {
    const exact = exactNugetVersion(version);
    const c = newComponent(name, exact, true, isTest ? 'development' : scope, location);
    // A range or floating version (`[1.0,2.0)`, `1.*`) pins nothing: version '' and the range as declared.
    const range = declared ?? version.trim();
    if (!exact && range) c.constraint = range;
    const existing = components.get(c.purl);
    if (!existing) components.set(c.purl, c);
    else {
      if (c.scope === 'runtime') existing.scope = 'runtime';
      existing.locations.push(location);
    }
  };
  for (const { el, file: where } of refs) {
    const name = expand(el.attrs.Include);
    if (!name) continue; // `Update` items only adjust metadata of items declared elsewhere
    const own = meta(el, 'VersionOverride') ?? meta(el, 'Version');
    const version = own !== undefined ? expand(own) : (central.versions.get(name.toLowerCase())?.version ?? '');
    const privateAll = expand(meta(el, 'PrivateAssets')).toLowerCase().split(/[;,]/).map((s) => s.trim()).includes('all');
    add(name, version, privateAll ? 'development' : 'runtime', { file: where, startLine: el.line, endLine: el.endLine });
  }
  for (const g of central.global) add(g.name, g.version, 'development', g.location);
  // Old-style (packages.config era) assembly references: a HintPath into the packages folder names
  // the package and its exact version; a third-party assembly referenced only by its assembly
  // version pins no package version (version '' and `Version=…` as declared). Framework
  // assemblies (System.*, Microsoft.*, mscorlib, …) are the platform, not packages.
  for (const el of items(root, 'Reference')) {
    const include = expand(el.attrs.Include);
    const assembly = include.split(',')[0]!.trim();
    if (!assembly) continue;
    const hint = expand(meta(el, 'HintPath')).replace(/\\/g, '/');
    const fromPackages = /(?:^|\/)packages\/([^/]+?)\.(\d+(?:\.\d+)+(?:-[0-9A-Za-z.-]+)?)\//i.exec(hint);
    const location = { file: file.path, startLine: el.line, endLine: el.endLine };
    if (fromPackages) { add(fromPackages[1]!, fromPackages[2]!, 'runtime', location); continue; }
    if (FRAMEWORK_ASSEMBLY.test(assembly)) continue;
    const assemblyVersion = /(?:^|,)\s*Version\s*=\s*([^,\s]+)/i.exec(include)?.[1];
    if (!assemblyVersion) continue; // a bare assembly name: nothing says it is a package
    add(assembly, '', 'runtime', location, `Version=${assemblyVersion}`);
  }

  const name = expand(props.get('assemblyname')) || expand(props.get('packageid')) || path.posix.basename(file.path).replace(/\.\w+proj$/i, '');
  const version = exactNugetVersion(expand(props.get('version')) || expand(props.get('versionprefix')));
  const list = [...components.values()];
  return [{
    file: file.path, type: 'msbuild', ecosystem: 'nuget',
    project: name && !name.includes('$(') ? { purl: nugetPurl(name, version), name, version } : null,
    roots: list.map((c) => c.purl), components: list,
  }];
}

/**
 * What a project file says about development-only packages: PrivateAssets="all" references
 * (lower-cased names) and whether it is a test project. Undefined when it cannot be read.
 */
export async function projectDevInfo(ctx: ExtractContext, file: string): Promise<{ test: boolean; privateAll: Set<string> } | undefined> {
  const loaded = await loadXml(ctx, file);
  if (!loaded || loaded.root.name !== 'Project') return undefined;
  const props = new Map<string, string>();
  properties(loaded.root, props);
  const expand = expander(props);
  const privateAll = new Set<string>();
  let test = expand(props.get('istestproject')).toLowerCase() === 'true';
  for (const el of items(loaded.root, 'PackageReference')) {
    const name = expand(el.attrs.Include ?? el.attrs.Update).toLowerCase();
    if (name === 'microsoft.net.test.sdk') test = true;
    if (expand(meta(el, 'PrivateAssets')).toLowerCase().split(/[;,]/).map((x) => x.trim()).includes('all')) privateAll.add(name);
  }
  return { test, privateAll };
}

async function extractPackagesProps(file: InputFile): Promise<Target[]> {
  const root = parseXml(decodeXmlBytes(await file.read()), file.path);
  if (root.name !== 'Project') throw new ExtractError(`${file.path} 不是 MSBuild 属性文件：根元素是 <${root.name}>，应为 <Project>`);
  const props = new Map<string, string>();
  properties(root, props);
  const expand = expander(props);
  const components = new Map<string, Component>();
  const roots: string[] = [];
  const add = (el: XmlElement, isGlobal: boolean) => {
    const name = expand(el.attrs.Include ?? (isGlobal ? undefined : el.attrs.Update));
    if (!name) return;
    const c = newComponent(name, exactNugetVersion(expand(meta(el, 'Version'))), isGlobal, isGlobal ? 'development' : 'runtime', { file: file.path, startLine: el.line, endLine: el.endLine });
    const existing = components.get(c.purl);
    if (existing) existing.locations.push(...c.locations);
    else components.set(c.purl, c);
    if (isGlobal && !roots.includes(c.purl)) roots.push(c.purl);
  };
  for (const el of items(root, 'PackageVersion')) add(el, false);
  for (const el of items(root, 'GlobalPackageReference')) add(el, true);
  return [{ file: file.path, type: 'packages-props', ecosystem: 'nuget', project: null, roots, components: [...components.values()] }];
}

export const msbuildProjectExtractor: Extractor = {
  name: 'msbuild',
  ecosystem: 'nuget',
  reads: ['*.csproj', '*.fsproj', '*.vbproj'],
  matches: (p) => /\.(cs|fs|vb)proj$/i.test(p),
  extract: extractProject,
};

export const packagesPropsExtractor: Extractor = {
  name: 'packages-props',
  ecosystem: 'nuget',
  reads: ['Directory.Packages.props'],
  matches: (p) => {
    const base = p.slice(p.lastIndexOf('/') + 1);
    return base === 'Directory.Packages.props' || base === 'Packages.props';
  },
  extract: extractPackagesProps,
};
