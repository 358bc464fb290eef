// Licence families: texts that share most of their words and differ in a few clauses (the GPL and
// the LGPL of one version, MPL-1.1 and the Netscape licence built on it, CeCILL 2.0 and 2.1, EUPL
// 1.1 and 1.2, ...). Shingle similarity weighs the shared bulk; here the clauses that set one
// member apart decide: title lines, version statements, the licence steward's name, the clause one
// version added. All patterns run on normalised words (normalize-text.ts): lower case, no
// punctuation, "2.1" reads "2 1".
import { licenseText } from './knowledge.ts';
import { tokenize, type Tokens } from './normalize-text.ts';
import { findReferences } from './references.ts';

export type Family = 'GNU' | 'GFDL' | 'MPL' | 'CeCILL' | 'EUPL' | 'CDDL' | 'EPL' | 'Apache' | 'BSD';

const FAMILY_OF: [RegExp, Family][] = [
  [/^(?:A|L)?GPL-/, 'GNU'],
  [/^GFDL-/, 'GFDL'],
  [/^(?:MPL|NPL|CPAL)-/, 'MPL'],
  [/^CECILL-/, 'CeCILL'],
  [/^EUPL-/, 'EUPL'],
  [/^CDDL-/, 'CDDL'],
  // The Common Public License is the text the Eclipse Public License 1.0 was made from.
  [/^(?:EPL|CPL)-/, 'EPL'],
  [/^Apache-/, 'Apache'],
  [/^BSD-/, 'BSD'],
];

/** The family a licence id belongs to, or undefined for a licence without look-alike versions. */
export function familyOf(id: string): Family | undefined {
  return FAMILY_OF.find(([re]) => re.test(id))?.[1];
}

// The clauses that name one member of a family. A clause counts for a member only where the other
// candidates' texts lack it (checked at run time against their SPDX texts), so a clause two
// members share never decides between them: NPL-1.1 quotes "Mozilla Public License Version 1.1",
// which therefore cannot make a Netscape text read as MPL-1.1.
const CLAUSES: Record<string, RegExp[]> = {
  'GPL-1.0-only': [/\bgnu general public license version 1 february 1989\b/],
  'GPL-2.0-only': [/\bgnu general public license version 2 june 1991\b/],
  'GPL-3.0-only': [/\bgnu general public license version 3 29 june 2007\b/],
  'LGPL-2.0-only': [/\bgnu library general public license version 2 june 1991\b/, /\bthis is the first released version of the library gpl\b/],
  'LGPL-2.1-only': [/\bgnu lesser general public license version 2 1 february 1999\b/, /\bthis is the first released version of the lesser gpl\b/],
  'LGPL-3.0-only': [/\bgnu lesser general public license version 3 29 june 2007\b/, /\bthis version of the gnu lesser general public license incorporates the terms and conditions of version 3\b/],
  'AGPL-3.0-only': [/\bgnu affero general public license version 3 19 november 2007\b/, /\bremote network interaction\b/],
  'GFDL-1.1-only': [/\bgnu free documentation license version 1 1 march 2000\b/],
  'GFDL-1.2-only': [/\bgnu free documentation license version 1 2 november 2002\b/],
  'GFDL-1.3-only': [/\bgnu free documentation license version 1 3 3 november 2008\b/, /\bmassive multiauthor collaboration site\b/],
  'MPL-1.0': [/\bmozilla public license version 1 0\b/],
  'MPL-1.1': [/\bmozilla public license version 1 1\b/],
  'MPL-2.0': [/\bmozilla public license version 2 0\b/, /\bincompatible with secondary licenses\b/],
  'NPL-1.0': [/\bnetscape public license version 1 0\b/],
  'NPL-1.1': [/\bnetscape public license version 1 1\b/, /\bamendments\b/],
  'CPAL-1.0': [/\bcommon public attribution license\b/, /\battribution copyright notice\b/, /\battribution information\b/],
  'CECILL-1.0': [/\bcontrat de license de logiciel libre cecill\b/],
  'CECILL-1.1': [/\bfree software licensing agreement cecill\b/, /\bversion 1 1 of 10 26 2004\b/],
  'CECILL-2.0': [/\bversion 2 0 dated 2006 09 05\b/],
  'CECILL-2.1': [/\bversion 2 1 dated 2013 06 21\b/, /\bcecill free software license agreement version 2 1\b/],
  'CECILL-B': [/\bcecill b free software license agreement\b/],
  'CECILL-C': [/\bcecill c free software license agreement\b/],
  'EUPL-1.0': [/\beuropean union public license v 1 0\b/],
  'EUPL-1.1': [/\beuropean union public license v 1 1\b/],
  'EUPL-1.2': [/\beuropean union public license v 1 2\b/, /\bthe european union 2007 2016\b/],
  'CDDL-1.0': [/\bcommon development and distribution license cddl version 1 0\b/, /\bsun microsystems inc is the initial license steward\b/],
  'CDDL-1.1': [/\bcommon development and distribution license cddl version 1 1\b/, /\boracle is the initial license steward\b/],
  'EPL-1.0': [/\beclipse public license v 1 0\b/, /\beclipse public license version 1 0\b/],
  'EPL-2.0': [/\beclipse public license v 2 0\b/, /\beclipse public license version 2 0\b/, /\bsecondary license\b/],
  'CPL-1.0': [/\bcommon public license version 1 0\b/, /\bthis common public license agreement\b/],
  'Apache-1.0': [/\ball advertising materials mentioning features or use of this software must display the following acknowledge?ment\b/],
  'Apache-1.1': [/\bthe apache software license version 1 1\b/, /\bthe end user documentation included with the redistribution if any must include the following acknowledge?ment\b/],
  'Apache-2.0': [/\bapache license version 2 0\b/],
  'BSD-4-Clause': [/\ball advertising materials mentioning features or use of this software must display the following acknowledge?ment\b/],
  'BSD-3-Clause': [/\bmay (?:not )?be used to endorse or promote products derived from this software\b/],
};

