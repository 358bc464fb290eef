// Licence text recognition: full licence texts and standard headers by shingle similarity, SPDX
// tags, and references by name ("under the GNU General Public License version 2").
//
// Matching works on word 3-shingles of normalised text (normalize-text.ts). The index, built once
// per recognizer on first use, holds every template (SPDX full texts, a few derived rewordings, the
// headers and exception texts of resources/licenses/headers.json) as a shingle set, plus an
// inverted index from each template's rarest shingles ("anchors") to the template. Scanning a file:
//   1. a keyword pre-filter rejects most source files without tokenising them;
//   2. anchors found in the file vote for candidate templates;
//   3. each candidate's hit positions are clustered, and each cluster trimmed to the window with the
//      best Sørensen–Dice similarity (repeated shingles do not count twice, so back-to-back copies
//      come out as separate regions);
//   4. regions are ranked (many matched shingles at high similarity first) and overlapping ones
//      dropped, so one file can yield several licences, each with its own line range;
//   5. each full text kept is compared word by word with its standard text (modified.ts): a copy
//      changed beyond the SPDX matching guidelines becomes LicenseRef-Cairn-modified-<id>;
//   6. name references and SPDX tags fill in what texts and headers did not explain.
import { normalizeDeclared } from './expression.ts';
import { bsdConditions, bsdTemplateConditions, decideByClauses, familyMembers, familyNames, familyOf, gfdlVariant, gnuGrant, gnuNamedNotGranted, parentLicences, textNames } from './families.ts';
import { isDeprecated, licenseHeaders, licenseIds, licenseText } from './knowledge.ts';
import { compareToStandard, departureMatch, namesModified } from './modified.ts';
import { tokenize } from './normalize-text.ts';
import { isLicenseList } from './license-lists.ts';
import { Marks, ShingleTable } from './shingles.ts';
import { findReferences } from './references.ts';

export interface LicenseMatch {
  spdx: string;
  /** Confidence 0–1: the Dice similarity for texts/headers, fixed values for tags and references. */
  score: number;
  startLine: number;
  endLine: number;
  kind: 'text' | 'header' | 'tag' | 'reference';
  /**
   * The file's own lines that decided the match, at most EVIDENCE_LINES of EVIDENCE_CHARS each: the
   * opening lines of a text or header, the tag or reference line, and for a modified text the lines
   * that differ from the standard one.
   */
  evidence?: string[];
  /** For a `LicenseRef-…` modified or partial text: the standard licence it is nearest to. */
  nearest?: string;
}

export const EVIDENCE_LINES = 5;
export const EVIDENCE_CHARS = 200;

/** Lines from..to (1-based, inclusive) of a text, trimmed, blank ones skipped, within the evidence limits. */
export function evidenceLines(text: string, from: number, to: number): string[] {
  const out: string[] = [];
  let line = 1;
  let start = 0;
  while (line < from && start >= 0) {
    start = text.indexOf('\n', start) + 1 || -1;
    line++;
  }
  while (start >= 0 && line <= to && out.length < EVIDENCE_LINES) {
    const end = text.indexOf('\n', start);
    const raw = text.slice(start, end < 0 ? undefined : end).trim();
    if (raw) out.push(raw.length > EVIDENCE_CHARS ? `${raw.slice(0, EVIDENCE_CHARS - 1)}…` : raw);
    start = end < 0 ? -1 : end + 1;
    line++;
  }
  return out;
}

export interface LicenseRecognizer {
  /**
   * Licences in one file's text, ordered by line. `fileName` is informational (callers pass it
   * for diagnostics); recognition looks at content only, since licence texts turn up in files of
   * any name (LICENSE, COPYING, NOTICE, headers of source files, README sections).
   */
  recognize(text: string, fileName?: string): LicenseMatch[];
}

interface Template {
  spdx: string;
  kind: 'text' | 'header';
  /** The template's distinct shingles, as shingle ids (see Index), in order of first occurrence. */
  shingles: Int32Array;
  /** Length of the template text in words. */
  words: number;
  /** Number of anchor shingles: the most votes a file can give this template. */
  rare: number;
}

interface Index {
  vocab: Map<string, number>;
  templates: Template[];
  /** Every shingle of any template, as a dense id 1..count (typed arrays index by it). */
  shingleIds: ShingleTable;
  /** Anchor shingle id → the templates it votes for, in template order. */
  postings: (Int32Array | undefined)[];
}

const SHINGLE = 3;
// Anchor shingles per template used for candidate voting (see buildIndex).
const ANCHORS = 48;
// Hits of one candidate further apart than this (in words) start a new cluster; wide enough to
// bridge a paragraph inserted into a licence (a GPL alternative inside a BSD notice).
const GAP = 64;
// Acceptance: Dice for full texts (common licences get COMMON_BONUS), stricter for short headers
// whose shared warranty paragraph alone would otherwise pass.
const MIN_DICE_TEXT = 0.62;
const MIN_DICE_HEADER = 0.8;
// A truncated copy is accepted on containment: nearly all of the region is template text.
const PARTIAL_MIN = 40;
const PARTIAL_CONTAINMENT = 0.85;
const PARTIAL_DICE = 0.35;
const GRANT_WORDS = new Set(['permission', 'permitted', 'granted', 'grant', 'grants', 'redistribution', 'redistribute', 'license', 'licensed', 'licenses', 'free', 'copying', 'distribute']);
// Clusters with more hits use the linear window search (the quadratic one is exact but slow).
const WINDOW_LIMIT = 800;
const MAX_FILE_CHARS = 8_000_000;
// Files above this size are scanned only around keyword lines (see segmentsOf).
const BIG_FILE = 64 * 1024;
const CONTEXT = 40;

