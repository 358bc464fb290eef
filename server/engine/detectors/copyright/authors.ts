// Author statements: "@author X", "Author: X", "Written by X", "Contributed by X",
// "Maintainer: X", SPDX-FileContributor and package-metadata "author" fields, and the names
// listed under an "Authors:" heading. The value is the rest of the line (name, e-mail, URL), as
// ScanCode reports it, cut where prose or a date begins.
import type { Line } from './prepare.ts';
import type { Found } from './statements.ts';

const AUTHOR =
  /^(?:@author\b|authors?\s*:|"author"\s*:|(?:originally\s+)?written\s+by\b|contributed\s+by\b|maintainers?\s*:|maintained\s+by\b|spdx-filecontributor\s*:|original\s+authors?\s*:)\s*(.*)$/i;

// Words that show the rest is prose ("written by the licensor", "Author: see AUTHORS").
const PROSE = /^(?:the|a|an|this|these|you|your|any|see|its?|his|her|their|and|or|in|on|at|to|of|for|with|from|by|is|are|was|licensor|author|authors|copyright)\b/i;

// Values that are code rather than a name: expressions, member access, type names, camelCase
// identifiers (`author: data.author || undefined`, `authors: Found[]`, `author: str`).
const CODE = /[|=;{}]|&&|=>|\[\]$|^[\w$.]+<.*>$|\?$|^[\w$]+(?:\.[\w$]+)+,?$|^(?:str|string|number|boolean|any|undefined|null|none|list|dict|optional|object|text)[;,]?$|^[a-z$][a-z\d$]*[A-Z][\w$]*,?$/;

// Where the name ends and prose begins: "Colin Plumb in 1993, no copyright is claimed",
// "Henry Spencer. Not derived from ...", "Ulrich Drepper <drepper@cygnus.com>, August 1995".
const TAIL = /\s(?:in|while|for|on|at|from|as|with|under|who|which|to|and put|is|was|has)(?:\s.*)?$|(?<!\b\p{Lu})[.;]\s+\p{Lu}\p{Ll}.*$|,\s*(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\p{L}*\s+)?(?:19|20)\d\d\b.*$/iu;

function clean(v: string): string {
  return v
    .replace(TAIL, '')
    .replace(/^["'\s]+/, '')
    .replace(/["',;\s]+$/, '')
    .replace(/(?<!\b(?:\p{Lu}|inc|ltd|corp|co|llc|jr|sr))\.$/iu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// A list entry: a capitalised name of up to six words, optionally with an e-mail or URL and a
// trailing remark after " - ".
const LIST_ENTRY = /^[\p{Lu}\p{Lo}][\p{L}.'-]*(?:\s+[\p{L}.'-]+){0,5}(?:\s+[<(]\S+[>)])?(?:\s+-\s.*)?$/u;

// Reads the names listed after an "Authors:" heading; returns the index of the last line used.
function readList(lines: Line[], at: number, out: Found[]): number {
  let i = at;
  while (i + 1 < lines.length && out.length < 10_000) {
    const next = lines[i + 1]!;
    if (next.line !== lines[i]!.line + 1 || !LIST_ENTRY.test(next.text) || PROSE.test(next.text) || CODE.test(next.text)) break;
    out.push({ value: next.text.replace(/\s+-\s.*$/, ''), startLine: next.line, endLine: next.line });
    i++;
  }
  return i;
}

export function findAuthors(lines: Line[]): Found[] {
  const out: Found[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = AUTHOR.exec(line.text);
    if (m === null) continue;
    let value = clean(m[1] ?? '');
    let endLine = line.line;
    // Package metadata splits the e-mail onto its own "Author-email:" line.
    const next = lines[i + 1];
    if (next !== undefined && next.line === line.line + 1 && /^author-email\s*:/i.test(next.text)) {
      value = `${value} ${next.text.replace(/:\s*/, ' ')}`;
      endLine = next.line;
      i++;
    }
    if (value === '' && /:\s*$/.test(line.text)) {
      // "Authors:" heading a list, one name per line.
      i = readList(lines, i, out);
      continue;
    }
    if (value === '' || PROSE.test(value) || !/\p{L}/u.test(value)) continue;
    if (/^[^\p{L}<("]/u.test(value)) continue;
    // Code: `author: data.author || undefined`, `author: str`, `author: this.name,`.
    if (CODE.test(value)) continue;
    out.push({ value, startLine: line.line, endLine });
  }
  return out;
}
