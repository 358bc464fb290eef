// What the extractor tests assert of one extractor: which paths it claims, and what it reads from
// one file of a folder. (Scanning a whole temporary tree is tests/support/temp-scan.ts.)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { Extractor, Target } from '../../../../server/engine/model.ts';
import { treeContext } from '../../../../server/engine/sources/tree.ts';

/** `extractor` claims every path of `claimed` and none of `passed`, one path at a time (the failure names it). */
export function expectClaims(extractor: Pick<Extractor, 'matches'>, claimed: readonly string[], passed: readonly string[]): void {
  for (const file of claimed) expect(extractor.matches(file), file).toBe(true);
  for (const file of passed) expect(extractor.matches(file), file).toBe(false);
}

/** Runs `extractor` on the file `rel` of the folder `root` (read through the folder's context); expects one target and answers it. */
export async function extractFile(extractor: Extractor, root: string, rel: string): Promise<Target> {
  const abs = path.join(root, rel);
  const targets = await extractor.extract({ path: rel, size: 0, read: () => readFile(abs), text: () => readFile(abs, 'utf8') }, treeContext(root, new AbortController().signal));
  expect(targets).toHaveLength(1);
  return targets[0]!;
}
