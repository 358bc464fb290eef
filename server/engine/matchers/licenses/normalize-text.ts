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
const WORD = /[a-z0-9]+/g;

const FOLD: Record<string, string> = {
  licence: 'license',
  licences: 'licenses',
  licenced: 'licensed',
  licencing: 'licensing',
  authorised: 'authorized',
  organisation: 'organization',
  copyrighted: 'copyright',
  http: '',
  https: '',
  www: '',
};

export function tokenize(text: string): Tokens {
  const words: string[] = [];
  const lines: number[] = [];
  const stripped = text.includes('<') ? text.replace(TAG, ' ') : text;
  let line = 1;
  let start = 0;
  const n = stripped.length;
  while (start <= n) {
    let end = stripped.indexOf('\n', start);
    if (end < 0) end = n;
    let segment = stripped.slice(start, end).toLowerCase();
    // "GPLv2+", "GPL-2.0+": keep the plus as a word, references read it as "or later".
    if (segment.includes('+')) segment = segment.replace(/([0-9])\+/g, '$1 orlater ');
    // A notice printed by a program sits in string literals: "either version 2 of the License, or \n"
    // must not read as the word "n" between "or" and "at your option".
    if (segment.includes('\\')) segment = segment.replace(/\\[ntr]/g, ' ');
    // m4's comment marker is a word ("dnl This file is free software"), not punctuation like "#"
    // or "//": dropped at the start of a line, or it splits every line of a notice in autoconf macros.
    if (segment.includes('dnl')) segment = segment.replace(/^\s*dnl\b/, ' ');
    WORD.lastIndex = 0;
    for (let m = WORD.exec(segment); m; m = WORD.exec(segment)) {
      const w = FOLD[m[0]] ?? m[0];
      if (w) {
        words.push(w);
        lines.push(line);
      }
    }
    line++;
    start = end + 1;
  }
  return { words, lines };
}
