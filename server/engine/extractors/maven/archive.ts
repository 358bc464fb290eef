// Java archives as shipped (jar, war, ear, Android .aar and Jenkins .hpi/.jpi; in container images
// above all): each archive is identified, read in place, by
//  1. META-INF/maven/<groupId>/<artifactId>/pom.properties (what Maven writes into every jar it
//     builds), with the licences of the pom.xml beside it;
//  2. for a Jenkins plugin, its manifest's Short-Name, Plugin-Version and Group-Id (the update
//     centre's org.jenkins-ci.plugins:<short-name>); for an Android library, the pom published
//     beside it (`x-1.0.aar` + `x-1.0.pom`), else its AndroidManifest.xml package as the group;
//  3. else META-INF/MANIFEST.MF: Implementation-Vendor-Id / Bundle-SymbolicName for the group,
//     Implementation-Title / Bundle-SymbolicName / the file name for the artifact,
//     Implementation-Version / Bundle-Version / Specification-Version for the version, and
//     Bundle-License;
//  4. else, when the user imported a SHA-1 index (jar-index.ts), the archive's SHA-1 in it: exact,
//     so it replaces a guess from the file name;
//  5. else the file name (`guava-31.1-jre.jar` -> guava 31.1-jre); an archive nothing gives a
//     version (`app.war` of an in-house build) is no component, only the container of its jars;
// without a group anywhere, the artifact's name stands for it (the convention of oro:oro,
// javax.inject:javax.inject, junit:junit and most artifacts published before groups had dots).
// Each component carries its evidence (the pom.properties read, as
// `x.war!/WEB-INF/lib/y.jar!/META-INF/maven/g/a/pom.properties`; the manifest attributes; the
// SHA-1; the file name) and the confidence of the rule that identified it.
// An archive holding several pom.properties (a shaded or "uber" jar) contains the other artifacts:
// the one named like the file is the archive itself, the others are components it depends on.
// Archives nested in it (WEB-INF/lib of a war, BOOT-INF/lib of a Spring Boot jar, lib/ of an
// ear, classes.jar and libs/ of an aar, ...) are read inside it, to any depth within
// IN_PLACE_LIMITS (levels, entries, bytes inflated, compression ratio, memory held: a JAR bomb is
// stopped and reported), located as `app.war!/WEB-INF/lib/x.jar` — the name an upload's unpacker
// gives the same file. When the upload was unpacked that way (an `app.war!` folder beside the
// archive), the nested archives are files of the scan of their own and are not read a second time.
import { createHash } from 'node:crypto';
import type { Component, Evidence, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE, ExtractError } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';
import { licencesStatedBy } from '../js-common/licence-file.ts';
import { formatBytes, IN_PLACE_LIMITS } from '../../sources/limits.ts';
import type { InPlaceLimits } from '../../sources/limits.ts';
import type { RandomAccess } from '../common/random-access.ts';
import { fileAccess } from '../common/random-access.ts';
import { listZip, looksLikeZip, readZipEntry, zipEntryAccess, ZipFormatError } from '../common/zip-index.ts';
import type { ZipEntry } from '../common/zip-index.ts';
import { jarIndex } from './jar-index.ts';
import type { JarIndex } from './jar-index.ts';

const ARCHIVE = /\.(jar|war|ear|aar|hpi|jpi)$/i;
const JENKINS = /\.(hpi|jpi)$/i;
/** Metadata files larger than this are not metadata. */
const MAX_META = 1024 * 1024;
const HASH_CHUNK = 4 * 1024 * 1024;

interface Identity {
  group: string;
  artifact: string;
  version: string;
  licenses: string[];
  evidence: Evidence[];
  confidence: number;
}

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

