// RubyGems versions, ordered like Gem::Version#<=>: the text splits into numbers and letter runs
// (`1.0.a10` → 1, 0, "a", 10); any letter run makes a pre-release and sorts below a number in the
// same place. Trailing zeros are insignificant in both the release part and the pre-release part
// (`1.0.a.0` = `1.a`), exactly as Gem::Version#canonical_segments drops them.
//
// Text Gem::Version.new would reject (`1.0 beta`, `=1`) sorts below every valid version and
// among itself as plain text, so a malformed bound never matches a real release.

import type { Operator, VersionScheme } from './scheme.ts';
import { ConstraintError, memo, satisfies } from './scheme.ts';

type Segment = bigint | string;

interface GemVersion {
  readonly valid: boolean;
  readonly text: string;
  readonly segments: readonly Segment[];
  /** Segments with trailing zeros dropped from the release part and the pre-release part. */
  readonly canonical: readonly Segment[];
}

const VALID = /^\s*([0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)?\s*$/;

function dropTrailingZeros(segments: Segment[]): Segment[] {
  let end = segments.length;
  while (end > 0 && segments[end - 1] === 0n) end--;
  return segments.slice(0, end);
}

const parse = memo((text: string): GemVersion => {
  const m = VALID.exec(text);
  if (!m) return { valid: false, text, segments: [], canonical: [] };
  // RubyGems reads `1.0-rc1` as `1.0.pre.rc1`; an empty version is 0.
  const version = (m[1] ?? '0').replaceAll('-', '.pre.');
  const segments = (version.match(/[0-9]+|[a-z]+/gi) ?? []).map((s): Segment => (/^\d/.test(s) ? BigInt(s) : s));
  const firstWord = segments.findIndex((s) => typeof s === 'string');
  const canonical = firstWord < 0
    ? dropTrailingZeros(segments)
    : [...dropTrailingZeros(segments.slice(0, firstWord)), ...dropTrailingZeros(segments.slice(firstWord))];
  return { valid: true, text, segments, canonical };
});

function compareParsed(a: GemVersion, b: GemVersion): number {
  if (!a.valid || !b.valid) {
    if (a.valid !== b.valid) return a.valid ? 1 : -1;
    return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  }
  const n = Math.max(a.canonical.length, b.canonical.length);
  for (let i = 0; i < n; i++) {
    const x = a.canonical[i] ?? 0n;
    const y = b.canonical[i] ?? 0n;
    if (x === y) continue;
    if (typeof x !== typeof y) return typeof x === 'string' ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function compare(a: string, b: string): number {
  return a === b ? 0 : compareParsed(parse(a), parse(b));
}

function isPrerelease(v: GemVersion): boolean {
  return v.segments.some((s) => typeof s === 'string');
}

/** Gem::Version#release: the version without its pre-release part. */
function release(v: GemVersion): GemVersion {
  if (!isPrerelease(v)) return v;
  const segments = v.segments.slice(0, v.segments.findIndex((s) => typeof s === 'string'));
  return parse(segments.join('.') || '0');
}

/** Gem::Version#bump: drop the pre-release and the last release segment, then increment. */
function bump(v: GemVersion): GemVersion {
  const segments = release(v).segments.slice() as bigint[];
  if (segments.length > 1) segments.pop();
  segments[segments.length - 1] = (segments.at(-1) ?? 0n) + 1n;
  return parse(segments.join('.'));
}

const CLAUSE = /^\s*,?\s*(~>|<=|>=|==|!=|<|>|=)?\s*([^\s,|]+)\s*,?/;

function clause(text: string, op: Operator | '~>', raw: string): (v: GemVersion) => boolean {
  const bound = parse(raw);
  if (!bound.valid) throw new ConstraintError(text, `无效的 RubyGems 版本 ${raw}`);
  if (op === '~>') {
    // Gem::Requirement: `~> 3.2.1` means >= 3.2.1 and release < 3.3.
    const ceiling = bump(bound);
    return (v) => compareParsed(v, bound) >= 0 && compareParsed(release(v), ceiling) < 0;
  }
  return (v) => satisfies(compareParsed(v, bound), op);
}

export const gemScheme: VersionScheme = {
  id: 'gem',
  isValid: (version) => parse(version).valid,
  compare,
  constraint(text) {
    const alternatives = text.split('||').map((part) => {
      const tests: ((v: GemVersion) => boolean)[] = [];
      let rest = part;
      while (rest.trim() !== '' && rest.trim() !== ',') {
        const m = CLAUSE.exec(rest);
        if (!m) throw new ConstraintError(text, `无法识别「${rest.trim()}」`);
        const op = m[1] === '==' ? '=' : (m[1] ?? '=') as Operator | '~>';
        tests.push(clause(text, op, m[2]!));
        rest = rest.slice(m[0].length);
      }
      if (tests.length === 0) throw new ConstraintError(text, '约束为空');
      return (v: GemVersion) => tests.every((t) => t(v));
    });
    return (version) => {
      const v = parse(version);
      return alternatives.some((test) => test(v));
    };
  },
};
