// Packagist (Composer) versions.
//
// Ordering is PHP's version_compare, which is what Composer's Comparator calls: the text is cut
// into parts at dots, `-`, `_`, `+` and digit/letter boundaries; numbers compare numerically,
// words by their stability (dev < alpha = a < beta = b < RC = rc < # < patch = pl = p; any other
// word ranks like dev), and a version that runs out of parts first is compared as if its next
// part were "#" — so `1.0 < 1.0.0`, `1.0-beta < 1.0 < 1.0pl1`. Two deliberate departures from
// the C function, both fixed by the upstream corpus: a leading `v`/`V` is ignored, and numbers
// of any length compare exactly (PHP clamps them to the largest integer). Like version_compare,
// the order is only guaranteed transitive for text that looks like a version.
//
// Constraints follow Composer's VersionParser instead: versions are normalised to four parts
// first (`1.0` and `1.0.0` both become 1.0.0.0), `<1.2` and `>=1.2` exclude/include the
// pre-releases of 1.2, and `dev-branch` names only ever equal themselves.

import type { Operator, VersionScheme } from './scheme.ts';
import { ConstraintError, memo, satisfies } from './scheme.ts';

// --- ordering ----------------------------------------------------------------------------------

function canonicalParts(text: string): string[] {
  const source = text.replace(/^[vV]/, '').replace(/[-_+]/g, '.');
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const prev = source[i - 1];
    if (prev !== undefined && prev !== '.' && c !== '.' && isDigit(prev) !== isDigit(c)) out += '.';
    out += c;
  }
  return out.split('.');
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

const parts = memo(canonicalParts);

function stability(word: string): number {
  if (word.startsWith('RC')) return 3;
  if (word.startsWith('dev')) return 0;
  if (word.startsWith('a')) return 1;
  if (word.startsWith('b')) return 2;
  if (word.startsWith('rc')) return 3;
  if (word.startsWith('#')) return 4;
  if (word.startsWith('p')) return 5;
  return 0;
}

const NUMBER = /^\d+$/;

function compareNumbers(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareParts(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const xn = NUMBER.test(x);
    const yn = NUMBER.test(y);
    const d = xn && yn ? compareNumbers(x, y) : Math.sign(stability(xn ? '#' : x) - stability(yn ? '#' : y));
    if (d !== 0) return d;
  }
  if (a.length > b.length) return NUMBER.test(a[n]!) ? 1 : compareParts(a.slice(n), ['#']);
  if (a.length < b.length) return NUMBER.test(b[n]!) ? -1 : compareParts(['#'], b.slice(n));
  return 0;
}

function compare(a: string, b: string): number {
  return a === b ? 0 : compareParts(parts(a), parts(b));
}

// --- normalisation (VersionParser::normalize) --------------------------------------------------

