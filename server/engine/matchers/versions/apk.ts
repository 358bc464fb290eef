// Alpine package versions, ordered like apk-tools: `number{.number}[letter]{_suffix[N]}[~hash][-rN]`.
// Suffixes rank _alpha < _beta < _pre < _rc < (none) < _cvs < _svn < _git < _hg < _p.
//
// Real-world strings bend the format (`6.6.2p1`, `1.2_blah`, `1-ruff`). Whatever cannot be read
// is kept as a remainder: a version with a remainder sorts just below the same version without
// one, and two unreadable versions compare as plain text, which is what the upstream test
// corpus (apk-tools' version.data plus Alpine's own releases) expects.

import type { VersionScheme } from './scheme.ts';
import { memo } from './scheme.ts';
import { comparatorUnion } from './ranges.ts';

interface Component {
  readonly text: string;
  readonly value: bigint;
  readonly first: boolean;
}

interface ApkVersion {
  readonly text: string;
  readonly invalid: boolean;
  readonly components: readonly Component[];
  readonly letter: string;
  readonly suffixes: readonly (readonly [number, bigint])[];
  readonly revision: bigint;
  readonly remainder: string;
}

const SUFFIX_RANK: Record<string, number> = {
  alpha: 0, beta: 1, pre: 2, rc: 3, cvs: 5, svn: 6, git: 7, hg: 8, p: 9,
};
const NO_SUFFIX: readonly [number, bigint] = [4, 0n];
const ZERO: Component = { text: '0', value: 0n, first: true };

const parse = memo((text: string): ApkVersion => {
  let rest = text;
  const numbers = /^(?:\d+\.?)*/.exec(rest)![0];
  rest = rest.slice(numbers.length);
  const components = numbers.split('.').map((part, i): Component =>
    ({ text: part, value: part === '' ? 0n : BigInt(part), first: i === 0 }));

  const letter = /^[a-z]/.test(rest) ? rest[0]! : '';
  rest = rest.slice(letter.length);

  const suffixes: (readonly [number, bigint])[] = [];
  for (let m = /^_(alpha|beta|pre|rc|cvs|svn|git|hg|p)(\d*)/.exec(rest); m;
    m = /^_(alpha|beta|pre|rc|cvs|svn|git|hg|p)(\d*)/.exec(rest)) {
    suffixes.push([SUFFIX_RANK[m[1]!]!, BigInt(m[2] || '0')]);
    rest = rest.slice(m[0].length);
  }

  // A commit hash says where the package was built from and carries no order.
  rest = rest.replace(/^~[0-9a-f]+/, '');

  let revision = 0n;
  let invalid = false;
  const build = /^-r(\d*)/.exec(rest);
  if (build) {
    revision = BigInt(build[1] || '0');
    rest = rest.slice(build[0].length);
  } else if (rest !== '') {
    invalid = true;
  }
  return { text, invalid, components, letter, suffixes, revision, remainder: rest };
});

function cmp<T extends bigint | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// apk compares components after the first as decimal fractions when either has a leading zero
// (1.02 < 1.1), which string comparison of the digits reproduces.
function compareComponent(a: Component, b: Component): number {
  if (!a.first && !b.first && (a.text.startsWith('0') || b.text.startsWith('0'))) return cmp(a.text, b.text);
  return cmp(a.value, b.value);
}

function compareParsed(a: ApkVersion, b: ApkVersion): number {
  if (a.invalid && b.invalid) return cmp(a.text, b.text);
  const n = Math.max(a.components.length, b.components.length);
  for (let i = 0; i < n; i++) {
    const d = compareComponent(a.components[i] ?? ZERO, b.components[i] ?? ZERO);
    if (d !== 0) return d;
  }
  if (a.letter !== b.letter) return a.letter === '' ? -1 : b.letter === '' ? 1 : cmp(a.letter, b.letter);
  const s = Math.max(a.suffixes.length, b.suffixes.length);
  for (let i = 0; i < s; i++) {
    const x = a.suffixes[i] ?? NO_SUFFIX;
    const y = b.suffixes[i] ?? NO_SUFFIX;
    const d = x[0] - y[0] || cmp(x[1], y[1]);
    if (d !== 0) return Math.sign(d);
  }
  const r = cmp(a.revision, b.revision);
  if (r !== 0) return r;
  if ((a.remainder === '') !== (b.remainder === '')) return a.remainder === '' ? 1 : -1;
  return 0;
}

function compare(a: string, b: string): number {
  return a === b ? 0 : compareParsed(parse(a), parse(b));
}

const VALID = /^\d+(?:\.\d+)*[a-z]?(?:_(?:alpha|beta|pre|rc|cvs|svn|git|hg|p)\d*)*(?:~[0-9a-f]+)?(?:-r\d+)?$/;

export const apkScheme: VersionScheme = {
  id: 'apk',
  isValid: (version) => VALID.test(version),
  compare,
  constraint: (text) => comparatorUnion(text, compare),
};
