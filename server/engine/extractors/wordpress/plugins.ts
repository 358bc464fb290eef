// WordPress plugins installed in a site: `wp-content/plugins/<slug>/<main>.php` (and single-file
// plugins `wp-content/plugins/<file>.php`, must-use plugins in `wp-content/mu-plugins/`). As
// WordPress does (get_plugin_data), a PHP file in the plugin's folder is its main file when its
// first 8 KiB hold a `Plugin Name:` header; `Version:` and `License:` come from the same header,
// and the plugin's readme.txt fills in a missing version (`Stable tag:`) and licence. Plugins are
// known by their folder's slug (what wordpress.org and the advisory databases name them).
// purl: pkg:wordpress/plugin/<slug>@<version> (the type proposed to purl-spec:
// pkg:wordpress/{plugin|theme|core}/<slug>).
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const PLUGIN_FILE = /(?:^|\/)wp-content\/(plugins|mu-plugins)\/(?:([^/]+)\/)?([^/]+)\.php$/i;
const HEADER_BYTES = 8192;

/** A header field as WordPress reads it: `^[ \t/*#@]*Name:(.*)$`, case-insensitive, trimmed of a closing comment. */
export function headerField(text: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^[ \\t/*#@]*${escaped}:(.*)$`, 'mi').exec(text);
  if (!m) return undefined;
  const value = m[1]!.replace(/\s*(?:\*\/|\?>).*$/, '').trim();
  return value || undefined;
}

export const wordpressPluginPurl = (slug: string, version: string): string => purlOf('wordpress', { namespace: 'plugin', name: slug.toLowerCase(), version });

export function pluginTarget(header: string, file: string, readme?: string): Target | null {
  const m = PLUGIN_FILE.exec(file);
  if (!m) return null;
  const title = headerField(header, 'Plugin Name');
  if (!title) return null;
  const slug = m[2] ?? m[3]!;
  const version = headerField(header, 'Version') ?? (readme ? headerField(readme, 'Stable tag') : undefined) ?? '';
  const license = headerField(header, 'License') ?? (readme ? headerField(readme, 'License') : undefined);
  const purl = wordpressPluginPurl(slug, version === 'trunk' ? '' : version);
  const line = header.slice(0, header.search(/Plugin Name:/i)).split('\n').length;
  return {
    file, type: 'wordpress-plugin', ecosystem: 'wordpress', project: null, roots: [purl],
    components: [{
      purl, ecosystem: 'wordpress', name: slug.toLowerCase(), version: version === 'trunk' ? '' : version, direct: true, scope: 'runtime',
      locations: [{ file, startLine: line }], licenses: license ? [license] : [], dependsOn: [],
    }],
  };
}

async function headerOf(file: InputFile): Promise<string> {
  const bytes = file.readAt ? await file.readAt(0, HEADER_BYTES) : (await file.read()).subarray(0, HEADER_BYTES);
  return Buffer.from(bytes).toString('utf8').replace(/\r/g, '\n');
}

export const wordpressPluginExtractor: Extractor = {
  name: 'wordpress-plugin',
  ecosystem: 'wordpress',
  reads: ['wp-content/plugins/<slug>/<slug>.php'],
  matches: (p) => PLUGIN_FILE.test(p),
  async extract(file: InputFile, ctx: ExtractContext) {
    const header = await headerOf(file);
    if (!/Plugin Name:/i.test(header)) return [];
    const m = PLUGIN_FILE.exec(file.path)!;
    const readme = m[2] ? await ctx.readText(file.path.replace(/[^/]+$/, 'readme.txt')).catch(() => undefined) : undefined;
    const target = pluginTarget(header, file.path, readme?.slice(0, HEADER_BYTES));
    return target ? [target] : [];
  },
};