const MODIFIER = '[._-]?(?:(stable|beta|b|RC|alpha|a|patch|pl|p)((?:[.-]?\\d+)*)?)?([.-]?dev)?';
const CLASSICAL = new RegExp(`^v?(\\d{1,5})(\\.\\d+)?(\\.\\d+)?(\\.\\d+)?${MODIFIER}$`, 'i');
const DATE = new RegExp(`^v?(\\d{4}(?:[.:-]?\\d{2}){1,6}(?:[.:-]?\\d{1,3}){0,2})${MODIFIER}$`, 'i');
const BRANCH = /^v?(\d+)(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?$/;

function expandStability(word: string): string {
  const w = word.toLowerCase();
  if (w === 'a' || w === 'alpha') return 'alpha';
  if (w === 'b' || w === 'beta') return 'beta';
  if (w === 'p' || w === 'pl' || w === 'patch') return 'patch';
  if (w === 'rc') return 'RC';
  return w;
}

function withModifier(base: string, stab: string | undefined, num: string | undefined, dev: string | undefined): string {
  let version = base;
  if (stab) {
    if (stab.toLowerCase() === 'stable') return version;
    version += `-${expandStability(stab)}${(num ?? '').replace(/^[.-]+/, '')}`;
  }
  if (dev) version += '-dev';
  return version;
}

/** Composer's normalised form (`1.2` → `1.2.0.0`, `1.0b2` → `1.0.0.0-beta2`), or null. */
function normalizeComposer(text: string): string | null {
  let version = text.trim();
  const alias = /^([^,\s]+) +as +[^,\s]+$/.exec(version);
  if (alias) version = alias[1]!;
  version = version.replace(/@(?:stable|RC|beta|alpha|dev)$/i, '');
  if (version === 'master' || version === 'trunk' || version === 'default') version = `dev-${version}`;
  if (/^dev-/i.test(version)) return `dev-${version.slice(4)}`;
  const build = /^([^,\s+]+)\+\S+$/.exec(version);
  if (build) version = build[1]!;

  let m = CLASSICAL.exec(version);
  if (m) {
    const base = `${m[1]}${m[2] ?? '.0'}${m[3] ?? '.0'}${m[4] ?? '.0'}`;
    return withModifier(base, m[5], m[6], m[7]);
  }
  m = DATE.exec(version);
  if (m) return withModifier(m[1]!.replace(/\D/g, '.'), m[2], m[3], m[4]);

  const dev = /^(.*?)[.-]?dev$/i.exec(version);
  if (dev) {
    const branch = BRANCH.exec(dev[1]!);
    if (branch) {
      const fill = (p: string | undefined): string =>
        p === undefined || /[xX*]/.test(p) ? '.9999999' : p;
      return `${branch[1]}${fill(branch[2])}${fill(branch[3])}${fill(branch[4])}-dev`;
    }
  }
  return null;
}

// --- constraints -------------------------------------------------------------------------------

type Test = (normalized: string) => boolean;

const PARTIAL = new RegExp(`^v?(\\d+)(?:\\.(\\d+|[xX*]))?(?:\\.(\\d+|[xX*]))?(?:\\.(\\d+|[xX*]))?${MODIFIER}$`, 'i');

interface Partial {
  readonly numbers: readonly bigint[];
  readonly modified: boolean;
}

function partial(text: string, raw: string): Partial {
  const m = PARTIAL.exec(raw);
  if (!m) throw new ConstraintError(text, `无效的版本 ${raw}`);
  const numbers: bigint[] = [];
  for (const p of [m[1], m[2], m[3], m[4]]) {
    if (p === undefined || !NUMBER.test(p)) break;
    numbers.push(BigInt(p));
  }
  return { numbers, modified: Boolean(m[5] || m[7]) };
}

/** VersionParser::manipulateVersionString: keep `position` parts, bump the last, zero the rest. */
function bumped(numbers: readonly bigint[], position: number, increment: bigint): string {
  const out: bigint[] = [];
  for (let i = 0; i < 4; i++) out.push(i < position ? (numbers[i] ?? 0n) : 0n);
  out[position - 1] = out[position - 1]! + increment;
  return `${out.join('.')}-dev`;
}

function ordered(op: Operator, bound: string): Test {
  if (bound.startsWith('dev-')) {
    return op === '=' ? (v) => v === bound : op === '!=' ? (v) => v !== bound : () => false;
  }
  return (v) => !v.startsWith('dev-') && satisfies(compare(v, bound), op);
}

function range(low: string, high: string): Test {
  const a = ordered('>=', low);
  const b = ordered('<', high);
  return (v) => a(v) && b(v);
}

function atom(text: string, written: string): Test {
  // A stability flag (`^1.2@beta`) tunes Composer's minimum-stability, not the range.
  const token = written.replace(/@(?:stable|RC|beta|alpha|dev)$/i, '');
  if (/^(?:v?[xX*])(?:\.[xX*])*$/.test(token)) return () => true;

  const caret = /^\^(.+)$/.exec(token);
  if (caret) {
    const p = partial(text, caret[1]!);
    const [major = 0n, minor, patch] = p.numbers;
    const position = major !== 0n || minor === undefined ? 1 : minor !== 0n || patch === undefined ? 2 : 3;
    return range(lowerBound(text, caret[1]!, p), bumped(p.numbers, position, 1n));
  }
  const tilde = /^~(?!=)(.+)$/.exec(token);
  if (tilde) {
    const p = partial(text, tilde[1]!);
    const position = Math.max(1, p.numbers.length - 1);
    return range(lowerBound(text, tilde[1]!, p), bumped(p.numbers, position, 1n));
  }
  const wildcard = /^v?(\d+(?:\.\d+)*)\.[xX*]$/.exec(token);
  if (wildcard) {
    const numbers = wildcard[1]!.split('.').map(BigInt);
    if (numbers.length > 3) throw new ConstraintError(text, `通配符位置无效 ${token}`);
    return range(bumped(numbers, numbers.length, 0n), bumped(numbers, numbers.length, 1n));
  }

  const m = /^(<>|!=|>=?|<=?|==?)?\s*(.+)$/.exec(token)!;
  const op = (m[1] === '==' ? '=' : m[1] === '<>' ? '!=' : m[1] ?? '=') as Operator;
  const raw = m[2]!;
  let bound = normalizeComposer(raw);
  if (bound === null) throw new ConstraintError(text, `无效的版本 ${raw}`);
  // `<1.2` and `>=1.2` mean "before/from the first 1.2 build", pre-releases of 1.2 included.
  if ((op === '<' || op === '>=') && !bound.startsWith('dev-') && !bound.includes('-')) bound += '-dev';
  return ordered(op, bound);
}

function lowerBound(text: string, raw: string, p: Partial): string {
  const normalized = normalizeComposer(raw.replace(/\.[xX*](?=\.|$)/g, '.0'));
  if (normalized === null) throw new ConstraintError(text, `无效的版本 ${raw}`);
  return p.modified || normalized.includes('-') ? normalized : `${normalized}-dev`;
}

function hyphenRange(text: string, from: string, to: string): Test {
  const low = partial(text, from);
  const lowBound = lowerBound(text, from, low);
  const high = partial(text, to);
  const highNormalized = normalizeComposer(to);
  if (highNormalized === null) throw new ConstraintError(text, `无效的版本 ${to}`);
  // A complete upper version is inclusive; a partial one (`- 2.1`) covers all of 2.1.x.
  const upper: Test = high.numbers.length >= 3 || high.modified
    ? ordered('<=', highNormalized)
    : ordered('<', bumped(high.numbers, high.numbers.length, 1n));
  const lower = ordered('>=', lowBound);
  return (v) => lower(v) && upper(v);
}

function conjunction(text: string, part: string): Test {
  const hyphen = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(part);
  if (hyphen) return hyphenRange(text, hyphen[1]!, hyphen[2]!);
  const tokens = part.trim().replace(/(<>|!=|>=?|<=?|==?|\^|~)\s+/g, '$1').split(/\s*,\s*|\s+/).filter(Boolean);
  if (tokens.length === 0) throw new ConstraintError(text, '约束为空');
  const tests = tokens.map((token) => atom(text, token));
  return (v) => tests.every((t) => t(v));
}

export const composerScheme: VersionScheme = {
  id: 'composer',
  isValid: (version) => normalizeComposer(version) !== null,
  compare,
  constraint(text) {
    const alternatives = text.split(/\s*\|\|?\s*/).map((part) => conjunction(text, part));
    return (version) => {
      const normalized = normalizeComposer(version) ?? version.trim();
      return alternatives.some((test) => test(normalized));
    };
  },
};
