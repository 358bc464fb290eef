// node-semver: ordering is SemVer 2.0 on major.minor.patch; ranges are node-semver's grammar
// (`^1.2.3`, `~1.2`, `1.x`, `1.2.3 - 2.3.4`, `>=1 <2 || >=3`, `*`). The same desugaring of
// partial versions, carets and tildes serves Cargo, Hex and Pub, so it is exported here.
//
// Pre-releases: node-semver only lets `1.2.3-beta` satisfy a range if some comparator names a
// pre-release of 1.2.3. We drop that restriction on purpose: an advisory range such as
// `>=1.0.0 <1.4.2` means "this line is vulnerable", and 1.3.0-rc.1 carries the same code, so it
// is matched by plain ordering. Upper bounds that node-semver writes as `<2.0.0-0` keep
// 2.0.0 pre-releases out of `^1.2.3`, as they would be with includePrerelease.

import { compareDigits, comparePre, parseSemverLike } from './semver.ts';
import { ConstraintError, memo, satisfies } from './scheme.ts';
import type { Operator, VersionScheme } from './scheme.ts';

type Compare = (a: string, b: string) => number;
type Predicate = (version: string) => boolean;

const parse = memo(parseSemverLike);

/**
 * SemVer order on the first three numbers; further numbers are ignored like build metadata.
 * Invalid versions are ordered by the same lenient parse (see parseSemverLike), never rejected.
 */
export function compareSemver(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const order = compareDigits(x.numbers[i] ?? '0', y.numbers[i] ?? '0');
    if (order !== 0) return order;
  }
  return comparePre(x.pre, y.pre);
}

const STRICT = /^[=v]?\s*(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const npmScheme: VersionScheme = {
  id: 'npm',
  isValid: (v) => STRICT.test(v.trim()),
  compare: compareSemver,
  constraint: (text) => semverRange(text, compareSemver, { bare: '=' }),
};

// ---- range grammar ----------------------------------------------------------------------------

/** A version with possibly missing or wildcard parts (`1`, `1.2.x`, `*`). */
interface Partial {
  parts: number; // how many of major, minor, patch are given
  major: number;
  minor: number;
  patch: number;
  tail: string; // pre-release and build text as written, with its leading `-`/`+`
}

const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*])(?:\.(\d+|[xX*]))?)?((?:-|\+)[0-9A-Za-z.+-]*|[A-Za-z][0-9A-Za-z.+-]*)?$/;

function readPartial(text: string, version: string): Partial {
  const m = version === '' ? ['', 'x'] : PARTIAL.exec(version);
  if (!m) throw new ConstraintError(text, `cannot read version "${version}"`);
  const given = [m[1], m[2], m[3]];
  let parts = 0;
  while (parts < 3 && given[parts] !== undefined && !/^[xX*]$/.test(given[parts]!)) parts++;
  const num = (i: number) => (i < parts ? Number(given[i]) : 0);
  return { parts, major: num(0), minor: num(1), patch: num(2), tail: parts === 3 ? (m[4] ?? '') : '' };
}

const str = (major: number, minor: number, patch: number, tail = '') => `${major}.${minor}.${patch}${tail}`;

/** A partial version names its whole line, pre-releases included (node-semver's includePrerelease). */
const lowest = (p: Partial) => str(p.major, p.minor, p.patch, p.parts === 3 ? p.tail : '-0');

/** The smallest version of the next line up from a partial (1.2 → 1.3.0-0, 1 → 2.0.0-0). */
function nextLine(p: Partial, parts: number): string {
  if (parts <= 1) return str(p.major + 1, 0, 0, '-0');
  if (parts === 2) return str(p.major, p.minor + 1, 0, '-0');
  return str(p.major, p.minor, p.patch + 1, '-0');
}

type Bound = [Operator, string];