// Cheap pre-filter: a file without any of these words cannot hold a licence text, header or tag.
const KEYWORDS = /licen[cs]|copyright|gpl|permission|warrant|redistribut|public domain|spdx|copyleft|granted|wtfpl|openssl|eric young/i;

// -or-later variants share their text with -only; a full text alone means the version it states.
function skipForText(id: string): boolean {
  return isDeprecated(id) || id.endsWith('-or-later') || id.endsWith('+');
}

const MAX_VOCAB = 1 << 17;

function shingleKey(a: number, b: number, c: number): number {
  return (a * MAX_VOCAB + b) * MAX_VOCAB + c;
}

// Common rewordings of popular licences that the SPDX list folds into one id but that are far
// enough from its single text to lose against an obscure near-duplicate (BSD-3-Clause "THE AUTHOR"
// copies scoring closer to BSD-3-Clause-HP than to BSD-3-Clause). Derived from the SPDX text.
const AUTHOR: [RegExp, string][] = [
  [/copyright holders and contributors/gi, 'author'],
  [/copyright holder or contributors/gi, 'author'],
  [/copyright holder/gi, 'author'],
];
const NAME_AUTHOR: [RegExp, string][] = [[/Neither the name of the copyright holder nor the names of its contributors may/i, 'The name of the author may not']];
const NAME_REGENTS: [RegExp, string][] = [
  [/copyright holders and contributors/gi, 'regents and contributors'],
  [/copyright holder or contributors/gi, 'regents or contributors'],
  [/Neither the name of the copyright holder/i, 'Neither the name of the University'],
];
const VARIANTS: [string, [RegExp, string][]][] = [
  ['BSD-3-Clause', AUTHOR],
  ['BSD-3-Clause', [...NAME_AUTHOR, ...AUTHOR]],
  ['BSD-3-Clause', NAME_REGENTS],
  ['BSD-2-Clause', AUTHOR],
  // The SPDX text appends a POSIX manual-page notice that ordinary copies do not carry.
  ['FreeBSD-DOC', [[/\n\s*Manual Pages[\s\S]*$/, '']]],
  // The SPDX LGPL-3.0 text carries the whole GPL-3.0 after it; a project's COPYING.LESSER is the
  // LGPL part alone (the GPL sits in COPYING), a sixth of the SPDX text, so it would match nothing.
  ['LGPL-3.0-only', [[/\n\s*GNU GENERAL PUBLIC LICENSE\s*\n\s*Version 3, 29 June 2007[\s\S]*$/, '']]],
];

// Ids that win near-ties against their rarer look-alikes (the "-HP", "-Tso" style variants).
const COMMON = new Set([
  'MIT', 'BSD-2-Clause', 'BSD-3-Clause', 'BSD-4-Clause', 'Apache-2.0', 'Apache-1.1', 'ISC', 'Zlib', 'GPL-2.0-only',
  'GPL-3.0-only', 'LGPL-2.1-only', 'LGPL-2.0-only', 'LGPL-3.0-only', 'AGPL-3.0-only', 'MPL-1.1', 'MPL-2.0', 'EPL-1.0',
  'EPL-2.0', 'CDDL-1.0', 'CDDL-1.1', 'BSL-1.0', 'Unlicense', 'CC0-1.0', 'X11',
  // The GFDL -invariants and -no-invariants ids share the plain text: the text alone is the plain licence.
  'GFDL-1.1-only', 'GFDL-1.2-only', 'GFDL-1.3-only',
]);
const COMMON_BONUS = 0.05;
// Copies of one text in a row that each get a region of their own (see flush in matchTemplates).
const MAX_COPIES = 64;
// Lines after a GFDL notice's licence name read for its invariant sections.
const GFDL_NOTICE_LINES = 4;
// A look-alike of the same family (families.ts) competes with the best text of a region when it
// covers most of that region at a similarity at most this far below; its clauses then decide.
const RIVAL_MARGIN = 0.15;
// Words before a region searched for the title line a copy set apart from the licence body.
const TITLE_CONTEXT = 24;
// Overlapping candidates tried when the first-ranked one is not the text's standard licence.
const ALTERNATIVES = 8;

// Look-alikes that differ from a common licence by one clause only: the common text wins the
// similarity race (it is shorter, and has COMMON_BONUS), but that clause, when the matched region
// carries it, names the licence. Matched on the region's normalised words.
const REFINE: { from: string; to: string; clause: RegExp }[] = [
  // The source-code clause of BSD-2-Clause-first-lines: "... and the following disclaimer as the
  // first lines of this file unmodified".
  { from: 'BSD-2-Clause', to: 'BSD-2-Clause-first-lines', clause: /\bdisclaimer as the first lines of this file unmodified\b/ },
  // BSD-4-Clause-UC is the original four-clause text with the University of California's
  // acknowledgement, alone (a second acknowledgement after it makes it a generic BSD-4-Clause).
  {
    from: 'BSD-4-Clause',
    to: 'BSD-4-Clause-UC',
    clause: /\bmust display the following acknowledge?ment this product includes software developed by the university of california berkeley and its contributors\b(?! this product includes)/,
  },
];