const firstWord = (v: string | undefined) => v?.split(/\s+/)[0] ?? '';
/** Evidence text: printable, at most 200 characters. */
const printable = (s: string) => [...s].map((ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' ? ' ' : ch)).join('').replace(/ +/g, ' ').trim().slice(0, 200);
const baseName = (location: string) => location.slice(location.lastIndexOf('/') + 1);

/** What the file name says, as the evidence of a guess. */
const nameEvidence = (location: string): Evidence => ({ file: location, rule: '文件名', text: printable(baseName(location)) });

/** MANIFEST.MF attributes (and the file name where they say nothing): the identity with its evidence. */
function fromManifest(manifest: Map<string, string>, location: string, manifestFile: string): Identity & { versionFromManifest: boolean } {
  const named = nameAndVersionOf(baseName(location));
  const symbolic = manifest.get('bundle-symbolicname')?.split(';')[0]!.trim();
  const declared = ['implementation-version', 'bundle-version', 'specification-version'].find((k) => firstWord(manifest.get(k)));
  const version = declared ? firstWord(manifest.get(declared)) : named.version;
  let artifact = named.artifact;
  let group = manifest.get('implementation-vendor-id') ?? '';
  if (symbolic?.includes('.')) {
    // `com.google.guava.failureaccess`, `net.minidev.accessors-smart`: group and artifact when the
    // last part is the file's artifact name, else the whole name is the group's best guess.
    // maven-bundle-plugin's default drops the group's last part from the artifact's front:
    // org.apache.commons:commons-cli -> `org.apache.commons.cli`.
    const cut = symbolic.lastIndexOf('.');
    const head = symbolic.slice(0, cut);
    const tail = symbolic.slice(cut + 1);
    const headLast = head.slice(head.lastIndexOf('.') + 1);
    if (tail === artifact || artifact === `${headLast}-${tail}` || artifact === `${headLast}.${tail}`) group ||= head;
    else group ||= symbolic;
  }
  if (!artifact) artifact = manifest.get('implementation-title') ?? symbolic ?? '';
  // Nothing names the group: many artifacts use their name as group (oro:oro, javax.inject:javax.inject, junit:junit).
  group ||= artifact;
  const used = ['implementation-vendor-id', 'bundle-symbolicname', 'implementation-title', ...(declared ? [declared] : [])]
    .filter((k) => manifest.get(k)).map((k) => `${MANIFEST_NAMES[k]}: ${manifest.get(k)}`);
  const evidence: Evidence[] = [];
  if (used.length) evidence.push({ file: manifestFile, rule: 'MANIFEST.MF', text: printable(used.join('; ')) });
  if (!declared) evidence.push(nameEvidence(location));
  return {
    group, artifact, version, licenses: bundleLicenses(manifest.get('bundle-license')), evidence,
    confidence: declared ? CONFIDENCE.MANIFEST : CONFIDENCE.FILE_NAME, versionFromManifest: !!declared,
  };
}

const MANIFEST_NAMES: Record<string, string> = {
  'implementation-vendor-id': 'Implementation-Vendor-Id', 'bundle-symbolicname': 'Bundle-SymbolicName', 'implementation-title': 'Implementation-Title',
  'implementation-version': 'Implementation-Version', 'bundle-version': 'Bundle-Version', 'specification-version': 'Specification-Version',
};

/** A Jenkins plugin (.hpi/.jpi): Short-Name, Plugin-Version and Group-Id of its manifest, as the update centre names it. */
function jenkinsPlugin(manifest: Map<string, string>, manifestFile: string): Identity | undefined {
  const shortName = manifest.get('short-name');
  const version = firstWord(manifest.get('plugin-version'));
  if (!shortName || !version) return undefined;
  const group = manifest.get('group-id') || 'org.jenkins-ci.plugins';
  const text = `Short-Name: ${shortName}; Plugin-Version: ${manifest.get('plugin-version')}${manifest.get('group-id') ? `; Group-Id: ${group}` : ''}`;
  return { group, artifact: shortName, version, licenses: [], evidence: [{ file: manifestFile, rule: 'MANIFEST.MF', text: printable(text) }], confidence: CONFIDENCE.MANIFEST };
}

/** An Android library's AndroidManifest.xml (plain XML in an .aar): its package stands for the group. */
function androidLibrary(xml: string, location: string): Identity | undefined {
  const manifest = /<manifest\b[^>]*>/.exec(xml)?.[0];
  const pkg = manifest && /\spackage\s*=\s*"([^"]+)"/.exec(manifest)?.[1];
  if (!pkg) return undefined;
  const named = nameAndVersionOf(baseName(location));
  const versionName = manifest && /\sandroid:versionName\s*=\s*"([^"]+)"/.exec(manifest)?.[1];
  const evidence: Evidence[] = [{ file: `${location}!/AndroidManifest.xml`, rule: 'AndroidManifest.xml', text: printable(manifest) }];
  if (!versionName) evidence.push(nameEvidence(location));
  return { group: pkg, artifact: named.artifact, version: versionName ?? named.version, licenses: [], evidence, confidence: versionName ? CONFIDENCE.MANIFEST : CONFIDENCE.FILE_NAME };
}

