// Modified and partial licence texts. A region that the shingle index accepted as a licence text is
// compared word by word with that licence's standard text; what differs decides whether the copy is
// still the standard licence under the SPDX matching guidelines, or a licence of its own that is
// merely nearest to it.
//
// The SPDX templates (template/*.template.txt in spdx/license-list-data) mark with <<var>> and
// <<beginOptional>> what may vary. Across the common templates (MIT, BSD-2/3-Clause, ISC, Zlib,
// Apache-2.0, GPL-2.0, ...) those places are of a few kinds, which the rules below state in general
// terms instead of copying the templates:
//   - copyright lines ("Copyright (c) <year> <owner>", any length) and "All rights reserved";
//   - bullets and numbering ("1.", "(a)", "ii)") before clauses;
//   - names and short phrases naming a party: "the copyright holder", "THE AUTHORS OR COPYRIGHT
//     HOLDERS", "the Regents", "ISC", "the University"; "source code|works", "software|work",
//     "are|is", "above|original", "EXPRESS(ED)";
//   - a title and headings at the start ("MIT License", "Apache License Version 2.0, January 2004",
//     "TERMS AND CONDITIONS FOR ..."), small optional words ("and/or", "(including the next
//     paragraph)");
//   - an appendix at the end: "END OF TERMS AND CONDITIONS", "APPENDIX: How to apply ...", "How to
//     Apply These Terms to Your New Programs".
// Anything else — a sentence added ("The Software shall be used for Good, not Evil"), a clause or
// disclaimer deleted, a warranty disclaimer reworded, a copy cut off before the end of its terms —
// makes the text a different licence: it is reported as LicenseRef-Cairn-modified-<id>, with the
// lines that differ as evidence.
import { EVIDENCE_CHARS, EVIDENCE_LINES, type LicenseMatch } from './recognize.ts';
import { licenseText } from './knowledge.ts';
import { tokenize } from './normalize-text.ts';
import { findReferences } from './references.ts';

export const MODIFIED_PREFIX = 'LicenseRef-Cairn-modified-';
/** Highest score a modified or partial text may carry: never the confidence of a standard text. */
export const MODIFIED_MAX_SCORE = 0.6;
/** Highest score of a copy cut short of its closing disclaimer: the standard licence, but not all of it. */
export const PARTIAL_MAX_SCORE = 0.75;

export interface Departure {
  /**
   * standard: the standard text within the matching guidelines; partial: the standard text cut
   * short of its closing disclaimer; modified: a different licence nearest to the standard one.
   */
  verdict: 'standard' | 'partial' | 'modified';
  /** Last line (of the scanned text) of the copy, when it runs past the matched window (clauses added before its end). */
  lastLine?: number;
  /** Differing lines, "+ " for the file's added or changed lines, "− " for standard lines it lacks. */
  evidence: string[];
}

/** The SPDX LicenseRef id of a modified or partial copy of `id` (letters, digits, '.' and '-' only). */
export function modifiedId(id: string): string {
  return MODIFIED_PREFIX + id.replace(/[^A-Za-z0-9.-]+/g, '-');
}

// ---------------------------------------------------------------------------------------------
// The standard side

interface Standard {
  words: string[];
  /** 0-based line of each word in `text`. */
  lines: number[];
  text: string[];
  /** Words that may vary freely: copyright lines and placeholders. */
  free: Uint8Array;
  /** Words before this index are the optional title/heading/copyright block. */
  headEnd: number;
  /** Words from this index on are the optional appendix ("END OF TERMS AND CONDITIONS", "How to apply"). */
  tailStart: number;
  /** Start of the closing warranty disclaimer (words.length when the text has none at its end). */
  disclaimerStart: number;
}

const standards = new Map<string, Standard>();

