// CRAN (R) package versions: non-negative integers separated by `.` or `-`, compared as lists
// the way R's compareVersion() does — so a longer list wins when one is a prefix of the other
// (`1.8 < 1.8.0`) and there is no implied trailing zero.

import { comparatorUnion } from './ranges.ts';
import { memo } from './scheme.ts';
import type { VersionScheme } from './scheme.ts';
import { compareNumericLists, numericListParser } from './hackage.ts';

const parse = memo(numericListParser(/[.-]/));

function compare(a: string, b: string): number {
  return compareNumericLists(parse(a), parse(b));
}

export const cranScheme: VersionScheme = {
  id: 'cran',
  isValid: (v) => /^\d+([.-]\d+)+$/.test(v.trim()) || /^\d+$/.test(v.trim()),
  compare,
  constraint: (text) => comparatorUnion(text, compare),
};
