// PyPI versions (PEP 440), ordered the way `packaging.version.Version` orders them.
//
// Strings PEP 440 rejects ("legacy" versions such as `0.9-doduo`) still appear in old releases
// and advisories. They are ordered with the key setuptools' LegacyVersion used, and always below
// every valid version — the place `packaging` < 22 gave them (epoch -1), so a range bound written
// as a valid version never swallows them by accident.

import type { Operator, VersionScheme } from './scheme.ts';
import { ConstraintError, memo, satisfies } from './scheme.ts';

interface Pep440 {
  readonly legacy: false;
  readonly epoch: bigint;
  /** The release as written (`1.0.0`), for prefix matching (`==1.0.*`, `~=`). */
  readonly release: readonly bigint[];
  /** The release without trailing zeros, for ordering (`1.0.0` = `1`). */
  readonly significant: readonly bigint[];
  /** Pre-release as [rank a=0 b=1 rc=2, number]. */
  readonly pre: readonly [number, bigint] | null;
  readonly post: bigint | null;
  readonly dev: bigint | null;
  readonly local: readonly (string | bigint)[] | null;
}

interface Legacy {
  readonly legacy: true;
  readonly text: string;
  readonly parts: readonly string[];
}

type Parsed = Pep440 | Legacy;

// packaging's VERSION_PATTERN; alternation order does not matter because the pattern is anchored.
const PEP440 = new RegExp(
  '^\\s*v?(?:(\\d+)!)?(\\d+(?:\\.\\d+)*)' +
    '(?:[-_.]?(alpha|beta|preview|pre|rc|a|b|c)[-_.]?(\\d+)?)?' +
    '(?:-(\\d+)|[-_.]?(post|rev|r)[-_.]?(\\d+)?)?' +
    '(?:[-_.]?(dev)[-_.]?(\\d+)?)?' +
    '(?:\\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\\s*$',
  'i',
);

const PRE_RANK: Record<string, number> = { a: 0, alpha: 0, b: 1, beta: 1, c: 2, rc: 2, pre: 2, preview: 2 };

function trimZeros(release: readonly bigint[]): bigint[] {
  let end = release.length;
  while (end > 0 && release[end - 1] === 0n) end--;
  return release.slice(0, end);
}

function parsePep440(text: string): Pep440 | null {
  const m = PEP440.exec(text);
  if (!m) return null;
  const release = m[2]!.split('.').map(BigInt);
  const preLabel = m[3]?.toLowerCase();
  return {
    legacy: false,
    epoch: m[1] === undefined ? 0n : BigInt(m[1]),
    release,
    significant: trimZeros(release),
    pre: preLabel === undefined ? null : [PRE_RANK[preLabel]!, BigInt(m[4] ?? '0')],
    // `1.0-1` is an implicit post-release; `1.0.post` means post 0.
    post: m[5] !== undefined ? BigInt(m[5]) : m[6] !== undefined ? BigInt(m[7] ?? '0') : null,
    dev: m[8] !== undefined ? BigInt(m[9] ?? '0') : null,
    local: m[10] === undefined ? null
      : m[10].toLowerCase().split(/[-_.]/).map((s) => (/^\d+$/.test(s) ? BigInt(s) : s)),
  };
}

// setuptools' legacy key: runs of digits are zero-padded so they sort as text, words are
// prefixed with `*` so they sort below numbers, and `*final` closes the release.
const LEGACY_RENAME: Record<string, string> = { pre: 'c', preview: 'c', '-': 'final-', rc: 'c', dev: '@' };

function legacyParts(text: string): string[] {
  const lower = text.toLowerCase();
  const pieces: string[] = [];
  let last = 0;
  for (const m of lower.matchAll(/\d+|[a-z]+|\.|-/g)) {
    pieces.push(lower.slice(last, m.index), m[0]);
    last = m.index + m[0].length;
  }
  pieces.push(lower.slice(last));

  const parts: string[] = [];
  for (const raw of pieces) {
    const piece = LEGACY_RENAME[raw] ?? raw;
    if (piece === '' || piece === '.') continue;
    const part = /^\d/.test(piece) ? piece.padStart(8, '0') : `*${piece}`;
    if (part.startsWith('*')) {
      if (part < '*final') while (parts.at(-1) === '*final-') parts.pop();
      while (parts.at(-1) === '00000000') parts.pop();
    }
    parts.push(part);
  }
  parts.push('*final');
  return parts;
}

const parse = memo((text: string): Parsed =>
  parsePep440(text) ?? { legacy: true, text, parts: legacyParts(text) });

function cmp<T extends bigint | number | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareLists<T extends bigint | string>(a: readonly T[], b: readonly T[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = cmp(a[i]!, b[i]!);
    if (d !== 0) return d;
  }
  return cmp(a.length, b.length);
}

// The pre, post and dev slots each sort missing values to one end: a bare dev release
// (`1.0.dev1`) comes before every pre-release of 1.0, a final release after all of them.
function preKey(v: Pep440): readonly [number, bigint] {
  if (v.pre) return v.pre;
  return v.post === null && v.dev !== null ? [-1, 0n] : [3, 0n];
}

// Local segments: numbers sort above words, words sort among themselves as text.
function compareLocal(a: Pep440['local'], b: Pep440['local']): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const d = typeof x === typeof y ? cmp(x, y) : typeof x === 'bigint' ? 1 : -1;
    if (d !== 0) return d;
  }
  return cmp(a.length, b.length);
}