// A copyright line: "Copyright (c) 2004 ...", "(C) 1998 ...", "© ...", "All rights reserved.", and
// the Free Software Foundation's address lines that go with its copyright.
const COPYRIGHT_LINE = /^[\s*#/;!%'"-]*(copyright\b|\(c\)|©|portions copyright|all rights reserved)|^[\s*#/;!%'"-]*all rights reserved\.?\s*$/i;
const ADDRESS_LINE = /\b(street|floor|suite|p\.?o\.? box|boston|cambridge|ma \d{5})\b/i;
// Standard text placeholders: "<year>", "[yyyy]", "[name of copyright owner]", "<copyright holders>".
const PLACEHOLDER = /<[^<>\n]{1,40}>|\[[^[\]\n]{1,40}\]/g;
// Headings that open the optional appendix of long licences.
const APPENDIX = /^\s*(end of terms and conditions|appendix\b|how to apply\b|exhibit a\b)/i;
// The first line of the terms proper: a grant, the conditions, or a warranty disclaimer opening them.
const HEAD_STOP = /hereby granted|\bpermission (is|to)\b|\bis granted\b|\bredistribution and use\b|^\W*terms and conditions|\bprovided\W+as\W+is\b|\bpermitted provided\b|^\s*(0|1)\.\s/i;
// The first numbered section ("0. This License applies", "1. DEFINITIONS") always opens the terms.
const NUMBERED = /^\s*(0|1)\.\s/;
// A line of the warranty disclaimer or limitation of liability that usually closes the terms.
// A heading or title line: a few words, not a sentence.
const HEAD_WORDS = 12;
// A section heading after the terms: a few capitalised words alone on their line.
const SECTION = /^\s*([A-Z][A-Za-z]*)(\s+[A-Z][A-Za-z]*){0,3}\s*$/;
const DISCLAIMER = /\b(liable|liability|warrant(y|ies)|damages?)\b/i;
const BLANK = 'xplaceholderx';

/** A heading: a short line standing alone (blank lines around it), not a sentence. */
function isHeading(text: string[], i: number): boolean {
  const line = text[i] ?? '';
  const alone = (text[i - 1] ?? '').trim() === '' && (text[i + 1] ?? '').trim() === '';
  return alone && tokenize(line).words.length <= HEAD_WORDS && !/[.;]\s*$/.test(line);
}

// SPDX texts with a part their template marks optional as a whole: the LGPL-3.0 text carries the
// GPL-3.0 after it, which a project's COPYING.LESSER leaves out (the GPL sits in COPYING).
const OPTIONAL_TAIL: Record<string, RegExp> = {
  'LGPL-3.0-only': /\n\s*GNU GENERAL PUBLIC LICENSE\s*\n\s*Version 3, 29 June 2007[\s\S]*$/,
};
const SHORT = '#short';

/** The standard text of an id (`id#short`: without its optional tail), prepared for comparison. */
// Years are never licence terms: PSF-2.0 quotes its own notice with a list of years that every
// release extends ("Copyright (c) 2001, … 2023 Python Software Foundation").
const YEAR = /^(?:19|20)\d\d$/;

function standardOf(key: string): Standard | undefined {
  const cached = standards.get(key);
  if (cached) return cached;
  const id = key.endsWith(SHORT) ? key.slice(0, -SHORT.length) : key;
  const tail = OPTIONAL_TAIL[id];
  const raw = key.endsWith(SHORT) && tail ? licenseText(id).replace(tail, '') : licenseText(id);
  if (!raw) return undefined;
  const text = raw.split('\n');
  const words: string[] = [];
  const lines: number[] = [];
  const free: number[] = [];
  text.forEach((line, i) => {
    const isCopyright = COPYRIGHT_LINE.test(line);
    // A placeholder stands for a name: one word that matches nothing and may be anything.
    for (const word of tokenize(line.replace(PLACEHOLDER, ` ${BLANK} `)).words) {
      words.push(word);
      lines.push(i);
      free.push(isCopyright || word === BLANK || YEAR.test(word) ? 1 : 0);
    }
  });
  // The head: title, headings, copyright and address lines and any preamble before the first line
  // that grants, conditions or disclaims (the GPL's Preamble, MIT-CMU's "By obtaining, using ...").
  let headEnd = 0;
  // (A heading such as Apache's "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" is
  // still part of the head.)
  const firstTerm = text.findIndex((line, i) => HEAD_STOP.test(line) && (!isHeading(text, i) || NUMBERED.test(line)));
  if (firstTerm > 0) {
    let at = 0;
    while (at < words.length && (lines[at] ?? 0) < firstTerm) at++;
    if (at > 0 && at < words.length / 2) headEnd = at;
  }
  // The closing disclaimer: the run of warranty/liability paragraphs that ends the terms, in the
  // second half of the text. After it, an appendix ("END OF TERMS AND CONDITIONS", "How to apply",
  // a separately headed section such as FreeBSD-DOC's "Manual Pages") or closing notes ("This
  // software consists of voluntary contributions ...") are optional.
  // First word at or after each line.
  const firstWord = new Int32Array(text.length + 1).fill(words.length);
  for (let i = lines.length - 1; i >= 0; i--) firstWord[lines[i] ?? 0] = i;
  for (let l = text.length - 1; l >= 0; l--) firstWord[l] = Math.min(firstWord[l] ?? words.length, firstWord[l + 1] ?? words.length);
  const wordAt = (line: number): number => firstWord[Math.max(0, Math.min(text.length, line))] ?? words.length;
  let termsEnd = text.findIndex((line) => APPENDIX.test(line));
  if (termsEnd < 0) termsEnd = text.length;
  let first = -1;
  for (let i = 0; i < termsEnd; i++) if (DISCLAIMER.test(text[i] ?? '') && wordAt(i + 1) > words.length / 2) {
    first = i;
    break;
  }
  if (first >= 0) {
    for (let i = first + 1; i < termsEnd; i++) {
      if (SECTION.test(text[i] ?? '') && (text[i - 1] ?? '').trim() === '') {
        termsEnd = i;
        break;
      }
    }
  }
  let last = -1;
  for (let i = termsEnd - 1; i >= 0 && last < 0; i--) if (DISCLAIMER.test(text[i] ?? '')) last = i;
  let disclaimerStart = words.length;
  if (last >= 0) {
    // Back to the start of the first paragraph of the closing disclaimer run.
    let from = last;
    for (;;) {
      while (from > 0 && (text[from - 1] ?? '').trim() !== '') from--;
      let prev = from - 1;
      while (prev >= 0 && (text[prev] ?? '').trim() === '') prev--;
      if (prev < 0 || !DISCLAIMER.test(text[prev] ?? '') || wordAt(prev) <= words.length / 2) break;
      from = prev;
    }
    disclaimerStart = wordAt(from);
    // Forward to the end of its last paragraph.
    while (last + 1 < termsEnd && (text[last + 1] ?? '').trim() !== '') last++;
  }
  // A closing disclaimer is one the terms end with: at most a short note after it, or a headed
  // appendix (Zlib's disclaimer, which opens the licence, is not one).
  const headed = termsEnd < text.length;
  const tailLine = last >= 0 ? Math.min(termsEnd, last + 1) : termsEnd;
  let tailStart = wordAt(tailLine);
  if (last < 0 || (tailStart <= words.length * 0.6 && !(headed && tailStart > words.length / 2))) {
    tailStart = headed && termsEnd > 0 ? wordAt(termsEnd) : words.length;
    disclaimerStart = words.length;
  }
  const std: Standard = { words, lines, text, free: Uint8Array.from(free), headEnd, tailStart, disclaimerStart };
  standards.set(key, std);
  return std;
}

// ---------------------------------------------------------------------------------------------
// Word alignment

/** A stretch where the standard's words a0..a1-1 stand against the file's words b0..b1-1. */
export interface Hunk {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

// Sub-problems up to this many cells are solved exactly (LCS table); bigger ones are split on words
// that occur once on each side (patience diff), which licence texts have plenty of.
const EXACT_CELLS = 20_000;

/** Word-level diff of a (standard) against b (file): the stretches that differ, in order. */
export function diffWords(a: string[], b: string[]): Hunk[] {
  const out: Hunk[] = [];
  const equal: [number, number, number][] = []; // runs of equal words: a index, b index, length
  const solve = (a0: number, a1: number, b0: number, b1: number, depth: number): void => {
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) {
      equal.push([a0, b0, 1]);
      a0++;
      b0++;
    }
    const tail: [number, number, number][] = [];
    while (a0 < a1 && b0 < b1 && a[a1 - 1] === b[b1 - 1]) {
      a1--;
      b1--;
      tail.push([a1, b1, 1]);
    }
    if (a0 < a1 && b0 < b1) {
      if ((a1 - a0) * (b1 - b0) <= EXACT_CELLS || depth > 40) lcs(a0, a1, b0, b1);
      else {
        const anchors = uniqueAnchors(a0, a1, b0, b1);
        if (anchors.length === 0) lcs(a0, a1, b0, b1);
        else {
          let pa = a0;
          let pb = b0;
          for (const [ia, ib] of anchors) {
            solve(pa, ia, pb, ib, depth + 1);
            equal.push([ia, ib, 1]);
            pa = ia + 1;
            pb = ib + 1;
          }
          solve(pa, a1, pb, b1, depth + 1);
        }
      }
    }
    for (let i = tail.length - 1; i >= 0; i--) equal.push(tail[i]!);
  };
  const lcs = (a0: number, a1: number, b0: number, b1: number): void => {
    const n = a1 - a0;
    const m = b1 - b0;
    if (n * m > EXACT_CELLS * 20) return; // too far apart to align: the whole stretch differs
    const table = new Uint16Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * (m + 1) + j] = a[a0 + i] === b[b0 + j] ? (table[(i + 1) * (m + 1) + j + 1] ?? 0) + 1 : Math.max(table[(i + 1) * (m + 1) + j] ?? 0, table[i * (m + 1) + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[a0 + i] === b[b0 + j]) {
        equal.push([a0 + i, b0 + j, 1]);
        i++;
        j++;
      } else if ((table[(i + 1) * (m + 1) + j] ?? 0) >= (table[i * (m + 1) + j + 1] ?? 0)) i++;
      else j++;
    }
  };
  const uniqueAnchors = (a0: number, a1: number, b0: number, b1: number): [number, number][] => {
    const count = new Map<string, [number, number, number, number]>(); // word → [countA, posA, countB, posB]
    for (let i = a0; i < a1; i++) {
      const w = a[i]!;
      const c = count.get(w);
      if (c) c[0]++;
      else count.set(w, [1, i, 0, -1]);
    }
    for (let j = b0; j < b1; j++) {
      const c = count.get(b[j]!);
      if (!c) continue;
      c[2]++;
      c[3] = j;
    }
    const pairs: [number, number][] = [];
    for (const [ca, pa, cb, pb] of count.values()) if (ca === 1 && cb === 1) pairs.push([pa, pb]);
    pairs.sort((x, y) => x[0] - y[0]);
    return longestIncreasing(pairs);
  };
  solve(0, a.length, 0, b.length, 0);
  equal.sort((x, y) => x[0] - y[0]);
  let pa = 0;
  let pb = 0;
  for (const [ia, ib] of equal) {
    if (ia > pa || ib > pb) out.push({ a0: pa, a1: ia, b0: pb, b1: ib });
    pa = ia + 1;
    pb = ib + 1;
  }
  if (pa < a.length || pb < b.length) out.push({ a0: pa, a1: a.length, b0: pb, b1: b.length });
  // An added or removed stretch that repeats the words before it can be placed either way ("the
  // Software shall be used ... the Software is provided"); it is moved to its earliest place, which
  // is where a sentence added before a standard one starts.
  let floorA = 0;
  let floorB = 0;
  for (const h of out) {
    if (h.a0 === h.a1) while (h.b0 > floorB && h.a0 > floorA && b[h.b0 - 1] === b[h.b1 - 1]) shift(h);
    else if (h.b0 === h.b1) while (h.a0 > floorA && h.b0 > floorB && a[h.a0 - 1] === a[h.a1 - 1]) shift(h);
    floorA = h.a1;
    floorB = h.b1;
  }
  return out;
}

