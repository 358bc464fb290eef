// RPM versions `[epoch:]version[-release]`, compared like rpm: the epoch, then version and
// release each with rpmvercmp.
//
// rpmvercmp never rejects anything, so neither does this scheme: isValid only reports whether
// the text looks like an EVR rpm would build (starts with an alphanumeric, no whitespace).
// Two deliberate readings where rpm itself is ambiguous, both fixed by the upstream corpus:
// - only digits before the first `:` make an epoch (`a:1` is a version with a colon in it);
// - a version without a release sorts before the same version with any release, even an empty
//   one (`1 < 1-`), so a release-less advisory bound stays below every built package of it.

import type { VersionScheme } from './scheme.ts';
import { memo } from './scheme.ts';
import { comparatorUnion } from './ranges.ts';
import { splitEpoch, type EpochVersion } from './epoch.ts';

type Evr = EpochVersion;

const parse = memo((text: string): Evr => splitEpoch(text));

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isSeparator(c: number): boolean {
  return c !== 0 && !isDigit(c) && !isAlpha(c) && c !== 126 && c !== 94;
}

/** rpm's rpmvercmp: `~` sorts before everything, `^` after the end but before anything else. */
function rpmvercmp(a: string, b: string): number {
  if (a === b) return 0;
  const at = (s: string, k: number): number => (k < s.length ? s.charCodeAt(k) : 0);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while (isSeparator(at(a, i))) i++;
    while (isSeparator(at(b, j))) j++;
    const x = at(a, i);
    const y = at(b, j);
    if (x === 126 || y === 126) {
      if (x !== 126) return 1;
      if (y !== 126) return -1;
      i++;
      j++;
      continue;
    }
    if (x === 94 || y === 94) {
      if (x === 0) return -1;
      if (y === 0) return 1;
      if (x !== 94) return 1;
      if (y !== 94) return -1;
      i++;
      j++;
      continue;
    }
    if (x === 0 || y === 0) break;

    const numeric = isDigit(x);
    const inSegment = numeric ? isDigit : isAlpha;
    const si = i;
    const sj = j;
    while (inSegment(at(a, i))) i++;
    while (inSegment(at(b, j))) j++;
    // A numeric segment beats an alphabetic one.
    if (sj === j) return numeric ? 1 : -1;
    let p = a.slice(si, i);
    let q = b.slice(sj, j);
    if (numeric) {
      p = p.replace(/^0+/, '');
      q = q.replace(/^0+/, '');
      if (p.length !== q.length) return p.length > q.length ? 1 : -1;
    }
    if (p !== q) return p < q ? -1 : 1;
  }
  const endA = i >= a.length;
  const endB = j >= b.length;
  if (endA && endB) return 0;
  return endA ? -1 : 1;
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  const x = parse(a);
  const y = parse(b);
  if (x.epoch !== y.epoch) return x.epoch < y.epoch ? -1 : 1;
  const v = rpmvercmp(x.version, y.version);
  if (v !== 0) return v;
  if (x.release === null || y.release === null) return x.release === y.release ? 0 : x.release === null ? -1 : 1;
  return rpmvercmp(x.release, y.release);
}

export const rpmScheme: VersionScheme = {
  id: 'rpm',
  isValid: (version) => /^(?:\d+:)?[A-Za-z0-9][^\s]*$/.test(version),
  compare,
  constraint: (text) => comparatorUnion(text, compare),
};
