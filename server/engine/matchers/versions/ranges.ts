// OSV range evaluation (https://ossf.github.io/osv-schema/#evaluation) and the two constraint
// grammars most schemes share: comparator lists (`>= 1.2, < 1.4 || = 2.0`) and Maven/NuGet
// interval notation (`[1.0,2.0)`, `(,1.0],[1.2,)`). Scheme-specific sugar (`^`, `~>`, x-ranges)
// lives with its scheme; this module only knows operators and bounds.

import { ConstraintError, satisfies } from './scheme.ts';
import type { Operator, VersionScheme } from './scheme.ts';

export interface OsvEvent { introduced?: string; fixed?: string; last_affected?: string; limit?: string }
export interface OsvRange { type: string; events: OsvEvent[] }

type Compare = (a: string, b: string) => number;
type Predicate = (version: string) => boolean;

/** Whether any SEMVER or ECOSYSTEM range affects the version; GIT ranges name commits, not versions. */
export function inRanges(version: string, ranges: OsvRange[], scheme: VersionScheme, semver: VersionScheme): boolean {
  for (const range of ranges) {
    const type = range.type.toUpperCase();
    if (type === 'SEMVER' && inRange(version, range.events, semver)) return true;
    if (type === 'ECOSYSTEM' && inRange(version, range.events, scheme)) return true;
  }
  return false;
}

/**
 * Sorts the ranges' events ahead of time (parsing every bound once), so that the first
 * evaluation after loading a knowledge base costs what later ones do.
 */
export function prepareRanges(ranges: OsvRange[], scheme: VersionScheme, semver: VersionScheme): void {
  for (const range of ranges) {
    const type = range.type.toUpperCase();
    if (type === 'SEMVER') prepare(range.events, semver);
    else if (type === 'ECOSYSTEM') prepare(range.events, scheme);
  }
}

/** Exact membership of an OSV `versions` list, by the scheme's equality (so Maven `1.0` is `1`). */
export function inVersionList(version: string, versions: string[], scheme: VersionScheme): boolean {
  return versions.some((listed) => scheme.compare(version, listed) === 0);
}

interface Bound { kind: 'introduced' | 'fixed' | 'last_affected'; version: string }

// Ties put `introduced` first so that an empty range (introduced X, fixed X) stays empty at X.
const TIE_ORDER = { introduced: 0, fixed: 1, last_affected: 1 } as const;

/** An interval read from consecutive events in document order: introduced, then its end. */
interface Interval { from: string; to: Bound | null }

interface Prepared { compare: Compare; bounds: Bound[]; limits: string[]; intervals: Interval[] }

// Sorting a range's events costs comparisons; the same advisory is evaluated against many
// installed versions, so the sorted form is kept per events array (and per ordering). Advisory
// records are read-only once loaded, so an events array never changes under its cache entry.
const prepared = new WeakMap<OsvEvent[], Prepared>();

const isZero = (b: Bound) => b.kind === 'introduced' && b.version === '0';

function prepare(events: OsvEvent[], scheme: VersionScheme): Prepared {
  const compare = scheme.compare;
  const cached = prepared.get(events);
  if (cached && cached.compare === compare) return cached;
  const floor = (v: string) => (v === '0' ? v : scheme.introducedFloor?.(v) ?? v);
  const bounds: Bound[] = [];
  const limits: string[] = [];
  let intervals: Interval[] = [];
  // The pair reading only applies when the events strictly alternate introduced → end.
  let alternating = true;
  let open: Interval | null = null;
  for (const e of events) {
    if (e.introduced !== undefined) {
      const from = floor(e.introduced);
      bounds.push({ kind: 'introduced', version: from });
      if (open) alternating = false;
      open = { from, to: null };
      intervals.push(open);
    }
    for (const kind of ['fixed', 'last_affected'] as const) {
      const at = e[kind];
      if (at === undefined) continue;
      bounds.push({ kind, version: at });
      if (open) { open.to = { kind, version: at }; open = null; } else alternating = false;
    }
    if (e.limit !== undefined) limits.push(e.limit);
  }
  if (!alternating) intervals = [];
  bounds.sort((a, b) => {
    if (isZero(a) || isZero(b)) return Number(isZero(b)) - Number(isZero(a));
    return compare(a.version, b.version) || TIE_ORDER[a.kind] - TIE_ORDER[b.kind];
  });
  const result = { compare, bounds, limits, intervals };
  prepared.set(events, result);
  return result;
}