/** The other members of a licence's family that have distinguishing clauses. */
export function familyMembers(id: string): string[] {
  const family = familyOf(id);
  return family ? Object.keys(CLAUSES).filter((other) => other !== id && familyOf(other) === family) : [];
}

const templateWords = new Map<string, string>();

function templateOf(id: string): string {
  let text = templateWords.get(id);
  if (text === undefined) {
    text = tokenize(licenseText(id)).words.join(' ');
    templateWords.set(id, text);
  }
  return text;
}

/**
 * Whether the standard text of `textId` itself names `otherId` (the Netscape licence carries the
 * MPL 1.1 and its Exhibit A notice): such a notice right after that text belongs to the text.
 */
export function textNames(textId: string, otherId: string): boolean {
  const text = templateOf(textId);
  return (CLAUSES[otherId] ?? []).some((clause) => clause.test(text));
}

/**
 * Among look-alike candidates that all match one region, the one whose own clauses the region
 * carries: `words` is the region's normalised text (with a little context before it, where a title
 * line may sit). Returns undefined when the clauses do not single one out; the caller keeps its
 * similarity ranking then.
 */
export function decideByClauses(candidates: string[], words: string): string | undefined {
  const ids = [...new Set(candidates)];
  if (ids.length < 2) return undefined;
  let best: string | undefined;
  let bestScore = 0;
  let tie = false;
  for (const id of ids) {
    let score = 0;
    for (const clause of CLAUSES[id] ?? []) {
      if (!clause.test(words)) continue;
      // Shared with a rival's text: says nothing about which of the two this is.
      if (ids.some((other) => other !== id && clause.test(templateOf(other)))) continue;
      score++;
    }
    if (score > bestScore) {
      best = id;
      bestScore = score;
      tie = false;
    } else if (score > 0 && score === bestScore) tie = true;
  }
  return tie ? undefined : best;
}

// ---- BSD conditions ------------------------------------------------------------------------------
// The BSD variants are told apart by which conditions their list carries: the binary-form clause,
// the endorsement clause, the advertising clause, the "at the beginning of the file" clause. A text
// whose list lacks one of them is not the variant that has it, however close the rest of the words.
const BSD_CONDITIONS: [string, RegExp][] = [
  ['binary', /\bredistributions? in binary form must reproduce\b/],
  ['endorse', /\bused to endorse or promote\b/],
  ['advertising', /\badvertising materials mentioning features\b/],
  ['file-start', /\b(?:at the beginning of the file|as the first lines of this file)\b/],
];
// A complete BSD text ends its conditions with the warranty disclaimer; only then does a missing
// condition mean the licence lacks it (a truncated copy just stops early).
const BSD_DISCLAIMER = /\bas is and any express or implied warranties\b/;

/** The conditions a BSD text lists, as a key ("binary endorse"); undefined when the text is not complete. */
export function bsdConditions(words: string): string | undefined {
  if (!BSD_DISCLAIMER.test(words)) return undefined;
  return BSD_CONDITIONS.filter(([, re]) => re.test(words)).map(([name]) => name).join(' ');
}

const templateConditions = new Map<string, string | undefined>();

/** The conditions the standard text of a BSD variant lists. */
export function bsdTemplateConditions(id: string): string | undefined {
  if (!templateConditions.has(id)) templateConditions.set(id, bsdConditions(templateOf(id)));
  return templateConditions.get(id);
}

