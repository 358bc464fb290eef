// The one interface every version scheme implements (design §5: comparison and range evaluation
// are per ecosystem). A scheme compares version strings the way its ecosystem's own tool does and
// reads the constraint strings advisories write for that ecosystem (`>=1.2 <1.4`, `[1.0,2.0)`,
// `~> 3.2`, `^1.2 || ^2`). Parsed versions are cached by the scheme, so comparing the same strings
// again is cheap (matching runs thousands of comparisons per component list).

/** Scheme ids: purl types where one exists, plus the schemes that have none. */
export type SchemeId =
  | 'semver' | 'npm' | 'golang' | 'cargo' | 'hex' | 'pub' | 'nuget' | 'maven' | 'cran' | 'hackage'
  | 'pypi' | 'gem' | 'composer' | 'deb' | 'apk' | 'rpm';

export interface VersionScheme {
  readonly id: SchemeId;
  /** Whether the text is a valid version of this ecosystem. */
  isValid(version: string): boolean;
  /**
   * Negative, zero or positive as a < b, a = b, a > b, the way the ecosystem orders them.
   * Invalid versions never throw: they are ordered by the scheme's documented fallback.
   */
  compare(a: string, b: string): number;
  /**
   * A constraint string as advisories of this ecosystem write it, as a predicate.
   * Throws ConstraintError (with the text) when it cannot be read.
   */
  constraint(text: string): (version: string) => boolean;
  /**
   * Where an OSV `introduced` bound really starts, for schemes whose pre-releases sort below
   * their release (PEP 440: 3.2a1 < 3.2). Advisory databases list the pre-releases of the
   * release that introduced a flaw as affected — the flaw was introduced during its development —
   * so `introduced: 3.2` starts at the first pre-release of 3.2. Absent: the bound as written.
   */
  introducedFloor?(version: string): string;
}

export class ConstraintError extends Error {
  readonly constraint: string;
  constructor(constraint: string, reason: string) {
    super(`无法解析版本约束「${constraint}」：${reason}`);
    this.constraint = constraint;
  }
}

/** A comparison operator of a comparator list. */
export type Operator = '<' | '<=' | '>' | '>=' | '=' | '!=';

/** Tests `compare(version, bound)` against an operator. */
export function satisfies(order: number, op: Operator): boolean {
  switch (op) {
    case '<': return order < 0;
    case '<=': return order <= 0;
    case '>': return order > 0;
    case '>=': return order >= 0;
    case '=': return order === 0;
    case '!=': return order !== 0;
  }
}

/** Memoises a parse function for a scheme (bounded, so a long import cannot grow it forever). */
export function memo<T>(parse: (text: string) => T, limit = 100_000): (text: string) => T {
  let cache = new Map<string, T>();
  return (text) => {
    let hit = cache.get(text);
    if (hit === undefined && !cache.has(text)) {
      hit = parse(text);
      if (cache.size >= limit) cache = new Map();
      cache.set(text, hit);
    }
    return hit as T;
  };
}
