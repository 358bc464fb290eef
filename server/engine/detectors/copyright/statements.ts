// Copyright statements and their holders. A statement starts at a copyright keyword ("Copyright",
// "(c)" or "©", "Copr.", "Portions copyright", a Debian "Copyright:" field) and runs through years,
// "by", names, e-mails and URLs until prose, "All rights reserved" or a blank line ends it. Output
// conventions follow ScanCode's (the oracle in tests/integration/engine/copyright-corpus.test.ts):
// the statement keeps years, e-mails and URLs with "©" written "(c)"; the holder drops the
// keywords, years, e-mails and URLs.
import type { Line } from './prepare.ts';

export type Found = { value: string; startLine: number; endLine: number };

// Keyword at the start of a statement. "(c)" alone is accepted too but needs more evidence
// (see acceptable()), since "(c)" also numbers list items in licence texts. "holder is Tim
// Hudson" is ScanCode's statement form for OpenSSL-style notices; under the i flag its \p{Lu}
// lookahead matches any letter, so acceptable() rejects the prose cases.
const KEYWORD =
  /(?:\b(?:portions?|parts?)\s+(?=copyright|\(c\)|copr\.))?(?:\(c\)\s*)?(?:\bcopyright(?:ed|s)?\b(?:\s*\(c\))?|\bcopr\.(?:\s*\(c\))?|\(c\)|\bholder\s+is(?=\s+\p{Lu})|(?:版权|著作权)(?:所有|归)?)/giu;
// The Chinese keywords: "版权所有" (all rights reserved, also written before the statement as its
// keyword), "著作权" (copyright, the legal term), "著作权归 … 所有" (copyright belongs to …).
const CJK_KEYWORD = /^(?:版权|著作权)(?:所有|归)?$/;
// Chinese for "all rights reserved" and the closing "所有" of "归 … 所有": they end a statement.
const CJK_END = /^(?:保留所有权利|所有)[.,;]?$/;

// Lowercased words that end a holder: prose, licence vocabulary and code keywords that never
// belong to a name. Right after the keyword they reject the statement ("copyright notice").
const STOP = new Set([
  // verbs, pronouns, conjunctions and prepositions of prose
  'all', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'may', 'can', 'could', 'will', 'would', 'shall', 'should', 'must',
  'this', 'these', 'that', 'those', 'which', 'who', 'whom', 'whose', 'it', 'they', 'their', 'there', 'we', 'you', 'your', 'our', 'he', 'she',
  'under', 'see', 'use', 'used', 'using', 'if', 'with', 'without', 'to', 'not', 'no', 'except', 'any', 'subject', 'provided',
  'when', 'where', 'while', 'do', 'does', 'did', 'has', 'have', 'had', 'please', 'contact', 'within', 'into', 'on', 'as', 'than',
  'then', 'so', 'such', 'also', 'only', 'following', 'above', 'below', 'same', 'each', 'every', 'both', 'either', 'neither', 'nor',
  'or', 'but', 'because', 'how', 'what', 'why', 'whether', 'about', 'after', 'before', 'over', 'upon', 'via', 'like', 'unless',
  'until', 'since', 'write', 'made', 'refer', 'everyone', 'resulting', 'belonging', 'related',
  // licence and notice vocabulary
  'licensed', 'license', 'licence', 'licenses', 'licenced', 'released', 'distributed', 'distribute', 'redistribution',
  'redistributions', 'permission', 'permitted', 'notice', 'notices', 'reserved', 'rights', 'status', 'law', 'laws', 'holder',
  'holders', 'owner', 'owners', 'statement', 'statements', 'protection', 'applies', 'terms', 'conditions', 'part', 'portion',
  'portions', 'gnu', 'gpl', 'lgpl', 'mit', 'apache-2.0', 'spdx-license-identifier', 'identifier', 'warranty', 'agent',
  'assignment', 'grant', 'grants', 'representations', 'documentation', 'changes', 'infringement', 'claims', 'policy', 'act',
  'office', 'convention', 'treaty', 'trademark', 'trademarks', 'copyleft', 'confidential', 'proprietary', 'dual', 'available',
  'unknown', 'forked',
  // file metadata that follows a statement on the same line
  'modified', 'based', 'derived', 'version', 'file', 'files', 'originally', 'written', 'author', 'maintained', 'date',
  'generated', 'created', 'last', 'updated', 'revised', 'title', 'info', 'id', 'http', 'mailto', 'email', 'e-mail', 'tel',
  'phone', 'fax',
  // code
  'return', 'true', 'false', 'null', 'none', 'new', 'string', 'int', 'var', 'let', 'const', 'function', 'def', 'class',
  'private', 'static', 'import', 'from', 'include',
]);

