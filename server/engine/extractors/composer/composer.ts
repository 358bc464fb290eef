// PHP / Composer: composer.lock (`packages` and `packages-dev`) and the installed-packages list
// Composer writes into vendor/composer/installed.json (the 1.x array and the 2.x
// `{ "packages": [...] }` shapes). Edges come from each package's `require` (platform
// requirements such as php and ext-* are not packages); `replace` and `provide` let a require
// be satisfied by the package that replaces or provides the name.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { jsonErrorDetail, parseJsonValuesWithLines } from '../common/json-positions.ts';
import type { JsonSpan, JsonValues } from '../common/json-positions.ts';
import { isObject } from '../common/values.ts';

interface ComposerPackage {
  name: string;
  version: string;
  dev: boolean;
  require: string[];
  aliases: string[];
  licenses: string[];
  span?: JsonSpan;
}

export function composerPurl(name: string, version: string): string {
  const slash = name.indexOf('/');
  return slash > 0
    ? purlOf('composer', { namespace: name.slice(0, slash), name: name.slice(slash + 1), version })
    : purlOf('composer', { name, version });
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const joinPath = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

function licensesOf(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  if (Array.isArray(value)) return value.filter((l): l is string => typeof l === 'string' && l !== '');
  return [];
}

/** One package entry; one without a name is passed over (told in `problems`, by line where known). */
function readPackage(entry: unknown, dev: boolean, file: string, where: string, span: JsonSpan | undefined, problems: string[]): ComposerPackage | undefined {
  if (!isObject(entry) || typeof entry['name'] !== 'string' || !entry['name']) {
    problems.push(`${file} ${span ? `第 ${span.startLine} 行` : where}：包条目缺少 name，已跳过`);
    return undefined;
  }
  const version = typeof entry['version'] === 'string' ? entry['version'] : '';
  const keys = (v: unknown) => (isObject(v) ? Object.keys(v).map((k) => k.toLowerCase()) : []);
  const pkg: ComposerPackage = {
    name: entry['name'],
    version,
    dev,
    require: keys(entry['require']),
    aliases: [...keys(entry['replace']), ...keys(entry['provide'])],
    licenses: licensesOf(entry['license']),
  };
  if (span) pkg.span = span;
  return pkg;
}

function parseJson(text: string, file: string): JsonValues {
  try {
    return parseJsonValuesWithLines(text);
  } catch (error) {
    throw new ExtractError(`无法解析 ${file}：不是有效的 JSON（${jsonErrorDetail(error)}）`);
  }
}

/** Direct requirements of composer.json, lower-cased: runtime and dev. */
interface Manifest { runtime: Set<string>; dev: Set<string>; project: Target['project'] }

async function readManifest(path: string, ctx: ExtractContext): Promise<Manifest | undefined> {
  const text = await ctx.readText(path).catch(() => undefined);
  if (text === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  if (!isObject(doc)) return undefined;
  const names = (v: unknown) => new Set(isObject(v) ? Object.keys(v).map((k) => k.toLowerCase()) : []);
  const name = typeof doc['name'] === 'string' && doc['name'] ? doc['name'] : undefined;
  const version = typeof doc['version'] === 'string' ? doc['version'] : '';
  const project = name ? { purl: composerPurl(name, version), name, version } : null;
  return { runtime: names(doc['require']), dev: names(doc['require-dev']), project };
}

function buildTarget(file: string, type: string, packages: ComposerPackage[], manifest: Manifest | undefined): Target {
  const byName = new Map<string, ComposerPackage>();
  for (const p of packages) if (!byName.has(p.name.toLowerCase())) byName.set(p.name.toLowerCase(), p);
  // Names satisfied by another package through replace/provide, when exactly one package offers it.
  const offered = new Map<string, ComposerPackage | null>();
  for (const p of packages) {
    for (const alias of p.aliases) {
      if (byName.has(alias)) continue;
      const seen = offered.get(alias);
      offered.set(alias, seen === undefined || seen === p ? p : null);
    }
  }
  const resolve = (name: string) => byName.get(name) ?? offered.get(name) ?? undefined;
  const purl = (p: ComposerPackage) => composerPurl(p.name, p.version);

  const requiredByOthers = new Set<ComposerPackage>();
  const deps = new Map<ComposerPackage, ComposerPackage[]>();
  for (const p of packages) {
    const list: ComposerPackage[] = [];
    for (const req of p.require) {
      const child = resolve(req);
      if (child && child !== p && !list.includes(child)) {
        list.push(child);
        requiredByOthers.add(child);
      }
    }
    deps.set(p, list);
  }

  const components = new Map<string, Component>();
  const roots: string[] = [];
  for (const p of packages) {
    const id = purl(p);
    const lower = p.name.toLowerCase();
    const isDirect = manifest
      ? manifest.runtime.has(lower) || manifest.dev.has(lower) || p.aliases.some((a) => manifest.runtime.has(a) || manifest.dev.has(a))
      : !requiredByOthers.has(p);
    const existing = components.get(id);
    if (existing) {
      if (!p.dev) existing.scope = 'runtime';
      continue;
    }
    components.set(id, {
      purl: id,
      ecosystem: 'composer',
      name: p.name,
      version: p.version,
      direct: isDirect,
      scope: p.dev ? 'development' : 'runtime',
      locations: [{ file, ...(p.span ? { startLine: p.span.startLine, endLine: p.span.endLine } : {}) }],
      licenses: p.licenses,
      dependsOn: [...new Set(deps.get(p)!.map(purl))].filter((d) => d !== id),
    });
  }
  for (const c of components.values()) if (c.direct && c.scope === 'runtime') roots.push(c.purl);
  return { file, type, ecosystem: 'composer', project: manifest?.project ?? null, roots, components: [...components.values()] };
}

async function extractComposerLock(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const text = await file.text();
  const { value: doc, spans } = parseJson(text, file.path);
  if (!isObject(doc)) throw new ExtractError(`无法解析 ${file.path}：顶层应为 JSON 对象`);
  const packages: ComposerPackage[] = [];
  const problems: string[] = [];
  for (const [key, dev] of [['packages', false], ['packages-dev', true]] as const) {
    const list = doc[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      const span = isObject(list) ? spans.get(list) : undefined;
      problems.push(`${file.path}${span ? ` 第 ${span.startLine} 行` : ''}：${key} 不是数组，已跳过`);
      continue;
    }
    list.forEach((entry, i) => {
      const pkg = readPackage(entry, dev, file.path, `${key} 的第 ${i + 1} 项`, isObject(entry) ? spans.get(entry) : undefined, problems);
      if (pkg) packages.push(pkg);
    });
  }
  const manifest = await readManifest(joinPath(dirOf(file.path), 'composer.json'), ctx);
  const target = buildTarget(file.path, 'composer', packages, manifest);
  return [problems.length ? { ...target, problems } : target];
}

const isVendorInstalled = (path: string) => path === 'vendor/composer/installed.json' || path.endsWith('/vendor/composer/installed.json');

async function extractInstalledJson(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  // Only vendor/composer/installed.json is certainly Composer's; another installed.json that
  // does not have Composer's shape belongs to some other tool and is left alone.
  const strict = isVendorInstalled(file.path);
  const text = await file.text();
  let parsed: JsonValues;
  try {
    parsed = parseJson(text, file.path);
  } catch (error) {
    if (strict) throw error;
    return [];
  }
  const { value: doc, spans } = parsed;
  let list: unknown[];
  let devNames = new Set<string>();
  if (Array.isArray(doc)) {
    list = doc;
  } else if (isObject(doc) && Array.isArray(doc['packages'])) {
    list = doc['packages'];
    if (Array.isArray(doc['dev-package-names'])) {
      devNames = new Set(doc['dev-package-names'].filter((n): n is string => typeof n === 'string').map((n) => n.toLowerCase()));
    }
  } else {
    if (strict) throw new ExtractError(`无法解析 ${file.path}：应为包数组或含 packages 数组的对象`);
    return [];
  }
  const looksComposer = list.every((e) => isObject(e) && typeof e['name'] === 'string' && e['name'].includes('/'));
  if (!strict && (!looksComposer || list.length === 0)) return [];
  const problems: string[] = [];
  const packages = list.flatMap((entry, i) => {
    const name = isObject(entry) && typeof entry['name'] === 'string' ? entry['name'].toLowerCase() : '';
    return readPackage(entry, devNames.has(name), file.path, `第 ${i + 1} 个包`, isObject(entry) ? spans.get(entry) : undefined, problems) ?? [];
  });
  // vendor/composer/installed.json -> the project's composer.json two folders up.
  const manifest = strict
    ? await readManifest(joinPath(dirOf(dirOf(dirOf(file.path))), 'composer.json'), ctx)
    : undefined;
  const target = buildTarget(file.path, 'composer-vendor', packages, manifest);
  return [problems.length ? { ...target, problems } : target];
}

export const composerLockExtractor: Extractor = {
  name: 'composer',
  ecosystem: 'composer',
  reads: ['composer.lock'],
  matches: (path) => path === 'composer.lock' || path.endsWith('/composer.lock'),
  extract: extractComposerLock,
};

export const composerInstalledExtractor: Extractor = {
  name: 'composer-vendor',
  ecosystem: 'composer',
  reads: ['vendor/composer/installed.json'],
  matches: (path) => path === 'installed.json' || path.endsWith('/installed.json'),
  extract: extractInstalledJson,
};