function shift(h: Hunk): void {
  h.a0--;
  h.a1--;
  h.b0--;
  h.b1--;
}

/** Longest run of pairs increasing in both coordinates (pairs sorted by the first). */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let i = 0; i < pairs.length; i++) {
    const v = pairs[i]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out: [number, number][] = [];
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = prev[i]!) out.push(pairs[i]!);
  return out.reverse();
}

// ---------------------------------------------------------------------------------------------
// Judging the differences

// Words that make a sentence a rule: modal verbs, negations, grants and restrictions. A name or a
// title never needs them; an added, removed or reworded clause almost always does.
const NEGATION = new Set(['not', 'no', 'never', 'neither', 'nor', 'none', 'cannot', 'nothing']);
const NORMATIVE = new Set([
  'shall', 'must', 'may', 'will', 'should', 'can', 'might', 'only', 'except', 'unless', 'prohibited',
  'forbidden', 'permitted', 'granted', 'grant', 'grants', 'restricted', 'restriction', 'allowed', 'required',
  'agree', 'agrees', 'used', 'use', 'military', 'commercial', 'evil',
  'harm', 'fee', 'sell', 'pay',
]);
// Bullets and numbering: "1", "a", "iv", "b)".
const BULLET = /^([0-9]{1,2}|[a-h]|i{1,3}|iv|v|vi{1,3}|ix|x)$/;
// Small spelling differences the SPDX equivalent-words list folds together.
const EQUIVALENT: [string, string][] = [
  ['acknowledgment', 'acknowledgement'], ['analog', 'analogue'], ['analyze', 'analyse'], ['expressed', 'express'],
  ['is', 'are'], ['work', 'software'], ['original', 'above'], ['holder', 'holders'], ['author', 'authors'],
];
// Phrases that say the same thing, either way round.
const EQUIVALENT_PHRASES: [string, string][] = [
  ['but not limited to', 'without limitation'],
  ['but not limited to', 'but without limitation'],
  ['but not limited to', 'without limiting'],
  ['and or', 'and'],
  ['and or', 'or'],
];
const PHRASES = new Set(EQUIVALENT_PHRASES.flatMap(([x, y]) => [`${x}|${y}`, `${y}|${x}`]));
const equivalent = new Set(EQUIVALENT.flatMap(([x, y]) => [`${x} ${y}`, `${y} ${x}`]));
// Words of the phrases the SPDX templates mark as variable: parties and their names.
const NAME_WORDS = new Set([
  'the', 'a', 'an', 'of', 'and', 'or', 'nor', 'its', 'their', 'his', 'her', 'by', 'at', 'in', 'for', 'to', 'copyright',
  'copyrights', 'holder', 'holders', 'owner', 'owners', 'author', 'authors', 'contributor', 'contributors', 'name',
  'names', 'regents', 'university', 'california', 'berkeley', 'institute', 'foundation', 'inc', 'corporation',
  'company', 'project', 'developers', 'developer', 'organization', 'team', 'members', 'above', 'listed', 'other',
  'any', 'party', 'parties', 'consortium', 'group', 'ltd', 'llc', 'laboratory', 'national', 'software', 'work',
  'works', 'source', 'code', 'program', 'library', 'product', 'original', 'all', 'x', 'isc', 'apache', 'mit',
  // What a copy must keep is listed in many ways ("the above copyright notice, this list of
  // conditions and the following disclaimer"); a shorter list is the same condition.
  'this', 'list', 'conditions', 'following', 'disclaimer', 'notice', 'notices', 'permission',
]);
// A few words may differ anywhere (spelling, word order, "this"/"the").
const SMALL_CHANGE = 3;
// Limits for a difference that is a name or a short variable phrase.
const NAME_INSERT = 20;
const NAME_REPLACE = 40;
const NAME_DELETE = 12;
// Standard words the copy may lack at either end of the region: the matcher's window edges.
const EDGE_SLACK = 3;
// How far past the matched window to look for the rest of a standard text, beyond twice what is missing.
const LOOK_AHEAD = 64;
// Largest stretch of other words allowed inside the rest of a standard text found past the window.
const SCATTER = 5;

