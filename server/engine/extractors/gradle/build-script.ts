// build.gradle / build.gradle.kts read as text (never run), for projects without a gradle.lockfile:
// what the dependencies blocks declare. A lockfile records what Gradle resolved, so a project with
// one (gradle.lockfile or gradle/dependency-locks/ beside the build script) is left to it, as
// pom.xml is left to what its build resolved.
// Declarations: `conf 'g:a:v'`, `conf("g:a:v")`, Groovy maps `conf group: 'g', name: 'a', version: 'v'`,
// Kotlin named arguments `conf(group = "g", name = "a", version = "v")`, `platform(...)` /
// `enforcedPlatform(...)` around any of them, and version-catalog accessors `libs.x.y` (and
// `libs.bundles.z`) resolved through gradle/libs.versions.toml found in the build's root.
// `$v` / `${v}` / `${project.v}` come from `ext { v = '1' }`, `ext.v = '1'`, `def v = '1'`,
// `val v = "1"`, `extra["v"] = "1"` in the same file, else from gradle.properties beside it or in
// a folder above. `project(...)`, `files(...)` and `fileTree(...)` are the project's own code.
// A range or dynamic version (`1.+`, `[1.0,2.0)`, `latest.release`) is version '' with the range
// as constraint; a version left to a platform or BOM is version '' without one.
// Scope: test, annotation-processing and tooling configurations (and buildscript `classpath`) are
// development, as for gradle.lockfile.
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';
import { lineAt } from '../common/python-source.ts';
import { exactGradleVersion, richVersion } from './catalog.ts';
import { isDevConfiguration } from './lockfile.ts';

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

const KNOWN_CONFIGURATIONS = new Set([
  'implementation', 'api', 'compile', 'runtime', 'compileOnly', 'runtimeOnly', 'compileOnlyApi', 'annotationProcessor',
  'kapt', 'ksp', 'classpath', 'testImplementation', 'testCompile', 'testRuntime', 'testCompileOnly', 'testRuntimeOnly',
  'androidTestImplementation', 'debugImplementation', 'releaseImplementation', 'developmentOnly', 'providedCompile',
  'providedRuntime', 'testFixturesImplementation', 'testFixturesApi', 'lintChecks', 'detektPlugins', 'coreLibraryDesugaring',
]);
const CONFIGURATION_SUFFIX = /(Implementation|Api|CompileOnly|RuntimeOnly|AnnotationProcessor)$/;

/** The source with `//` and `/* *\/` comments blanked (lines kept). */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      let j = i + q.length;
      while (j < text.length && !text.startsWith(q, j)) { if (text[j] === '\\') j++; else if (!triple && text[j] === '\n') break; j++; }
      j = Math.min(text.length, j + q.length);
      out += text.slice(i, j);
      i = j;
    } else { out += c; i++; }
  }
  return out;
}

/** From `start` to the end of the statement: the line, or further while brackets are open. */
function statementAt(text: string, start: number): string {
  let depth = 0;
  let i = start;
  const stop = Math.min(text.length, start + 4096); // an unclosed bracket does not swallow the file
  for (; i < stop; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') { if (depth === 0) break; depth--; } else if ((c === '\n' || c === '{' || c === '}' || c === ';') && depth === 0) break;
  }
  return text.slice(start, i);
}