// Words after which a holder continues on the next line.
// Name particles ("Theo de / Raadt", "Ludwig van / Beethoven") continue a name broken by wrapping.
const CONTINUES = /(?:,|\band|&|\bof|\bby|\bfor|\bthe|\bother|\bvarious|-|\b(?:de|van|von|der|den|da|di|du|del|della|la|le|dos|das|ten|ter))$/iu;
const KEYWORD_START = /^(?:copyright|\(c\)|copr\.|portions?\s+copyright)/i;
// Words that, starting the next line, complete an organisation name begun on this one.
const NAME_TAIL = /^(?:inc\.?|incorporated|ltd\.?|limited|llc\.?|corp\.?|corporation|co\.|company|communications|gmbh|ag|plc|s\.a\.|foundation|university|institute|technologies|systems|software|project|group|team|consortium|contributors)\b/i;

// Abbreviations whose final period belongs to the holder ("Inc.", "Ltd.", "L.P.").
const KEEP_DOT = /(?:^|\s|,)(?:inc|ltd|corp|co|llc|l\.l\.c|l\.p|b\.v|n\.v|e\.v|s\.a|s\.l|s\.r\.l|pvt|plc|gmbh|ag|jr|sr|pty|bhd|oy|ab|asa|a\.s|k\.k|et\s+al|[a-z])\.$/i;

// Years, ranges and lists: "2010", "2010-2020", "1991-2,", "1993,94", "(2006", "2007)", "????".
// Each repetition needs a year after its separators, so a failing match cannot backtrack
// exponentially on runs of punctuation.
// Years are 1500-2099: "2990-2999" in "Copyright (C) RandomCompany 2990-2999" is no year.
const YEAR_TOKEN = /^\(?(?:1[5-9]\d\d|20\d\d|\?{4})(?:[-–—,/+]+(?:1[5-9]\d\d|20\d\d|\d{1,2}|\?{4}|present|now))*[-–—,/+]*\)?[,.;:)]*$|^(?:present|now)[,.;:)]*$/i;