interface Judged {
  hunk: Hunk;
  allowed: boolean;
}

/**
 * Whether the file's words `words[start..end]` (their lines in `lines`, the text in `fileLines`)
 * are the standard text of `id` within the matching guidelines, a copy cut short of its closing
 * disclaimer, or a different licence; with the lines that differ.
 */
export function compareToStandard(id: string, words: string[], lines: number[], start: number, end: number, fileLines: string[]): Departure {
  // A machine-readable copyright file (DEP-5) starts each licence's stanza with field lines: the
  // copy ends before the next one, whatever the matcher's window or a look ahead would take in.
  const stanza = stanzaOf(words, lines, start, end, fileLines);
  const own = stanza.limit < words.length ? words.slice(0, stanza.limit) : words;
  start = stanza.start;
  end = stanza.end;
  const full = compareWith(id, own, lines, start, end, fileLines);
  if (full.verdict === 'standard' || !OPTIONAL_TAIL[id]) return full;
  const short = compareWith(`${id}${SHORT}`, own, lines, start, end, fileLines);
  return short.verdict === 'standard' ? short : full;
}

const FIELD_LINE = /^(?:Files|License|Comment|Copyright|Source|Upstream-Name|Upstream-Contact|Format|Disclaimer)\s*:/;

/**
 * The part of words[start..end] between DEP-5 field lines that holds most of it (the licence text
 * of one stanza), and the index of the first field-line word after that part (words.length when
 * none): the copy ends there, whatever a look past the window would take in.
 */