/** Properties the build script assigns itself: `ext.x = '1'`, `ext { x = '1' }`, `def x = '1'`, `val x = "1"`, `extra["x"] = "1"`, `set("x", "1")`. */
function scriptProperties(text: string): Map<string, string> {
  const props = new Map<string, string>();
  const patterns = [
    /(?:^|[\s;{])(?:ext\.|project\.ext\.|rootProject\.ext\.|def\s+|val\s+|var\s+|extra\[["'])?([A-Za-z_][\w.]*?)["']?\]?\s*(?::\s*String\s*)?=\s*["']([^"'$\n]+)["']/g,
    /\bset\(\s*["']([\w.]+)["']\s*,\s*["']([^"'$\n]+)["']\s*\)/g,
    /\bby\s+extra\(\s*["']([^"'$\n]+)["']\s*\)/g,
  ];
  for (const m of text.matchAll(patterns[0]!)) if (!props.has(m[1]!)) props.set(m[1]!, m[2]!);
  for (const m of text.matchAll(patterns[1]!)) if (!props.has(m[1]!)) props.set(m[1]!, m[2]!);
  // `val kotlinVersion by extra("1.9.0")`
  for (const m of text.matchAll(/\b(?:val|var)\s+(\w+)\s+by\s+extra\(\s*["']([^"'$\n]+)["']\s*\)/g)) if (!props.has(m[1]!)) props.set(m[1]!, m[2]!);
  return props;
}

function parseProperties(text: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line);
    if (m && !props.has(m[1]!)) props.set(m[1]!, m[2]!.trim());
  }
  return props;
}

/** `$v`, `${v}`, `${project.v}`, `${rootProject.ext.v}`, `${property("v")}` expanded; undefined when one is unknown. */
function interpolate(value: string, props: Map<string, string>): string | undefined {
  let unknown = false;
  const look = (expr: string) => {
    const key = /^(?:property|findProperty|extra\.get|project\.property)\(\s*["']([\w.]+)["']\s*\)/.exec(expr)?.[1]
      ?? /^extra\[\s*["']([\w.]+)["']\s*\]/.exec(expr)?.[1]
      ?? expr.replace(/^(?:project\.|rootProject\.)?(?:ext\.|extra\.)?/, '').replace(/\.get\(\)$/, '');
    const v = props.get(key) ?? props.get(expr);
    if (v === undefined) unknown = true;
    return v ?? '';
  };
  const out = value.replace(/\$\{([^}]+)\}|\$([A-Za-z_][\w.]*[\w])/g, (_m, braced: string | undefined, bare: string | undefined) => look((braced ?? bare)!.trim()));
  return unknown ? undefined : out;
}

interface CatalogEntry { group: string; name: string; version: string }

/** Accessor path (`androidx.core.ktx`) -> library, and bundle accessor -> its libraries, of a version catalog. */
export function catalogAccessors(text: string): { libraries: Map<string, CatalogEntry>; bundles: Map<string, string[]> } {
  const libraries = new Map<string, CatalogEntry>();
  const bundles = new Map<string, string[]>();
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch {
    return { libraries, bundles };
  }
  const accessor = (alias: string) => alias.replace(/[-_]/g, '.').toLowerCase();
  const versions = isTable(doc.versions) ? doc.versions : {};
  const walk = (prefix: string, table: Table, depth: number) => {
    for (const [key, lib] of Object.entries(table)) {
      const alias = prefix ? `${prefix}.${key}` : key;
      if (isTable(lib) && !('module' in lib) && !('group' in lib) && !('name' in lib) && depth < 8) { walk(alias, lib, depth + 1); continue; }
      let coords: string[];
      let version: string;
      if (typeof lib === 'string') { coords = lib.split(':'); version = coords[2] ?? ''; } else if (isTable(lib)) {
        coords = typeof lib.module === 'string' ? lib.module.split(':') : [typeof lib.group === 'string' ? lib.group : '', typeof lib.name === 'string' ? lib.name : ''];
        version = richVersion(lib.version, versions);
      } else continue;
      if (coords[0] && coords[1]) libraries.set(accessor(alias), { group: coords[0].trim(), name: coords[1].trim(), version: version.trim() });
    }
  };
  walk('', isTable(doc.libraries) ? doc.libraries : {}, 0);
  for (const [alias, list] of Object.entries(isTable(doc.bundles) ? doc.bundles : {})) {
    if (Array.isArray(list)) bundles.set(accessor(alias), list.filter((x): x is string => typeof x === 'string').map(accessor));
  }
  return { libraries, bundles };
}

const COORDINATE = /^([^:\s'"$]+):([^:\s'"]+)(?::([^:\s'"@]*))?(?::[^:\s'"@]+)?(?:@\w+)?$/;

export interface BuildScriptContext {
  properties?: Map<string, string>;
  catalog?: ReturnType<typeof catalogAccessors>;
}

export function parseBuildScript(source: string, file: string, context: BuildScriptContext = {}): Component[] {
  const text = withoutComments(source);
  const props = new Map([...(context.properties ?? new Map<string, string>()), ...scriptProperties(text)]);
  const components = new Map<string, Component>();
  const add = (group: string, name: string, declared: string | undefined, configuration: string, line: number) => {
    const resolved = declared === undefined ? '' : interpolate(declared, props);
    const version = resolved ? exactGradleVersion(resolved) : '';
    const constraint = !version && resolved ? resolved : undefined;
    const g = interpolate(group, props);
    const a = interpolate(name, props);
    if (!g || !a) return;
    let purl: string;
    try {
      purl = mavenPurl(g, a, version);
    } catch {
      return;
    }
    const scope = isDevConfiguration(configuration) || configuration === 'classpath' ? 'development' : 'runtime';
    const location = { file, startLine: line, endLine: line };
    const seen = components.get(purl);
    if (seen) {
      if (scope === 'runtime') seen.scope = 'runtime';
      seen.locations.push(location);
      return;
    }
    components.set(purl, {
      purl, ecosystem: 'maven', name: `${g}:${a}`, version, ...(constraint ? { constraint } : {}), direct: true, scope,
      locations: [location], licenses: [], dependsOn: [],
    });
  };

  const call = /(?<![\w.])([a-z][A-Za-z0-9]*)\s*(\(|\s+(?=["'a-z]))/g;
  for (let m = call.exec(text); m; m = call.exec(text)) {
    const configuration = m[1]!;
    if (!KNOWN_CONFIGURATIONS.has(configuration) && !CONFIGURATION_SUFFIX.test(configuration)) continue;
    const start = m.index + m[0].length - (m[2] === '(' ? 1 : 0);
    const statement = statementAt(text, start);
    if (/\b(?:project|files|fileTree|gradleApi|localGroovy)\s*\(/.test(statement)) continue;
    const line = lineAt(text, m.index);
    const strings = [...statement.matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)].map((s) => s[1] ?? s[2] ?? '');
    const coordinate = strings.map((s) => COORDINATE.exec(s)).find(Boolean);
    if (coordinate) { add(coordinate[1]!, coordinate[2]!, coordinate[3] || undefined, configuration, line); continue; }
    // A named value is a string, or a variable name (`version: slf4jVersion`): written as `$name` to expand.
    const named = (key: string) => {
      const m = new RegExp(`\\b${key}\\s*[:=]\\s*(?:"([^"\\n]*)"|'([^'\\n]*)'|([A-Za-z_][\\w.]*))`).exec(statement);
      return m ? (m[1] ?? m[2] ?? `\${${m[3]}}`) : undefined;
    };
    const group = named('group');
    const name = named('name');
    if (group && name) {
      add(group, name, named('version'), configuration, line);
      continue;
    }
    const ref = /\blibs\.([\w.]+)/.exec(statement);
    if (ref && context.catalog) {
      const accessor = ref[1]!.replace(/\.get\(\)$/, '').replace(/[-_]/g, '.').toLowerCase();
      const bundle = accessor.startsWith('bundles.') ? context.catalog.bundles.get(accessor.slice('bundles.'.length)) : undefined;
      for (const key of bundle ?? [accessor]) {
        const lib = context.catalog.libraries.get(key);
        if (lib) add(lib.group, lib.name, lib.version || undefined, configuration, line);
      }
    }
  }
  return [...components.values()];
}

/** The nearest file of that name in `dir` or a folder above it (up to the scan root). */
async function findUp(ctx: ExtractContext, dir: string, rel: string): Promise<string | undefined> {
  for (let d = dir; ; d = path.posix.dirname(d)) {
    const p = d === '.' || d === '' ? rel : `${d}/${rel}`;
    const text = await ctx.readText(p).catch(() => undefined);
    if (text !== undefined) return text;
    if (d === '.' || d === '' || d === '/') return undefined;
  }
}

async function extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const dir = path.posix.dirname(file.path);
  const at = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
  // gradle.lockfile names what was resolved: its own extractor reads it.
  if (await ctx.exists(at('gradle.lockfile')) || await ctx.exists(at('gradle/dependency-locks'))) return [];
  const properties = new Map<string, string>();
  const propsText = await findUp(ctx, dir, 'gradle.properties');
  if (propsText) for (const [k, v] of parseProperties(propsText)) properties.set(k, v);
  const catalogText = await findUp(ctx, dir, 'gradle/libs.versions.toml');
  const catalog = catalogText ? catalogAccessors(catalogText) : undefined;
  const components = parseBuildScript(await file.text(), file.path, { properties, catalog });
  if (!components.length) return [];
  return [{ file: file.path, type: 'gradle-build', ecosystem: 'maven', project: null, roots: components.map((c) => c.purl), components }];
}

export const gradleBuildScriptExtractor: Extractor = {
  name: 'gradle-build',
  ecosystem: 'maven',
  reads: ['build.gradle', 'build.gradle.kts'],
  matches: (p) => /(^|\/)build\.gradle(\.kts)?$/.test(p),
  extract,
};
