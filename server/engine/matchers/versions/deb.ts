// Debian package versions, compared the way dpkg does: `[epoch:]upstream[-revision]`, the epoch
// numerically, then upstream and revision with dpkg's verrevcmp. A missing revision compares as
// "0" would (dpkg treats `1.0` and `1.0-0` as equal).
//
// Text dpkg would reject (a letter first, a non-numeric epoch, stray characters) is not refused:
// it is read with the same rules as far as they go — a leading `N:` is the epoch, everything after
// the last `-` the revision — so advisories with sloppy versions still order sensibly.

import type { VersionScheme } from './scheme.ts';
import { memo } from './scheme.ts';
import { comparatorUnion } from './ranges.ts';
import { splitEpoch } from './epoch.ts';

interface DebVersion {
  readonly epoch: bigint;
  readonly upstream: string;
  readonly revision: string;
}

/** dpkg's own checks (parseversion): numeric epoch, upstream starting with a digit, no stray characters. */
function isValid(text: string): boolean {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  if (colon >= 0 && !/^\d+$/.test(trimmed.slice(0, colon))) return false;
  const rest = trimmed.slice(colon + 1);
  const dash = rest.lastIndexOf('-');
  if (!/^\d[A-Za-z0-9.+~:-]*$/.test(dash < 0 ? rest : rest.slice(0, dash))) return false;
  return dash < 0 || /^[A-Za-z0-9.+~]+$/.test(rest.slice(dash + 1));
}

const parse = memo((text: string): DebVersion => {
  const { epoch, version, release } = splitEpoch(text);
  return { epoch, upstream: version, revision: release ?? '' };
});

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

// `~` sorts before everything, even the end of the string; letters before other punctuation.
function weight(c: number): number {
  if (c === 0 || isDigit(c)) return 0;
  if (isLetter(c)) return c;
  if (c === 126) return -1;
  return c + 256;
}

/** dpkg's verrevcmp: alternate non-digit runs (by weight) and digit runs (numerically). */
function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  const at = (s: string, k: number): number => (k < s.length ? s.charCodeAt(k) : 0);
  while (i < a.length || j < b.length) {
    while ((i < a.length && !isDigit(at(a, i))) || (j < b.length && !isDigit(at(b, j)))) {
      const d = weight(at(a, i)) - weight(at(b, j));
      if (d !== 0) return d;
      i++;
      j++;
    }
    while (at(a, i) === 48) i++;
    while (at(b, j) === 48) j++;
    let firstDiff = 0;
    while (isDigit(at(a, i)) && isDigit(at(b, j))) {
      if (firstDiff === 0) firstDiff = at(a, i) - at(b, j);
      i++;
      j++;
    }
    if (isDigit(at(a, i))) return 1;
    if (isDigit(at(b, j))) return -1;
    if (firstDiff !== 0) return firstDiff;
  }
  return 0;
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  const x = parse(a);
  const y = parse(b);
  if (x.epoch !== y.epoch) return x.epoch < y.epoch ? -1 : 1;
  return Math.sign(verrevcmp(x.upstream, y.upstream) || verrevcmp(x.revision, y.revision));
}

export const debScheme: VersionScheme = {
  id: 'deb',
  isValid,
  compare,
  constraint: (text) => comparatorUnion(text, compare),
};