function buildIndex(): Index {
  const vocab = new Map<string, number>();
  const templates: Template[] = [];
  // Sized for the ~140,000 shingles of today's templates (it grows if there are more).
  const shingleIds = new ShingleTable(1 << 19);
  const inTemplate = new Marks();
  const add = (spdx: string, kind: 'text' | 'header', text: string): void => {
    const { words } = tokenize(text);
    if (words.length < SHINGLE + 2) return;
    const ids: number[] = [];
    for (const w of words) {
      let id = vocab.get(w);
      if (id === undefined) {
        id = vocab.size + 1;
        if (id >= MAX_VOCAB) throw new Error('licence vocabulary too large');
        vocab.set(w, id);
      }
      ids.push(id);
    }
    const shingles: number[] = [];
    inTemplate.clear(shingleIds.size + ids.length + 1);
    for (let i = 0; i + SHINGLE <= ids.length; i++) {
      const a = ids[i]!;
      const b = ids[i + 1]!;
      const c = ids[i + 2]!;
      let sid = shingleIds.get(a, b, c);
      if (sid === 0) {
        sid = shingleIds.size + 1;
        shingleIds.set(a, b, c, sid);
      }
      if (inTemplate.has(sid)) continue;
      inTemplate.add(sid);
      shingles.push(sid);
    }
    templates.push({ spdx, kind, shingles: Int32Array.from(shingles), words: words.length, rare: 0 });
  };
  for (const id of licenseIds()) if (!skipForText(id)) add(id, 'text', licenseText(id));
  for (const [id, texts] of Object.entries(licenseHeaders())) for (const t of texts) add(id, 'header', t);
  for (const [id, edits] of VARIANTS) add(id, 'text', edits.reduce((t, [re, to]) => t.replace(re, to), licenseText(id)));
  // Templates holding each shingle.
  const counts = new Int32Array(shingleIds.size + 1);
  for (const t of templates) for (const sh of t.shingles) counts[sh]!++;
  // Each template is found through its rarest shingles ("anchors"), so even a licence whose every
  // shingle is shared with look-alikes (BSD-3-Clause and its dozen variants) still gets votes.
  const lists: number[][] = [];
  templates.forEach((t, i) => {
    const anchors = rarest(t.shingles, counts, ANCHORS);
    t.rare = anchors.length;
    for (const sh of anchors) (lists[sh] ??= []).push(i);
  });
  const postings = Array.from({ length: shingleIds.size + 1 }, (_, sh) => (lists[sh] ? Int32Array.from(lists[sh]) : undefined));
  return { vocab, templates, shingleIds, postings };
}

/**
 * The `limit` shingles held by fewest templates, ties in the template's own order: what a stable
 * sort by count would keep, found by counting rather than sorting.
 */
function rarest(shingles: Int32Array, counts: Int32Array, limit: number): number[] {
  if (shingles.length <= limit) return [...shingles];
  const histogram = new Map<number, number>();
  for (const sh of shingles) histogram.set(counts[sh]!, (histogram.get(counts[sh]!) ?? 0) + 1);
  // The count at which the limit is reached: all rarer shingles are in, then this count's first ones.
  let below = 0;
  let cut = 0;
  for (const c of [...histogram.keys()].sort((a, b) => a - b)) {
    const n = histogram.get(c)!;
    if (below + n >= limit) {
      cut = c;
      break;
    }
    below += n;
  }
  let atCut = limit - below;
  const out: number[] = [];
  for (const sh of shingles) {
    const c = counts[sh]!;
    if (c < cut) out.push(sh);
    else if (c === cut && atCut > 0) {
      out.push(sh);
      atCut--;
    }
  }
  return out;
}

interface Region {
  template: number;
  start: number;
  end: number;
  matched: number;
  dice: number;
  /** Share of the region's shingles found in the template: high for a faithful partial copy. */
  containment: number;
}

// Scratch sets of matchTemplates, one per thread: recognition runs one file at a time.
/** The shingles of the candidate template being scored. */
const member = new Marks();
/** Distinct template shingles (by id) and other shingles (by −id) in a window. */
const seenShingles = new Marks();
const seenOthers = new Marks();

/**
 * Candidate regions of `words`. Fills `keys` with one key per shingle position: the shingle's id
 * when some template has it, a negative id of its own (one per distinct shingle) when none does,
 * 0 when a word of it is in no template.
 */