// ---- GNU notices -------------------------------------------------------------------------------
// A GNU notice ("This program is free software; you can redistribute it and/or modify it under the
// terms of the GNU Lesser General Public License as published by the Free Software Foundation;
// either version 2.1 of the License, or (at your option) any later version.") names its licence
// once, in the grant; later mentions ("See the GNU General Public License for more details") are
// often copied from another notice and do not change it. The grant sentence decides the family,
// the version and -only against -or-later.

const GNU_NAME = /\b(?:gnu )?(?:(lesser|library|affero) )?general public license\b|\b(l|a)?gpl ?v?([123])(?: ([01]))?\b/;
// Where the grant sentence ends: the warranty paragraph or the pointer to the copy of the licence.
const GRANT_END = /\b(?:(?:this|the) (?:\S+ ){0,3}?is distributed in the hope|but without any warranty|you should have received|see the gnu|see the file|see http|on debian)\b/;
const VERSION = /\bversion ([123])(?: ([01]))?\b|\bv ?([123])(?: ([01]))?\b|\blicense ([123])(?: ([01]))?\b/;
const LATER = /\b(?:or (?:at your option )?(?:any )?later|any later version|or later|or newer|orlater)\b/;
const ONLY = /\bonly version\b|\bversion [123](?: [01])? only\b/;

export interface GnuGrant {
  spdx: string;
  /** Offset (in characters of the joined words) where the grant's licence name starts. */
  at: number;
}

/**
 * The licence a GNU notice grants, read from its first licence name and the version statement that
 * follows it. `words` is the notice's normalised text. Undefined when the notice names no GNU
 * licence or states no version (an unversioned notice is left to the caller's rules).
 */
export function gnuGrant(words: string): GnuGrant | undefined {
  const name = GNU_NAME.exec(words);
  if (!name) return undefined;
  const kind = name[1] ?? (name[2] === 'l' ? 'lesser' : name[2] === 'a' ? 'affero' : undefined);
  const family = kind === 'affero' ? 'AGPL' : kind ? 'LGPL' : 'GPL';
  let major = name[3];
  let minor = name[4];
  const rest = words.slice(name.index + name[0].length, name.index + name[0].length + 400);
  const end = GRANT_END.exec(rest);
  const clause = end ? rest.slice(0, end.index) : rest;
  if (!major) {
    const v = VERSION.exec(clause);
    if (!v) return undefined;
    major = v[1] ?? v[3] ?? v[5];
    minor = v[2] ?? v[4] ?? v[6];
  }
  const later = !ONLY.test(clause) && LATER.test(clause);
  let version: string | undefined;
  if (family === 'LGPL') version = major === '2' ? (minor === '1' ? '2.1' : '2.0') : major === '3' ? '3.0' : undefined;
  else if (family === 'AGPL') version = major === '3' ? '3.0' : major === '1' ? '1.0' : undefined;
  else version = !minor || minor === '0' ? `${major}.0` : undefined;
  if (!version) return undefined;
  return { spdx: `${family}-${version}-${later ? 'or-later' : 'only'}`, at: name.index };
}

// ---- Names of family members ---------------------------------------------------------------------
// Notices that name a member the general reference rules (references.ts) do not know: the Netscape
// and Common Public Attribution licences of the MPL family, the CeCILL and EUPL versions. A notice
// naming one of them often names its parent too ("The License is based on the Mozilla Public
// License Version 1.1"): that mention says where the licence comes from, not which one applies.

interface NameRule {
  re: RegExp;
  id: (m: RegExpExecArray) => string;
  score?: number;
  /** Checked on the raw lines of a match, where normalisation lost the punctuation that decides. */
  raw?: RegExp;
}

const NAMES: NameRule[] = [
  { re: /\bnetscape public license,? (?:version |v ?)?1 ([01])\b/g, id: (m) => `NPL-1.${m[1] ?? '1'}` },
  { re: /\bcommon public attribution license,? (?:version |v ?)?1 0\b|\bcpal 1 0\b/g, id: () => 'CPAL-1.0' },
  // "CeCILL-B", "CeCILL_C", "CeCILL B" — not "CeCILL (C) INRIA", a copyright sign after the name.
  { re: /\bcecill ?([bc])\b/g, id: (m) => `CECILL-${(m[1] ?? 'b').toUpperCase()}`, raw: /\bcecill[-_ ]?[bc]\b/i },
  // "CeCILL license version 2.1", "CeCILL v2.0"; an unversioned "CeCILL" licence is the current 2.1.
  { re: /\bcecill(?: license| licensing agreement| free software license agreement)?,? (?:version |v ?)?([12]) ([01])\b/g, id: (m) => `CECILL-${m[1] ?? '2'}.${m[2] ?? '1'}` },
  { re: /\b(?:(?:by|under) the|governed by the) cecill license\b(?! (?:version |v ?)?[12] [01]\b)/g, id: () => 'CECILL-2.1', score: 0.5 },
  { re: /\b(?:european union public license|eupl),? (?:version |v ?)?1 ([012])\b/g, id: (m) => `EUPL-1.${m[1] ?? '2'}` },
];