function stanzaOf(words: string[], lines: number[], start: number, end: number, fileLines: string[]): { start: number; end: number; limit: number } {
  const isField = (j: number): boolean => FIELD_LINE.test(fileLines[(lines[j] ?? 0) - 1] ?? '');
  let best = { start, end, size: -1 };
  let from = -1;
  for (let j = start; j <= end + 1; j++) {
    if (j <= end && !isField(j)) {
      if (from < 0) from = j;
      continue;
    }
    if (from >= 0 && j - from > best.size) best = { start: from, end: j - 1, size: j - from };
    from = -1;
  }
  if (best.size < 0) return { start, end, limit: words.length };
  let limit = best.end + 1;
  while (limit < words.length && !isField(limit)) limit++;
  return { start: best.start, end: best.end, limit };
}

function compareWith(key: string, words: string[], lines: number[], start: number, end: number, fileLines: string[]): Departure {
  const std = standardOf(key);
  if (!std || std.words.length === 0) return { verdict: 'standard', evidence: [] };
  const n = std.words.length;
  let region = words.slice(start, end + 1);
  let hunks = diffWords(std.words, region);
  // The matcher's window can also start late: in a notices file the licence before this one ends
  // with words this one opens with (a disclaimer, a title), and the window leaves them to it. When
  // the copy lacks only the standard's opening, look that far back and keep the longer alignment.
  const first = hunks[0];
  // (The alignment may pair a word or two of the neighbour with the opening by chance: a gap that
  // ends within EDGE_SLACK words of the edges counts as the opening missing.)
  if (first && first.b0 === first.b1 && first.b0 <= EDGE_SLACK && first.a0 <= EDGE_SLACK && first.a1 - first.a0 > EDGE_SLACK && start > 0) {
    const missing = first.a1;
    const from = Math.max(0, start - 2 * missing - LOOK_AHEAD);
    const wider = words.slice(from, end + 1);
    const wide = diffWords(std.words, wider);
    // Whatever precedes the standard text's first word is not part of it.
    const head = wide[0];
    const skip = head && head.a0 === 0 && head.a1 === 0 ? head.b1 : 0;
    if (skip > 0) wide.shift();
    if (matchedWords(wide, n) >= matchedWords(hunks, n) + missing / 2) {
      region = wider.slice(skip);
      hunks = wide.map((h) => ({ a0: h.a0, a1: h.a1, b0: h.b0 - skip, b1: h.b1 - skip }));
      start = from + skip;
    }
  }
  // The matcher's window stops where the standard text stops matching: when clauses were added in
  // the middle (a "no military use" condition before the disclaimer), the rest of the standard
  // text comes after the window. Look that far on, and keep the longer alignment.
  const last = hunks[hunks.length - 1];
  if (last && last.b0 === last.b1 && region.length - last.b1 <= EDGE_SLACK && n - last.a1 <= EDGE_SLACK && last.a1 - last.a0 > EDGE_SLACK && end + 1 < words.length) {
    const missing = n - last.a0;
    const wider = words.slice(start, Math.min(words.length, end + 1 + 2 * missing + LOOK_AHEAD));
    const wide = diffWords(std.words, wider);
    // Whatever follows the standard text's last word is not part of it.
    const tail = wide[wide.length - 1];
    if (tail && tail.a0 === n && tail.a1 === n) wide.pop();
    // The rest must follow as one block after what was added, not as words gathered from whatever
    // comes next (the following licence of a bundled notices file).
    const after = wide.filter((h) => h.a1 > last.a0);
    const added = after.reduce((most, h) => Math.max(most, h.b1 - h.b0), 0);
    const scattered = after.filter((h) => h.b1 - h.b0 > SCATTER && h.b1 - h.b0 < added).length;
    const lost = after.reduce((sum, h) => sum + Math.max(0, h.a1 - Math.max(h.a0, last.a0)), 0);
    // The copy's own rest, read word by word from where the window stopped: when a following
    // licence repeats these sentences (the same disclaimer), a whole-window alignment can pair the
    // standard's words with that copy instead and make this one look changed.
    const own = followOn(std.words, last.a0, words, end + 1);
    if (own > end + 1) {
      region = words.slice(start, own);
      hunks = diffWords(std.words, region);
    } else if (scattered === 0 && lost <= missing * 0.2 && matchedWords(wide, n) >= matchedWords(hunks, n) + missing / 2) {
      region = wider.slice(0, wide.length && wide[wide.length - 1]!.a1 === n ? wide[wide.length - 1]!.b1 : lastEqual(wide, wider.length, n));
      hunks = wide;
    }
  }
  const isCopyrightLine = new Map<number, boolean>();
  const fileFree = (i: number): boolean => {
    const line = lines[start + i] ?? 0;
    let v = isCopyrightLine.get(line);
    if (v === undefined) {
      const text = fileLines[line - 1] ?? '';
      v = COPYRIGHT_LINE.test(text) || (ADDRESS_LINE.test(text) && text.length < 80);
      isCopyrightLine.set(line, v);
    }
    return v;
  };
  const optionalTail = std.tailStart < n;
  let negation = 0;
  let truncated: Hunk | undefined;
  const judged: Judged[] = [];
  for (const h of mergeClose(hunks)) {
    const deletion = h.b0 === h.b1;
    // The standard's optional head and tail may be missing or different; the matcher's window
    // may also stop a few words short of either end.
    if (h.a1 <= std.headEnd + EDGE_SLACK) continue;
    if (optionalTail && h.a0 >= std.tailStart - EDGE_SLACK) continue;
    if (deletion && (h.a0 === 0 || h.a1 === n) && h.a1 - h.a0 <= EDGE_SLACK) continue;
    const del: string[] = [];
    const ins: string[] = [];
    for (let i = h.a0; i < h.a1; i++) if (!std.free[i] && !BULLET.test(std.words[i] ?? '')) del.push(std.words[i] ?? '');
    for (let j = h.b0; j < h.b1; j++) if (!fileFree(j) && !BULLET.test(region[j] ?? '') && !YEAR.test(region[j] ?? '')) ins.push(region[j] ?? '');
    if (del.length === 0 && ins.length === 0) continue;
    if (PHRASES.has(`${del.join(' ')}|${ins.join(' ')}`)) continue;
    // Markup a copy was converted to: the targets of Markdown links ("[Article 5](#article-5---scope)")
    // and bare URLs in angle brackets add words that are not licence text.
    if (del.length === 0 && linkWords(h, lines, start, fileLines, ins)) continue;
    // Words the copy adds that are themselves a run of the standard text: the alignment paired the
    // standard's words with a second copy further on (the next licence of a notices file repeats
    // the same disclaimer), so this copy's own words look added. Repeating the terms changes nothing.
    if (del.length === 0 && ins.length >= REPEAT_MIN && repeatsStandard(ins, std)) continue;
    // A copy that stops before the closing warranty disclaimer: the grant and every condition are
    // there, so it is still that licence, but only partially, and the score says so.
    if (deletion && h.a1 === n && h.a0 >= std.disclaimerStart - EDGE_SLACK) {
      truncated = h;
      continue;
    }
    // Added lines that name a licence ("Alternatively, this software may be distributed under the
    // terms of the GNU General Public License") offer a choice of licence or are a notice next to
    // the text; the reference finder reports that licence on its own.
    if (ins.length > 0 && namesLicence(h, lines, start, fileLines)) continue;
    const ok = allowed(del, ins, h, n);
    if (ok) {
      for (const w of ins) if (NEGATION.has(w) && w !== 'nor') negation++;
      for (const w of del) if (NEGATION.has(w) && w !== 'nor') negation--;
    }
    judged.push({ hunk: h, allowed: ok });
  }
  // A negation added in one place and dropped in another ("Neither the name of ... nor" → "The
  // name of ... may not") is the same rule reworded; a net change turns a permission around.
  const differing = judged.filter((j) => !j.allowed || (negation !== 0 && hasNegation(j.hunk, std.words, region)));
  const lastLine = lines[start + region.length - 1];
  if (differing.length > 0) {
    // Where the standard text goes on but the copy's matching part ends, what the copy says
    // instead is the lines right after it.
    const cut = differing.some((j) => j.hunk.a1 === n && j.hunk.b1 === region.length && j.hunk.a1 - j.hunk.a0 > EDGE_SLACK);
    const instead = cut ? followingLines(fileLines, lastLine ?? 0) : [];
    return { verdict: 'modified', lastLine, evidence: evidenceOf(differing.map((j) => j.hunk), std, lines, start, fileLines, instead) };
  }
  if (truncated) return { verdict: 'partial', evidence: evidenceOf([truncated], std, lines, start, fileLines) };
  return { verdict: 'standard', evidence: [] };
}

