// Licence references by name: "under the terms of the GNU General Public License version 2 or
// later", "Apache License, Version 2.0", "MIT License", licence URLs. Runs on the normalised word
// stream (see normalize-text.ts), so punctuation, comment markers and line breaks do not matter:
// "2.0" is the words "2 0" here and URLs lose their scheme and "www".
import type { LicenseMatch } from './recognize.ts';
import { classifierLicense } from './classifiers.ts';
import { normalizeDeclared } from './expression.ts';
import { canonicalId } from './knowledge.ts';
import { tokenize, type Tokens } from './normalize-text.ts';

interface Flat {
  words: string[];
  text: string;
  /** Character offset of each word in `text`. */
  offsets: number[];
  lines: number[];
}

function flatten(raw: string, tokens?: Tokens): Flat {
  const { words, lines } = tokens ?? tokenize(raw);
  const offsets: number[] = [];
  let pos = 0;
  for (const w of words) {
    offsets.push(pos);
    pos += w.length + 1;
  }
  return { words, text: words.join(' '), offsets, lines };
}

function lineAt(flat: Flat, offset: number): number {
  // Binary search for the word starting at or before offset.
  let lo = 0;
  let hi = flat.offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((flat.offsets[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return flat.lines[lo] ?? 1;
}

const GNU = /\b(?:gnu (?:(lesser|library) )?(affero )?(?:general )?public license|(lesser|library) general public license|(affero) general public license|general public license|(l|a)?gpl(?:v?(\d)(?: (\d))?)?)\b/g;
const GNU_HINTS = ['public', 'gpl*', 'lgpl*', 'agpl*'];
const GFDL_HINTS = ['documentation', 'gfdl'];
const LATER = /^(?:\S+ ){0,12}?(?:or (?:at your option )?(?:any )?later|or any later|any later version|or later|or newer|or greater|or above|or higher|or any newer|orlater)\b/;
const VERSION_AFTER = /^(?:(?:as published by the free software foundation|the|of|as|published|by|free|software|foundation|gnu|gpl|lgpl|license|either|is|available|at|v|ver|version|vers|release|\d{4}|c) ){0,10}?(?:version|v|ver|vers)? ?([123])(?: ([01]))?\b/;
const VERSION_BEFORE = /\b(?:version|v) ([123])(?: ([01]))?( or (?:any )?later| orlater)?(?: of)?(?: the)?(?: less restrictive)? (?:gnu )?$/;

function gnuFamily(m: RegExpExecArray): 'GPL' | 'LGPL' | 'AGPL' {
  const l = m[1] ?? m[3] ?? (m[5] === 'l' ? 'lesser' : undefined);
  if (l) return 'LGPL';
  if (m[2] || m[4] || m[5] === 'a') return 'AGPL';
  return 'GPL';
}

function gnuId(family: 'GPL' | 'LGPL' | 'AGPL', major: string | undefined, minor: string | undefined, later: boolean, lesser = false): string | null {
  if (!major) {
    if (family === 'GPL') return 'GPL-1.0-or-later';
    // "Lesser" GPL only exists from version 2.1 on; "Library" GPL and bare "LGPL" start at 2.0.
    if (family === 'LGPL') return lesser ? 'LGPL-2.1-or-later' : 'LGPL-2.0-or-later';
    return 'AGPL-3.0-or-later';
  }
  let v: string;
  if (family === 'LGPL') {
    if (major === '2') v = minor === '1' ? '2.1' : '2.0';
    else if (major === '3') v = '3.0';
    else return null;
  } else if (family === 'AGPL') {
    if (major === '3') v = '3.0';
    else if (major === '1') v = '1.0';
    else return null;
  } else {
    // There is no GPL 1.1 or 2.1: "GPL 1.1" is some other licence's version (CDDL+GPL 1.1).
    if (minor && minor !== '0') return null;
    v = `${major}.0`;
  }
  return `${family}-${v}-${later ? 'or-later' : 'only'}`;
}

// A bare, unversioned "LGPL" is the weakest reference there is (the acronym also names a kind of
// library, and turns up in build files and prose about other components: "even though the core
// library is released under LGPL, this extra library uses GPL"). It counts only when the words
// right next to it read as a licence name: an article or "terms of" before it ("the LGPL", "terms
// of LGPL"), a licence word or a pointer to the text after it ("LGPL license", "LGPL, see
// COPYING.LGPL", "common-licenses/LGPL"), or other licence names beside it ("GPL or LGPL").
const ACRONYMS = new Set(['gpl', 'lgpl', 'agpl', 'mpl', 'cpl', 'epl', 'bsd', 'mit', 'apache', 'asl', 'cddl', 'gfdl', 'fdl', 'artistic']);
const BEFORE_ACRONYM = new Set(['the', 'of', 'license', 'licenses', 'legal', 'or', 'and', 'nor']);
const AFTER_ACRONYM = new Set(['license', 'licenses', 'licensed', 'licensing', 'see', 'or', 'and', 'only', 'file', 'files', 'terms', 'text', 'applies']);

function bareAcronymReads(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 40), Math.max(0, start - 1)).split(' ').pop() ?? '';
  const after = text.slice(end + 1, end + 40).split(' ')[0] ?? '';
  return BEFORE_ACRONYM.has(before) || ACRONYMS.has(before) || AFTER_ACRONYM.has(after) || ACRONYMS.has(after);
}

interface Rule {
  re: RegExp;
  /**
   * Words of which every match contains one at least, whole ("mit") or, ending in "*", as the start
   * of a word ("gpl*" for "gplv2"): a text without any is not searched (see hinted).
   */
  hints: string[];
  id: (m: RegExpExecArray) => string | null;
  /** Confidence; 0.8 unless the name leaves the version open (then as low as a bare "GPL"). */
  score?: number;
}

const v = (m: RegExpExecArray, a = 1, b = 2): string => `${m[a] ?? ''}.${m[b] ?? '0'}`;

// Idioms whose licence is known by convention rather than spelled out (jQuery's dual licence is
// MIT or GPL-2.0; a Linux kernel file "subject to the GNU General Public License" is GPL-2.0).
const IDIOMS: { re: RegExp; hints: string[]; ids: string[] }[] = [
  { re: /\bthe lgpl mpl or bsd license\b/g, hints: ['mpl'], ids: ['LGPL-2.0-or-later', 'MPL-1.1', 'BSD-3-Clause'] },
  // The Mozilla tri-licence block summary line.
  { re: /\bversion mpl 1 1 gpl 2 0 lgpl 2 1\b/g, hints: ['mpl'], ids: ['MPL-1.1', 'GPL-2.0-or-later', 'LGPL-2.1-or-later'] },
  { re: /\bdual licensed under the mit (?:\S+ ){0,8}?and gpl\b(?: (?:\S+ ){0,6}?licenses)?/g, hints: ['dual'], ids: ['MIT', 'GPL-2.0-only'] },
  { re: /\breleased under the mit bsd and gpl licenses\b/g, hints: ['bsd'], ids: ['MIT', 'BSD-3-Clause', 'GPL-2.0-only'] },
  { re: /\bsubject to the terms and conditions of the gnu general public license (?:version 2 )?see the file copying in the main directory of the linux distribution\b/g, hints: ['linux'], ids: ['GPL-2.0-only'] },
];

const RULES: Rule[] = [
  { re: /\bapache (?:software )?license,? (?:version |v ?)?([12])(?: ([01]))?\b/g, hints: ['apache'], id: (m) => `Apache-${v(m)}` },
  { re: /\b(?:software )?developed (?:by|at) the apache software foundation\b/g, hints: ['apache'], id: () => 'Apache-2.0' },
  // Bare "Apache 2.0" is too common in prose and code (product versions) to count on its own; it
  // needs licence wording next to it.
  { re: /\b(?:licen[sc]ed under|under the terms of|license|licence|released under) (?:the )?(?:apache|asl|apl) ?(?:v|version )?([12]) ([01])\b/g, hints: ['apache*', 'asl*', 'apl*'], id: (m) => `Apache-${v(m)}` },
  { re: /\b(?:apache|asl|apl) ?(?:v|version )?([12]) ([01]) (?:license|licensed)\b/g, hints: ['apache*', 'asl*', 'apl*'], id: (m) => `Apache-${v(m)}` },
  { re: /\bapache org licenses license ([12]) ([01])\b/g, hints: ['apache'], id: (m) => `Apache-${v(m)}` },
  { re: /\b(?:mit license|mit licensed|licensed under (?:the )?mit|under the mit|opensource org licenses mit|mit license org|mit x11 license)\b/g, hints: ['mit'], id: () => 'MIT' },
  { re: /\bmozilla public license,? (?:version |v ?)?([12]) ([01])\b/g, hints: ['mozilla'], id: (m) => `MPL-${v(m)}` },
  { re: /\bmozilla org mpl ([12]) ([01])\b/g, hints: ['mozilla'], id: (m) => `MPL-${v(m)}` },
  { re: /\beclipse public license,? (?:version |v ?)?([12]) ([0])\b/g, hints: ['eclipse'], id: (m) => `EPL-${v(m)}` },
  { re: /\beclipse org legal epl v?([12])([0])\b/g, hints: ['eclipse'], id: (m) => `EPL-${v(m)}` },
  { re: /\bcommon development and distribution license,? (?:cddl )?(?:version |v ?)?(1) ([01])\b/g, hints: ['development'], id: (m) => `CDDL-${v(m)}` },
  { re: /\bcommon development and distribution license\b(?! (?:cddl )?(?:version |v ?)?1 [01]\b)/g, hints: ['development'], id: () => 'CDDL-1.0' },
  { re: /\bcddl ?(?:v ?|version )?(1) ([01])\b/g, hints: ['cddl*'], id: (m) => `CDDL-${v(m)}` },
  { re: /\bcommon public license,? (?:version |v ?)?(1) (0)\b/g, hints: ['common'], id: () => 'CPL-1.0' },
  { re: /\b(?:new|revised|modified|3 clause) bsd license\b|\bbsd 3 clause license\b/g, hints: ['bsd'], id: () => 'BSD-3-Clause' },
  { re: /\b(?:0|zero clause) bsd license\b|\b0bsd\b/g, hints: ['bsd', '0bsd'], id: () => '0BSD' },
  // A bare "BSD license" leaves the clause count open: it reads as the 3-clause licence unless a
  // BSD text in the same file says which (see recognize.ts), hence the low score.
  { re: /(?<!\b(?:new|revised|modified|3 clause|simplified|2 clause|free|original|4 clause|0|zero clause) )\bbsd(?: style)?(?: source)? license\b/g, hints: ['bsd'], id: () => 'BSD-3-Clause', score: 0.5 },
  { re: /\b(?:simplified|2 clause) bsd license\b|\bbsd 2 clause license\b|\bfreebsd license\b/g, hints: ['bsd', 'freebsd'], id: () => 'BSD-2-Clause' },
  { re: /\bisc license\b/g, hints: ['isc'], id: () => 'ISC' },
  { re: /\bartistic license,? (?:version |v ?)?([12]) (0)\b/g, hints: ['artistic'], id: (m) => `Artistic-${v(m)}` },
  // Unversioned, the Artistic Licence is Perl's (1.0 as shipped with Perl).
  { re: /\bartistic license\b(?!,? (?:version |v ?)?[12] 0\b)/g, hints: ['artistic'], id: () => 'Artistic-1.0-Perl' },
  { re: /\bruby license\b|\bsame terms as ruby\b/g, hints: ['ruby'], id: () => 'Ruby' },
  { re: /\bboost software license,? (?:version )?1 0\b/g, hints: ['boost'], id: () => 'BSL-1.0' },
  { re: /\bcreative commons attribution sharealike ([1-4]) ([05])\b/g, hints: ['sharealike'], id: (m) => `CC-BY-SA-${v(m)}` },
  { re: /\bcc by sa v?([1-4]) ([05])\b/g, hints: ['cc'], id: (m) => `CC-BY-SA-${v(m)}` },
  { re: /\bclasspath exception\b|\blinking this library statically or dynamically with other modules is making a combined work\b/g, hints: ['classpath', 'statically'], id: () => 'Classpath-exception-2.0' },
];

// Licences known by a short name or a fixed acknowledgement rather than a "... License, Version
// n" title: "Licensed under the Unlicense", "WTFPL", "zlib/libpng license", the OpenSSL and
// SSLeay advertising clauses products print in their notices.
const SHORT_NAMES: Rule[] = [
  { re: /\bunlicense\b/g, hints: ['unlicense'], id: () => 'Unlicense' },
  { re: /\bwtfpl\b|\bdo what the f\w* (?:ck )?you want to (?:public )?license\b/g, hints: ['wtfpl', 'want'], id: () => 'WTFPL' },
  { re: /\bzlib(?: libpng| png)? license\b|\blicensed under (?:the )?zlib\b/g, hints: ['zlib'], id: () => 'Zlib' },
  { re: /\bthis product includes software developed by the openssl project for use in the openssl toolkit\b|\bopenssl license\b/g, hints: ['openssl'], id: () => 'OpenSSL' },
  { re: /\bthis product includes cryptographic software written by eric young\b|\b(?:original )?ssleay license\b/g, hints: ['young', 'ssleay'], id: () => 'SSLeay-standalone' },
  { re: /\bcc0 1 0(?: universal)?\b|\bcreative commons zero\b|\bcc0 license\b/g, hints: ['cc0', 'zero'], id: () => 'CC0-1.0' },
  { re: /\bexpat license\b/g, hints: ['expat'], id: () => 'MIT' },
  { re: /\bpython software foundation license\b|\bpsf license\b/g, hints: ['python', 'psf'], id: () => 'PSF-2.0' },
];

// Machine-readable declarations on a line of their own: core metadata, RPM spec and Debian
// copyright fields ("License: GPL-2+"), comment headers ("# License: MIT", "@license MIT"),
// setup() arguments and module variables (`license="BSD"`, `__license__ = 'MIT'`), YAML keys.
// "::" is a classifier, not a field.
const FIELD = /^[\s#*/;!%-]*(?:@license|__license__|licen[cs]e(?:[-_]expression)?)(?:\s*[:=](?!:)|\s+(?=\S))\s*(.+?)\s*$/i;
// A classifier anywhere on a line: quoted in setup.py / pyproject.toml, bare in PKG-INFO.
const CLASSIFIER = /\bLicense\s*::\s*([^"'\n\],]+(?:,[^"'\n\],:]+)?)/g;
// Bare names that leave the version open, read as the name rules above read them ("GPL" is any
// version, hence GPL-1.0-or-later), at the confidence of a bare name.
const OPEN_NAMES: Record<string, string> = {
  gpl: 'GPL-1.0-or-later', 'gnu gpl': 'GPL-1.0-or-later', 'gnu general public': 'GPL-1.0-or-later', 'general public': 'GPL-1.0-or-later',
  lgpl: 'LGPL-2.0-or-later', 'gnu lgpl': 'LGPL-2.0-or-later', 'gnu library general public': 'LGPL-2.0-or-later',
  'gnu lesser general public': 'LGPL-2.1-or-later', agpl: 'AGPL-3.0-or-later', 'gnu agpl': 'AGPL-3.0-or-later',
  bsd: 'BSD-3-Clause', 'bsd style': 'BSD-3-Clause', 'bsd-style': 'BSD-3-Clause', apache: 'Apache-2.0', 'apache software': 'Apache-2.0',
};
const openName = (value: string): string | undefined => OPEN_NAMES[value.toLowerCase().replace(/^the\s+/, '').replace(/\s+licen[cs]e$/, '').replace(/\s+/g, ' ')];

const PROSE = /\b(?:from|to|changed?|changes|see|is|are|was|were|has|have|under|in|by|for|this|that|file|our|your|its)\b/i;

// Debian copyright (DEP-5) short names the SPDX list spells differently.
const DEP5: Record<string, string> = { expat: 'MIT', artistic: 'Artistic-1.0-Perl', perl: 'Artistic-1.0-Perl OR GPL-1.0-or-later', perl_5: 'Artistic-1.0-Perl OR GPL-1.0-or-later' };

function fieldValue(raw: string): string {
  const value = raw
    .replace(/\*\/\s*$|-->\s*$/, '')
    // R's DESCRIPTION: "GPL (>= 2)" is GPL-2 or later, "MIT + file LICENSE" is MIT.
    .replace(/\s*\(>=\s*([\d.]+)\)/g, '-$1+')
    .replace(/\s*\+\s*file\s+LICEN[CS]E\b/i, '')
    // "GPL (/usr/share/common-licenses/GPL)": where the text is, not part of the name.
    .replace(/\s*\([^()]*\/[^()]*\)\s*$/, '')
    .replace(/^["'({[*_\s]+|["')\]},;.*_]+$/g, '')
    .trim();
  return DEP5[value.toLowerCase()] ?? value.replace(/\b(expat|artistic)\b(?![\w.-]*\d)/gi, (w) => DEP5[w.toLowerCase()] ?? w);
}

// A README's licence section: "## License" (or "License" underlined) and, as the first words under
// it, the licence's id: "MIT © Sindre Sorhus", "[Apache-2.0](LICENSE)", "ISC".
const HEADING = /^\s{0,3}(?:#{1,6}\s*|\*\*|==+\s*|\.\.\s+_?)?licen[cs]e[sd]?(?:\s+and\s+copyright)?\s*(?:\*\*|#*|==+)?:?\s*$/i;

function licenceUnderHeading(lines: string[], from: number): { spdx: string; line: number } | null {
  for (let j = from; j < Math.min(lines.length, from + 4); j++) {
    const line = (lines[j] ?? '').trim();
    // The heading's underline ("-------") and blank lines come first.
    if (!line || /^[-=~^*#]{3,}$/.test(line)) continue;
    // The id alone, linked, or followed by its holder or the word "license": "JSON files are
    // generated" is no licence.
    const m = /^(?:\[([A-Za-z0-9][\w.+-]*)\]\(|([A-Za-z0-9][\w.+-]*)(?=\s*(?:$|©|\(c\)|copyright\b|licen[cs]ed?\b|[,.;:]\s|[,.;:]?$)))/i.exec(line.replace(/^[>*-]\s+/, ''));
    const first = m?.[1] ?? m?.[2] ?? '';
    const id = canonicalId(first) ? normalizeDeclared(first) : null;
    return id && !/\s/.test(id) ? { spdx: id, line: j + 1 } : null;
  }
  return null;
}

/** `License:` fields and `License ::` classifiers, one tag per licence of the declared expression. */
function findDeclarations(raw: string): LicenseMatch[] {
  const out: LicenseMatch[] = [];
  const add = (expression: string, score: number, line: number): void => {
    for (const id of expression.split(/[\s()]+/)) {
      if (!id || /^(AND|OR|WITH)$/.test(id) || id.startsWith('LicenseRef-')) continue;
      if (!out.some((o) => o.spdx === id && o.startLine === line)) out.push({ spdx: id, score, startLine: line, endLine: line, kind: 'tag' });
    }
  };
  const lines = raw.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.length > 400 || !/licen[cs]e/i.test(line)) continue;
    if (HEADING.test(line)) {
      const named = licenceUnderHeading(lines, i + 1);
      if (named) out.push({ spdx: named.spdx, score: 0.8, startLine: named.line, endLine: named.line, kind: 'reference' });
      continue;
    }
    if (line.includes('::')) {
      CLASSIFIER.lastIndex = 0;
      for (let m = CLASSIFIER.exec(line); m; m = CLASSIFIER.exec(line)) {
        const found = classifierLicense(`License :: ${m[1] ?? ''}`);
        if (found) add(found.spdx, found.exact ? 1 : 0.5, i + 1);
      }
      continue;
    }
    const m = FIELD.exec(line);
    if (!m) continue;
    const value = fieldValue(m[1] ?? '');
    if (!value || value.length > 120) continue;
    // "License MIT" without a colon is a field only when its value is an id or expression as it
    // stands; "License along with this program" is the last line of a GPL notice.
    const colon = /licen[cs]e(?:[-_]expression)?(?:__)?\s*[:=]/i.test(line) || /@license/i.test(line);
    const open = openName(value);
    if (open) {
      add(open, 0.5, i + 1);
      continue;
    }
    const strict = canonicalId(value) ? normalizeDeclared(value) : null;
    // Free text must read as a licence name, not a sentence ("LICENSE: Change from BSD to MIT").
    const nameLike = value.split(/\s+/).length <= 8 && !PROSE.test(value);
    const expression = strict ?? (colon && nameLike ? normalizeDeclared(value) : null);
    if (!expression) continue;
    add(expression, strict || /^[\w.+-]+(?:\s+(?:AND|OR|WITH)\s+[\w.+-]+)*$/.test(value) ? 1 : 0.9, i + 1);
  }
  return out;
}

const PREFIX_HINTS = [...new Set([...IDIOMS, ...RULES, ...SHORT_NAMES, { hints: GNU_HINTS }, { hints: GFDL_HINTS }].flatMap((r) => r.hints.filter((h) => h.endsWith('*')).map((h) => h.slice(0, -1))))];

/**
 * Whether a text's words hold one of a rule's hints. Most texts name few licences: a rule runs only
 * where one of its words is, looked up in the text's set of distinct words (a regular expression
 * tries every word boundary, a substring search scans the whole text for each hint).
 */
function hinted(words: string[]): (hints: string[]) => boolean {
  const present = new Set(words);
  for (const w of present) for (const p of PREFIX_HINTS) if (w.startsWith(p)) present.add(`${p}*`);
  return (hints) => hints.some((h) => present.has(h));
}

/**
 * Name and URL references to licences, each with the line(s) it spans. `tokens`, when the caller
 * already has them, are `tokenize(raw)`'s.
 */
export function findReferences(raw: string, tokens?: Tokens): LicenseMatch[] {
  const flat = flatten(raw, tokens);
  const out: LicenseMatch[] = [];
  const apartEnds: number[] = [];
  const push = (spdx: string, start: number, end: number, score: number): void => {
    // The acronym right after a set-apart name ("... Public License (GPL)") goes with it.
    if (apartEnds.some((e) => start >= e && start - e <= 8) || setApart(flat.text, start, end)) {
      apartEnds.push(end);
      return;
    }
    const startLine = lineAt(flat, start);
    const endLine = lineAt(flat, Math.max(start, end - 1));
    if (out.some((o) => o.spdx === spdx && o.startLine <= endLine && startLine <= o.endLine)) return;
    out.push({ spdx, score, startLine, endLine, kind: 'reference' });
  };
  const text = flat.text;
  // Spans already explained by an idiom; the generic GNU rule must not add a second reading.
  const claimed: [number, number][] = [];
  const named = hinted(flat.words);
  for (const idiom of IDIOMS) {
    if (!named(idiom.hints)) continue;
    idiom.re.lastIndex = 0;
    for (let m = idiom.re.exec(text); m; m = idiom.re.exec(text)) {
      claimed.push([m.index, m.index + m[0].length]);
      for (const id of idiom.ids) push(id, m.index, m.index + m[0].length, 0.9);
    }
  }
  GNU.lastIndex = 0;
  for (let m = named(GNU_HINTS) ? GNU.exec(text) : null; m; m = GNU.exec(text)) {
    const at = m.index;
    if (claimed.some(([a, b]) => at >= a && at < b)) continue;
    const family = gnuFamily(m);
    const after = text.slice(m.index + m[0].length + 1, m.index + m[0].length + 200);
    let major = m[6];
    let minor = m[7];
    let endOff = m.index + m[0].length;
    let laterBefore = false;
    if (!major) {
      const va = VERSION_AFTER.exec(after);
      if (va) {
        major = va[1];
        minor = va[2];
        endOff += 1 + va[0].length;
      } else {
        const vb = VERSION_BEFORE.exec(text.slice(Math.max(0, m.index - 60), m.index));
        if (vb) {
          major = vb[1];
          minor = vb[2];
          if (vb[3]) laterBefore = true;
        }
      }
    }
    if (!major && m[5] === 'l' && !bareAcronymReads(text, m.index, m.index + m[0].length)) continue;
    const later = laterBefore || LATER.test(text.slice(endOff + 1, endOff + 160));
    const id = gnuId(family, major, minor, later, (m[1] ?? m[3]) === 'lesser');
    // Unversioned mentions score low; "Lesser" still says at least 2.1, a little more than "LGPL".
    if (id) push(id, m.index, endOff, major ? 0.8 : (m[1] ?? m[3]) === 'lesser' ? 0.55 : 0.5);
  }
  // GNU FDL: "Version 1.2 or any later version published by the Free Software Foundation".
  const GFDL = /\b(?:gnu free documentation license|gfdl),? (?:version |v ?)?1 ([123])\b/g;
  for (let m = named(GFDL_HINTS) ? GFDL.exec(text) : null; m; m = GFDL.exec(text)) {
    const end = m.index + m[0].length;
    const later = LATER.test(text.slice(end + 1, end + 160));
    push(`GFDL-1.${m[1] ?? '1'}-${later ? 'or-later' : 'only'}`, m.index, end, 0.8);
  }
  for (const rule of [...RULES, ...SHORT_NAMES]) {
    if (!named(rule.hints)) continue;
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
      const id = rule.id(m);
      if (id) push(id, m.index, m.index + m[0].length, rule.score ?? 0.8);
    }
  }
  // The OpenSSL licence is the OpenSSL and the original SSLeay licence together: with it, an SSLeay
  // acknowledgement is part of it, not a licence of its own.
  const withOpenSsl = out.some((o) => o.spdx === 'OpenSSL') ? out.filter((o) => o.spdx !== 'SSLeay-standalone') : out;
  // A declaration says exactly which licence; names on its lines ("License :: OSI Approved ::
  // MIT License") are the declaration, not references besides it.
  const declared = findDeclarations(raw);
  return [...withOpenSsl.filter((o) => !declared.some((d) => d.startLine <= o.endLine && o.startLine <= d.endLine)), ...declared];
}

// A name mentioned to set it apart is no grant: "not under the GNU General Public License",
// "Contrary to the GNU Public License (GPL) the Apache Software License ...", "BSD license may
// not apply". Checked on the normalised words right before and after the name.
const SET_APART_BEFORE = /\b(?:(?:not|nor|never) (?:\S+ ){0,2}?under|contrary to|unlike|instead of|rather than|incompatible with|compared (?:to|with)) (?:the )?(?:terms (?:and conditions )?of )?(?:the )?$/;
const SET_APART_AFTER = /^(?:\S+ ){0,2}?(?:may|does|do|will|would|shall) not apply\b/;

function setApart(text: string, start: number, end: number): boolean {
  return SET_APART_BEFORE.test(text.slice(Math.max(0, start - 60), start)) || SET_APART_AFTER.test(text.slice(end + 1, end + 60));
}
