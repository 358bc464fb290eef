// Hackage (Haskell PVP): dot-separated non-negative integers compared as lists, a longer list
// winning over its own prefix (`1.0 < 1.0.0`), as Cabal's Version Ord instance does. Cabal
// constraints join comparators with `&&`/`||`; advisories also write comma lists.

import { comparatorUnion } from './ranges.ts';
import { memo } from './scheme.ts';
import type { VersionScheme } from './scheme.ts';
import { compareDigits } from './semver.ts';

/**
 * A parsed list: the numeric components, then whatever text could not be read as numbers.
 * The leftover text only exists so invalid versions still order deterministically: after the
 * numbers they share, by plain string comparison.
 */
export interface NumericList { numbers: string[]; rest: string }

export function numericListParser(separator: RegExp): (text: string) => NumericList {
  return (text) => {
    const parts = text.trim().split(separator);
    const numbers: string[] = [];
    let i = 0;
    while (i < parts.length && /^\d+$/.test(parts[i]!)) numbers.push(parts[i++]!);
    return { numbers, rest: parts.slice(i).join('.') };
  };
}

export function compareNumericLists(a: NumericList, b: NumericList): number {
  for (let i = 0; i < Math.min(a.numbers.length, b.numbers.length); i++) {
    const order = compareDigits(a.numbers[i]!, b.numbers[i]!);
    if (order !== 0) return order;
  }
  const byLength = a.numbers.length - b.numbers.length;
  if (byLength !== 0) return byLength;
  return a.rest < b.rest ? -1 : a.rest > b.rest ? 1 : 0;
}

const parse = memo(numericListParser(/\./));

function compare(a: string, b: string): number {
  return compareNumericLists(parse(a), parse(b));
}

export const hackageScheme: VersionScheme = {
  id: 'hackage',
  isValid: (v) => /^\d+(\.\d+)*$/.test(v.trim()),
  compare,
  constraint: (text) => comparatorUnion(text, compare, cabalSugar),
};

/** Cabal's `==1.2.*` (any version starting 1.2) and `^>=1.2.3` (PVP: up to the next A.B major). */
function cabalSugar(op: string, version: string): ((v: string) => boolean) | undefined {
  if ((op === '==' || op === '=') && version.endsWith('.*')) {
    const prefix = parse(version.slice(0, -2)).numbers;
    return (v) => {
      const numbers = parse(v).numbers;
      return prefix.every((n, i) => numbers[i] !== undefined && compareDigits(n, numbers[i]!) === 0);
    };
  }
  if (op === '^' && version.startsWith('>=')) {
    const lower = version.slice(2);
    const numbers = parse(lower).numbers;
    if (numbers.length === 0) return undefined;
    const major = [numbers[0]!, numbers[1] ?? '0'];
    const upper = `${major[0]}.${String(BigInt(major[1]) + 1n)}`;
    return (v) => compare(v, lower) >= 0 && compare(v, upper) < 0;
  }
  return undefined;
}
