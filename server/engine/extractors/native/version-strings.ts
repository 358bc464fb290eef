// Well-known C libraries and programs in native executables and shared libraries, by the version
// strings they compile into themselves (rules.ts): OpenSSL in libcrypto.so.3 or statically linked
// into a program, zlib, curl, SQLite, BusyBox, ... Only the constant data is read (.rodata,
// .rdata, __TEXT,__cstring, ...; the whole file when its section table is stripped or damaged),
// in 1 MiB chunks whatever the file's size. Every component carries the matched bytes and their
// offset as evidence, at CONFIDENCE.VERSION_STRING: a version string is the library speaking for
// itself, but a program may carry a copy of it for another reason.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { baseName, dataRanges, forEachChunk, isNativeCandidate, openNative } from './files.ts';
import { MAX_MATCH, VERSION_RULES } from './rules.ts';
import type { VersionRule } from './rules.ts';

/** Distinct matches kept per rule: more is a table of versions, not a library's own string. */
const MAX_PER_RULE = 8;

interface Match { rule: VersionRule; version: string; text: string; offset: number }

/** Printable text of the matched bytes for the evidence (NULs and control characters as spaces). */
export function printable(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code < 0x20 || (code >= 0x7f && code < 0xa0) ? ' ' : text[i];
  }
  return out.trim().slice(0, 200);
}

/** Bytes that continue a word or a number: a string does not start after one. */
const CONTINUES = new Set([...Buffer.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._-+/', 'latin1')]);

/**
 * The needles of `rules`, each searched once: a needle that starts with NUL (a bare version that
 * starts a string) is searched without it and the byte before checked not to continue a word or
 * number, since NUL bytes are everywhere in binary data and would stall the search on its first byte.
 */
export function needleTable(rules: readonly VersionRule[]): Array<{ bytes: Buffer; nul: boolean; rules: VersionRule[] }> {
  const table = new Map<string, { bytes: Buffer; nul: boolean; rules: VersionRule[] }>();
  for (const rule of rules) {
    for (const needle of rule.needles) {
      const entry = table.get(needle) ?? { bytes: Buffer.from(needle.replace(/^\0/, ''), 'latin1'), nul: needle.startsWith('\0'), rules: [] };
      entry.rules.push(rule);
      table.set(needle, entry);
    }
  }
  return [...table.values()];
}

/** Matches of the rules' patterns in one chunk (`start`: its file offset), at most MAX_PER_RULE distinct versions per rule. */
export function findVersionStrings(chunk: Buffer, start: number, needles: ReturnType<typeof needleTable>, base: string, found: Map<string, Match>, counts: Map<VersionRule, number>): void {
  for (const { bytes, nul, rules } of needles) {
    for (let i = chunk.indexOf(bytes, nul ? 1 : 0); i >= 0; i = chunk.indexOf(bytes, i + 1)) {
      if (nul && CONTINUES.has(chunk[i - 1]!)) continue;
      const at = i;
      const window = chunk.toString('latin1', at, Math.min(chunk.length, at + MAX_MATCH));
      for (const rule of rules) {
        if ((counts.get(rule) ?? 0) >= MAX_PER_RULE) continue;
        rule.pattern.lastIndex = 0;
        const m = rule.pattern.exec(window);
        if (!m) continue;
        const version = m[1]!;
        if (rule.accept && !rule.accept(version, base)) continue;
        const key = `${rule.name}\0${version}`;
        if (found.has(key)) continue;
        found.set(key, { rule, version, text: printable(m[0]), offset: start + at });
        counts.set(rule, (counts.get(rule) ?? 0) + 1);
      }
    }
  }
}

async function extractVersionStrings(file: InputFile, signal?: AbortSignal): Promise<Target[]> {
  const opened = await openNative(file);
  if (!opened) return [];
  const base = baseName(file.path);
  const linked = opened.exe.images.flatMap((i) => i.needed ?? []).map(baseName);
  const rules = VERSION_RULES.filter((r) => (!r.fileName || r.fileName.test(base)) && !(r.library && linked.some((l) => r.library!.test(l))));
  const found = new Map<string, Match>();
  const counts = new Map<VersionRule, number>();
  const needles = needleTable(rules);
  await forEachChunk(opened.src, dataRanges(opened), MAX_MATCH, (chunk, start) => findVersionStrings(chunk, start, needles, base, found, counts), signal);

  const components: Component[] = [];
  const all = [...found.values()];
  for (const m of all) {
    // A bare version found in a file named like its library: only the first one is the library's own.
    if (m.rule.fileName && components.some((c) => c.name === m.rule.name)) continue;
    // `OpenSSH_9.2` beside `OpenSSH_9.2p1`: the shorter is a prefix of the other (a compatibility pattern).
    if (all.some((o) => o.rule === m.rule && o.version.length > m.version.length && o.version.startsWith(m.version) && !/^\d/.test(o.version.slice(m.version.length)))) continue;
    const purl = purlOf('generic', { name: m.rule.name, version: m.version });
    components.push({
      purl, ecosystem: 'generic', name: m.rule.name, version: m.version, direct: true, scope: 'runtime',
      locations: [{ file: file.path }], licenses: [], dependsOn: [],
      evidence: [{ file: file.path, rule: `版本字符串 ${m.rule.label}`, text: m.text, offset: m.offset }],
      confidence: CONFIDENCE.VERSION_STRING,
    });
  }
  const problems = opened.exe.problems;
  if (components.length === 0 && problems.length === 0) return [];
  return [{ file: file.path, type: 'native', ecosystem: 'generic', project: null, roots: components.map((c) => c.purl), components, ...(problems.length ? { problems } : {}) }];
}

export const versionStringExtractor: Extractor = {
  name: 'native',
  ecosystem: 'generic',
  reads: ['*.so', '*.dll', '*.dylib', '可执行文件'],
  matches: isNativeCandidate,
  extract: (file, ctx) => extractVersionStrings(file, ctx.signal),
};

/** The CPE 2.3 name of a component this extractor reported, for a matcher keyed by CPE. */
export function cpeOf(name: string, version: string): string | undefined {
  const rule = VERSION_RULES.find((r) => r.name === name);
  return rule ? `cpe:2.3:a:${rule.cpe}:${version}:*:*:*:*:*:*:*` : undefined;
}
