// Text normalisation shared by the licence index and the files it scans: both sides must go through
// exactly the same steps or shingles stop lining up. Comment markers (m4's "dnl" too), punctuation,
// markup and case are dropped; a few spelling variants are folded (licence/license) so British and
// American copies of a text compare equal.

export interface Tokens {
  /** Normalised words, in order. */
  words: string[];
  /** 1-based line of each word in the original text. */
  lines: number[];
}

// Markup tags (HTML licence pages, docbook) carry no licence words; newlines inside tags are rare
// and are excluded so line numbers stay right.
const TAG = /<\/?[a-zA-Z!][^<>\n]{0,200}>/g;

// A Map, not an object literal: the word "constructor" must not find Object.prototype's.
const FOLD = new Map<string, string>([
  ['licence', 'license'],
  ['licences', 'licenses'],
  ['licenced', 'licensed'],
  ['licencing', 'licensing'],
  ['authorised', 'authorized'],
  ['organisation', 'organization'],
  ['copyrighted', 'copyright'],
  ['http', ''],
  ['https', ''],
  ['www', ''],
]);

// m4's comment marker at the start of a line (see tokenize).
const DNL = /(?<=^|\n)[^\S\n]*dnl\b/g;

/**
 * Words of a text, each with its line. One pass over the whole text (licence-dense files are
 * tokenised often, and per-line slicing and a regular expression per word cost more than the
 * words themselves): every rewrite below stays within a line, so applying it to the whole text
 * is the same as applying it line by line.
 */
export function tokenize(text: string): Tokens {
  const words: string[] = [];
  const lines: number[] = [];
  // Lower-casing never adds or removes a line break, so lines stay where they were.
  let s = (text.includes('<') ? text.replace(TAG, ' ') : text).toLowerCase();
  // "GPLv2+", "GPL-2.0+": keep the plus as a word, references read it as "or later".
  if (s.includes('+')) s = s.replace(/([0-9])\+/g, '$1 orlater ');
  // A notice printed by a program sits in string literals: "either version 2 of the License, or \n"
  // must not read as the word "n" between "or" and "at your option".
  if (s.includes('\\')) s = s.replace(/\\[ntr]/g, ' ');
  // m4's comment marker is a word ("dnl This file is free software"), not punctuation like "#"
  // or "//": dropped at the start of a line, or it splits every line of a notice in autoconf macros.
  if (s.includes('dnl')) s = s.replace(DNL, ' ');
  let line = 1;
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 10) line++;
    else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      let j = i + 1;
      for (let d = s.charCodeAt(j); (d >= 97 && d <= 122) || (d >= 48 && d <= 57); d = s.charCodeAt(++j));
      const raw = s.slice(i, j);
      const w = FOLD.get(raw) ?? raw;
      if (w) {
        words.push(w);
        lines.push(line);
      }
      i = j;
      continue;
    }
    i++;
  }
  return { words, lines };
}
