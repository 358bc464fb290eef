// Pub (Dart): SemVer numbers and pre-releases, but unlike SemVer, build metadata orders too —
// a build sorts after the same version without one (`1.0.0 < 1.0.0+1`, `1.0.0-pre <
// 1.0.0-pre+1`), and builds compare identifier by identifier like pre-releases (pub_semver's
// Version.compareTo). Parsing is lenient (any number of numeric parts, optional `v`) so that
// malformed versions still get a stable order instead of an error.

import { semverRange } from './npm.ts';
import { memo } from './scheme.ts';
import type { VersionScheme } from './scheme.ts';
import { compareIdentifiers, compareNumbers, comparePre, parseSemverLike } from './semver.ts';

const parse = memo(parseSemverLike);

function compare(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  const order = compareNumbers(x.numbers, y.numbers) || comparePre(x.pre, y.pre);
  if (order !== 0) return order;
  if (x.build.length === 0 || y.build.length === 0) return x.build.length - y.build.length;
  return compareIdentifiers(x.build, y.build);
}

const VALID = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const pubScheme: VersionScheme = {
  id: 'pub',
  isValid: (v) => VALID.test(v.trim()),
  compare,
  constraint: (text) => semverRange(text, compare, { bare: '=', caretZeroMajorIsMinor: true }),
};
