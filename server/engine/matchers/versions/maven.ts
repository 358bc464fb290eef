// Maven ComparableVersion ordering, as the Version Order Specification describes and as osv.dev
// implements it (https://maven.apache.org/pom.html#Version_Order_Specification):
// - tokens are split at `.`, `-` and digit/letter transitions (a transition counts as `-`);
// - `alpha < beta < milestone < rc = cr < snapshot < "" = ga = final = release < sp`, unknown
//   qualifiers after those, alphabetically; `a1`/`b1`/`m1` abbreviate alpha/beta/milestone;
// - trailing "null" tokens (0, "", ga, final) are dropped before each hyphen and at the end;
// - between tokens with different separators `.qualifier < -qualifier < -number < .number`.
// Constraints are Maven interval notation or advisory comparator lists; a bare version is exact.
// Any text tokenises, so there is no separate fallback order for invalid versions. Maven's order
// itself is not transitive across `.qualifier` and `-qualifier` (1 < 1.foo < 1-beta < 1), and we
// keep that: matching only ever compares pairs, and the oracle is Maven's own answers.

import { comparatorUnion, intervalUnion, isIntervalNotation } from './ranges.ts';
import { memo } from './scheme.ts';
import type { VersionScheme } from './scheme.ts';
import { compareDigits } from './semver.ts';

interface Token {
  /** `.`, `-`, or `` for the first token. */
  readonly sep: string;
  readonly value: string;
  readonly numeric: boolean;
  /** Padding inserted while comparing versions of different length. */
  readonly isNull: boolean;
}

const KEYWORDS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Record<string, string> = { cr: 'rc', ga: '', final: '', release: '' };
const SHORT: Record<string, string> = { a: 'alpha', b: 'beta', m: 'milestone' };

function token(sep: string, value: string, isNull = false): Token {
  return { sep, value, numeric: /^\d+$/.test(value), isNull };
}

function parseMaven(text: string): Token[] {
  const tokens: Token[] = [];
  const raw = text.trim().toLowerCase().split(/([.-])/);
  for (let i = 0; i < raw.length; i += 2) {
    const pieces = raw[i]!.match(/\d+|\D+/g) ?? [''];
    pieces.forEach((piece, j) => {
      const sep = j > 0 ? '-' : i === 0 ? '' : raw[i - 1]!;
      let value = piece === '' ? '0' : piece;
      value = ALIASES[value] ?? value;
      // `a`, `b` and `m` only abbreviate when a number follows directly (`1a1`, not `1-a`).
      if (j < pieces.length - 1) value = SHORT[value] ?? value;
      if (/^\d+$/.test(value)) value = value.replace(/^0+(?=\d)/, '');
      tokens.push(token(sep, value));
    });
  }
  return trimNulls(tokens);
}

const isNullValue = (t: Token) => t.value === '0' || t.value === '';

/** Drops trailing null tokens at the end and again before every hyphen, scanning backwards. */
function trimNulls(tokens: Token[]): Token[] {
  let i = tokens.length - 1;
  while (i > 0) {
    if (isNullValue(tokens[i]!)) {
      tokens.splice(i, 1);
      i--;
      continue;
    }
    while (i >= 0 && tokens[i]!.sep !== '-') i--;
    i--;
  }
  return tokens;
}

/** The padding a missing token gets, shaped after the token it is compared with. */
function nullLike(other: Token): Token {
  if (other.sep === '-') return token('-', '', true);
  // `sp` is the only qualifier ranking after "", so the padding must be "" to stay below it.
  return token(other.sep, other.value === 'sp' ? '' : '0', true);
}

function sepRank(t: Token): number {
  if (t.numeric) return t.sep === '-' ? 2 : 3;
  return t.sep === '-' ? 1 : 0;
}

function keywordRank(value: string): number {
  const i = KEYWORDS.indexOf(value);
  return i < 0 ? KEYWORDS.length : i;
}

function lessThan(a: Token, b: Token): boolean {
  if (a.sep !== b.sep) return sepRank(a) < sepRank(b);
  if (a.numeric && b.numeric) return compareDigits(a.value, b.value) < 0;
  // Numbers sort after qualifiers, except the zero padding, which ranks like a qualifier.
  if (a.numeric && !a.isNull) return false;
  if (b.numeric && !b.isNull) return true;
  const x = keywordRank(a.value);
  const y = keywordRank(b.value);
  if (x === KEYWORDS.length && y === KEYWORDS.length) return a.value < b.value;
  return x < y;
}

const parse = memo(parseMaven);

function compare(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const l = x[i] ?? nullLike(y[i]!);
    const r = y[i] ?? nullLike(x[i]!);
    if (l.sep === r.sep && l.value === r.value) continue;
    if (lessThan(l, r)) return -1;
    if (lessThan(r, l)) return 1;
  }
  return 0;
}

export const mavenScheme: VersionScheme = {
  id: 'maven',
  isValid: (v) => /^[0-9A-Za-z][0-9A-Za-z._+-]*$/.test(v.trim()),
  compare,
  constraint: (text) => (isIntervalNotation(text) ? intervalUnion(text, compare) : comparatorUnion(text, compare)),
};
