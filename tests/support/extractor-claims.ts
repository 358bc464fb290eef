// What an extractor claims: the assertion every extractor test makes of its `matches`, one path at
// a time (the failure names the path).
import { expect } from 'vitest';
import type { Extractor } from '../../server/engine/index.ts';

/** `extractor` claims every path of `claimed` and none of `passed`. */
export function expectClaims(extractor: Pick<Extractor, 'matches'>, claimed: readonly string[], passed: readonly string[]): void {
  for (const file of claimed) expect(extractor.matches(file), file).toBe(true);
  for (const file of passed) expect(extractor.matches(file), file).toBe(false);
}
