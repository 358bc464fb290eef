// Line preparation for copyright detection: strips comment markers, decorations and markup so
// the statement grammar (statements.ts) sees only prose, while each line keeps its 1-based
// number for the reported ranges.

// skip: the raw line held only markup (an HTML line break between a keyword and its holder),
// so multi-line statements read through it.
export type Line = { text: string; line: number; skip?: boolean };

// A cheap test applied to every raw line before any cleaning: most source lines carry no
// copyright or author marker at all, so the per-line work is skipped for them. It must stay a
// superset of what statements.ts looks for (keywords, ©, (c), author and holder markers).
export const CANDIDATE =
  /copyright|copr\.|\(\s*c\s*\)|©|&copy;|&#0*169;|&#xa9;|\\u00a9|\\xa9|\\251|author|written\s+by|contributed|maintainer|holder|版权|著作权/i;

// Leading comment markers of common languages, tried repeatedly: C/C++/Java (// /* * */),
// shell/Python/Perl (#), HTML/XML (<!-- -->), Lisp/ini (;), SQL/Lua/Haskell (--), TeX/Erlang (%),
// m4 (dnl), batch (rem), Visual Basic ('), Fortran (!; its "c" marker is left alone, it would eat
// real words), PostScript DSC (%%Copyright:) and the box drawings around licence headers
// (**, ==, ++, |).
const LEADING = /^(?:\s+|%%copyright:|\/\/+!?|\/\*+!?|\*+\/?|#+!?|<!--+|--+>?|;+|%+|\bdnl\b|\brem\b(?=\s)|'+(?=\s)|!+(?=\s)|\|+|=+(?=\s|$)|\+\+(?=\s|$)|\\+(?=\s|$)|"(?=\s))/i;
const TRAILING = /(?:\s+|\*+\/|\*+|-->|\\+|\|+|#+|=+|\/\/+|\+{2,}|"|')$/;

// Character references and the copyright sign all become "(c)", the form the reported
// statements use.
function normaliseSigns(s: string): string {
  return s
    // UTF-8 "©" read as Latin-1 or Windows-1252 ("Copyright Â© 2007 Red Hat, Inc.").
    .replace(/(?:Ã‚)?Â©/g, '©')
    .replace(/&copy;|&#169;|&#xa9;|&#0*169;/gi, '(c)')
    .replace(/©/g, '(c)')
    // The sign escaped in source strings and Texinfo: \u00A9, \xA9, \251, @copyright{}.
    .replace(/(copyright)\s+@copyright\{\}/gi, '$1')
    .replace(/\\u00a9|\\xa9|\\251|@copyright\{\}/gi, '(c)')
    .replace(/\(c\)opyright(?:ed)?/gi, 'Copyright (c)')
    .replace(/\s*\(\s*c\s*\)\s*/gi, ' (c) ')
    // U+FFFD marks bytes lost in decoding, often a mis-encoded copyright sign.
    .replace(/\uFFFD/g, ' ')
    .replace(/&nbsp;|&#160;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    // Year ranges written with an en or em dash ("2013–2015") read as "2013-2015".
    .replace(/(?<=\d)\s*[–—]\s*(?=\d|present\b|now\b)/gi, '-')
    // A sign lost in decoding as "?" ("Copyright ? 1999 CERN") stands for nothing.
    .replace(/\b(copyright)\s+\?\s+(?=[12]\d{3}\b)/gi, '$1 ');
}

// Chinese statements ("版权所有 © 2015-2021 阿里巴巴集团", "Copyright © 2019 某某有限公司 版权所有",
// "本软件著作权归某某公司所有") are written without spaces between words: the keywords, the
// closing "所有" of "归 … 所有" and the years ("2020年") are set apart so the statement grammar
// reads them as words. Full-width punctuation reads as its ASCII form.
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
function spaceChinese(s: string): string {
  if (!CJK.test(s)) return s;
  return s
    .replace(/（/g, '(').replace(/）/g, ')').replace(/、/g, ', ').replace(/，/g, ' ， ').replace(/：/g, ': ').replace(/；/g, '; ').replace(/。/g, '. ')
    .replace(/(?:并且?|且)?(保留所有权利)/g, ' $1 ').replace(/(版权所有|著作权所有|著作权归|版权归|著作权|版权)/g, ' $1 ')
    .replace(/(?<=[12]\d{3})\s*年(?:度)?/g, ' ')
    .replace(/(?<=[\u3400-\u9fff)])(?<!权)\s*所有(?=\s*[.,;]|\s*$)/g, ' 所有')
    .replace(/(?<=[\u3400-\u9fff])(?=\d)|(?<=\d)(?=[\u3400-\u9fff])/g, ' ');
}

// HTML/XML tags are dropped, but angle-bracketed e-mails and URLs (<a@b.org>, <http://x/>,
// <www.x.com>) are kept: the tag name must be followed by a space, "/" or ">". Inline tags
// vanish without a trace, as ScanCode reads them; block tags separate words.
const INLINE_TAG = /<\/?(?:s|b|i|u|em|strong|span|font|a|tt|code|small|big|sup|sub)(?:\s[^<>]*)?>/gi;
const TAG = /<\/?[a-zA-Z][a-zA-Z0-9:-]*(?:\s[^<>]*)?\/?>/g;

export function cleanLine(raw: string): string {
  let s = spaceChinese(normaliseSigns(raw.replace(/\t/g, ' ')));
  // <meta name="copyright" content="..."> carries its statement in an attribute.
  s = s.replace(/<meta\b[^>]*?\bcontent\s*=\s*"([^"]*)"[^>]*>/gi, ' $1 ');
  // "<s>Ian F. Darwin</s>, 1987" reads "Ian F. Darwin, 1987".
  s = s.replace(INLINE_TAG, '').replace(TAG, ' ');
  // Markdown links keep their text: "[Jared Wray](./LICENSE)" reads "Jared Wray".
  s = s.replace(/\[([^\]]*)\]\([^)\s]*\)/g, '$1');
  // .NET attributes: [assembly: AssemblyCopyright("(c) 2004 by Henrik Ravn")].
  s = s.replace(/\bcopyright\s*\(\s*"/gi, 'Copyright ');
  // A Debian "Copyright:" field whose value is itself a statement: the label goes.
  s = s.replace(/\bcopyright\s*:\s+(?=copyright\b)/gi, '');
  // REUSE/SPDX header and the "Copyright . 2008" typo read as a plain statement.
  s = s.replace(/\bSPDX-FileCopyrightText\s*:\s*/gi, 'Copyright ').replace(/\b(copyright)\s+\.\s+(?=\d)/gi, '$1 ');
  let prev = '';
  while (prev !== s) {
    prev = s;
    s = s.replace(LEADING, '');
  }
  prev = '';
  while (prev !== s) {
    prev = s;
    s = s.replace(TRAILING, '');
  }
  // Escaped quotes and string-literal noise inside code ("...\n") would otherwise stick to names.
  s = s.replace(/\\[nrt]/g, ' ');
  return s.replace(/\s+/g, ' ').trim();
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

// Latin script folded to ASCII ("Dag-Erling Smørgrav" -> "Smorgrav"): the form ScanCode reports,
// and the key that treats differently encoded copies of one holder as the same. Only for
// comparing: what users see keeps the original spelling. Other scripts (Chinese names) are kept.
const FOLD: Record<string, string> = { ß: 'ss', ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'Th', ı: 'i' };
export function foldLatin(s: string): string {
  if (!/[^\p{ASCII}]/u.test(s)) return s;
  return s
    .normalize('NFKD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .replace(/[ßøØæÆœŒłŁđĐþÞı]/g, (c) => FOLD[c] ?? c)
    .normalize('NFC');
}

// Binary files: only runs of printable ASCII are text worth reading (like strings(1)); each run
// becomes its own line so statements do not run into the bytes around them.
export function binaryToText(text: string): string {
  return text.replace(/[^\x20-\x7e\t\n\r]+/g, '\n');
}
