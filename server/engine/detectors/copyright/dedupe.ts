// De-duplication per component: the same holder (or statement, or author) found in many files or
// many times in one file is reported once, with every line range it was seen at, or only the
// first one when the caller wants a compact summary.
import { foldLatin } from './prepare.ts';
import type { Found } from './statements.ts';

export type Location = { file?: string; startLine: number; endLine: number };
export type Deduped = { value: string; locations: Location[] };

// Two spellings are the same holder when they differ only in case, accents, spacing, punctuation
// and legal-form suffix ("Foo, Inc." = "Foo Inc" = "FOO INC.", "Koskimäki" = "Koskimaki").
export function normaliseHolder(value: string): string {
  return foldLatin(value)
    .toLowerCase()
    .replace(/[.,;:"'()]/g, ' ')
    .replace(/\b(?:inc|incorporated|ltd|limited|llc|corp|corporation|co|gmbh|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function dedupe(
  found: Iterable<Found & { file?: string }>,
  options: { keep?: 'all' | 'first'; normalise?: (value: string) => string } = {},
): Deduped[] {
  const normalise = options.normalise ?? normaliseHolder;
  const byKey = new Map<string, Deduped>();
  for (const f of found) {
    const key = normalise(f.value);
    if (key === '') continue;
    const location: Location = f.file === undefined
      ? { startLine: f.startLine, endLine: f.endLine }
      : { file: f.file, startLine: f.startLine, endLine: f.endLine };
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, { value: f.value, locations: [location] });
    else if (options.keep !== 'first') seen.locations.push(location);
  }
  return [...byKey.values()];
}