function matchTemplates(index: Index, words: string[], keys: Int32Array): Region[] {
  const n = words.length - SHINGLE + 1;
  if (n <= 0) return [];
  const ids = words.map((w) => index.vocab.get(w) ?? 0);
  const templateCount = index.templates.length;
  const votes = new Int32Array(templateCount);
  // Where each template's anchors were seen: its regions cannot lie much beyond them, so a big
  // notices file is not rescanned end to end for every candidate.
  const firstVote = new Int32Array(templateCount);
  const lastVote = new Int32Array(templateCount);
  // Templates in the order of their first vote.
  const candidates: number[] = [];
  const others = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const a = ids[i]!;
    const b = ids[i + 1]!;
    const c = ids[i + 2]!;
    if (!a || !b || !c) {
      keys[i] = 0;
      continue;
    }
    const sh = index.shingleIds.get(a, b, c);
    if (sh === 0) {
      // Not in any template, but it still counts as a distinct shingle of a window (Dice).
      const k = shingleKey(a, b, c);
      let other = others.get(k);
      if (other === undefined) others.set(k, (other = -(others.size + 1)));
      keys[i] = other;
      continue;
    }
    keys[i] = sh;
    const list = index.postings[sh];
    if (list) {
      for (const t of list) {
        if (votes[t]++ === 0) {
          candidates.push(t);
          firstVote[t] = i;
        }
        lastVote[t] = i;
      }
    }
  }
  const regions: Region[] = [];
  const shingleCount = index.shingleIds.size + 1;
  for (const ti of candidates) {
    const t = index.templates[ti]!;
    const v = votes[ti]!;
    if (v < Math.min(3, t.rare) || v < t.rare * 0.1) continue;
    member.clear(shingleCount);
    for (const sh of t.shingles) member.add(sh);
    const size = t.shingles.length;
    const floor = t.kind === 'header' ? MIN_DICE_HEADER : Math.min(PARTIAL_DICE, MIN_DICE_TEXT - COMMON_BONUS);
    // Cluster the positions that hit this template, then score the best window of each cluster.
    let hits: number[] = [];
    // Scores the best window of a cluster, then the parts of the cluster left on either side: a
    // licence copied twice in a row (or two BSD variants back to back) yields one region each.
    // depth bounds the splitting of what lies before each best window; what follows it is a chain
    // (a bundled LICENSE.md with the same MIT text twenty times over), followed up to MAX_COPIES.
    const flush = (cluster: number[], depth: number, chain = 0): void => {
      if (cluster.length < 6) return;
      // A shingle repeated in the cluster weighs once.
      const weights = new Int32Array(cluster.length);
      let distinctHits = 0;
      seenShingles.clear(shingleCount);
      for (let i = 0; i < cluster.length; i++) {
        const k = keys[cluster[i]!]!;
        if (seenShingles.has(k)) continue;
        seenShingles.add(k);
        weights[i] = 1;
        distinctHits++;
      }
      // No window of this cluster (nor of its parts) matches more than its distinct hits, so none
      // can reach the Dice scanSegment accepts: skip the window search (Dice is increasing in the
      // matched count and division rounds monotonically, so the bound is exact).
      if ((2 * distinctHits) / (distinctHits + size) < floor) return;
      const [from, to] = bestWindow(cluster, weights, size);
      seenShingles.clear(shingleCount);
      seenOthers.clear(others.size + 1);
      let distinct = 0;
      let unknown = false;
      let matched = 0;
      for (let i = cluster[from]!; i <= cluster[to]!; i++) {
        const k = keys[i]!;
        if (k > 0) {
          if (seenShingles.has(k)) continue;
          seenShingles.add(k);
          distinct++;
          if (member.has(k)) matched++;
        } else if (k < 0) {
          if (seenOthers.has(-k)) continue;
          seenOthers.add(-k);
          distinct++;
        } else if (!unknown) {
          // Shingles with a word foreign to every template count as one.
          unknown = true;
          distinct++;
        }
      }
      const dice = (2 * matched) / (distinct + size);
      const containment = matched / distinct;
      if (matched >= 6) regions.push({ template: ti, start: cluster[from]!, end: cluster[to]! + SHINGLE - 1, matched, dice, containment });
      if (depth < 4) flush(cluster.slice(0, from), depth + 1);
      if (depth < 4 && chain < MAX_COPIES) flush(cluster.slice(to + 1), depth, chain + 1);
    };
    const reach = Math.ceil(1.5 * t.words) + GAP;
    const from = Math.max(0, firstVote[ti]! - reach);
    const to = Math.min(n - 1, lastVote[ti]! + reach);
    for (let i = from; i <= to; i++) {
      const k = keys[i]!;
      if (k <= 0 || !member.has(k)) continue;
      if (hits.length > 0 && i - hits[hits.length - 1]! > GAP) {
        flush(hits, 0);
        hits = [];
      }
      hits.push(i);
    }
    flush(hits, 0);
  }
  return regions;
}

/**
 * Sub-range of a cluster's hit positions with the best approximate Dice against a template of
 * `size` shingles: neighbouring licences share phrases ("in no event shall the"), so a cluster can
 * run from one licence into the next and the window trims it back to the one that fits.
 */