/** Standard words the alignment pairs with the copy's. */
function matchedWords(hunks: Hunk[], n: number): number {
  return hunks.reduce((left, h) => left - (h.a1 - h.a0), n);
}

/** Index in the copy just after its word paired with the standard's last word. */
function lastEqual(hunks: Hunk[], length: number, n: number): number {
  const h = hunks[hunks.length - 1];
  if (!h) return Math.min(length, n);
  return h.b1 + (n - h.a1);
}

// Differences separated by a word or two ("the", "and" matched by chance inside a rewritten
// sentence) are one difference.
const CLOSE = 2;

function mergeClose(hunks: Hunk[]): Hunk[] {
  const out: Hunk[] = [];
  for (const h of hunks) {
    const last = out[out.length - 1];
    if (last && h.a0 - last.a1 <= CLOSE && h.b0 - last.b1 <= CLOSE) {
      last.a1 = h.a1;
      last.b1 = h.b1;
    } else out.push({ ...h });
  }
  return out;
}

const LINK_TARGET = /\]\(([^)\s]*)\)|<(https?:[^>\s]*)>/g;

/** Whether every added word comes from link targets on the hunk's lines. */
function linkWords(h: Hunk, lines: number[], start: number, fileLines: string[], ins: string[]): boolean {
  const from = lines[start + h.b0] ?? 1;
  const to = lines[start + h.b1 - 1] ?? from;
  const targets = new Set<string>();
  for (const line of fileLines.slice(from - 1, to)) {
    for (const m of line.matchAll(LINK_TARGET)) for (const w of tokenize((m[1] ?? m[2] ?? '').replace(/[-_#/.:]+/g, ' ')).words) targets.add(w);
  }
  return targets.size > 0 && ins.every((w) => targets.has(w));
}

const REPEAT_MIN = 4;
// Words skipped on either side to find the standard text again (a replaced name).
const SYNC = 8;

/**
 * Follows the standard's words from `from` through the file's words from `at`, skipping short
 * replaced stretches, and returns the file index just after the copy's last word when the standard
 * text runs to its end (within EDGE_SLACK words); -1 when it does not.
 */
function followOn(std: string[], from: number, words: string[], at: number): number {
  let i = from;
  let j = at;
  let after = -1;
  while (i < std.length && j < words.length) {
    if (std[i] === words[j]) {
      i++;
      j++;
      after = j;
      continue;
    }
    let synced = false;
    for (let di = 0; di <= SYNC && !synced; di++) {
      for (let dj = 0; dj <= SYNC && !synced; dj++) {
        if ((di || dj) && std[i + di] !== undefined && std[i + di] === words[j + dj] && std[i + di + 1] === words[j + dj + 1]) {
          i += di;
          j += dj;
          synced = true;
        }
      }
    }
    if (!synced) break;
  }
  return i >= std.length - EDGE_SLACK ? after : -1;
}

/** Whether `ins` occurs as a contiguous run of the standard's words. */
function repeatsStandard(ins: string[], std: Standard): boolean {
  const first = ins[0];
  for (let i = std.words.indexOf(first ?? ''); i >= 0 && i + ins.length <= std.words.length; i = std.words.indexOf(first ?? '', i + 1)) {
    let k = 1;
    while (k < ins.length && std.words[i + k] === ins[k]) k++;
    if (k === ins.length) return true;
  }
  return false;
}

function namesLicence(h: Hunk, lines: number[], start: number, fileLines: string[]): boolean {
  const from = lines[start + h.b0] ?? 1;
  const to = lines[start + h.b1 - 1] ?? from;
  return findReferences(fileLines.slice(from - 1, to).join('\n')).length > 0;
}

function hasNegation(h: Hunk, a: string[], b: string[]): boolean {
  for (let i = h.a0; i < h.a1; i++) if (NEGATION.has(a[i] ?? '')) return true;
  for (let j = h.b0; j < h.b1; j++) if (NEGATION.has(b[j] ?? '')) return true;
  return false;
}

function allowed(del: string[], ins: string[], h: Hunk, n: number): boolean {
  if (del.length === 0 && ins.length === 0) return true;
  // Missing standard text at the very start or end that is not the optional head or tail: a
  // truncated copy (the disclaimer cut off) is not the standard licence.
  if (ins.length === 0 && (h.a0 === 0 || h.a1 === n)) return del.length <= EDGE_SLACK;
  if (del.length === 1 && ins.length === 1 && equivalent.has(`${del[0]} ${ins[0]}`)) return true;
  const normative = (ws: string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const w of ws) if (NORMATIVE.has(w)) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const before = normative(del);
  const after = normative(ins);
  // A rule word the copy adds that the standard did not have there: a new or changed clause.
  for (const [w, n] of after) if (n > (before.get(w) ?? 0)) return false;
  if (del.length === 0) return ins.length <= NAME_INSERT;
  // What the copy drops or replaces is a name ("the copyright holder nor the names of its
  // contributors") or a few words; dropping more than that ("without modification, immediately at
  // the beginning of the file") drops part of a condition.
  const unnamed = del.filter((w) => !NAME_WORDS.has(w)).length;
  if (ins.length === 0) {
    // A rule word dropped, or more than a name: a deleted clause.
    if (before.size > 0) return false;
    return del.length <= NAME_DELETE && unnamed <= SMALL_CHANGE;
  }
  for (const [w, n] of before) if (n > (after.get(w) ?? 0) && del.length > NAME_DELETE) return false;
  return ins.length <= NAME_REPLACE && del.length <= NAME_REPLACE && unnamed <= Math.max(SMALL_CHANGE, ins.length);
}

/**
 * The lines that differ, hunk by hunk: "+ " the file's lines holding added or changed words, "− " the
 * standard's lines holding words the copy lacks. A line counts when it holds at least two of those
 * words (or is that short), so a word the alignment happened to pair elsewhere does not drag in a
 * line that is the same in both.
 */
function evidenceOf(hunks: Hunk[], std: Standard, lines: number[], start: number, fileLines: string[], instead: number[] = []): string[] {
  const clip = (s: string): string => (s.length > EVIDENCE_CHARS ? `${s.slice(0, EVIDENCE_CHARS - 1)}…` : s);
  const clean = (raw: string): string => raw.trim().replace(/^(\/\/+|#+|\*+|\/\*+|;+|--|dnl\b|>)\s*/, '');
  const counts = (from: number, to: number, lineOf: (i: number) => number): Map<number, number> => {
    const m = new Map<number, number>();
    for (let i = from; i < to; i++) m.set(lineOf(i), (m.get(lineOf(i)) ?? 0) + 1);
    return m;
  };
  const added: string[] = [];
  const lost: string[] = [];
  const seen = new Set<string>();
  const take = (into: string[], key: string, prefix: string, raw: string): void => {
    const text = clean(raw);
    if (!text || seen.has(key)) return;
    seen.add(key);
    into.push(clip(`${prefix}${text}`));
  };
  for (const h of hunks) {
    const least = Math.min(2, h.b1 - h.b0);
    for (const [line, n] of counts(h.b0, h.b1, (j) => lines[start + j] ?? 0)) {
      if (n >= Math.min(least, tokenize(fileLines[line - 1] ?? '').words.length)) take(added, `+${line}`, '+ ', fileLines[line - 1] ?? '');
    }
  }
  for (const line of instead) take(added, `+${line}`, '+ ', fileLines[line - 1] ?? '');
  for (const h of hunks) {
    const least = Math.min(2, h.a1 - h.a0);
    // Copyright lines and placeholders may differ freely: they are never evidence of a change.
    for (const [line, n] of counts(h.a0, h.a1, (i) => (std.free[i] ? -1 : (std.lines[i] ?? 0)))) {
      if (line >= 0 && n >= Math.min(least, tokenize(std.text[line] ?? '').words.length)) take(lost, `-${line}`, '\u2212 ', std.text[line] ?? '');
    }
  }
  // The copy's own lines first (what it adds or says instead), the lines opening a clause before
  // their continuations, so five lines show as many of the changes as they can.
  const opening = (line: string): boolean => BULLET_LINE.test(line.slice(2));
  const ordered = [...added.filter(opening), ...added.filter((l) => !opening(l)), ...lost.filter(opening), ...lost.filter((l) => !opening(l))];
  return ordered.slice(0, EVIDENCE_LINES);
}

/** Up to FOLLOWING non-blank lines (1-based) after `line`, within a short distance. */
function followingLines(fileLines: string[], line: number): number[] {
  const out: number[] = [];
  for (let l = line + 1; l <= Math.min(fileLines.length, line + 3 * FOLLOWING) && out.length < FOLLOWING; l++) {
    if (tokenize(fileLines[l - 1] ?? '').words.length > 0) out.push(l);
  }
  return out;
}
const FOLLOWING = 3;

// A line that opens a clause: "3.", "(a)", "b)", "-", "*".
const BULLET_LINE = /^(\(?[0-9]{1,2}[.)]|\(?[a-z][.)]|[-*•])\s/i;

/**
 * The finding for a text that is not the standard one: a modified copy under its own LicenseRef id
 * (nearest: the standard id), a partial copy under the standard id; both with a lowered score and
 * the differing lines as evidence.
 */
export function departureMatch(id: string, dice: number, startLine: number, endLine: number, departure: Departure): LicenseMatch {
  const cap = departure.verdict === 'modified' ? MODIFIED_MAX_SCORE : PARTIAL_MAX_SCORE;
  const score = Math.round(Math.min(cap, dice) * 1000) / 1000;
  const match: LicenseMatch = { spdx: id, score, startLine, endLine: Math.max(endLine, departure.lastLine ?? endLine), kind: 'text', evidence: departure.evidence };
  if (departure.verdict === 'modified') {
    match.spdx = modifiedId(id);
    match.nearest = id;
  }
  return match;
}

// Lines above a text that can be its title ("MIT License", "# BSD 2-Clause License with Additional
// Conditions").
const TITLE_LINES = 6;

/**
 * Whether a reference names the licence a modified text departs from, in that text or its title
 * ("The Software is provided under the terms of the MIT License with the following restrictions"):
 * the modified text is the finding; the name alone must not bring the standard licence back.
 */
export function namesModified(ref: LicenseMatch, found: LicenseMatch[]): boolean {
  return found.some((m) => {
    if (!m.nearest || ref.startLine < m.startLine - TITLE_LINES || ref.startLine > m.endLine) return false;
    return m.nearest === ref.spdx || m.nearest.startsWith(`${ref.spdx}-`);
  });
}