function inRange(version: string, events: OsvEvent[], scheme: VersionScheme): boolean {
  const { compare, bounds, limits, intervals } = prepare(events, scheme);
  // A limit caps the whole range; `*` is the spec's "no limit".
  if (limits.length > 0 && !limits.some((l) => l === '*' || compare(version, l) < 0)) return false;

  let affected = false;
  for (const b of bounds) {
    const order = isZero(b) ? 1 : compare(version, b.version);
    if (b.kind === 'introduced') {
      if (order >= 0) affected = true;
    } else if (b.kind === 'fixed') {
      if (order >= 0) affected = false;
    } else if (order > 0) {
      affected = false;
    }
  }
  if (affected) return true;
  // Some databases write several introduced/fixed pairs into one range, overlapping or out of
  // order ([2.11, 2.11.7) then [0, 2.11.6)); the sorted single pass above closes such a range
  // early. Read as the pairs their author wrote, they still cover the version: for well-formed
  // ranges both readings agree, and for the others missing a real finding is the worse error.
  return intervals.some(({ from, to }) =>
    (from === '0' || compare(version, from) >= 0) &&
    (!to || (to.kind === 'fixed' ? compare(version, to.version) < 0 : compare(version, to.version) <= 0)));
}

// ---- comparator lists -------------------------------------------------------------------------

const COMPARATOR = /^(<=|>=|==|!=|=|<|>)?\s*(\S+)$/;

/**
 * Reads `op version` comparators joined by commas, whitespace, `&&` or `and`, with `||`/`or`
 * between alternatives. An operator may be separated from its version by spaces (`>= 1.2`).
 * `sugar` lets a scheme expand its own forms (`^1.2`, `~> 1.2`) into a predicate; it returns
 * undefined for anything it does not recognise. A bare version means equality.
 */
export function comparatorUnion(
  text: string,
  compare: Compare,
  sugar?: (op: string, version: string) => Predicate | undefined,
): Predicate {
  const alternatives = text.split(/\|\||\s+or\s+/).map((alt) => comparatorList(text, alt, compare, sugar));
  return (v) => alternatives.some((all) => all(v));
}

function comparatorList(
  text: string,
  alt: string,
  compare: Compare,
  sugar?: (op: string, version: string) => Predicate | undefined,
): Predicate {
  // Join an operator to its version first so whitespace can then separate comparators.
  const joined = alt.replace(/&&|\s+and\s+/g, ',').replace(/(<=|>=|==|!=|~>|[<>=~^])\s+/g, '$1');
  const tokens = joined.split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.length === 0) throw new ConstraintError(text, 'empty comparator list');
  const preds = tokens.map((token) => {
    const sugared = sugar && sugarFor(token, sugar);
    if (sugared) return sugared;
    const m = COMPARATOR.exec(token);
    if (!m || /^[<>=!~^]/.test(m[2]!)) throw new ConstraintError(text, `cannot read "${token}"`);
    const op = (m[1] === undefined || m[1] === '==' ? '=' : m[1]) as Operator;
    const bound = m[2]!;
    // Advisories write `>= 0` for "since the beginning", as OSV writes introduced "0"; taken
    // literally it would leave out the pre-releases that sort below 0 (`0.0.0-2021…` in Go).
    if (op === '>=' && bound === '0') return () => true;
    return (v: string) => satisfies(compare(v, bound), op);
  });
  return (v) => preds.every((p) => p(v));
}

function sugarFor(token: string, sugar: (op: string, version: string) => Predicate | undefined): Predicate | undefined {
  const m = /^(<=|>=|==|!=|~>|[<>=~^])?(.*)$/.exec(token)!;
  return sugar(m[1] ?? '', m[2]!);
}

// ---- interval notation ------------------------------------------------------------------------

const INTERVAL = /^([[(])([^,\])]*)(?:(,)([^\])]*))?([\])])$/;

/** Whether the text is interval notation rather than a comparator list. */
export function isIntervalNotation(text: string): boolean {
  return /^\s*[[(]/.test(text);
}

/** Reads `[1.0,2.0)`, `(,1.0],[1.2,)` and the exact `[1.0]` as a union of intervals. */
export function intervalUnion(text: string, compare: Compare): Predicate {
  const compact = text.replace(/\s+/g, '');
  const pieces = compact.match(/[[(][^\])]*[\])]/g) ?? [];
  const leftover = compact.replace(/[[(][^\])]*[\])]/g, '').replace(/,/g, '');
  if (pieces.length === 0 || leftover !== '') {
    throw new ConstraintError(text, 'not interval notation');
  }
  const preds = pieces.map((piece) => interval(text, piece, compare));
  return (v) => preds.some((p) => p(v));
}

function interval(text: string, piece: string, compare: Compare): Predicate {
  const m = INTERVAL.exec(piece);
  if (!m) throw new ConstraintError(text, `cannot read "${piece}"`);
  const [, open, lower = '', comma, upper = '', close] = m;
  if (comma === undefined) {
    // `[1.0]` is exactly 1.0; `(1.0)` excludes its only point and so names nothing.
    if (open !== '[' || close !== ']' || lower === '') throw new ConstraintError(text, `cannot read "${piece}"`);
    return (v) => compare(v, lower) === 0;
  }
  if (lower === '' && upper === '') throw new ConstraintError(text, `unbounded interval "${piece}"`);
  return (v) => {
    if (lower !== '') {
      const order = compare(v, lower);
      if (order < 0 || (order === 0 && open === '(')) return false;
    }
    if (upper !== '') {
      const order = compare(v, upper);
      if (order > 0 || (order === 0 && close === ')')) return false;
    }
    return true;
  };
}