function bestWindow(hits: number[], weights: Int32Array, size: number): [number, number] {
  const k = hits.length;
  if (k > WINDOW_LIMIT) return densestRun(hits, weights);
  // prefix[i] = weight of hits[0..i-1]; repeated shingles weigh 0 so a second copy adds nothing.
  const prefix = new Int32Array(k + 1);
  for (let i = 0; i < k; i++) prefix[i + 1] = prefix[i]! + weights[i]!;
  const at = Int32Array.from(hits);
  const total = prefix[k]!;
  let bestI = 0;
  let bestJ = k - 1;
  let bestScore = -1;
  for (let i = 0; i < k; i++) {
    const a = at[i]!;
    const before = prefix[i]!;
    // Bounds that skip what cannot beat the best score (exact: division rounds monotonically). A
    // window's weight x is at most its span (weights are 0 or 1, positions distinct), so its score
    // 2x / (span + size) is at most 2x / (x + size), which grows with x: from start i, x is at most
    // the weight left.
    const left = total - before;
    if ((2 * left) / (left + size) <= bestScore) continue;
    for (let j = i; j < k; j++) {
      const x = prefix[j + 1]! - before;
      const span = at[j]! - a + 1;
      const score = (2 * x) / (span + size);
      if (score > bestScore) {
        bestScore = score;
        bestI = i;
        bestJ = j;
      } else if ((j & 15) === 15 && (2 * left) / (span + left - x + size) <= bestScore) {
        // Every later end adds at least as much span as weight: at best all the weight left.
        break;
      }
    }
  }
  return [bestI, bestJ];
}

/**
 * Linear fallback for long clusters: the run maximising weighted hits − ½·span (Kadane), i.e.
 * the longest stretch where at least every other position is a new hit on the template.
 */
function densestRun(hits: number[], weights: Int32Array): [number, number] {
  let best: [number, number] = [0, hits.length - 1];
  let bestScore = -Infinity;
  let start = 0;
  let score = 0;
  for (let j = 0; j < hits.length; j++) {
    const gain = (weights[j] ?? 0) - (j === 0 ? 0.5 : 0.5 * ((hits[j] ?? 0) - (hits[j - 1] ?? 0)));
    if (j === 0 || score + gain < (weights[j] ?? 0) - 0.5) {
      start = j;
      score = (weights[j] ?? 0) - 0.5;
    } else score += gain;
    if (score > bestScore) {
      bestScore = score;
      best = [start, j];
    }
  }
  return best;
}

// Lines after a full text where a notice it embeds (an exhibit) may still sit.
const EXHIBIT_GAP = 8;
// Words after a GNU header region still read as part of its grant sentence.
const GRANT_TAIL = 16;

/**
 * The region to keep for `best`: itself, or a look-alike of the same licence family (families.ts)
 * matching the same stretch nearly as well whose distinguishing clauses (title, version, steward)
 * the stretch carries while the best template's own clauses are absent.
 */
function familyChoice(templates: Template[], regions: Region[], best: Region, words: string[]): Region {
  const t = templates[best.template];
  if (!t || t.kind !== 'text') return best;
  const family = familyOf(t.spdx);
  if (!family) return best;
  const span = best.end - best.start + 1;
  const rivals = regions.filter((o) => {
    const rt = templates[o.template];
    return o !== best && rt?.kind === 'text' && rt.spdx !== t.spdx && familyOf(rt.spdx) === family && o.dice >= best.dice - RIVAL_MARGIN && overlap(o, best) > 0.5 * span;
  });
  if (rivals.length === 0) return best;
  // BSD variants: the conditions the text lists must be the variant's own.
  if (family === 'BSD') {
    const listed = bsdConditions(words.slice(best.start, best.end + 1).join(' '));
    if (listed !== undefined && bsdTemplateConditions(t.spdx) !== listed) return rivals.find((o) => bsdTemplateConditions(templates[o.template]?.spdx ?? '') === listed) ?? best;
  }
  const from = Math.max(0, Math.min(best.start, ...rivals.map((o) => o.start)) - TITLE_CONTEXT);
  const to = Math.max(best.end, ...rivals.map((o) => o.end));
  const chosen = decideByClauses([t.spdx, ...rivals.map((o) => templates[o.template]?.spdx ?? '')], words.slice(from, to + 1).join(' '));
  if (!chosen || chosen === t.spdx) return best;
  // Several regions of the chosen template (variants): the best-ranked one, first in `regions`.
  return rivals.find((o) => templates[o.template]?.spdx === chosen) ?? best;
}

function gnuFamily(id: string): string {
  return id.replace(/-\d.*$/, '');
}

function overlap(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start) + 1);
}

/** Licence and exception ids of an expression, in order. */
function idsWithExceptions(expression: string): string[] {
  return expression.split(/[\s()]+/).filter((t, i, all) => t && !/^(AND|OR|WITH)$/.test(t) && all.indexOf(t) === i);
}

