// Gradle version catalogs (gradle/libs.versions.toml and other *.versions.toml): the
// [libraries] table, with versions written inline, by `version.ref` / `{ ref }` into [versions],
// or as rich versions (strictly > require > prefer). A catalog declares what builds may use, so
// its libraries are direct; ranges, dynamic versions (`1.+`, `latest.release`) and missing
// versions are ''. [bundles] only group libraries and [plugins] are Gradle plugin ids: neither
// adds components.
import { parse as parseToml } from 'smol-toml';
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Gradle's exact versions only: no ranges, `+`, `latest.*` or unresolved references. */
export function exactGradleVersion(v: string): string {
  const s = v.trim();
  if (!s || /[[\]()+,]/.test(s) || s.startsWith('latest.') || s.includes('$')) return '';
  return s;
}

export function richVersion(v: unknown, versions: Table, depth = 0): string {
  if (typeof v === 'string') return v;
  if (!isTable(v) || depth > 4) return '';
  if (typeof v.ref === 'string') return richVersion(versions[v.ref], versions, depth + 1);
  for (const key of ['strictly', 'require', 'prefer']) if (typeof v[key] === 'string') return v[key] as string;
  return '';
}

/** Finds the 1-based line declaring `key` inside the [libraries] table (cheap text search). */
function lineIndex(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let section = '';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) { section = header[1]!.trim(); continue; }
    if (section !== 'libraries') continue;
    const key = /^["']?([\w.-]+?)["']?\s*=/.exec(line)?.[1];
    if (key && !out.has(key)) out.set(key, i + 1);
  }
  return out;
}

function parseVersionCatalog(text: string, file: string): Component[] {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (error) {
    throw new ExtractError(`${file} 不是有效的 TOML 版本目录：${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const versions = isTable(doc.versions) ? doc.versions : {};
  const libraries = isTable(doc.libraries) ? doc.libraries : {};
  const lines = lineIndex(text);
  const components = new Map<string, Component>();
  // Dotted aliases (`groovy.core = ...`) arrive as nested tables: flatten them.
  const entries: Array<[string, unknown]> = [];
  const flatten = (prefix: string, table: Table, depth: number) => {
    for (const [key, value] of Object.entries(table)) {
      const alias = prefix ? `${prefix}.${key}` : key;
      if (isTable(value) && !('module' in value) && !('group' in value) && !('name' in value) && depth < 8) flatten(alias, value, depth + 1);
      else entries.push([alias, value]);
    }
  };
  flatten('', libraries, 0);
  for (const [alias, lib] of entries) {
    let coords: string[];
    let version: string;
    if (typeof lib === 'string') {
      coords = lib.split(':');
      version = coords[2] ?? '';
    } else if (isTable(lib)) {
      coords = typeof lib.module === 'string' ? lib.module.split(':') : [typeof lib.group === 'string' ? lib.group : '', typeof lib.name === 'string' ? lib.name : ''];
      version = richVersion(lib.version, versions);
    } else continue;
    const group = (coords[0] ?? '').trim();
    const name = (coords[1] ?? '').trim();
    if (!group || !name) continue;
    const declared = version.trim();
    version = exactGradleVersion(version);
    const purl = mavenPurl(group, name, version);
    const line = lines.get(alias);
    const location = line ? { file, startLine: line, endLine: line } : { file };
    const existing = components.get(purl);
    if (existing) existing.locations.push(location);
    else {
      components.set(purl, {
        purl, ecosystem: 'maven', name: `${group}:${name}`, version, direct: true, scope: 'runtime', locations: [location], licenses: [], dependsOn: [],
        // A range, dynamic or latest.* version pins nothing: version '' and what was declared.
        ...(!version && declared && !declared.includes('$') ? { constraint: declared } : {}),
      });
    }
  }
  return [...components.values()];
}

async function extract(file: InputFile): Promise<Target[]> {
  const components = parseVersionCatalog(await file.text(), file.path);
  return [{ file: file.path, type: 'gradle-catalog', ecosystem: 'maven', project: null, roots: components.map((c) => c.purl), components }];
}

export const gradleCatalogExtractor: Extractor = {
  name: 'gradle-catalog',
  ecosystem: 'maven',
  reads: ['gradle/libs.versions.toml'],
  matches: (p) => p.endsWith('.versions.toml'),
  extract,
};