function isYear(tok: string): boolean {
  // Roman-numeral years ("Copyright (c) MMXV jden") count too.
  return YEAR_TOKEN.test(tok) || /^M{1,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})[,.]?$/.test(tok) && tok.length > 2;
}
// "1988, 89, 90": two-digit years continue a list begun with a full year. Marks, in one pass,
// which tokens are years in that sense.
function yearMarks(tokens: string[]): boolean[] {
  const marks: boolean[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    marks.push(isYear(t) || /^\d{2}[,;]?$/.test(t) && i > 0 && marks[i - 1] === true);
  }
  return marks;
}
function isEmail(tok: string): boolean {
  return /^[<([]?(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+[>)\]]{0,2}[,.;]*$/i.test(tok);
}
function isUrl(tok: string): boolean {
  return /^[<([]?(?:https?|ftp):\/\/\S+$/i.test(tok);
}
function isBracketedUrl(tok: string): boolean {
  return /^[<([](?:https?:\/\/|ftp:\/\/|www\.)\S*[>)\]][,.;]*$/i.test(tok);
}
function isKeywordToken(tok: string): boolean {
  return /^(?:\(c\)|copyright(?:ed|s)?|copr\.|portions?|parts?)[,:]?$/i.test(tok) || CJK_KEYWORD.test(tok.replace(/[,:]$/, ''));
}
function bare(tok: string): string {
  return tok.toLowerCase().replace(/^[("'[<]+|[)"'\]>,.;:!?-]+$/g, '');
}

// Words that cannot be part of a name: symbols (encoding tables, binary noise), "?" or "\"
// between letters and digits ("Micr0s?3t4ii2\ew"), identifiers (APPLE_HYB), absurdly long words.
function junk(w: string): boolean {
  if (/[\p{Sm}\p{Sc}\p{So}]/u.test(w.replace(/[+<>=|~^]/g, ''))) return true;
  if (/\p{L}[?\\]\p{L}|\d[?\\]|[?\\]\d|''|``/u.test(w)) return true;
  return w.length > 40 || /_/.test(w) && !isEmail(w) && !isUrl(w);
}

// stopAt: index of the word that stopped the statement in the last line scanned.
type Scan = { tokens: string[]; stopped: boolean; holderStarted: boolean; stopAt: number };

// Roles written in parentheses after a holder's name.
const ROLE = /^\((?:the\s+)?(?:original|main|lead|current|former|initial|primary|co-?)?\s*(?:author|maintainer|developer|creator|contributor|designer|programmer|writer|translator)s?\)[,.;]?$/i;
// Marks the first word of such an aside inside the statement's tokens (removed on output).
const ASIDE = '\u0001';
// Marks a distinguished-name field label ("OU") in the tokens: in the statement, not the holder.
const FIELD = '\u0002';
// A lone "@" before an address, in the statement only.
const ASIDE_AT = '\u0003@';

// Character position just after the first `count` words of `words`, found in order in `text`
// from `from`.
function positionAfter(text: string, from: number, words: string[], count: number): number {
  let pos = from;
  for (let k = 0; k < count && k < words.length; k++) {
    const at = text.indexOf(words[k]!, pos);
    if (at < 0) break;
    pos = at + words[k]!.length;
  }
  return pos;
}

// Consumes the words of one line into the statement; a stop (prose, "All rights reserved", a
// new statement, code) sets acc.stopped and acc.stopAt.
function scanTokens(words: string[], acc: Scan): void {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.replace(/(?<=\p{L}):$/u, '');
    if (w === '') continue;
    const b = bare(w);
    if (b === 'all' && /^rights?$/i.test(bare(words[i + 1] ?? ''))) { acc.stopped = true; acc.stopAt = i; return; }
    if (/^rights?$/i.test(b) && /^reserved/i.test(words[i + 1] ?? '')) { acc.stopped = true; acc.stopAt = i; return; }
    // "… 有限公司 版权所有", "保留所有权利", "归 … 所有": the Chinese closing words end the statement.
    if (CJK_END.test(w) || acc.holderStarted && CJK_KEYWORD.test(w.replace(/[,:]$/, ''))) { acc.stopped = true; acc.stopAt = i; return; }
    // A full-width comma ends a Chinese holder ("…有限公司，并保留所有权利"); before it, it
    // separates years like an ASCII one.
    if (w === '，') {
      if (acc.holderStarted) { acc.stopped = true; acc.stopAt = i; return; }
      acc.tokens.push(',');
      continue;
    }
    if (isKeywordToken(w)) {
      // A second keyword once a holder has been seen starts a new statement, except the
      // trailing-year form "Foo, Copyright (c) 2002" which ScanCode keeps in one.
      if (acc.holderStarted) {
        // (Punctuation-only words after the year, "(c) 2012 `" in a binary, do not count.)
        const rest = words.slice(i + 1).filter((x) => !isKeywordToken(x) && /[\p{L}\p{N}]/u.test(x));
        if (rest.length > 0 && !rest.every((x) => isYear(x))) { acc.stopped = true; acc.stopAt = i; return; }
      }
      acc.tokens.push(w);
      continue;
    }
    if (w === 'C' && !acc.holderStarted && isYear(words[i + 1] ?? '')) { acc.tokens.push(w); continue; }
    // X.509 distinguished names ("OU=Copyright (c) 2005, OU=OISTE Foundation Endorsed, CN=…"):
    // the field holding the name is read without its "OU=", the next field ends the statement.
    const field = /^(?:C|O|OU|CN|L|ST|DC|E|emailAddress)=(.*)$/.exec(w);
    if (field !== null) {
      if (acc.holderStarted || field[1] === '') { acc.stopped = true; acc.stopAt = i; return; }
      acc.tokens.push(FIELD + w.slice(0, w.indexOf('=')), field[1]!);
      acc.holderStarted = true;
      continue;
    }
    // Numbers shaped like years but outside any plausible range end the name ("RandomCompany
    // 2990-2999").
    if (acc.holderStarted && /^\d{4}(?:[-,]\d{2,4})*[,.;]?$/.test(w) && !isYear(w)) { acc.stopped = true; acc.stopAt = i; return; }
    // A role in parentheses after a name ("Thomas Davies (Original Author), Scott R Ladd") stays
    // in the statement, not in the holder, and the list of holders goes on after it.
    if (acc.holderStarted && /^\(/.test(w)) {
      let k = i;
      while (k < words.length && k - i < 4 && !/\)[,.;]?$/.test(words[k]!)) k++;
      const aside = words.slice(i, k + 1).join(' ');
      if (k < words.length && ROLE.test(aside)) {
        acc.tokens.push(...words.slice(i, k + 1).map((x, n) => (n === 0 ? ASIDE + x : x)));
        i = k;
        continue;
      }
    }
    if (w === '-' && acc.holderStarted && /^\p{Ll}/u.test(words[i + 1] ?? '')) { acc.stopped = true; acc.stopAt = i; return; }
    // "the original author or authors" is a holder phrase, though "author" alone ends a name.
    if (b === 'author' && /^or$/i.test(words[i + 1] ?? '') && /^authors\b/i.test(words[i + 2] ?? '')) {
      acc.tokens.push(w, words[i + 1]!, words[i + 2]!);
      i += 2;
      continue;
    }
    // "Contributors as noted in the AUTHORS file" (ZeroMQ and its family) names the holders by
    // reference: the phrase belongs to the holder.
    if (b === 'as' && /^(?:contributors|authors)$/i.test(acc.tokens[acc.tokens.length - 1] ?? '') && /^(?:noted|listed|named|mentioned)$/i.test(words[i + 1] ?? '')) {
      const end = words.findIndex((x, k) => k > i && k <= i + 7 && /^files?[.,;]?$/i.test(x));
      if (end > 0) {
        acc.tokens.push(...words.slice(i, end + 1));
        i = end;
        continue;
      }
    }
    // "Vladimir Berezniker @ http://public.xdi.org": a lone "@" reads "at" before an address.
    if (w === '@' && acc.holderStarted && (isUrl(words[i + 1] ?? '') || /^www\./i.test(words[i + 1] ?? ''))) {
      acc.tokens.push(ASIDE_AT);
      continue;
    }
    const prev = acc.tokens[acc.tokens.length - 1] ?? '';
    const twoDigitYear = !acc.holderStarted && /^\d{2}[,;]?$/.test(w) && (isYear(prev) || /^\d{2}[,;]?$/.test(prev));
    if (isYear(w) || twoDigitYear || w === '-' || w === ',' || /^by$/i.test(w) || /^of$/i.test(w) && acc.tokens.length === 1 && /^copyright$/i.test(acc.tokens[0]!) || /^holders?$/i.test(w) && !acc.holderStarted) {
      acc.tokens.push(w);
      continue;
    }
    if (isEmail(w) || isUrl(w) || isBracketedUrl(w)) { acc.tokens.push(w); continue; }
    // "AS" is the Norwegian legal form ("Trolltech AS, Norway"), not the preposition.
    if (STOP.has(b) && !(/^AS[,.]?$/.test(w) && acc.holderStarted)) {
      acc.stopped = true;
      acc.stopAt = i;
      return;
    }
    if (junk(w) || acc.holderStarted && /^\d+,?$/.test(w) && !isYear(w) && /,$/.test(acc.tokens[acc.tokens.length - 1] ?? '')) {
      // Junk, or a street number after "Inc.," (an address, not the name).
      acc.stopped = true;
      acc.stopAt = i;
      return;
    }
    if (/^[^\p{L}\p{N}<(&@]/u.test(w) && !/^["'(`]/.test(w)) {
      // A token starting with punctuation such as "=" or "{" means code, not a name.
      acc.stopped = true;
      acc.stopAt = i;
      return;
    }
    // "Bell Communications Research, Inc. (Bellcore)": a nickname after the legal form is dropped.
    if (/^\([^)]*\)[.,]?$/.test(w) && KEEP_DOT.test(acc.tokens[acc.tokens.length - 1] ?? '')) {
      acc.stopped = true;
      acc.stopAt = i;
      return;
    }
    // "Zeta Microcomputer Software] system": the end of a bracketed aside ends the name.
    if (/\]$/.test(w) && !acc.tokens.some((t) => t.includes('[')) && !w.includes('[')) {
      acc.holderStarted = true;
      acc.tokens.push(w.replace(/\]+$/, ''));
      acc.stopped = true;
      acc.stopAt = i + 1;
      return;
    }
    acc.holderStarted = true;
    // A quoted nickname loses its quotes: "Paul `Rusty' Russell" -> "Paul Rusty Russell".
    acc.tokens.push(w.replace(/^[`'"](\p{L}+)[`'"]$/u, '$1'));
    // A sentence end after a complete name ("Foo Ltd. This file ...") is caught by STOP on the
    // next word; a period after a plain word ends the statement here.
    if (/[.;]$/.test(w) && isSentenceEnd(w, words[i + 1])) {
      acc.stopped = true;
      acc.stopAt = i;
      return;
    }
  }
}

// Words after which a period does not end a sentence ("St. Louis", "Dr. Foo").
const TITLE = /^(?:st|dr|mr|mrs|ms|prof|mt|ft|no|vol|dept|univ|tech)\.$/i;
// Legal-form words that may follow an abbreviation ("Foo Tech. Co., Ltd.", "Pvt. Ltd.").
const LEGAL = /^(?:inc|ltd|limited|co|corp|llc|gmbh|ag|plc|pvt|pte|s\.a|b\.v|n\.v|l\.p)\b/i;

function isSentenceEnd(w: string, next: string | undefined): boolean {
  if (w.endsWith(';')) return true;
  if (next === undefined) return false;
  // Initials ("J.M. Cain", "H. Peter Anvin") and titles continue the name.
  if (/^[\p{L}]\.(?:[\p{L}]\.)*$/u.test(w) || TITLE.test(w)) return false;
  if (/^\(?\d/.test(next) || isEmail(next) || isUrl(next) || isBracketedUrl(next) || /^[(<,&]/.test(next)) return false;
  if (/^(?:and|&)$/i.test(next) || LEGAL.test(next)) return false;
  return true;
}

// Holder = statement tokens minus keywords, years, "by", e-mails and URLs (bracketed ones and
// http URLs always; a bare URL stays when it is all there is, "(c) 2009 http://www.pudn.com").
function holderOf(tokens: string[]): string {
  const kept: string[] = [];
  const years = yearMarks(tokens);
  let seenName = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.startsWith(FIELD) || t === ASIDE_AT) continue;
    if (t.startsWith(ASIDE)) {
      while (i < tokens.length - 1 && !/\)[,.;]?$/.test(tokens[i]!)) i++;
      if (/,$/.test(tokens[i]!) && kept.length > 0 && !/,$/.test(kept[kept.length - 1]!)) kept[kept.length - 1] += ',';
      continue;
    }
    if (isKeywordToken(t) || years[i] === true || !seenName && /^and$/i.test(t) && i + 1 < tokens.length && isYear(tokens[i + 1]!)) {
      if (seenName && /,$/.test(t)) kept.push(',');
      continue;
    }
    if (!seenName && (/^by$/i.test(t) || /^of$/i.test(t) && i === 1 || /^and$/i.test(t) || /^is$/i.test(t) || t === 'C' && isYear(tokens[i + 1] ?? '') || t === '-' || t === ',' || /^holders?$/i.test(t) || /^:$/.test(t))) continue;
    if (isEmail(t) || isBracketedUrl(t) || /^[<(]/.test(t) && isUrl(t)) {
      // The ")" closing a group the e-mail ended stays: "VideoLAN (Johan Bilien and Gildas Bazin)".
      const closing = /^[^(]*\)[>\]]*[,.;]*$/.test(t.replace(/^[<([]/, '')) && /[>\]]\)/.test(t) ? ')' : '';
      if (closing !== '' && kept.length > 0) kept[kept.length - 1] += closing;
      if (/,$/.test(t) && seenName) kept.push(',');
      continue;
    }
    if (isUrl(t) && tokens.some((x, j) => j !== i && !isKeywordToken(x) && !isYear(x) && !isUrl(x) && !/^by$/i.test(x) && /\p{L}/u.test(x))) continue;
    kept.push(t);
    seenName = true;
  }
  // Removed e-mails leave ", ," behind ("Daniel Stenberg, <daniel@haxx.se>, et al.").
  const holder = unwrapGroups(trimTail(kept.join(' ').replace(/\s+,/g, ' ,').replace(/,(?:\s*,)+/g, ',').replace(/^[\s,:;-]+/, '')));
  return isUrl(holder) ? holder.replace(/\/+$/, '') : holder;
}

// Whether the round and square brackets of s balance ("subsidiary(-ies)" keeps its ")").
function balanced(s: string): boolean {
  let depth = 0;
  for (const c of s) {
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
  }
  return depth === 0;
}

function trimTail(s: string): string {
  let prev = '';
  let out = s.trim();
  while (prev !== out) {
    prev = out;
    out = out.replace(/\s*[,;:*=#|"'`]+$/, '').replace(/\s*[\])]+$/, (m) => (balanced(out) ? m : '')).replace(/\s+(?:and|by|&|-|,)$/i, '').trim();
    // "Inc.", "J.M." and all-capital final words ("MASSACHUSETTS.", "USA.") keep their period.
    if (/\.$/.test(out) && !KEEP_DOT.test(out) && !/\b[A-Z]\.[A-Z]\.$/.test(out) && !/(?:^|[\s,])[\p{Lu}][\p{Lu}\d-]+\.$/u.test(out)) out = out.replace(/\.+$/, '');
    // An unclosed "(" fragment left from a cut: "bl contributors (listed".
    if (!balanced(out)) out = out.replace(/\s*\([^()]*$/, '');
  }
  return out;
}

// Parentheses around a list of people after a name are dropped: "VideoLAN (Johan Bilien <…> and
// Gildas Bazin <…>)" reads "VideoLAN Johan Bilien <…> and Gildas Bazin <…>". A one-word aside
// ("(ISI)", "(tm)", "(PC)") or a lone e-mail or URL keeps its parentheses.
function unwrapGroups(s: string): string {
  return s.replace(/(?<=\p{L}[.,]?) \(([^()]+)\)(?=[,.;]?(?: |$))/gu, (m, inner: string) =>
    /\s(?:and|&)\s|,\s/.test(inner) && /^\p{Lu}/u.test(inner) && !/^(?:and|or)\b/i.test(inner) && !/(?:^|\s)(?:https?|ftp):/.test(inner) ? ` ${inner}` : m);
}

function statementOf(tokens: string[]): string {
  tokens = tokens.map((t) => (t.startsWith(ASIDE) || t.startsWith(FIELD) || t === ASIDE_AT ? t.slice(1) : t));
  const last = tokens[tokens.length - 1] ?? '';
  if (isUrl(last)) tokens = [...tokens.slice(0, -1), last.replace(/\/+$/, '')];
  // Drop trailing year-less punctuation and the "by" of an unfinished statement.
  const value = unwrapGroups(trimTail(tokens.join(' ').replace(/^(copyright)\s*:\s*/i, '$1 ').replace(/^(copyright)\s*:/i, '$1')));
  // Chinese is written without spaces: "著作权归 领扣网络" reads "著作权归领扣网络所有" again.
  return /归$/.test(tokens[0] ?? '') && tokens.length > 1 ? `${joinChinese(value)}所有` : joinChinese(value);
}

function joinChinese(s: string): string {
  return s.replace(/(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])/g, '');
}

// Whether the words after a keyword can start a statement (and not licence prose such as
// "copyright notice", "(c) do not make any use").
function acceptable(keyword: string, after: string[]): boolean {
  const first = after.find((w) => w !== ':' && w !== '-' && w !== ',');
  if (first === undefined) return /copyright|copr/i.test(keyword) && !/copyrighted/i.test(keyword);
  const b = bare(first);
  if (isYear(first) || isKeywordToken(first) || /^by$/i.test(b)) return true;
  // "版权" and "著作权" alone are nouns ("版权声明", "著作权法") unless a year or sign follows;
  // "版权所有，侵权必究" is the closing formula, not a holder.
  if (CJK_KEYWORD.test(keyword) && (/^(?:版权|著作权)$/.test(keyword) || CJK_PROSE.test(first))) return false;
  // "Copyright Holders:" heads a list of names on the following lines.
  if (/^holders:$/i.test(first) && after.length === 1) return true;
  if (/^(?:holder|notice|owner|author)s?\(s\)/i.test(first)) return false;
  if (STOP.has(b)) return /^holders?$/i.test(b) && /copyright/i.test(keyword) && /^\p{Lu}\p{Ll}/u.test(after[1] ?? '') && !STOP.has(bare(after[1] ?? ''));
  if (/^[^\p{L}\p{N}<(]/u.test(first)) return false;
  // "copyrighted" only as "copyrighted by ..." (else it is prose: "copyrighted interfaces").
  if (/copyrighted/i.test(keyword)) return false;
  // A lowercase word right after the keyword is prose ("copyright the software", "copyright
  // information") unless a year follows shortly ("copyright abc 2001").
  const second = after[after.indexOf(first) + 1] ?? '';
  const prose = /^\p{Ll}/u.test(first) && !/^the$/i.test(b) || /^the$/i.test(b) && /^\p{Ll}/u.test(second);
  if (prose && !after.slice(0, 5).some((w) => isYear(w))) return false;
  if (/^\(c\)$/i.test(keyword.trim())) {
    // Bare "(c)": a list marker unless a year or a capitalised name follows.
    return /^[\p{Lu}\d]/u.test(first) || /^the$/i.test(b) && /^\p{Lu}/u.test(after[1] ?? '');
  }
  return true;
}

// Chinese prose after a keyword: "侵权必究" (infringers will be prosecuted), "未经许可…" (without
// permission), "声明" (notice), "法" (law), "保护" (protection), "归属" (ownership).
const CJK_PROSE = /^(?:侵权|未经|不得|禁止|请|本|保留|声明|法|信息|保护|归属|属于|登记|所有|作者$)/;

// "Not copyrighted", "This file is not copyrighted", "no copyright (c) is claimed": a negation
// right before the keyword means there is no statement.
const NEGATION = /(?:^|\s)(?:not|no|non|never|without)[\s-]*$/i;

// "the above copyright notice", "to the copyright", "our Copyright Agent": the keyword used as a
// noun in prose, unless a year or sign follows it.
const ARTICLE = /(?:^|\s)(?:the|this|that|a|an|any|our|your|its|their|his|her|to|of|with|no|under|applicable|such|same|retain|retains|reproduce)\s*$/i;
function proseBefore(prefix: string, after: string[]): boolean {
  if (!ARTICLE.test(prefix)) return false;
  const first = after.find((w) => w !== ':' && w !== ',') ?? '';
  return !(isYear(first) || /^(?:\(c\)|by)$/i.test(first));
}

// The name (and e-mail) right before a trailing "(c) year": the words after the last "by", or
// the whole prefix when it is short and all name-like.
function nameBefore(prefix: string): string[] {
  const words = prefix.trim().split(' ').filter(Boolean);
  const by = words.map((w) => w.toLowerCase()).lastIndexOf('by');
  const name = by >= 0 ? words.slice(by + 1) : words;
  if (name.length === 0 || name.length > 6) return [];
  const plain = name.filter((w) => !isEmail(w) && !isUrl(w) && !isBracketedUrl(w));
  if (plain.length === 0 || !plain.every((w) => /^\p{Lu}[\p{L}.'-]*,?$/u.test(w) && !STOP.has(bare(w)))) return [];
  return name;
}

export function findCopyrights(lines: Line[]): { copyrights: Found[]; holders: Found[] } {
  const copyrights: Found[] = [];
  const holders: Found[] = [];
  // Position of the scan: line index and character offset in it. A statement that stops early
  // ("Charlie Poole or Copyright (c) 2002 ...") resumes the scan where it stopped, on the line it
  // ended on, so statements chained on one line or across lines are all read.
  let i = 0;
  let offset = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    KEYWORD.lastIndex = 0;
    const m = offset < line.text.length ? KEYWORD.exec(line.text.slice(offset)) : null;
    if (m === null) {
      i++;
      offset = 0;
      continue;
    }
    const start = offset + m.index;
    const keyword = m[0];
    const tail = line.text.slice(start + keyword.length);
    offset = start + keyword.length;
    const after = tail.replace(/^\s*:/, ' :').split(' ').filter(Boolean);
    // Code such as `copyright = "..."`, `getCopyright()` or `copyright?: CopyrightRepository;`
    // is not a statement.
    if (/^\??\s*:\s*[\w$.[\]'"]+[;,]?\s*$/.test(tail) && !/\d{4}/.test(tail) && /^\s*\??:\s*(?:[a-z$]|\p{Lu}\p{Ll}+\p{Lu}|[\w$]+[;,]$|[\w$]+\.[\w$])/u.test(tail)) continue;
    if (/^\?:/.test(tail)) continue;
    // TypeScript/Flow types: `copyrights: Found[];`, `copyright: Array<string>`.
    if (/^\s*:\s*\S*(?:\[\]|<[^>]*>)[;,]?\s*$/.test(tail)) continue;
    // A lowercase field with a one-word value ending in ";" is a declaration too (generic
    // arguments such as "<string>" are already gone with the markup).
    if (/^c/.test(keyword) && /^\s*:\s*\S+\s*;\s*$/.test(tail)) continue;
    if (/^\s*(?:[=(.[{]|:=|=>)/.test(tail) && !/^\s*\((?:c\)|(?:19|20)\d\d)/i.test(tail)) continue;
    if (NEGATION.test(line.text.slice(0, start)) && /^(?:c|\(c\))/i.test(keyword.trim())) continue;
    // "These icons are copyright of Pete Harlow": the keyword as a predicate, "of" and a name.
    const predicate = /^copyright$/i.test(keyword) && /(?:^|\s)(?:is|are|was|were|remains?)\s+$/i.test(line.text.slice(0, start)) && /^of$/i.test(after[0] ?? '') && /^\p{Lu}\p{Ll}/u.test(after[1] ?? '') && !STOP.has(bare(after[1] ?? ''));
    // "… are under Copyright by:" ending the line heads a list of holders on the lines below.
    const heading = /^copyright$/i.test(keyword.trim()) && after.length === 1 && /^by:$/i.test(after[0]!);
    if (!heading && (!predicate && !acceptable(keyword, after.filter((w) => w !== ':')) || !/^holder/i.test(keyword) && proseBefore(line.text.slice(0, start), after))) continue;
    const acc: Scan = { tokens: keyword.trim().split(/\s+/), stopped: false, holderStarted: false, stopAt: 0 };
    const words = after.filter((w) => w !== ':');
    // "(c) Copyright, N.M. Maclaren": the comma stays on the keyword.
    if (words[0] === ',') acc.tokens[acc.tokens.length - 1] += words.shift();
    scanTokens(words, acc);
    let end = i;
    let lastWords = words;
    let lastFrom = start + keyword.length;
    // Continue onto following lines while the statement is unfinished: no holder yet, a
    // holder ending in "and"/","/"of", or a name broken by line wrapping.
    let j = i + 1;
    while (!acc.stopped && j < lines.length && j - i <= 4) {
      const next = lines[j]!;
      const last = acc.tokens[acc.tokens.length - 1] ?? '';
      // Markup-only lines, and one blank line after a dangling "and", are read through.
      if (next.skip === true || next.text === '' && (/^and$/i.test(last) || heading && acc.tokens.length === 2) && j === end + 1) { j++; continue; }
      if (next.line > lines[end]!.line + 3 || next.text === '') break;
      const holder = holderOf(acc.tokens);
      const nextWords = next.text.split(' ');
      const firstNext = bare(nextWords[0] ?? '');
      if (STOP.has(firstNext) && firstNext !== 'the') break;
      // A sentence ("The source file … is") or a field heading ("Authors:", "License:") on the
      // next line is not more of the name.
      if (holder !== '' && /^the$/i.test(firstNext) && /^\p{Ll}/u.test(nextWords[1] ?? '')) break;
      if (holder !== '' && /^\p{L}[\p{L} -]*:$/u.test(next.text)) break;
      // A street number starts an address, not more of the name.
      if (holder !== '' && /^\d+,?$/.test(nextWords[0] ?? '') && !isYear(nextWords[0] ?? '')) break;
      const wrapped = /^\p{Lu}[\p{L}'-]*$/u.test(last) && /\p{Ll}/u.test(last) && /^\p{Lu}/u.test(nextWords[0] ?? '') && !KEYWORD_START.test(next.text);
      const connector = /^(?:of|and|&)\b/i.test(next.text) && !/[.]$/.test(last);
      // Debian fields list one "year holder" per indented line under "Copyright:".
      const yearLed = isYear(nextWords[0] ?? '') && nextWords.length > 1 && /^\p{L}/u.test(nextWords[1] ?? '');
      const listed = (heading || /^holders:?$/i.test(acc.tokens[1] ?? '')) && /^\p{Lu}/u.test(nextWords[0] ?? '');
      const mailLed = holder !== '' && (isEmail(nextWords[0] ?? '') || isBracketedUrl(nextWords[0] ?? ''));
      // A bare "Copyright:" label followed by a full statement on the next line: the label is dropped.
      if (holder === '' && !acc.tokens.some((t) => isYear(t)) && /^copyright/i.test(next.text)) break;
      // "Rachana Akshara Vedi / (Chitrajakumar R, Hussain KH, …)": its members listed in parentheses.
      const members = holder !== '' && /^\(\p{Lu}[^()]*(?:,|\sand\s)/u.test(next.text);
      const wantMore = members || listed || mailLed || holder === '' || CONTINUES.test(last) || NAME_TAIL.test(next.text) && !/[.]$/.test(last) || wrapped || connector || yearLed;
      if (!wantMore || holder !== '' && KEYWORD_START.test(next.text)) break;
      // (\p{Lu} apart: under the i flag it would match any letter.)
      if (holder === '' && !/^\p{Lu}/u.test(next.text) && !/^(?:by\b|the\b|\(c\)|copyright|\d|\?)/i.test(next.text)) break;
      const before = acc.tokens.length;
      acc.stopAt = 0;
      scanTokens(nextWords, acc);
      if (acc.tokens.length === before) break;
      end = j;
      lastWords = nextWords;
      lastFrom = 0;
      j++;
    }
    // A bare "(c)" with no year running into prose is a list marker: "(c) Other ... means".
    if (/^\(c\)$/i.test(keyword.trim()) && !acc.tokens.some((t) => isYear(t)) && acc.stopped && /^\p{Ll}/u.test(lastWords[acc.stopAt] ?? '') && !/^by$/i.test(acc.tokens[1] ?? '')) continue;
    // A bare "(c)" opening a line with no year, whose words run into a heading or a defined term,
    // is item (c) of a list: "(c) TCK Use Restrictions.", "(c) URL ("URL")." (licence texts).
    if (/^\(c\)$/i.test(keyword.trim()) && start === 0 && end === i && !acc.tokens.some((t) => isYear(t)) && !/^by$/i.test(acc.tokens[1] ?? '')
      && (/\("[^"]+"\)/.test(tail) || acc.stopped && STOP.has(bare(lastWords[acc.stopAt] ?? '')) && !/^(?:all|rights?)$/i.test(bare(lastWords[acc.stopAt] ?? '')))) continue;
    // "Modified by Paul Mundt <lethal@linux-sh.org> (c) 2004": the holder precedes the sign.
    if (/^\(c\)$/i.test(keyword.trim()) && holderOf(acc.tokens) === '' && start > 0) {
      const before = nameBefore(line.text.slice(0, start));
      if (before.length > 0) acc.tokens.unshift(...before);
    }
    const value = statementOf(acc.tokens);
    const holder = holderOf(acc.tokens);
    if (value !== '' && (holder !== '' || acc.tokens.some((t) => isYear(t)))) {
      copyrights.push({ value, startLine: line.line, endLine: lines[end]!.line });
      if (holder !== '' && /\p{L}/u.test(holder)) holders.push({ value: holder, startLine: line.line, endLine: lines[end]!.line });
    }
    // Resume after the words the statement used, on the line it ended on.
    const resume = positionAfter(lines[end]!.text, lastFrom, lastWords, acc.stopped ? acc.stopAt : lastWords.length);
    if (end > i) {
      i = end;
      offset = resume;
    } else {
      offset = Math.max(offset, resume);
    }
  }
  return { copyrights, holders };
}