function findTags(text: string): LicenseMatch[] {
  const out: LicenseMatch[] = [];
  const re = /SPDX-License-Identifier\s*:\s*([^\n]*)/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const raw = (m[1] ?? '').replace(/\*\/.*$|-->.*$|["',;]+\s*$/g, '').trim();
    const expr = normalizeDeclared(raw);
    if (!expr) continue;
    const line = text.slice(0, m.index).split('\n').length;
    for (const id of idsWithExceptions(expr)) out.push({ spdx: id, score: 1, startLine: line, endLine: line, kind: 'tag' });
  }
  return out;
}

/** Texts, headers and references in one stretch of a file; lines are offset to file lines. */
function scanSegment(index: Index, body: string, lineOffset: number, out: LicenseMatch[]): void {
  // Tokenised once: the matcher, the name references and the family names read the same words.
  const tokens = tokenize(body);
  const { words, lines } = tokens;
  const templates = index.templates;
  const rank = (r: Region): number => {
    const d = Math.min(1, r.dice + (COMMON.has(templates[r.template]?.spdx ?? '') ? COMMON_BONUS : 0));
    return r.matched * d * d;
  };
  const keys = new Int32Array(Math.max(0, words.length - SHINGLE + 1));
  const regions = matchTemplates(index, words, keys).filter((r) => {
    const t = templates[r.template];
    if (!t) return false;
    // A truncated or partial copy (first clauses of a BSD text) scores low on Dice but is
    // almost entirely made of the template's shingles.
    if (t.kind === 'text' && r.matched >= PARTIAL_MIN && r.containment >= PARTIAL_CONTAINMENT && r.dice >= PARTIAL_DICE) return true;
    return t.kind === 'header' ? r.dice >= MIN_DICE_HEADER : r.dice + (COMMON.has(t.spdx) ? COMMON_BONUS : 0) >= MIN_DICE_TEXT;
  });
  // Best explanation first: many matched shingles at high similarity; on a tie (identical texts
  // under two ids) the common id.
  const common = (r: Region): number => (COMMON.has(templates[r.template]?.spdx ?? '') ? 1 : 0);
  regions.sort((a, b) => rank(b) - rank(a) || common(b) - common(a));
  const kept: Region[] = [];
  // Rejected when mostly inside one better region, or mostly covered by several (a look-alike
  // straddling the end of one licence and the start of the next).
  const rejected = (r: Region): boolean => {
    const covered = kept.reduce((sum, k) => sum + overlap(k, r), 0);
    return covered > 0.5 * (r.end - r.start + 1) || kept.some((k) => overlap(k, r) > 0.5 * (k.end - k.start + 1));
  };
  for (const candidate of regions) {
    if (rejected(candidate)) continue;
    const r = familyChoice(templates, regions, candidate, words);
    kept.push(r !== candidate && rejected(r) ? candidate : r);
  }
  // A licence text grants something; a region without any grant word is a stray disclaimer
  // ("THIS SOFTWARE IS PROVIDED AS IS ...") that many licences share, not a licence of its own.
  for (let i = kept.length - 1; i >= 0; i--) {
    const r = kept[i];
    if (!r || templates[r.template]?.kind !== 'text') continue;
    let grants = false;
    for (let w = r.start; w <= r.end && !grants; w++) grants = GRANT_WORDS.has(words[w] ?? '');
    if (!grants) kept.splice(i, 1);
  }
  const found: LicenseMatch[] = [];
  let bodyLines: string[] | undefined;
  for (const r of kept) {
    const t = templates[r.template];
    if (!t) continue;
    const startLine = lines[r.start] ?? 1;
    const endLine = lines[r.end] ?? 1;
    let spdx = t.spdx;
    if (t.kind === 'text') {
      const refined = REFINE.find((f) => f.from === spdx);
      if (refined && refined.clause.test(words.slice(r.start, r.end + 1).join(' '))) spdx = refined.to;
      // A text that departs from the standard one beyond what the SPDX matching guidelines allow
      // (or a copy cut short of its terms) is a licence of its own, nearest to this one.
      // When the candidate ranked first does not fit but an overlapping one is its standard text
      // word for word (a plain MIT text that outranked as MIT-0), that one is the licence.
      bodyLines ??= body.split('\n');
      const departure = compareToStandard(spdx, words, lines, r.start, r.end, bodyLines);
      if (departure.verdict !== 'standard') {
        const fits = (o: Region): boolean => compareToStandard(templates[o.template]?.spdx ?? '', words, lines, o.start, o.end, bodyLines!).verdict === 'standard';
        const alt = regions.filter((o) => o !== r && templates[o.template]?.kind === 'text' && overlap(o, r) > 0.5 * (r.end - r.start + 1)).slice(0, ALTERNATIVES).find(fits);
        if (alt) spdx = templates[alt.template]?.spdx ?? spdx;
        else {
          found.push(departureMatch(spdx, r.dice, startLine, endLine, departure));
          continue;
        }
      }
    }
    // A notice of one family member read as another's (the MPL-1.1 notice with "Netscape Public
    // License" or "Common Public Attribution License" in it): the name it carries decides.
    if (t.kind === 'header' && !/^(A|L)?GPL-/.test(spdx) && familyOf(spdx)) {
      const named = decideByClauses([spdx, ...familyMembers(spdx)], words.slice(Math.max(0, r.start - TITLE_CONTEXT), r.end + 1 + GRANT_TAIL).join(' '));
      if (named) spdx = named;
    }
    // GNU headers differ from each other by little more than a name and a version number, which a
    // few shingles cannot weigh reliably: the notice's grant sentence decides the exact id (GPL,
    // LGPL or AGPL, version, "or any later version"), read a few words past the region since the
    // template may stop at "or (at your option)" before "any later version.".
    if (t.kind === 'header' && /^(A|L)?GPL-/.test(spdx)) {
      const grant = gnuGrant(words.slice(r.start, r.end + 1 + GRANT_TAIL).join(' '));
      if (grant) spdx = grant.spdx;
      else {
        bodyLines ??= body.split('\n');
        const stated = findReferences(bodyLines.slice(startLine - 1, endLine).join('\n')).find((m) => m.score >= 0.8 && gnuFamily(m.spdx) === gnuFamily(spdx));
        if (stated) spdx = stated.spdx;
      }
    }
    // Header keys may be expressions (a dual-licence notice): one match per licence or exception.
    for (const id of spdx.includes(' ') ? idsWithExceptions(spdx) : [spdx]) found.push({ spdx: id, score: Math.round(r.dice * 1000) / 1000, startLine, endLine, kind: t.kind });
  }
  // A text judged against a longer context (modified.ts looks past the matcher's window) can cover a
  // look-alike that matched only its tail, such as a shared disclaimer: that remnant is not a
  // modified licence of its own.
  for (let i = found.length - 1; i >= 0; i--) {
    const m = found[i]!;
    if (m.kind === 'text' && m.nearest && found.some((o) => o !== m && o.kind === 'text' && o.startLine <= m.startLine && m.endLine <= o.endLine && o.endLine - o.startLine > m.endLine - m.startLine)) found.splice(i, 1);
  }
  // A full text carries its own standard notice (Apache-2.0's appendix, the GPL's "How to Apply"):
  // that header is part of the text match, not a second finding of the same licence.
  for (let i = found.length - 1; i >= 0; i--) {
    const h = found[i]!;
    if (h.kind === 'header' && found.some((t) => t.kind === 'text' && t.spdx === h.spdx && t.startLine <= h.endLine && h.startLine <= t.endLine)) {
      const text = found.find((t) => t.kind === 'text' && t.spdx === h.spdx && t.startLine <= h.endLine && h.startLine <= t.endLine)!;
      text.endLine = Math.max(text.endLine, h.endLine);
      found.splice(i, 1);
      continue;
    }
    // The text of a family member that embeds another's notice (NPL-1.1 ends with the MPL 1.1
    // Exhibit A): that notice, inside or right after the text, is the text's own.
    const host = h.kind === 'header' ? found.find((t) => t.kind === 'text' && t.spdx !== h.spdx && familyOf(t.spdx) !== undefined && familyOf(t.spdx) === familyOf(h.spdx) && h.startLine >= t.startLine && h.startLine <= t.endLine + EXHIBIT_GAP && textNames(t.spdx, h.spdx)) : undefined;
    if (host) {
      host.endLine = Math.max(host.endLine, h.endLine);
      found.splice(i, 1);
    }
  }
  // Name references only where no text, header or tag already explains the lines.
  const tags = out.filter((m) => m.kind === 'tag').map((m) => ({ ...m, startLine: m.startLine - lineOffset, endLine: m.endLine - lineOffset }));
  // A reference inside a matched text is usually the text naming itself ("See the GNU General
  // Public License"); it only counts when its words are foreign to that text (a GPL alternative
  // written into a BSD notice).
  const foreign = (ref: LicenseMatch, r: Region): boolean => {
    const t = templates[r.template];
    if (!t) return false;
    member.clear(index.shingleIds.size + 1);
    for (const sh of t.shingles) member.add(sh);
    let total = 0;
    let inside = 0;
    for (let i = 0; i < keys.length; i++) {
      const line = lines[i] ?? 0;
      if (line < ref.startLine || line > ref.endLine) continue;
      total++;
      const k = keys[i]!;
      if (k > 0 && member.has(k)) inside++;
    }
    return total > 0 && inside / total < 0.5;
  };
  const named: LicenseMatch[] = familyNames(body, tokens).map((n) => ({ ...n, kind: 'reference' }));
  for (const ref of [...findReferences(body, tokens), ...named]) {
    if (tags.some((m) => m.startLine <= ref.endLine && ref.startLine <= m.endLine)) continue;
    if (namesModified(ref, found)) continue;
    const covering = kept.filter((r) => (lines[r.start] ?? 0) <= ref.endLine && ref.startLine <= (lines[r.end] ?? 0));
    if (covering.some((r) => !foreign(ref, r) || gnuFamily(templates[r.template]?.spdx ?? '') === gnuFamily(ref.spdx))) continue;
    found.push(ref);
  }
  // "The License is based on the Mozilla Public License Version 1.1": in a notice of another member
  // of the family, the parent's name says where the licence comes from, not which one applies.
  for (let i = found.length - 1; i >= 0; i--) {
    const m = found[i]!;
    if (m.kind !== 'reference' || !familyOf(m.spdx)) continue;
    const sibling = found.some((o) => o !== m && o.spdx !== m.spdx && familyOf(o.spdx) === familyOf(m.spdx) && o.startLine <= m.endLine + 2 && m.startLine <= o.endLine + 2);
    if (!sibling) continue;
    bodyLines ??= body.split('\n');
    if (parentLicences(bodyLines.slice(m.startLine - 1, m.endLine).join('\n')).has(m.spdx)) found.splice(i, 1);
  }
  for (const m of found) out.push({ ...m, startLine: m.startLine + lineOffset, endLine: m.endLine + lineOffset });
}

// Lines that can belong to a licence text; used to cut big files down to the parts worth scanning.
const KEYWORD_LINE = /licen[cs]|copyright|warrant|permission|permitted|redistribut|spdx|gpl|granted|liabil|merchantab|public domain|notice|wtfpl|openssl|eric young/i;

/**
 * Line ranges of a big file worth scanning: every keyword line with CONTEXT lines around it.
 * Licence prose mentions these words every few lines, so nothing of a real licence is cut, while
 * bundled code and data (most of a multi-megabyte file) is skipped.
 */
function segmentsOf(text: string): [number, number][] {
  const lines = text.split('\n');
  const out: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!KEYWORD_LINE.test(lines[i] ?? '')) continue;
    const from = Math.max(0, i - CONTEXT);
    const to = Math.min(lines.length - 1, i + CONTEXT);
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

// One index per process (or worker thread): it takes a second or two to build and is read-only,
// so every recognizer shares it.
let sharedIndex: Index | undefined;

export function createLicenseRecognizer(): LicenseRecognizer {
  let index: Index | undefined;
  return {
    recognize(text: string): LicenseMatch[] {
      if (!KEYWORDS.test(text)) return [];
      // A list of licences (classifier lists, SPDX id arrays, licence databases) grants none.
      if (isLicenseList(text)) return [];
      let body = text.length > MAX_FILE_CHARS ? text.slice(0, MAX_FILE_CHARS) : text;
      // Binaries (NUL bytes early on) can still embed licence notices as strings: control bytes
      // become line breaks so the strings read as text; line numbers are then only indicative.
      if (body.slice(0, 8192).includes('\0')) body = body.replace(/[^\t\n\r\f -\uffff]+/g, '\n');
      index ??= sharedIndex ??= buildIndex();
      const out: LicenseMatch[] = findTags(body);
      if (body.length <= BIG_FILE) scanSegment(index, body, 0, out);
      else {
        const lines = body.split('\n');
        for (const [from, to] of segmentsOf(body)) scanSegment(index, lines.slice(from, to + 1).join('\n'), from, out);
      }
      // An unversioned "GNU GPL" mention next to a versioned GPL match is the same licence.
      const final = out.filter((m) => !(m.kind === 'reference' && m.score < 0.6 && out.some((o) => o.score > m.score && gnuFamily(o.spdx) === gnuFamily(m.spdx) && o.spdx !== m.spdx)));
      // "On Debian systems the complete text of the GNU General Public License can be found in
      // /usr/share/common-licenses/GPL-2" right after a GPL notice points at the same licence.
      const base = (id: string): string => id.replace(/-(only|or-later)$/, '');
      // Such a pointer only says where texts are installed, so it also goes with a notice of
      // another member of the family ("... /usr/share/common-licenses/LGPL-2 and version 3 in
      // /usr/share/common-licenses/LGPL-3" after an LGPL-2.0-or-later notice).
      let textLines: string[] | undefined;
      const pointer = (m: LicenseMatch): boolean => /\/common-licenses\//i.test((textLines ??= body.split('\n'))[m.startLine - 1] ?? '');
      const sameLicence = (o: LicenseMatch, m: LicenseMatch): boolean => base(o.spdx) === base(m.spdx) || (familyOf(o.spdx) !== undefined && familyOf(o.spdx) === familyOf(m.spdx) && pointer(m));
      const absorbed = final.filter((m) => !(m.kind === 'reference' && final.some((o) => o.kind !== 'reference' && o.kind !== 'tag' && sameLicence(o, m) && m.startLine >= o.startLine && m.startLine - o.endLine <= 8)));
      // A GNU version named only as the object of an exception or refusal, in a file that grants
      // another GNU licence, is not a second grant.
      const refused = (m: LicenseMatch): boolean =>
        m.kind === 'reference' && familyOf(m.spdx) === 'GNU' && absorbed.some((o) => o !== m && o.spdx !== m.spdx && familyOf(o.spdx) === 'GNU') && gnuNamedNotGranted((textLines ??= body.split('\n')).slice(m.startLine - 1, m.endLine).join('\n'));
      const granted = absorbed.filter((m) => !refused(m));
      // A full GPL/LGPL text next to an "or any later version" notice is the text that notice
      // refers to, not a second, version-only grant.
      const result = granted.filter((m) => !(m.kind !== 'tag' && m.kind !== 'header' && m.spdx.endsWith('-only') && granted.some((o) => o.spdx === m.spdx.replace(/-only$/, '-or-later'))));
      result.sort((a, b) => a.startLine - b.startLine || b.score - a.score);
      let bodyLines: string[] | undefined;
      for (const m of result) {
        // A GFDL notice's next lines say whether it has invariant sections (families.ts).
        if ((m.kind === 'header' || m.kind === 'reference') && m.spdx.startsWith('GFDL-')) {
          bodyLines ??= body.split('\n');
          m.spdx = gfdlVariant(m.spdx, bodyLines.slice(m.startLine - 1, m.endLine + GFDL_NOTICE_LINES).join(' ').replace(/[\s*#;/]+/g, ' '));
        }
        m.evidence ??= evidenceLines(body, m.startLine, m.endLine);
      }
      return result;
    },
  };
}