function caret(p: Partial, zeroMajorIsMinor: boolean): Bound[] {
  if (p.parts === 0) return [];
  const lower: Bound = ['>=', lowest(p)];
  // The caret allows changes that do not touch the left-most non-zero part that was given.
  let line: number;
  if (p.major !== 0 || p.parts === 1) line = 1;
  else if (p.minor !== 0 || p.parts === 2 || zeroMajorIsMinor) line = 2;
  else line = 3;
  return [lower, ['<', nextLine(p, line)]];
}

function tilde(p: Partial): Bound[] {
  if (p.parts === 0) return [];
  return [['>=', lowest(p)], ['<', nextLine(p, p.parts === 1 ? 1 : 2)]];
}

/** `~> 1.2` allows 1.x from 1.2; `~> 1.2.3` allows 1.2.x from 1.2.3 (Ruby/Elixir pessimism). */
function pessimistic(p: Partial): Bound[] {
  if (p.parts === 0) return [];
  return [['>=', lowest(p)], ['<', nextLine(p, Math.max(1, p.parts - 1))]];
}

function primitive(op: string, p: Partial): Bound[] {
  const exact = str(p.major, p.minor, p.patch, p.tail);
  if (p.parts === 0) return op === '<' || op === '>' ? [['<', '0.0.0-0']] : [];
  const full = p.parts === 3;
  switch (op) {
    case '>': return full ? [['>', exact]] : [['>=', nextLine(p, p.parts)]];
    case '>=': return [['>=', lowest(p)]];
    case '<': return full ? [['<', exact]] : [['<', str(p.major, p.minor, p.patch, '-0')]];
    case '<=': return full ? [['<=', exact]] : [['<', nextLine(p, p.parts)]];
    case '!=': return [['!=', exact]];
    default: return full ? [['=', exact]] : [['>=', lowest(p)], ['<', nextLine(p, p.parts)]];
  }
}

export interface RangeOptions {
  /** What a version without an operator means: exact (npm, Pub, Hex) or caret (Cargo). */
  bare: '=' | '^';
  /** Pub's caret stops at the next minor whenever the major is 0, so `^0.0.3` is `<0.1.0`. */
  caretZeroMajorIsMinor?: boolean;
}

/** Reads node-semver-style ranges (also Cargo, Hex and Pub requirement syntax) as a predicate. */
export function semverRange(text: string, compare: Compare, options: RangeOptions): Predicate {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'any') return () => true;
  const sets = trimmed.split(/\|\||\s+or\s+/).map((set) => comparatorSet(text, set.trim(), options));
  const bounded = sets.map((bounds) => (v: string) => bounds.every(([op, b]) => satisfies(compare(v, b), op)));
  return (v) => bounded.some((p) => p(v));
}

function comparatorSet(text: string, set: string, options: RangeOptions): Bound[] {
  if (set === '') return [];
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(set);
  if (hyphen) {
    const lo = readPartial(text, hyphen[1]!);
    const hi = readPartial(text, hyphen[2]!);
    return [...primitive('>=', lo), ...primitive('<=', hi)];
  }
  const tokens = set
    .replace(/&&|\s+and\s+/g, ',')
    .replace(/(<=|>=|==|!=|~>|[<>=~^])\s+/g, '$1')
    .split(/[\s,]+/)
    .filter((t) => t !== '');
  return tokens.flatMap((token) => {
    const m = /^(<=|>=|==|!=|~>|[<>=~^]|)(.*)$/.exec(token)!;
    if (m[1] !== '' && m[2] === '') throw new ConstraintError(text, `"${token}" has no version`);
    const p = readPartial(text, m[2]!);
    // A wildcard already says which versions it allows, so Cargo's bare caret does not apply.
    const op = m[1] === '' ? (p.parts < 3 && /[xX*]/.test(m[2]!) ? '=' : options.bare) : m[1] === '==' ? '=' : m[1]!;
    if (op === '^') return caret(p, options.caretZeroMajorIsMinor ?? false);
    if (op === '~') return tilde(p);
    if (op === '~>') return pessimistic(p);
    return primitive(op, p);
  });
}