// Cheap pre-check on the raw text: a file without any of these words names no member of NAMES.
const NAME_WORDS = /netscape|attribution|cecill|eupl|european union/i;

export interface NamedMember {
  spdx: string;
  score: number;
  startLine: number;
  endLine: number;
}

/** Family members named in a text (see NAMES), each with its line span. */
export function familyNames(text: string, tokens?: Tokens): NamedMember[] {
  if (!NAME_WORDS.test(text)) return [];
  const { words, lines } = tokens ?? tokenize(text);
  const joined = words.join(' ');
  // Word index of each character offset: offsets[i] is where word i starts.
  const offsets: number[] = [];
  let pos = 0;
  for (const w of words) {
    offsets.push(pos);
    pos += w.length + 1;
  }
  const wordAt = (offset: number): number => {
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((offsets[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const out: NamedMember[] = [];
  let rawLines: string[] | undefined;
  for (const rule of NAMES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(joined); m; m = rule.re.exec(joined)) {
      const spdx = rule.id(m);
      const startLine = lines[wordAt(m.index)] ?? 1;
      const endLine = lines[wordAt(m.index + m[0].length - 1)] ?? startLine;
      if (rule.raw && !rule.raw.test((rawLines ??= text.split('\n')).slice(startLine - 1, endLine).join(' '))) continue;
      if (out.some((o) => o.spdx === spdx && o.startLine <= endLine && startLine <= o.endLine)) continue;
      out.push({ spdx, score: rule.score ?? 0.8, startLine, endLine });
    }
  }
  return out;
}

/**
 * Licences a text names as the basis of another ("The License is based on the Mozilla Public
 * License Version 1.1"): the ids read from the few words after "based on".
 */
export function parentLicences(text: string): Set<string> {
  const words = tokenize(text).words.join(' ');
  const out = new Set<string>();
  const re = /\bbased on (?:the )?((?:\S+ ){0,10}\S+)/g;
  for (let m = re.exec(words); m; m = re.exec(words)) {
    const named = m[1] ?? '';
    for (const ref of findReferences(named)) out.add(ref.spdx);
    for (const ref of familyNames(named)) out.add(ref.spdx);
  }
  return out;
}

// A GNU licence named as the object of an exception or of a refusal ("gcc's library exception to
// the GPL v3", "do not upgrade to LGPLv3") is another licence's basis or one that does not apply,
// not a grant; it only counts as such where the file grants some other GNU licence.
const NOT_GRANTED = /\b(?:exceptions? to|(?:do not|don t|never|not) (?:upgrade|switch|move|relicense) to|(?:not|in) ?compatible with) (?:the )?(?:gnu )?(?:(?:lesser|library|affero) )?(?:general public license|(?:l|a)?gpl(?: ?v?[123])?)\b/;

/** Whether a line names a GNU licence only as the object of an exception or a refusal. */
export function gnuNamedNotGranted(line: string): boolean {
  return NOT_GRANTED.test(tokenize(line).words.join(' '));
}

// GFDL notices say which variant they grant: "with no Invariant Sections" is the -no-invariants
// licence, "with the Invariant Sections being <titles>" the -invariants one (SPDX licence list
// 3.9 on). A full text carries the sample notice of its addendum ("being LIST THEIR TITLES"), so
// only notices are read this way.
const GFDL_PLAIN = /^GFDL-(1\.[123])-(only|or-later)$/;
const NO_INVARIANTS = /\bwith\s+no\s+invariant\s+sections\b/i;
const INVARIANTS = /\bwith\s+(?:the\s+)?invariant\s+sections\s+being\s+(?!list\s+their\s+titles)(?!none\b|no\b)\S/i;

/** The -invariants / -no-invariants id a GFDL notice grants, or the id unchanged. */
export function gfdlVariant(id: string, notice: string): string {
  const m = GFDL_PLAIN.exec(id);
  if (!m) return id;
  if (NO_INVARIANTS.test(notice)) return `GFDL-${m[1]}-no-invariants-${m[2]}`;
  if (INVARIANTS.test(notice)) return `GFDL-${m[1]}-invariants-${m[2]}`;
  return id;
}