/** The pom.xml published beside an archive (`x-1.0.aar` and `x-1.0.pom` of a Maven repository layout). */
function fromSiblingPom(xml: string, pomFile: string): Identity | undefined {
  const parentGroup = /<parent>[\s\S]*?<groupId>\s*([^<\s]+)\s*<\/groupId>[\s\S]*?<\/parent>/.exec(xml)?.[1];
  const own = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<(parent|dependencies|dependencyManagement|build|profiles|reporting|plugins|distributionManagement)>[\s\S]*?<\/\1>/g, '');
  const tag = (name: string) => new RegExp(`<${name}>\\s*([^<\\s]+)\\s*</${name}>`).exec(own)?.[1];
  const group = tag('groupId') ?? parentGroup;
  const artifact = tag('artifactId');
  const version = tag('version');
  if (!group || !artifact || !version || version.includes('${')) return undefined;
  return { group, artifact, version, licenses: pomLicenses(xml), evidence: [{ file: pomFile, rule: 'pom.xml', text: `${group}:${artifact}:${version}` }], confidence: CONFIDENCE.METADATA };
}

interface Found { identity: Identity; location: string; contained: Identity[]; nested: Found[] }

/** An archive's own licence files: META-INF/LICENSE*, LICENCE*, COPYING* or the same at its root. */
const LICENCE_ENTRY = /^(?:META-INF\/)?(?:licen[cs]e|copying)(?:[.\-_][\w.-]*)?$/i;

async function archiveLicenceFiles(src: RandomAccess, entries: readonly ZipEntry[]): Promise<string[]> {
  const licenses: string[] = [];
  for (const e of entries.filter((x) => LICENCE_ENTRY.test(x.name)).slice(0, 2)) {
    const text = await readText(src, e);
    if (!text) continue;
    for (const spdx of await licencesStatedBy(text, baseName(e.name))) if (!licenses.includes(spdx)) licenses.push(spdx);
  }
  return licenses;
}

async function readText(src: RandomAccess, entry: ZipEntry | undefined): Promise<string | undefined> {
  if (!entry) return undefined;
  const data = await readZipEntry(src, entry, MAX_META);
  return data?.toString('utf8');
}

async function sha1Of(src: RandomAccess): Promise<string> {
  const hash = createHash('sha1');
  for (let at = 0; at < src.size; at += HASH_CHUNK) hash.update(await src.read(at, HASH_CHUNK));
  return hash.digest('hex');
}

interface Walk {
  limits: InPlaceLimits;
  /** Nested archives read, entries listed and bytes inflated so far, all levels together. */
  archives: number;
  entries: number;
  inflated: number;
  /** Inflated nested archives in memory now (the chain being read). */
  held: number;
  /** A budget is spent: no further nested archive is read. */
  stopped: boolean;
  readNested: boolean;
  index: JarIndex | undefined;
  problems: string[];
}

