// Hex (Elixir/Erlang): Elixir's Version is strict SemVer 2.0 in order; requirements use
// `~> 1.2` (pessimistic), `==`, `!=`, and `and`/`or`, while advisories also write comma lists.

import { compareSemver, semverRange } from './npm.ts';
import type { VersionScheme } from './scheme.ts';

const VALID = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const hexScheme: VersionScheme = {
  id: 'hex',
  isValid: (v) => VALID.test(v.trim()),
  compare: compareSemver,
  constraint: (text) => semverRange(text, compareSemver, { bare: '=' }),
};