function comparePep440(a: Pep440, b: Pep440, withLocal: boolean): number {
  return cmp(a.epoch, b.epoch)
    || compareLists(a.significant, b.significant)
    || cmp(preKey(a)[0], preKey(b)[0]) || cmp(preKey(a)[1], preKey(b)[1])
    || (a.post === b.post ? 0 : a.post === null ? -1 : b.post === null ? 1 : cmp(a.post, b.post))
    || (a.dev === b.dev ? 0 : a.dev === null ? 1 : b.dev === null ? -1 : cmp(a.dev, b.dev))
    || (withLocal ? compareLocal(a.local, b.local) : 0);
}

function compareParsed(a: Parsed, b: Parsed, withLocal = true): number {
  if (a.legacy || b.legacy) {
    if (a.legacy && b.legacy) return compareLists(a.parts, b.parts);
    return a.legacy ? -1 : 1;
  }
  return comparePep440(a, b, withLocal);
}

// --- constraints -------------------------------------------------------------------------------
// PEP 440 specifiers and the comparator lists advisories write (`< 0.15.3`, `>= 1.0, < 2.0`),
// comma = and, `||` = or. Ordered comparisons are plain ordering, read with advisory intent: pip's
// `<1.0` skips 1.0rc1 and `>1.0` skips 1.0.post1, but an advisory fixed in 1.0 means the rc is
// still vulnerable. Local labels follow PEP 440: a bound without one ignores the candidate's.

type PypiOperator = Exclude<Operator, '='> | '==' | '~=' | '===' | '==*' | '!=*';

const CLAUSE = /^\s*,?\s*(===|~=|==|!=|<=|>=|<|>|=)?\s*([^\s,]+)\s*,?/;

function prefixMatches(candidate: Parsed, prefix: Pep440): boolean {
  if (candidate.legacy || candidate.epoch !== prefix.epoch) return false;
  const n = prefix.release.length;
  for (let i = 0; i < n; i++) {
    if ((candidate.release[i] ?? 0n) !== prefix.release[i]) return false;
  }
  // `==1.0rc1.*` also pins the pre/post/dev parts the prefix spells out.
  if (prefix.pre && (candidate.pre?.[0] !== prefix.pre[0] || candidate.pre[1] !== prefix.pre[1])) return false;
  if (prefix.post !== null && candidate.post !== prefix.post) return false;
  if (prefix.dev !== null && candidate.dev !== prefix.dev) return false;
  return true;
}

function clause(text: string, op: PypiOperator, raw: string): (version: string) => boolean {
  if (op === '===') {
    const want = raw.trim().toLowerCase();
    return (v) => v.trim().toLowerCase() === want;
  }
  if (op === '==*' || op === '!=*') {
    const prefix = parsePep440(raw.slice(0, -2));
    if (!prefix || prefix.local) throw new ConstraintError(text, `无效的前缀版本 ${raw}`);
    return op === '==*' ? (v) => prefixMatches(parse(v), prefix) : (v) => !prefixMatches(parse(v), prefix);
  }
  const bound = parsePep440(raw);
  if (!bound) throw new ConstraintError(text, `无效的 PEP 440 版本 ${raw}`);
  if (op === '~=') {
    if (bound.release.length < 2) throw new ConstraintError(text, '~= 至少需要两段发布号');
    const prefix: Pep440 = { ...bound, release: bound.release.slice(0, -1), pre: null, post: null, dev: null };
    return (v) => {
      const p = parse(v);
      return compareParsed(p, bound, false) >= 0 && prefixMatches(p, prefix);
    };
  }
  // A bound without a local label ignores the candidate's local label (PEP 440 "local versions").
  const withLocal = bound.local !== null;
  const order: Operator = op === '==' ? '=' : op;
  return (v) => satisfies(compareParsed(parse(v), bound, withLocal), order);
}

function conjunction(text: string, part: string): (version: string) => boolean {
  const tests: ((version: string) => boolean)[] = [];
  let rest = part;
  let any = false;
  while (rest.trim() !== '' && rest.trim() !== ',') {
    const m = CLAUSE.exec(rest);
    if (!m) throw new ConstraintError(text, `无法识别「${rest.trim()}」`);
    rest = rest.slice(m[0].length);
    any = true;
    const raw = m[2]!;
    let op = (m[1] === undefined || m[1] === '=' ? '==' : m[1]) as PypiOperator;
    if (raw === '*' && (op === '==' || op === '>=')) continue;
    if (raw.endsWith('.*') && (op === '==' || op === '!=')) op = op === '==' ? '==*' : '!=*';
    tests.push(clause(text, op, raw));
  }
  if (!any) throw new ConstraintError(text, '约束为空');
  return (v) => tests.every((t) => t(v));
}

export const pypiScheme: VersionScheme = {
  id: 'pypi',
  isValid: (version) => !parse(version).legacy,
  compare: (a, b) => compareParsed(parse(a), parse(b)),
  constraint(text) {
    const alternatives = text.split('||').map((part) => conjunction(text, part));
    return (version) => alternatives.some((test) => test(version));
  },
  introducedFloor(version) {
    // A final release (no pre, post, dev or local part) starts at its first development release,
    // the lowest version PEP 440 gives that release: 3.2.dev0 < 3.2a1 < 3.2rc1 < 3.2.
    const v = parse(version);
    if (v.legacy) return version;
    return v.pre || v.post !== null || v.dev !== null || v.local ? version : `${version}.dev0`;
  },
};
