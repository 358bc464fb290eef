// Go module versions: SemVer with a required `v` (advisories often drop it, so it is optional
// here), `+incompatible` as build metadata (ignored for order, as the go command does), and
// pseudo-versions (`v0.0.0-20210101000000-abcdef123456`, `v1.2.4-0.2021…`) which are ordinary
// pre-releases and so already sort by their timestamp under SemVer pre-release rules.

import { compareSemver, semverRange } from './npm.ts';
import type { VersionScheme } from './scheme.ts';

const VALID = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const golangScheme: VersionScheme = {
  id: 'golang',
  isValid: (v) => VALID.test(v.trim()),
  compare: compareSemver,
  // Go has no range syntax of its own; advisories write comparator lists (`>= 0, < 0.3.7`).
  constraint: (text) => semverRange(text, compareSemver, { bare: '=' }),
};
