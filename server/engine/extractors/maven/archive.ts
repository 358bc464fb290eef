// Java archives as shipped (jar, war, ear and Jenkins plugins; in container images above all):
// each archive is identified, read in place, by
//  1. META-INF/maven/<groupId>/<artifactId>/pom.properties (what Maven writes into every jar it
//     builds), with the licences of the pom.xml beside it;
//  2. else META-INF/MANIFEST.MF: Implementation-Vendor-Id / Bundle-SymbolicName for the group,
//     Implementation-Title / Bundle-SymbolicName / the file name for the artifact,
//     Implementation-Version / Bundle-Version / Specification-Version for the version, and
//     Bundle-License;
//  3. else the file name (`guava-31.1-jre.jar` -> guava 31.1-jre); an archive nothing gives a
//     version (`app.war` of an in-house build) is no component, only the container of its jars;
// without a group anywhere, the artifact's name stands for it (the convention of oro:oro,
// javax.inject:javax.inject, junit:junit and most artifacts published before groups had dots).
// An archive holding several pom.properties (a shaded or "uber" jar) contains the other artifacts:
// the one named like the file is the archive itself, the others are components it depends on.
// Archives nested in it (WEB-INF/lib of a war, BOOT-INF/lib of a Spring Boot jar, lib/ of an
// ear, ...) are read inside it, down to three levels, located as `app.war!/WEB-INF/lib/x.jar` —
// the name an upload's unpacker gives the same file. When the upload was unpacked that way (an
// `app.war!` folder beside the archive), the nested archives are files of the scan of their own
// and are not read a second time here.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';
import type { RandomAccess } from '../common/random-access.ts';
import { fileAccess } from '../common/random-access.ts';
import { listZip, looksLikeZip, readZipEntry, zipEntryAccess, ZipFormatError } from '../common/zip-index.ts';
import type { ZipEntry } from '../common/zip-index.ts';

const ARCHIVE = /\.(jar|war|ear|hpi|jpi)$/i;
const MAX_DEPTH = 3;
/** Metadata files larger than this are not metadata. */
const MAX_META = 1024 * 1024;
/** A deflated nested archive is inflated into memory up to this size (stored ones are read in place). */
const MAX_NESTED = 64 * 1024 * 1024;
const MAX_ARCHIVES = 10_000;

interface Identity { group: string; artifact: string; version: string; licenses: string[] }

/** Java .properties: `key=value`, `key: value` or `key value`; `#` and `!` comments. */
export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^((?:[^\\:=\s]|\\.)+)\s*[:=\s]\s*(.*)$/.exec(line);
    if (m) out.set(m[1]!.replace(/\\(.)/g, '$1'), m[2]!.trim());
  }
  return out;
}

/** MANIFEST.MF: the main section's attributes, then those of the named sections it lacks (keys lower-cased). */
export function parseManifest(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const sections: Array<Array<[string, string]>> = [[]];
  let last: [string, string] | undefined;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n|\r/)) {
    if (line === '') { if (sections[sections.length - 1]!.length) sections.push([]); last = undefined; continue; }
    if (line.startsWith(' ')) { if (last) last[1] += line.slice(1); continue; }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    sections[sections.length - 1]!.push(last);
  }
  for (const section of sections) for (const [k, v] of section) if (!out.has(k) && v) out.set(k, v);
  return out;
}

/** `commons-lang3-3.12.0.jar` -> commons-lang3 / 3.12.0; the version is empty when the name has none. */
export function nameAndVersionOf(fileName: string): { artifact: string; version: string } {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1).replace(ARCHIVE, '');
  const m = /^(.+?)-(\d[^-]*(?:-[A-Za-z0-9][A-Za-z0-9._]*)*)$/.exec(base);
  return m ? { artifact: m[1]!, version: m[2]! } : { artifact: base, version: '' };
}