async function readArchive(src: RandomAccess, location: string, depth: number, walk: Walk, sibling?: Identity): Promise<Found | undefined> {
  if (!looksLikeZip(await src.read(0, 4))) {
    // A launch script before the zip (Spring Boot's "fully executable" jars): the directory decides.
    if (depth > 0) return undefined;
  }
  const entries = await listZip(src);
  const { limits } = walk;
  walk.entries += entries.length;
  if (walk.entries > limits.maxFiles && !walk.stopped) {
    walk.problems.push(`Java 归档 ${location} 及其内嵌归档的条目超过 ${limits.maxFiles} 个（疑似 JAR 炸弹），其余内嵌归档未读取`);
    walk.stopped = true;
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const poms: Identity[] = [];
  for (const e of entries) {
    const m = /^META-INF\/maven\/([^/]+)\/([^/]+)\/pom\.properties$/.exec(e.name);
    if (!m) continue;
    const text = (await readText(src, e)) ?? '';
    const props = parseProperties(text);
    const group = props.get('groupId') || m[1]!;
    const artifact = props.get('artifactId') || m[2]!;
    const version = props.get('version') ?? '';
    const pom = await readText(src, byName.get(`META-INF/maven/${m[1]}/${m[2]}/pom.xml`));
    const evidence: Evidence = { file: `${location}!/${e.name}`, rule: 'pom.properties', text: `groupId=${group} artifactId=${artifact} version=${version}` };
    poms.push({ group, artifact, version, licenses: pom ? pomLicenses(pom) : [], evidence: [evidence], confidence: CONFIDENCE.METADATA });
  }
  const named = nameAndVersionOf(baseName(location));
  let own = poms.length === 1 ? poms[0] : poms.find((p) => p.artifact === named.artifact && (!named.version || p.version === named.version))
    ?? poms.find((p) => p.artifact === named.artifact);
  const manifestFile = `${location}!/META-INF/MANIFEST.MF`;
  const manifestText = await readText(src, byName.get('META-INF/MANIFEST.MF'));
  const manifest = manifestText ? parseManifest(manifestText) : new Map<string, string>();
  if (!own && JENKINS.test(location)) own = jenkinsPlugin(manifest, manifestFile);
  if (!own && sibling) own = sibling;
  if (!own && /\.aar$/i.test(location)) {
    const xml = await readText(src, byName.get('AndroidManifest.xml'));
    if (xml) own = androidLibrary(xml, location);
  }
  if (!own) {
    const guessed = fromManifest(manifest, location, manifestFile);
    // An index hit is exact; the manifest's own version comes first (the issue's order), a file name's guess after it.
    const sha1 = !guessed.versionFromManifest && walk.index ? await sha1Of(src) : '';
    const hit = sha1 ? walk.index!.bySha1.get(sha1) : undefined;
    if (hit) {
      own = { ...hit, licenses: guessed.licenses, evidence: [{ file: location, rule: 'SHA-1 索引', text: `${sha1} ${hit.group}:${hit.artifact}:${hit.version}` }], confidence: CONFIDENCE.HASH };
    } else {
      own = guessed;
    }
  }
  if (!own.licenses.length && poms.length === 1) own.licenses = bundleLicenses(manifest.get('bundle-license'));
  // Neither the packaged pom (whose licence is usually inherited from a parent pom) nor the manifest
  // names one: the archive's own licence file (META-INF/LICENSE.txt, which Apache and most Maven
  // builds ship), recognised as the licence pass recognises texts.
  if (!own.licenses.length && own.version && poms.length <= 1) {
    const licenses = await archiveLicenceFiles(src, entries);
    if (licenses.length) own = { ...own, licenses };
  }
  // Nothing names a version (`app.jar` of an in-house build): a container of what it holds, not a component.
  if (!own.version) own = { ...own, artifact: '' };
  const found: Found = { identity: own, location, contained: poms.filter((p) => p !== own), nested: [] };
  if (!walk.readNested) return found;
  const nestedEntries = entries.filter((e) => ARCHIVE.test(e.name) && !e.name.endsWith('/'));
  if (!nestedEntries.length) return found;
  if (depth >= limits.maxDepth) {
    walk.problems.push(`Java 归档 ${location} 嵌套超过 ${limits.maxDepth} 层（疑似 JAR 炸弹），其中 ${nestedEntries.length} 个更深的归档未读取`);
    return found;
  }
  // Entries sharing their data (an overlapping-entries zip bomb): each would inflate the same bytes again.
  if (new Set(nestedEntries.map((e) => e.localOffset)).size < nestedEntries.length) {
    walk.problems.push(`Java 归档 ${location} 的多个条目共用同一段数据（疑似 ZIP 炸弹），其内嵌归档未读取`);
    return found;
  }
  for (const e of nestedEntries) {
    if (walk.stopped) break;
    if (++walk.archives > limits.maxArchives) {
      walk.problems.push(`Java 归档 ${location} 内嵌的归档超过 ${limits.maxArchives} 个，其余未读取`);
      walk.stopped = true;
      break;
    }
    const nested = `${location}!/${e.name}`;
    const inflates = e.method !== 0;
    if (inflates && !e.encrypted) {
      if (e.size > limits.ratioGraceBytes && e.size > Math.max(1, e.compressedSize) * limits.maxRatio) {
        const ratio = Math.round(e.size / Math.max(1, e.compressedSize));
        walk.problems.push(`未读取内嵌的 Java 归档 ${nested}：压缩比 ${ratio}:1 超过上限 ${limits.maxRatio}:1（疑似 ZIP 炸弹）`);
        continue;
      }
      if (walk.inflated + e.size > limits.maxTotalBytes) {
        walk.problems.push(`Java 归档 ${location} 内嵌的归档解压后合计超过 ${formatBytes(limits.maxTotalBytes)}（疑似 JAR 炸弹），其余未读取`);
        walk.stopped = true;
        break;
      }
      if (walk.held + e.size > limits.maxHeldBytes) {
        walk.problems.push(`未读取内嵌的 Java 归档 ${nested}：解压后 ${formatBytes(e.size)}，超过同时读入内存的上限 ${formatBytes(limits.maxHeldBytes)}`);
        continue;
      }
    }
    let inner: RandomAccess | undefined;
    try {
      inner = await zipEntryAccess(src, e, limits.maxHeldBytes - walk.held);
    } catch (error) {
      if (!(error instanceof ZipFormatError)) throw error;
      walk.problems.push(`无法读取内嵌的 Java 归档 ${nested}：${error.message}`);
      continue;
    }
    if (!inner) {
      const why = e.encrypted ? '条目已加密' : `不支持的压缩方法（${e.method}）`;
      walk.problems.push(`未读取内嵌的 Java 归档 ${nested}：${why}`);
      continue;
    }
    const held = inflates ? inner.size : 0;
    walk.inflated += held;
    walk.held += held;
    try {
      const child = await readArchive(inner, nested, depth + 1, walk);
      if (child) found.nested.push(child);
    } catch (error) {
      if (!(error instanceof ZipFormatError)) throw error;
      walk.problems.push(`无法读取内嵌的 Java 归档 ${nested}：${error.message}`);
    } finally {
      walk.held -= held;
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
      for (const ev of id.evidence) if (!seen.evidence!.some((x) => x.file === ev.file && x.rule === ev.rule)) seen.evidence!.push(ev);
      seen.confidence = Math.max(seen.confidence ?? 0, id.confidence);
      seen.direct ||= direct;
    } else {
      components.set(purl, {
        purl, ecosystem: 'maven', name, version: id.version, direct, scope: 'runtime', locations: [{ file: location }], licenses: [...id.licenses], dependsOn: [],
        evidence: [...id.evidence], confidence: id.confidence,
      });
    }
    return purl;
  };
  // The purls an archive stands for: its own, or, for a container (no version of its own), what it holds.
  const visit = (found: Found, direct: boolean): string[] => {
    const purl = add(found.identity, found.location, direct);
    const children = [
      ...found.contained.map((c) => add(c, found.location, false)).filter((p): p is string => !!p),
      ...found.nested.flatMap((n) => visit(n, false)),
    ].filter((p) => p !== purl);
    if (!purl) return [...new Set(children)];
    const c = components.get(purl)!;
    for (const p of children) if (!c.dependsOn.includes(p)) c.dependsOn.push(p);
    return [purl];
  };
  const roots = visit(root, true);
  // An archive that is no component of its own: what it holds directly are the roots.
  for (const purl of roots) components.get(purl)!.direct = true;
  return { file, type: 'jar', ecosystem: 'maven', project: null, roots, components: [...components.values()] };
}

async function extractArchive(file: InputFile, ctx: ExtractContext, limits: InPlaceLimits): Promise<Target[]> {
  const src = await fileAccess(file);
  // Unpacked beside itself by the upload's unpacker: its nested archives are scanned as files.
  const readNested = !(await ctx.exists(`${file.path}!`));
  // An Android library published in a Maven repository layout: the pom beside it names it.
  let sibling: Identity | undefined;
  if (/\.aar$/i.test(file.path)) {
    const pomFile = file.path.replace(/\.aar$/i, '.pom');
    const xml = await ctx.readText(pomFile);
    if (xml) sibling = fromSiblingPom(xml, pomFile);
  }
  let found: Found | undefined;
  const walk: Walk = { limits, archives: 0, entries: 0, inflated: 0, held: 0, stopped: false, readNested, index: jarIndex(), problems: [] };
  try {
    found = await readArchive(src, file.path, 0, walk, sibling);
  } catch (error) {
    if (error instanceof ZipFormatError) throw new ExtractError(`无法读取 Java 归档 ${file.path}：${error.message}`);
    throw error;
  }
  if (!found) return [];
  const target = toTarget(found, file.path);
  if (walk.problems.length) target.problems = walk.problems;
  return target.components.length || walk.problems.length ? [target] : [];
}

/** The extractor with other in-place limits than IN_PLACE_LIMITS (tests of each budget). */
export function javaArchiveExtractorWith(limits: Partial<InPlaceLimits>): Extractor {
  const merged = { ...IN_PLACE_LIMITS, ...limits };
  return {
    name: 'jar',
    ecosystem: 'maven',
    reads: ['*.jar', '*.war', '*.ear', '*.aar', '*.hpi', '*.jpi'],
    matches: (p) => ARCHIVE.test(p),
    extract: (file, ctx) => extractArchive(file, ctx, merged),
  };
}

export const javaArchiveExtractor: Extractor = javaArchiveExtractorWith({});
