// Cargo (crates.io): SemVer 2.0 ordering; requirements in Cargo's syntax, where a bare version
// is a caret requirement (`1.2.3` means `^1.2.3`) and comparators are joined by commas. Cargo
// keeps pre-releases out of ranges that do not name one; we match them by plain order instead,
// for the reason given in npm.ts.

import { compareSemver, semverRange } from './npm.ts';
import type { VersionScheme } from './scheme.ts';

const VALID = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const cargoScheme: VersionScheme = {
  id: 'cargo',
  isValid: (v) => VALID.test(v.trim()),
  compare: compareSemver,
  constraint: (text) => semverRange(text, compareSemver, { bare: '^' }),
};
