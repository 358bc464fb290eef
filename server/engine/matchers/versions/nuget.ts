// NuGet versions: up to four numeric parts (missing ones are 0, leading zeros ignored, so
// `1.0.01` = `1.0.1.0`), a SemVer-style pre-release compared case-insensitively, and build
// metadata that never affects order. Constraints are NuGet's interval notation (`[1.0,2.0)`,
// `(,1.0]`, `[1.0]`) or the comparator lists GitHub advisories write (`< 4.7.0`). A bare version
// is exact here, not NuGet's "minimum version": in an advisory it names an affected release.
// Invalid versions fall back to the lenient SemVer-like parse of semver.ts.

import { comparatorUnion, intervalUnion, isIntervalNotation } from './ranges.ts';
import { memo } from './scheme.ts';
import type { VersionScheme } from './scheme.ts';
import { compareNumbers, comparePre, parseSemverLike } from './semver.ts';

const parse = memo(parseSemverLike);

function compare(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  return compareNumbers(x.numbers, y.numbers) || comparePre(x.pre, y.pre, true);
}

const VALID = /^\d+(\.\d+){0,3}(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const nugetScheme: VersionScheme = {
  id: 'nuget',
  isValid: (v) => VALID.test(v.trim()),
  compare,
  constraint: (text) => (isIntervalNotation(text) ? intervalUnion(text, compare) : comparatorUnion(text, compare)),
};
