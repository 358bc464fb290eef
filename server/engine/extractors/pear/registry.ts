// PEAR's registry of installed packages (`pear install`, `pecl install`): one serialised PHP array
// per package, `<php_dir>/.registry/<name>.reg` for the pear.php.net channel and
// `.registry/.channel.<channel>/<name>.reg` for the others (pecl.php.net, __uri, private
// channels); the file name is the package name in lower case. Each gives the package (`name`,
// `channel`, `version.release`, `license._content`) and its required and optional package
// dependencies (`dependencies.required.package`, one entry or a list), resolved to the installed
// version through their own registry file. purl: pkg:pecl/<name>@<version> for PECL extensions,
// pkg:pear/<name>@<version> for PEAR packages (another channel as repository_url); syft reads the
// same files.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { phpGet, phpList, PhpSerializeError, unserializePhp, type PhpValue } from './php-serialize.ts';

const REGISTRY_FILE = /^(.*?(?:^|\/)\.registry)\/(?:\.channel\.([^/]+)\/)?([^/.][^/]*)\.reg$/;
const DEFAULT_CHANNEL = 'pear.php.net';
const text = (v: PhpValue | undefined): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

export function pearPurl(name: string, version: string, channel: string): string {
  const lower = channel.toLowerCase();
  if (lower === 'pecl.php.net') return purlOf('pecl', { name, version });
  const qualifiers = lower === DEFAULT_CHANNEL || lower === '__uri' ? null : { repository_url: `https://${lower}` };
  return purlOf('pear', { name, version, qualifiers });
}

interface Entry { name: string; channel: string; version: string; license?: string; deps: Array<{ name: string; channel: string; optional: boolean }> }

export function parseRegistryEntry(bytes: Uint8Array, file: string): Entry {
  let doc: PhpValue;
  try {
    doc = unserializePhp(bytes);
  } catch (error) {
    if (error instanceof PhpSerializeError) throw new ExtractError(`无法解析 PEAR 注册表文件 ${file}：${error.message}`);
    throw error;
  }
  const name = text(phpGet(doc, 'name')) ?? text(phpGet(doc, 'package'));
  if (!name) throw new ExtractError(`PEAR 注册表文件 ${file} 缺少包名（name）`);
  const fromPath = REGISTRY_FILE.exec(file)?.[2];
  const channel = text(phpGet(doc, 'channel')) ?? fromPath ?? DEFAULT_CHANNEL;
  const versionField = phpGet(doc, 'version');
  const version = text(versionField instanceof Map ? phpGet(versionField, 'release') : versionField) ?? '';
  const licenseField = phpGet(doc, 'license');
  const license = text(licenseField instanceof Map ? phpGet(licenseField, '_content') : licenseField);
  const deps: Entry['deps'] = [];
  for (const [group, optional] of [['required', false], ['optional', true]] as const) {
    for (const dep of phpList(phpGet(doc, 'dependencies', group, 'package'))) {
      const depName = text(phpGet(dep, 'name'));
      if (!depName) continue;
      const depChannel = text(phpGet(dep, 'channel')) ?? (text(phpGet(dep, 'uri')) ? '__uri' : DEFAULT_CHANNEL);
      deps.push({ name: depName, channel: depChannel, optional });
    }
  }
  return { name, channel, version, license: license || undefined, deps };
}

/** The registry file of a package of a channel, relative to the `.registry` folder. */
const registryPath = (registry: string, name: string, channel: string): string =>
  channel.toLowerCase() === DEFAULT_CHANNEL ? `${registry}/${name.toLowerCase()}.reg` : `${registry}/.channel.${channel.toLowerCase()}/${name.toLowerCase()}.reg`;

export async function registryTarget(bytes: Uint8Array, file: string, ctx?: ExtractContext): Promise<Target> {
  const entry = parseRegistryEntry(bytes, file);
  const purl = pearPurl(entry.name, entry.version, entry.channel);
  const ecosystem = purl.startsWith('pkg:pecl/') ? 'pecl' : 'pear';
  const component: Component = {
    purl, ecosystem, name: entry.name, version: entry.version, direct: true, scope: 'runtime',
    locations: [{ file }], licenses: entry.license ? [entry.license] : [], dependsOn: [],
  };
  const registry = REGISTRY_FILE.exec(file)?.[1];
  if (ctx && registry !== undefined) {
    for (const dep of entry.deps) {
      // Only installed dependencies are edges: an optional one that is absent is no component.
      const source = await ctx.readText(registryPath(registry, dep.name, dep.channel)).catch(() => undefined);
      if (source === undefined) continue;
      try {
        const installed = parseRegistryEntry(Buffer.from(source, 'utf8'), registryPath(registry, dep.name, dep.channel));
        const depPurl = pearPurl(installed.name, installed.version, installed.channel);
        if (!component.dependsOn.includes(depPurl)) component.dependsOn.push(depPurl);
      } catch {
        // The dependency's own file reports its fault when the scan reads it.
      }
    }
  }
  return { file, type: 'pear-registry', ecosystem, project: null, roots: [purl], components: [component] };
}

export const pearRegistryExtractor: Extractor = {
  name: 'pear-registry',
  ecosystem: 'pear',
  reads: ['.registry/*.reg'],
  matches: (p) => REGISTRY_FILE.test(p),
  async extract(file: InputFile, ctx: ExtractContext) {
    return [await registryTarget(await file.read(), file.path, ctx)];
  },
};