/** Licence names of a pom.xml's <licenses> (text matching: the pom is a packaged copy, read for this only). */
function pomLicenses(xml: string): string[] {
  const block = /<licenses>([\s\S]*?)<\/licenses>/.exec(xml)?.[1];
  if (!block) return [];
  const names: string[] = [];
  for (const m of block.matchAll(/<license>([\s\S]*?)<\/license>/g)) {
    const name = /<name>\s*([^<]+?)\s*<\/name>/.exec(m[1]!)?.[1] ?? /<url>\s*([^<]+?)\s*<\/url>/.exec(m[1]!)?.[1];
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Bundle-License: `Apache-2.0;link=...`, `"Apache License, Version 2.0";link=...`, or a URL. */
function bundleLicenses(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  for (const part of value.match(/(?:"[^"]*"|[^,])+/g) ?? []) {
    const name = part.split(';')[0]!.trim().replace(/^"|"$/g, '');
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

function fromManifest(manifest: Map<string, string>, fileName: string): Identity {
  const named = nameAndVersionOf(fileName);
  const symbolic = manifest.get('bundle-symbolicname')?.split(';')[0]!.trim();
  const firstWord = (v: string | undefined) => v?.split(/\s+/)[0] ?? '';
  const version = firstWord(manifest.get('implementation-version')) || firstWord(manifest.get('bundle-version')) || firstWord(manifest.get('specification-version')) || named.version;
  let artifact = named.artifact;
  let group = manifest.get('implementation-vendor-id') ?? '';
  if (symbolic?.includes('.')) {
    // `com.google.guava.failureaccess`, `net.minidev.accessors-smart`: group and artifact when the
    // last part is the file's artifact name, else the whole name is the group's best guess.
    const cut = symbolic.lastIndexOf('.');
    if (symbolic.slice(cut + 1) === artifact) group ||= symbolic.slice(0, cut);
    else group ||= symbolic;
  }
  if (!artifact) artifact = manifest.get('implementation-title') ?? symbolic ?? '';
  // Nothing names the group: many artifacts use their name as group (oro:oro, javax.inject:javax.inject, junit:junit).
  group ||= artifact;
  return { group, artifact, version, licenses: bundleLicenses(manifest.get('bundle-license')) };
}

interface Found { identity: Identity; location: string; contained: Identity[]; nested: Found[] }

async function readText(src: RandomAccess, entry: ZipEntry | undefined): Promise<string | undefined> {
  if (!entry) return undefined;
  const data = await readZipEntry(src, entry, MAX_META);
  return data?.toString('utf8');
}

interface Walk { archives: number; readNested: boolean; problems: string[] }

async function readArchive(src: RandomAccess, location: string, depth: number, walk: Walk): Promise<Found | undefined> {
  if (!looksLikeZip(await src.read(0, 4))) {
    // A launch script before the zip (Spring Boot's "fully executable" jars): the directory decides.
    if (depth > 0) return undefined;
  }
  const entries = await listZip(src);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const poms: Identity[] = [];
  for (const e of entries) {
    const m = /^META-INF\/maven\/([^/]+)\/([^/]+)\/pom\.properties$/.exec(e.name);
    if (!m) continue;
    const props = parseProperties((await readText(src, e)) ?? '');
    const group = props.get('groupId') || m[1]!;
    const artifact = props.get('artifactId') || m[2]!;
    const version = props.get('version') ?? '';
    const pom = await readText(src, byName.get(`META-INF/maven/${m[1]}/${m[2]}/pom.xml`));
    poms.push({ group, artifact, version, licenses: pom ? pomLicenses(pom) : [] });
  }
  const fileName = location.slice(location.lastIndexOf('/') + 1);
  const named = nameAndVersionOf(fileName);
  let own = poms.length === 1 ? poms[0] : poms.find((p) => p.artifact === named.artifact && (!named.version || p.version === named.version))
    ?? poms.find((p) => p.artifact === named.artifact);
  const manifestText = own ? undefined : await readText(src, byName.get('META-INF/MANIFEST.MF'));
  if (!own) own = fromManifest(manifestText ? parseManifest(manifestText) : new Map(), fileName);
  if (!own.licenses.length && poms.length === 1) {
    const manifest = await readText(src, byName.get('META-INF/MANIFEST.MF'));
    if (manifest) own.licenses = bundleLicenses(parseManifest(manifest).get('bundle-license'));
  }
  // Nothing names a version (`app.jar` of an in-house build): a container of what it holds, not a component.
  if (!own.version) own = { ...own, artifact: '' };
  const found: Found = { identity: own, location, contained: poms.filter((p) => p !== own), nested: [] };
  if (!walk.readNested || depth >= MAX_DEPTH) return found;
  for (const e of entries) {
    if (!ARCHIVE.test(e.name) || e.name.endsWith('/')) continue;
    if (++walk.archives > MAX_ARCHIVES) {
      walk.problems.push(`Java 归档 ${location} 内嵌的归档超过 ${MAX_ARCHIVES} 个，其余未读取`);
      break;
    }
    const nested = `${location}!/${e.name}`;
    let inner: RandomAccess | undefined;
    try {
      inner = await zipEntryAccess(src, e, MAX_NESTED);
    } catch (error) {
      if (!(error instanceof ZipFormatError)) throw error;
      walk.problems.push(`无法读取内嵌的 Java 归档 ${nested}：${error.message}`);
      continue;
    }
    if (!inner) {
      const why = e.encrypted ? '条目已加密' : e.size > MAX_NESTED ? `解压后超过 ${MAX_NESTED / 1024 / 1024} MiB` : `不支持的压缩方法（${e.method}）`;
      walk.problems.push(`未读取内嵌的 Java 归档 ${nested}：${why}`);
      continue;
    }
    try {
      const child = await readArchive(inner, nested, depth + 1, walk);
      if (child) found.nested.push(child);
    } catch (error) {
      if (!(error instanceof ZipFormatError)) throw error;
      walk.problems.push(`无法读取内嵌的 Java 归档 ${nested}：${error.message}`);
    }
  }
  return found;
}

function toTarget(root: Found, file: string): Target {
  const components = new Map<string, Component>();
  const add = (id: Identity, location: string, direct: boolean): string | undefined => {
    if (!id.artifact || !id.group) return undefined;
    const purl = mavenPurl(id.group, id.artifact, id.version);
    const name = `${id.group}:${id.artifact}`;
    const seen = components.get(purl);
    if (seen) {
      if (!seen.locations.some((l) => l.file === location)) seen.locations.push({ file: location });
      for (const l of id.licenses) if (!seen.licenses.includes(l)) seen.licenses.push(l);
      seen.direct ||= direct;
    } else {
      components.set(purl, { purl, ecosystem: 'maven', name, version: id.version, direct, scope: 'runtime', locations: [{ file: location }], licenses: [...id.licenses], dependsOn: [] });
    }
    return purl;
  };
  const visit = (found: Found, direct: boolean): string | undefined => {
    const purl = add(found.identity, found.location, direct);
    const children = [
      ...found.contained.map((c) => add(c, found.location, false)),
      ...found.nested.map((n) => visit(n, false)),
    ].filter((p): p is string => !!p && p !== purl);
    if (purl) {
      const c = components.get(purl)!;
      for (const p of children) if (!c.dependsOn.includes(p)) c.dependsOn.push(p);
    }
    return purl;
  };
  const root0 = visit(root, true);
  // An archive that is no component of its own: what it holds directly are the roots.
  const roots = root0 ? [root0] : [
    ...root.contained.map((c) => (c.artifact && c.group ? mavenPurl(c.group, c.artifact, c.version) : '')),
    ...root.nested.map((n) => (n.identity.artifact && n.identity.group ? mavenPurl(n.identity.group, n.identity.artifact, n.identity.version) : '')),
  ].filter(Boolean);
  for (const purl of roots) if (!root0) components.get(purl)!.direct = true;
  return { file, type: 'jar', ecosystem: 'maven', project: null, roots: [...new Set(roots)], components: [...components.values()] };
}

async function extractArchive(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const src = await fileAccess(file);
  // Unpacked beside itself by the upload's unpacker: its nested archives are scanned as files.
  const readNested = !(await ctx.exists(`${file.path}!`));
  let found: Found | undefined;
  const walk: Walk = { archives: 0, readNested, problems: [] };
  try {
    found = await readArchive(src, file.path, 0, walk);
  } catch (error) {
    if (error instanceof ZipFormatError) throw new ExtractError(`无法读取 Java 归档 ${file.path}：${error.message}`);
    throw error;
  }
  if (!found) return [];
  const target = toTarget(found, file.path);
  if (walk.problems.length) target.problems = walk.problems;
  return target.components.length || walk.problems.length ? [target] : [];
}

export const javaArchiveExtractor: Extractor = {
  name: 'jar',
  ecosystem: 'maven',
  reads: ['*.jar', '*.war', '*.ear'],
  matches: (p) => ARCHIVE.test(p),
  extract: extractArchive,
};
