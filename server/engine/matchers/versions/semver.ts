// The lenient "semantic" ordering osv-scalibr applies to SemVer-like ecosystems, and the SemVer
// building blocks the stricter flavours (npm, Go, Cargo, Hex, Pub, NuGet) reuse. Lenient because
// advisories and lockfiles for these ecosystems are full of `v1.2`, `1.2.3.4` and `1.0rc1`: any
// number of numeric components (missing ones are 0), then everything from the first other
// character is the pre-release, up to `+` which starts build metadata.

import { comparatorUnion } from './ranges.ts';
import { memo } from './scheme.ts';
import type { VersionScheme } from './scheme.ts';

export interface SemverLike {
  /** Decimal digit strings without leading zeros, so numbers of any size compare exactly. */
  readonly numbers: string[];
  /** Dot-separated pre-release identifiers; empty for a release. */
  readonly pre: string[];
  /** Dot-separated build identifiers; empty when there is none. */
  readonly build: string[];
}

const DIGITS = /^\d+$/;

/** Compares two digit strings numerically, at any size. */
export function compareDigits(a: string, b: string): number {
  const x = stripZeros(a);
  const y = stripZeros(b);
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

function stripZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return i === 0 ? digits : digits.slice(i);
}

/** Compares number lists where a missing component counts as 0 (`1.0` = `1.0.0`). */
export function compareNumbers(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = compareDigits(a[i] ?? '0', b[i] ?? '0');
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * SemVer 2.0 §11 identifier precedence: numeric identifiers numerically, others in ASCII order,
 * numeric before alphanumeric, and a longer list wins when one is a prefix of the other.
 */
export function compareIdentifiers(a: readonly string[], b: readonly string[], foldCase = false): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    const xNum = DIGITS.test(x);
    const yNum = DIGITS.test(y);
    let order: number;
    if (xNum && yNum) order = compareDigits(x, y);
    else if (xNum) order = -1;
    else if (yNum) order = 1;
    else {
      const [p, q] = foldCase ? [x.toLowerCase(), y.toLowerCase()] : [x, y];
      order = p < q ? -1 : p > q ? 1 : 0;
    }
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** A release sorts after every pre-release of the same numbers. */
export function comparePre(a: readonly string[], b: readonly string[], foldCase = false): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  return compareIdentifiers(a, b, foldCase);
}

/**
 * Parses leniently and never fails, which is the fallback order for invalid versions: text with
 * no leading number counts as a pre-release of 0 (so it sorts below every real release).
 */
export function parseSemverLike(text: string): SemverLike {
  let s = text.trim();
  if (s.startsWith('v') || s.startsWith('V')) s = s.slice(1);
  const numbers: string[] = [];
  let i = 0;
  for (;;) {
    const start = i;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === start) break;
    numbers.push(stripZeros(s.slice(start, i)));
    if (s[i] !== '.' || !/\d/.test(s[i + 1] ?? '')) break;
    i++;
  }
  let rest = s.slice(i);
  // A dangling dot (`1.2.`) adds nothing.
  if (rest === '.') rest = '';
  const plus = rest.indexOf('+');
  const preText = (plus < 0 ? rest : rest.slice(0, plus)).replace(/^[-.]/, '');
  const buildText = plus < 0 ? '' : rest.slice(plus + 1);
  return {
    numbers,
    pre: preText === '' ? [] : preText.split('.'),
    build: buildText === '' ? [] : buildText.split('.'),
  };
}

const parse = memo(parseSemverLike);

/** Lenient validity: a leading number, optional `v`, and only SemVer characters after it. */
const VALID = /^[vV]?\d+(\.\d+)*([-.]?[0-9A-Za-z][0-9A-Za-z.-]*)?(\+[0-9A-Za-z.-]+)?$/;

export const semverScheme: VersionScheme = {
  id: 'semver',
  isValid: (v) => VALID.test(v.trim()),
  compare(a, b) {
    const x = parse(a);
    const y = parse(b);
    return compareNumbers(x.numbers, y.numbers) || comparePre(x.pre, y.pre);
  },
  constraint(text) {
    return comparatorUnion(text, semverScheme.compare, lineSugar(semverScheme.compare));
  },
};

/**
 * `^`, `~` and `~>` for lenient versions of any length (CocoaPods, Swift and Conan advisories
 * borrow them): each allows versions from the one given up to, not including, the next release
 * of a line — `^` the left-most non-zero number, `~` the minor (major if only one number is
 * given), `~>` the second-to-last number given. The `-0` pre-release keeps that next line's own
 * pre-releases out.
 */
function lineSugar(compare: (a: string, b: string) => number) {
  return (op: string, version: string): ((v: string) => boolean) | undefined => {
    if (op !== '^' && op !== '~' && op !== '~>') return undefined;
    const { numbers } = parseSemverLike(version);
    if (numbers.length === 0) return undefined;
    let at: number;
    if (op === '^') {
      at = numbers.findIndex((n) => n !== '0');
      if (at < 0) at = numbers.length - 1;
    } else if (op === '~') at = numbers.length === 1 ? 0 : 1;
    else at = Math.max(0, numbers.length - 2);
    const next = numbers.slice(0, at + 1).map((n, i) => (i === at ? String(BigInt(n) + 1n) : n));
    const upper = `${next.join('.')}-0`;
    return (v) => compare(v, version) >= 0 && compare(v, upper) < 0;
  };
}
